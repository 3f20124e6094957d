// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// RSS and queue counts: `ethtool -l`, `ethtool -x` and the root qdisc in the snapshot, the
// spreads ethtool writes (and the router's awk that reads them back), the planner's channel
// counts, RSS spread and XPS per transmit queue, the layout file, and resolve's order. The real
// ethtool and driver (virtio-net with RSS) are in the emulated router's test (tests/router-vm).
#include "core/base/json_text.h"
#include "core/collect/collect_remote.h"
#include "core/model/snapshot_json.h"
#include "core/model/snapshot_text.h"
#include "core/router-scripts/router_scripts.h"
#include "tests/unit/layout/router_copy.h"

#include <gtest/gtest.h>

#include <sstream>

using namespace coresteer;
using namespace coresteer::test;

namespace {

// `ethtool -l` as ethtool 6.1 prints it over netlink for igb (one "other" vector, the link).
std::string ethtoolL(int max, int current) {
    const auto m = std::to_string(max), c = std::to_string(current);
    return "Channel parameters for eno1:\nPre-set maximums:\nRX:\t\tn/a\nTX:\t\tn/a\nOther:\t\t1\n"
           "Combined:\t" +
           m + "\nCurrent hardware settings:\nRX:\t\tn/a\nTX:\t\tn/a\nOther:\t\t1\nCombined:\t" +
           c + "\n";
}

// `ethtool -x` as ethtool prints it: eight entries a line, each line led by its first index.
std::string ethtoolX(const std::vector<std::uint32_t>& table, std::uint32_t rings) {
    std::ostringstream o;
    o << "RX flow hash indirection table for eno1 with " << rings << " RX ring(s):\n";
    for (std::size_t i = 0; i < table.size(); ++i) {
        if (i % 8 == 0)
            o << (i ? "\n" : "") << std::string(5 - std::to_string(i).size(), ' ') << i << ":";
        o << " " << std::string(5 - std::to_string(table[i]).size(), ' ') << table[i];
    }
    o << "\nRSS hash key:\n"
         "30:12:66:fa:1c:0b:5e:91:04:22:3c:51:7a:18:0e:f2:4d:00:6a:33:09:1f:77:41:2b:0c:5a:68:"
         "11:3e:40:0d:2f:71:58:06:63:1a:24:7c\n"
         "RSS hash function:\n    toeplitz: on\n    xor: off\n    crc32: off\n";
    return o.str();
}

std::vector<std::uint32_t> spread(const std::string& s, std::size_t size, std::uint32_t rings) {
    return RssSpread::parse(s).value().tableFor(size, rings);
}

std::string skipReason(const Resolution& r, const std::string& target) {
    for (const auto& s : r.skipped)
        if (s.target == target)
            return s.reason;
    return "(not skipped)";
}

} // namespace

// The spreads as ethtool writes them: `equal N` is i % N, weights fill contiguous runs in
// proportion; of() gives back the one form for a table (and none for a table no form makes),
// and the router's awk (rss-spec.awk, under BusyBox awk and the host's awk) agrees with it.
TEST(Rss, SpreadsAreTheTablesEthtoolWritesAndTheRoutersAwkAgrees) {
    EXPECT_EQ(spread("equal 3", 8, 4), (std::vector<std::uint32_t>{0, 1, 2, 0, 1, 2, 0, 1}));
    EXPECT_EQ(spread("default", 6, 4), (std::vector<std::uint32_t>{0, 1, 2, 3, 0, 1}));
    // weight 1 3 over 8 entries: ring 0 takes the entries below 8 * 1 / 4.
    EXPECT_EQ(spread("weight 1 3", 8, 2), (std::vector<std::uint32_t>{0, 0, 1, 1, 1, 1, 1, 1}));
    EXPECT_EQ(spread("weight 0 1 1", 4, 3), (std::vector<std::uint32_t>{1, 1, 2, 2}));
    EXPECT_TRUE(spread("weight 5 5", 8, 2).empty()); // a sum above the table: ethtool refuses
    for (const char* bad : {"", "equal", "equal 0", "weight", "weight 0 0", "weight 1 x", "bogus",
                            "default 2", "equal 70000", "equal 2 3", "weight -1 2"})
        EXPECT_FALSE(RssSpread::parse(bad)) << bad;
    EXPECT_EQ(RssSpread::parse("weight 1 2 3")->toString(), "weight 1 2 3");

    struct Case {
        std::vector<std::uint32_t> table;
        std::uint32_t rings;
        std::string spread; // "" where no form makes it
    };
    std::vector<Case> cases = {
        {spread("default", 128, 4), 4, "default"},
        {spread("equal 2", 128, 4), 4, "equal 2"},
        {spread("equal 4", 128, 4), 4, "default"},
        {spread("weight 1 3", 128, 2), 2, "weight 1 3"},
        {spread("weight 2 6", 128, 2), 2, "weight 1 3"},
        {spread("weight 1 1 1 1", 128, 4), 4, "weight 1 1 1 1"},
        {spread("weight 0 1 1 1", 128, 4), 4, "weight 0 1 1 1"},
        {spread("weight 3 2 2", 7, 3), 3, "weight 2 1 1"}, // the same table
        {{0, 1, 1, 0, 2, 3, 2, 3}, 4, ""},
        {{3, 2, 1, 0}, 4, ""},
    };
    const auto awk = "RSS_SPEC=" + Router::ssh_quote(std::string(router_scripts::kRssSpecAwk)) +
                     "\nfor a in 'busybox awk' awk; do\n"
                     "  $a -v want=\"$WANT\" \"$RSS_SPEC\" \"$1\" || echo none\n"
                     "done\n";
    Router r("x86-server-96");
    const auto script = r.script("rss.sh", awk);
    for (const auto& c : cases) {
        const auto of = RssSpread::of(c.table, c.rings);
        EXPECT_EQ(of ? of->toString() : "", c.spread);
        if (of) {
            EXPECT_EQ(of->tableFor(c.table.size(), c.rings), c.table) << c.spread;
        }
        r.write("x.txt", ethtoolX(c.table, c.rings));
        std::string out;
        ASSERT_EQ(
            r.ash(script + " " + Router::ssh_quote((r.root / "x.txt").string()), "WANT=", &out), 0)
            << r.err();
        const auto want = (c.spread.empty() ? "none" : c.spread) + "\n";
        EXPECT_EQ(out, want + want) << r.err();
        if (!of)
            continue;
        // "same" when the wanted spread gives the table, in any of its forms.
        ASSERT_EQ(r.ash(script + " " + Router::ssh_quote((r.root / "x.txt").string()),
                        "WANT=" + Router::ssh_quote(c.spread), &out),
                  0);
        EXPECT_EQ(out, "same\nsame\n");
    }
    // A table that is not ethtool's: the awk gives up, as the reader does.
    r.write("x.txt", "RX flow hash indirection table for eno1 with 4 RX ring(s):\n"
                     "    0:      0     1     x     3\n");
    std::string out;
    r.ash(script + " " + Router::ssh_quote((r.root / "x.txt").string()), "WANT=", &out);
    EXPECT_EQ(out, "none\nnone\n");
}

// The snapshot reads `ethtool -l`, `ethtool -x` and the root qdisc; a value that is not what
// the tools print is a warning that names the file and line; the collector script gives the
// same entries as the local reader.
TEST(Rss, TheSnapshotReadsChannelsTheTableAndTheRootQdisc) {
    Router r("x86-server-96");
    r.write("ethtool/eno1/channels", ethtoolL(8, 8));
    r.write("ethtool/eno1/rxfh", ethtoolX(spread("equal 2", 128, 8), 8));
    r.write("tc/qdisc", "qdisc noqueue 0: dev lo root refcnt 2 \n"
                        "qdisc mq 0: dev eno1 root \n"
                        "qdisc fq_codel 0: dev eno1 parent :8 limit 10240p flows 1024 quantum "
                        "1514 target 5ms interval 100ms memory_limit 32Mb ecn drop_batch 64 \n"
                        "qdisc cake 8001: dev eno2 root refcnt 9 bandwidth 900Mbit diffserv3 "
                        "triple-isolate nonat nowash no-ack-filter split-gso rtt 100ms raw "
                        "overhead 0 \n");
    auto snap = r.snapshot();
    EXPECT_EQ(warnings(snap).find("ethtool"), std::string::npos) << warnings(snap);
    const auto* eno1 = snap.interface("eno1");
    ASSERT_NE(eno1, nullptr);
    ASSERT_TRUE(eno1->channels);
    EXPECT_EQ(eno1->channels->combined, (Channels::Count{8u, 8u}));
    EXPECT_EQ(eno1->channels->other, (Channels::Count{1u, 1u}));
    EXPECT_EQ(eno1->channels->rx, Channels::Count{});
    EXPECT_EQ(eno1->channels->rxRings(), 8u);
    ASSERT_TRUE(eno1->rss);
    EXPECT_EQ(eno1->rss->rings, 8u);
    EXPECT_EQ(eno1->rss->table, spread("equal 2", 128, 8));
    EXPECT_EQ(eno1->rootQdisc, "mq");
    EXPECT_TRUE(eno1->multiQueueQdisc());
    EXPECT_EQ(snap.interface("eno2")->rootQdisc, "cake");
    EXPECT_FALSE(snap.interface("eno2")->multiQueueQdisc());
    EXPECT_FALSE(snap.interface("eno2")->channels); // not read
    const auto json = toJson(snap);
    for (const auto& i : json["interfaces"])
        if (i["name"] == "eno1") {
            EXPECT_EQ(i["channels"].dump(), R"({"combined":{"current":8,"max":8},)"
                                            R"("other":{"current":1,"max":1}})");
            EXPECT_EQ(i["rss"]["spread"], "equal 2");
            EXPECT_EQ(i["rss"]["rings"], 8);
            EXPECT_EQ(i["rss"]["table"].size(), 128u);
            EXPECT_EQ(i["root_qdisc"], "mq");
        }
    EXPECT_NE(toText(snap).find("combined 8/8  RSS equal 2 over 128 entries  qdisc mq"),
              std::string::npos)
        << toText(snap);

    // The collector script over the same root gives the same entries.
    const auto cs = makeCollectScript(r.root.string());
    std::string out;
    ASSERT_EQ(r.ash(r.script("collect.sh", cs.script), "", &out), 0) << r.err();
    FileBundle viaScript;
    std::string error;
    ASSERT_TRUE(parseCollectOutput(out, cs.token, viaScript, &error)) << error;
    const auto local = collectLocal(r.root);
    for (const char* p : {"ethtool/eno1/channels", "ethtool/eno1/rxfh", "tc/qdisc"}) {
        ASSERT_NE(viaScript.get(p), nullptr) << p;
        EXPECT_EQ(*viaScript.get(p), *local.get(p)) << p;
    }

    // What the tools never print: warnings with file and line, the values unknown.
    r.write("ethtool/eno1/channels", "Channel parameters for eno1:\nPre-set maximums:\n"
                                     "Combined:\t99999999\nCurrent hardware settings:\n"
                                     "Combined:\t$(reboot)\n");
    r.write("ethtool/eno1/rxfh", "RX flow hash indirection table for eno1 with 4 RX ring(s):\n"
                                 "    0:      0     1     2     3\n"
                                 "   16:      0     1     2     3\n");
    r.write("tc/qdisc", "qdisc mq 0: dev eno1 root\n\x1b[2Jgarbage line\n");
    snap = r.snapshot();
    const auto w = warnings(snap);
    EXPECT_NE(w.find("ethtool/eno1/channels:3: warning: Combined is '99999999', not a channel "
                     "count ethtool prints; left as unknown"),
              std::string::npos)
        << w;
    EXPECT_NE(w.find("ethtool/eno1/channels:5: warning: Combined is '$(reboot)'"),
              std::string::npos)
        << w;
    EXPECT_NE(w.find("ethtool/eno1/rxfh:3: warning: the table goes on at entry 16, not 4; no "
                     "indirection table read"),
              std::string::npos)
        << w;
    EXPECT_NE(w.find("tc/qdisc:2: warning: not a qdisc line ('\\x1b[2Jgarbage line')"),
              std::string::npos)
        << w;
    EXPECT_EQ(snap.interface("eno1")->channels->combined, Channels::Count{});
    EXPECT_TRUE(snap.interface("eno1")->rss->table.empty());
    EXPECT_EQ(snap.interface("eno1")->rootQdisc, "mq");

    // A qdisc kind is data: terminal escapes, $(...), a line separator and bytes that are no
    // UTF-8 come out printable (at most 16 bytes), in the text, the JSON and a plan's reasons.
    r.write("tc/qdisc", "qdisc $(reboot)\x1b[2J\xe2\x80\xa8\xff" + std::string(200, 'q') +
                            " 0: dev eno1 root\n");
    snap = r.snapshot();
    const auto kind = snap.interface("eno1")->rootQdisc;
    EXPECT_LE(kind.size(), 16u + 3u) << kind;
    EXPECT_EQ(kind.find('\x1b'), std::string::npos) << kind;
    EXPECT_EQ(kind.find('\xff'), std::string::npos) << kind;
    EXPECT_EQ(toText(snap).find('\x1b'), std::string::npos);
    EXPECT_TRUE(nlohmann::json::accept(toJsonText(snap)));
    for (const auto& x : plan(snap).tx)
        EXPECT_EQ(x.why.find('\x1b'), std::string::npos) << x.why;

    // Without tc, `ip link show`; ethtool's own refusal is "none", another failure unknown.
    std::filesystem::remove(r.root / "tc/qdisc");
    r.write("ip/link", "1: lo: <LOOPBACK,UP,LOWER_UP> mtu 65536 qdisc noqueue state UNKNOWN\n"
                       "    link/loopback 00:00:00:00:00:00 brd 00:00:00:00:00:00\n"
                       "2: eno1: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc mq state UP "
                       "mode DEFAULT group default qlen 1000\n"
                       "7: eno2.7@eno2: <BROADCAST> mtu 1500 qdisc noqueue state DOWN\n");
    auto b = collectLocal(r.root);
    b.add("ethtool/eno1/rxfh", {BundleEntry::Kind::Unreadable, "Operation not supported"});
    b.add("ethtool/eno1/channels", {BundleEntry::Kind::Unreadable, "No such device"});
    snap = buildSnapshot(b);
    EXPECT_EQ(snap.interface("eno1")->rootQdisc, "mq");
    EXPECT_EQ(snap.interface("lo")->rootQdisc, "noqueue");
    EXPECT_EQ(snap.interface("eno1")->rss, RssTable{});
    EXPECT_FALSE(snap.interface("eno1")->channels);
}

// The planner: a NIC that runs fewer queue pairs than it has and than there are cores gets
// more; a table narrowed to fewer rings gets its default back; each transmit queue goes to the
// CPU of its own interrupt, and the reason names the multi-queue qdisc.
TEST(Rss, ThePlannerSpreadsQueuesAndXpsFollowsEachQueuesInterrupt) {
    Router r("x86-server-96");
    r.write("ethtool/eno1/channels", ethtoolL(8, 4));
    r.write("ethtool/eno1/rxfh", ethtoolX(spread("equal 2", 128, 4), 4));
    r.write("tc/qdisc", "qdisc mq 0: dev eno1 root \nqdisc cake 8001: dev eno2 root refcnt 9\n");
    const auto snap = r.snapshot();
    const auto l = plan(snap);
    const auto* t = targetOf(l, "eno1");
    ASSERT_NE(t, nullptr);
    EXPECT_EQ(t->channels.combined, 8u);
    ASSERT_TRUE(t->rss);
    EXPECT_TRUE(t->rss->isDefault());
    EXPECT_NE(t->why.find("eno1 runs 4 of its 8 queue pairs: 8 give each core a receive queue of "
                          "its own to spread flows over (ethtool -L)"),
              std::string::npos)
        << t->why;
    EXPECT_NE(t->why.find("eno1's indirection table sends flows to 2 of its 8 receive rings "
                          "(equal 2): its default spread uses every ring (ethtool -X default)"),
              std::string::npos)
        << t->why;
    // XPS per transmit queue: the CPU of eno1-TxRx-N.
    int checked = 0;
    for (const auto& x : l.tx) {
        if (x.interface != "eno1")
            continue;
        const auto irq = std::find_if(l.irqs.begin(), l.irqs.end(), [&](const IrqTarget& i) {
            return i.irq.action == "eno1-TxRx-" + std::to_string(x.queue);
        });
        ASSERT_NE(irq, l.irqs.end()) << x.queue;
        EXPECT_EQ(x.xpsCpus, irq->cpus) << x.queue;
        EXPECT_NE(x.why.find("the core that takes its interrupt: under mq each queue has a qdisc "
                             "of its own"),
                  std::string::npos)
            << x.why;
        ++checked;
    }
    EXPECT_EQ(checked, 8);
    // eno2's root qdisc is one for all of its queues: the reason says so.
    for (const auto& x : l.tx)
        if (x.interface == "eno2") {
            EXPECT_NE(x.why.find("its root qdisc cake is one for all queues"), std::string::npos)
                << x.why;
        }
    // As many as it has already, and the default table: nothing to propose.
    r.write("ethtool/eno1/channels", ethtoolL(8, 8));
    r.write("ethtool/eno1/rxfh", ethtoolX(spread("default", 128, 8), 8));
    const auto again = plan(r.snapshot());
    const auto* u = targetOf(again, "eno1");
    EXPECT_TRUE(!u || (!u->channels.any() && !u->rss));
}

// Resolve: a lower count goes after the spread that fits it, a higher one before the spread
// that uses it; queues and IRQs a new count takes away are skipped, those it brings wait for
// the next apply; what the driver lacks, or a table no spread could put back, is skipped with
// the reason. The layout file carries channels and rss (schema 5) and refuses bad ones.
TEST(Rss, ResolveOrdersTheWritesAndSkipsWhatANewCountChanges) {
    Router r("x86-server-96");
    r.write("ethtool/eno1/channels", ethtoolL(8, 8));
    r.write("ethtool/eno1/rxfh", ethtoolX(spread("default", 128, 8), 8));
    const auto snap = r.snapshot();
    auto order = [](const Resolution& res) {
        std::string s;
        for (const auto& w : res.writes)
            if (w.path.rfind("ethtool:", 0) == 0)
                s += w.path + " " + w.current + "->" + w.value + "\n";
        return s;
    };
    Layout lower;
    InterfaceTarget t;
    t.interface = "eno1";
    t.channels.combined = 2;
    t.rss = RssSpread::parse("weight 1 3");
    lower.interfaces.push_back(t);
    lower.rx.push_back({"eno1", 5, CpuMask::fromCpus({1}, 96), std::nullopt, ""});
    lower.tx.push_back({"eno1", 1, CpuMask::fromCpus({1}, 96), ""});
    lower.irqs.push_back({{"eno1-TxRx-6", 0}, CpuMask::fromCpus({2}, 96), ""});
    auto res = resolve(lower, snap);
    EXPECT_EQ(order(res), "ethtool:eno1:rss default->weight 1 3\n"
                          "ethtool:eno1:channels-combined 8->2\n");
    EXPECT_EQ(skipReason(res, "eno1 rx-5"), "this queue goes away with 2 combined channels "
                                            "(ethtool -L)");
    EXPECT_EQ(skipReason(res, "IRQ 45 (eno1)"), "its queue goes away with 2 combined channels "
                                                "(ethtool -L)");
    EXPECT_EQ(skipReason(res, "eno1 tx-1 xps_cpus"), "(not skipped)");

    r.write("ethtool/eno1/channels", ethtoolL(8, 4));
    r.write("ethtool/eno1/rxfh", ethtoolX(spread("default", 128, 4), 4));
    const auto four = r.snapshot();
    Layout higher;
    t.channels.combined = 8;
    t.rss = RssSpread::parse("equal 8");
    higher.interfaces.push_back(t);
    // x86-server-96's eno1 has 8 queues in sysfs: rx-6 is "not there yet" only where it is not.
    std::filesystem::remove_all(r.root / "sys/class/net/eno1/queues/rx-6");
    higher.rx.push_back({"eno1", 6, CpuMask::fromCpus({1}, 96), std::nullopt, ""});
    res = resolve(higher, r.snapshot());
    EXPECT_EQ(order(res), "ethtool:eno1:channels-combined 4->8\n"
                          "ethtool:eno1:rss ->default\n");
    EXPECT_EQ(skipReason(res, "eno1 rx-6"),
              "this queue comes with 8 combined channels: apply again after this one to set it "
              "(a persisted layout sets it at boot)");
    // Only the spread, on the count there is: the current spread is known.
    Layout only;
    t.channels = {};
    t.rss = RssSpread::parse("equal 2");
    only.interfaces.push_back(t);
    EXPECT_EQ(order(resolve(only, four)), "ethtool:eno1:rss default->equal 2\n");

    // What cannot be: above the maximum, more rings than there are, a driver without a table,
    // a table no spread makes.
    Layout bad;
    t.channels.combined = 16;
    t.rss = RssSpread::parse("equal 6");
    bad.interfaces.push_back(t);
    res = resolve(bad, four);
    EXPECT_EQ(skipReason(res, "eno1 combined channels"),
              "at most 8 (ethtool -l's pre-set maximum)");
    EXPECT_EQ(skipReason(res, "eno1 RSS"), "equal 6 needs 6 receive rings; it has 4");
    r.write("ethtool/eno1/rxfh", ethtoolX({0, 1, 1, 0, 2, 3, 2, 3}, 4));
    res = resolve(only, r.snapshot());
    EXPECT_EQ(skipReason(res, "eno1 RSS"),
              "its indirection table now is no spread that ethtool can set (default, equal N or "
              "weights), so a revert could not put it back");
    r.write("ethtool/eno1/rxfh", "RX flow hash indirection table for eno1 with 4 RX ring(s):\n"
                                 "Operation not supported\n");
    res = resolve(only, r.snapshot());
    EXPECT_EQ(skipReason(res, "eno1 RSS"),
              "its driver (igb) has no RSS indirection table (ethtool -x)");
    std::filesystem::remove(r.root / "ethtool/eno1/rxfh");
    res = resolve(only, r.snapshot());
    EXPECT_EQ(skipReason(res, "eno1 RSS"), "its indirection table was not read (no ethtool here)");

    // What the router has, for the diff and a saved preset: the count and the spread.
    const auto was = currentLayout(four, only);
    ASSERT_NE(targetOf(was, "eno1"), nullptr);
    EXPECT_EQ(targetOf(was, "eno1")->rss->toString(), "default");
    EXPECT_FALSE(targetOf(was, "eno1")->channels.any());
    const auto found = currentLayout(four);
    ASSERT_NE(targetOf(found, "eno1"), nullptr);
    EXPECT_EQ(targetOf(found, "eno1")->channels.combined, 4u);
    EXPECT_EQ(targetOf(found, "eno1")->rss->toString(), "default");

    // The layout file: schema 5, and back; bad values refused with their key.
    const auto text = jsonText(toJson(lower));
    EXPECT_EQ(toJson(lower)["schema"], "coresteer.layout/5");
    std::string error;
    const auto back = parseLayout(text, &error);
    ASSERT_TRUE(back) << error;
    ASSERT_NE(targetOf(*back, "eno1"), nullptr);
    EXPECT_EQ(targetOf(*back, "eno1")->channels.combined, 2u);
    EXPECT_EQ(targetOf(*back, "eno1")->rss->toString(), "weight 1 3");
    for (
        const char* doc :
        {R"({"schema":"coresteer.layout/5","interfaces":[{"interface":"eno1","rss":"equal 0"}]})",
         R"j({"schema":"coresteer.layout/5","interfaces":[{"interface":"eno1","rss":"$(reboot)"}]})j",
         R"({"schema":"coresteer.layout/5","interfaces":[{"interface":"eno1","channels":{}}]})",
         R"({"schema":"coresteer.layout/5","interfaces":[{"interface":"eno1","channels":{"combined":0}}]})",
         R"({"schema":"coresteer.layout/5","interfaces":[{"interface":"eno1","channels":{"queues":2}}]})"}) {
        error.clear();
        EXPECT_FALSE(parseLayout(doc, &error)) << doc;
        EXPECT_NE(error.find("interfaces[0]"), std::string::npos) << error;
    }
}

// Persist carries them: the persisted script sets the count and the spread before it looks
// for IRQs and queues (on the live root only: under a fixture root it leaves them).
TEST(Rss, PersistSetsTheCountAndTheSpreadFirst) {
    Router r("x86-server-96");
    Layout l;
    InterfaceTarget t;
    t.interface = "eno1";
    t.channels.combined = 2;
    t.rss = RssSpread::parse("weight 1 3");
    l.interfaces.push_back(t);
    l.irqs.push_back({{"eno1-TxRx-0", 0}, CpuMask::fromCpus({2}, 96), ""});
    RouterScriptContext context;
    context.covered = std::vector<std::string>{"eno1"};
    PersistOptions options;
    const auto script = makeRouterApplyScript(l, context, options);
    const auto threads = script.find("THREADS='eno1\tchannels-combined\t2\neno1\trss\tweight 1 3");
    EXPECT_NE(threads, std::string::npos) << script.substr(0, 2000);
    EXPECT_NE(script.find("RSS_SPEC='"), std::string::npos);
    // Under a root prefix the ethtool lines are left alone, and the IRQ is set.
    r.write("etc/hotplug.d/net/95-coresteer", script);
    EXPECT_EQ(r.hotplug("etc/hotplug.d/net/95-coresteer", "eno1", "add"), 0) << r.err();
    EXPECT_EQ(CpuMask::fromHex(firstLine(r.root / "proc/irq/39/smp_affinity")),
              CpuMask::fromCpus({2}, 96));
    EXPECT_EQ(r.err().find("ethtool"), std::string::npos) << r.err();
    EXPECT_FALSE(r.executedAnything());
}

// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// Interrupt coalescing: `ethtool -c` in the snapshot, the planner's proposal from a measured
// load, the layout file, and `plan --measure` against a root whose counters move. The real
// ethtool and drivers are in the emulated router's test (tests/router-vm).
#include "cli/cli.h"
#include "core/base/json_text.h"
#include "core/collect/collect_remote.h"
#include "core/live/bottleneck.h"
#include "core/model/snapshot_json.h"
#include "core/model/snapshot_text.h"
#include "tests/unit/layout/router_copy.h"
#include "tests/unit/live/live_samples.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <sstream>
#include <thread>

using namespace coresteer;
using namespace coresteer::test;

namespace {

// What ethtool 6.1 prints over netlink for a driver that takes rx-usecs and rx-frames.
std::string ethtoolC(const std::string& usecs, const std::string& frames,
                     const std::string& adaptive = "off") {
    return "Coalesce parameters for eth0:\n"
           "Adaptive RX: " +
           adaptive +
           "  TX: n/a\n"
           "stats-block-usecs:\tn/a\n"
           "sample-interval:\tn/a\n"
           "pkt-rate-low:\t\tn/a\n"
           "pkt-rate-high:\t\tn/a\n\n"
           "rx-usecs:\t" +
           usecs + "\nrx-frames:\t" + frames +
           "\nrx-usecs-irq:\tn/a\nrx-frames-irq:\tn/a\n\n"
           "tx-usecs:\t1000\ntx-frames:\t25\ntx-usecs-irq:\tn/a\ntx-frames-irq:\tn/a\n";
}

// NanoPi M4's eth0 (IRQ 38) fired `rate` times a second on CPU0, which spent `kernel` of its
// time in kernel work; eth0 received `pps` packets a second.
MeasuredLoad m4Load(double rate, double kernel, double pps = 400'000) {
    MeasuredLoad l;
    l.seconds = 20;
    l.intervals = 40;
    l.irqs.push_back({38, rate, 0, kernel});
    l.interfaces.push_back({"eth0", pps});
    return l;
}

Layout planWith(const Snapshot& snap, const MeasuredLoad& load) {
    PlanGoal goal;
    goal.load = load;
    return plan(snap, goal);
}

std::string notesAbout(const Layout& l, const std::string& what) {
    std::string out;
    for (const auto& n : l.notes)
        if (n.find(what) != std::string::npos)
            out += n + "\n";
    return out;
}

} // namespace

// `ethtool -c` is read per interface: n/a is a parameter the driver lacks, a number out of
// range is a warning that names the file and line, and the collector script gives the same
// entry as the local reader.
TEST(Coalescing, EthtoolAnswersAreReadAndBadValuesNameTheLine) {
    Router r("nanopi-m4");
    r.write("ethtool/eth0/coalesce", ethtoolC("20", "16"));
    auto snap = r.snapshot();
    const auto* eth0 = snap.interface("eth0");
    ASSERT_NE(eth0, nullptr);
    ASSERT_TRUE(eth0->coalescing);
    EXPECT_EQ(eth0->coalescing->rxUsecs, 20u);
    EXPECT_EQ(eth0->coalescing->rxFrames, 16u);
    EXPECT_EQ(eth0->coalescing->adaptiveRx, false);
    EXPECT_FALSE(snap.interface("wlan0")->coalescing); // not read: no capture
    const auto j = toJson(snap);
    for (const auto& i : j["interfaces"])
        if (i["name"] == "eth0") {
            EXPECT_EQ(i["coalescing"].dump(),
                      R"({"adaptive_rx":false,"rx_frames":16,"rx_usecs":20})");
        }
    EXPECT_NE(toText(snap).find("rx-usecs 20  rx-frames 16"), std::string::npos);
    EXPECT_TRUE(snap.diagnostics.entries().empty() ||
                snap.diagnostics.entries().front().file.find("ethtool") == std::string::npos);

    // The collector script over the same root gives the same entry.
    const auto cs = makeCollectScript(r.root.string());
    const auto scriptFile = r.script("collect.sh", cs.script);
    std::string out;
    ASSERT_EQ(r.ash(scriptFile, "", &out), 0) << r.err();
    FileBundle viaScript;
    std::string error;
    ASSERT_TRUE(parseCollectOutput(out, cs.token, viaScript, &error)) << error;
    ASSERT_NE(viaScript.get("ethtool/eth0/coalesce"), nullptr);
    EXPECT_EQ(*viaScript.get("ethtool/eth0/coalesce"),
              *collectLocal(r.root).get("ethtool/eth0/coalesce"));

    // Out of range, not a number, n/a, and the adaptive switch on.
    r.write("ethtool/eth0/coalesce", ethtoolC("99999999999", "x1", "on"));
    snap = r.snapshot();
    eth0 = snap.interface("eth0");
    ASSERT_TRUE(eth0->coalescing);
    EXPECT_FALSE(eth0->coalescing->rxUsecs);
    EXPECT_FALSE(eth0->coalescing->rxFrames);
    EXPECT_EQ(eth0->coalescing->adaptiveRx, true);
    std::string warnings;
    for (const auto& d : snap.diagnostics.entries())
        warnings += d.toString() + "\n";
    EXPECT_NE(warnings.find("ethtool/eth0/coalesce:8: warning: rx-usecs is '99999999999', not "
                            "a number ethtool prints"),
              std::string::npos)
        << warnings;
    EXPECT_NE(warnings.find("ethtool/eth0/coalesce:9: warning: rx-frames is 'x1'"),
              std::string::npos)
        << warnings;
    r.write("ethtool/eth0/coalesce", ethtoolC("n/a", "n/a"));
    snap = r.snapshot();
    EXPECT_EQ(snap.interface("eth0")->coalescing, (Coalescing{false, std::nullopt, std::nullopt}));

    // ethtool's own refusal is the answer "no coalescing at all"; another failure is unknown.
    auto b = collectLocal(r.root);
    b.add("ethtool/eth0/coalesce",
          {BundleEntry::Kind::Unreadable, "netlink error: Operation not supported"});
    snap = buildSnapshot(b);
    EXPECT_EQ(snap.interface("eth0")->coalescing, Coalescing{});
    b.add("ethtool/eth0/coalesce", {BundleEntry::Kind::Unreadable, "No such device"});
    snap = buildSnapshot(b);
    EXPECT_FALSE(snap.interface("eth0")->coalescing);
}

// A receive vector that fires fast on a saturated CPU gets rx-usecs, and rx-frames where the
// frame count would end the wait first, with the measured rate in the reason; resolve writes
// them with the values the snapshot read, and the layout file carries them (schema 4).
TEST(Coalescing, ThePlannerProposesItForAHotVectorOnASaturatedCpu) {
    Router r("nanopi-m4");
    r.write("ethtool/eth0/coalesce", ethtoolC("20", "16"));
    const auto snap = r.snapshot();
    const auto l = planWith(snap, m4Load(62'000, 0.97));
    const auto* t = targetOf(l, "eth0");
    ASSERT_NE(t, nullptr);
    EXPECT_EQ(t->rxUsecs, 125u);
    EXPECT_EQ(t->rxFrames, 50u); // 400k packets a second, one vector: 50 in 125 us
    EXPECT_NE(t->why.find("IRQ 38 (eth0) fired 62.0k/s on CPU0 while that CPU spent 97% of its "
                          "time on interrupts, softirqs and the kernel (measured over 20 s)"),
              std::string::npos)
        << t->why;
    EXPECT_NE(t->why.find("rx-usecs 125 (now 20)"), std::string::npos) << t->why;
    EXPECT_NE(t->why.find(
                  "rx-frames 50 (now 16): at 400.0k packets a second per vector, 16 frames end the "
                  "wait after 40 us"),
              std::string::npos)
        << t->why;
    const auto res = resolve(l, snap);
    std::string writes;
    for (const auto& w : res.writes)
        if (w.path.rfind("ethtool:", 0) == 0)
            writes += w.path + " " + w.current + "->" + w.value + "\n";
    EXPECT_EQ(writes, "ethtool:eth0:rx-usecs 20->125\nethtool:eth0:rx-frames 16->50\n");
    // The file, and back.
    const auto text = jsonText(toJson(l));
    EXPECT_EQ(toJson(l)["schema"], "coresteer.layout/4");
    std::string error;
    const auto back = parseLayout(text, &error);
    ASSERT_TRUE(back) << error;
    ASSERT_NE(targetOf(*back, "eth0"), nullptr);
    EXPECT_EQ(targetOf(*back, "eth0")->rxFrames, 50u);
    EXPECT_FALSE(parseLayout(R"({"schema":"coresteer.layout/4","interfaces":[
        {"interface":"eth0","rx_frames":70000}]})",
                             &error));
    EXPECT_NE(error.find("rx_frames"), std::string::npos) << error;

    // Without a measured load, or below the lines, no coalescing.
    EXPECT_FALSE(targetOf(plan(snap), "eth0") && targetOf(plan(snap), "eth0")->rxUsecs);
    for (const auto& quiet : {m4Load(9'000, 0.99), m4Load(62'000, 0.5)}) {
        const auto q = planWith(snap, quiet);
        const auto* qt = targetOf(q, "eth0");
        EXPECT_FALSE(qt && (qt->rxUsecs || qt->rxFrames));
        EXPECT_EQ(notesAbout(q, "IRQ 38"), "");
    }
}

// Where the plan proposes coalescing, the planner's alternatives hold the same layout without
// it, for a measurement to weigh the fewer interrupts against the delay.
TEST(Coalescing, TheAlternativesHoldThePlanWithoutIt) {
    Router r("nanopi-m4");
    r.write("ethtool/eth0/coalesce", ethtoolC("20", "16"));
    const auto snap = r.snapshot();
    PlanGoal goal;
    goal.load = m4Load(62'000, 0.97);
    const auto alts = planAlternatives(snap, goal);
    ASSERT_GE(alts.size(), 2u);
    EXPECT_TRUE(alts[0].coalescing);
    EXPECT_EQ(targetOf(alts[0].layout, "eth0")->rxUsecs, 125u);
    EXPECT_EQ(alts[1].name, alts[0].name + ", without coalescing");
    EXPECT_FALSE(alts[1].coalescing);
    const auto* t = targetOf(alts[1].layout, "eth0");
    EXPECT_FALSE(t && (t->rxUsecs || t->rxFrames));
    // Without a load the planner proposes no coalescing, and offers no such alternative.
    for (const auto& a : planAlternatives(snap))
        EXPECT_EQ(a.name.find("without coalescing"), std::string::npos) << a.name;
}

// Where coalescing would help but cannot be set, a note says why, and nothing is proposed.
TEST(Coalescing, NotesWhereItCannotBeSet) {
    Router r("nanopi-m4");
    const auto load = m4Load(62'000, 0.97);
    auto noted = [&](const std::string& capture) {
        if (capture.empty())
            std::filesystem::remove(r.root / "ethtool/eth0/coalesce");
        else
            r.write("ethtool/eth0/coalesce", capture);
        const auto l = planWith(r.snapshot(), load);
        const auto* t = targetOf(l, "eth0");
        EXPECT_FALSE(t && (t->rxUsecs || t->rxFrames)) << capture;
        return notesAbout(l, "IRQ 38 (eth0) fired 62.0k/s");
    };
    EXPECT_NE(noted("").find("could not read `ethtool -c eth0` (install ethtool"),
              std::string::npos);
    EXPECT_NE(noted(ethtoolC("n/a", "n/a"))
                  .find("eth0's driver (rk_gmac-dwmac) takes no receive "
                        "coalescing"),
              std::string::npos)
        << noted(ethtoolC("n/a", "n/a"));
    EXPECT_NE(noted(ethtoolC("20", "16", "on"))
                  .find("adapts its coalescing itself (adaptive RX is on), and coresteer leaves "
                        "that to it; `ethtool -C eth0 adaptive-rx off rx-usecs 125`"),
              std::string::npos);
    EXPECT_NE(noted(ethtoolC("250", "0")).find("already waits 250 us or 0 frames"),
              std::string::npos)
        << noted(ethtoolC("250", "0"));
    // A driver without rx-frames gets rx-usecs alone; resolve skips what a layout sets anyway.
    r.write("ethtool/eth0/coalesce", ethtoolC("20", "n/a"));
    const auto snap = r.snapshot();
    auto l = planWith(snap, load);
    ASSERT_NE(targetOf(l, "eth0"), nullptr);
    EXPECT_EQ(targetOf(l, "eth0")->rxUsecs, 125u);
    EXPECT_FALSE(targetOf(l, "eth0")->rxFrames);
    l.interfaces.front().rxFrames = 32;
    for (auto& t : l.interfaces)
        if (t.interface == "eth0")
            t.rxFrames = 32;
    const auto res = resolve(l, snap);
    bool skipped = false;
    for (const auto& k : res.skipped)
        skipped |= k.target == "eth0 rx-frames" &&
                   k.reason == "its driver (rk_gmac-dwmac) takes no rx-frames (ethtool -c: n/a)";
    EXPECT_TRUE(skipped);
}

// The measured load keeps, for each IRQ, the interval in which its CPU was saturated over a
// faster one in which it was not, and each interface's peak receive rate.
TEST(Coalescing, TheMeasuredLoadKeepsTheIntervalThatCounts) {
    // Interval 1: IRQ 30 at 20 000/s on CPU0, all softirq. Interval 2: 30 000/s on CPU0, mostly
    // idle. Interval 3: 25 000/s, CPU0 all softirq again.
    const char* stat[] = {kStat0, kStat1,
                          "cpu  0 0 0 0 0 0 0 0 0 0\n"
                          "cpu0 100 0 100 890 0 0 110 0 0 0\n"
                          "cpu1 150 0 100 925 0 25 0 0 0 0\n",
                          "cpu  0 0 0 0 0 0 0 0 0 0\n"
                          "cpu0 100 0 100 890 0 0 210 0 0 0\n"
                          "cpu1 150 0 100 1025 0 25 0 0 0 0\n"};
    const double irq30[] = {0, 20'000, 50'000, 75'000};
    const double packets[] = {0, 100'000, 150'000, 400'000};
    std::vector<live::Sample> s;
    for (int i = 0; i < 4; ++i) {
        const auto interrupts =
            "           CPU0       CPU1\n 30: " + std::to_string(static_cast<long>(irq30[i])) +
            " 0 GICv3 44 Level eth0\n";
        const auto netdev = "Inter-|\n face |\n  eth0: 0 " +
                            std::to_string(static_cast<long>(packets[i])) +
                            " 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n";
        s.push_back(sample(1000 + i, stat[i], interrupts, {}, netdev));
    }
    MeasuredLoad load;
    for (int i = 1; i < 4; ++i) {
        const auto rates = live::computeRates(s[i - 1], s[i]);
        ASSERT_TRUE(rates);
        live::accumulateLoad(load, *rates);
    }
    EXPECT_EQ(load.intervals, 3);
    EXPECT_DOUBLE_EQ(load.seconds, 3);
    const auto* l = load.irq(30);
    ASSERT_NE(l, nullptr);
    EXPECT_DOUBLE_EQ(l->perSecond, 25'000);
    EXPECT_EQ(l->cpu, 0);
    EXPECT_DOUBLE_EQ(l->cpuKernel, 1.0);
    ASSERT_NE(load.interface("eth0"), nullptr);
    EXPECT_DOUBLE_EQ(load.interface("eth0")->rxPacketsPerSecond, 250'000);
}

// `plan --measure` samples a root whose counters move (a copy of the NanoPi M4 that the test
// ticks forward: eth0's IRQ at 62 000/s, CPU0 all softirq) and proposes coalescing for it.
TEST(Coalescing, PlanMeasureProposesItFromTheRoutersLoad) {
    Router r("nanopi-m4");
    r.write("ethtool/eth0/coalesce", ethtoolC("20", "16"));
    const auto interrupts = slurp(r.root / "proc/interrupts");
    const auto stat = slurp(r.root / "proc/stat");
    const auto netdev = slurp(r.root / "proc/net/dev");
    auto tick = [&](int k) {
        // IRQ 38's CPU0 count, CPU0's softirq ticks (USER_HZ 100: 10 a tick of 100 ms, the
        // others idle), eth0's received packets.
        auto i = interrupts;
        const auto at = i.find("58120331");
        i.replace(at, 8, std::to_string(58120331 + 6200L * k));
        auto st = stat;
        const std::string cpu0 = "cpu0 718503 0 878169 24385543 8057 66528 1663200";
        st.replace(st.find(cpu0), cpu0.size(),
                   "cpu0 718503 0 878169 24385543 8057 66528 " + std::to_string(1663200 + 10 * k));
        for (int cpu = 1; cpu <= 5; ++cpu) {
            const auto p = st.find("cpu" + std::to_string(cpu) + " ");
            const auto idle = st.find(' ', st.find(' ', st.find(' ', p + 5) + 1) + 1) + 1;
            const auto end = st.find(' ', idle);
            const auto v = std::stoll(st.substr(idle, end - idle)) + 10 * k;
            st.replace(idle, end - idle, std::to_string(v));
        }
        auto nd = netdev;
        const auto e = nd.find("58411203");
        nd.replace(e, 8, std::to_string(58411203 + 40'000L * k));
        // Each file replaced whole, as the kernel's own are read: never half written.
        auto put = [&](const std::string& rel, const std::string& content) {
            r.write(rel + ".new", content);
            std::filesystem::rename(r.root / (rel + ".new"), r.root / rel);
        };
        put("proc/interrupts", i);
        put("proc/stat", st);
        put("proc/net/dev", nd);
        put("proc/uptime", std::to_string(5000.0 + 0.1 * k) + " 100.00\n");
    };
    tick(0);
    std::atomic<bool> done{false};
    std::thread ticker([&] {
        for (int k = 1; !done.load(); ++k) {
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
            tick(k);
        }
    });
    std::ostringstream out, err;
    const int code =
        runCli({"plan", "--root", r.root.string(), "--measure", "2", "--json"}, out, err);
    done = true;
    ticker.join();
    ASSERT_EQ(code, 0) << err.str();
    EXPECT_NE(err.str().find("measuring " + r.root.string() + "'s load for 2 s"), std::string::npos)
        << err.str();
    const auto j = nlohmann::json::parse(out.str());
    nlohmann::json eth0;
    for (const auto& t : j.value("interfaces", nlohmann::json::array()))
        if (t["interface"] == "eth0")
            eth0 = t;
    ASSERT_FALSE(eth0.is_null()) << out.str();
    EXPECT_EQ(eth0["rx_usecs"], 125);
    // 400 000 packets a second: 50 frames in 125 us. The test's ticks and the sampler's reads
    // are not in step, so an interval may hold a tick more or less than its time.
    EXPECT_GE(eth0["rx_frames"].get<int>(), 40) << eth0.dump();
    EXPECT_LE(eth0["rx_frames"].get<int>(), 70) << eth0.dump();
    const auto why = eth0["why"].get<std::string>();
    EXPECT_NE(why.find("IRQ 38 (eth0) fired "), std::string::npos) << why;
    EXPECT_NE(why.find("k/s on CPU0 while that CPU spent 100% of its time"), std::string::npos)
        << why;
    // Without --measure: no coalescing.
    std::ostringstream out2, err2;
    ASSERT_EQ(runCli({"plan", "--root", r.root.string(), "--json"}, out2, err2), 0);
    EXPECT_EQ(out2.str().find("rx_usecs"), std::string::npos);
}

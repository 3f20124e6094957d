// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// Threaded NAPI switched on and off, and the kernel threads of a Wi-Fi chip and of threaded IRQs,
// on the BPI-R4 with its mt7996e card: mt76's receive NAPI threads (napi/phy0-N) and its TX worker
// ("mt76-tx phy0") serve every band of the chip; a threaded IRQ's handler (irq/130-mt7996e) follows
// its IRQ. Read only from kernel threads, attributed to the chip's interfaces, placed by the
// planner (the TX worker off the CPUs of the receive poll), resolved once, and persisted by the
// radio's name.
#include "core/collect/collect_local.h"
#include "core/collect/collect_remote.h"
#include "core/layout/apply.h"
#include "core/layout/layout_json.h"
#include "core/layout/persist.h"
#include "core/layout/planner.h"
#include "core/layout/resolve.h"
#include "core/model/snapshot_json.h"
#include "core/model/snapshot_text.h"
#include "tests/unit/layout/router_copy.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

using namespace coresteer;
using namespace coresteer::layout;
using coresteer::test::Router;
using coresteer::test::slurp;
namespace fs = std::filesystem;

namespace {

void kthread(const Router& r, int pid, const std::string& comm, const std::string& cpus,
             int ppid = 2) {
    r.write("proc/" + std::to_string(pid) + "/comm", comm + "\n");
    r.write("proc/" + std::to_string(pid) + "/status", "Name:\t" + comm + "\nPPid:\t" +
                                                           std::to_string(ppid) +
                                                           "\nCpus_allowed:\t" + cpus + "\n");
}

// The card's threads as mt76 makes them, and what no kernel thread of the card could be.
void mt76Threads(const Router& r) {
    kthread(r, 700, "napi/phy0-3", "f");
    kthread(r, 701, "napi/phy0-4", "f");
    kthread(r, 702, "mt76-tx phy0", "f");
    kthread(r, 704, "irq/130-mt7996e", "4");
    // A user's process with the TX worker's name; a thread of an IRQ that is not listed; a radio
    // name that holds shell.
    kthread(r, 703, "mt76-tx phy0", "1", 4990);
    kthread(r, 705, "irq/99999-x", "1");
    kthread(r, 706, "mt76-tx $(id)", "1");
    kthread(r, 707, "mt76-tx \xe2\x80\xa8", "1");
}

const std::vector<const char*> kRadios = {"phy0-ap0", "phy1-ap0", "phy2-ap0"};

} // namespace

TEST(Mt76Threads, TheChipsThreadsBelongToAllOfItsBands) {
    Router r("bpi-r4");
    mt76Threads(r);
    const auto bundle = collectLocal(r.root);
    const auto snap = buildSnapshot(bundle);
    for (const char* name : kRadios) {
        const auto* nif = snap.interface(name);
        ASSERT_NE(nif, nullptr) << name;
        EXPECT_EQ(nif->wiphy, std::string("phy") + name[3]);
        ASSERT_EQ(nif->napi.size(), 2u) << name;
        EXPECT_EQ(nif->napi[0].pid, 700);
        EXPECT_EQ(nif->napi[1].device, "phy0");
        ASSERT_EQ(nif->txWorkers.size(), 1u) << name;
        EXPECT_EQ(nif->txWorkers[0].pid, 702);
        EXPECT_EQ(nif->txWorkers[0].name, "mt76-tx phy0");
        EXPECT_EQ(nif->txWorkerMask()->toList(), "0-3");
        ASSERT_EQ(nif->irqThreads.size(), 1u) << name;
        EXPECT_EQ(nif->irqThreads[0].name, "irq/130-mt7996e");
        EXPECT_EQ(nif->irqThreads[0].device, "130");
    }
    for (const char* name : {"eth0", "eth1", "eth2", "wan"}) {
        EXPECT_TRUE(snap.interface(name)->txWorkers.empty()) << name;
        EXPECT_TRUE(snap.interface(name)->irqThreads.empty()) << name;
    }
    bool warned = false;
    for (const auto& d : snap.diagnostics.entries())
        warned = warned || d.toString().find("proc/703/status: warning: 'mt76-tx phy0' is not a "
                                             "kernel thread") != std::string::npos;
    EXPECT_TRUE(warned);
    // Only the network threads' status is read.
    EXPECT_NE(bundle.get("proc/702/status"), nullptr);
    EXPECT_NE(bundle.get("proc/704/status"), nullptr);
    r.write("proc/77/comm", "dropbear\n");
    r.write("proc/77/status", "PPid:\t1\n");
    EXPECT_EQ(collectLocal(r.root).get("proc/77/status"), nullptr);
    // The JSON and the text name them.
    const auto json = toJson(snap);
    for (const auto& i : json["interfaces"])
        if (i["name"] == "phy1-ap0") {
            EXPECT_EQ(i["wiphy"], "phy1");
            EXPECT_EQ(i["tx_workers"].dump(),
                      R"([{"cpus_allowed":{"hex":"f","list":"0-3"},"device":"phy0",)"
                      R"("name":"mt76-tx phy0","pid":702}])");
            EXPECT_EQ(i["irq_threads"][0]["device"], "130");
        }
    const auto text = toText(snap);
    EXPECT_NE(text.find("phy2-ap0  driver mt7996e"), std::string::npos) << text;
    EXPECT_NE(text.find("radio phy2"), std::string::npos);
    EXPECT_NE(text.find("mt76-tx phy0     pid 702     cpus_allowed f (0-3)"), std::string::npos);
    EXPECT_NE(text.find("irq/130-mt7996e  pid 704     cpus_allowed 4 (2)  (follows IRQ 130)"),
              std::string::npos);
    // The remote collector reads exactly the same files.
    const auto cs = makeCollectScript(r.root.string());
    std::string out;
    ASSERT_EQ(r.ash("-s", "", &out, cs.script), 0) << r.err();
    FileBundle remote;
    std::string error;
    ASSERT_TRUE(parseCollectOutput(out, cs.token, remote, &error)) << error;
    remote.origin = bundle.origin;
    EXPECT_EQ(toJson(buildSnapshot(remote)), toJson(buildSnapshot(collectLocal(r.root))));
    EXPECT_FALSE(r.executedAnything());
}

// The planner moves the TX worker off the CPUs of the radio's receive poll and IRQ, once for the
// chip, and says why; resolve pins it once; persist pins it by the radio's name at boot.
TEST(Mt76Threads, TheTxWorkerGetsACpuOfItsOwnOnceForTheChip) {
    Router r("bpi-r4");
    mt76Threads(r);
    const auto snap = r.snapshot();
    const auto l = plan(snap);
    const InterfaceTarget* worker = nullptr;
    std::size_t workers = 0;
    CpuMask poll;
    for (const auto& t : l.interfaces) {
        if (t.txWorkerCpus) {
            worker = &t;
            ++workers;
        }
        if (t.napiCpus &&
            (t.interface == "phy0-ap0" || t.interface == "phy1-ap0" || t.interface == "phy2-ap0"))
            poll = poll | *t.napiCpus;
    }
    ASSERT_EQ(workers, 1u);
    ASSERT_NE(worker, nullptr);
    EXPECT_EQ(worker->txWorkerCpus->count(), 1);
    CpuMask irq;
    for (const auto& t : l.irqs)
        if (t.irq.action == "mt7996e")
            irq = t.cpus;
    ASSERT_FALSE(irq.none());
    EXPECT_TRUE((*worker->txWorkerCpus & (poll | irq)).none())
        << worker->txWorkerCpus->toList() << " poll " << poll.toList() << " irq " << irq.toList();
    EXPECT_NE(worker->why.find("mt76-tx phy0"), std::string::npos) << worker->why;
    EXPECT_NE(worker->why.find("24697"), std::string::npos);

    const auto res = resolve(l, snap);
    std::size_t writes = 0;
    for (const auto& w : res.writes)
        if (w.path == "napi:702") {
            ++writes;
            EXPECT_EQ(w.value, worker->txWorkerCpus->toHex(4));
        }
    EXPECT_EQ(writes, 1u);
    for (const auto& w : res.writes)
        EXPECT_NE(w.path, "napi:703"); // the impostor

    // Written as a layout of version 3, read back the same.
    const auto text = toJson(l).dump();
    EXPECT_NE(text.find("\"schema\":\"coresteer.layout/3\""), std::string::npos);
    std::string error;
    const auto back = parseLayout(text, &error);
    ASSERT_TRUE(back) << error;
    EXPECT_EQ(toJson(*back).dump(), text);

    const auto script = makeRouterApplyScript(l, snap, {});
    EXPECT_NE(script.find("phy0\tworker\t" + worker->txWorkerCpus->toHex(4) + "\n"),
              std::string::npos);
    EXPECT_EQ(script.find("$(id)"), std::string::npos);
    EXPECT_EQ(script.find("\xe2\x80\xa8"), std::string::npos);
    EXPECT_FALSE(r.executedAnything());
}

// Two targets of one chip's interfaces that disagree: the first places the worker, the second is
// named as left out. A layout without a snapshot names the radio at boot by the interface.
TEST(Mt76Threads, ResolveAndPersistPlaceASharedWorkerOnce) {
    Router r("bpi-r4");
    mt76Threads(r);
    const auto snap = r.snapshot();
    Layout l;
    for (const auto& [name, cpus] : {std::pair{"phy0-ap0", "3"}, std::pair{"phy2-ap0", "2"}}) {
        InterfaceTarget t;
        t.interface = name;
        t.txWorkerCpus = CpuMask::fromList(cpus);
        l.interfaces.push_back(t);
    }
    const auto res = resolve(l, snap);
    ASSERT_EQ(res.writes.size(), 1u);
    EXPECT_EQ(res.writes[0].path, "napi:702");
    EXPECT_EQ(res.writes[0].value, "8");
    ASSERT_EQ(res.skipped.size(), 1u);
    EXPECT_EQ(res.skipped[0].target, "phy2-ap0 mt76-tx phy0");
    EXPECT_NE(res.skipped[0].reason.find("on CPU 3"), std::string::npos);

    // Without a snapshot (a fleet's script): "@phy0-ap0", which the script resolves at boot
    // through the interface's phy80211 link.
    RouterScriptContext context;
    const auto script = makeRouterApplyScript(l, context, {});
    EXPECT_NE(script.find("@phy0-ap0\tworker\t8\n"), std::string::npos);
    EXPECT_NE(script.find("@phy2-ap0\tworker\t4\n"), std::string::npos);
    // A radio on a snapshot that has none: named as not there.
    Router plain("nanopi-r6s-openwrt");
    Layout one;
    InterfaceTarget t;
    t.interface = "eth1";
    t.txWorkerCpus = CpuMask::fromList("4");
    one.interfaces.push_back(t);
    const auto none = resolve(one, plain.snapshot());
    EXPECT_TRUE(none.writes.empty());
    ASSERT_EQ(none.skipped.size(), 1u);
    EXPECT_NE(none.skipped[0].reason.find("no mt76-tx thread"), std::string::npos);
}

// On the live root, the persisted script pins only kernel threads: a process of this test that
// names itself "mt76-tx csfk0" (as any user on a router may) is left alone, and taskset, the
// test's own, never runs.
TEST(Mt76Threads, AUserProcessWithTheWorkersNameIsNeverPinned) {
    Router r("bpi-r4");
    const coresteer::test::NamedProcess impostor("mt76-tx csfk0");
    ASSERT_GT(impostor.pid(), 0);
    ASSERT_EQ(impostor.comm(), "mt76-tx csfk0\n");
    r.write("../bin/taskset",
            "#!/bin/sh\necho ran >> '" + (r.root / "../TASKSET").string() + "'\n");
    fs::permissions(r.root / "../bin/taskset", fs::perms::owner_all);
    Layout l;
    InterfaceTarget t;
    t.interface = "csfk0";
    t.txWorkerCpus = CpuMask::fromList("0");
    l.interfaces.push_back(t);
    RouterScriptContext context;
    context.covered = std::vector<std::string>{"csfk0"};
    context.txWorkerRadios["csfk0"] = "csfk0";
    const auto script = r.script("hotplug", makeRouterApplyScript(l, context, {}));
    EXPECT_EQ(r.ash(script, "ACTION=add INTERFACE=csfk0 CORESTEER_WAIT=0"), 0) << r.err();
    EXPECT_FALSE(fs::exists(r.root / "../TASKSET"));
    EXPECT_FALSE(r.executedAnything());
}

namespace {

std::string threadedOf(const Router& r, const std::string& iface) {
    return coresteer::test::firstLine(r.root / ("sys/class/net/" + iface + "/threaded"));
}

} // namespace

// Threaded NAPI switched by a layout (sys/class/net/IF/threaded, 0 or 1): read strictly, resolved
// only where the kernel has the switch, applied with an automatic revert, persisted before the
// threads are looked for; a revert.data line that puts anything but 0 or 1 there is left alone.
TEST(ThreadedSwitch, ALayoutSwitchesItAndTheRevertPutsItBack) {
    Router r("nanopi-r6s-openwrt");
    r.write("sys/class/net/eth1/threaded", "0\n");
    fs::remove(r.root / "sys/class/net/eth0/threaded"); // as before Linux 5.12
    const auto snap = r.snapshot();
    Layout l;
    InterfaceTarget on;
    on.interface = "eth1";
    on.threaded = true;
    on.napiCpus = CpuMask::fromList("4-5");
    l.interfaces.push_back(on);
    InterfaceTarget none;
    none.interface = "eth0";
    none.threaded = false;
    l.interfaces.push_back(none);

    const auto text = toJson(l).dump();
    EXPECT_NE(text.find("\"threaded\":true"), std::string::npos);
    EXPECT_NE(text.find("coresteer.layout/3"), std::string::npos);
    std::string error;
    EXPECT_FALSE(parseLayout(R"({"schema":"coresteer.layout/3","irqs":[],"rx_queues":[],)"
                             R"("tx_queues":[],"interfaces":[{"interface":"eth1","threaded":1}]})",
                             &error));
    EXPECT_EQ(error, "interfaces[0].threaded: expected true or false");

    const auto res = resolve(l, snap);
    ASSERT_EQ(res.writes.size(), 1u);
    EXPECT_EQ(res.writes[0].path, "sys/class/net/eth1/threaded");
    EXPECT_EQ(res.writes[0].value, "1");
    EXPECT_EQ(res.writes[0].current, "0");
    ASSERT_EQ(res.skipped.size(), 2u);
    EXPECT_EQ(res.skipped[0].target, "eth1 NAPI threads");
    EXPECT_NE(res.skipped[0].reason.find("switched on by this layout"), std::string::npos);
    EXPECT_EQ(res.skipped[1].target, "eth0 threaded NAPI");
    EXPECT_NE(res.skipped[1].reason.find("has no sys/class/net/eth0/threaded"), std::string::npos);

    // Applied, not confirmed: the timer puts 0 back.
    const auto s = makeApplyScript(res.writes, r.root.string(), {5, true});
    std::string out;
    ASSERT_EQ(r.ash("-s", "", &out, s.script), 0) << r.err();
    EXPECT_EQ(threadedOf(r, "eth1"), "1");
    for (int i = 0; i < 150 && threadedOf(r, "eth1") != "0"; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    EXPECT_EQ(threadedOf(r, "eth1"), "0");

    // A tampered revert.data: only 0 or 1, only to an interface's own switch.
    ASSERT_EQ(
        r.ash("-s", "", &out, makeApplyScript(res.writes, r.root.string(), {60, true}).script), 0)
        << r.err();
    std::ofstream(r.root / "tmp/coresteer/revert.data", std::ios::trunc)
        << "sys/class/net/eth1/threaded\t2\n"
        << "sys/class/net/../threaded\t0\n"
        << "sys/class/net/eth1/threaded\t$(touch_me)\n"
        << "sys/class/net/eth1/threaded\t0\n";
    ASSERT_EQ(r.ash("-s", "", &out, makeSettleScript(r.root.string(), PendingAction::Revert)), 0)
        << r.err();
    EXPECT_EQ(threadedOf(r, "eth1"), "0");
    for (int line = 1; line <= 3; ++line)
        EXPECT_NE(r.err().find("revert.data line " + std::to_string(line) + " is not a value"),
                  std::string::npos)
            << line << ": " << r.err();

    // Persisted: switched before the threads are looked for, at every boot.
    const auto script = makeRouterApplyScript(l, snap, {});
    const auto sw = script.find("eth1\tthreaded\t1\n");
    ASSERT_NE(sw, std::string::npos);
    EXPECT_LT(sw, script.find("eth1\tnapi\t30\n"));
    r.write("etc/hotplug.d/net/99-test", script);
    ASSERT_EQ(r.hotplug("etc/hotplug.d/net/99-test", "eth1", "add"), 0) << r.err();
    EXPECT_EQ(threadedOf(r, "eth1"), "1");
    EXPECT_FALSE(r.executedAnything());
}

// A radio's name comes from the router (its phy80211 link; `iw phy set name` takes almost
// anything). One that a kernel thread could carry stays data everywhere: in the JSON, in the
// persisted script (single-quoted, matched as text); one that no thread name can hold (a newline,
// U+2028, bytes that are not UTF-8, a blank, 200 bytes) is refused with a warning that names the
// link, and nothing runs.
TEST(Mt76Threads, HostileRadioNamesAreDataOrRefused) {
    Router r("bpi-r4");
    const std::vector<std::string> refused = {"phy\n0", "phy\xe2\x80\xa8", "phy\xff", "phy 0",
                                              std::string(200, 'p')};
    const std::vector<std::string> ifaces = {"phy1-ap0", "phy2-ap0"};
    fs::remove(r.root / "sys/class/net/phy0-ap0/phy80211");
    fs::create_symlink("../../ieee80211/$(touch_me)", r.root / "sys/class/net/phy0-ap0/phy80211");
    for (std::size_t i = 0; i < refused.size(); ++i) {
        const auto dir = r.root / ("sys/class/net/wl" + std::to_string(i));
        fs::create_directories(dir);
        fs::create_symlink("../../ieee80211/" + refused[i], dir / "phy80211");
    }
    kthread(r, 702, "mt76-tx $(touch_me)", "f");
    const auto snap = r.snapshot();
    const auto* nif = snap.interface("phy0-ap0");
    ASSERT_NE(nif, nullptr);
    EXPECT_EQ(nif->wiphy, "$(touch_me)");
    ASSERT_EQ(nif->txWorkers.size(), 1u);
    std::size_t warned = 0;
    for (std::size_t i = 0; i < refused.size(); ++i) {
        EXPECT_TRUE(snap.interface("wl" + std::to_string(i))->wiphy.empty()) << i;
        for (const auto& d : snap.diagnostics.entries())
            if (d.file == "sys/class/net/wl" + std::to_string(i) + "/phy80211" &&
                d.message.find("a radio name no kernel thread can carry") != std::string::npos) {
                ++warned;
                EXPECT_EQ(d.message.find('\n'), std::string::npos);
                EXPECT_EQ(d.message.find("\xe2\x80\xa8"), std::string::npos);
            }
    }
    EXPECT_EQ(warned, refused.size());
    // JSON reads back the name byte for byte.
    const auto json = nlohmann::json::parse(toJson(snap).dump());
    for (const auto& i : json["interfaces"])
        if (i["name"] == "phy0-ap0") {
            EXPECT_EQ(i["tx_workers"][0]["device"], "$(touch_me)");
        }
    // Planned, persisted and run: the name is a single-quoted field, matched as text.
    const auto l = plan(snap);
    const auto script = makeRouterApplyScript(l, snap, {});
    EXPECT_NE(script.find("$(touch_me)\tworker\t"), std::string::npos);
    r.write("etc/hotplug.d/net/99-test", script);
    EXPECT_EQ(r.hotplug("etc/hotplug.d/net/99-test", "", "add"), 0) << r.err();
    for (const auto& n : ifaces)
        EXPECT_EQ(r.hotplug("etc/hotplug.d/net/99-test", n, "add"), 0) << r.err();
    EXPECT_FALSE(r.executedAnything());
}

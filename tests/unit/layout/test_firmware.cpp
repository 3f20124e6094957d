// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// Every firmware fixture (tests/fixtures/firmware: OpenWrt 23.05, 24.10 and 25.12, FriendlyWrt,
// ImmortalWrt, a qualcommax build, each laid over the board it runs on): what the snapshot shows
// of the firmware's own steering, scripts, threads and upper devices; what the plan does about
// them; and what persist does, proven by booting the copy as the firmware boots (its hotplug
// scripts for every interface, then its init scripts in /etc/rc.d order as /etc/rc.common runs
// them, the WAN's ifup and a network reload) with BusyBox ash. Each EXPECT file says what must
// hold (SPEC.md there).
#include "core/base/utf8.h"
#include "core/layout/persist.h"
#include "core/layout/planner.h"
#include "core/model/conflicts.h"
#include "core/model/snapshot.h"
#include "tests/unit/layout/firmware_tools.h"
#include "tests/unit/layout/router_copy.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

using namespace coresteer;
using namespace coresteer::test;
namespace fs = std::filesystem;

namespace {

class Firmware : public ::testing::TestWithParam<std::string> {
protected:
    Firmware() : x(readFirmwareExpect(GetParam())), r(x.base, "-" + GetParam()) {
        r.useFirmware(GetParam());
        installFirmwareTools(r);
    }
    std::string at(const FirmwareFact& f) const {
        return "EXPECT line " + std::to_string(f.line) + ": " + f.key + " " + f.rest;
    }
    std::string env() const {
        return "CORESTEER_ROOT=" + Router::ssh_quote(r.root.string()) +
               " FIRMWARE_TOOLS=" + Router::ssh_quote(r.tools().string()) + " CORESTEER_WAIT=0";
    }
    // Every script of /etc/hotplug.d/<dir> in name order, with the event's variables.
    void hotplug(const std::string& dir, const std::string& vars) const {
        if (!fs::is_directory(r.root / "etc/hotplug.d" / dir))
            return;
        std::set<std::string> scripts;
        for (const auto& e : fs::directory_iterator(r.root / "etc/hotplug.d" / dir))
            scripts.insert(e.path().string());
        const auto runner = r.script("firmware.sh", kFirmwareRunner);
        for (const auto& s : scripts)
            EXPECT_EQ(r.ash(runner + " hotplug " + Router::ssh_quote(s), vars + " " + env()), 0)
                << s << ": " << r.err();
    }
    // An init script's action as /etc/rc.common runs it.
    void rc(const std::string& script, const std::string& action) const {
        const auto runner = r.script("firmware.sh", kFirmwareRunner);
        EXPECT_EQ(r.ash(runner + " rc " + Router::ssh_quote(script) + " " + action, env()), 0)
            << script << " " << action << ": " << r.err();
    }
    // The firmware's boot, then what runs again later: the WAN's ifup and a network reload.
    void boot() const {
        std::set<std::string> ifaces;
        for (const auto& e : fs::directory_iterator(r.root / "sys/class/net"))
            ifaces.insert(e.path().filename().string());
        for (const auto& i : ifaces)
            hotplug("net", "ACTION=add INTERFACE=" + Router::ssh_quote(i) +
                               " DEVICENAME=" + Router::ssh_quote(i));
        std::set<std::string> links;
        if (fs::is_directory(r.root / "etc/rc.d"))
            for (const auto& e : fs::directory_iterator(r.root / "etc/rc.d"))
                if (e.path().filename().string().rfind('S', 0) == 0)
                    links.insert(e.path().filename().string());
        for (const auto& l : links)
            rc((r.root / "etc/init.d" / l.substr(3)).string(), "boot");
        const bool service = fs::exists(r.root / "etc/init.d/packet_steering");
        for (const auto* f : x.all("ifup")) {
            hotplug("iface", "ACTION=ifup INTERFACE=" + Router::ssh_quote(f->words.at(0)) +
                                 " DEVICE=" + Router::ssh_quote(f->words.at(1)));
            if (service) // procd's interface.* trigger
                rc((r.root / "etc/init.d/packet_steering").string(), "reload");
        }
        if (service) // a network reload
            rc((r.root / "etc/init.d/packet_steering").string(), "reload");
    }
    PersistOptions options() const {
        PersistOptions o;
        for (const auto* f : x.all("persist"))
            for (const auto& w : f->words) {
                if (w == "override-boot-scripts")
                    o.overrideBootScripts = true;
                else if (w == "irqbalance-ban")
                    o.banInIrqbalance = true;
                else
                    ADD_FAILURE() << at(*f) << ": unknown option " << w;
            }
        return o;
    }
    void persist(const PersistOptions& o) const {
        const auto snap = r.snapshot();
        std::string error;
        const auto p = planPersist(layout::plan(snap), snap, o, &error);
        ASSERT_TRUE(p) << error;
        ASSERT_TRUE(r.run(makePersistScript(*p, r.root.string()), &error)) << error;
    }
    std::string firstLineOf(const std::string& rel) const { return firstLine(r.root / rel); }

    FirmwareExpect x;
    Router r;
};

// The layout's masks, the part of it a fixture root can hold (threads, coalescing and queue
// counts are the live router's own: the scripts leave them alone under a root prefix).
layout::Layout masksOf(layout::Layout l) {
    l.interfaces.clear();
    return l;
}

std::string conflictText(const Conflict& c) {
    return std::string(toString(c.kind)) + (c.blocking ? " blocking" : " note");
}

} // namespace

TEST_P(Firmware, TheSnapshotShowsWhatTheFirmwareDoes) {
    ASSERT_FALSE(x.base.empty()) << "no base line";
    const auto snap = r.snapshot();
    EXPECT_EQ(warnings(snap), "");
    EXPECT_EQ(snap.system.openwrtRelease, x.one("release"));
    if (x.has("distribution")) {
        EXPECT_EQ(snap.system.distribution, x.one("distribution"));
    }
    EXPECT_EQ(snap.system.services.packetSteeringService, x.has("steering"));

    std::multiset<std::string> want, got;
    for (const auto* f : x.all("conflict"))
        want.insert(f->rest);
    for (const auto& c : detectConflicts(snap))
        got.insert(conflictText(c));
    EXPECT_EQ(got, want);

    want.clear();
    got.clear();
    for (const auto* f : x.all("script"))
        want.insert(f->rest);
    for (const auto& s : snap.system.services.maskScripts)
        for (const auto& w : s.writes)
            got.insert(s.path + " " + std::to_string(w.line) + " " + w.what);
    EXPECT_EQ(got, want);

    const auto offload = x.one("offload");
    EXPECT_EQ(snap.system.services.offloading.software,
              offload == "software" || offload == "hardware");
    EXPECT_EQ(snap.system.services.offloading.hardware, offload == "hardware");

    for (const auto* f : x.all("upper")) {
        const auto* nif = snap.interface(f->words.at(0));
        ASSERT_TRUE(nif) << at(*f);
        EXPECT_EQ(nif->conduit, f->words.at(1)) << at(*f);
    }
    for (const auto* f : x.all("thread")) {
        const auto* nif = snap.interface(f->words.back());
        ASSERT_TRUE(nif) << at(*f);
        const auto comm = f->rest.substr(0, f->rest.rfind(' '));
        bool found = false;
        for (const auto* list : {&nif->napi, &nif->txWorkers, &nif->irqThreads})
            for (const auto& t : *list)
                found = found || t.name == comm;
        EXPECT_TRUE(found) << at(*f);
    }
    std::vector<std::uint32_t> bans;
    for (const auto* f : x.all("banned"))
        for (const auto& w : f->words)
            bans.push_back(static_cast<std::uint32_t>(std::stoul(w)));
    EXPECT_EQ(snap.system.services.irqbalance.owner, bans);
}

TEST_P(Firmware, ThePlanSaysWhatTheFirmwareUndoes) {
    const auto snap = r.snapshot();
    const auto l = layout::plan(snap);
    std::string notes;
    for (const auto& n : l.notes)
        notes += n + "\n";
    for (const auto* f : x.all("plan-note"))
        EXPECT_NE(notes.find(f->rest), std::string::npos) << at(*f) << "\nnotes:\n" << notes;
    for (const auto* f : x.all("plan-rps")) {
        const auto it = std::find_if(l.rx.begin(), l.rx.end(), [&](const auto& t) {
            return t.interface == f->words.at(0) && t.queue == 0;
        });
        ASSERT_NE(it, l.rx.end()) << at(*f);
        ASSERT_TRUE(it->rpsCpus) << at(*f);
        const auto cpus = it->rpsCpus->toList();
        EXPECT_EQ(cpus.empty() ? "none" : cpus, f->words.at(1)) << at(*f);
    }
    for (const auto* f : x.all("plan-thread")) {
        std::string got;
        for (const auto& t : l.interfaces) {
            const auto& mask = f->words.at(1) == "napi" ? t.napiCpus : t.txWorkerCpus;
            if (t.interface == f->words.at(0) && mask)
                got += mask->toList();
        }
        EXPECT_EQ(got, f->words.at(2)) << at(*f);
    }
}

// Persisted with what the EXPECT file says (the actions the conflicts suggest), the boot leaves
// the layout in force, and what it does not name with the firmware's own steering. Unpersist
// takes persist's files away and gives back what it disabled.
TEST_P(Firmware, PersistThenBootLeavesTheLayoutAndTheFirmwaresOwn) {
    const auto before = r.snapshot();
    const auto layout = layout::plan(before);
    ASSERT_FALSE(masksOf(layout).empty());
    persist(options());
    for (const auto* f : x.all("installs")) {
        EXPECT_NE(slurp(r.root / f->rest).find(kPersistMarker), std::string::npos) << at(*f);
        EXPECT_NE(fs::status(r.root / f->rest).permissions() & fs::perms::owner_exec,
                  fs::perms::none)
            << at(*f);
    }
    for (const auto* f : x.all("removes"))
        EXPECT_FALSE(fs::exists(fs::symlink_status(r.root / f->rest))) << at(*f);

    boot();
    EXPECT_EQ(pending(masksOf(layout), r), 0u);
    for (const auto* f : x.all("kept"))
        EXPECT_EQ(firstLineOf(f->words.at(0)), f->words.at(1)) << at(*f);
    // Read back after that boot: nothing blocks the layout any more.
    for (const auto& c : detectConflicts(r.snapshot()))
        EXPECT_FALSE(c.blocking) << c.title << ": " << c.detail;

    std::string error;
    ASSERT_TRUE(r.run(makeUnpersistScript(r.root.string()), &error)) << error;
    for (const auto* f : x.all("installs"))
        EXPECT_EQ(slurp(r.root / f->rest).find(kPersistMarker), std::string::npos) << at(*f);
    for (const auto* f : x.all("removes"))
        EXPECT_TRUE(fs::is_symlink(r.root / f->rest)) << at(*f);
}

// Persisted without any of its actions (no platform override either) the same boot undoes the
// layout where the EXPECT file says: the conflicts the snapshot names are real ones.
TEST_P(Firmware, WithoutPersistsActionsTheBootUndoesTheLayout) {
    const auto lines = x.all("unprotected");
    ASSERT_FALSE(lines.empty()) << "no unprotected line";
    PersistOptions none;
    none.packetSteeringOverride = false;
    persist(none);
    boot();
    for (const auto* f : lines)
        EXPECT_EQ(firstLineOf(f->words.at(0)), f->words.at(1)) << at(*f);
}

INSTANTIATE_TEST_SUITE_P(Fixtures, Firmware, ::testing::ValuesIn(firmwareNames()),
                         [](const auto& p) { return paramTestName(p.param); });

// The firmware's tools act on the root, never on the build machine: BusyBox's own sysctl and
// taskset would write the machine's /proc.
TEST(Firmwares, TheirToolsActOnTheRootOnly) {
    Router r("nanopi-r4s");
    installFirmwareTools(r);
    r.write("proc/sys/net/core/rps_sock_flow_entries", "0\n");
    r.write("proc/4242/status", "Name:\tnapi/eth0-3\nPPid:\t2\nCpus_allowed:\t3f\n");
    const auto host = slurp("/proc/sys/net/core/rps_sock_flow_entries");
    const auto runner = r.script("firmware.sh", kFirmwareRunner);
    const auto script = r.script("tools.sh", "sysctl -w net.core.rps_sock_flow_entries=77777\n"
                                             "taskset -p 8 4242\nlogger -t test hello\n");
    ASSERT_EQ(r.ash(runner + " hotplug " + script,
                    "CORESTEER_ROOT=" + Router::ssh_quote(r.root.string()) +
                        " FIRMWARE_TOOLS=" + Router::ssh_quote(r.tools().string())),
              0)
        << r.err();
    EXPECT_EQ(firstLine(r.root / "proc/sys/net/core/rps_sock_flow_entries"), "77777");
    EXPECT_NE(slurp(r.root / "proc/4242/status").find("Cpus_allowed:\t8\n"), std::string::npos);
    EXPECT_EQ(slurp("/proc/sys/net/core/rps_sock_flow_entries"), host);
}

// The names that tie IRQs to qca-nss-dp ports and ath11k radios by prefix, made hostile on a
// copy of the IPQ807x board (a command substitution, quotes, U+2028, bytes that are not UTF-8, 300
// bytes): the IRQs stay the radios' and ports', the plan's reasons never carry the names (a ring
// that is not "prefix and a number" is no ring), and persist and a boot run nothing they name.
TEST(Firmwares, HostileNamesOfEdmaAndAth11kRings) {
    Router r("ipq8074-dl-wrx36");
    installFirmwareTools(r);
    ASSERT_TRUE(readyForPersist(r));
    auto irqs = slurp(r.root / "proc/interrupts");
    const std::string hostile[] = {
        "reo2host-destination-ring1$(touch_me)\xe2\x80\xa8" + std::string(300, 'A'),
        "reo2host-destination-ring2'\"`id`;reboot",
        "edma_misc\xff\xc0\xaf\x1b[31m",
    };
    const char* from[] = {"reo2host-destination-ring1\n", "reo2host-destination-ring2\n",
                          "edma_misc\n"};
    for (int k = 0; k < 3; ++k) {
        const auto at = irqs.find(from[k]);
        ASSERT_NE(at, std::string::npos) << from[k];
        irqs.replace(at, std::strlen(from[k]), hostile[k] + "\n");
    }
    r.write("proc/interrupts", irqs);
    const auto snap = r.snapshot();
    for (std::uint32_t irq : {56u, 57u, 63u}) {
        const auto* info = snap.irq(irq);
        ASSERT_TRUE(info) << irq;
        EXPECT_FALSE(info->interfaces.empty()) << irq;
    }
    const auto l = layout::plan(snap);
    std::vector<std::string> reasons = l.notes;
    for (const auto& t : l.irqs)
        reasons.push_back(t.why);
    for (const auto& t : l.rx)
        reasons.push_back(t.why);
    for (const auto& t : l.tx)
        reasons.push_back(t.why);
    for (const auto& why : reasons) {
        EXPECT_TRUE(utf8::valid(why)) << why;
        for (const char* bad : {"$(", "`", "touch_me", "\xe2\x80\xa8", "\x1b", "AAAA"})
            EXPECT_EQ(why.find(bad), std::string::npos) << why;
    }
    std::string error;
    const auto p = planPersist(l, snap, {}, &error);
    ASSERT_TRUE(p) << error;
    ASSERT_TRUE(r.run(makePersistScript(*p, r.root.string()), &error)) << error;
    for (const char* iface : {"lan1", "wan", "phy0-ap0"})
        EXPECT_EQ(r.hotplug(hotplugPath(), iface, "add"), 0) << r.err();
    EXPECT_FALSE(r.executedAnything());
    // The layout is in force for what it names: ce0 (IRQ 29, "f" before) on the Wi-Fi core.
    EXPECT_EQ(firstLine(r.root / "proc/irq/29/smp_affinity"), "8");
}

// The firmwares coresteer is made for each have a fixture.
TEST(Firmwares, EveryFirmwareHasItsFixture) {
    const auto names = firmwareNames();
    for (const char* f : {"openwrt-23.05", "openwrt-24.10", "openwrt-25.12", "friendlywrt",
                          "immortalwrt", "qualcommax"})
        EXPECT_NE(std::find(names.begin(), names.end(), f), names.end()) << f;
}

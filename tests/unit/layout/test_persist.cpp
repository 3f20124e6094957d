// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// Persist and unpersist: the install scripts and the router apply script they install, run by
// BusyBox ash (OpenWrt's shell) on copies of the board fixtures, never the build machine's own
// /proc, /sys or /etc.
#include "core/base/text.h"
#include "core/collect/collect_local.h"
#include "core/layout/apply.h"
#include "core/layout/fleet.h"
#include "core/layout/layout_json.h"
#include "core/layout/persist.h"
#include "core/layout/planner.h"
#include "core/model/conflicts.h"
#include "core/model/snapshot_detail.h"
#include "tests/support/board_expect.h"
#include "tests/unit/layout/router_copy.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sys/stat.h>
#include <thread>

using namespace coresteer;
using namespace coresteer::layout;
namespace fs = std::filesystem;
using coresteer::test::slurp;

using namespace coresteer::test;

namespace {

class PersistBoard : public ::testing::TestWithParam<std::string> {};

} // namespace

// For every seed board, the plan and every preset made for it: persist, then procd's hotplug
// events (or systemd's unit) bring every mask of the layout back.
TEST_P(PersistBoard, HotplugScriptReappliesTheLayout) {
    const auto board = GetParam();
    const auto layouts = layoutsFor(Router(board, "-probe").snapshot());
    for (const auto& [name, layout] : layouts) {
        SCOPED_TRACE(name);
        Router r(board, "-" + name);
        const bool openwrt = readyForPersist(r);
        const auto snap = r.snapshot();
        std::string error;
        const auto plan = planPersist(layout, snap, {}, &error);
        if (layout.irqs.empty() && layout.rx.empty() && layout.tx.empty()) {
            // A one-core router: the planner has nothing to spread, so nothing to persist.
            ASSERT_FALSE(plan);
            EXPECT_NE(error.find("nothing"), std::string::npos) << error;
            continue;
        }
        ASSERT_TRUE(plan) << error;
        EXPECT_TRUE(plan->skipped.empty());
        const auto before = pending(plan->layout, r);
        const auto rep = r.run(makePersistScript(*plan, r.root.string()), &error);
        ASSERT_TRUE(rep) << error << r.err();
        const auto script = openwrt ? hotplugPath() : std::string("etc/coresteer/apply.sh");
        ASSERT_TRUE(fs::exists(r.root / script));
        EXPECT_EQ(fs::status(r.root / script).permissions() & fs::perms::all,
                  fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                      fs::perms::others_read | fs::perms::others_exec);
        // Persist alone changes no running value.
        EXPECT_EQ(pending(plan->layout, r), before);
        // Other events, and interfaces the layout does not cover, change nothing either.
        EXPECT_EQ(r.hotplug(script, "eth0", "remove"), 0) << r.err();
        EXPECT_EQ(r.hotplug(script, "nonexistent0", "add"), 0) << r.err();
        EXPECT_EQ(pending(plan->layout, r), before);
        for (const auto& nif : snap.interfaces)
            EXPECT_EQ(r.hotplug(script, nif.name, "add"), 0) << r.err();
        EXPECT_EQ(pending(plan->layout, r), 0u) << r.err();
        EXPECT_FALSE(r.executedAnything());
        if (openwrt) {
            const auto conf = slurp(r.root / "etc/sysupgrade.conf");
            EXPECT_EQ(conf,
                      std::string(kSysupgradeConf) + "/" + hotplugPath() + "\n/etc/coresteer/\n");
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Boards, PersistBoard, ::testing::ValuesIn(test::boardNames()),
                         boardTestName);

TEST(Persist, RanksByHwirqLikeTheResolver) {
    Router r("nanopi-r6s-openwrt");
    Layout l;
    l.irqs.push_back({{"eth0", 0}, *CpuMask::fromList("1"), ""});
    l.irqs.push_back({{"eth0", 1}, *CpuMask::fromList("2"), ""});
    std::string error;
    const auto plan = planPersist(l, r.snapshot(), {}, &error);
    ASSERT_TRUE(plan) << error;
    ASSERT_TRUE(r.run(makePersistScript(*plan, r.root.string()), &error)) << error;
    ASSERT_EQ(r.hotplug(hotplugPath(), "eth0", "add"), 0) << r.err();
    EXPECT_EQ(firstLine(r.root / "proc/irq/59/smp_affinity"), "02");
    EXPECT_EQ(firstLine(r.root / "proc/irq/58/smp_affinity"), "04");
    EXPECT_EQ(pending(l, r), 0u);
}

// Drivers request their IRQs when the interface comes up, after procd's "add": the script
// keeps looking in the background and writes the mask when the IRQ appears.
TEST(Persist, WaitsForIrqsThatAppearLate) {
    Router r("nanopi-r6s-openwrt");
    Layout l;
    l.irqs.push_back({{"eth1", 0}, *CpuMask::fromList("5"), ""});
    std::string error;
    const auto plan = planPersist(l, r.snapshot(), {}, &error);
    ASSERT_TRUE(plan) << error;
    ASSERT_TRUE(r.run(makePersistScript(*plan, r.root.string()), &error)) << error;
    // eth1's IRQ is not there yet.
    const auto table = slurp(r.root / "proc/interrupts");
    const auto at = table.find(" 96:");
    const auto end = table.find('\n', at);
    const auto row = table.substr(at, end - at + 1);
    r.write("proc/interrupts", table.substr(0, at) + table.substr(end + 1));
    fs::rename(r.root / "proc/irq/96", r.root / "proc/irq/96.later");
    ASSERT_EQ(r.hotplug(hotplugPath(), "eth1", "add", 10), 0) << r.err();
    EXPECT_TRUE(fs::exists(r.root / "tmp/coresteer/persist.wait")); // a waiter runs
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    // The interface comes up: the IRQ appears with the kernel's default mask.
    fs::rename(r.root / "proc/irq/96.later", r.root / "proc/irq/96");
    r.write("proc/irq/96/smp_affinity", "ff\n");
    r.write("proc/interrupts", table);
    std::string value;
    for (int i = 0; i < 80 && (value = firstLine(r.root / "proc/irq/96/smp_affinity")) != "20"; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    EXPECT_EQ(value, "20");
    for (int i = 0; i < 30 && fs::exists(r.root / "tmp/coresteer/persist.wait"); ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    EXPECT_FALSE(fs::exists(r.root / "tmp/coresteer/persist.wait")); // the waiter is done
    (void)row;
}

// unpersist leaves the router as it was before persist, byte for byte, whatever
// /etc/sysupgrade.conf looked like; persisting twice adds nothing twice.
TEST(Persist, UnpersistRestoresEverything) {
    const std::vector<std::pair<std::string, std::optional<std::string>>> confs = {
        {"default", std::string(kSysupgradeConf)},
        {"no-newline", std::string("/etc/mine.conf")},
        {"empty", std::string()},
        {"absent", std::nullopt},
        {"has-our-line", "/etc/coresteer/\n/etc/x\n"},
    };
    for (const auto& [name, conf] : confs) {
        SCOPED_TRACE(name);
        Router r("nanopi-r6s-openwrt", "-" + name);
        if (conf)
            r.write("etc/sysupgrade.conf", *conf);
        const auto original = treeOf(r.root);
        const auto snap = r.snapshot();
        std::string error;
        const auto plan = planPersist(::coresteer::layout::plan(snap), snap, {}, &error);
        ASSERT_TRUE(plan) << error;
        ASSERT_TRUE(r.run(makePersistScript(*plan, r.root.string()), &error)) << error;
        ASSERT_TRUE(r.run(makePersistScript(*plan, r.root.string()), &error)) << error;
        const auto persisted = slurp(r.root / "etc/sysupgrade.conf");
        EXPECT_EQ(persisted.find("/etc/hotplug.d/net/95-coresteer"),
                  persisted.rfind("/etc/hotplug.d/net/95-coresteer"));
        EXPECT_NE(persisted.find("/etc/coresteer/\n"), std::string::npos);
        EXPECT_TRUE(r.snapshot().system.services.persistedLayout.size() > 0);
        const auto rep = r.run(makeUnpersistScript(r.root.string()), &error);
        ASSERT_TRUE(rep) << error;
        EXPECT_EQ(rep->removed,
                  (std::vector<std::string>{"/" + hotplugPath(), "/etc/coresteer/layout.json"}));
        const auto now = treeOf(r.root);
        for (const auto& [path, content] : original) {
            const auto it = now.find(path);
            ASSERT_NE(it, now.end()) << path;
            EXPECT_EQ(it->second, content) << path;
        }
        for (const auto& [path, content] : now) {
            if (!original.count(path)) {
                EXPECT_TRUE(path == "etc/hotplug.d" || path == "etc/hotplug.d/net")
                    << "left behind: " << path; // the fixture has no hotplug.d; OpenWrt does
            }
        }
        // Nothing left to remove.
        const auto again = r.run(makeUnpersistScript(r.root.string()), &error);
        ASSERT_TRUE(again) << error;
        EXPECT_TRUE(again->removed.empty());
    }
}

// When sysupgrade.conf was edited after persist, unpersist drops only its own lines.
TEST(Persist, UnpersistKeepsLinesAddedSince) {
    Router r("nanopi-r6s-openwrt");
    r.write("etc/sysupgrade.conf", kSysupgradeConf);
    const auto snap = r.snapshot();
    std::string error;
    const auto plan = planPersist(::coresteer::layout::plan(snap), snap, {}, &error);
    ASSERT_TRUE(plan) << error;
    ASSERT_TRUE(r.run(makePersistScript(*plan, r.root.string()), &error)) << error;
    std::ofstream(r.root / "etc/sysupgrade.conf", std::ios::app) << "/etc/mine\n";
    ASSERT_TRUE(r.run(makeUnpersistScript(r.root.string()), &error)) << error;
    EXPECT_EQ(slurp(r.root / "etc/sysupgrade.conf"), std::string(kSysupgradeConf) + "/etc/mine\n");
}

// A file that cannot be written stops the install before anything changes.
TEST(Persist, AFailedWriteChangesNothing) {
    Router r("nanopi-r6s-openwrt");
    r.write("etc/sysupgrade.conf", kSysupgradeConf);
    r.write("etc/hotplug.d/net", "not a directory\n"); // the hotplug script cannot go there
    const auto original = treeOf(r.root);
    const auto snap = r.snapshot();
    std::string error;
    const auto plan = planPersist(::coresteer::layout::plan(snap), snap, {}, &error);
    ASSERT_TRUE(plan) << error;
    EXPECT_FALSE(r.run(makePersistScript(*plan, r.root.string()), &error));
    EXPECT_NE(error.find("95-coresteer"), std::string::npos) << error;
    EXPECT_EQ(treeOf(r.root), original);
}

// OpenWrt's packet steering service (23.05 on) rewrites RPS on every reload: persist installs the
// supported override, which runs the firmware's steering and then the layout; unpersist takes
// it away again.
TEST(Persist, PacketSteeringServiceGetsTheOverride) {
    Router r("nanopi-r6s-openwrt");
    r.write("etc/sysupgrade.conf", kSysupgradeConf);
    r.write("etc/init.d/packet_steering", "#!/bin/sh /etc/rc.common\nSTART=25\nUSE_PROCD=1\n");
    r.write("etc/config/network", "config interface 'loopback'\n\toption device 'lo'\n\n"
                                  "config globals 'globals'\n\toption ula_prefix 'fd00::/48'\n"
                                  "\toption packet_steering '1'\n");
    auto snap = r.snapshot();
    ASSERT_EQ(snap.system.services.packetSteering, "1");
    auto conflicts = detectConflicts(snap);
    ASSERT_EQ(conflicts.size(), 1u);
    EXPECT_EQ(conflicts[0].kind, Conflict::Kind::PacketSteeringService);
    EXPECT_TRUE(conflicts[0].blocking);
    const auto layout = ::coresteer::layout::plan(snap);
    std::string error;
    const auto plan = planPersist(layout, snap, {}, &error);
    ASSERT_TRUE(plan) << error;
    ASSERT_TRUE(r.run(makePersistScript(*plan, r.root.string()), &error)) << error;
    const auto override = r.root / "usr/libexec/platform/packet-steering.sh";
    ASSERT_TRUE(fs::exists(override));
    // Not kept by sysupgrade: a newer image's own board script must stay the board's, and
    // 95-coresteer (which sysupgrade keeps) puts coresteer's back at the first boot.
    EXPECT_EQ(slurp(r.root / "etc/sysupgrade.conf").find("/usr/libexec/platform/"),
              std::string::npos);
    snap = r.snapshot();
    EXPECT_TRUE(snap.system.services.platformOverrideOurs);
    EXPECT_TRUE(detectConflicts(snap).empty());
    // The service calls the override with the packet_steering value: the layout comes back.
    const auto before = pending(plan->layout, r);
    EXPECT_GT(before, 0u);
    ASSERT_EQ(r.ash("'" + override.string() + "' 1",
                    "CORESTEER_ROOT='" + r.root.string() + "' CORESTEER_WAIT=0"),
              0)
        << r.err();
    EXPECT_EQ(pending(plan->layout, r), 0u);
    ASSERT_TRUE(r.run(makeUnpersistScript(r.root.string()), &error)) << error;
    EXPECT_FALSE(fs::exists(override));
    EXPECT_EQ(slurp(r.root / "etc/sysupgrade.conf"), kSysupgradeConf);
}

// The board's own affinity script runs before coresteer's: a note that explains the order.
// One that sorts after it would overwrite the layout: a blocking conflict.
TEST(Persist, BoardHotplugScriptsAreOrdered) {
    Router r("nanopi-r6s-friendlywrt");
    r.write("etc/hotplug.d/net/40-net-smp-affinity", "#!/bin/sh\n");
    r.write("etc/hotplug.d/net/99-vendor-irq", "#!/bin/sh\n");
    r.write("etc/hotplug.d/net/10-unrelated", "#!/bin/sh\n");
    const auto conflicts = detectConflicts(r.snapshot());
    ASSERT_EQ(conflicts.size(), 2u);
    EXPECT_EQ(conflicts[0].title, "/etc/hotplug.d/net/40-net-smp-affinity");
    EXPECT_FALSE(conflicts[0].blocking);
    EXPECT_NE(conflicts[0].suggestion.find("runs before coresteer's 95-coresteer"),
              std::string::npos);
    EXPECT_EQ(conflicts[1].title, "/etc/hotplug.d/net/99-vendor-irq");
    EXPECT_TRUE(conflicts[1].blocking);
}

TEST(Persist, IrqbalanceIsAConflictWithOneAction) {
    Router r("bpi-r4");
    auto conflicts = detectConflicts(r.snapshot());
    ASSERT_EQ(conflicts.size(), 1u);
    EXPECT_EQ(conflicts[0].kind, Conflict::Kind::Irqbalance);
    EXPECT_EQ(conflicts[0].title, "irqbalance is running");
    EXPECT_NE(conflicts[0].suggestion.find("/etc/init.d/irqbalance disable"), std::string::npos);
    // Enabled at boot but not running (an rc.d link) is a conflict too.
    Router idle("nanopi-r4s");
    fs::create_directories(idle.root / "etc/rc.d");
    fs::create_symlink("../init.d/irqbalance", idle.root / "etc/rc.d/S90irqbalance");
    conflicts = detectConflicts(idle.snapshot());
    ASSERT_EQ(conflicts.size(), 1u);
    EXPECT_EQ(conflicts[0].title, "irqbalance is enabled at boot");
}

// Other Linux: a oneshot unit enabled for boot, a template unit per interface, a udev rule.
TEST(Persist, SystemdUnitUdevRuleAndScript) {
    Router r("x86-server-96");
    fs::create_directories(r.root / "run/systemd/system");
    const auto original = treeOf(r.root);
    const auto snap = r.snapshot();
    ASSERT_FALSE(snap.system.isOpenWrt());
    const auto layout = ::coresteer::layout::plan(snap);
    std::string error;
    const auto plan = planPersist(layout, snap, {}, &error);
    ASSERT_TRUE(plan) << error;
    EXPECT_EQ(plan->flavor, PersistPlan::Flavor::Systemd);
    EXPECT_TRUE(plan->sysupgradeLines.empty());
    const auto rep = r.run(makePersistScript(*plan, r.root.string()), &error);
    ASSERT_TRUE(rep) << error;
    const auto wants =
        r.root / "etc/systemd/system/multi-user.target.wants/coresteer-apply.service";
    ASSERT_TRUE(fs::is_symlink(wants));
    EXPECT_EQ(fs::read_symlink(wants), "/etc/systemd/system/coresteer-apply.service");
    const auto unit = slurp(r.root / "etc/systemd/system/coresteer-apply.service");
    EXPECT_NE(unit.find("Type=oneshot"), std::string::npos);
    EXPECT_NE(unit.find("ExecStart=/bin/sh /etc/coresteer/apply.sh"), std::string::npos);
    EXPECT_NE(unit.find("WantedBy=multi-user.target"), std::string::npos);
    const auto tmpl = slurp(r.root / "etc/systemd/system/coresteer-apply@.service");
    // Each assignment quoted: systemd splits Environment= at blanks after expanding %I, and an
    // instance name may hold them (systemd-escape's \x20).
    EXPECT_NE(tmpl.find("Environment=\"ACTION=add\" \"INTERFACE=%I\" \"CORESTEER_FOREGROUND=1\"\n"),
              std::string::npos)
        << tmpl;
    for (const auto& u : {unit, tmpl}) {
        text::LineReader lines(u);
        std::string_view line;
        while (lines.next(line))
            if (text::startsWith(line, "Environment=")) {
                for (const auto word : text::split(line.substr(12), ' '))
                    EXPECT_TRUE(word.size() >= 2 && word.front() == '"' && word.back() == '"')
                        << line;
            }
    }
    const auto rule = slurp(r.root / "etc/udev/rules.d/90-coresteer.rules");
    EXPECT_NE(rule.find("SUBSYSTEM==\"net\""), std::string::npos);
    EXPECT_NE(rule.find("coresteer-apply@%k.service"), std::string::npos);
    for (const auto& q : plan->layout.rx)
        EXPECT_NE(rule.find(q.interface), std::string::npos) << q.interface;
    // The boot unit runs the script without INTERFACE: everything at once.
    ASSERT_GT(pending(plan->layout, r), 0u);
    ASSERT_EQ(r.ash("'" + (r.root / "etc/coresteer/apply.sh").string() + "'",
                    "CORESTEER_ROOT='" + r.root.string() + "' CORESTEER_WAIT=0"),
              0)
        << r.err();
    EXPECT_EQ(pending(plan->layout, r), 0u);
    ASSERT_TRUE(r.run(makeUnpersistScript(r.root.string()), &error)) << error;
    // Everything persist added is gone; the directories it made stay, empty.
    for (const auto& [path, content] : treeOf(r.root)) {
        if (!original.count(path)) {
            EXPECT_EQ(content, "dir") << path;
        }
    }
}

// Without hotplug.d and its caller, and without systemd, persist says what is missing.
TEST(Persist, NoWayToRunAScriptIsAClearError) {
    Router r("x86-server-96");
    const auto snap = r.snapshot();
    std::string error;
    EXPECT_FALSE(planPersist(::coresteer::layout::plan(snap), snap, {}, &error));
    EXPECT_NE(error.find("no /etc/hotplug.d with a hotplug caller (/sbin/hotplug-call or procd)"),
              std::string::npos)
        << error;
    EXPECT_NE(error.find("no systemd (no /run/systemd/system)"), std::string::npos) << error;
    // hotplug.d alone, with nothing to run it, is not enough.
    r.write("etc/hotplug.d/net/.keep", "");
    const auto alone = r.snapshot();
    EXPECT_FALSE(planPersist(::coresteer::layout::plan(alone), alone, {}, &error));
}

// A firmware that is not OpenWrt but runs /etc/hotplug.d the same way (Buildroot, vendor BusyBox
// images: /sbin/hotplug-call) persists there as on OpenWrt, without sysupgrade lines where it
// has no /etc/sysupgrade.conf; the hotplug script then applies the layout.
TEST(Persist, HotplugDWithACallerIsEnoughWithoutOpenWrt) {
    Router r("nanopi-r6s-openwrt");
    std::filesystem::remove(r.root / "etc/openwrt_release");
    r.write("etc/hotplug.d/net/.keep", "");
    r.write("sbin/hotplug-call", "#!/bin/sh\n");
    const auto snap = r.snapshot();
    ASSERT_FALSE(snap.system.isOpenWrt());
    EXPECT_TRUE(snap.system.services.hotplugCaller);
    std::string error;
    const auto plan = planPersist(::coresteer::layout::plan(snap), snap, {}, &error);
    ASSERT_TRUE(plan) << error;
    EXPECT_TRUE(plan->sysupgradeLines.empty());
    const auto before = pending(plan->layout, r);
    EXPECT_GT(before, 0u);
    ASSERT_TRUE(r.run(makePersistScript(*plan, r.root.string()), &error)) << error;
    EXPECT_FALSE(fs::exists(r.root / "etc/sysupgrade.conf"));
    for (const auto& nif : snap.interfaces)
        EXPECT_EQ(r.hotplug(hotplugPath(), nif.name, "add"), 0) << r.err();
    EXPECT_EQ(pending(plan->layout, r), 0u);
    // procd in the place of hotplug-call does as well.
    fs::remove(r.root / "sbin/hotplug-call");
    r.write("sbin/procd", "");
    EXPECT_TRUE(r.snapshot().system.services.hotplugCaller);
}

TEST(Persist, UciOptionReading) {
    const std::string net = "config globals 'globals'\n\toption packet_steering \"2\"\n"
                            "config interface 'lan'\n\toption packet_steering '9'\n"
                            "config globals\n  option  packet_steering   1\n";
    EXPECT_EQ(detail::uciOption(net, "globals", "packet_steering"), "1");
    EXPECT_EQ(detail::uciOption(net, "globals", "ula_prefix"), std::nullopt);
    EXPECT_EQ(detail::uciOption("", "globals", "packet_steering"), std::nullopt);
}

// Names from a hostile router: interfaces and IRQs called $(reboot), with backticks,
// semicolons and quotes, and a 200-character name. Nothing runs, and every valid name gets
// exactly its mask.
TEST(Persist, HostileNamesAreNeverExecuted) {
    Router r("nanopi-r6s-openwrt");
    const std::string evil1 = "$(reboot)";  // a valid kernel name: 9 bytes, no '/', ':'
    const std::string evil2 = "a`id`;'\"b"; // valid too
    const std::string longName(200, 'x');   // not valid: longer than 15 bytes
    const std::string evilIrq = "q;touch_me`id`$(reboot)" + std::string(180, 'z');
    auto table = slurp(r.root / "proc/interrupts");
    auto rename = [&](const std::string& from, const std::string& to) {
        const auto at = table.find(" " + from + "\n");
        ASSERT_NE(at, std::string::npos) << from;
        table.replace(at + 1, from.size(), to);
    };
    rename("eth1", evil1);
    rename("eth2", evil2);
    rename("xhci-hcd:usb1", evilIrq);
    r.write("proc/interrupts", table);
    fs::rename(r.root / "sys/class/net/eth1", r.root / "sys/class/net" / evil1);
    fs::rename(r.root / "sys/class/net/eth2", r.root / "sys/class/net" / evil2);
    r.write("sys/class/net/" + evil1 + "/queues/tx-0/xps_cpus", "00\n");
    fs::copy(r.root / "sys/class/net/eth0", r.root / "sys/class/net" / longName,
             fs::copy_options::recursive | fs::copy_options::copy_symlinks);
    const auto snap = r.snapshot();
    ASSERT_NE(snap.interface(evil1), nullptr);
    ASSERT_NE(snap.interface(evil2), nullptr);
    Layout l;
    l.irqs.push_back({{evil1, 0}, *CpuMask::fromList("2"), ""});
    l.irqs.push_back({{evil2, 0}, *CpuMask::fromList("3"), ""});
    l.irqs.push_back({{evilIrq, 0}, *CpuMask::fromList("1"), ""});
    l.rx.push_back({evil1, 0, *CpuMask::fromList("6"), 1024, ""});
    l.rx.push_back({evil2, 0, *CpuMask::fromList("7"), std::nullopt, ""});
    l.rx.push_back({longName, 0, *CpuMask::fromList("5"), std::nullopt, ""});
    l.tx.push_back({evil1, 0, *CpuMask::fromList("4"), ""});
    std::string error;
    const auto plan = planPersist(l, snap, {}, &error);
    ASSERT_TRUE(plan) << error;
    ASSERT_EQ(plan->skipped.size(), 1u); // the long name
    EXPECT_NE(plan->skipped[0].reason.find("not a valid kernel interface name"), std::string::npos);
    ASSERT_TRUE(r.run(makePersistScript(*plan, r.root.string()), &error)) << error;
    for (const auto& name : {evil1, evil2, longName, std::string("eth0")})
        EXPECT_EQ(r.hotplug(hotplugPath(), name, "add"), 0) << r.err();
    EXPECT_FALSE(r.executedAnything());
    const auto irqOf = [&](const std::string& action) {
        return findIrq(r.snapshot(), {action, 0}).value_or(0);
    };
    EXPECT_EQ(firstLine(r.root / ("proc/irq/" + std::to_string(irqOf(evil1)) + "/smp_affinity")),
              "04");
    EXPECT_EQ(firstLine(r.root / ("proc/irq/" + std::to_string(irqOf(evil2)) + "/smp_affinity")),
              "08");
    EXPECT_EQ(firstLine(r.root / ("proc/irq/" + std::to_string(irqOf(evilIrq)) + "/smp_affinity")),
              "02");
    EXPECT_EQ(firstLine(r.root / "sys/class/net" / evil1 / "queues/rx-0/rps_cpus"), "40");
    EXPECT_EQ(firstLine(r.root / "sys/class/net" / evil1 / "queues/rx-0/rps_flow_cnt"), "1024");
    EXPECT_EQ(firstLine(r.root / "sys/class/net" / evil2 / "queues/rx-0/rps_cpus"), "80");
    EXPECT_EQ(firstLine(r.root / "sys/class/net" / evil1 / "queues/tx-0/xps_cpus"), "10");
    EXPECT_EQ(firstLine(r.root / "sys/class/net" / longName / "queues/rx-0/rps_cpus"),
              firstLine(r.root / "sys/class/net/eth0/queues/rx-0/rps_cpus"));
    // The same layout through the CLI: apply, persist, unpersist, with the trap PATH.
    std::ofstream(r.root.parent_path() / "layout.json") << toJson(l).dump(2);
    for (const std::string verb :
         {"snapshot --json", "plan --json", "diff", "apply --no-revert", "persist", "unpersist"}) {
        const bool takesLayout = verb == "diff" || verb.rfind("apply", 0) == 0 || verb == "persist";
        const std::string args =
            verb.substr(0, verb.find(' ')) + " --root '" + r.root.string() + "' " +
            (takesLayout ? "'" + (r.root.parent_path() / "layout.json").string() + "' " : "") +
            (verb.find(' ') != std::string::npos ? verb.substr(verb.find(' ')) : "");
        const int rc =
            r.ash("-c " + Router::ssh_quote(std::string(CORESTEER_CLI) + " " + args), "");
        EXPECT_LE(rc, 1) << verb << ": " << r.err();
    }
    EXPECT_FALSE(r.executedAnything());
    EXPECT_FALSE(fs::exists(r.root / hotplugPath()));
}

// The router apply script carries the layout as tab-separated records. A name that holds a tab
// or a line break, given straight to makeRouterApplyScript (no plan's checks in between), must
// not make records of its own: here each one would set eth0's rx-0 to ff and IRQ 1's mask to
// ff if it did. Other hostile bytes (quotes, $(...), U+2028, invalid UTF-8, a long name) travel
// as data and are never run.
TEST(Persist, SeparatorsInNamesNeverMakeRecords) {
    Router r("nanopi-r6s-openwrt");
    const auto snap = r.snapshot();
    const auto rps = [&] { return firstLine(r.root / "sys/class/net/eth0/queues/rx-0/rps_cpus"); };
    const auto irq1 = [&] { return firstLine(r.root / "proc/irq/1/smp_affinity"); };
    const auto rpsBefore = rps();
    const auto irqBefore = irq1();
    const auto ff = *CpuMask::fromList("0-7");
    Layout l;
    l.rx.push_back({"x\neth0\t0\trps\tff\ny", 0, ff, std::nullopt, ""});
    l.rx.push_back({"eth9\teth0", 0, ff, std::nullopt, ""});
    l.tx.push_back({"x\reth0\t0\txps\tff", 0, ff, ""});
    l.interfaces.push_back({"x\neth0\tnapi\tff",
                            ff,
                            std::nullopt,
                            std::nullopt,
                            std::nullopt,
                            std::nullopt,
                            {},
                            {},
                            ""});
    l.irqs.push_back({{"a\tb\n1\tff\tzz", 0}, ff, ""});
    l.irqs.push_back({{"$(touch_me)'\"`id`\xe2\x80\xa8\xff" + std::string(300, 'q'), 0}, ff, ""});
    PersistOptions o;
    o.waitSeconds = 0;
    const auto script = makeRouterApplyScript(l, snap, o);
    const auto file = r.script("router-apply.sh", script);
    EXPECT_EQ(r.ash(file, "ACTION=add INTERFACE=eth0 CORESTEER_ROOT=" +
                              Router::ssh_quote(r.root.string())),
              0)
        << r.err();
    EXPECT_EQ(rps(), rpsBefore);
    EXPECT_EQ(irq1(), irqBefore);
    EXPECT_FALSE(r.executedAnything());
    // The records it carries: none starts from a piece of a name.
    for (const char* var : {"QUEUES", "THREADS", "IRQS"}) {
        const auto at = script.find(std::string("\n") + var + "='");
        ASSERT_NE(at, std::string::npos) << var;
        const auto end = script.find("'\n", at + 1);
        EXPECT_EQ(script.substr(at, end - at).find("eth0"), std::string::npos) << var;
    }
}

// Every message to the system log ends logger's options with "--": a message that starts with a
// dash (an interface, a thread, a value from the router) is never taken for an option.
TEST(Persist, LoggerMessagesCannotBeTakenForOptions) {
    Router r("nanopi-r6s-friendlywrt");
    const auto snap = r.snapshot();
    Preset p;
    p.board = snap.system.boardName;
    p.layout = plan(snap);
    std::string error;
    const auto f = makeFleetScripts(p, {}, &error);
    ASSERT_TRUE(f) << error;
    const std::string scripts[] = {
        makeRouterApplyScript(p.layout, snap, {}),
        makeApplyScript(changedWrites(resolve(p.layout, snap)), "/", {60, true}).script, f->apply,
        f->persist};
    std::size_t calls = 0;
    for (const auto& s : scripts) {
        text::LineReader lines(s);
        std::string_view line;
        while (lines.next(line)) {
            const auto t = text::trim(line);
            if (t.empty() || t.front() == '#' || t.find("logger ") == std::string_view::npos)
                continue;
            if (t.find("command -v logger") != std::string_view::npos)
                continue;
            ++calls;
            EXPECT_NE(t.find("logger -t coresteer -- "), std::string_view::npos) << t;
        }
    }
    EXPECT_GE(calls, 3u);
}

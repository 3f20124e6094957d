// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// Boot scripts that write masks after the hotplug script: found with their file and line, named
// by the planner, and overridden by persist (init scripts disabled as "/etc/init.d/NAME
// disable" does, rc.local followed by the layout), all undone by unpersist. The scripts are
// written from what the firmwares ship: qualcommax's /etc/init.d/smp_affinity (START=93, boot
// only, writes /proc/irq/N/smp_affinity and pins NAPI threads with taskset), ImmortalWrt's
// /etc/init.d/autocore (START=99: rps_cpus, rps_flow_cnt, rps_sock_flow_entries, and on x86
// packet_steering=1), and an owner's /etc/rc.local.
#include "core/layout/persist.h"
#include "core/layout/planner.h"
#include "core/model/conflicts.h"
#include "core/model/snapshot.h"
#include "core/model/snapshot_json.h"
#include "tests/unit/layout/router_copy.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

using namespace coresteer;
using namespace coresteer::test;
namespace fs = std::filesystem;

namespace {

constexpr const char* kSmpAffinity =
    "#!/bin/sh /etc/rc.common\n"
    "# Pins the NSS rings\n"
    "START=93\n"
    "set_affinity() {\n"
    "\tawk -v n=\"$1\" '$0 ~ n { print substr($1, 1, length($1)-1); exit }' /proc/interrupts |\n"
    "\t\twhile read -r irq; do\n"
    "\t\t\techo \"$2\" > \"$CORESTEER_ROOT/proc/irq/$irq/smp_affinity\"\n"
    "\t\tdone\n"
    "}\n"
    "boot() {\n"
    "\t# echo 1 > /proc/irq/1/smp_affinity (a comment writes nothing)\n"
    "\tcat /proc/irq/*/smp_affinity >/dev/null\n"
    "\ttaskset -p 2 \"$pid\" >/dev/null\n"
    "}\n";

constexpr const char* kAutocore = "#!/bin/sh /etc/rc.common\nSTART=99\nstart() {\n"
                                  "\tsysctl -w net.core.rps_sock_flow_entries=16384\n"
                                  "\tfor f in /sys/class/net/eth*/queues/rx-*/rps_cpus\n"
                                  "\tdo\n\t\techo 4 > \"$f\"\n\tdone\n"
                                  "\tuci set network.@globals[0].packet_steering=\"1\"\n}\n";

// The owner's rc.local: RPS on eth0 over CPU 0 only, under the fixture root.
constexpr const char* kRcLocal =
    "# Put your custom commands here that should be executed once\n"
    "# the system init finished. By default this file does nothing.\n\n"
    "echo 1 > \"$CORESTEER_ROOT/sys/class/net/eth0/queues/rx-0/rps_cpus\"\n"
    "true ddns-update --password=hunter2 >/dev/null\n\nexit 0\n";

void bootScripts(const Router& r) {
    r.write("etc/init.d/smp_affinity", kSmpAffinity);
    r.write("etc/init.d/autocore", kAutocore); // installed, not enabled
    r.write("etc/rc.local", kRcLocal);
    fs::create_directories(r.root / "etc/rc.d");
    fs::create_symlink("../init.d/smp_affinity", r.root / "etc/rc.d/S93smp_affinity");
    fs::create_symlink("../init.d/smp_affinity", r.root / "etc/rc.d/K10smp_affinity");
}

const Services::MaskScript* script(const Snapshot& s, const std::string& path) {
    const auto& all = s.system.services.maskScripts;
    const auto it =
        std::find_if(all.begin(), all.end(), [&](const auto& m) { return m.path == path; });
    return it == all.end() ? nullptr : &*it;
}

std::optional<PersistPlan> overridePlan(const Snapshot& snap, const Layout& layout) {
    PersistOptions o;
    o.overrideBootScripts = true;
    std::string error;
    auto p = planPersist(layout, snap, o, &error);
    EXPECT_TRUE(p) << error;
    return p;
}

// The board's layout limited to eth0's receive queues: what rc.local writes too.
Layout eth0Queues(const Snapshot& snap) {
    Layout l;
    for (const auto& t : layout::plan(snap).rx)
        if (t.interface == "eth0")
            l.rx.push_back(t);
    return l;
}

} // namespace

TEST(BootScripts, FoundWithTheirFileLineAndWhatTheyWrite) {
    Router r("bpi-r4");
    bootScripts(r);
    const auto snap = r.snapshot();
    const auto* smp = script(snap, "/etc/init.d/smp_affinity");
    ASSERT_TRUE(smp);
    EXPECT_TRUE(smp->enabled);
    EXPECT_EQ(smp->start, 93);
    EXPECT_EQ(smp->whereText(), "/etc/init.d/smp_affinity:7 (IRQ masks), "
                                "/etc/init.d/smp_affinity:13 (thread CPUs)");
    EXPECT_EQ(smp->rcLinks, (std::vector<std::string>{"K10smp_affinity", "S93smp_affinity"}));
    const auto* autocore = script(snap, "/etc/init.d/autocore");
    ASSERT_TRUE(autocore);
    EXPECT_FALSE(autocore->enabled);
    EXPECT_EQ(autocore->whereText(), "/etc/init.d/autocore:4 (RPS flows), "
                                     "/etc/init.d/autocore:5 (RPS), "
                                     "/etc/init.d/autocore:9 (packet_steering)");
    const auto* rc = script(snap, "/etc/rc.local");
    ASSERT_TRUE(rc);
    EXPECT_EQ(rc->whereText(), "/etc/rc.local:4 (RPS)");
    // Of a boot script, only what coresteer reads enters the bundle, at its own line: the
    // owner's password never does.
    const auto bundle = collectLocal(r.root);
    ASSERT_TRUE(bundle.file("etc/rc.local"));
    EXPECT_EQ(*bundle.file("etc/rc.local"),
              "\n\n\necho 1 > \"$CORESTEER_ROOT/sys/class/net/eth0/queues/rx-0/rps_cpus\"\n\n\n\n");
    ASSERT_TRUE(bundle.file("etc/init.d/autocore"));
    EXPECT_EQ(bundle.file("etc/init.d/autocore")->find("start()"), std::string::npos);

    // Conflicts for the two that run; the planner says what they undo.
    const auto conflicts = detectConflicts(snap);
    std::vector<std::string> titles;
    for (const auto& c : conflicts)
        if (c.kind == Conflict::Kind::BootScript) {
            EXPECT_TRUE(c.blocking);
            titles.push_back(c.title);
        }
    EXPECT_EQ(titles, (std::vector<std::string>{
                          "/etc/init.d/smp_affinity rewrites masks at boot (START=93)",
                          "/etc/rc.local rewrites masks at the end of boot"}));
    const auto notes = layout::plan(snap).notes;
    EXPECT_TRUE(std::any_of(notes.begin(), notes.end(), [](const auto& n) {
        return n.rfind("/etc/init.d/smp_affinity writes masks at boot", 0) == 0 &&
               n.find("smp_affinity:7 (IRQ masks)") != std::string::npos;
    }));
    // Without the option, persist does nothing about them, and says nothing it did.
    std::string error;
    const auto plain = planPersist(layout::plan(snap), snap, {}, &error);
    ASSERT_TRUE(plain) << error;
    EXPECT_TRUE(plain->bootScriptsOff.empty());
    EXPECT_FALSE(plain->followRcLocal);
}

// Persist disables the init script (both links go, noted), and rc.local ends with the layout:
// run as the boot runs it, the layout is what stays. Unpersist puts every byte and link back.
TEST(BootScripts, PersistOverridesThemAndUnpersistPutsThemBack) {
    Router r("bpi-r4");
    ASSERT_TRUE(readyForPersist(r));
    bootScripts(r);
    const auto original = treeOf(r.root);
    const auto snap = r.snapshot();
    const auto layout = eth0Queues(snap);
    ASSERT_FALSE(layout.rx.empty());
    const auto plan = overridePlan(snap, layout);
    ASSERT_TRUE(plan);
    EXPECT_EQ(plan->bootScriptsOff, std::vector<std::string>{"smp_affinity"});
    EXPECT_TRUE(plan->followRcLocal);
    std::string error;
    ASSERT_TRUE(r.run(makePersistScript(*plan, r.root.string()), &error)) << error;
    EXPECT_FALSE(fs::is_symlink(r.root / "etc/rc.d/S93smp_affinity"));
    EXPECT_FALSE(fs::is_symlink(r.root / "etc/rc.d/K10smp_affinity"));
    const auto rc = slurp(r.root / "etc/rc.local");
    const auto exitAt = rc.rfind("exit 0\n");
    ASSERT_NE(exitAt, std::string::npos);
    const auto ours = rc.rfind("Generated by coresteer");
    ASSERT_NE(ours, std::string::npos);
    EXPECT_LT(ours, exitAt); // before the file's own "exit 0"
    const std::string own = kRcLocal;
    EXPECT_EQ(rc.substr(0, rc.find("[ -x ")), own.substr(0, own.rfind("exit 0\n")));

    // The end of boot: rc.local writes its RPS, then coresteer's line applies the layout again.
    ASSERT_EQ(r.ash("'" + (r.root / "etc/rc.local").string() + "'",
                    "CORESTEER_ROOT='" + r.root.string() + "' CORESTEER_WAIT=0"),
              0)
        << r.err();
    EXPECT_EQ(pending(layout, r), 0u);

    // Read back: no conflict left; rc.local is a note.
    const auto after = r.snapshot();
    EXPECT_FALSE(script(after, "/etc/init.d/smp_affinity")->enabled);
    for (const auto& c : detectConflicts(after))
        EXPECT_FALSE(c.kind == Conflict::Kind::BootScript && c.blocking) << c.title;
    const auto again = overridePlan(after, layout);
    ASSERT_TRUE(again);
    const auto same = r.run(makePersistScript(*again, r.root.string(), true), &error);
    ASSERT_TRUE(same) << error;
    EXPECT_TRUE(same->unchanged);

    ASSERT_TRUE(r.run(makeUnpersistScript(r.root.string()), &error)) << error;
    // Every file and link under /etc as it was (the masks the run wrote stay, as after any
    // unpersist).
    auto etcOf = [](std::map<std::string, std::string> tree) {
        std::erase_if(
            tree, [](const auto& e) { return e.first.rfind("etc/", 0) != 0 || e.second == "dir"; });
        return tree;
    };
    EXPECT_EQ(etcOf(treeOf(r.root)), etcOf(original));
    EXPECT_EQ(fs::read_symlink(r.root / "etc/rc.d/S93smp_affinity"), "../init.d/smp_affinity");
}

// A planted list of links never makes a link elsewhere, or to anything but the script itself;
// an rc.local that is a link is never rewritten.
TEST(BootScripts, PlantedLinksListAndLinkedRcLocalAreRefused) {
    Router r("bpi-r4");
    ASSERT_TRUE(readyForPersist(r));
    bootScripts(r);
    const auto outside = r.root.parent_path() / "outside-rc";
    { std::ofstream(outside) << kRcLocal; }
    fs::remove(r.root / "etc/rc.local");
    fs::create_symlink(outside, r.root / "etc/rc.local");
    r.write("etc/coresteer/boot-links", "S10evil\t/tmp/evil\n../../x\t../init.d/x\n"
                                        "S20dropbear\t/etc/shadow\nS11cron\t../init.d/cron\n");
    const auto snap = r.snapshot();
    const auto layout = eth0Queues(snap);
    const auto plan = overridePlan(snap, layout);
    ASSERT_TRUE(plan);
    std::string error;
    const auto rep = r.run(makePersistScript(*plan, r.root.string()), &error);
    ASSERT_TRUE(rep) << error;
    EXPECT_FALSE(fs::is_symlink(r.root / "etc/rc.d/S10evil"));
    EXPECT_FALSE(fs::is_symlink(r.root / "etc/rc.d/S20dropbear"));
    EXPECT_FALSE(fs::exists(r.root / "etc/x"));
    EXPECT_EQ(fs::read_symlink(r.root / "etc/rc.d/S11cron"), "../init.d/cron");
    EXPECT_TRUE(fs::is_symlink(r.root / "etc/rc.local"));
    EXPECT_EQ(slurp(outside), kRcLocal);
    EXPECT_TRUE(std::any_of(rep->messages.begin(), rep->messages.end(), [](const auto& m) {
        return m == "/etc/rc.local is a link or not a plain file: left as it is";
    }));
}

// Init scripts whose names a hostile router chose: the snapshot's texts and JSON carry them
// escaped, persist disables none whose name is not plain, and nothing in them ever runs.
TEST(BootScripts, HostileScriptNamesAreDataEverywhere) {
    Router r("bpi-r4");
    ASSERT_TRUE(readyForPersist(r));
    const std::vector<std::string> names = {
        "a'b",           "$(touch_me)", "x\xe2\x80\xa8y",     "\xff\xfe",
        "t\x1b]0;x\x07", "`id`",        std::string(200, 'n')};
    fs::create_directories(r.root / "etc/rc.d");
    for (const auto& n : names) {
        r.write("etc/init.d/" + n, "#!/bin/sh /etc/rc.common\nSTART=90\n"
                                   "boot() {\n\techo 4 > /proc/irq/35/smp_affinity\n}\n");
        fs::create_symlink("../init.d/" + n, r.root / "etc/rc.d" / ("S90" + n));
    }
    const auto snap = r.snapshot();
    ASSERT_EQ(snap.system.services.maskScripts.size(), names.size());
    const auto json = toJsonText(snap);
    EXPECT_EQ(json.find('\x1b'), std::string::npos);
    for (const auto& c : detectConflicts(snap))
        EXPECT_EQ(c.title.find('\x1b'), std::string::npos) << c.title;
    const auto plan = overridePlan(snap, eth0Queues(snap));
    ASSERT_TRUE(plan);
    EXPECT_EQ(plan->bootScriptsOff, std::vector<std::string>{std::string(200, 'n')});
    std::string error;
    ASSERT_TRUE(r.run(makePersistScript(*plan, r.root.string()), &error)) << error;
    EXPECT_FALSE(r.executedAnything());
    for (const auto& n : names)
        EXPECT_EQ(fs::is_symlink(r.root / "etc/rc.d" / ("S90" + n)), n != std::string(200, 'n'))
            << n;
    ASSERT_TRUE(r.run(makeUnpersistScript(r.root.string()), &error)) << error;
    EXPECT_TRUE(fs::is_symlink(r.root / "etc/rc.d" / ("S90" + std::string(200, 'n'))));
    EXPECT_FALSE(r.executedAnything());
}

// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// Persist on a router that runs OpenRC (Alpine and the like), by what it has: /run/openrc (where
// OpenRC keeps its state), the local service that runs /etc/local.d/*.start at boot (in a
// runlevel, /etc/runlevels/<level>/local, or added by persist), and the device manager that
// Alpine's setup-devd enables in the sysinit runlevel: mdev or mdevd, which read /etc/mdev.conf
// ("[-]$ENVVAR=regex user:group mode [@|$|*command]", "-" reads on, "@" runs on add, "#" starts
// a comment), or udev with /etc/udev/rules.d. Unpersist gives every file back as it was.
#include "core/layout/fleet.h"
#include "core/layout/persist.h"
#include "core/layout/planner.h"
#include "core/model/snapshot.h"
#include "core/model/snapshot_json.h"
#include "tests/unit/layout/router_copy.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>

using namespace coresteer;
using namespace coresteer::test;
namespace fs = std::filesystem;

namespace {

// Alpine's own rules, abridged: a few devices and the owner's line for a USB modem.
constexpr const char* kMdevConf = "# /etc/mdev.conf\n"
                                  "$MODALIAS=.*\troot:root 0660 @modprobe -q -b \"$MODALIAS\"\n"
                                  "null\t\troot:root 666 @chmod 666 $MDEV\n"
                                  "zero\t\troot:root 666\n"
                                  "ttyUSB[0-9]*\troot:dialout 0660\n";

// A router that is neither OpenWrt nor systemd: OpenRC, with `mdev` (or another service) in
// the sysinit runlevel and, where `local`, the local service in the default one.
void openrc(const Router& r, const std::string& deviceManager, bool local) {
    fs::remove(r.root / "etc/openwrt_release");
    r.write("run/openrc/softlevel", "default\n");
    r.write("etc/init.d/local", "#!/sbin/openrc-run\ndescription=\"Executes user programs in "
                                "/etc/local.d\"\n");
    r.write("etc/init.d/" + deviceManager, "#!/sbin/openrc-run\n");
    fs::create_directories(r.root / "etc/runlevels/sysinit");
    fs::create_directories(r.root / "etc/runlevels/default");
    fs::create_directories(r.root / "etc/local.d");
    fs::create_symlink("/etc/init.d/" + deviceManager,
                       r.root / "etc/runlevels/sysinit" / deviceManager);
    if (local)
        fs::create_symlink("/etc/init.d/local", r.root / "etc/runlevels/default/local");
    r.write("etc/mdev.conf", kMdevConf);
}

std::optional<PersistPlan> openrcPlan(const Snapshot& snap) {
    std::string error;
    auto p = planPersist(layout::plan(snap), snap, {}, &error);
    EXPECT_TRUE(p) << error;
    return p;
}

bool hasAction(const PersistPlan& p, const std::string& part) {
    return std::any_of(p.actions.begin(), p.actions.end(),
                       [&](const std::string& a) { return a.find(part) != std::string::npos; });
}

// The command of coresteer's rule in /etc/mdev.conf, as mdev runs it (comment dropped), with
// the fixture root in front of its script.
std::string mdevCommand(const Router& r) {
    const auto line = firstLine(r.root / "etc/mdev.conf");
    const auto at = line.find('@');
    const auto hash = line.find(" #");
    EXPECT_NE(at, std::string::npos) << line;
    auto cmd = line.substr(at + 1, hash - at - 1);
    const auto script = cmd.find("/etc/coresteer/apply.sh");
    EXPECT_NE(script, std::string::npos) << cmd;
    return cmd.substr(0, script) + r.root.string() + cmd.substr(script);
}

} // namespace

// mdev, local not yet in a runlevel: the start script, the runlevel link and the mdev rule;
// each applies the layout; unpersist gives every file back.
TEST(OpenRC, PersistsThroughLocalAndMdevAndUnpersistsByteForByte) {
    Router r("bpi-r4");
    openrc(r, "mdev", false);
    const auto before = treeOf(r.root);
    const auto snap = r.snapshot();
    const auto& v = snap.system.services;
    EXPECT_TRUE(v.openrc);
    EXPECT_FALSE(v.openrcLocal);
    EXPECT_EQ(v.deviceManager, Services::DeviceManager::Mdev);
    EXPECT_EQ(toJson(snap)["services"]["openrc"]["device_manager"], "mdev");
    const auto plan = openrcPlan(snap);
    ASSERT_TRUE(plan);
    EXPECT_EQ(plan->flavor, PersistPlan::Flavor::OpenRC);
    EXPECT_TRUE(plan->mdevLine);
    EXPECT_TRUE(plan->sysupgradeLines.empty());
    EXPECT_TRUE(hasAction(*plan, "Adds OpenRC's local service to the default runlevel"));
    EXPECT_TRUE(hasAction(*plan, "/etc/mdev.conf"));
    const auto wanted = pending(plan->layout, r);
    ASSERT_GT(wanted, 0u);

    std::string error;
    const auto rep = r.run(makePersistScript(*plan, r.root.string()), &error);
    ASSERT_TRUE(rep) << error;
    EXPECT_EQ(fs::status(r.root / "etc/local.d/coresteer.start").permissions() &
                  fs::perms::owner_exec,
              fs::perms::owner_exec);
    ASSERT_TRUE(fs::is_symlink(r.root / "etc/runlevels/default/local"));
    EXPECT_EQ(fs::read_symlink(r.root / "etc/runlevels/default/local"), "/etc/init.d/local");
    const auto conf = slurp(r.root / "etc/mdev.conf");
    EXPECT_EQ(conf.substr(conf.find('\n') + 1), kMdevConf); // the owner's rules follow, as were
    EXPECT_EQ(firstLine(r.root / "etc/mdev.conf")
                  .rfind("-$SUBSYSTEM=net 0:0 600 @/bin/sh /etc/coresteer/apply.sh # ", 0),
              0u)
        << conf;
    // Read back: the runlevel link is coresteer's, so a persist made now keeps it, and the
    // same persist again changes nothing.
    const auto after = r.snapshot();
    EXPECT_FALSE(after.system.services.openrcLocal);
    const auto again = openrcPlan(after);
    ASSERT_TRUE(again);
    EXPECT_TRUE(hasAction(*again, "Adds OpenRC's local service to the default runlevel"));
    const auto same = r.run(makePersistScript(*again, r.root.string(), true), &error);
    ASSERT_TRUE(same) << error;
    EXPECT_TRUE(same->unchanged);

    // An interface appears: mdev runs the rule's command with the kernel's event.
    ASSERT_EQ(r.ash("-c " + Router::ssh_quote(mdevCommand(r)),
                    "ACTION=add INTERFACE=eth0 SUBSYSTEM=net CORESTEER_ROOT=" +
                        Router::ssh_quote(r.root.string()) + " CORESTEER_WAIT=0"),
              0)
        << r.err();
    EXPECT_EQ(pending(plan->layout, r), 0u);
    EXPECT_FALSE(r.executedAnything());

    ASSERT_TRUE(r.run(makeUnpersistScript(r.root.string()), &error)) << error;
    const auto now = treeOf(r.root);
    for (const auto& [path, content] : before) {
        const auto it = now.find(path);
        if (path.rfind("proc", 0) == 0 || path.rfind("sys", 0) == 0)
            continue; // the values the layout wrote
        EXPECT_TRUE(it != now.end() && it->second == content) << "changed or gone: " << path;
    }
    for (const auto& [path, content] : now)
        EXPECT_EQ(before.count(path), 1u) << "left behind: " << path;
}

// At boot: OpenRC's local service runs /etc/local.d/coresteer.start, which applies the layout to
// every interface.
TEST(OpenRC, TheStartScriptAppliesTheLayoutAtBoot) {
    Router r("bpi-r4");
    openrc(r, "mdevd", true);
    const auto snap = r.snapshot();
    EXPECT_TRUE(snap.system.services.openrcLocal);
    const auto plan = openrcPlan(snap);
    ASSERT_TRUE(plan);
    EXPECT_FALSE(hasAction(*plan, "Adds OpenRC's local service"));
    std::string error;
    ASSERT_TRUE(r.run(makePersistScript(*plan, r.root.string()), &error)) << error;
    EXPECT_GT(pending(plan->layout, r), 0u);
    ASSERT_EQ(r.ash(Router::ssh_quote((r.root / "etc/local.d/coresteer.start").string()),
                    "CORESTEER_ROOT=" + Router::ssh_quote(r.root.string()) + " CORESTEER_WAIT=0"),
              0)
        << r.err();
    EXPECT_EQ(pending(plan->layout, r), 0u);
    // The owner's local link stays the owner's.
    ASSERT_TRUE(r.run(makeUnpersistScript(r.root.string()), &error)) << error;
    EXPECT_TRUE(fs::is_symlink(r.root / "etc/runlevels/default/local"));
    EXPECT_FALSE(fs::exists(r.root / "etc/local.d/coresteer.start"));
    EXPECT_EQ(slurp(r.root / "etc/mdev.conf"), kMdevConf);
}

// udev (eudev) in the sysinit runlevel: a rule that runs the script; no device manager at all:
// the layout applies at boot, and the plan says what that leaves out.
TEST(OpenRC, UdevGetsARuleAndNoDeviceManagerIsSaid) {
    Router r("bpi-r4");
    openrc(r, "udev", true);
    auto plan = openrcPlan(r.snapshot());
    ASSERT_TRUE(plan);
    EXPECT_FALSE(plan->mdevLine);
    const auto rule = std::find_if(plan->files.begin(), plan->files.end(), [](const auto& f) {
        return f.path == "etc/udev/rules.d/90-coresteer.rules";
    });
    ASSERT_NE(rule, plan->files.end());
    EXPECT_NE(rule->content.find("ACTION==\"add\", SUBSYSTEM==\"net\", KERNEL==\""),
              std::string::npos);
    EXPECT_NE(rule->content.find("RUN+=\"/bin/sh /etc/coresteer/apply.sh\""), std::string::npos);
    EXPECT_EQ(rule->content.find("SYSTEMD_WANTS"), std::string::npos);

    fs::remove(r.root / "etc/runlevels/sysinit/udev");
    plan = openrcPlan(r.snapshot());
    ASSERT_TRUE(plan);
    EXPECT_TRUE(hasAction(*plan, "Found no mdev, mdevd or udev in a runlevel"));
    EXPECT_FALSE(plan->mdevLine);
}

// /etc/mdev.conf as a link (a hostile or odd router): never written through.
TEST(OpenRC, AnMdevConfThatIsALinkIsLeftAlone) {
    Router r("bpi-r4");
    openrc(r, "mdev", true);
    const auto outside = r.root.parent_path() / "elsewhere.conf";
    r.write("../elsewhere.conf", "precious\n");
    fs::remove(r.root / "etc/mdev.conf");
    fs::create_symlink(outside, r.root / "etc/mdev.conf");
    const auto plan = openrcPlan(r.snapshot());
    ASSERT_TRUE(plan);
    std::string error;
    const auto rep = r.run(makePersistScript(*plan, r.root.string()), &error);
    ASSERT_TRUE(rep) << error;
    EXPECT_EQ(slurp(outside), "precious\n");
    EXPECT_TRUE(fs::is_symlink(r.root / "etc/mdev.conf"));
    EXPECT_TRUE(std::any_of(rep->messages.begin(), rep->messages.end(), [](const auto& m) {
        return m == "/etc/mdev.conf is a link or not a plain file: left as it is";
    }));
    ASSERT_TRUE(r.run(makeUnpersistScript(r.root.string()), &error)) << error;
    EXPECT_EQ(slurp(outside), "precious\n");
}

// `export ansible` persists to OpenRC routers too: its persist script finds what the snapshot
// would (the owner's local service or none; mdev with a plain mdev.conf, udev, or neither) and
// installs the same files `coresteer-cli persist` would; a second run changes nothing, and
// unpersist gives the router back.
TEST(OpenRC, ThePlaybookPersistsByWhatTheRouterHas) {
    struct Case {
        std::string manager;
        bool local;
        bool linkedConf; // mdev.conf a link: no rules file to add to
    };
    for (const auto& c : {Case{"mdev", false, false}, Case{"mdevd", true, false},
                          Case{"udev", false, false}, Case{"mdev", true, true}}) {
        SCOPED_TRACE(c.manager + (c.local ? " local" : "") + (c.linkedConf ? " linked" : ""));
        Router r("bpi-r4",
                 "-fleet-" + c.manager + (c.local ? "-l" : "") + (c.linkedConf ? "-k" : ""));
        openrc(r, c.manager, c.local);
        fs::create_directories(r.root / "etc/udev/rules.d"); // udev's own, where it runs
        if (c.linkedConf) {
            fs::rename(r.root / "etc/mdev.conf", r.root / "etc/mdev.conf.real");
            fs::create_symlink("mdev.conf.real", r.root / "etc/mdev.conf");
        }
        const auto before = treeOf(r.root);
        const auto snap = r.snapshot();
        Preset preset;
        preset.name = "openrc";
        preset.board = snap.system.boardName;
        preset.layout = layout::plan(snap);
        std::string error;
        const auto f = makeFleetScripts(preset, {}, &error);
        ASSERT_TRUE(f) << error;
        std::string out;
        ASSERT_EQ(r.fleet(f->persist, "", &out), 0) << r.err();
        EXPECT_NE(out.find("coresteer: wrote /etc/coresteer/apply.sh\n"), std::string::npos) << out;
        EXPECT_NE(out.find("coresteer: changed\n"), std::string::npos) << out;
        EXPECT_TRUE(fs::exists(r.root / "etc/local.d/coresteer.start"));
        EXPECT_EQ(fs::is_symlink(r.root / "etc/runlevels/default/local"), true);
        EXPECT_EQ(fs::exists(r.root / "etc/coresteer/openrc-local"), !c.local);
        // A rule line only in a plain mdev.conf (a link is never written through).
        const bool mdevRule = c.manager != "udev" && !c.linkedConf;
        EXPECT_EQ(firstLine(r.root / "etc/mdev.conf").find("@/bin/sh /etc/coresteer/apply.sh") !=
                      std::string::npos,
                  mdevRule);
        EXPECT_EQ(fs::exists(r.root / "etc/udev/rules.d/90-coresteer.rules"), c.manager == "udev");
        if (c.linkedConf) {
            EXPECT_TRUE(fs::is_symlink(r.root / "etc/mdev.conf"));
            EXPECT_EQ(slurp(r.root / "etc/mdev.conf.real"), kMdevConf);
        }
        // Once more: nothing to do.
        const auto persisted = treeOf(r.root);
        ASSERT_EQ(r.fleet(f->persist, "", &out), 0) << r.err();
        EXPECT_EQ(out, "coresteer: unchanged\n");
        EXPECT_EQ(treeOf(r.root), persisted);
        // The start script brings the layout at boot.
        ASSERT_EQ(
            r.ash(Router::ssh_quote((r.root / "etc/local.d/coresteer.start").string()),
                  "CORESTEER_ROOT=" + Router::ssh_quote(r.root.string()) + " CORESTEER_WAIT=0"),
            0)
            << r.err();
        EXPECT_FALSE(r.executedAnything());
        ASSERT_TRUE(r.run(makeUnpersistScript(r.root.string()), &error)) << error;
        const auto now = treeOf(r.root);
        for (const auto& [path, content] : before) {
            if (path.rfind("proc", 0) == 0 || path.rfind("sys", 0) == 0)
                continue;
            const auto it = now.find(path);
            EXPECT_TRUE(it != now.end() && it->second == content) << "changed or gone: " << path;
        }
        for (const auto& [path, content] : now)
            EXPECT_EQ(before.count(path), 1u) << "left behind: " << path;
    }
}

// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// Living with the firmware: its own packet steering (the platform script persist installs runs
// the firmware's steering first and the layout after it, on copies of the board fixtures under
// BusyBox ash) and flow offloading. The firmware's files in these roots are written from what
// OpenWrt's sources say of them (which file runs which, with what arguments, and what each writes);
// packet-steering.uc is ucode, which is not here, so a shell script of the same name and arguments
// stands for it.
#include "core/layout/persist.h"
#include "core/layout/planner.h"
#include "core/model/conflicts.h"
#include "core/model/snapshot.h"
#include "tests/unit/layout/router_copy.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

using namespace coresteer;
using namespace coresteer::test;

namespace {

constexpr const char* kOverride = "usr/libexec/platform/packet-steering.sh";

// OpenWrt's packet steering as 24.10 and later ship it: the init script (it runs the platform
// script when there is one, else packet-steering.uc), the option, and packet-steering.uc's
// stand-in, which notes its arguments and spreads RPS over every CPU ("ff" on 8 CPUs).
void openwrtSteering(const Router& r, bool uc) {
    r.write("etc/init.d/packet_steering", "#!/bin/sh /etc/rc.common\nSTART=25\nUSE_PROCD=1\n");
    r.write("etc/config/network", "config globals 'globals'\n\toption packet_steering '1'\n");
    if (uc)
        r.write("usr/libexec/network/packet-steering.uc",
                "#!/bin/sh\necho \"$*\" >> \"$CORESTEER_ROOT/tmp/uc-args\"\n"
                "for q in \"$CORESTEER_ROOT\"/sys/class/net/*/queues/rx-*/rps_cpus; do\n"
                "\techo ff > \"$q\"\ndone\n");
    else // 23.05: the shell script, which calls the platform script and ends
        r.write("usr/libexec/network/packet-steering.sh", "#!/bin/sh\nexit 0\n");
    if (uc)
        std::filesystem::permissions(r.root / "usr/libexec/network/packet-steering.uc",
                                     std::filesystem::perms::owner_all);
    std::filesystem::create_directories(r.root / "tmp");
}

// Every rps_cpus and xps_cpus of the root set to 0, as a board with no steering at all.
void clearSteering(const Router& r) {
    for (const auto& dev : std::filesystem::directory_iterator(r.root / "sys/class/net")) {
        if (!std::filesystem::exists(dev.path() / "queues"))
            continue;
        for (const auto& q : std::filesystem::directory_iterator(dev.path() / "queues"))
            for (const char* f : {"rps_cpus", "xps_cpus"})
                if (std::filesystem::exists(q.path() / f))
                    std::ofstream(q.path() / f, std::ios::trunc) << "0\n";
    }
}

// The board's layout cut down to what it says of eth0 (queues and IRQs), so that eth1 and eth2
// are devices the layout does not name.
Layout eth0Only(const Snapshot& snap) {
    Layout all = ::coresteer::layout::plan(snap);
    Layout l;
    for (const auto& t : all.rx)
        if (t.interface == "eth0")
            l.rx.push_back(t);
    for (const auto& t : all.tx)
        if (t.interface == "eth0")
            l.tx.push_back(t);
    return l;
}

std::string queueFile(const Router& r, const char* dev, const char* queue, const char* file) {
    return firstLine(r.root / "sys/class/net" / dev / "queues" / queue / file);
}

// Persists `layout`, then runs the installed platform script as the service would, with `args`.
void persistAndSteer(Router& r, const Layout& layout, const std::string& args) {
    const auto snap = r.snapshot();
    std::string error;
    const auto plan = planPersist(layout, snap, {}, &error);
    ASSERT_TRUE(plan) << error;
    ASSERT_TRUE(r.run(makePersistScript(*plan, r.root.string()), &error)) << error;
    ASSERT_TRUE(std::filesystem::exists(r.root / kOverride));
    clearSteering(r);
    ASSERT_EQ(r.ash("'" + (r.root / kOverride).string() + "' " + args,
                    "CORESTEER_ROOT='" + r.root.string() + "' CORESTEER_WAIT=0"),
              0)
        << r.err();
}

} // namespace

// 24.10 and later: the service runs the platform script with the packet_steering value; the
// script runs packet-steering.uc with it first (every device gets the firmware's RPS), then the
// layout (eth0 gets its own masks back).
TEST(Steering, FirmwareSteeringFirstThenTheLayout) {
    Router r("nanopi-r6s-openwrt");
    openwrtSteering(r, true);
    const auto snap = r.snapshot();
    const auto layout = eth0Only(snap);
    ASSERT_FALSE(layout.rx.empty());
    persistAndSteer(r, layout, "1");
    EXPECT_EQ(firstLine(r.root / "tmp/uc-args"), "1");
    // Devices the layout does not name keep what the firmware's steering gave them.
    EXPECT_EQ(queueFile(r, "eth1", "rx-0", "rps_cpus"), "ff");
    EXPECT_EQ(queueFile(r, "eth2", "rx-0", "rps_cpus"), "ff");
    // The layout's own, for the queues it names.
    EXPECT_EQ(pending(layout, r), 0u);
    // packet_steering 0 goes to the firmware as it is (from 24.10 it then clears RPS itself).
    persistAndSteer(r, layout, "0");
    EXPECT_EQ(slurp(r.root / "tmp/uc-args"), "1\n0\n");
    // steering_flows goes with it as the service gives it to packet-steering.uc: -l N.
    r.write("etc/config/network", "config globals 'globals'\n\toption packet_steering '1'\n"
                                  "\toption steering_flows '128'\n");
    persistAndSteer(r, layout, "1");
    EXPECT_EQ(slurp(r.root / "tmp/uc-args"), "1\n0\n-l 128 1\n");
}

// 23.05: packet-steering.sh runs the platform script without arguments and then ends, so the
// platform script does what 23.05 does itself: every queue of every hardware device spread over
// all CPUs (XPS too), then the layout.
TEST(Steering, Openwrt2305SteeringWhenThePlatformScriptIsCalledWithoutArguments) {
    Router r("nanopi-r6s-openwrt");
    openwrtSteering(r, false);
    for (const char* dev : {"eth1", "eth2"}) // as a kernel with XPS on single-queue NICs has
        r.write(std::string("sys/class/net/") + dev + "/queues/tx-0/xps_cpus", "0\n");
    const auto layout = eth0Only(r.snapshot());
    persistAndSteer(r, layout, "");
    for (const char* dev : {"eth1", "eth2"}) {
        EXPECT_EQ(queueFile(r, dev, "rx-0", "rps_cpus"), "ff") << dev;
        EXPECT_EQ(queueFile(r, dev, "tx-0", "xps_cpus"), "ff") << dev;
    }
    EXPECT_EQ(pending(layout, r), 0u);
    // With packet_steering 0, given or configured, 23.05 steers nothing.
    persistAndSteer(r, layout, "0");
    EXPECT_EQ(queueFile(r, "eth1", "rx-0", "rps_cpus"), "0");
    r.write("etc/config/network", "config globals 'globals'\n\toption packet_steering '0'\n");
    persistAndSteer(r, layout, "");
    EXPECT_EQ(queueFile(r, "eth1", "rx-0", "rps_cpus"), "0");
    EXPECT_EQ(pending(layout, r), 0u); // the layout all the same
}

// The firmware's steering may run the platform script again (23.05's packet-steering.sh calls
// it): the second run ends at once instead of going round.
TEST(Steering, APlatformScriptCalledFromTheFirmwareRunsOnce) {
    Router r("nanopi-r6s-openwrt");
    openwrtSteering(r, true);
    r.write("usr/libexec/network/packet-steering.uc",
            "#!/bin/sh\necho run >> \"$CORESTEER_ROOT/tmp/uc-args\"\n"
            "exec \"$CORESTEER_ROOT/usr/libexec/platform/packet-steering.sh\" 1\n");
    std::filesystem::permissions(r.root / "usr/libexec/network/packet-steering.uc",
                                 std::filesystem::perms::owner_all);
    persistAndSteer(r, eth0Only(r.snapshot()), "1");
    EXPECT_EQ(slurp(r.root / "tmp/uc-args"), "run\n");
}

namespace {

constexpr const char* kBoardAside = "usr/libexec/platform/packet-steering.board.sh";

// A board's own platform script (a vendor's, or one a firmware image brings): it notes its
// arguments and sets eth1's RPS to `mask`.
std::string boardScript(const char* mask) {
    return std::string("#!/bin/sh\n# the board vendor's tuning\necho \"$*\" >> "
                       "\"$CORESTEER_ROOT/tmp/board-args\"\necho ") +
           mask + " > \"$CORESTEER_ROOT/sys/class/net/eth1/queues/rx-0/rps_cpus\"\n";
}

bool oursAt(const Router& r, const char* path) {
    return slurp(r.root / path).find(kPersistMarker) != std::string::npos;
}

} // namespace

// A board that brings its own platform script keeps it: persist moves it aside, coresteer's runs
// it first (in place of packet-steering.uc, as the service would), and unpersist puts it back.
TEST(Steering, TheBoardsOwnPlatformScriptRunsFirstAndComesBack) {
    Router r("nanopi-r6s-openwrt");
    openwrtSteering(r, true);
    const auto vendor = boardScript("3");
    r.write(kOverride, vendor);
    const auto snap = r.snapshot();
    const auto conflicts = detectConflicts(snap);
    ASSERT_EQ(conflicts.size(), 1u);
    EXPECT_EQ(conflicts[0].kind, Conflict::Kind::PacketSteeringForeign);
    const auto layout = eth0Only(snap);
    std::string error;
    const auto plan = planPersist(layout, snap, {}, &error);
    ASSERT_TRUE(plan) << error;
    bool kept = false;
    for (const auto& a : plan->actions)
        kept = kept || a.find("Keeps the board's own") != std::string::npos;
    EXPECT_TRUE(kept);
    persistAndSteer(r, layout, "1");
    EXPECT_TRUE(oursAt(r, kOverride));
    EXPECT_EQ(slurp(r.root / kBoardAside), vendor);
    EXPECT_EQ(slurp(r.root / "tmp/board-args"), "1\n");
    EXPECT_FALSE(std::filesystem::exists(r.root / "tmp/uc-args")); // the board's, not OpenWrt's
    EXPECT_EQ(queueFile(r, "eth1", "rx-0", "rps_cpus"), "3");
    EXPECT_EQ(pending(layout, r), 0u);
    // Persisting again changes nothing; unpersist gives the board its script back.
    ASSERT_TRUE(r.run(makePersistScript(*plan, r.root.string()), &error)) << error;
    EXPECT_EQ(slurp(r.root / kBoardAside), vendor);
    ASSERT_TRUE(r.run(makeUnpersistScript(r.root.string()), &error)) << error;
    EXPECT_EQ(slurp(r.root / kOverride), vendor);
    EXPECT_FALSE(std::filesystem::exists(r.root / kBoardAside));
}

// A firmware upgrade keeps /etc (95-coresteer, /etc/coresteer) and brings a new /usr: the new
// image's own board script, or none. At the first interface event 95-coresteer puts coresteer's
// platform script back, with the new image's script aside to run first, never the old one and
// never coresteer's own.
TEST(Steering, AfterAFirmwareUpgradeTheNewImagesScriptRunsFirst) {
    Router r("nanopi-r6s-openwrt");
    openwrtSteering(r, true);
    r.write(kOverride, boardScript("3"));
    const auto layout = eth0Only(r.snapshot());
    persistAndSteer(r, layout, "1");
    // The upgrade: /usr as the new image has it.
    const auto upgrade = [&](const std::string* newScript) {
        std::filesystem::remove(r.root / kBoardAside);
        std::filesystem::remove(r.root / kOverride);
        if (newScript)
            r.write(kOverride, *newScript);
        std::filesystem::remove(r.root / "tmp/board-args");
        std::filesystem::remove(r.root / "tmp/uc-args");
    };
    const auto newer = boardScript("c");
    upgrade(&newer);
    ASSERT_EQ(r.hotplug(hotplugPath(), "eth0", "add"), 0) << r.err();
    EXPECT_TRUE(oursAt(r, kOverride));
    EXPECT_EQ(slurp(r.root / kBoardAside), newer);
    // Later events leave both as they are.
    ASSERT_EQ(r.hotplug(hotplugPath(), "eth1", "add"), 0) << r.err();
    ASSERT_EQ(r.hotplug(hotplugPath(), "", "add"), 0) << r.err();
    EXPECT_TRUE(oursAt(r, kOverride));
    EXPECT_EQ(slurp(r.root / kBoardAside), newer);
    clearSteering(r);
    ASSERT_EQ(r.ash("'" + (r.root / kOverride).string() + "' 1",
                    "CORESTEER_ROOT='" + r.root.string() + "' CORESTEER_WAIT=0"),
              0)
        << r.err();
    EXPECT_EQ(slurp(r.root / "tmp/board-args"), "1\n");
    EXPECT_EQ(queueFile(r, "eth1", "rx-0", "rps_cpus"), "c");
    EXPECT_EQ(pending(layout, r), 0u);

    // An image without a board script: coresteer's comes back, and OpenWrt's steering runs.
    upgrade(nullptr);
    ASSERT_EQ(r.hotplug(hotplugPath(), "eth2", "add"), 0) << r.err();
    EXPECT_TRUE(oursAt(r, kOverride));
    EXPECT_FALSE(std::filesystem::exists(r.root / kBoardAside));
    ASSERT_EQ(r.ash("'" + (r.root / kOverride).string() + "' 1",
                    "CORESTEER_ROOT='" + r.root.string() + "' CORESTEER_WAIT=0"),
              0)
        << r.err();
    EXPECT_EQ(firstLine(r.root / "tmp/uc-args"), "1");

    // Without the steering service (packet steering removed from the image), nothing is put back.
    upgrade(nullptr);
    std::filesystem::remove(r.root / "etc/init.d/packet_steering");
    ASSERT_EQ(r.hotplug(hotplugPath(), "eth0", "add"), 0) << r.err();
    EXPECT_FALSE(std::filesystem::exists(r.root / kOverride));
}

// Flow offloading, from the firewall's defaults (OpenWrt) or an nftables flowtable that a rule
// uses: the snapshot says where, a note (not a conflict that blocks) says what it means, and the
// planner's notes say it too.
TEST(Steering, FlowOffloadingIsNamedWithItsFileAndLine) {
    Router r("nanopi-r6s-openwrt");
    auto offloading = [&] { return r.snapshot().system.services.offloading; };
    EXPECT_FALSE(offloading().software);

    r.write("etc/config/firewall", "config defaults\n\toption syn_flood '1'\n"
                                   "\toption flow_offloading '1'\n\n"
                                   "config zone\n\toption name 'lan'\n");
    auto o = offloading();
    EXPECT_TRUE(o.software);
    EXPECT_FALSE(o.hardware);
    EXPECT_EQ(o.where, "/etc/config/firewall:3");
    r.write("etc/config/firewall", "config defaults\n\toption flow_offloading '1'\n"
                                   "\toption flow_offloading_hw '1'\n");
    o = offloading();
    EXPECT_TRUE(o.hardware);
    EXPECT_EQ(o.where, "/etc/config/firewall:2");
    // Off, or hardware without software (which OpenWrt does not do): off.
    r.write("etc/config/firewall", "config defaults\n\toption flow_offloading '0'\n"
                                   "\toption flow_offloading_hw '1'\n");
    EXPECT_FALSE(offloading().software);
    EXPECT_FALSE(offloading().hardware);

    const auto snap = [&] {
        r.write("etc/config/firewall", "config defaults\n\toption flow_offloading '1'\n"
                                       "\toption flow_offloading_hw '1'\n");
        return r.snapshot();
    }();
    int notes = 0;
    for (const auto& c : detectConflicts(snap))
        if (c.kind == Conflict::Kind::FlowOffloading) {
            ++notes;
            EXPECT_FALSE(c.blocking);
            EXPECT_NE(c.title.find("Hardware flow offloading"), std::string::npos);
            EXPECT_NE(c.title.find("/etc/config/firewall:2"), std::string::npos);
            EXPECT_NE(c.detail.find("SQM"), std::string::npos);
        }
    EXPECT_EQ(notes, 1);
    bool planned = false;
    for (const auto& n : ::coresteer::layout::plan(snap).notes)
        planned = planned || n.find("Hardware flow offloading is on") != std::string::npos;
    EXPECT_TRUE(planned);
}

TEST(Steering, NftablesFlowtablesCountWhenARuleUsesThem) {
    Router r("nanopi-r6s-openwrt");
    std::filesystem::remove(r.root / "etc/config/firewall");
    const std::string table = "#!/usr/sbin/nft -f\n"
                              "table inet filter {\n"
                              "  flowtable ft {\n"
                              "    hook ingress priority 0; devices = { eth0, eth1 };\n"
                              "    # flags offload;\n"
                              "  }\n";
    r.write("etc/nftables.conf", table + "}\n");
    EXPECT_FALSE(r.snapshot().system.services.offloading.software); // defined, never used
    r.write("etc/nftables.conf", table +
                                     "  chain forward {\n    type filter hook forward priority 0;\n"
                                     "    ip protocol { tcp, udp } flow add @ft\n  }\n}\n");
    auto o = r.snapshot().system.services.offloading;
    EXPECT_TRUE(o.software);
    EXPECT_FALSE(o.hardware); // its flags line is a comment
    EXPECT_EQ(o.where, "/etc/nftables.conf:3");
    r.write("etc/nftables.conf", "table inet filter {\n  flowtable ft {\n"
                                 "    hook ingress priority 0; devices = { eth0 };\n"
                                 "    flags offload;\n  }\n"
                                 "  chain forward { type filter hook forward priority 0; "
                                 "flow offload @ft; }\n}\n");
    o = r.snapshot().system.services.offloading;
    EXPECT_TRUE(o.software);
    EXPECT_TRUE(o.hardware);
    EXPECT_EQ(o.where, "/etc/nftables.conf:2");
}

// The CLI's persist takes a board's own platform script as handled (kept, run first): it is no
// conflict left in place, so persist exits 0, and the board's script is kept aside.
TEST(Steering, CliPersistKeepsTheBoardsScriptAndExitsZero) {
    Router r("nanopi-r6s-openwrt");
    openwrtSteering(r, true);
    const auto vendor = boardScript("3");
    r.write(kOverride, vendor);
    std::ofstream(r.root.parent_path() / "layout.json") << toJson(eth0Only(r.snapshot())).dump(2);
    const auto cli = [&](const std::string& args) {
        return r.ash("-c " + Router::ssh_quote(std::string(CORESTEER_CLI) + " " + args), "");
    };
    EXPECT_EQ(cli("persist --root '" + r.root.string() + "' '" +
                  (r.root.parent_path() / "layout.json").string() + "'"),
              0)
        << r.err();
    EXPECT_TRUE(oursAt(r, kOverride));
    EXPECT_EQ(slurp(r.root / kBoardAside), vendor);
    EXPECT_EQ(cli("unpersist --root '" + r.root.string() + "'"), 0) << r.err();
    EXPECT_EQ(slurp(r.root / kOverride), vendor);
}

// The firmware's options are the router's data: hostile values of packet_steering and
// steering_flows (quotes, $(...), backquotes, a line break, U+2028, invalid UTF-8, a long value)
// reach the firmware's steering as one argument each and never run.
TEST(Steering, HostileSteeringOptionsAreData) {
    Router r("nanopi-r6s-openwrt");
    openwrtSteering(r, true);
    const auto layout = eth0Only(r.snapshot());
    const std::string hostile = "1$(touch_me)`id`;reboot\xe2\x80\xa8\xff" + std::string(300, 'q');
    r.write("etc/config/network", "config globals 'globals'\n\toption packet_steering '" + hostile +
                                      "'\n\toption steering_flows '$(touch_me) 9'\n");
    persistAndSteer(r, layout, "");
    EXPECT_FALSE(r.executedAnything());
    // The value as the option holds it, one argument; no -l for a value that is no number.
    EXPECT_EQ(firstLine(r.root / "tmp/uc-args"), hostile);
    EXPECT_EQ(pending(layout, r), 0u);
    // Given by the service as an argument, the same.
    persistAndSteer(r, layout, "'$(touch_me)'");
    EXPECT_FALSE(r.executedAnything());
}

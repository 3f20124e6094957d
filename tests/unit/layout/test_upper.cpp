// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// Upper devices: a PPPoE WAN (pppoe-wan over eth1) on a copy of the NanoPi R6S under OpenWrt:
// the snapshot names the device its session runs over, the planner steers its second pass, and
// persist applies the layout at its ifup, when pppd has made and renamed it.
#include "core/base/json_text.h"
#include "core/model/snapshot_json.h"
#include "core/model/snapshot_text.h"
#include "tests/unit/layout/router_copy.h"

#include <gtest/gtest.h>

using namespace coresteer;
using namespace coresteer::test;

namespace {

// The kernel's view of a PPPoE session: the ppp device pppd made (type 512, one queue each
// way, RPS off), and its line in /proc/net/pppoe.
void addPppoeWan(const Router& r, const std::string& sessions = "00000A1B 00:11:22:33:44:55     "
                                                                "eth1\n") {
    const std::string d = "sys/class/net/pppoe-wan/";
    r.write(d + "type", "512\n");
    r.write(d + "ifindex", "21\n");
    r.write(d + "iflink", "21\n");
    r.write(d + "mtu", "1492\n");
    r.write(d + "operstate", "unknown\n");
    r.write(d + "queues/rx-0/rps_cpus", "00\n");
    r.write(d + "queues/rx-0/rps_flow_cnt", "0\n");
    r.write(d + "queues/tx-0/xps_cpus", "00\n");
    r.write("proc/net/pppoe", "Id       Address              Device\n" + sessions);
}

const RxQueueTarget* rxOf(const Layout& l, const std::string& name) {
    for (const auto& t : l.rx)
        if (t.interface == name)
            return &t;
    return nullptr;
}

} // namespace

TEST(UpperDevices, APppoeWanIsShownOverTheDeviceItsSessionRunsOver) {
    Router r("nanopi-r6s-openwrt");
    addPppoeWan(r);
    auto snap = r.snapshot();
    const auto* ppp = snap.interface("pppoe-wan");
    ASSERT_NE(ppp, nullptr);
    EXPECT_TRUE(ppp->isPpp());
    EXPECT_EQ(ppp->conduit, "eth1");
    EXPECT_FALSE(snap.interface("eth1")->isPpp());
    EXPECT_EQ(warnings(snap), "");
    const auto json = toJson(snap);
    for (const auto& i : json["interfaces"])
        if (i["name"] == "pppoe-wan") {
            EXPECT_EQ(i["type"], 512);
            EXPECT_EQ(i["conduit"], "eth1");
        }
    EXPECT_NE(toText(snap).find("  pppoe-wan  via eth1"), std::string::npos) << toText(snap);

    // Sessions over two devices: which ppp unit is which, the kernel does not say.
    addPppoeWan(r, "00000A1B 00:11:22:33:44:55     eth1\n00000A1C 00:11:22:33:44:56     eth2\n");
    EXPECT_EQ(r.snapshot().interface("pppoe-wan")->conduit, "");
    // What the router says is data: a line that is no session, a device that is not here.
    addPppoeWan(r, "garbage $(touch_me)\n00000A1B 00:11:22:33:44:55 nosuch0\n"
                   "00000A1C 00:11:22:33:44:56     eth1\n");
    snap = r.snapshot();
    EXPECT_EQ(snap.interface("pppoe-wan")->conduit, "eth1");
    EXPECT_NE(warnings(snap).find("proc/net/pppoe:2: warning: not a session line ('garbage "
                                  "$(touch_me)')"),
              std::string::npos)
        << warnings(snap);
    EXPECT_NE(warnings(snap).find("proc/net/pppoe:3: warning: a session over 'nosuch0', which is "
                                  "no interface here"),
              std::string::npos)
        << warnings(snap);
    EXPECT_FALSE(r.executedAnything());
}

// pppoe-wan's own RPS follows eth1's (the planner gives eth1 RPS on CPU4, docs/apply.md), with
// the reason; without a known device under it, every online CPU.
TEST(UpperDevices, ThePlannerSteersThePppoeWansSecondPass) {
    Router r("nanopi-r6s-openwrt");
    addPppoeWan(r);
    const auto l = plan(r.snapshot());
    const auto* eth1 = rxOf(l, "eth1");
    const auto* ppp = rxOf(l, "pppoe-wan");
    ASSERT_NE(eth1, nullptr);
    ASSERT_NE(ppp, nullptr);
    ASSERT_TRUE(eth1->rpsCpus && ppp->rpsCpus);
    EXPECT_EQ(ppp->rpsCpus->toList(), eth1->rpsCpus->toList());
    EXPECT_EQ(ppp->queue, 0);
    EXPECT_NE(ppp->why.find("pppoe-wan's packets come back to the kernel decapsulated "
                            "(ppp_generic's netif_rx)"),
              std::string::npos)
        << ppp->why;
    EXPECT_NE(ppp->why.find("over the CPUs that take eth1's packet work (" +
                            eth1->rpsCpus->toList() + ")"),
              std::string::npos)
        << ppp->why;
    // The write resolves like any queue's.
    const auto res = resolve(l, r.snapshot());
    EXPECT_TRUE(std::any_of(res.writes.begin(), res.writes.end(), [](const Write& w) {
        return w.path == "sys/class/net/pppoe-wan/queues/rx-0/rps_cpus";
    }));

    // A session over a VLAN (eth1.7, as many ISPs tag their PPPoE): the VLAN is untagged in
    // eth1's pass and has no RPS of its own here, so pppoe-wan follows eth1's.
    const std::string v = "sys/class/net/eth1.7/";
    r.write(v + "type", "1\n");
    r.write(v + "ifindex", "30\n");
    r.write(v + "iflink", slurp(r.root / "sys/class/net/eth1/ifindex"));
    r.write(v + "operstate", "up\n");
    r.write(v + "queues/rx-0/rps_cpus", "00\n");
    r.write(v + "queues/tx-0/xps_cpus", "00\n");
    addPppoeWan(r, "00000A1B 00:11:22:33:44:55   eth1.7\n");
    const auto overVlan = plan(r.snapshot());
    EXPECT_EQ(r.snapshot().interface("pppoe-wan")->conduit, "eth1.7");
    EXPECT_EQ(r.snapshot().interface("eth1.7")->conduit, "eth1");
    const auto* viaVlan = rxOf(overVlan, "pppoe-wan");
    ASSERT_NE(viaVlan, nullptr);
    ASSERT_TRUE(viaVlan->rpsCpus);
    EXPECT_EQ(viaVlan->rpsCpus->toList(), rxOf(overVlan, "eth1")->rpsCpus->toList());
    EXPECT_NE(viaVlan->why.find("over the CPUs that take eth1's packet work (" +
                                rxOf(overVlan, "eth1")->rpsCpus->toList() +
                                "), the device under eth1.7, instead of the one CPU that took "
                                "each packet from eth1.7."),
              std::string::npos)
        << viaVlan->why;

    std::filesystem::remove(r.root / "proc/net/pppoe");
    const auto withoutSession = plan(r.snapshot());
    const auto* unknown = rxOf(withoutSession, "pppoe-wan");
    ASSERT_NE(unknown, nullptr);
    EXPECT_EQ(unknown->rpsCpus->toList(), "0-7");
    EXPECT_NE(unknown->why.find("this layout gives the device its session runs over no RPS"),
              std::string::npos)
        << unknown->why;
}

// Persist installs /etc/hotplug.d/iface/95-coresteer beside the net script: pppoe-wan, gone
// while the link was down and made again by pppd, gets its RPS at netifd's ifup event (and
// at no other event); unpersist takes the shim away with the rest.
TEST(UpperDevices, PersistAppliesTheLayoutWhenThePppoeWanComesUp) {
    Router r("nanopi-r6s-openwrt");
    addPppoeWan(r);
    ASSERT_TRUE(readyForPersist(r));
    // As OpenWrt has them (netifd's own hotplug.d/iface/00-netstate among them).
    r.write("etc/hotplug.d/iface/00-netstate", "[ ifup = \"$ACTION\" ] || exit 0\n");
    fs::create_directories(r.root / "etc/hotplug.d/net");
    const auto before = treeOf(r.root);
    const auto snap = r.snapshot();
    std::string error;
    const auto p = planPersist(plan(snap), snap, {}, &error);
    ASSERT_TRUE(p) << error;
    const std::string shim = "etc/hotplug.d/iface/95-coresteer";
    ASSERT_TRUE(r.run(makePersistScript(*p, r.root.string()), &error)) << error << r.err();
    ASSERT_TRUE(fs::exists(r.root / shim));
    EXPECT_NE(slurp(r.root / shim).find(kPersistMarker), std::string::npos);
    EXPECT_EQ(slurp(r.root / "etc/sysupgrade.conf"), std::string(kSysupgradeConf) + "/" +
                                                         hotplugPath() + "\n/" + shim +
                                                         "\n/etc/coresteer/\n");
    const std::string rps = "sys/class/net/pppoe-wan/queues/rx-0/rps_cpus";
    // The link goes down and comes back: pppd makes ppp0 and renames it.
    fs::remove_all(r.root / "sys/class/net/pppoe-wan");
    addPppoeWan(r);
    const std::string env = "CORESTEER_ROOT='" + r.root.string() + "' CORESTEER_WAIT=0 ";
    const std::string run = "'" + (r.root / shim).string() + "'";
    EXPECT_EQ(r.ash(run, env + "ACTION=ifdown INTERFACE=wan DEVICE=pppoe-wan"), 0) << r.err();
    EXPECT_EQ(r.ash(run, env + "ACTION=ifup INTERFACE=wan DEVICE='$(touch_me)'"), 0) << r.err();
    EXPECT_EQ(firstLine(r.root / rps), "00");
    EXPECT_EQ(r.ash(run, env + "ACTION=ifup INTERFACE=wan DEVICE=pppoe-wan"), 0) << r.err();
    EXPECT_EQ(firstLine(r.root / rps), rxOf(p->layout, "pppoe-wan")->rpsCpus->toHex(8));
    EXPECT_FALSE(r.executedAnything());

    ASSERT_TRUE(r.run(makeUnpersistScript(r.root.string()), &error)) << error << r.err();
    EXPECT_FALSE(fs::exists(r.root / shim));
    // /etc as it was; what changed is running values (the ifup applied the whole layout).
    auto after = treeOf(r.root);
    std::string changed;
    for (const auto& [path, content] : after)
        if ((!before.count(path) || before.at(path) != content) && path.rfind("etc", 0) == 0)
            changed += path + "\n";
    for (const auto& [path, content] : before)
        if (!after.count(path))
            changed += "gone: " + path + "\n";
    EXPECT_EQ(changed, "");
    EXPECT_NE(after.at(rps), before.at(rps));
}

// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The emulated router: snapshot, apply and its revert timer, kernel refusals, persist across a
// reboot.
#include "tests/router-vm/vm_fixture.h"

using namespace coresteer;
using namespace coresteer::layout;
using namespace coresteer::test;

// 1. The snapshot over dropbear: 4 CPUs, eth1 and eth2 with their per-queue IRQs, attributed
// to the right interface, and their queues.
TEST_F(Vm, SnapshotShowsCpusNicsQueuesAndTheirIrqs) {
    int rc = -1;
    const auto out = cli("snapshot --json", &rc);
    ASSERT_LE(rc, 1) << cliErr();
    const auto j = nlohmann::json::parse(out);
    EXPECT_EQ(j["topology"]["cpus"].size(), 4u);
    const int queues = std::stoi(g_env.at("CS_VM_QUEUES"));
    for (const std::string name : {"eth1", "eth2"}) {
        SCOPED_TRACE(name);
        const auto virtio = virtioOf("/sys/class/net/" + name + "/device");
        ASSERT_EQ(virtio.rfind("virtio", 0), 0u) << virtio;
        const nlohmann::json* nif = nullptr;
        for (const auto& i : j["interfaces"])
            if (i["name"] == name)
                nif = &i;
        ASSERT_NE(nif, nullptr);
        EXPECT_EQ((*nif)["rx_queues"].size(), static_cast<std::size_t>(queues));
        EXPECT_EQ((*nif)["tx_queues"].size(), static_cast<std::size_t>(queues));
        // Every input.K and output.K IRQ of this device, and no other, belongs to it.
        std::set<std::string> expected, found;
        for (int k = 0; k < queues; ++k) {
            expected.insert(virtio + "-input." + std::to_string(k));
            expected.insert(virtio + "-output." + std::to_string(k));
        }
        for (const auto& irq : j["irqs"]) {
            const auto ifs = irq["interfaces"];
            if (std::find(ifs.begin(), ifs.end(), name) != ifs.end())
                found.insert(irq["actions"][0].get<std::string>());
        }
        for (const auto& e : expected)
            EXPECT_TRUE(found.count(e)) << e;
        for (const auto& f : found)
            EXPECT_TRUE(f == virtio + "-config" || expected.count(f)) << f;
    }
}

// 2. A runtime apply reads back in the guest's /proc and sysfs.
TEST_F(Vm, ApplyReadsBackInTheGuest) {
    const auto snap = routerSnapshot();
    const auto l = testLayout(snap);
    ASSERT_GE(l.irqs.size(), 4u);
    int rc = -1;
    const auto out = cli("apply " + quote(writeLayout(l).string()) + " --json", &rc);
    EXPECT_EQ(rc, 0) << out << cliErr();
    const auto j = nlohmann::json::parse(out);
    EXPECT_TRUE(j["confirmed"].get<bool>());
    // x86 MSI moves an IRQ at its next interrupt: until then its effective CPU is the old one.
    for (const auto& r : j["results"])
        EXPECT_TRUE(r["status"] == "applied" ||
                    r["status"] == "applied, moves at the next interrupt")
            << r.dump();
    expectGuestHas(l, snap);
    restoreBaseline();
}

// 3. What the kernel refuses is reported per target; the rest applies; revert restores all.
TEST_F(Vm, KernelRefusalsAreReportedPerTarget) {
    const auto snap = routerSnapshot();
    const auto* eth1 = snap.interface("eth1");
    ASSERT_NE(eth1, nullptr);
    ASSERT_GE(eth1->irqs.size(), 2u);
    const auto blk = virtioOf("/sys/block/vda/device");
    std::optional<std::uint32_t> managed;
    for (const auto& row : snap.interrupts.rows)
        if (row.irq && !row.actions.empty() && row.actions[0] == blk + "-req.0")
            managed = row.irq;
    ASSERT_TRUE(managed) << blk;
    auto irqWrite = [&](std::uint32_t irq, const std::string& value) {
        const auto path = "proc/irq/" + std::to_string(irq) + "/smp_affinity";
        return Write{Write::Kind::IrqAffinity,
                     "IRQ " + std::to_string(irq),
                     path,
                     value,
                     g_baseline.at(path),
                     ""};
    };
    Resolution r;
    r.writes.push_back(irqWrite(eth1->irqs[0], "0"));  // no CPU: EINVAL
    r.writes.push_back(irqWrite(eth1->irqs[1], "10")); // CPU 4 of 4: EOVERFLOW
    r.writes.push_back(irqWrite(
        *managed, g_baseline.at("proc/irq/" + std::to_string(*managed) + "/smp_affinity") == "1"
                      ? "2"
                      : "1")); // kernel-managed: EIO
    // A value that differs from the boot-time one (which the firmware's steering chose).
    const auto eth2Was = g_baseline.at("sys/class/net/eth2/queues/rx-0/rps_cpus");
    const std::string eth2To = CpuMask::fromHex(eth2Was) == CpuMask::fromHex("4") ? "8" : "4";
    r.writes.push_back({Write::Kind::RpsCpus, "eth2 rx-0",
                        "sys/class/net/eth2/queues/rx-0/rps_cpus", eth2To, eth2Was, ""});
    NoQuestions p;
    const auto router = Router::remote(target(), p);
    std::string error;
    ASSERT_TRUE(router->open(&error)) << error;
    const auto rep = router->apply(r, {60, true}, &error);
    ASSERT_TRUE(rep) << error;
    ASSERT_EQ(rep->results.size(), 4u);
    const char* reasons[] = {"Invalid argument", "Value too large", "Input/output error"};
    for (int i = 0; i < 3; ++i) {
        EXPECT_EQ(rep->results[i].status, TargetResult::Status::Refused) << rep->results[i].error;
        EXPECT_NE(rep->results[i].error.find(reasons[i]), std::string::npos)
            << rep->results[i].error;
    }
    EXPECT_EQ(rep->results[3].status, TargetResult::Status::Applied);
    // Nothing else moved.
    EXPECT_EQ(changedFromBaseline(),
              std::vector<std::string>{"sys/class/net/eth2/queues/rx-0/rps_cpus: " + eth2Was +
                                       " -> " + eth2To});
    ASSERT_TRUE(router->settle(PendingAction::Revert, &error)) << error;
    EXPECT_TRUE(changedFromBaseline().empty());
}

// 4a. Nobody confirms: the guest restores itself within the timeout plus 5 s.
TEST_F(Vm, UnconfirmedApplyRevertsByItself) {
    const auto snap = routerSnapshot();
    const auto l = testLayout(snap);
    int rc = -1;
    const auto t0 = Clock::now();
    const auto out = cli(
        "apply " + quote(writeLayout(l).string()) + " --no-confirm --revert-after 5 --json", &rc);
    ASSERT_EQ(rc, 0) << out << cliErr();
    EXPECT_FALSE(changedFromBaseline().empty());
    const auto left = 10.0 - std::chrono::duration<double>(Clock::now() - t0).count();
    const auto took = waitForBaseline(std::max(left, 0.5));
    ASSERT_TRUE(took) << "still changed: " << changedFromBaseline().size();
    std::printf("[ vm ] unconfirmed apply reverted %.1f s after apply returned\n", *took);
}

// 4b. The connection dies in the middle of an apply: the same.
TEST_F(Vm, ConnectionKilledMidApplyRevertsByItself) {
    const auto snap = routerSnapshot();
    const auto r = resolve(testLayout(snap), snap);
    std::vector<Write> writes;
    for (const auto& w : r.writes)
        if (w.changes())
            writes.push_back(w);
    ASSERT_GE(writes.size(), 2u);
    auto script = makeApplyScript(writes, "/", {5, true});
    const auto firstWrite = script.script.find("\nw '") + 1;
    script.script.insert(script.script.find('\n', firstWrite) + 1, "sleep 60\n");
    NoQuestions p;
    ssh::Session s(target(), p);
    ASSERT_TRUE(s.connect()) << s.error().message;
    std::thread stopper([&] {
        // Stop once the first write is visible in the guest.
        const auto t0 = Clock::now();
        while (Clock::now() - t0 < std::chrono::seconds(20) && changedFromBaseline().empty())
            std::this_thread::sleep_for(std::chrono::milliseconds(200));
        s.requestStop();
    });
    EXPECT_FALSE(s.run("sh -s", script.script).has_value());
    stopper.join();
    s.disconnect();
    // The timer comes due 5 s after the apply armed it, waits up to 5 s more for the apply that
    // still holds the state lock (stalled in its `sleep 60`), ends it, and restores.
    const auto took = waitForBaseline(20.0);
    ASSERT_TRUE(took) << "still changed: " << changedFromBaseline().size();
    std::printf("[ vm ] killed apply reverted %.1f s after the connection dropped\n", *took);
}

// 5. Persist, reboot: the layout is back (eth3's coalescing too). unpersist, reboot: the
// defaults are back, and /etc/sysupgrade.conf is as before.
TEST_F(Vm, PersistSurvivesRebootAndUnpersistUndoesIt) {
    const auto snap = routerSnapshot();
    auto l = testLayout(snap);
    InterfaceTarget coalesce;
    coalesce.interface = "eth3";
    coalesce.rxUsecs = 125;
    l.interfaces.push_back(coalesce);
    const auto eth3Usecs = [] {
        return guest("ethtool -c eth3 | sed -n 's/^rx-usecs:[[:space:]]*//p'");
    };
    const auto defaultUsecs = eth3Usecs();
    ASSERT_NE(defaultUsecs, "125\n");
    int rc = -1;
    auto out = cli("persist " + quote(writeLayout(l).string()) + " --json", &rc);
    ASSERT_EQ(rc, 0) << out << cliErr();
    EXPECT_EQ(nlohmann::json::parse(out)["flavor"], "openwrt");
    EXPECT_TRUE(changedFromBaseline().empty()); // persist alone changes no running value
    EXPECT_NE(guest("cat /etc/sysupgrade.conf").find("/etc/hotplug.d/net/95-coresteer\n"),
              std::string::npos);
    rebootGuest();
    expectGuestHas(l, routerSnapshot());
    EXPECT_EQ(eth3Usecs(), "125\n");
    EXPECT_NE(guest("cat /tmp/hotplug.log").find("add net eth1"), std::string::npos);
    out = cli("unpersist --json", &rc);
    ASSERT_EQ(rc, 0) << out << cliErr();
    EXPECT_TRUE(nlohmann::json::parse(out)["sysupgrade_restored"].get<bool>());
    rebootGuest();
    EXPECT_EQ(changedFromBaseline(), std::vector<std::string>{});
    EXPECT_EQ(eth3Usecs(), defaultUsecs);
    EXPECT_EQ(guest("cat /etc/sysupgrade.conf"), g_sysupgrade);
    EXPECT_EQ(guest("ls -A /etc/hotplug.d/net/; [ -e /etc/coresteer ] && echo /etc/coresteer"),
              ".keep\n");
}

// 6. Coalescing through the real ethtool and drivers: the snapshot reads `ethtool -c` of every
// NIC; apply sets eth3's (e1000e) rx-usecs and its revert puts the driver's own value back; a
// parameter a driver lacks is not applicable, and what a driver refuses is reported.
TEST_F(Vm, CoalescingIsReadAppliedAndReverted) {
    const auto snap = routerSnapshot();
    const auto* eth3 = snap.interface("eth3");
    ASSERT_NE(eth3, nullptr);
    EXPECT_EQ(eth3->driver, "e1000e");
    ASSERT_TRUE(eth3->coalescing);
    ASSERT_TRUE(eth3->coalescing->rxUsecs);
    EXPECT_FALSE(eth3->coalescing->rxFrames); // n/a: the 82574L counts no frames
    const auto before = std::to_string(*eth3->coalescing->rxUsecs) + "\n";
    const auto usecs = [](const std::string& nif) {
        return guest("ethtool -c " + nif + " | sed -n 's/^rx-usecs:[[:space:]]*//p'");
    };
    EXPECT_EQ(usecs("eth3"), before);
    const auto* eth1 = snap.interface("eth1");
    ASSERT_NE(eth1, nullptr);
    ASSERT_TRUE(eth1->coalescing); // virtio-net answers too
    std::printf(
        "[ vm ] eth3 (e1000e) rx-usecs %s; eth1 (virtio) rx-usecs %s, rx-frames %s\n",
        std::to_string(*eth3->coalescing->rxUsecs).c_str(),
        eth1->coalescing->rxUsecs ? std::to_string(*eth1->coalescing->rxUsecs).c_str() : "n/a",
        eth1->coalescing->rxFrames ? std::to_string(*eth1->coalescing->rxFrames).c_str() : "n/a");

    Layout l;
    InterfaceTarget t;
    t.interface = "eth3";
    t.rxUsecs = 125;
    t.rxFrames = 64;
    t.why = "test";
    l.interfaces.push_back(t);
    const auto r = resolve(l, snap);
    ASSERT_EQ(r.writes.size(), 1u);
    EXPECT_EQ(r.writes[0].path, "ethtool:eth3:rx-usecs");
    EXPECT_EQ(r.writes[0].current, std::to_string(*eth3->coalescing->rxUsecs));
    ASSERT_EQ(r.skipped.size(), 1u);
    EXPECT_EQ(r.skipped[0].reason, "its driver (e1000e) takes no rx-frames (ethtool -c: n/a)");

    NoQuestions p;
    const auto router = Router::remote(target(), p);
    std::string error;
    ASSERT_TRUE(router->open(&error)) << error;
    auto rep = router->apply(r, {60, true}, &error);
    ASSERT_TRUE(rep) << error;
    ASSERT_EQ(rep->results.size(), 1u);
    EXPECT_EQ(rep->results[0].status, TargetResult::Status::Applied) << rep->results[0].error;
    EXPECT_EQ(usecs("eth3"), "125\n");
    ASSERT_TRUE(router->settle(PendingAction::Revert, &error)) << error;
    EXPECT_EQ(usecs("eth3"), before);

    // A value the driver refuses (e1000e takes 0, 1, 3, 4, and 10 to 10000 us): reported, and
    // nothing is left changed.
    Resolution bad = r;
    bad.writes[0].value = "5";
    bad.skipped.clear();
    rep = router->apply(bad, {60, true}, &error);
    ASSERT_TRUE(rep) << error;
    ASSERT_EQ(rep->results.size(), 1u);
    EXPECT_EQ(rep->results[0].status, TargetResult::Status::Refused);
    EXPECT_NE(rep->results[0].error.find("Invalid argument"), std::string::npos)
        << rep->results[0].error;
    ASSERT_TRUE(router->settle(PendingAction::Revert, &error)) << error;
    EXPECT_EQ(usecs("eth3"), before);

    // rx-frames: virtio-net without notification coalescing has it, fixed at 1, and refuses
    // any other count; beside it, eth3's rx-usecs applies and the revert restores both.
    ASSERT_TRUE(eth1->coalescing->rxFrames);
    const auto frames = [] {
        return guest("ethtool -c eth1 | sed -n 's/^rx-frames:[[:space:]]*//p'");
    };
    const auto framesBefore = frames();
    Layout both = l;
    InterfaceTarget v;
    v.interface = "eth1";
    v.rxFrames = 64;
    both.interfaces.push_back(v);
    const auto r2 = resolve(both, snap);
    ASSERT_EQ(r2.writes.size(), 2u);
    EXPECT_EQ(r2.writes[1].path, "ethtool:eth1:rx-frames");
    EXPECT_EQ(r2.writes[1].current, std::to_string(*eth1->coalescing->rxFrames));
    rep = router->apply(r2, {60, true}, &error);
    ASSERT_TRUE(rep) << error;
    ASSERT_EQ(rep->results.size(), 2u);
    EXPECT_EQ(rep->results[0].status, TargetResult::Status::Applied) << rep->results[0].error;
    EXPECT_EQ(rep->results[1].status, TargetResult::Status::Refused);
    EXPECT_NE(rep->results[1].error.find("Invalid argument"), std::string::npos)
        << rep->results[1].error;
    EXPECT_EQ(usecs("eth3"), "125\n");
    EXPECT_EQ(frames(), framesBefore);
    ASSERT_TRUE(router->settle(PendingAction::Revert, &error)) << error;
    EXPECT_EQ(usecs("eth3"), before);
    EXPECT_EQ(frames(), framesBefore);
}

// 7. Queue counts and RSS through the real ethtool and virtio-net (4 queue pairs, RSS on): the
// snapshot reads `ethtool -l`, `ethtool -x` and the root qdisc (mq); apply lowers eth2 to 2
// queue pairs with RSS weight 1 3 (the spread first, then the count), and the guest's ethtool
// shows both, with rx-2 and rx-3 gone; the revert gives back 4 pairs and the default table (the
// count first, then the spread). Persist, reboot: 2 pairs and the weights; unpersist, reboot:
// as the driver starts.
TEST_F(Vm, QueueCountsAndRssAreAppliedRevertedAndPersisted) {
    const auto snap = routerSnapshot();
    const auto* eth2 = snap.interface("eth2");
    ASSERT_NE(eth2, nullptr);
    ASSERT_TRUE(eth2->channels);
    ASSERT_TRUE(eth2->rss);
    const int queues = std::stoi(g_env.at("CS_VM_QUEUES"));
    const auto combined = [] {
        return guest("ethtool -l eth2 | sed -n '/^Current/,$ s/^Combined:[[:space:]]*//p'");
    };
    // The guest's own table, as entries.
    const auto table = [] {
        std::vector<std::uint32_t> t;
        // Up to the hash key, whose lines may start with digits too ("30:12:...").
        std::istringstream in(
            guest("ethtool -x eth2 | sed -n '/^RSS hash key/q; s/^ *[0-9][0-9]*://p'"));
        for (std::uint32_t v; in >> v;)
            t.push_back(v);
        return t;
    };
    Layout l;
    InterfaceTarget t;
    t.interface = "eth2";
    t.channels.combined = 2;
    t.rss = RssSpread::parse("weight 1 3");
    t.why = "test";
    l.interfaces.push_back(t);
    if (queues < 2) {
        // Without multiqueue taps eth2 is a single-queue NIC without RSS: resolve says so.
        const auto r = resolve(l, snap);
        EXPECT_TRUE(r.writes.empty());
        EXPECT_EQ(r.skipped.size(), 2u);
        std::printf("[ vm ] single-queue NICs here: queue counts and RSS not exercised\n");
        FAIL() << "the emulated router has no multiqueue NIC here (/dev/net/tun?)";
    }
    EXPECT_EQ(eth2->channels->combined, (Channels::Count{4u, 4u}));
    EXPECT_EQ(eth2->rss->rings, 4u);
    EXPECT_EQ(eth2->rss->table, table());
    EXPECT_EQ(eth2->rss->table.size(), 128u); // virtio-net's indirection table in QEMU
    EXPECT_EQ(RssSpread::of(eth2->rss->table, 4)->toString(), "default");
    EXPECT_EQ(eth2->rootQdisc, "mq");

    const auto r = resolve(l, snap);
    ASSERT_EQ(r.writes.size(), 2u);
    EXPECT_EQ(r.writes[0].path, "ethtool:eth2:rss");
    EXPECT_EQ(r.writes[0].current, "default");
    EXPECT_EQ(r.writes[1].path, "ethtool:eth2:channels-combined");
    NoQuestions p;
    const auto router = Router::remote(target(), p);
    std::string error;
    ASSERT_TRUE(router->open(&error)) << error;
    auto rep = router->apply(r, {60, true}, &error);
    ASSERT_TRUE(rep) << error;
    ASSERT_EQ(rep->results.size(), 2u);
    for (const auto& res : rep->results)
        EXPECT_EQ(res.status, TargetResult::Status::Applied) << res.error;
    EXPECT_EQ(combined(), "2\n");
    EXPECT_EQ(table(), RssSpread::parse("weight 1 3")->tableFor(128, 2));
    EXPECT_EQ(guest("ls /sys/class/net/eth2/queues | tr '\\n' ' '"), "rx-0 rx-1 tx-0 tx-1 ");
    ASSERT_TRUE(router->settle(PendingAction::Revert, &error)) << error;
    EXPECT_EQ(combined(), "4\n");
    EXPECT_EQ(table(), eth2->rss->table);

    // Persist, reboot: the count and the spread at boot, before the IRQs are looked for.
    int rc = -1;
    auto out = cli("persist " + quote(writeLayout(l).string()) + " --json", &rc);
    ASSERT_EQ(rc, 0) << out << cliErr();
    EXPECT_EQ(combined(), "4\n"); // persist alone changes nothing
    rebootGuest();
    EXPECT_EQ(combined(), "2\n");
    EXPECT_EQ(table(), RssSpread::parse("weight 1 3")->tableFor(128, 2));
    const auto after = routerSnapshot();
    EXPECT_EQ(after.interface("eth2")->channels->combined, (Channels::Count{4u, 2u}));
    out = cli("unpersist --json", &rc);
    ASSERT_EQ(rc, 0) << out << cliErr();
    rebootGuest();
    EXPECT_EQ(combined(), "4\n");
    EXPECT_EQ(table(), eth2->rss->table);
    std::printf("[ vm ] eth2: 4 -> 2 queue pairs with RSS weight 1 3, reverted, persisted across "
                "a reboot, unpersisted\n");
}

// 8. Living with the firmware's steering: the router runs a model of OpenWrt's packet steering
// service (/etc/init.d/packet_steering at boot, on a network reload and on every interface
// event; its packet-steering.uc gives each NIC one CPU of its own). Persist installs the
// platform script that the service runs instead: after an ifup, a network reload and a reboot,
// eth1 has the layout's RPS and eth2, which the layout does not name, the firmware's own.
TEST_F(Vm, TheFirmwaresSteeringRunsFirstAndTheLayoutStays) {
    const int queues = std::stoi(g_env.at("CS_VM_QUEUES"));
    const auto rps = [](const std::string& dev, int q) {
        const auto s =
            guest("cat /sys/class/net/" + dev + "/queues/rx-" + std::to_string(q) + "/rps_cpus");
        const auto m = CpuMask::fromHex(s.substr(0, s.find('\n')));
        return m ? m->toList() : "?" + s;
    };
    ASSERT_NE(guest("cat /tmp/steering.log").find("packet_steering start"), std::string::npos);
    // The model's choice at boot: eth0 CPU0, eth1 CPU1, eth2 CPU2, eth3 CPU3.
    EXPECT_EQ(rps("eth1", 0), "1");
    EXPECT_EQ(rps("eth2", 0), "2");
    Layout l;
    for (int q = 0; q < queues; ++q)
        l.rx.push_back({"eth1", q, *CpuMask::fromList("2-3"), std::nullopt, "test"});
    int rc = -1;
    auto out = cli("persist " + quote(writeLayout(l).string()) + " --json", &rc);
    ASSERT_EQ(rc, 0) << out << cliErr();
    EXPECT_EQ(guest("grep -c '" + std::string(kPersistMarker) +
                    "' /usr/libexec/platform/packet-steering.sh"),
              "1\n");
    EXPECT_EQ(rps("eth1", 0), "1"); // persist alone changes nothing running
    const auto check = [&](const char* when) {
        SCOPED_TRACE(when);
        for (int q = 0; q < queues; ++q) {
            EXPECT_EQ(rps("eth1", q), "2-3") << q;
            EXPECT_EQ(rps("eth2", q), "2") << q;
        }
    };
    const auto runs = [] {
        const auto log = guest("cat /tmp/steering.log");
        return std::count(log.begin(), log.end(), '\n');
    };
    auto before = runs();
    guest("/sbin/ifup wan eth2");
    EXPECT_EQ(runs(), before + 1);
    check("ifup");
    before = runs();
    guest("/etc/init.d/network reload");
    EXPECT_EQ(runs(), before + 1);
    check("network reload");
    // After a reboot /usr/libexec/platform is gone (only /etc persists here, as after a
    // sysupgrade): the first interface event puts coresteer's script back before the service
    // starts.
    rebootGuest();
    EXPECT_NE(guest("cat /tmp/steering.log").find("packet_steering start"), std::string::npos);
    check("reboot");
    out = cli("unpersist --json", &rc);
    ASSERT_EQ(rc, 0) << out << cliErr();
    guest("/etc/init.d/network reload");
    EXPECT_EQ(rps("eth1", 0), "1"); // the firmware's own again
    EXPECT_EQ(guest("ls /usr/libexec/platform/ 2>/dev/null"), "");
}

// 9. A PPPoE WAN made after boot: mkppp makes a PPP unit as pppd does (ppp0, type 512, renamed
// pppoe-wan). Persist adds the iface hook; when the link goes down and pppd makes the device
// again, it has no RPS until netifd's ifup of it, which gives it the layout's.
TEST_F(Vm, APppDeviceMadeAfterBootGetsItsRpsAtIfup) {
    const auto up = [] {
        guest("(mkppp pppoe-wan </dev/null >/dev/null 2>&1 &); i=0; "
              "while [ ! -e /sys/class/net/pppoe-wan ] && [ $i -lt 50 ]; do "
              "sleep 0.1; i=$((i + 1)); done");
    };
    const auto down = [] {
        guest("killall mkppp; i=0; while [ -e /sys/class/net/pppoe-wan ] && [ $i -lt 50 ]; do "
              "sleep 0.1; i=$((i + 1)); done");
    };
    const auto rps = [] {
        const auto s = guest("cat /sys/class/net/pppoe-wan/queues/rx-0/rps_cpus");
        const auto m = CpuMask::fromHex(s.substr(0, s.find('\n')));
        return m ? m->toList() : "?" + s;
    };
    up();
    ASSERT_EQ(guest("cat /sys/class/net/pppoe-wan/type"), "512\n");
    const auto snap = routerSnapshot();
    const auto* ppp = snap.interface("pppoe-wan");
    ASSERT_NE(ppp, nullptr);
    EXPECT_TRUE(ppp->isPpp());
    Layout l;
    l.rx.push_back({"pppoe-wan", 0, *CpuMask::fromList("1-3"), std::nullopt, "test"});
    int rc = -1;
    auto out = cli("persist " + quote(writeLayout(l).string()) + " --json", &rc);
    ASSERT_EQ(rc, 0) << out << cliErr();
    EXPECT_EQ(
        guest("grep -c '" + std::string(kPersistMarker) + "' /etc/hotplug.d/iface/95-coresteer"),
        "1\n");
    // The link goes down and comes back: a new device, without RPS, until its ifup.
    down();
    up();
    EXPECT_EQ(rps(), "");
    guest("/sbin/ifup wan pppoe-wan");
    EXPECT_EQ(rps(), "1-3");
    out = cli("unpersist --json", &rc);
    ASSERT_EQ(rc, 0) << out << cliErr();
    down();
    EXPECT_EQ(guest("ls -A /etc/hotplug.d/iface/ 2>/dev/null"), "");
}

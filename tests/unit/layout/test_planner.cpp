// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The planner on the seed boards: it must reproduce the published hand layouts.
#include "core/collect/collect_local.h"
#include "core/layout/layout_json.h"
#include "core/layout/planner.h"
#include "core/layout/resolve.h"
#include "tests/support/board_expect.h"

#include <gtest/gtest.h>

#include <map>

using namespace coresteer;
using namespace coresteer::layout;

namespace {

Snapshot board(const std::string& name) {
    return buildSnapshot(collectLocal(test::boardDir(name)));
}

// path -> value of every write the plan makes on `b`.
std::map<std::string, std::string> planned(const std::string& b) {
    const auto snap = board(b);
    const auto r = resolve(plan(snap), snap);
    EXPECT_TRUE(r.skipped.empty()) << b << ": " << (r.skipped.empty() ? "" : r.skipped[0].target);
    std::map<std::string, std::string> m;
    for (const auto& w : r.writes)
        m[w.path] = w.value;
    return m;
}

void expectWrites(const std::string& b, const std::map<std::string, std::string>& published) {
    const auto got = planned(b);
    for (const auto& [path, value] : published) {
        const auto it = got.find(path);
        ASSERT_NE(it, got.end()) << b << ": the plan does not write " << path;
        EXPECT_EQ(it->second, value) << b << ": " << path;
    }
}

std::string irqPath(const std::string& b, const std::string& action, int index = 0) {
    const auto irq = findIrq(board(b), {action, index});
    EXPECT_TRUE(irq.has_value()) << b << " " << action;
    return "proc/irq/" + std::to_string(irq.value_or(0)) + "/smp_affinity";
}

std::string q(const std::string& ifname, const std::string& queue, const std::string& file) {
    return "sys/class/net/" + ifname + "/queues/" + queue + "/" + file;
}

} // namespace

// StarWhiz NanoPi R6S option 2a (FriendlyWrt): eth1 IRQs CPU2, RPS CPU4, XPS CPU5; eth2 IRQs
// CPU3, RPS CPU6, XPS CPU7; eth0 IRQ CPU0, RPS and XPS CPU1.
TEST(Planner, NanoPiR6sReproducesOption2a) {
    const std::string b = "nanopi-r6s-friendlywrt";
    std::map<std::string, std::string> published = {
        {irqPath(b, "eth0"), "01"},
        {q("eth0", "rx-0", "rps_cpus"), "02"},
        {q("eth0", "tx-0", "xps_cpus"), "02"},
        {q("eth1", "rx-0", "rps_cpus"), "10"},
        {q("eth1", "tx-0", "xps_cpus"), "20"},
        {q("eth2", "rx-0", "rps_cpus"), "40"},
        {q("eth2", "tx-0", "xps_cpus"), "80"},
    };
    for (const char* v : {"-0", "-16", "-18"}) {
        published[irqPath(b, std::string("eth1") + v)] = "04";
        published[irqPath(b, std::string("eth2") + v)] = "08";
    }
    expectWrites(b, published);
    // The same layout on mainline OpenWrt, where each RTL8125 has one MSI named after the port.
    expectWrites("nanopi-r6s-openwrt", {{irqPath("nanopi-r6s-openwrt", "eth1"), "04"},
                                        {irqPath("nanopi-r6s-openwrt", "eth2"), "08"},
                                        {q("eth1", "rx-0", "rps_cpus"), "10"},
                                        {q("eth2", "rx-0", "rps_cpus"), "40"}});
}

// StarWhiz NanoPi R4S guide: IRQs on CPU2 and CPU3, RPS on the A72 cores CPU4 and CPU5.
TEST(Planner, NanoPiR4sUsesTheA72sForSteering) {
    const std::string b = "nanopi-r4s";
    expectWrites(b, {{irqPath(b, "eth0"), "04"},
                     {irqPath(b, "eth1"), "08"},
                     {q("eth0", "rx-0", "rps_cpus"), "10"},
                     {q("eth1", "rx-0", "rps_cpus"), "20"}});
}

// presisco/openwrt-irq-balance (IPQ40xx, forwarding-optimised): tx IRQs in groups of four over
// CPU2/CPU1, rx IRQs alternating CPU2/CPU1, queues alternating CPU1/CPU2, Wi-Fi on CPU3.
TEST(Planner, Ipq4019AlternatesOverCpu1And2WithWifiOnCpu3) {
    const std::string b = "ipq4019-acrh17";
    std::map<std::string, std::string> published;
    for (int t = 0; t < 16; ++t)
        published[irqPath(b, "edma_eth_tx" + std::to_string(t))] = (t / 4) % 2 == 0 ? "4" : "2";
    int k = 0;
    for (int r : {0, 2, 4, 6})
        published[irqPath(b, "edma_eth_rx" + std::to_string(r))] = k++ % 2 == 0 ? "4" : "2";
    published[irqPath(b, "ath10k_ahb")] = "8";
    for (const char* ifname : {"eth0", "eth1"})
        for (int i = 0; i < 4; ++i) {
            const auto rx = "rx-" + std::to_string(i);
            published[q(ifname, rx, "rps_cpus")] = i % 2 == 0 ? "2" : "4";
            published[q(ifname, rx, "rps_flow_cnt")] = "256";
        }
    published["proc/sys/net/core/rps_sock_flow_entries"] = "1024";
    expectWrites(b, published);
}

// The layout the BPI-R4 is tuned with: one RSS ring per core, TX completion on CPU2, RPS off.
TEST(Planner, BpiR4OneRingPerCore) {
    const std::string b = "bpi-r4";
    std::map<std::string, std::string> want;
    const char* masks[] = {"1", "2", "4", "8", "4"};
    for (int i = 0; i < 5; ++i)
        want[irqPath(b, "15100000.ethernet", i)] = masks[i];
    for (const char* ifname : {"eth0", "eth1", "eth2"})
        want[q(ifname, "rx-0", "rps_cpus")] = "0";
    expectWrites(b, want);
}

// An x86 mini-PC's i226 ports (igc): each port's link vector, named as the port, serves no
// queue and goes to CPU0; its queue vectors eth0-TxRx-0..3 take one core each, in queue order.
// Neither the link vector nor the last queue is a transmit completion interrupt.
TEST(Planner, IgcLinkVectorIsNoQueue) {
    const std::string b = "x86-n100-i226";
    std::map<std::string, std::string> want;
    for (const char* ifname : {"eth0", "eth1", "eth2", "eth3"}) {
        want[irqPath(b, ifname)] = "1";
        for (int i = 0; i < 4; ++i)
            want[irqPath(b, std::string(ifname) + "-TxRx-" + std::to_string(i))] =
                std::to_string(1 << i);
        want[q(ifname, "rx-0", "rps_cpus")] = "0";
    }
    expectWrites(b, want);
    const auto l = plan(board(b));
    for (const auto& t : l.irqs) {
        EXPECT_EQ(t.why.find("transmit completion"), std::string::npos) << t.why;
        if (t.irq.action == "eth2") {
            EXPECT_EQ(t.why, "eth2's link interrupt on CPU0: it serves no queue and fires only on "
                             "link changes and errors.");
        }
    }
}

// The emulated router's lab (x86, 2 vCPUs, virtio-net NICs of one queue pair each): virtio's
// configuration vector is no queue, and one receive queue is no RSS, so RPS stays on and spreads
// the receive work (once the plan took virtio1-config for "queue interrupt 0", turned RPS off
// and left each NIC's receive work on one core: 242-256 Mbit/s where IRQs on CPU0 and RPS on
// CPU1 forwarded 375-476).
TEST(Planner, VirtioConfigVectorIsNoQueueAndOneQueueIsNoRss) {
    const std::string b = "x86-virtio-lab";
    const auto snap = board(b);
    for (const char* ifname : {"eth1", "eth2"}) {
        const auto* n = snap.interface(ifname);
        ASSERT_NE(n, nullptr) << ifname;
        ASSERT_EQ(n->irqs.size(), 3u) << ifname;
        std::map<IrqRole, int> roles;
        for (auto irq : n->irqs)
            ++roles[snap.irq(irq)->role];
        EXPECT_EQ(roles[IrqRole::Control], 1) << ifname;
        EXPECT_EQ(roles[IrqRole::Rx], 1) << ifname;
        EXPECT_EQ(roles[IrqRole::Tx], 1) << ifname;
    }
    const auto l = plan(snap);
    for (const auto& note : l.notes)
        EXPECT_EQ(note.find("RSS"), std::string::npos) << note;
    for (const auto& t : l.irqs)
        EXPECT_EQ(t.why.find("queue interrupt"), std::string::npos) << t.why;
    for (const auto& t : l.rx)
        if (t.interface == "eth1" || t.interface == "eth2") {
            ASSERT_TRUE(t.rpsCpus) << t.interface;
            EXPECT_FALSE(t.rpsCpus->none()) << t.interface << ": " << t.why;
        }
}

// qualcommax (IPQ807x): the EDMA engine's interrupts are the wired ports' (qca-nss-dp), and
// ath11k's data-path rings are spread one per core by ring number as the firmware's own
// smp_affinity spreads them (REO destination ring N on CPU N-1, TX completion ring and PPDU end
// interrupt N on CPU N); the rest of the Wi-Fi on the Wi-Fi core.
TEST(Planner, Ipq807xSpreadsAth11kRingsAndPlansTheEdmaPorts) {
    const std::string b = "ipq8074-dl-wrx36";
    std::map<std::string, std::string> want;
    for (int k = 1; k <= 4; ++k)
        want[irqPath(b, "reo2host-destination-ring" + std::to_string(k))] =
            std::to_string(1 << (k - 1));
    for (int k = 1; k <= 3; ++k) {
        const auto mask = std::to_string(1 << (k % 4));
        want[irqPath(b, "wbm2host-tx-completions-ring" + std::to_string(k))] = mask;
        want[irqPath(b, "ppdu-end-interrupts-mac" + std::to_string(k))] = mask;
    }
    for (const char* ce : {"ce0", "ce5", "reo2host-status"})
        want[irqPath(b, ce)] = "8";
    for (const char* port : {"lan1", "lan2", "lan3", "lan4", "wan"})
        want[q(port, "rx-0", "rps_cpus")] = "2";
    expectWrites(b, want);
    for (const char* edma : {"edma_txcmpl", "edma_rxfill", "edma_rxdesc", "edma_misc"}) {
        const auto got = planned(b).at(irqPath(b, edma));
        EXPECT_TRUE(got == "2" || got == "4") << edma << ": " << got; // the network cores
    }
}

TEST(Planner, OneCoreHasNothingToSpread) {
    const auto l = plan(board("archer-c7-v2"));
    EXPECT_TRUE(l.empty());
    ASSERT_FALSE(l.notes.empty());
    EXPECT_NE(l.notes[0].find("one CPU core"), std::string::npos);
}

TEST(Planner, IrqbalanceIsNamed) {
    const auto l = plan(board("x86-server-96"));
    bool named = false;
    for (const auto& n : l.notes)
        named = named || n.find("irqbalance") != std::string::npos;
    EXPECT_TRUE(named);
}

TEST(Planner, EveryBoardGetsAnExplainedApplicablePlan) {
    for (const auto& b : test::boardNames()) {
        const auto snap = board(b);
        const auto l = plan(snap);
        EXPECT_FALSE(l.notes.empty()) << b;
        for (const auto& t : l.irqs)
            EXPECT_FALSE(t.why.empty()) << b << " " << t.irq.display();
        for (const auto& t : l.rx)
            EXPECT_FALSE(t.why.empty()) << b << " " << t.interface;
        const auto r = resolve(l, snap);
        EXPECT_TRUE(r.skipped.empty()) << b;
        // The JSON that `plan --json` prints reads back as the same layout.
        std::string err;
        const auto back = parseLayout(toJson(l).dump(), &err);
        ASSERT_TRUE(back.has_value()) << b << ": " << err;
        EXPECT_EQ(toJson(*back), toJson(l)) << b;
        // Every NIC IRQ of the board is placed, except on one-core boards.
        if (snap.topology.online.count() > 1) {
            const auto x = test::readExpect(b);
            for (const auto& [ifname, irqs] : x.nics)
                for (auto irq : irqs) {
                    const auto sel = selectorOf(snap, irq);
                    ASSERT_TRUE(sel.has_value());
                    bool placed = false;
                    for (const auto& t : l.irqs)
                        placed = placed || t.irq == *sel;
                    EXPECT_TRUE(placed) << b << ": IRQ " << irq << " of " << ifname;
                }
        }
    }
}

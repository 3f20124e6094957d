// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// How the planner thinks (goal: the most throughput through cake SQM):
//
// - Shaping and NAPI polling are the heavy work; the hard interrupt itself is cheap. On
//   big.LITTLE SoCs the interrupts go to LITTLE cores and the packet processing, through RPS
//   (receive) and XPS (transmit), to big cores, a core of its own for each of the fastest ports
//   when there are enough (NanoPi R6S: eth1 IRQ on CPU2, RPS CPU4, XPS CPU5; eth2 IRQ CPU3, RPS
//   CPU6, XPS CPU7; the 1G eth0 on CPU0 with its steering on CPU1; NanoPi R4S: IRQs on CPU2 and
//   CPU3, RPS on the A72s CPU4 and CPU5).
// - NICs with hardware RSS (a queue IRQ per ring) get one ring per core, and RPS off: the NIC
//   already spreads the flows, and RPS would only move them again.
// - On uniform SoCs with Wi-Fi, CPU0 keeps the system's interrupts, the last core the Wi-Fi, and
//   the network queues alternate over the cores between (IPQ4019: CPU1 and CPU2).
// - Otherwise each NIC's IRQs get a core of their own and RPS spreads over the others.
#include "core/layout/planner_detail.h"

#include <set>

namespace coresteer::layout {

Layout plan(const Snapshot& snap, const PlanGoal& goal) {
    return detail::Planner(snap, goal).run();
}

namespace detail {

Layout Planner::run() {
    const auto& topo = m_snap.topology;
    m_online = topo.online.cpus();
    collectUnits();
    if (m_online.size() <= 1) {
        m_layout.notes.push_back("This router has one CPU core: there is nothing to spread, so "
                                 "coresteer leaves its IRQs and queues as they are.");
        return m_layout;
    }
    if (m_units.empty()) {
        m_layout.notes.push_back("No network interface with its own IRQs was found.");
        return m_layout;
    }
    for (const auto& s : m_snap.system.services.maskScripts)
        if (s.enabled && !s.coresteerAfter)
            m_layout.notes.push_back(
                s.path + " writes masks at boot, after coresteer's hotplug script (" +
                s.whereText() +
                "): it undoes this layout at every boot unless persist overrides it "
                "(--override-boot-scripts, or the apply dialog's choice).");
    if (const auto& o = m_snap.system.services.offloading; o.software)
        m_layout.notes.push_back(
            std::string(o.hardware ? "Hardware" : "Software") + " flow offloading is on (" +
            o.where + "): established forwarded flows bypass most of this CPU work" +
            (o.hardware ? " (the offload engine forwards them)" : "") +
            " and SQM; this layout carries new connections, the router's own traffic and "
            "whatever is not offloaded, and a bufferbloat test shows less CPU load than its "
            "traffic.");
    using Shape = PlanGoal::Shape;
    if (m_goal.shape == Shape::AllOnFastCores && topo.classes.size() >= 2)
        allOnFastCores();
    else if (m_goal.shape == Shape::IrqPerCoreNoRps)
        irqPerCoreNoRps();
    else if (m_goal.shape == Shape::IrqsTogether)
        irqsTogether();
    else if (topo.classes.size() >= 2)
        bigLittle();
    else if (hasRss())
        rss();
    else if (!m_wifiIrqs.empty() && m_online.size() >= 4)
        uniformWithWifi();
    else
        uniform();
    if (m_goal.shape == Shape::RpsOverAllCores)
        rpsOverAllCores();
    pinNapiThreads();
    pinTxWorkers();
    planPppSteering(m_snap, m_layout);
    planQueues(m_snap, m_layout);
    irqbalanceNote();
    governors();
    if (m_goal.load)
        proposeCoalescing(m_snap, *m_goal.load, m_layout);
    return m_layout;
}

void Planner::collectUnits() {
    std::map<std::set<std::string>, Unit> byPorts;
    for (const auto& info : m_snap.irqs) {
        if (info.interfaces.empty())
            continue;
        std::set<std::string> ports;
        bool wireless = false;
        for (const auto& n : info.interfaces) {
            const auto* nif = m_snap.interface(n);
            if (!nif)
                continue;
            wireless = wireless || nif->isWireless();
            ports.insert(n);
        }
        if (wireless) {
            m_wifiIrqs.push_back(info.irq);
            continue;
        }
        auto& u = byPorts[ports];
        if (u.ports.empty())
            for (const auto& n : ports)
                u.ports.push_back(m_snap.interface(n));
        u.irqs.push_back(info.irq);
    }
    for (auto& [ports, u] : byPorts) {
        std::sort(u.irqs.begin(), u.irqs.end(), [&](std::uint32_t a, std::uint32_t b) {
            const auto* ra = m_snap.interrupts.findIrq(a);
            const auto* rb = m_snap.interrupts.findIrq(b);
            const auto ha = ra && ra->hwirq ? *ra->hwirq : a, hb = rb && rb->hwirq ? *rb->hwirq : b;
            return ha != hb ? ha < hb : a < b;
        });
        m_units.push_back(std::move(u));
    }
    std::sort(m_units.begin(), m_units.end(),
              [](const Unit& a, const Unit& b) { return a.name() < b.name(); });
}

// Where the layout puts an IRQ, else where it is now (its effective CPUs, else its mask).
CpuMask Planner::irqCpus(std::uint32_t irq) const {
    for (const auto& t : m_layout.irqs)
        if (m_names.find(t.irq) == irq)
            return t.cpus;
    if (const auto* info = m_snap.irq(irq))
        if (const auto& m = info->effectiveAffinity ? info->effectiveAffinity : info->smpAffinity)
            return *m;
    return CpuMask(m_width);
}

// The online CPU outside `avoid` that carries the least of this layout's network work
// (IRQs, RPS, XPS and threads it places), the faster class first, then the lowest number.
std::optional<int> Planner::quietestCpu(const CpuMask& avoid) const {
    std::map<int, int> load;
    const auto add = [&](const CpuMask& m) {
        for (const int c : m.cpus())
            ++load[c];
    };
    for (const auto& t : m_layout.irqs)
        add(t.cpus);
    for (const auto& t : m_layout.rx)
        if (t.rpsCpus)
            add(*t.rpsCpus);
    for (const auto& t : m_layout.tx)
        add(t.xpsCpus);
    for (const auto& t : m_layout.interfaces) {
        if (t.napiCpus)
            add(*t.napiCpus);
        if (t.txWorkerCpus)
            add(*t.txWorkerCpus);
    }
    const auto& classes = m_snap.topology.classes;
    const auto rank = [&](int cpu) {
        for (std::size_t i = 0; i < classes.size(); ++i)
            if (classes[i].cpus.test(cpu))
                return static_cast<int>(i);
        return 0;
    };
    std::optional<int> best;
    for (const int c : m_online) {
        if (avoid.test(c))
            continue;
        if (!best || load[c] < load[*best] || (load[c] == load[*best] && rank(c) > rank(*best)))
            best = c;
    }
    return best;
}

// Separately named transmit and receive IRQs (edma_eth_tx3, eth0-rx-1): queues that the
// driver pairs with CPUs itself, not rings to spread one per core.
bool Planner::splitTxRx(const Unit& u) const {
    bool tx = false, rx = false;
    for (auto irq : u.irqs) {
        const auto* row = m_snap.interrupts.findIrq(irq);
        if (!row || row->actions.empty())
            continue;
        const auto& a = row->actions.front();
        tx = tx || a.find("_tx") != std::string::npos || a.find("-tx-") != std::string::npos;
        rx = rx || a.find("_rx") != std::string::npos || a.find("-rx-") != std::string::npos;
    }
    return tx && rx;
}

bool Planner::hasRss() const {
    for (const auto& u : m_units)
        if (receiveQueues(u) >= 2 && !splitTxRx(u))
            return true;
    return false;
}

// Where the unit's vectors say what they serve, its receive queues (rx and rxtx vectors);
// where none does, every vector that is not a link vector counts as a queue.
std::size_t Planner::receiveQueues(const Unit& u) const {
    const bool named = std::any_of(u.irqs.begin(), u.irqs.end(), [&](std::uint32_t irq) {
        const auto* info = m_snap.irq(irq);
        return info && info->role != IrqRole::Unknown;
    });
    return static_cast<std::size_t>(std::count_if(u.irqs.begin(), u.irqs.end(), [&](auto irq) {
        const auto* info = m_snap.irq(irq);
        if (named)
            return info && (info->role == IrqRole::Rx || info->role == IrqRole::RxTx);
        return !miscVector(u, irq);
    }));
}

// A NIC's vector that serves no queue: one its name says so of (virtio's "virtio1-config"),
// or one named exactly as the interface (igb, igc, ixgbe: "eth0" beside "eth0-TxRx-0" ...)
// where the unit's other vectors name their queues. It takes link or configuration changes
// and other rare events.
bool Planner::miscVector(const Unit& u, std::uint32_t irq) const {
    const auto* info = m_snap.irq(irq);
    if (info && info->role == IrqRole::Control)
        return true;
    const auto* row = m_snap.interrupts.findIrq(irq);
    if (!info || info->role != IrqRole::Unknown || !row || row->actions.size() != 1)
        return false;
    const bool named = std::any_of(u.ports.begin(), u.ports.end(),
                                   [&](const auto* p) { return p->name == row->actions.front(); });
    return named && std::any_of(u.irqs.begin(), u.irqs.end(), [&](std::uint32_t other) {
               const auto* o = m_snap.irq(other);
               return o && o->role != IrqRole::Unknown;
           });
}

void Planner::setIrq(std::uint32_t irq, const CpuMask& cpus, const std::string& why) {
    if (const auto sel = m_names.selectorOf(irq))
        m_layout.irqs.push_back({*sel, cpus, why});
}

void Planner::setRps(const Unit& u, const CpuMask& cpus, const std::string& why) {
    for (const auto* p : u.ports)
        for (const auto& q : p->rx)
            m_layout.rx.push_back({p->name, q.index, cpus, std::nullopt, why});
}

void Planner::setXps(const Unit& u, const CpuMask& cpus, const std::string& why) {
    for (const auto* p : u.ports)
        for (const auto& q : p->tx)
            if (q.xpsCpus)
                m_layout.tx.push_back({p->name, q.index, cpus, why});
}

} // namespace detail

} // namespace coresteer::layout

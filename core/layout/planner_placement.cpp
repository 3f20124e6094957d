// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// Where the planner puts each NIC's interrupts, RPS and XPS, by the kind of router: two
// classes of core, a NIC with RSS, uniform cores with Wi-Fi, uniform cores; and the Wi-Fi's own.

#include "core/layout/planner_detail.h"

#include "core/base/text.h"

#include <set>

namespace coresteer::layout::detail {

void Planner::bigLittle() {
    const auto& classes = m_snap.topology.classes;
    const auto little = classes.front().cpus.cpus();
    const auto big = classes.back().cpus.cpus();
    const std::string littleName = classes.front().name, bigName = classes.back().name;
    // The fastest ports get big cores of their own; the others stay on LITTLE cores.
    int top = 0;
    for (const auto& u : m_units)
        top = std::max(top, u.speed());
    std::vector<const Unit*> fast, slow;
    for (const auto& u : m_units)
        (u.speed() == top ? fast : slow).push_back(&u);
    const std::size_t perPort = big.size() >= 2 * fast.size() ? 2
                                : big.size() >= fast.size()   ? 1
                                                              : 0;
    m_layout.notes.push_back(
        "Interrupts go to " + littleName + " cores and packet processing (RPS, XPS) to " + bigName +
        " cores: shaping and NAPI polling are the heavy work, the interrupt itself is cheap.");
    std::set<int> usedLittle;
    // Fast ports take the highest LITTLE cores, one each.
    for (std::size_t i = 0; i < fast.size(); ++i) {
        const auto& u = *fast[i];
        const int irqCpu = little[(little.size() - fast.size() + i) % little.size()];
        usedLittle.insert(irqCpu);
        for (auto irq : u.irqs)
            setIrq(irq, one(irqCpu, m_width),
                   u.name() + "'s interrupts on " + littleName + " " + cpuName(irqCpu) +
                       ", a core of its own.");
        if (perPort == 0) {
            setRps(u, CpuMask::fromCpus(big, m_width),
                   "More fast ports than " + bigName + " cores: " + u.name() +
                       "'s receive processing is spread over all of them.");
            continue;
        }
        const int rpsCpu = big[perPort * i];
        setRps(u, one(rpsCpu, m_width),
               u.name() + "'s receive processing (RPS) on " + bigName + " " + cpuName(rpsCpu) +
                   ".");
        if (perPort == 2) {
            const int xpsCpu = big[perPort * i + 1];
            setXps(u, one(xpsCpu, m_width),
                   u.name() + "'s transmit queue (XPS) on " + bigName + " " + cpuName(xpsCpu) +
                       ", apart from its receive side.");
        }
    }
    // Slower ports: from the lowest LITTLE core up, with their steering on the next free one.
    std::size_t next = 0;
    auto nextLittle = [&]() {
        for (std::size_t k = 0; k < little.size(); ++k) {
            const int c = little[(next + k) % little.size()];
            if (!usedLittle.count(c)) {
                next = (next + k + 1) % little.size();
                usedLittle.insert(c);
                return c;
            }
        }
        return little[next++ % little.size()];
    };
    for (const auto* u : slow) {
        const int irqCpu = nextLittle();
        for (auto irq : u->irqs)
            setIrq(irq, one(irqCpu, m_width),
                   u->name() + " is slower than the others: its interrupts stay on " + littleName +
                       " " + cpuName(irqCpu) + ".");
        const int steer = nextLittle();
        setRps(*u, one(steer, m_width),
               u->name() + "'s receive processing on " + littleName + " " + cpuName(steer) +
                   ", leaving the " + bigName + " cores to the fast ports.");
        setXps(*u, one(steer, m_width),
               u->name() + "'s transmit queue on " + littleName + " " + cpuName(steer) +
                   " as well.");
    }
    wifiOn(little.back(), littleName + " " + cpuName(little.back()));
}

void Planner::rss() {
    const std::size_t n = m_online.size();
    std::size_t offset = 0; // the next unit starts where the last one ended
    for (auto u : m_units) {
        std::erase_if(u.irqs, [&](std::uint32_t irq) {
            if (!miscVector(u, irq))
                return false;
            const int cpu = m_online.front();
            const auto* info = m_snap.irq(irq);
            setIrq(irq, one(cpu, m_width),
                   info && info->role == IrqRole::Control
                       ? u.name() + "'s configuration interrupt on " + cpuName(cpu) +
                             ": it serves no queue and fires only when the device's "
                             "configuration changes."
                       : u.name() + "'s link interrupt on " + cpuName(cpu) +
                             ": it serves no queue and fires only on link changes and errors.");
            return true;
        });
        if (u.irqs.empty())
            continue;
        if (receiveQueues(u) <= 1) {
            // One receive queue: no RSS to follow, so its vectors share a core and RPS
            // spreads the receive work over the others.
            const int cpu = m_online[offset++ % n];
            for (auto irq : u.irqs)
                setIrq(irq, one(cpu, m_width),
                       u.name() + " has a single receive queue: its interrupt" +
                           (u.irqs.size() > 1 ? "s" : "") + " on " + cpuName(cpu) + ".");
            CpuMask rest(m_width);
            for (int c : m_online)
                if (c != cpu)
                    rest.set(c);
            setRps(u, rest, u.name() + "'s receive processing spread over the other cores.");
            continue;
        }
        // n RSS rings plus the TX completion, none of them named by its queue (mtk_eth_soc)
        const bool frameEngine =
            u.irqs.size() == n + 1 && std::none_of(u.irqs.begin(), u.irqs.end(), [&](auto i) {
                const auto* info = m_snap.irq(i);
                return info && info->role != IrqRole::Unknown;
            });
        // Receive and transmit vectors of their own, each named by its queue.
        const auto has = [&](IrqRole role) {
            return std::any_of(u.irqs.begin(), u.irqs.end(), [&](auto i) {
                const auto* info = m_snap.irq(i);
                return info && info->role == role && info->queue;
            });
        };
        const bool pairs = has(IrqRole::Rx) && has(IrqRole::Tx);
        std::map<int, int> queueCpu; // a transmit queue's vector -> its CPU
        const auto note = [&](std::size_t i, int cpu) {
            if (const auto* info = m_snap.irq(u.irqs[i]);
                info && info->queue && info->role != IrqRole::Rx)
                queueCpu.emplace(*info->queue, cpu);
        };
        for (std::size_t i = 0; i < u.irqs.size(); ++i) {
            if (frameEngine && i == n) {
                const int cpu = m_online[n / 2];
                setIrq(u.irqs[i], one(cpu, m_width),
                       u.name() + "'s transmit completion interrupt on " + cpuName(cpu) + ".");
                continue;
            }
            // A driver that hints one CPU per queue knows the NUMA node: follow it.
            const auto* info = m_snap.irq(u.irqs[i]);
            if (info && info->affinityHint && info->affinityHint->count() == 1 &&
                info->affinityHint->isSubsetOf(m_snap.topology.online)) {
                note(i, info->affinityHint->highest()); // one CPU
                setIrq(u.irqs[i], *info->affinityHint,
                       u.name() + " queue interrupt " + std::to_string(i) + " on CPU" +
                           info->affinityHint->toList() +
                           ", as the driver hints (a core on the NIC's own NUMA node).");
                continue;
            }
            // A queue pair's two vectors (virtio's input.K and output.K) share queue K's core.
            const bool paired = pairs && info && info->queue;
            const std::size_t at = paired ? static_cast<std::size_t>(*info->queue) : i;
            const int cpu = m_online[(offset + at) % n];
            note(i, cpu);
            setIrq(u.irqs[i], one(cpu, m_width),
                   u.name() +
                       (paired ? std::string(" ") + toString(info->role) + " queue "
                               : std::string(" queue interrupt ")) +
                       std::to_string(at) + " on " + cpuName(cpu) +
                       ": the NIC spreads flows over its queues (RSS), one queue per core.");
        }
        if (pairs)
            offset += receiveQueues(u);
        else if (!frameEngine)
            offset += u.irqs.size();
        setRps(u, CpuMask(m_width),
               "RPS off: the NIC's RSS already spreads the flows over the cores.");
        for (const auto* p : u.ports)
            for (const auto& q : p->tx)
                if (q.xpsCpus && p->tx.size() > 1)
                    xpsPerQueue(*p, q.index, queueCpu);
    }
    m_layout.notes.push_back("The NICs spread received flows themselves (RSS): their queue "
                             "interrupts go one per core, and RPS is off.");
    if (!m_wifiIrqs.empty())
        wifiOn(m_online.back(), cpuName(m_online.back()));
}

// A transmit queue of a multi-queue NIC on the CPU that takes its vector's interrupt (the
// core of the same number where no vector names the queue): the CPU that sends on it is the
// one that completes it, and under a multi-queue root qdisc (mq, cake_mq) its own qdisc.
void Planner::xpsPerQueue(const NetInterface& p, int queue, const std::map<int, int>& queueCpu) {
    const auto it = queueCpu.find(queue);
    const int cpu = it != queueCpu.end()
                        ? it->second
                        : m_online[static_cast<std::size_t>(queue) % m_online.size()];
    std::string why = "Transmit queue " + std::to_string(queue) + " on " + cpuName(cpu) +
                      (it != queueCpu.end() ? ", the core that takes its interrupt"
                                            : ", the core of the same number");
    if (p.multiQueueQdisc())
        why += ": under " + p.rootQdisc + " each queue has a qdisc of its own, so what " +
               cpuName(cpu) + " sends is queued, sent and completed there.";
    else if (!p.rootQdisc.empty() && p.rootQdisc != "noqueue")
        why += " (its root qdisc " + p.rootQdisc +
               " is one for all queues: every packet passes its one lock first).";
    else
        why += ".";
    m_layout.tx.push_back({p.name, queue, one(cpu, m_width), why});
}

void Planner::uniformWithWifi() {
    const int wifiCpu = m_online.back();
    std::vector<int> net(m_online.begin() + 1, m_online.end() - 1); // CPU0 keeps the system
    m_layout.notes.push_back(cpuName(m_online.front()) + " keeps the system's interrupts, " +
                             cpuName(wifiCpu) + " the Wi-Fi, and the network alternates over " +
                             CpuMask::fromCpus(net).toList() + ".");
    for (const auto& u : m_units) {
        // The essedma driver serves its transmit queues four to a CPU: keep groups of four.
        std::size_t tx = 0, rx = 0;
        for (auto irq : u.irqs) {
            const auto* row = m_snap.interrupts.findIrq(irq);
            const std::string action = row && !row->actions.empty() ? row->actions.front() : "";
            const bool isTx =
                action.find("_tx") != std::string::npos || action.find("-tx") != std::string::npos;
            const std::size_t slot = isTx ? (tx++ / 4) : rx++;
            // Start from the highest network core: the lowest gets the receive steering first.
            const int cpu = net[(net.size() - 1 + net.size() * 8 - slot) % net.size()];
            setIrq(irq, one(cpu, m_width),
                   u.name() + " " + (isTx ? "transmit" : "receive") +
                       " interrupts alternate over " + CpuMask::fromCpus(net).toList() +
                       (isTx ? ", four queues at a time." : "."));
        }
        for (const auto* p : u.ports) {
            for (const auto& q : p->rx)
                m_layout.rx.push_back(
                    {p->name, q.index,
                     one(net[static_cast<std::size_t>(q.index) % net.size()], m_width), 256u,
                     "Receive queues alternate over the network cores."});
            for (const auto& q : p->tx)
                if (q.xpsCpus)
                    m_layout.tx.push_back(
                        {p->name, q.index,
                         one(net[static_cast<std::size_t>(q.index) % net.size()], m_width),
                         "Transmit queues alternate over the network cores."});
        }
    }
    m_layout.rpsSockFlowEntries = 1024;
    wifiOn(wifiCpu, cpuName(wifiCpu));
    // The Wi-Fi interfaces' own queues follow their interrupts.
    for (const auto& nif : m_snap.interfaces) {
        if (!nif.isWireless() || nif.isVirtual())
            continue;
        for (const auto& q : nif.rx)
            m_layout.rx.push_back({nif.name, q.index, one(wifiCpu, m_width), 256u,
                                   "Wi-Fi receive processing on the Wi-Fi core."});
        for (const auto& q : nif.tx)
            if (q.xpsCpus)
                m_layout.tx.push_back({nif.name, q.index, one(wifiCpu, m_width),
                                       "Wi-Fi transmit queues on the Wi-Fi core."});
    }
}

void Planner::uniform() {
    // Each NIC's interrupts on a core of its own, from CPU1 up (CPU0 keeps the system's);
    // RPS over the remaining cores.
    std::set<int> irqCpus;
    for (std::size_t i = 0; i < m_units.size(); ++i) {
        const int cpu = m_online[(i + 1) % m_online.size()];
        irqCpus.insert(cpu);
        for (auto irq : m_units[i].irqs)
            setIrq(irq, one(cpu, m_width),
                   m_units[i].name() + "'s interrupts on " + cpuName(cpu) + ".");
    }
    for (const auto& u : m_units) {
        CpuMask rest(m_width);
        for (int c : m_online)
            if (!irqCpus.count(c) || m_online.size() <= m_units.size())
                rest.set(c);
        setRps(u, rest,
               u.name() + "'s receive processing spread over " + rest.toList() +
                   ", away from the interrupt cores.");
    }
    m_layout.notes.push_back(
        "Each NIC's interrupts get a core of their own; RPS spreads the rest of the work.");
    if (!m_wifiIrqs.empty())
        wifiOn(m_online.back(), cpuName(m_online.back()));
}

// The Wi-Fi's interrupts on one CPU; but ath11k's data-path rings (its own names, on AHB)
// one per core by ring number, as qualcommax's /etc/init.d/smp_affinity places them: each
// of the four REO destination rings takes received frames of its own flows, and each TX
// completion ring and PPDU end interrupt serves one radio.
void Planner::wifiOn(int cpu, const std::string& what) {
    const std::size_t n = m_online.size();
    for (auto irq : m_wifiIrqs) {
        const auto* row = m_snap.interrupts.findIrq(irq);
        const std::string action = row && !row->actions.empty() ? row->actions.front() : "";
        auto ring = [&](std::string_view prefix) -> std::optional<std::size_t> {
            if (n < 2 || !text::startsWith(action, prefix))
                return std::nullopt;
            const auto k = text::parseU64(std::string_view(action).substr(prefix.size()));
            if (!k || *k < 1 || *k > 64)
                return std::nullopt;
            return static_cast<std::size_t>(*k);
        };
        if (const auto k = ring("reo2host-destination-ring")) {
            const int c = m_online[(*k - 1) % n];
            setIrq(irq, one(c, m_width),
                   "Wi-Fi receive ring " + std::to_string(*k) + " (ath11k REO) on " + cpuName(c) +
                       ": the rings take flows of their own, one core each.");
            continue;
        }
        std::optional<std::size_t> k = ring("wbm2host-tx-completions-ring");
        if (!k)
            k = ring("ppdu-end-interrupts-mac");
        if (k) {
            const int c = m_online[*k % n];
            setIrq(irq, one(c, m_width),
                   "Wi-Fi " + action + " (ath11k) on " + cpuName(c) +
                       ": one core for each radio's ring, as the firmware spreads them.");
            continue;
        }
        setIrq(irq, one(cpu, m_width), "Wi-Fi interrupts on " + what + ".");
    }
}

} // namespace coresteer::layout::detail

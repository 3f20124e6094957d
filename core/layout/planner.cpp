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
#include "core/layout/planner.h"

#include "core/base/text.h"
#include "core/layout/resolve.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

namespace coresteer::layout {

namespace {

// One NIC as the planner sees it: one interface, or the ports that share a frame engine's IRQs.
struct Unit {
    std::vector<const NetInterface*> ports;
    std::vector<std::uint32_t> irqs; // in hwirq order
    std::string name() const {
        std::string s;
        for (const auto* p : ports)
            s += (s.empty() ? "" : "+") + p->name;
        return s;
    }
    int speed() const {
        int best = 0;
        for (const auto* p : ports)
            best = std::max(best, p->speedMbps.value_or(0));
        return best;
    }
};

CpuMask one(int cpu, int width) {
    return CpuMask::fromCpus({cpu}, width);
}

std::string cpuName(int cpu) {
    return "CPU" + std::to_string(cpu);
}

class Planner {
public:
    Planner(const Snapshot& s, const PlanGoal& goal)
        : m_snap(s), m_goal(goal), m_names(s), m_width(std::max(s.topology.maskWidth, 1)) {}

    Layout run() {
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
        if (topo.classes.size() >= 2)
            bigLittle();
        else if (hasRss())
            rss();
        else if (!m_wifiIrqs.empty() && m_online.size() >= 4)
            uniformWithWifi();
        else
            uniform();
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

private:
    // A cpufreq policy that holds its CPUs back, where this layout puts network work: a governor
    // that holds one low frequency (powersave, userspace) or climbs slowly (conservative) is
    // replaced by schedutil where the kernel has it (it follows the load and still idles low),
    // else by performance; a lowered scaling_max_freq is the owner's choice, so it gets a note.
    void governors() {
        CpuMask busy;
        for (const auto& t : m_layout.irqs)
            busy = busy | t.cpus;
        for (const auto& t : m_layout.rx)
            if (t.rpsCpus)
                busy = busy | *t.rpsCpus;
        for (const auto& t : m_layout.interfaces)
            for (const auto& m : {t.napiCpus, t.txWorkerCpus})
                if (m)
                    busy = busy | *m;
        for (const auto& p : m_snap.topology.policies) {
            const auto slow = p.slowBecause();
            const auto both = p.cpus & busy;
            if (slow.empty() || both.none())
                continue;
            auto has = [&](const char* g) {
                return std::find(p.available.begin(), p.available.end(), g) != p.available.end();
            };
            const bool slowGovernor = p.slowGovernor();
            // The one asked for, else the other; none when asked to keep governors.
            const char* first = m_goal.governor == "performance" ? "performance" : "schedutil";
            const char* second = m_goal.governor == "performance" ? "schedutil" : "performance";
            const char* better = m_goal.governor.empty() ? nullptr
                                 : has(first)            ? first
                                 : has(second)           ? second
                                                         : nullptr;
            const auto policy = "cpufreq policy" + std::to_string(p.id);
            const bool capped = p.maxKHz && p.hwMaxKHz && *p.maxKHz < *p.hwMaxKHz;
            const std::string raise =
                capped ? " scaling_max_freq (" + std::to_string(*p.maxKHz / 1000) + " of " +
                             std::to_string(*p.hwMaxKHz / 1000) +
                             " MHz) is the owner's setting: raise it in /sys/devices/system/cpu/"
                             "cpufreq/policy" +
                             std::to_string(p.id) + " (or the firmware's cpufreq settings)."
                       : std::string();
            if (slowGovernor && better) {
                m_layout.governors.push_back(
                    {p.id, better,
                     "CPU " + both.toList() + " carry this layout's network work, and " + slow +
                         ": " + better +
                         (std::string(better) == "schedutil"
                              ? " follows the load (up at once under traffic, down when idle)."
                              : " keeps the clock at its highest.")});
                m_layout.notes.push_back("CPU " + both.toList() +
                                         " carry this layout's network "
                                         "work, and " +
                                         slow + " (" + policy + "): this layout sets the " +
                                         better + " governor there." + raise);
            } else {
                m_layout.notes.push_back(
                    "CPU " + both.toList() + " carry this layout's network work, and " + slow +
                    " (" + policy + "): that caps their throughput." +
                    (!slowGovernor             ? raise
                     : m_goal.governor.empty() ? std::string(" Governors are left as they are "
                                                             "(asked so).")
                                               : std::string(" This kernel offers neither "
                                                             "schedutil nor performance there.")));
            }
        }
    }

    // irqbalance moves every IRQ it has not been told to leave alone: the note says how many of
    // this layout's IRQs it would move, and what to do about it.
    void irqbalanceNote() {
        if (!m_snap.system.irqbalanceRunning.value_or(false))
            return;
        const auto banned = m_snap.system.services.irqbalance.all();
        std::size_t moved = 0;
        for (const auto& t : m_layout.irqs)
            if (const auto irq = m_names.find(t.irq);
                !irq || !std::binary_search(banned.begin(), banned.end(), *irq))
                ++moved;
        if (moved == 0)
            return;
        m_layout.notes.push_back(
            "irqbalance is running and will move " +
            (moved == m_layout.irqs.size() ? std::string("these IRQs")
                                           : std::to_string(moved) + " of these IRQs") +
            " again within seconds; ban them in it when making the layout persistent "
            "(persist --irqbalance-ban), or stop and disable it before applying.");
    }

    // Threaded NAPI moves the receive work out of the softirq into kthreads, which the
    // scheduler places anywhere: pin them where the planner put the interface's receive work.
    // A driver's own NAPI device (napi/mtk_eth-N) serves all of its interfaces: the first of
    // them with planned work places its threads, and the others leave them there.
    void pinNapiThreads() {
        std::set<int> placed;
        for (const auto& nif : m_snap.interfaces) {
            if (nif.napi.empty() || !validInterfaceName(nif.name) ||
                std::all_of(nif.napi.begin(), nif.napi.end(),
                            [&](const NapiThread& t) { return placed.count(t.pid) > 0; }))
                continue;
            CpuMask rps(m_width), irqs(m_width);
            for (const auto& t : m_layout.rx)
                if (t.interface == nif.name && t.rpsCpus)
                    rps = rps | *t.rpsCpus;
            for (const auto& t : m_layout.irqs)
                if (const auto irq = m_names.find(t.irq))
                    if (std::find(nif.irqs.begin(), nif.irqs.end(), *irq) != nif.irqs.end())
                        irqs = irqs | t.cpus;
            const bool useRps = !rps.none();
            const auto cpus = useRps ? rps : irqs;
            if (cpus.none())
                continue;
            for (const auto& t : nif.napi)
                placed.insert(t.pid);
            InterfaceTarget t;
            t.interface = nif.name;
            t.napiCpus = cpus;
            t.why = "Threaded NAPI: its poll threads do the receive work, so they run where that "
                    "work was planned (" +
                    cpus.toList() + (useRps ? ", its RPS CPUs" : ", beside its IRQs") + ").";
            m_layout.interfaces.push_back(std::move(t));
        }
    }

    // mt76's TX worker ("mt76-tx phy0") feeds a radio's transmit queues; on the CPU that runs the
    // radio's receive poll, each waits for the other. It gets a CPU of its own beside them: the
    // one with the least of this layout's network work, the faster class first.
    void pinTxWorkers() {
        std::set<int> placed;
        for (const auto& nif : m_snap.interfaces) {
            if (nif.txWorkers.empty() || !validInterfaceName(nif.name) ||
                placed.count(nif.txWorkers.front().pid))
                continue;
            // The radio's interfaces: those its TX worker serves.
            std::set<std::string> radio;
            for (const auto& other : m_snap.interfaces)
                for (const auto& w : other.txWorkers)
                    if (w.pid == nif.txWorkers.front().pid)
                        radio.insert(other.name);
            CpuMask poll(m_width), irqs(m_width);
            for (const auto& t : m_layout.interfaces)
                if (t.napiCpus && radio.count(t.interface))
                    poll = poll | *t.napiCpus;
            for (const auto& name : radio)
                if (const auto* r = m_snap.interface(name))
                    for (const auto irq : r->irqs)
                        irqs = irqs | irqCpus(irq);
            if (poll.none())
                for (const auto& name : radio)
                    if (const auto* r = m_snap.interface(name); r && r->napiMask())
                        poll = poll | *r->napiMask();
            const auto cpu = quietestCpu(poll | irqs);
            const auto worker = nif.txWorkers.front().name;
            for (const auto& w : nif.txWorkers)
                placed.insert(w.pid);
            if (!cpu) {
                m_layout.notes.push_back(
                    worker + " (mt76's TX worker) stays where it is: the radio's receive poll "
                             "and IRQs may run on every CPU, so none is left for it.");
                continue;
            }
            const auto busy = poll | irqs;
            const std::string why =
                worker + " feeds the radio's transmit queues: on " + cpuName(*cpu) +
                ", away from the CPUs of its receive poll and IRQs (" + busy.toList() +
                "), so that neither waits for the other (OpenWrt issue 24697: a BPI-R4 went from "
                "1.45 to 2.09 Gbit/s of Wi-Fi so).";
            // A target of its own, so that its reason is its own.
            InterfaceTarget t;
            t.interface = nif.name;
            t.txWorkerCpus = one(*cpu, m_width);
            t.why = why;
            m_layout.interfaces.push_back(std::move(t));
        }
    }

    // Where the layout puts an IRQ, else where it is now (its effective CPUs, else its mask).
    CpuMask irqCpus(std::uint32_t irq) const {
        for (const auto& t : m_layout.irqs)
            if (m_names.find(t.irq) == irq)
                return t.cpus;
        if (const auto* info = m_snap.irq(irq))
            if (const auto& m =
                    info->effectiveAffinity ? info->effectiveAffinity : info->smpAffinity)
                return *m;
        return CpuMask(m_width);
    }

    // The online CPU outside `avoid` that carries the least of this layout's network work
    // (IRQs, RPS, XPS and threads it places), the faster class first, then the lowest number.
    std::optional<int> quietestCpu(const CpuMask& avoid) const {
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

    void collectUnits() {
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
                const auto ha = ra && ra->hwirq ? *ra->hwirq : a,
                           hb = rb && rb->hwirq ? *rb->hwirq : b;
                return ha != hb ? ha < hb : a < b;
            });
            m_units.push_back(std::move(u));
        }
        std::sort(m_units.begin(), m_units.end(),
                  [](const Unit& a, const Unit& b) { return a.name() < b.name(); });
    }

    // Separately named transmit and receive IRQs (edma_eth_tx3, eth0-rx-1): queues that the
    // driver pairs with CPUs itself, not rings to spread one per core.
    bool splitTxRx(const Unit& u) const {
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

    bool hasRss() const {
        for (const auto& u : m_units)
            if (u.irqs.size() >= 2 && !splitTxRx(u))
                return true;
        return false;
    }

    void setIrq(std::uint32_t irq, const CpuMask& cpus, const std::string& why) {
        if (const auto sel = m_names.selectorOf(irq))
            m_layout.irqs.push_back({*sel, cpus, why});
    }

    void setRps(const Unit& u, const CpuMask& cpus, const std::string& why) {
        for (const auto* p : u.ports)
            for (const auto& q : p->rx)
                m_layout.rx.push_back({p->name, q.index, cpus, std::nullopt, why});
    }

    void setXps(const Unit& u, const CpuMask& cpus, const std::string& why) {
        for (const auto* p : u.ports)
            for (const auto& q : p->tx)
                if (q.xpsCpus)
                    m_layout.tx.push_back({p->name, q.index, cpus, why});
    }

    void bigLittle() {
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
            "Interrupts go to " + littleName + " cores and packet processing (RPS, XPS) to " +
            bigName +
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
                       u->name() + " is slower than the others: its interrupts stay on " +
                           littleName + " " + cpuName(irqCpu) + ".");
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

    // A transmit queue of a multi-queue NIC on the CPU that takes its vector's interrupt (the
    // core of the same number where no vector names the queue): the CPU that sends on it is the
    // one that completes it, and under a multi-queue root qdisc (mq, cake_mq) its own qdisc.
    void xpsPerQueue(const NetInterface& p, int queue, const std::map<int, int>& queueCpu) {
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

    // A NIC's vector that serves no queue: named exactly as the interface (igb, igc, ixgbe:
    // "eth0" beside "eth0-TxRx-0" ...), it takes link changes and other rare events. Only where
    // the unit's other vectors name their queues.
    bool miscVector(const Unit& u, std::uint32_t irq) const {
        const auto* info = m_snap.irq(irq);
        const auto* row = m_snap.interrupts.findIrq(irq);
        if (!info || info->role != IrqRole::Unknown || !row || row->actions.size() != 1)
            return false;
        const bool named = std::any_of(u.ports.begin(), u.ports.end(), [&](const auto* p) {
            return p->name == row->actions.front();
        });
        return named && std::any_of(u.irqs.begin(), u.irqs.end(), [&](std::uint32_t other) {
                   const auto* o = m_snap.irq(other);
                   return o && o->role != IrqRole::Unknown;
               });
    }

    void rss() {
        const std::size_t n = m_online.size();
        std::size_t offset = 0; // the next unit starts where the last one ended
        for (auto u : m_units) {
            std::erase_if(u.irqs, [&](std::uint32_t irq) {
                if (!miscVector(u, irq))
                    return false;
                const int cpu = m_online.front();
                setIrq(irq, one(cpu, m_width),
                       u.name() + "'s link interrupt on " + cpuName(cpu) +
                           ": it serves no queue and fires only on link changes and errors.");
                return true;
            });
            if (u.irqs.empty())
                continue;
            if (u.irqs.size() == 1) {
                const int cpu = m_online[offset++ % n];
                setIrq(u.irqs.front(), one(cpu, m_width),
                       u.name() + " has a single queue: its interrupt on " + cpuName(cpu) + ".");
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
                const int cpu = m_online[(offset + i) % n];
                note(i, cpu);
                setIrq(u.irqs[i], one(cpu, m_width),
                       u.name() + " queue interrupt " + std::to_string(i) + " on " + cpuName(cpu) +
                           ": the NIC spreads flows over its queues (RSS), one queue per core.");
            }
            if (!frameEngine)
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

    void uniformWithWifi() {
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
                const bool isTx = action.find("_tx") != std::string::npos ||
                                  action.find("-tx") != std::string::npos;
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

    void uniform() {
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
    void wifiOn(int cpu, const std::string& what) {
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
                       "Wi-Fi receive ring " + std::to_string(*k) + " (ath11k REO) on " +
                           cpuName(c) + ": the rings take flows of their own, one core each.");
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

    const Snapshot& m_snap;
    const PlanGoal& m_goal;
    IrqNames m_names;
    int m_width;
    std::vector<int> m_online;
    std::vector<Unit> m_units;
    std::vector<std::uint32_t> m_wifiIrqs;
    Layout m_layout;
};

} // namespace

Layout plan(const Snapshot& snap, const PlanGoal& goal) {
    return Planner(snap, goal).run();
}

} // namespace coresteer::layout

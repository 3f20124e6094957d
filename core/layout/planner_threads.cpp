// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// What the planner places beside the IRQs and queues: threaded NAPI's and mt76's TX worker's
// kernel threads, cpufreq governors under the network work, and a note on irqbalance.

#include "core/layout/planner_detail.h"

#include <set>

namespace coresteer::layout::detail {

// A cpufreq policy that holds its CPUs back, where this layout puts network work: a governor
// that holds one low frequency (powersave, userspace) or climbs slowly (conservative) is
// replaced by schedutil where the kernel has it (it follows the load and still idles low),
// else by performance; a lowered scaling_max_freq is the owner's choice, so it gets a note.
void Planner::governors() {
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
                 "CPU " + both.toList() + " carry this layout's network work, and " + slow + ": " +
                     better +
                     (std::string(better) == "schedutil"
                          ? " follows the load (up at once under traffic, down when idle)."
                          : " keeps the clock at its highest.")});
            m_layout.notes.push_back("CPU " + both.toList() +
                                     " carry this layout's network "
                                     "work, and " +
                                     slow + " (" + policy + "): this layout sets the " + better +
                                     " governor there." + raise);
        } else {
            m_layout.notes.push_back(
                "CPU " + both.toList() + " carry this layout's network work, and " + slow + " (" +
                policy + "): that caps their throughput." +
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
void Planner::irqbalanceNote() {
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
void Planner::pinNapiThreads() {
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
void Planner::pinTxWorkers() {
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

} // namespace coresteer::layout::detail

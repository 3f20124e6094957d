// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The planner's working state, shared by its files: planner.cpp (the run, the NICs it plans
// for, and the writes it proposes), planner_placement.cpp (where each kind of router puts its
// interrupts and steering) and planner_threads.cpp (kernel threads, governors, irqbalance).
// Internal to core/layout.
#pragma once

#include "core/layout/planner.h"
#include "core/layout/resolve.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace coresteer::layout::detail {

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

inline CpuMask one(int cpu, int width) {
    return CpuMask::fromCpus({cpu}, width);
}

inline std::string cpuName(int cpu) {
    return "CPU" + std::to_string(cpu);
}

class Planner {
public:
    Planner(const Snapshot& s, const PlanGoal& goal)
        : m_snap(s), m_goal(goal), m_names(s), m_width(std::max(s.topology.maskWidth, 1)) {}

    Layout run();

private:
    // The NICs, and the writes the layout proposes (planner.cpp).
    void collectUnits();
    // Where the layout puts an IRQ, else where it is now (its effective CPUs, else its mask).
    CpuMask irqCpus(std::uint32_t irq) const;
    // The online CPU outside `avoid` that carries the least of this layout's network work
    // (IRQs, RPS, XPS and threads it places), the faster class first, then the lowest number.
    std::optional<int> quietestCpu(const CpuMask& avoid) const;
    // Separately named transmit and receive IRQs (edma_eth_tx3, eth0-rx-1): queues that the
    // driver pairs with CPUs itself, not rings to spread one per core.
    bool splitTxRx(const Unit& u) const;
    bool hasRss() const;
    std::size_t receiveQueues(const Unit& u) const;
    // A NIC's vector that serves no queue: one its name says so of (virtio's "virtio1-config"),
    // or one named exactly as the interface (igb, igc, ixgbe: "eth0" beside "eth0-TxRx-0" ...)
    // where the unit's other vectors name their queues. It takes link or configuration changes
    // and other rare events.
    bool miscVector(const Unit& u, std::uint32_t irq) const;
    void setIrq(std::uint32_t irq, const CpuMask& cpus, const std::string& why);
    void setRps(const Unit& u, const CpuMask& cpus, const std::string& why);
    void setXps(const Unit& u, const CpuMask& cpus, const std::string& why);

    // Where each kind of router puts interrupts and steering (planner_placement.cpp).
    void bigLittle();
    void rss();
    // A transmit queue of a multi-queue NIC on the CPU that takes its vector's interrupt (the
    // core of the same number where no vector names the queue): the CPU that sends on it is the
    // one that completes it, and under a multi-queue root qdisc (mq, cake_mq) its own qdisc.
    void xpsPerQueue(const NetInterface& p, int queue, const std::map<int, int>& queueCpu);
    void uniformWithWifi();
    void uniform();
    // The Wi-Fi's interrupts on one CPU; but ath11k's data-path rings (its own names, on AHB)
    // one per core by ring number, as qualcommax's /etc/init.d/smp_affinity places them: each
    // of the four REO destination rings takes received frames of its own flows, and each TX
    // completion ring and PPDU end interrupt serves one radio.
    void wifiOn(int cpu, const std::string& what);

    // The other shapes a measurement may prefer (planner_alternatives.cpp).
    void allOnFastCores();
    void rpsOverAllCores();
    void irqPerCoreNoRps();
    void irqsTogether();
    CpuMask mask(const std::vector<int>& cpus) const;

    // Kernel threads, cpufreq governors and irqbalance (planner_threads.cpp).
    // A cpufreq policy that holds its CPUs back, where this layout puts network work: a governor
    // that holds one low frequency (powersave, userspace) or climbs slowly (conservative) is
    // replaced by schedutil where the kernel has it (it follows the load and still idles low),
    // else by performance; a lowered scaling_max_freq is the owner's choice, so it gets a note.
    void governors();
    // irqbalance moves every IRQ it has not been told to leave alone: the note says how many of
    // this layout's IRQs it would move, and what to do about it.
    void irqbalanceNote();
    // Threaded NAPI moves the receive work out of the softirq into kthreads, which the
    // scheduler places anywhere: pin them where the planner put the interface's receive work.
    // A driver's own NAPI device (napi/mtk_eth-N) serves all of its interfaces: the first of
    // them with planned work places its threads, and the others leave them there.
    void pinNapiThreads();
    // mt76's TX worker ("mt76-tx phy0") feeds a radio's transmit queues; on the CPU that runs the
    // radio's receive poll, each waits for the other. It gets a CPU of its own beside them: the
    // one with the least of this layout's network work, the faster class first.
    void pinTxWorkers();

    const Snapshot& m_snap;
    const PlanGoal& m_goal;
    IrqNames m_names;
    int m_width;
    std::vector<int> m_online;
    std::vector<Unit> m_units;
    std::vector<std::uint32_t> m_wifiIrqs;
    Layout m_layout;
};

} // namespace coresteer::layout::detail

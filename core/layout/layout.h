// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// Layout: which CPUs serve each IRQ and queue, named by what survives a reboot.
//
// IRQ numbers change between boots and kernels, so an IRQ is named by its action name
// ("eth1-16", "eth0-TxRx-3", "15100000.ethernet") and, where several IRQs share one action
// name (a frame engine's rings), by its position among them in hwirq order. Queues are named by
// interface and index.
#pragma once

#include "core/base/cpumask.h"
#include "core/model/rss.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace coresteer::layout {

struct IrqSelector {
    std::string action; // the first action name of the IRQ
    int index = 0;      // among IRQs with this action name, ordered by hwirq (then IRQ number)

    bool operator==(const IrqSelector&) const = default;
    std::string display() const; // "eth1-16", "15100000.ethernet #2"
};

struct IrqTarget {
    IrqSelector irq;
    CpuMask cpus;
    std::string why; // one sentence: why these CPUs
};

struct RxQueueTarget {
    std::string interface;
    int queue = 0;
    std::optional<CpuMask> rpsCpus; // empty mask: RPS off
    std::optional<std::uint32_t> rpsFlowCnt;
    std::string why;
};

struct TxQueueTarget {
    std::string interface;
    int queue = 0;
    CpuMask xpsCpus;
    std::string why;
};

// Channel (queue pair) counts, `ethtool -L <if> combined N` (rx, tx where a driver counts them
// apart); a kind not set is left as it is.
struct ChannelCounts {
    std::optional<std::uint32_t> rx, tx, combined;
    bool any() const { return rx || tx || combined; }
    bool operator==(const ChannelCounts&) const = default;
};

// Per-interface settings that are not the mask of one IRQ or queue.
struct InterfaceTarget {
    std::string interface;
    // Where the interface's threaded-NAPI kthreads ("napi/eth0-*") may run; applied with
    // `taskset -p`, only where /sys/class/net/<if>/threaded is 1.
    std::optional<CpuMask> napiCpus;
    // Where mt76's TX worker of the interface's radio ("mt76-tx phy0") may run; applied with
    // `taskset -p`. Off the CPUs of the radio's NAPI poll, it feeds the radio while they
    // receive.
    std::optional<CpuMask> txWorkerCpus;
    // Threaded NAPI on (true) or off, /sys/class/net/<if>/threaded (Linux 5.12 on): the receive
    // work then runs in the interface's own kthreads (which napiCpus places) instead of the
    // softirq of the CPU that took the interrupt.
    std::optional<bool> threaded;
    // Interrupt coalescing, `ethtool -C <if> rx-usecs N`: fewer interrupts per packet.
    std::optional<std::uint32_t> rxUsecs;
    // `ethtool -C <if> rx-frames N`: the frames one interrupt may wait for (with rx-usecs, the
    // first of the two reached ends the wait).
    std::optional<std::uint32_t> rxFrames;
    // How many receive and transmit queues the NIC runs (`ethtool -L`), and how its RSS
    // indirection table spreads flows over the receive rings (`ethtool -X`). A new channel count
    // goes first: the spread and the queues' masks are those of the new queues.
    ChannelCounts channels;
    std::optional<RssSpread> rss;
    std::string why;
};

// The cpufreq governor of one policy (/sys/devices/system/cpu/cpufreq/policyN/scaling_governor):
// the CPUs that take the network work should not be held at a low clock.
struct GovernorTarget {
    int policy = 0;       // N of policyN: the policy's first CPU, the same at every boot
    std::string governor; // "schedutil", "performance": one of scaling_available_governors
    std::string why;
};

struct Layout {
    std::vector<IrqTarget> irqs;
    std::vector<RxQueueTarget> rx;
    std::vector<TxQueueTarget> tx;
    std::vector<InterfaceTarget> interfaces;
    std::vector<GovernorTarget> governors;
    std::optional<std::uint32_t> rpsSockFlowEntries;
    // Sentences that explain the layout as a whole ("one core: nothing to spread").
    std::vector<std::string> notes;

    bool empty() const {
        return irqs.empty() && rx.empty() && tx.empty() && interfaces.empty() &&
               governors.empty() && !rpsSockFlowEntries;
    }
};

} // namespace coresteer::layout

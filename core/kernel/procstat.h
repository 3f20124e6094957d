// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// /proc/stat (CPU time counters), /proc/softirqs and /proc/net/dev.
#pragma once

#include "core/base/diagnostics.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace coresteer {

// One "cpu" or "cpuN" line of /proc/stat, in USER_HZ ticks. Kernels print 4 to 10 fields;
// absent ones are 0.
struct CpuTimes {
    enum Field { User, Nice, System, Idle, IoWait, Irq, SoftIrq, Steal, Guest, GuestNice, Count };
    int cpu = -1; // -1 for the aggregate "cpu" line
    std::array<std::uint64_t, Count> ticks{};
    int fields = 0; // how many the kernel printed

    std::uint64_t get(Field f) const { return ticks[f]; }
    // Total time, without guest time (already counted in user and nice).
    std::uint64_t total() const;
    std::uint64_t idleAll() const { return ticks[Idle] + ticks[IoWait]; }
    bool operator==(const CpuTimes&) const = default;
};

struct ProcStat {
    std::optional<CpuTimes> all;
    std::vector<CpuTimes> cpus; // online CPUs, in file order
    std::optional<std::uint64_t> contextSwitches, bootTime, processes;

    const CpuTimes* cpu(int id) const;
};

ProcStat parseProcStat(std::string_view data, Diagnostics& diag,
                       const std::string& file = "proc/stat");

// /proc/softirqs: a row per softirq (HI, TIMER, NET_TX, NET_RX, ...) and a column per CPU.
struct SoftirqTable {
    struct Row {
        std::string name;
        std::vector<std::uint64_t> counts; // one per column
    };
    std::vector<int> cpus; // CPU ids of the columns
    std::vector<Row> rows;

    const Row* find(std::string_view name) const;
};

SoftirqTable parseSoftirqs(std::string_view data, Diagnostics& diag,
                           const std::string& file = "proc/softirqs");

// /proc/net/dev: byte, packet, error and drop counters per interface.
struct NetDevCounters {
    enum Field {
        RxBytes,
        RxPackets,
        RxErrs,
        RxDrop,
        RxFifo,
        RxFrame,
        RxCompressed,
        RxMulticast,
        TxBytes,
        TxPackets,
        TxErrs,
        TxDrop,
        TxFifo,
        TxColls,
        TxCarrier,
        TxCompressed,
        Count
    };
    std::string name;
    std::array<std::uint64_t, Count> values{};

    std::uint64_t get(Field f) const { return values[f]; }
};

std::vector<NetDevCounters> parseNetDev(std::string_view data, Diagnostics& diag,
                                        const std::string& file = "proc/net/dev");

// Parses a header of "CPU0 CPU1 ..." tokens (shared by /proc/softirqs and /proc/interrupts).
bool parseCpuHeader(std::string_view line, std::vector<int>& cpus, std::string& error);

} // namespace coresteer

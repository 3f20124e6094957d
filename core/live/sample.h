// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// One live sample of a router's counters, and the rates between two samples.
//
// A sample holds /proc/uptime, /proc/stat, /proc/softirqs, /proc/interrupts and /proc/net/dev,
// parsed by the same parsers as a snapshot. Rates use the router's uptime as the clock, so a
// late or bunched tick on the client side does not distort them. Counters that went backwards
// (a reset, a 32-bit wrap, an interface re-created) give no rate for that tick rather than a
// huge one; CPUs that went offline or came online are left out until both samples have them.
#pragma once

#include "core/base/diagnostics.h"
#include "core/kernel/interrupts.h"
#include "core/kernel/procstat.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace coresteer::live {

struct Sample {
    double uptime = 0; // seconds, from /proc/uptime (or dated by estimateUptime)
    // When /proc/softirqs, /proc/interrupts and /proc/net/dev were read, where a tick read
    // /proc/stat alone (the live sampler reads them about once a second): -1 when they were
    // read with this tick, NaN when no tick has read them yet.
    double countersUptime = -1;
    double countersAt() const { return countersUptime < 0 ? uptime : countersUptime; }
    ProcStat stat;
    SoftirqTable softirqs;
    InterruptTable interrupts;
    std::vector<NetDevCounters> netdev;
};

struct SampleTexts {
    std::string uptime, stat, softirqs, interrupts, netdev;
    // "" when every file was read with this tick; else the uptime of the tick that read the
    // last three ("?" none), this one having read /proc/stat alone.
    std::string countersUptime = {};
};

// Parses the five files; nullopt with an error naming the file and line when /proc/uptime or
// /proc/stat is unusable (the others may be empty: their rates are then absent).
std::optional<Sample> parseSample(const SampleTexts& t, Diagnostics& diag);
// parseSample's parts, for a reader that parses again only the files that changed: the uptime,
// and one of the other files by its sampler source (s stat, q softirqs, i interrupts, n net/dev)
// into its part of `s`; false (with an error) when /proc/stat has no cpuN lines.
std::optional<double> parseUptime(std::string_view text, Diagnostics& diag);
// SampleTexts::countersUptime as Sample::countersUptime.
double parseCountersUptime(std::string_view text);
bool parseSampleFile(char source, std::string_view text, Sample& s, Diagnostics& diag);

// The uptime of a tick that read /proc/stat and no uptime (the live sampler's ticks between
// whole ones, stream.h): the uptime `since` of the last tick that read one, whose /proc/stat was
// `sinceStat`, plus how far the CPUs' times moved since then: the mean over the CPUs in both
// of their total (user to steal) time, in the kernel's USER_HZ of 100 a second (the unit of
// /proc/stat on every architecture a router runs; each CPU's total grows by it while online).
// Its error is the rounding of those counters to 10 ms, as /proc/uptime's own. The result is
// at least 1 ms after `after` (the tick before, so that time moves on) and at most
// `atMostSeconds` after `since`. nullopt when no CPU is in both with a total that did not go
// backwards, or when the times say more than `atMostSeconds` went by (a router's counters
// that are not to be believed).
std::optional<double> estimateUptime(double since, const ProcStat& sinceStat, const ProcStat& stat,
                                     double after, double atMostSeconds);

struct CoreLoad {
    int cpu = -1;
    // Shares of the interval, 0..1: user includes nice, system, irq and softirq as the kernel
    // counts them; idle includes iowait.
    double user = 0, system = 0, irq = 0, softirq = 0, iowait = 0, steal = 0, idle = 1;
    double busy() const { return 1.0 - idle; }
    // What packet processing costs: irq + softirq + system.
    double kernel() const { return irq + softirq + system; }
    bool operator==(const CoreLoad&) const = default;
};

struct IrqRate {
    std::uint32_t irq = 0;
    // Per second, indexed by CPU id (0 for absent CPUs); empty when the IRQ did not fire.
    std::vector<double> perCpu;
    double total = 0;
    bool operator==(const IrqRate&) const = default;
};

struct IfaceRate {
    std::string name;
    double rxBitsPerSec = 0, txBitsPerSec = 0, rxPacketsPerSec = 0, txPacketsPerSec = 0;
    bool operator==(const IfaceRate&) const = default;
};

struct Rates {
    double start = 0, end = 0; // uptime of the two samples
    // The uptimes the IRQ, softirq and interface rates are between: start and end, unless a
    // sample read /proc/stat alone (then they are the last such rates, held).
    double countersStart = 0, countersEnd = 0;
    std::vector<CoreLoad> cores;      // by CPU id, for CPUs in both samples
    std::vector<IrqRate> irqs;        // numbered IRQs in both samples
    std::vector<double> netRx, netTx; // NET_RX and NET_TX softirqs per second, by CPU id
    std::vector<IfaceRate> interfaces;
    int resets = 0; // counters that went backwards, left out

    double seconds() const { return end - start; }
    double countersSeconds() const { return countersEnd - countersStart; }
    bool operator==(const Rates&) const = default;
    const CoreLoad* core(int cpu) const;
    const IrqRate* irq(std::uint32_t n) const;
};

// nullopt when the clock did not move forward (the same sample twice, or a reboot between
// them: the caller starts again from `cur`). The IRQ, softirq and interface rates are between
// the two samples' countersAt(); where that did not move (`cur` read /proc/stat alone), they
// are those of `last` (the rates before) when `last` ends there, and absent otherwise.
std::optional<Rates> computeRates(const Sample& prev, const Sample& cur,
                                  const Rates* last = nullptr);

// What computeRates reads of the earlier sample, for a reader that keeps one sample up to date
// (a recording's replay): its parts, and either its whole interrupt table or, when the table
// has the same columns and rows as the later one, only the counts of the rows that were
// different then (by the later table's row index, in order).
struct SampleBefore {
    using Counts = std::vector<std::pair<std::size_t, IrqCounts>>;
    double uptime = 0;
    double countersUptime = -1; // as Sample::countersUptime
    const ProcStat* stat = nullptr;
    const SoftirqTable* softirqs = nullptr;
    const std::vector<NetDevCounters>* netdev = nullptr;
    const InterruptTable* interrupts = nullptr;
    const Counts* replacedCounts = nullptr;
};
std::optional<Rates> computeRates(const SampleBefore& prev, const Sample& cur,
                                  const Rates* last = nullptr);

} // namespace coresteer::live

// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// Topology: the CPUs of a machine and their performance classes (big.LITTLE and beyond).
#pragma once

#include "core/base/cpumask.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace coresteer {

struct CpuInfo {
    int id = 0;
    bool online = true;
    std::optional<std::uint32_t> maxFreqKHz;
    std::optional<std::uint32_t> capacity; // cpu_capacity, 0..1024
    std::optional<int> packageId, coreId, clusterId;
    std::string uarch; // "Cortex-A76", from /proc/cpuinfo's CPU part; or the model name
    int uarchRank = 0; // relative speed of a known ARM core, 0 when unknown
    int perfClass = 0; // index into Topology::classes
};

struct PerfClass {
    std::string name; // "LITTLE", "big", "prime", or "uniform"
    CpuMask cpus;
    int rank = 0; // 0 = slowest
};

// One cpufreq policy: the CPUs that share a clock, and how the kernel drives it
// (/sys/devices/system/cpu/cpufreq/policyN).
struct CpufreqPolicy {
    int id = 0;                         // N of policyN
    CpuMask cpus;                       // related_cpus
    std::string governor;               // scaling_governor ("schedutil", "performance", ...)
    std::vector<std::string> available; // scaling_available_governors
    std::optional<std::uint32_t> minKHz, maxKHz;     // scaling_min_freq, scaling_max_freq
    std::optional<std::uint32_t> hwMinKHz, hwMaxKHz; // cpuinfo_min_freq, cpuinfo_max_freq
    std::optional<std::uint32_t> curKHz;             // scaling_cur_freq

    // Why this policy holds back the work of its CPUs ("the powersave governor keeps it at
    // 408 MHz", "capped at 1200 of 1800 MHz"), or "" when it does not: powersave and
    // userspace hold one frequency, conservative climbs slowly, and a scaling_max_freq below
    // the hardware's caps every governor.
    std::string slowBecause() const;
    // The governor itself holds the clock low or raises it slowly (powersave, userspace,
    // conservative), as opposed to a lowered scaling_max_freq.
    bool slowGovernor() const;
};

// A governor's name as the kernel writes them ("schedutil", "performance"): lower-case letters,
// digits, '_' and '-', at most 32 bytes. Anything else read from a router or a file is not one,
// and is never written.
bool validGovernorName(std::string_view s);

enum class ClassBasis { CpuCapacity, MaxFrequency, CpuPart, None };
const char* toString(ClassBasis b);

struct Topology {
    std::vector<CpuInfo> cpus; // every possible CPU, by id
    CpuMask online;
    CpuMask possible;
    int maskWidth = 0; // nr_cpu_ids: the width the kernel prints masks with
    std::vector<PerfClass> classes;
    ClassBasis basis = ClassBasis::None;
    std::vector<CpufreqPolicy> policies; // by id; empty where the kernel has no cpufreq

    const CpuInfo* cpu(int id) const;
    const PerfClass* classOf(int cpu) const;
};

// Fills `classes`, `basis` and each CPU's perfClass from capacity, frequency or CPU part.
void classifyCores(Topology& topo);

// "Cortex-A76" for implementer 0x41 part 0xd0b; empty when unknown.
std::string armCoreName(unsigned implementer, unsigned part);
// Relative performance of a known ARM core (higher is faster), 0 when unknown.
int armCoreRank(unsigned implementer, unsigned part);

} // namespace coresteer

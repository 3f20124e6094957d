// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/kernel/topology.h"

#include <algorithm>
#include <array>

namespace coresteer {

const char* toString(ClassBasis b) {
    switch (b) {
    case ClassBasis::CpuCapacity:
        return "cpu_capacity";
    case ClassBasis::MaxFrequency:
        return "cpuinfo_max_freq";
    case ClassBasis::CpuPart:
        return "CPU part";
    case ClassBasis::None:
        break;
    }
    return "none";
}

const CpuInfo* Topology::cpu(int id) const {
    for (const auto& c : cpus)
        if (c.id == id)
            return &c;
    return nullptr;
}

const PerfClass* Topology::classOf(int id) const {
    const auto* c = cpu(id);
    if (!c || c->perfClass < 0 || static_cast<std::size_t>(c->perfClass) >= classes.size())
        return nullptr;
    return &classes[static_cast<std::size_t>(c->perfClass)];
}

namespace {

struct ArmCore {
    unsigned implementer, part;
    const char* name;
    int rank; // roughly single-thread performance at equal clock
};

constexpr std::array<ArmCore, 30> kArmCores = {{
    {0x41, 0xc05, "Cortex-A5", 5},    {0x41, 0xc07, "Cortex-A7", 7},
    {0x41, 0xc08, "Cortex-A8", 8},    {0x41, 0xc09, "Cortex-A9", 9},
    {0x41, 0xc0d, "Cortex-A12", 12},  {0x41, 0xc0e, "Cortex-A17", 14},
    {0x41, 0xc0f, "Cortex-A15", 15},  {0x41, 0xd01, "Cortex-A32", 10},
    {0x41, 0xd03, "Cortex-A53", 20},  {0x41, 0xd04, "Cortex-A35", 18},
    {0x41, 0xd05, "Cortex-A55", 22},  {0x41, 0xd07, "Cortex-A57", 30},
    {0x41, 0xd08, "Cortex-A72", 35},  {0x41, 0xd09, "Cortex-A73", 37},
    {0x41, 0xd0a, "Cortex-A75", 40},  {0x41, 0xd0b, "Cortex-A76", 45},
    {0x41, 0xd0c, "Neoverse-N1", 45}, {0x41, 0xd0d, "Cortex-A77", 50},
    {0x41, 0xd41, "Cortex-A78", 55},  {0x41, 0xd44, "Cortex-X1", 62},
    {0x41, 0xd46, "Cortex-A510", 24}, {0x41, 0xd47, "Cortex-A710", 58},
    {0x41, 0xd48, "Cortex-X2", 66},   {0x41, 0xd49, "Neoverse-N2", 58},
    {0x41, 0xd4d, "Cortex-A715", 62}, {0x41, 0xd4e, "Cortex-X3", 72},
    {0x41, 0xd80, "Cortex-A520", 26}, {0x41, 0xd81, "Cortex-A720", 66},
    {0x41, 0xd82, "Cortex-X4", 80},   {0x51, 0x801, "Kryo-2xx-Silver", 21},
}};

const char* className(std::size_t index, std::size_t count) {
    if (count == 1)
        return "uniform";
    if (count == 2)
        return index == 0 ? "LITTLE" : "big";
    if (count == 3)
        return index == 0 ? "LITTLE" : index == 1 ? "big" : "prime";
    if (count == 4) {
        static const char* names[] = {"LITTLE", "mid", "big", "prime"};
        return names[index];
    }
    return nullptr;
}

} // namespace

std::string armCoreName(unsigned implementer, unsigned part) {
    for (const auto& c : kArmCores)
        if (c.implementer == implementer && c.part == part)
            return c.name;
    return {};
}

int armCoreRank(unsigned implementer, unsigned part) {
    for (const auto& c : kArmCores)
        if (c.implementer == implementer && c.part == part)
            return c.rank;
    return 0;
}

void classifyCores(Topology& topo) {
    topo.classes.clear();
    std::vector<CpuInfo*> online;
    for (auto& c : topo.cpus)
        if (c.online)
            online.push_back(&c);
    // Pick the best basis that every online CPU has.
    auto all = [&](auto pred) {
        return !online.empty() && std::all_of(online.begin(), online.end(), pred);
    };
    std::vector<double> key(topo.cpus.size(), 0.0);
    if (all([](const CpuInfo* c) { return c->capacity.has_value() && *c->capacity > 0; }))
        topo.basis = ClassBasis::CpuCapacity;
    else if (all([](const CpuInfo* c) { return c->maxFreqKHz.has_value() && *c->maxFreqKHz > 0; }))
        topo.basis = ClassBasis::MaxFrequency;
    else if (all([](const CpuInfo* c) { return c->uarchRank > 0; }))
        topo.basis = ClassBasis::CpuPart;
    else
        topo.basis = ClassBasis::None;

    auto keyOf = [&](const CpuInfo& c) -> double {
        switch (topo.basis) {
        case ClassBasis::CpuCapacity:
            return *c.capacity;
        case ClassBasis::MaxFrequency:
            return *c.maxFreqKHz;
        case ClassBasis::CpuPart:
            return c.uarchRank;
        case ClassBasis::None:
            break;
        }
        return 1.0;
    };
    std::vector<CpuInfo*> sorted = online;
    std::stable_sort(sorted.begin(), sorted.end(),
                     [&](const CpuInfo* a, const CpuInfo* b) { return keyOf(*a) < keyOf(*b); });
    // A new class starts where a CPU is more than 10% faster than the slowest of the current one,
    // so 2.256 and 2.304 GHz A76 clusters stay together.
    double groupMin = -1.0;
    for (CpuInfo* c : sorted) {
        const double k = keyOf(*c);
        if (topo.classes.empty() || k > groupMin * 1.10) {
            PerfClass pc;
            pc.rank = static_cast<int>(topo.classes.size());
            pc.cpus = CpuMask(topo.maskWidth);
            topo.classes.push_back(pc);
            groupMin = k;
        }
        topo.classes.back().cpus.set(c->id);
        c->perfClass = topo.classes.back().rank;
    }
    for (std::size_t i = 0; i < topo.classes.size(); ++i) {
        const char* n = className(i, topo.classes.size());
        topo.classes[i].name = n ? n : "class" + std::to_string(i);
    }
    for (auto& c : topo.cpus)
        if (!c.online)
            c.perfClass = -1;
}

bool validGovernorName(std::string_view s) {
    return !s.empty() && s.size() <= 32 && std::all_of(s.begin(), s.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
    });
}

bool CpufreqPolicy::slowGovernor() const {
    return governor == "powersave" || governor == "userspace" || governor == "conservative";
}

std::string CpufreqPolicy::slowBecause() const {
    auto mhz = [](std::uint32_t khz) { return std::to_string(khz / 1000) + " MHz"; };
    if (governor == "powersave")
        return "the powersave governor keeps it at its lowest frequency" +
               (minKHz ? " (" + mhz(*minKHz) + ")" : std::string());
    if (governor == "userspace")
        return "the userspace governor holds it at one frequency" +
               (curKHz ? " (" + mhz(*curKHz) + ")" : std::string());
    if (maxKHz && hwMaxKHz && *maxKHz < *hwMaxKHz)
        return "scaling_max_freq caps it at " + mhz(*maxKHz) + " of " + mhz(*hwMaxKHz);
    if (governor == "conservative")
        return "the conservative governor raises its frequency slowly under bursts of packets";
    return {};
}

} // namespace coresteer

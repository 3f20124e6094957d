// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// What a router's interrupts did while it carried traffic, measured live (coresteer-cli plan
// --measure, the app's Live tab while it samples): the planner proposes interrupt coalescing
// from it. The live sampler fills it (core/live/bottleneck.h, accumulateLoad); the planner
// reads it. Rates are the router's, with its uptime as the clock.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace coresteer {

struct IrqLoad {
    std::uint32_t irq = 0;
    // The interval that counts most for coalescing: the busiest one in which the CPU that took
    // most of its interrupts was saturated (else its busiest interval of all).
    double perSecond = 0; // interrupts a second then
    int cpu = -1;         // the CPU that took most of them then
    double cpuKernel = 0; // that CPU's irq + softirq + system share then, 0..1
};

struct InterfaceLoad {
    std::string name;
    double rxPacketsPerSecond = 0; // the peak of the intervals
};

struct MeasuredLoad {
    double seconds = 0; // how long it was measured, in all
    int intervals = 0;
    std::vector<IrqLoad> irqs;             // sorted by IRQ number
    std::vector<InterfaceLoad> interfaces; // by name

    const IrqLoad* irq(std::uint32_t n) const {
        const auto it =
            std::lower_bound(irqs.begin(), irqs.end(), n,
                             [](const IrqLoad& l, std::uint32_t k) { return l.irq < k; });
        return it != irqs.end() && it->irq == n ? &*it : nullptr;
    }
    const InterfaceLoad* interface(const std::string& name) const {
        for (const auto& i : interfaces)
            if (i.name == name)
                return &i;
        return nullptr;
    }
};

} // namespace coresteer

// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// Live history in fixed rings: per-core load and per-IRQ rates for the last N samples, with
// gaps where the router could not be read (a reboot, a lost connection). Memory is fixed when
// the history is made: each core's sample is five 16-bit shares (10 bytes), so an hour at 10 Hz
// of a 256-core router is 92 MB, and per-IRQ rates are kept only for the IRQs asked for.
#pragma once

#include "core/live/sample.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace coresteer::live {

class History {
public:
    struct Core {
        std::uint16_t user = 0, system = 0, irq = 0, softirq = 0, idle = 65535;
        static Core from(const CoreLoad& l);
        double share(std::uint16_t v) const { return v / 65535.0; }
        double busy() const { return 1.0 - share(idle); }
        double kernel() const { return share(system) + share(irq) + share(softirq); }
    };

    // `capacity` samples of `cores` CPUs (by id 0..cores-1), and the rates of `irqs`.
    History(std::size_t capacity, int cores, std::vector<std::uint32_t> irqs = {});

    void push(const Rates& r);
    // A gap: the next sample is not joined to the last one (drawn as a break).
    void pushGap(double uptime);

    std::size_t size() const { return m_size; }
    std::size_t capacity() const { return m_capacity; }
    int cores() const { return m_cores; }
    // i = 0 is the oldest sample kept.
    double time(std::size_t i) const { return m_time[slot(i)]; }
    bool isGap(std::size_t i) const { return m_gap[slot(i)]; }
    const Core& core(std::size_t i, int cpu) const {
        return m_core[slot(i) * static_cast<std::size_t>(m_cores) + static_cast<std::size_t>(cpu)];
    }
    // Interrupts per second of the k-th IRQ asked for (irqs()[k]) at sample i.
    float irqRate(std::size_t i, std::size_t k) const { return m_irq[slot(i) * m_irqs.size() + k]; }
    const std::vector<std::uint32_t>& irqs() const { return m_irqs; }
    std::size_t bytes() const;

    // Peak and mean busy share of a core over the samples kept (gaps left out).
    struct Stats {
        double peak = 0, mean = 0;
    };
    Stats stats(int cpu) const;

private:
    std::size_t slot(std::size_t i) const { return (m_head + i) % m_capacity; }
    std::size_t next();

    std::size_t m_capacity;
    int m_cores;
    std::vector<std::uint32_t> m_irqs;
    std::vector<double> m_time;
    std::vector<bool> m_gap;
    std::vector<Core> m_core;
    std::vector<float> m_irq;
    std::size_t m_head = 0, m_size = 0;
};

// The samples kept, one row each, as CSV (what the Live tab shows, exported from it): seconds
// since the first sample kept and the router's uptime, each core's busy, user, system, irq and
// softirq share in percent, and the interrupts per second of each IRQ kept. A gap (the router
// did not answer) is a row with its times and no values. Only numbers: nothing to escape.
std::string historyCsv(const History& h);

} // namespace coresteer::live

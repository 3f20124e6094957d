// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The bottleneck detector: a core above 90% in kernel work (irq + softirq + system) while
// another core of the same or a faster class sits below 50%. It names what runs there (the
// IRQs that fire on it, the receive queues that steer packets to it) and suggests the move.
#pragma once

#include "core/live/sample.h"
#include "core/model/load.h"
#include "core/model/snapshot.h"

#include <deque>
#include <optional>
#include <string>
#include <vector>

namespace coresteer::live {

struct Bottleneck {
    int cpu = -1;
    double kernel = 0;             // irq + softirq + system share
    std::vector<int> idleCores;    // same or faster class, below the cool line, coolest first
    std::vector<std::string> onIt; // "IRQ 141 eth1-0 (6.4k/s)", "eth1 rx-0 RPS"
    std::string suggestion;        // one sentence
};

std::vector<Bottleneck> findBottlenecks(const Rates& rates, const Snapshot& snap, double hot = 0.9,
                                        double cool = 0.5);

// The rates of the last second or more, for the detector: at 10 Hz a tick holds ten jiffies of
// each core (USER_HZ is 100), so one tick's share moves in steps of 10 % and a core at 90 %
// shows 100 % now and then. The cores' shares are the mean of the ticks, weighted by their
// lengths; the IRQ and interface rates are the newest tick's.
class RecentLoad {
public:
    explicit RecentLoad(double seconds = 1.0) : m_seconds(seconds) {}
    void add(const Rates& r);
    void clear() { m_ticks.clear(); }
    // nullopt before the first tick.
    std::optional<Rates> mean() const;

private:
    double m_seconds;
    std::deque<Rates> m_ticks;
};

// What the live load can show on this router, where it shows less than its traffic: with flow
// offloading on, established forwarded flows bypass the CPU path (hardware: the CPU itself), so
// a test's CPU load, and a missing bottleneck, say less than they would. "" when nothing to say.
std::string loadExpectation(const Snapshot& snap);

// Folds one interval's rates into a measured load for the planner: for each IRQ, the interval
// that counts most for coalescing (the busiest in which the CPU that took most of it was at or
// above `hot` in kernel work, else its busiest of all; IRQs under 1 000 a second are left out),
// and each interface's peak receive rate.
void accumulateLoad(MeasuredLoad& load, const Rates& r, double hot = 0.9);

} // namespace coresteer::live

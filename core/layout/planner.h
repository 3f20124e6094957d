// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The planner: proposes a layout for a snapshot and explains every choice in a sentence.
#pragma once

#include "core/layout/layout.h"
#include "core/model/load.h"
#include "core/model/snapshot.h"

#include <string>

namespace coresteer::layout {

struct PlanGoal {
    enum class Kind { SqmThroughput };
    Kind kind = Kind::SqmThroughput;
    // Where the NICs' interrupts and packet work go: the rules' own choice (Recommend), or
    // one of the other shapes a measurement on the router may prefer (planAlternatives).
    enum class Shape {
        Rules,
        AllOnFastCores,  // two classes of core: interrupts and packet work on the fastest
        RpsOverAllCores, // the rules' interrupts, receive work spread over every core
        IrqPerCoreNoRps, // each NIC's interrupts on a core of their own, RPS off
        IrqsTogether,    // every NIC's interrupts on the first core, packet work on the others
    };
    Shape shape = Shape::Rules;
    // The cpufreq governor for a slow policy (powersave, userspace, conservative) under the
    // layout's network work: "schedutil" (else performance where the kernel has no schedutil),
    // "performance" (else schedutil), or "" to leave every governor as it is (a note says why).
    std::string governor = "schedutil";
    // The router's interrupts under load, when measured: a NIC's receive vector that fired
    // fast on a saturated CPU gets interrupt coalescing (rx-usecs, rx-frames), within what
    // `ethtool -c` says its driver takes. Without it the planner proposes no coalescing.
    std::optional<MeasuredLoad> load;
};

Layout plan(const Snapshot& snap, const PlanGoal& goal = {});

// A layout the planner offers besides its recommendation, for a measurement to choose
// between (planner_alternatives.cpp): its name, what it changes and why it may win.
struct PlanAlternative {
    std::string name;
    std::string why;
    PlanGoal::Shape shape = PlanGoal::Shape::Rules;
    bool coalescing = true; // whether the goal's coalescing is in it
    Layout layout;
};
// The recommendation first (the rules' shape), then the shapes that fit this router: for two
// classes of core, everything on the fastest and RPS over all cores; for uniform cores, an
// IRQ per core without RPS, RPS over all cores and the interrupts together; for a NIC with
// RSS, RPS over all cores; each again without coalescing where the goal proposes it. A layout
// equal to one before it is left out, and there are at most `max`.
std::vector<PlanAlternative> planAlternatives(const Snapshot& snap, const PlanGoal& goal = {},
                                              std::size_t max = 8);
// Whether two layouts write the same targets (their reasons and notes aside).
bool sameTargets(const Layout& a, const Layout& b);

// The planner's step for PPP interfaces (planner_upper.cpp): RPS for each one's receive queue,
// on the CPUs the layout gives its conduit's RPS (else every online CPU), with the reason.
void planPppSteering(const Snapshot& snap, Layout& layout);
// The planner's coalescing step (planner_coalesce.cpp), which plan() takes when the goal has a
// load: adds rx-usecs and rx-frames to `layout`'s interface targets, and notes where
// coalescing would help but cannot be set.
void proposeCoalescing(const Snapshot& snap, const MeasuredLoad& load, Layout& layout);
// The planner's queue step (planner_queues.cpp): a NIC that runs fewer channels than it has
// and than there are cores gets as many as both allow (ethtool -L), and an RSS table that
// leaves rings out gets its default spread back (ethtool -X), each with the reason.
void planQueues(const Snapshot& snap, Layout& layout);
// `layout`'s target for interface `name`, added where it has none (for the steps above).
InterfaceTarget& targetFor(Layout& layout, const std::string& name);

} // namespace coresteer::layout

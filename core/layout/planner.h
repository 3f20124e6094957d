// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The planner: proposes a layout for a snapshot and explains every choice in a sentence.
#pragma once

#include "core/layout/layout.h"
#include "core/model/snapshot.h"

#include <string>

namespace coresteer::layout {

struct PlanGoal {
    enum class Kind { SqmThroughput };
    Kind kind = Kind::SqmThroughput;
    // The cpufreq governor for a slow policy (powersave, userspace, conservative) under the
    // layout's network work: "schedutil" (else performance where the kernel has no schedutil),
    // "performance" (else schedutil), or "" to leave every governor as it is (a note says why).
    std::string governor = "schedutil";
};

Layout plan(const Snapshot& snap, const PlanGoal& goal = {});

} // namespace coresteer::layout

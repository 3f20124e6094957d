// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The planner: proposes a layout for a snapshot and explains every choice in a sentence.
#pragma once

#include "core/layout/layout.h"
#include "core/model/snapshot.h"

namespace coresteer::layout {

struct PlanGoal {
    enum class Kind { SqmThroughput };
    Kind kind = Kind::SqmThroughput;
};

Layout plan(const Snapshot& snap, const PlanGoal& goal = {});

} // namespace coresteer::layout

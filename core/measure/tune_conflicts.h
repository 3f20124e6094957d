// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// What else on the router would move masks under a tune's trials (conflicts.h), as it bears on
// a runtime experiment rather than on a persisted layout: irqbalance running moves IRQs every
// 10 s, so the trials would compare its moves, not the layouts: the tune refuses to start
// unless told. The firmware's steering and the board's hotplug scripts rewrite masks only on a
// network reload or an interface event: said, and the tune reads the masks back after every block.
// Flow offloading changes what the load measures: said.
#pragma once

#include "core/model/conflicts.h"
#include "core/model/snapshot.h"

#include <string>
#include <vector>

namespace coresteer::measure {

struct TuneConflict {
    Conflict::Kind kind;
    bool refuses = false; // the tune does not start unless told (--allow-conflicts)
    std::string title;    // what it is, from conflicts.h
    std::string effect;   // what it does to a tune, a sentence
    std::string remedy;   // what to do for the tune, a sentence
};

std::vector<TuneConflict> tuneConflicts(const Snapshot& snap);

} // namespace coresteer::measure

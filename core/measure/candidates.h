// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The tuner's candidates: the layouts it tries on the router, each named and saying what it
// changes. The router's current layout is the baseline, candidate 0; then the planner's
// recommendation and its alternatives, the built-in presets made on this board, and the layouts
// the person adds (files, or the grid's pending edits).
#pragma once

#include "core/layout/layout.h"
#include "core/model/snapshot.h"

#include <optional>
#include <string>
#include <vector>

namespace coresteer::measure {

struct Candidate {
    enum class Source { Current, Plan, Alternative, Preset, File, Edit };
    std::string name;
    Source source = Source::Current;
    std::string why;     // why it may win: the planner's reason, the preset's note, the file
    std::string changes; // what it changes against the baseline, in a few words
    layout::Layout layout;
};
const char* toString(Candidate::Source s); // "current", "plan", "alternative", "preset", ...
std::optional<Candidate::Source> sourceFromString(const std::string& s);

// At most this many candidates, the baseline among them: a block runs each once and the
// baseline twice, so each one more costs a trial in every block.
inline constexpr std::size_t kMaxCandidates = 8;

struct CandidateOptions {
    bool plan = true;             // the planner's recommendation and alternatives
    bool presets = true;          // the built-in presets made on this board
    std::vector<Candidate> extra; // the person's own: files, the grid's edits
    std::size_t max = kMaxCandidates;
};

// The candidates for `snap`, the baseline first. A candidate that writes the same as one before
// it is left out, with a note in *notes; so is one that changes nothing on this router, the
// person's own too (it is the baseline under another name: an A/A check wants a placebo, a
// change that should not matter). The person's own come right after the baseline, so the cap
// leaves out the planner's last ones.
std::vector<Candidate> gatherCandidates(const Snapshot& snap, const CandidateOptions& options,
                                        std::vector<std::string>* notes);

// Why `c` is left out beside the candidates `have` (the baseline first) on `snap`: "it changes
// nothing on this router" (with a word on placebos when `own`, the person's), or "it writes
// what NAME writes"; nullopt when it is tried.
std::optional<std::string> whyLeftOut(const Candidate& c, const std::vector<Candidate>& have,
                                      const Snapshot& snap, bool own);

// What of `c` does not apply on `snap` (an IRQ, CPU or interface it lacks), for a person:
// "NAME: 2 entries do not apply on this router, and the trials go without: TARGET (REASON);
// ..."; empty when all of it applies.
std::string notOnThisRouter(const Candidate& c, const Snapshot& snap);

// "IRQ eth1-0 -> CPU1; eth1 rx-0 RPS -> 2 (3 more)": the changes of `layout` on `snap`.
std::string describeChanges(const layout::Layout& layout, const Snapshot& snap);

} // namespace coresteer::measure

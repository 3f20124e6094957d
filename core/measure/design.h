// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The tuner's experiment: randomised complete blocks, and when it has seen enough.
//
// Candidate 0 is the baseline, the router's layout before the tune. A block runs every
// candidate once, in an order of its own drawn at random, and the baseline a second time, so
// that every block holds the same comparisons under the same conditions and the baseline
// against itself (A/A) measures the noise. Drift over the run (a link that slows, a hotter
// router) falls on every candidate alike, and the random order keeps a candidate from always
// following the same one.
#pragma once

#include "core/measure/stats.h"

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace coresteer::measure {

// One trial of the plan: which candidate runs, in which block; `repeat` marks the baseline's
// second run of a block.
struct Slot {
    int block = 0;
    int candidate = 0;
    bool repeat = false;
};

// The order of block `block`'s trials for `candidates` candidates (the baseline among them):
// each candidate once and the baseline twice, shuffled by `rng`.
std::vector<Slot> blockOrder(int block, int candidates, std::mt19937_64& rng);

// The fewest blocks for a distribution-free 95 % interval on a median: with 6, the smallest
// and largest of the 6 differences bound the median with 96.9 % confidence (1 - 2 / 2^6).
inline constexpr int kMinBlocks = 6;

// What a candidate measured in each block: `trials[block]` for a block it ran in.
struct CandidateTrials {
    std::vector<std::optional<TrialMeasures>> byBlock;
};

// The state of the experiment after some blocks: the comparisons of every candidate (index 0,
// the baseline, has none), the winner if any, and whether the experiment can stop.
struct Verdict {
    std::vector<Comparison> comparisons; // one a candidate; [0] is the baseline's, empty
    std::optional<int> winner;           // a candidate's index, never 0
    bool decided = false;                // a winner stands out, or nothing can win any more
    enum class Confidence { Low, Medium, High };
    Confidence confidence = Confidence::Low;
    std::string text; // the verdict for a person, one sentence
};
const char* toString(Verdict::Confidence c);

// Judges `trials` (one entry a candidate, [0] the baseline, whose byBlock holds the block's
// first run; `repeats` its second runs) after `blocks` complete blocks.
//
// A candidate that wins (compare()) with the largest score is the winner. The experiment is
// decided, once it has at least kMinBlocks blocks, when the winner's objective gain has an
// interval whose lower end is above every other candidate's upper end and above the noise
// floor, or when no candidate can win: every candidate's gain interval on the objective lies
// below the floor. `budgetSpent` says the run stopped before either: the verdict says so and
// its confidence is at most medium.
Verdict judge(const std::vector<CandidateTrials>& trials,
              const std::vector<std::optional<TrialMeasures>>& repeats, int blocks,
              Objective objective, bool budgetSpent, std::uint64_t seed,
              const std::vector<std::string>& names);

// The block pairs of candidate `c` against the baseline, as compare() takes them.
std::vector<BlockPair> blockPairs(const std::vector<CandidateTrials>& trials,
                                  const std::vector<std::optional<TrialMeasures>>& repeats, int c);

} // namespace coresteer::measure

// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The tuner's experiment: randomised complete blocks, the plan of when the verdict is looked at,
// and the verdict.
//
// Candidate 0 is the baseline, the router's layout before the tune. A block runs every
// candidate once, in an order of its own drawn at random, and the baseline a second time, so
// that every block holds the same comparisons under the same conditions. Drift over the run (a
// link that slows, a hotter router) falls on every candidate alike, and the random order is what
// makes the test exact (randomization.h).
//
// The verdict keeps one promise: however many candidates, directions and looks, the chance
// that a candidate which changes nothing is named the winner is at most 2.5 % (half of the 5 %
// the intervals leave out, as a false winner is one end of one interval missing). Every interval
// is a 95 % simultaneous interval: the chance that any interval of any candidate at any look of
// the plan misses its true gain is at most 5 %, split by Bonferroni over the candidates and the
// looks (the plan's spending), each end a one-sided test at alpha / 2 of that share.
#pragma once

#include "core/measure/randomization.h"
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

// When the verdict is judged, and at what level. Fixed before the first trial from the number
// of candidates alone, as a sequential test must be.
struct Plan {
    int candidates = 1;        // the candidates besides the baseline
    std::vector<int> looks;    // block counts at which a verdict may be reached, ascending
    std::vector<double> spend; // each look's share of alpha, adding up to 1
    double alpha = 0.05;       // all the intervals of the run miss at most this often
    int fewest() const { return looks.empty() ? 0 : looks.front(); }
    int most() const { return looks.empty() ? 0 : looks.back(); }
    // The look at `blocks` blocks (its index), or the next one after it; -1 past the last.
    int lookFor(int blocks) const;
    bool isLook(int blocks) const;
    // The one-sided level of each end of every interval at look `i`: alpha / 2 of its share,
    // split over the candidates.
    double level(int i) const;
};
// The plan for `candidates` candidates besides the baseline: the first look at the fewest
// blocks whose exact test can reach that look's level, then a look every few blocks.
Plan makePlan(int candidates);

// What a candidate measured in each block: `byBlock[block]` for a block it ran in.
struct CandidateTrials {
    std::vector<std::optional<TrialMeasures>> byBlock;
};

// How the verdict is judged.
struct JudgeSpec {
    Objective objective = Objective::Throughput;
    Plan plan;
    // The margin: the smallest gain worth a change, and the largest loss a guard accepts. Of a
    // measure, marginPct of the baseline's value, and for latency at least latencyMarginMs,
    // for a core's busy share at least shareMargin.
    double marginPct = 3;
    double latencyMarginMs = 5;
    double shareMargin = 0.02;
    // A core at least this busy under the baseline's load was (or was near) the router's
    // limit; below it, a throughput no layout moved was limited elsewhere.
    double saturatedShare = 0.8;
    // Among the candidates that qualify, a paired test of their blocks ranks one above another
    // at this one-sided level; those it cannot rank are a tie. Naming among proven gains, it
    // adds no false winner.
    double rankLevel = 0.05;
    // The intervals of every measure (false: only those the decision needs, as the simulation
    // of the decision runs it).
    bool intervals = true;
    std::uint64_t seed = 0;
};

// One candidate against the baseline.
struct Comparison {
    struct PerMeasure {
        Measure measure{};
        int n = 0;             // the blocks that measured it
        double estimate = 0;   // the gain, signed so that positive is better
        double lo = 0, hi = 0; // its 95 % simultaneous interval (+-inf: too few blocks)
        double baseline = 0;   // the baseline's mean over those blocks, as measured (unsigned)
        double margin = 0;     // the smallest gain worth a change, the largest loss accepted
        bool better = false;   // lo > margin
        bool worse = false;    // hi < -margin
        bool hasInterval = false;
        // `v` as a percentage of the baseline's value (0 where that is 0).
        double percent(double v) const;
    };
    std::vector<PerMeasure> measures;
    bool qualifies = false;   // the objective better beyond the margin, every guard within it
    bool futile = false;      // cannot qualify: the objective's gain below the margin, or a guard
                              // worse beyond it
    std::string reason;       // a sentence: why it qualifies, or why not yet
    std::string guardFailure; // where the objective is better: the guard it could not keep
    const PerMeasure* find(Measure m) const;
};

struct Verdict {
    enum class Outcome { Open, Winner, Tie, NoWinner };
    Outcome outcome = Outcome::Open;
    bool decided = false;
    std::optional<int> winner; // only when decided: the named candidate (of a tie, the one that
                               // changes least)
    std::optional<int> leader; // the best so far: the winner, or while open the candidate with
                               // the largest positive gain
    std::vector<int> tied;     // a tie's candidates, the named one first
    std::vector<Comparison> comparisons; // one a candidate; [0] is the baseline's, empty
    int look = -1;                       // the plan's look judged at (or the next one)
    double level = 0;                    // the one-sided level of each end
    // The smallest gain of the objective that could have shown at the noise this run met
    // (the margin and the narrowest interval's lower half), in the objective's units.
    double resolution = 0;
    // Was the router the limit? Router: a core near saturation under the baseline's load, or
    // a layout that moved the throughput. Elsewhere: neither, so the link, the computer
    // running the load or its server capped it. Unknown: no core was sampled under load.
    enum class Bottleneck { Unknown, Router, Elsewhere };
    Bottleneck bottleneck = Bottleneck::Unknown;
    double baselineBusiest = 0; // the busiest core's busy share under the baseline (median)
    std::string text;           // for a person
};
const char* toString(Verdict::Outcome o);    // "open", "winner", "tie", "no-winner"
const char* toString(Verdict::Bottleneck b); // "unknown", "router", "elsewhere"

// Judges `trials` (one entry a candidate, [0] the baseline, whose byBlock holds the block's
// first run; `repeats` its second runs) after `blocks` complete blocks. A verdict is reached
// only at a look of the plan; between looks, or past the budget, the intervals are those of the
// next look and the verdict is open.
//
// A candidate qualifies when the lower end of its objective gain's interval is above the
// margin, and every guard's loss stays within its margin with the same confidence (the upper
// end of the loss below the margin). The run is decided:
// - with a winner: some candidate qualifies. The one with the largest gain wins, unless
//   others that qualify cannot be ranked below it (a paired test of their blocks at
//   rankLevel): then it is a tie, and the one of them that changes least (`changes`, the count
//   of what each writes) is named;
// - with no winner: no candidate can qualify any more (futile), or at the plan's last look.
Verdict judge(const std::vector<CandidateTrials>& trials,
              const std::vector<std::optional<TrialMeasures>>& repeats, int blocks,
              const JudgeSpec& spec, const std::vector<std::string>& names,
              const std::vector<int>& changes, const std::vector<bool>& leftOut = {});

// The typical throughput of the run: of every trial, the baseline's repeats among them.
TypicalBps typicalBps(const std::vector<CandidateTrials>& trials,
                      const std::vector<std::optional<TrialMeasures>>& repeats);

// The test judge() makes of candidate `c`'s measure `m` against the baseline: the same blocks and
// the same resamples, so that its intervals can be checked from outside (bounds(level), or
// rejects() at a known gain). nullopt where no block measured it.
std::optional<ShiftTest> measureTest(const std::vector<CandidateTrials>& trials,
                                     const std::vector<std::optional<TrialMeasures>>& repeats,
                                     int c, Measure m, const JudgeSpec& spec);

// The block pairs of candidate `c` against the baseline.
std::vector<BlockPair> blockPairs(const std::vector<CandidateTrials>& trials,
                                  const std::vector<std::optional<TrialMeasures>>& repeats, int c);

} // namespace coresteer::measure

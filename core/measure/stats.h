// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The tuner's statistics: medians, a bootstrap confidence interval for a median, paired
// differences per block, the A/A noise floor, and the verdict on each candidate.
//
// A trial measures one candidate layout under load; a block runs every candidate once and the
// baseline twice (design.h). Within a block the conditions are shared (the same minutes of the
// same router and link), so a candidate is compared with the baseline of its own block: the
// paired difference, one number a block. Its median over the blocks and a 95 % bootstrap
// interval of that median say how large the gain is and how sure. The baseline's two runs in
// a block differ only by chance, so the median of their absolute difference is the noise floor:
// a gain smaller than the floor is a gain nobody could tell from noise, however narrow its
// interval.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace coresteer::measure {

// A median and its 95 % interval (lo, hi), of `n` values.
struct Estimate {
    double median = 0;
    double lo = 0;
    double hi = 0;
    int n = 0;
};

// The median of `values` (the mean of the middle two for an even count); 0 for none.
double median(std::vector<double> values);

// A percentile bootstrap interval for the median of `values`: `resamples` resamples with
// replacement, drawn from a generator seeded with `seed` (the same seed gives the same
// interval), and the (1 - level) / 2 and (1 + level) / 2 quantiles of their medians. For fewer
// than 2 values the interval is the value itself.
Estimate bootstrapMedian(const std::vector<double>& values, std::uint64_t seed, double level = 0.95,
                         int resamples = 4000);

// The measures a trial yields, each optional: a direction the load did not run, or a probe
// that gave nothing, is missing rather than zero.
enum class Measure { DownloadBps, UploadBps, DownloadLatencyMs, UploadLatencyMs };
inline constexpr Measure kMeasures[] = {Measure::DownloadBps, Measure::UploadBps,
                                        Measure::DownloadLatencyMs, Measure::UploadLatencyMs};
const char* toString(Measure m);
// Throughput: more is better. Latency increase under load: less is better.
bool higherIsBetter(Measure m);

struct TrialMeasures {
    std::optional<double> downloadBps, uploadBps;
    // The latency increase under load over the block's idle baseline (the headline probe's
    // median), per direction.
    std::optional<double> downloadLatencyMs, uploadLatencyMs;
    std::optional<double> get(Measure m) const;
};

// One block's trials of one candidate and of the baseline (its two runs).
struct BlockPair {
    TrialMeasures candidate;
    TrialMeasures baselineA, baselineB;
};

// What the tuner optimises: throughput with latency as a guard (the default), or latency with
// throughput as a guard.
enum class Objective { Throughput, Latency };

// One candidate against the baseline, per measure: the gain (candidate minus the block's
// baseline, signed so that positive is better), its estimate, and the floor.
struct Comparison {
    struct PerMeasure {
        Measure measure{};
        std::vector<double> gains; // one a block that measured it, in block order
        Estimate gain;             // of `gains`
        Estimate candidate;        // the candidate's own values
        double baseline = 0;       // the median of the blocks' baselines
        double floor = 0;          // the A/A noise floor of this measure
        bool better = false;       // interval clear of zero and median beyond the floor
        bool worse = false;        // the same, the other way
    };
    std::vector<PerMeasure> measures; // only those measured in at least 2 blocks
    bool wins = false;
    // The objective's relative gain (the median gains of its measures over the baseline's
    // medians, summed), to rank several winners; 0 where it does not win.
    double score = 0;
    // A sentence: why it wins, or why not.
    std::string reason;
    const PerMeasure* find(Measure m) const;
};

// The A/A noise floor of each measure: the median over blocks of |baseline B - baseline A|.
// `blocks` holds one BlockPair a block (its candidate is not read).
double noiseFloor(const std::vector<BlockPair>& blocks, Measure m);
// The baseline's own A/A comparison (B against A), as a candidate's: what "no difference"
// looks like under the same conditions.
Estimate aaDifference(const std::vector<BlockPair>& blocks, Measure m, std::uint64_t seed);

// Compares a candidate with the baseline over `blocks` (one entry a block in which both ran).
// The gain of a block is the candidate's value minus the mean of the baseline's two runs (one
// where only one ran), negated for latency. A measure is better where the interval of its gain
// is above zero and its median above the floor; worse the other way. The candidate wins when a
// measure of the objective is better and none of the objective or its guard is worse.
Comparison compare(const std::vector<BlockPair>& blocks, Objective objective, std::uint64_t seed);

} // namespace coresteer::measure

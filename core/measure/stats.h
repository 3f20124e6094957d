// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The tuner's measures and their plain statistics: what one trial yields, the median and its
// distribution-free interval, and the values of one candidate against the baseline, block by
// block, as the randomisation test (randomization.h) takes them.
//
// A trial measures one candidate layout under load; a block runs every candidate once and the
// baseline twice (design.h). Each measure is signed so that higher is better before it is
// compared: throughput as it is, latency and a core's busy share negated.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace coresteer::measure {

// The median of `values` (the mean of the middle two for an even count); 0 for none.
double median(std::vector<double> values);
double mean(const std::vector<double>& values); // 0 for none

// A median with a distribution-free interval: the k-th smallest and k-th largest of the n
// values, with k the largest whose coverage, 1 - 2 P(Binomial(n, 1/2) < k), is at least the
// level asked for. `coverage` is that exact coverage; below 6 values no pair of order
// statistics reaches 95 %, and `hasInterval` is false.
struct Estimate {
    double median = 0;
    double lo = 0, hi = 0;
    int n = 0;
    double coverage = 0;
    bool hasInterval = false;
};
Estimate medianInterval(std::vector<double> values, double level = 0.95);

// What a trial yields, each optional: a direction the load did not run, or a probe that gave
// nothing, is missing rather than zero.
enum class Measure {
    // The objective of throughput: the mean over the directions measured of each direction's
    // throughput over its typical value in the run (the median of every trial's), so that one
    // number weighs download and upload alike. A gain of 0.05 is 5 % of the typical throughput.
    Throughput,
    DownloadBps,
    UploadBps,
    // The objective of latency and a guard of the others: the latency increase under load (ms),
    // the mean over the directions of the trial's median, and of its 90th percentile. A probe
    // lost under load counts as kLostProbeMs.
    Latency,
    LatencyP90,
    DownloadLatencyMs,
    UploadLatencyMs,
    // The objective of headroom: the busiest core's busy share under the load (0 to 1).
    BusiestShare,
};
inline constexpr Measure kMeasures[] = {Measure::Throughput,      Measure::DownloadBps,
                                        Measure::UploadBps,       Measure::Latency,
                                        Measure::LatencyP90,      Measure::DownloadLatencyMs,
                                        Measure::UploadLatencyMs, Measure::BusiestShare};
const char* toString(Measure m); // "throughput", "download throughput", ...
const char* jsonKey(Measure m);  // "throughput", "download_bps", ...
// Throughput: more is better. Latency and a core's busy share: less is better.
bool higherIsBetter(Measure m);
// "+95.2 Mbit/s", "-37.0 ms", "+4.1 %" (Throughput, whose unit is a share), "-12 points".
std::string formatGain(Measure m, double v);

// A lost probe counts as a round trip this much longer than the idle one: worse than any the
// load made, so that a layout that drops probes never looks better for it.
inline constexpr double kLostProbeMs = 1000;

struct TrialMeasures {
    std::optional<double> downloadBps, uploadBps;
    // The headline probe's latency increase over the block's idle baseline, per direction
    // (median), and the mean of the directions' 90th percentiles.
    std::optional<double> downloadLatencyMs, uploadLatencyMs, latencyP90Ms;
    std::optional<double> busiestShare;
    // The raw value of a measure; Throughput needs the run's typical values (typicalBps).
    std::optional<double> get(Measure m) const;
};

// The typical throughput of each direction in a run: the median over every trial, whatever its
// candidate (so it does not depend on which trial was which, and the randomisation test stays
// exact). Zero where a direction was not measured.
struct TypicalBps {
    double download = 0, upload = 0;
};
TypicalBps typicalBps(const std::vector<TrialMeasures>& all);
// A measure's value, Throughput from `typical`; signed so that higher is better.
std::optional<double> signedValue(const TrialMeasures& t, Measure m, const TypicalBps& typical);

// One block's trials of one candidate and of the baseline (its two runs, either may be
// missing).
struct BlockPair {
    std::optional<TrialMeasures> candidate;
    std::optional<TrialMeasures> baselineA, baselineB;
};

// What the tuner optimises, and what must not get worse (design.h, objectiveMeasure).
enum class Objective { Throughput, Latency, Headroom };
const char* toString(Objective o); // "throughput", "latency", "headroom"
std::optional<Objective> objectiveFromString(const std::string& s);
// The objective's own measure, and the guards a winner must not lose on beyond their margin.
Measure objectiveMeasure(Objective o);
std::vector<Measure> guardMeasures(Objective o);

} // namespace coresteer::measure

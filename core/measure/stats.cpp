// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/measure/stats.h"

#include <algorithm>
#include <cmath>
#include <random>

namespace coresteer::measure {

double median(std::vector<double> v) {
    if (v.empty())
        return 0;
    const auto mid = v.size() / 2;
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid), v.end());
    const double upper = v[mid];
    if (v.size() % 2)
        return upper;
    const double lower = *std::max_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid));
    return (lower + upper) / 2;
}

namespace {

// The q-quantile of sorted values, interpolated between neighbours (type 7).
double quantile(const std::vector<double>& sorted, double q) {
    if (sorted.empty())
        return 0;
    const double at = q * static_cast<double>(sorted.size() - 1);
    const auto i = static_cast<std::size_t>(std::floor(at));
    if (i + 1 >= sorted.size())
        return sorted.back();
    const double f = at - static_cast<double>(i);
    return sorted[i] + f * (sorted[i + 1] - sorted[i]);
}

} // namespace

Estimate bootstrapMedian(const std::vector<double>& values, std::uint64_t seed, double level,
                         int resamples) {
    Estimate e;
    e.n = static_cast<int>(values.size());
    e.median = median(values);
    if (values.size() < 2 || resamples < 1) {
        e.lo = e.hi = e.median;
        return e;
    }
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<std::size_t> pick(0, values.size() - 1);
    std::vector<double> medians;
    medians.reserve(static_cast<std::size_t>(resamples));
    std::vector<double> sample(values.size());
    for (int r = 0; r < resamples; ++r) {
        for (auto& s : sample)
            s = values[pick(rng)];
        medians.push_back(median(sample));
    }
    std::sort(medians.begin(), medians.end());
    e.lo = quantile(medians, (1 - level) / 2);
    e.hi = quantile(medians, (1 + level) / 2);
    return e;
}

const char* toString(Measure m) {
    switch (m) {
    case Measure::DownloadBps:
        return "download throughput";
    case Measure::UploadBps:
        return "upload throughput";
    case Measure::DownloadLatencyMs:
        return "latency increase under download";
    case Measure::UploadLatencyMs:
        return "latency increase under upload";
    }
    return "?";
}

bool higherIsBetter(Measure m) {
    return m == Measure::DownloadBps || m == Measure::UploadBps;
}

std::optional<double> TrialMeasures::get(Measure m) const {
    switch (m) {
    case Measure::DownloadBps:
        return downloadBps;
    case Measure::UploadBps:
        return uploadBps;
    case Measure::DownloadLatencyMs:
        return downloadLatencyMs;
    case Measure::UploadLatencyMs:
        return uploadLatencyMs;
    }
    return std::nullopt;
}

const Comparison::PerMeasure* Comparison::find(Measure m) const {
    for (const auto& p : measures)
        if (p.measure == m)
            return &p;
    return nullptr;
}

double noiseFloor(const std::vector<BlockPair>& blocks, Measure m) {
    std::vector<double> d;
    for (const auto& b : blocks) {
        const auto a = b.baselineA.get(m), c = b.baselineB.get(m);
        if (a && c)
            d.push_back(std::fabs(*c - *a));
    }
    return median(d);
}

Estimate aaDifference(const std::vector<BlockPair>& blocks, Measure m, std::uint64_t seed) {
    std::vector<double> d;
    for (const auto& b : blocks) {
        const auto a = b.baselineA.get(m), c = b.baselineB.get(m);
        if (a && c)
            d.push_back(higherIsBetter(m) ? *c - *a : *a - *c);
    }
    return bootstrapMedian(d, seed);
}

namespace {

bool objectiveMeasure(Measure m, Objective o) {
    return (o == Objective::Throughput) == higherIsBetter(m);
}

std::string number(double v, Measure m) {
    char buf[64];
    if (higherIsBetter(m))
        std::snprintf(buf, sizeof buf, "%.1f Mbit/s", v / 1e6);
    else
        std::snprintf(buf, sizeof buf, "%.1f ms", v);
    return buf;
}

} // namespace

Comparison compare(const std::vector<BlockPair>& blocks, Objective objective, std::uint64_t seed) {
    Comparison c;
    std::uint64_t s = seed;
    for (const auto m : kMeasures) {
        Comparison::PerMeasure p;
        p.measure = m;
        std::vector<double> own, baseline;
        for (const auto& b : blocks) {
            const auto v = b.candidate.get(m);
            const auto a = b.baselineA.get(m), bb = b.baselineB.get(m);
            if (!v || (!a && !bb))
                continue;
            const double base = a && bb ? (*a + *bb) / 2 : a ? *a : *bb;
            own.push_back(*v);
            baseline.push_back(base);
            p.gains.push_back(higherIsBetter(m) ? *v - base : base - *v);
        }
        if (p.gains.size() < 2)
            continue;
        p.baseline = median(baseline);
        p.gain = bootstrapMedian(p.gains, s++);
        p.candidate = bootstrapMedian(own, s++);
        p.floor = noiseFloor(blocks, m);
        p.better = p.gain.lo > 0 && p.gain.median > p.floor;
        p.worse = p.gain.hi < 0 && -p.gain.median > p.floor;
        c.measures.push_back(std::move(p));
    }
    const Comparison::PerMeasure* bestMeasure = nullptr;
    const Comparison::PerMeasure* worseMeasure = nullptr;
    double score = 0;
    for (const auto& p : c.measures) {
        if (p.worse && !worseMeasure)
            worseMeasure = &p;
        if (!objectiveMeasure(p.measure, objective))
            continue;
        if (p.better && (!bestMeasure || p.gain.median > bestMeasure->gain.median))
            bestMeasure = &p;
        if (p.baseline != 0) // the relative gain over the baseline's own median
            score += p.gain.median / std::fabs(p.baseline);
    }
    if (worseMeasure) {
        c.reason = std::string(toString(worseMeasure->measure)) + " is worse by " +
                   number(-worseMeasure->gain.median, worseMeasure->measure) +
                   " (beyond the noise floor of " +
                   number(worseMeasure->floor, worseMeasure->measure) + ")";
    } else if (bestMeasure) {
        c.wins = true;
        c.score = score;
        c.reason = std::string(toString(bestMeasure->measure)) + " is better by " +
                   number(bestMeasure->gain.median, bestMeasure->measure) + " (95 % interval " +
                   number(bestMeasure->gain.lo, bestMeasure->measure) + " to " +
                   number(bestMeasure->gain.hi, bestMeasure->measure) + ", noise floor " +
                   number(bestMeasure->floor, bestMeasure->measure) + ")";
    } else if (c.measures.empty()) {
        c.reason = "not measured in two blocks";
    } else {
        c.reason = "no difference beyond the noise";
    }
    return c;
}

} // namespace coresteer::measure

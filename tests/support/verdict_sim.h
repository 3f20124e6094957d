// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// Simulated tunes through the tuner's real decision code (design.h: blockOrder, makePlan,
// judge, measureTest): the false-winner rate, the power and the intervals' coverage, for the
// benchmark (tests/bench/bench_verdict.cpp) and, at a size the suite affords, the unit test.
//
// A simulated run draws each block's order with blockOrder(), gives every trial the values of
// its candidate plus noise and drift, and judges at every look of the plan until the verdict is
// decided or the plan ends, exactly as the tuner's loop does. Throughput is 500 Mbit/s down and
// 300 up with a trial's standard deviation of 10 % (Case::sd); the latency increase under load 20
// ms (its p90 30 ms) with 2 ms (3 ms). Noise: normal; Student's t with 3 degrees of freedom (heavy
// tails), scaled to the same standard deviation; or skewed (throughput dips, latency spikes: a
// centred exponential). Drift: every trial of a block is 0.25 standard deviations above the one
// before it (a router warming up within the block; Case::slotDrift), and the blocks wander by a
// random walk of 0.5 standard deviations a block.
#pragma once

#include "core/measure/design.h"

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace coresteer::simulate {

using namespace coresteer::measure;

enum class Noise { Normal, T3, Skewed };
inline const char* toString(Noise n) {
    return n == Noise::Normal ? "normal" : n == Noise::T3 ? "t3" : "skewed";
}

struct Case {
    int candidates = 1; // besides the baseline
    int directions = 2; // download, and upload
    Noise noise = Noise::Normal;
    // Drift: each trial of a block this many standard deviations above the one before it (a
    // router warming up within the block); the blocks wander besides, by a random walk of 0.5.
    double slotDrift = 0.25;
    // A candidate (1..candidates) that really gains, by `effect` standard deviations of a
    // single trial, on download (and on upload too with `bothWays`); 0: every one a placebo.
    int real = 0;
    double effect = 0;
    bool bothWays = true;
    // A trial's standard deviation, as a share of the throughput, and the margin (percent of
    // the baseline). The false-winner cases judge at a margin of 0, the worst case: a false
    // winner at a margin of 0 is one at any margin.
    double sd = 0.10;
    double marginPct = 0;
    int runs = 2000;
    std::uint64_t seed = 1;
    bool coverage = true; // check every objective interval at every look against the truth
};

struct Result {
    int runs = 0;
    int falseClaims = 0;        // runs where a placebo qualified at some look (a false winner)
    int found = 0;              // runs decided with the real candidate named
    int decided = 0;            // runs decided at some look
    int misses = 0;             // runs where some objective interval missed its truth at some look
    long blocks = 0;            // blocks run, over all runs
    std::vector<int> stoppedAt; // the runs' last block counts
};

namespace detail {

inline double draw(Noise n, std::mt19937_64& rng, bool spikes) {
    switch (n) {
    case Noise::Normal:
        return std::normal_distribution<double>(0, 1)(rng);
    case Noise::T3:
        return std::student_t_distribution<double>(3)(rng) / std::sqrt(3.0);
    case Noise::Skewed: {
        const double e = std::exponential_distribution<double>(1)(rng) - 1;
        return spikes ? e : -e;
    }
    }
    return 0;
}

} // namespace detail

inline Result run(const Case& k) {
    Result res;
    const Plan plan = makePlan(k.candidates);
    const int n = k.candidates + 1;
    constexpr double down = 500e6, up = 300e6;
    const double sd = k.sd;
    std::vector<std::string> names;
    std::vector<int> changes;
    for (int c = 0; c < n; ++c) {
        names.push_back("candidate " + std::to_string(c));
        changes.push_back(c);
    }
    for (int r = 0; r < k.runs; ++r) {
        std::mt19937_64 rng(k.seed * 1000003 + static_cast<std::uint64_t>(r));
        JudgeSpec spec;
        spec.plan = plan;
        spec.intervals = false;
        spec.marginPct = k.marginPct;
        spec.seed = rng();
        std::vector<CandidateTrials> trials(static_cast<std::size_t>(n));
        std::vector<std::optional<TrialMeasures>> repeats;
        double walk = 0;
        bool claimed = false, missed = false;
        int blocks = 0;
        for (int b = 0; b < plan.most(); ++b) {
            walk += std::normal_distribution<double>(0, 0.5)(rng);
            const auto order = blockOrder(b, n, rng);
            for (auto& t : trials)
                t.byBlock.emplace_back();
            repeats.emplace_back();
            for (std::size_t s = 0; s < order.size(); ++s) {
                const double drift = walk + k.slotDrift * static_cast<double>(s);
                const int c = order[s].candidate;
                const double gain = c == k.real ? k.effect : 0;
                TrialMeasures t;
                t.downloadBps =
                    down * (1 + sd * (gain + drift + detail::draw(k.noise, rng, false)));
                if (k.directions > 1)
                    t.uploadBps = up * (1 + sd * ((k.bothWays ? gain : 0) + drift +
                                                  detail::draw(k.noise, rng, false)));
                t.downloadLatencyMs = 20 + 2 * (drift + detail::draw(k.noise, rng, true));
                if (k.directions > 1)
                    t.uploadLatencyMs = 20 + 2 * (drift + detail::draw(k.noise, rng, true));
                t.latencyP90Ms = 30 + 3 * (drift + detail::draw(k.noise, rng, true));
                if (order[s].repeat)
                    repeats.back() = t;
                else
                    trials[static_cast<std::size_t>(c)].byBlock.back() = t;
            }
            blocks = b + 1;
            if (!plan.isLook(blocks))
                continue;
            const auto v = judge(trials, repeats, blocks, spec, names, changes);
            for (int c = 1; c < n; ++c)
                if (c != k.real && v.comparisons[static_cast<std::size_t>(c)].qualifies)
                    claimed = true;
            if (k.coverage) {
                // The true gain of the objective (throughput over its typical value): zero for
                // a placebo; for the real one, its gain over the run's typical throughput.
                const auto typical = typicalBps(trials, repeats);
                for (int c = 1; c < n; ++c) {
                    double truth = 0;
                    if (c == k.real) {
                        truth = down * sd * k.effect / typical.download;
                        if (k.directions > 1)
                            truth =
                                (truth + (k.bothWays ? up * sd * k.effect / typical.upload : 0)) /
                                2;
                    }
                    const auto test = measureTest(trials, repeats, c, Measure::Throughput, spec);
                    if (test && (test->rejects(truth, true, v.level) ||
                                 test->rejects(truth, false, v.level)))
                        missed = true;
                }
            }
            if (v.decided) {
                ++res.decided;
                if (v.winner && *v.winner == k.real)
                    ++res.found;
                break;
            }
        }
        ++res.runs;
        res.falseClaims += claimed;
        res.misses += missed;
        res.blocks += blocks;
        res.stoppedAt.push_back(blocks);
    }
    return res;
}

// The one-sided 95 % upper bound of a rate of x in n (Clopper and Pearson).
inline double upperBound(int x, int n) {
    if (n <= 0)
        return 1;
    if (x >= n)
        return 1;
    double lo = static_cast<double>(x) / n, hi = 1;
    for (int i = 0; i < 60; ++i) {
        const double p = (lo + hi) / 2;
        // P(Binomial(n, p) <= x), its terms in logs (no underflow at n in the thousands)
        double cdf = 0;
        for (int j = 0; j <= x; ++j)
            cdf += std::exp(std::lgamma(n + 1.0) - std::lgamma(j + 1.0) - std::lgamma(n - j + 1.0) +
                            j * std::log(p) + (n - j) * std::log1p(-p));
        (cdf > 0.05 ? lo : hi) = p;
    }
    return hi;
}

} // namespace coresteer::simulate

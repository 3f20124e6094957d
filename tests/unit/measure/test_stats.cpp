// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The tuner's statistics: the median, the bootstrap interval's coverage on known
// distributions, the A/A noise floor, and the comparison of a candidate with the baseline.
#include "core/measure/stats.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

using namespace coresteer::measure;

TEST(Stats, MedianOfOddEvenAndNone) {
    EXPECT_DOUBLE_EQ(median({3, 1, 2}), 2);
    EXPECT_DOUBLE_EQ(median({4, 1, 3, 2}), 2.5);
    EXPECT_DOUBLE_EQ(median({}), 0);
    EXPECT_DOUBLE_EQ(median({-5}), -5);
}

TEST(Stats, BootstrapIsRepeatableAndHoldsTheMedian) {
    const std::vector<double> x{5, 1, 9, 3, 7, 2, 8};
    const auto a = bootstrapMedian(x, 42), b = bootstrapMedian(x, 42);
    EXPECT_EQ(a.lo, b.lo);
    EXPECT_EQ(a.hi, b.hi);
    EXPECT_DOUBLE_EQ(a.median, 5);
    EXPECT_EQ(a.n, 7);
    EXPECT_LE(a.lo, a.median);
    EXPECT_GE(a.hi, a.median);
    EXPECT_GE(a.lo, 1);
    EXPECT_LE(a.hi, 9);
    // One value, or none: the interval is the value.
    const auto one = bootstrapMedian({4}, 1);
    EXPECT_EQ(one.lo, 4);
    EXPECT_EQ(one.hi, 4);
}

// Coverage: over many samples from a known distribution, the 95 % interval holds the true
// median about 95 % of the time. The percentile bootstrap of a median is conservative for
// small samples (its quantiles fall on order statistics), so it must cover at least 90 % and
// must not be so wide that it always covers.
struct CoverageCase {
    const char* name;
    int n;
};

class Coverage : public ::testing::TestWithParam<CoverageCase> {};

TEST_P(Coverage, NinetyFivePercentIntervalsHoldTheTrueMedian) {
    const int n = GetParam().n;
    std::mt19937_64 rng(7);
    const auto run = [&](auto&& draw, double truth) {
        int covered = 0;
        const int samples = 250;
        for (int s = 0; s < samples; ++s) {
            std::vector<double> x(static_cast<std::size_t>(n));
            for (auto& v : x)
                v = draw();
            const auto e = bootstrapMedian(x, static_cast<std::uint64_t>(s), 0.95, 1000);
            covered += e.lo <= truth && truth <= e.hi;
        }
        return static_cast<double>(covered) / samples;
    };
    std::normal_distribution<double> normal(10, 2);
    std::exponential_distribution<double> expo(1.0);      // median ln 2, skewed
    std::uniform_real_distribution<double> uniform(0, 1); // median 0.5
    const double cn = run([&] { return normal(rng); }, 10);
    const double ce = run([&] { return expo(rng); }, std::log(2.0));
    const double cu = run([&] { return uniform(rng); }, 0.5);
    std::printf("n=%d: coverage normal %.3f, exponential %.3f, uniform %.3f\n", n, cn, ce, cu);
    for (double c : {cn, ce, cu}) {
        EXPECT_GE(c, 0.90);
        EXPECT_LE(c, 0.995);
    }
}

INSTANTIATE_TEST_SUITE_P(Samples, Coverage,
                         ::testing::Values(CoverageCase{"six", 6}, CoverageCase{"twelve", 12},
                                           CoverageCase{"thirty", 30}),
                         [](const auto& info) { return std::string(info.param.name); });

namespace {

TrialMeasures bps(double down, double up) {
    TrialMeasures t;
    t.downloadBps = down;
    t.uploadBps = up;
    return t;
}

} // namespace

TEST(Stats, NoiseFloorIsTheMedianAbsoluteAaDifference) {
    std::vector<BlockPair> blocks(4);
    const double a[] = {100, 200, 300, 400}, b[] = {110, 190, 330, 400};
    for (int i = 0; i < 4; ++i) {
        blocks[i].baselineA.downloadBps = a[i];
        blocks[i].baselineB.downloadBps = b[i];
    }
    // |d| = 10, 10, 30, 0: median 10.
    EXPECT_DOUBLE_EQ(noiseFloor(blocks, Measure::DownloadBps), 10);
    EXPECT_DOUBLE_EQ(noiseFloor(blocks, Measure::UploadBps), 0); // never measured
}

TEST(Stats, AClearGainWinsAndSaysWhy) {
    std::mt19937_64 rng(3);
    std::normal_distribution<double> noise(0, 5e6);
    std::vector<BlockPair> blocks;
    for (int b = 0; b < 8; ++b) {
        const double base = 300e6 + 20e6 * b; // drift over the run, shared by the block
        BlockPair p;
        p.baselineA = bps(base + noise(rng), 100e6 + noise(rng));
        p.baselineB = bps(base + noise(rng), 100e6 + noise(rng));
        p.candidate = bps(base + 80e6 + noise(rng), 100e6 + noise(rng));
        blocks.push_back(p);
    }
    const auto c = compare(blocks, Objective::Throughput, 1);
    ASSERT_TRUE(c.wins) << c.reason;
    const auto* down = c.find(Measure::DownloadBps);
    ASSERT_NE(down, nullptr);
    EXPECT_TRUE(down->better);
    EXPECT_NEAR(down->gain.median, 80e6, 15e6);
    EXPECT_GT(down->gain.lo, down->floor);
    EXPECT_FALSE(c.find(Measure::UploadBps)->better);
    EXPECT_NE(c.reason.find("download throughput is better by"), std::string::npos) << c.reason;
    EXPECT_GT(c.score, 0.1);
}

TEST(Stats, ThroughputBoughtWithLatencyDoesNotWin) {
    std::vector<BlockPair> blocks;
    for (int b = 0; b < 8; ++b) {
        BlockPair p;
        p.baselineA = bps(300e6 + b * 1e6, 100e6);
        p.baselineB = bps(301e6 + b * 1e6, 100e6);
        p.baselineA.downloadLatencyMs = 5 + 0.1 * b;
        p.baselineB.downloadLatencyMs = 5.2 + 0.1 * b;
        p.candidate = bps(360e6 + b * 1e6, 100e6);
        p.candidate.downloadLatencyMs = 40 + b;
        blocks.push_back(p);
    }
    const auto c = compare(blocks, Objective::Throughput, 1);
    EXPECT_TRUE(c.find(Measure::DownloadBps)->better);
    EXPECT_TRUE(c.find(Measure::DownloadLatencyMs)->worse);
    EXPECT_FALSE(c.wins);
    EXPECT_NE(c.reason.find("latency increase under download is worse"), std::string::npos)
        << c.reason;
    // With latency as the objective, the same candidate loses on it.
    EXPECT_FALSE(compare(blocks, Objective::Latency, 1).wins);
}

TEST(Stats, AGainWithinTheNoiseFloorDoesNotWin) {
    // A consistent gain of 2 Mbit/s, where the baseline's two runs differ by 10.
    std::vector<BlockPair> blocks;
    for (int b = 0; b < 8; ++b) {
        BlockPair p;
        p.baselineA = bps(300e6 - 5e6, 100e6);
        p.baselineB = bps(300e6 + 5e6, 100e6);
        p.candidate = bps(302e6 + (b % 2) * 0.1e6, 100e6);
        blocks.push_back(p);
    }
    const auto c = compare(blocks, Objective::Throughput, 1);
    const auto* down = c.find(Measure::DownloadBps);
    EXPECT_GT(down->gain.lo, 0);               // clear of zero...
    EXPECT_LT(down->gain.median, down->floor); // ...but not of the noise
    EXPECT_FALSE(c.wins);
    EXPECT_EQ(c.reason, "no difference beyond the noise");
}

TEST(Stats, MeasuresMissingFromABlockAreLeftOutNotZero) {
    std::vector<BlockPair> blocks(3);
    for (auto& p : blocks) {
        p.baselineA = bps(100, 50);
        p.baselineB = bps(100, 50);
        p.candidate = bps(100, 50);
    }
    blocks[1].candidate.uploadBps.reset();
    blocks[2].candidate.uploadBps.reset();
    const auto c = compare(blocks, Objective::Throughput, 1);
    EXPECT_NE(c.find(Measure::DownloadBps), nullptr);
    EXPECT_EQ(c.find(Measure::UploadBps), nullptr); // one block only
    EXPECT_EQ(c.find(Measure::DownloadLatencyMs), nullptr);
}

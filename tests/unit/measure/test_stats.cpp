// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The tuner's plain statistics: the median and its distribution-free interval (whose stated
// coverage is checked by simulation), the measures a trial yields, and the objectives.
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
    EXPECT_DOUBLE_EQ(mean({1, 2, 6}), 3);
}

TEST(Stats, MedianIntervalIsOrderStatisticsWithTheirExactCoverage) {
    // 6 values: only the smallest and the largest reach 95 %: 1 - 2 / 64 = 96.875 %.
    const auto six = medianInterval({5, 1, 9, 3, 7, 2});
    ASSERT_TRUE(six.hasInterval);
    EXPECT_EQ(six.lo, 1);
    EXPECT_EQ(six.hi, 9);
    EXPECT_NEAR(six.coverage, 0.96875, 1e-12);
    // 5 values cannot: (min, max) covers 93.75 %, and no interval is claimed.
    const auto five = medianInterval({5, 1, 9, 3, 7});
    EXPECT_FALSE(five.hasInterval);
    EXPECT_EQ(five.median, 5);
    // 20 values: the 6th smallest and the 6th largest (coverage 95.86 %).
    std::vector<double> twenty;
    for (int i = 1; i <= 20; ++i)
        twenty.push_back(i);
    const auto t = medianInterval(twenty);
    EXPECT_EQ(t.lo, 6);
    EXPECT_EQ(t.hi, 15);
    EXPECT_NEAR(t.coverage, 0.9586, 1e-4);
}

// The interval called 95 % holds the true median at least 95 % of the time, whatever the
// distribution: normal, skewed, heavy-tailed, at 6, 11 and 30 values.
TEST(Stats, MedianIntervalCoversAsItSays) {
    std::mt19937_64 rng(7);
    std::normal_distribution<double> normal(10, 2);
    std::exponential_distribution<double> expo(1.0);
    std::student_t_distribution<double> t3(3);
    for (const int n : {6, 11, 30}) {
        for (int dist = 0; dist < 3; ++dist) {
            const double truth = dist == 0 ? 10 : dist == 1 ? std::log(2.0) : 0;
            int covered = 0, claimed = 0;
            const int samples = 4000;
            double stated = 1;
            for (int s = 0; s < samples; ++s) {
                std::vector<double> x(static_cast<std::size_t>(n));
                for (auto& v : x)
                    v = dist == 0 ? normal(rng) : dist == 1 ? expo(rng) : t3(rng);
                const auto e = medianInterval(x);
                ASSERT_TRUE(e.hasInterval);
                stated = e.coverage;
                ++claimed;
                covered += e.lo <= truth && truth <= e.hi;
            }
            const double rate = static_cast<double>(covered) / claimed;
            std::printf("n=%d dist=%d: stated %.4f, covered %.4f\n", n, dist, stated, rate);
            EXPECT_GE(stated, 0.95);
            // The stated coverage is exact; 4000 samples put the rate within 0.012 of it.
            EXPECT_NEAR(rate, stated, 0.012);
        }
    }
}

TEST(Stats, ThroughputIsTheMeanOfEachDirectionOverItsTypicalValue) {
    TrialMeasures a, b, c;
    a.downloadBps = 400e6;
    a.uploadBps = 100e6;
    b.downloadBps = 500e6;
    b.uploadBps = 200e6;
    c.downloadBps = 600e6;
    c.uploadBps = 300e6;
    const auto typical = typicalBps({a, b, c});
    EXPECT_DOUBLE_EQ(typical.download, 500e6);
    EXPECT_DOUBLE_EQ(typical.upload, 200e6);
    // (600/500 + 300/200) / 2 = 1.35
    EXPECT_DOUBLE_EQ(*signedValue(c, Measure::Throughput, typical), 1.35);
    // A trial whose load failed one way is not a trial of the whole objective.
    TrialMeasures half = c;
    half.uploadBps.reset();
    EXPECT_FALSE(signedValue(half, Measure::Throughput, typical));
    // Latency and a core's load are signed so that higher is better.
    TrialMeasures l;
    l.downloadLatencyMs = 10;
    l.uploadLatencyMs = 20;
    l.busiestShare = 0.9;
    EXPECT_DOUBLE_EQ(*signedValue(l, Measure::Latency, typical), -15);
    EXPECT_DOUBLE_EQ(*signedValue(l, Measure::BusiestShare, typical), -0.9);
    EXPECT_FALSE(signedValue(l, Measure::LatencyP90, typical));
}

TEST(Stats, ObjectivesNameTheirMeasureAndTheirGuards) {
    EXPECT_EQ(objectiveMeasure(Objective::Throughput), Measure::Throughput);
    EXPECT_EQ(objectiveMeasure(Objective::Headroom), Measure::BusiestShare);
    const auto g = guardMeasures(Objective::Throughput);
    EXPECT_EQ(g, (std::vector<Measure>{Measure::Latency, Measure::LatencyP90}));
    const auto h = guardMeasures(Objective::Headroom);
    EXPECT_NE(std::find(h.begin(), h.end(), Measure::Throughput), h.end());
    EXPECT_EQ(objectiveFromString("headroom"), Objective::Headroom);
    EXPECT_FALSE(objectiveFromString("speed"));
    EXPECT_EQ(formatGain(Measure::Throughput, 0.052), "+5.2 %");
    EXPECT_EQ(formatGain(Measure::DownloadBps, -12.34e6), "-12.3 Mbit/s");
    EXPECT_EQ(formatGain(Measure::LatencyP90, 3.25), "+3.2 ms");
}

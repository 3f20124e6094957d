// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The tuner's experiment: randomised complete blocks, and the verdict with its stopping rule.
#include "core/measure/design.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

using namespace coresteer::measure;

TEST(Design, EveryBlockRunsEveryCandidateOnceAndTheBaselineTwice) {
    std::mt19937_64 rng(11);
    std::set<std::vector<int>> orders;
    std::map<int, int> firstPlace; // candidate -> how often it ran first
    for (int b = 0; b < 200; ++b) {
        const auto order = blockOrder(b, 5, rng);
        ASSERT_EQ(order.size(), 6u);
        std::map<int, int> count;
        int repeats = 0;
        bool baselineSeen = false;
        std::vector<int> seq;
        for (const auto& s : order) {
            EXPECT_EQ(s.block, b);
            ++count[s.candidate];
            seq.push_back(s.candidate * 2 + s.repeat);
            if (s.repeat) {
                ++repeats;
                EXPECT_EQ(s.candidate, 0);
                EXPECT_TRUE(baselineSeen) << "the repeat comes after the baseline's first run";
            }
            baselineSeen = baselineSeen || s.candidate == 0;
        }
        EXPECT_EQ(repeats, 1);
        EXPECT_EQ(count[0], 2);
        for (int c = 1; c < 5; ++c)
            EXPECT_EQ(count[c], 1);
        orders.insert(seq);
        ++firstPlace[order.front().candidate];
    }
    // Random, not fixed: many different orders, and every candidate sometimes first (the
    // baseline, with two runs, about twice as often).
    EXPECT_GT(orders.size(), 100u);
    for (int c = 0; c < 5; ++c)
        EXPECT_GT(firstPlace[c], 10) << c;
    EXPECT_GT(firstPlace[0], firstPlace[1]);
}

TEST(Design, TheSameSeedGivesTheSamePlan) {
    std::mt19937_64 a(5), b(5);
    for (int blk = 0; blk < 6; ++blk) {
        const auto x = blockOrder(blk, 4, a), y = blockOrder(blk, 4, b);
        ASSERT_EQ(x.size(), y.size());
        for (std::size_t i = 0; i < x.size(); ++i) {
            EXPECT_EQ(x[i].candidate, y[i].candidate);
            EXPECT_EQ(x[i].repeat, y[i].repeat);
        }
    }
}

namespace {

// Candidates' download throughput per block: `means[c]` plus noise, and a drift shared by each
// block; the baseline's second run is drawn like its first.
struct Experiment {
    std::vector<CandidateTrials> trials;
    std::vector<std::optional<TrialMeasures>> repeats;
};

Experiment simulate(const std::vector<double>& means, int blocks, double sd, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> noise(0, sd);
    Experiment e;
    e.trials.resize(means.size());
    for (int b = 0; b < blocks; ++b) {
        const double drift = 10e6 * (b % 3);
        for (std::size_t c = 0; c < means.size(); ++c) {
            TrialMeasures t;
            t.downloadBps = means[c] + drift + noise(rng);
            t.downloadLatencyMs = 5 + std::abs(noise(rng)) / 1e7;
            e.trials[c].byBlock.push_back(t);
        }
        TrialMeasures r;
        r.downloadBps = means[0] + drift + noise(rng);
        r.downloadLatencyMs = 5 + std::abs(noise(rng)) / 1e7;
        e.repeats.push_back(r);
    }
    return e;
}

const std::vector<std::string> kNames{"current", "plan", "all on big", "RPS over all"};

} // namespace

TEST(Verdict, AClearWinnerIsDecidedWithHighConfidence) {
    const auto e = simulate({250e6, 400e6, 300e6, 260e6}, 6, 8e6, 1);
    const auto v = judge(e.trials, e.repeats, 6, Objective::Throughput, false, 9, kNames);
    ASSERT_TRUE(v.winner);
    EXPECT_EQ(*v.winner, 1);
    EXPECT_TRUE(v.decided);
    EXPECT_EQ(v.confidence, Verdict::Confidence::High);
    EXPECT_EQ(v.text.rfind("plan wins: download throughput is better by", 0), 0u) << v.text;
}

TEST(Verdict, FewerThanSixBlocksNeverDecide) {
    const auto e = simulate({250e6, 400e6, 300e6, 260e6}, 5, 8e6, 1);
    const auto v = judge(e.trials, e.repeats, 5, Objective::Throughput, false, 9, kNames);
    EXPECT_FALSE(v.decided);
    EXPECT_EQ(v.confidence, Verdict::Confidence::Low);
}

TEST(Verdict, TwoCloseWinnersAreNotDecidedYet) {
    // Both beat the baseline, but not each other beyond the noise.
    const auto e = simulate({250e6, 400e6, 402e6, 260e6}, 6, 8e6, 2);
    const auto v = judge(e.trials, e.repeats, 6, Objective::Throughput, false, 9, kNames);
    ASSERT_TRUE(v.winner);
    EXPECT_TRUE(*v.winner == 1 || *v.winner == 2);
    EXPECT_FALSE(v.decided);
}

TEST(Verdict, NoDifferenceIsAnHonestNo) {
    // Every candidate the same as the baseline: nothing wins, and once the intervals sit under
    // the floor, that is decided.
    const auto e = simulate({300e6, 300e6, 300e6, 300e6}, 12, 8e6, 3);
    const auto v = judge(e.trials, e.repeats, 12, Objective::Throughput, false, 9, kNames);
    EXPECT_FALSE(v.winner);
    EXPECT_EQ(v.text, "No real difference: keep what you have.");
    // A worse candidate is no winner either.
    const auto w = simulate({300e6, 200e6}, 6, 8e6, 4);
    const auto vw = judge(w.trials, w.repeats, 6, Objective::Throughput, false, 9, kNames);
    EXPECT_FALSE(vw.winner);
    EXPECT_TRUE(vw.decided);
}

TEST(Verdict, ABudgetThatRunsOutSaysSo) {
    const auto e = simulate({250e6, 400e6, 402e6, 260e6}, 6, 8e6, 2);
    const auto v = judge(e.trials, e.repeats, 6, Objective::Throughput, true, 9, kNames);
    EXPECT_FALSE(v.decided);
    EXPECT_NE(v.text.find("The time budget ran out after 6 blocks"), std::string::npos) << v.text;
    EXPECT_NE(v.confidence, Verdict::Confidence::High);
}

// The A/A case: a candidate identical to the baseline must rarely be named a winner. The
// benchmark (tests/bench) runs this on the emulated router; here on simulated noise with a
// drift, over many experiments, the rate must stay at most 1 in 20.
TEST(Verdict, AnIdenticalCandidateRarelyWins) {
    int wrong = 0;
    const int runs = 200;
    for (int r = 0; r < runs; ++r) {
        const auto e = simulate({300e6, 300e6}, 6, 15e6, 100 + r);
        const auto v = judge(e.trials, e.repeats, 6, Objective::Throughput, false,
                             static_cast<std::uint64_t>(r), {"current", "same"});
        wrong += v.winner.has_value();
    }
    std::printf("A/A: an identical candidate named the winner in %d of %d experiments\n", wrong,
                runs);
    EXPECT_LE(wrong, runs / 20);
}

// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The tuner's experiment: randomised complete blocks, the plan of its looks, and the verdict.
#include "core/measure/design.h"
#include "tests/support/verdict_sim.h"

#include <algorithm>

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

TEST(Plan, LooksAndLevelsFollowFromTheCandidates) {
    for (const int k : {1, 3, 4, 7}) {
        const auto p = makePlan(k);
        ASSERT_EQ(p.looks.size(), p.spend.size());
        ASSERT_GE(p.looks.size(), 2u);
        EXPECT_TRUE(std::is_sorted(p.looks.begin(), p.looks.end()));
        double spent = 0, alpha = 0;
        for (std::size_t i = 0; i < p.looks.size(); ++i) {
            spent += p.spend[i];
            // Both ends of every candidate's interval at every look add up to alpha.
            alpha += 2 * k * p.level(static_cast<int>(i));
        }
        EXPECT_NEAR(spent, 1, 1e-12);
        EXPECT_NEAR(alpha, p.alpha, 1e-12);
        // The first look can reach a tenth of its level with the exact test, and one block
        // fewer could not.
        EXPECT_LE(std::pow(3.0, -p.fewest()), p.level(0) / 10);
        EXPECT_GT(std::pow(3.0, -(p.fewest() - 1)), p.level(0) / 10);
        EXPECT_EQ(p.lookFor(p.fewest() - 1), 0);
        EXPECT_EQ(p.lookFor(p.most() + 1), -1);
        EXPECT_TRUE(p.isLook(p.most()));
        EXPECT_FALSE(p.isLook(p.fewest() + 1));
    }
    EXPECT_LT(makePlan(1).fewest(), makePlan(7).fewest());
}

namespace {

// Candidates' throughput per block (both ways: `means[c]` down, half of it up) plus normal
// noise of `sd` and a drift shared by each block; latency `lat[c]` ms under load; the busiest
// core `busiest[c]` busy (95 % unless said).
struct Experiment {
    std::vector<CandidateTrials> trials;
    std::vector<std::optional<TrialMeasures>> repeats;
};

Experiment experiment(const std::vector<double>& means, int blocks, double sd, std::uint64_t seed,
                      std::vector<double> lat = {}, std::vector<double> busiest = {}) {
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> noise(0, 1);
    lat.resize(means.size(), 20);
    busiest.resize(means.size(), 0.95);
    Experiment e;
    e.trials.resize(means.size());
    for (int b = 0; b < blocks; ++b) {
        const double drift = 10e6 * (b % 3);
        const auto trial = [&](std::size_t c) {
            TrialMeasures t;
            t.downloadBps = means[c] + drift + sd * noise(rng);
            t.uploadBps = means[c] / 2 + drift / 2 + sd / 2 * noise(rng);
            t.downloadLatencyMs = lat[c] + 0.5 * noise(rng);
            t.uploadLatencyMs = lat[c] + 0.5 * noise(rng);
            t.latencyP90Ms = lat[c] + 3 + 0.5 * noise(rng);
            t.busiestShare = std::clamp(busiest[c] + 0.02 * noise(rng), 0.0, 1.0);
            return t;
        };
        for (std::size_t c = 0; c < means.size(); ++c)
            e.trials[c].byBlock.push_back(trial(c));
        e.repeats.push_back(trial(0));
    }
    return e;
}

const std::vector<std::string> kNames{"current", "plan", "all on big", "RPS over all"};

JudgeSpec spec(int candidates) {
    JudgeSpec s;
    s.plan = makePlan(candidates);
    s.seed = 9;
    return s;
}

} // namespace

TEST(Verdict, AClearWinnerIsDecidedAtTheFirstLook) {
    const auto s = spec(3);
    const int n = s.plan.fewest();
    const auto e = experiment({250e6, 400e6, 300e6, 260e6}, n, 8e6, 1);
    const auto v = judge(e.trials, e.repeats, n, s, kNames, {0, 4, 4, 4});
    EXPECT_TRUE(v.decided);
    EXPECT_EQ(v.outcome, Verdict::Outcome::Winner);
    ASSERT_TRUE(v.winner);
    EXPECT_EQ(*v.winner, 1);
    EXPECT_EQ(v.look, 0);
    EXPECT_EQ(v.text.rfind("plan wins: throughput +", 0), 0u) << v.text;
    EXPECT_NE(v.text.find("95 % interval"), std::string::npos) << v.text;
    // Every effect beyond its margin is said: download and upload both gain.
    EXPECT_NE(v.text.find("download throughput +"), std::string::npos) << v.text;
    const auto* g = v.comparisons[1].find(Measure::DownloadBps);
    ASSERT_NE(g, nullptr);
    EXPECT_NEAR(g->estimate, 150e6, 10e6);
    EXPECT_NEAR(g->percent(g->estimate), 60, 5);
    EXPECT_TRUE(g->hasInterval);
    EXPECT_LT(g->lo, g->estimate);
}

TEST(Verdict, NoVerdictBetweenLooks) {
    const auto s = spec(3);
    const int n = s.plan.fewest() - 1;
    const auto e = experiment({250e6, 400e6, 300e6, 260e6}, n, 8e6, 1);
    const auto v = judge(e.trials, e.repeats, n, s, kNames, {0, 4, 4, 4});
    EXPECT_FALSE(v.decided);
    EXPECT_FALSE(v.winner);
    EXPECT_EQ(v.outcome, Verdict::Outcome::Open);
    ASSERT_TRUE(v.leader);
    EXPECT_EQ(*v.leader, 1);
    EXPECT_EQ(v.text.rfind("Not settled after " + std::to_string(n) + " blocks: plan leads", 0), 0u)
        << v.text;
    // Its intervals are those of the next look.
    EXPECT_DOUBLE_EQ(v.level, s.plan.level(0));
}

TEST(Verdict, TiesAtTheTopAreADecisionNamingTheSmallestChange) {
    const auto s = spec(3);
    const int n = s.plan.fewest();
    const auto e = experiment({250e6, 400e6, 400e6, 260e6}, n, 8e6, 2);
    // "all on big" changes less than "plan".
    const auto v = judge(e.trials, e.repeats, n, s, kNames, {0, 6, 2, 4});
    EXPECT_TRUE(v.decided);
    EXPECT_EQ(v.outcome, Verdict::Outcome::Tie);
    ASSERT_TRUE(v.winner);
    EXPECT_EQ(*v.winner, 2);
    EXPECT_EQ(v.tied, (std::vector<int>{2, 1}));
    EXPECT_NE(v.text.find("all on big and plan both gain throughput (+"), std::string::npos)
        << v.text;
    EXPECT_NE(v.text.find("this run cannot rank them"), std::string::npos) << v.text;
    EXPECT_NE(v.text.find("all on big, which changes least, is named"), std::string::npos)
        << v.text;
}

TEST(Verdict, ALatencyLossBeyondTheMarginKeepsAGainFromWinning) {
    const auto s = spec(1);
    const int n = s.plan.most();
    // 60 % more throughput, 15 ms more latency under load (the margin: 5 ms).
    const auto e = experiment({250e6, 400e6}, n, 8e6, 3, {20, 35});
    const auto v = judge(e.trials, e.repeats, n, s, {"current", "fast"}, {0, 2});
    EXPECT_TRUE(v.comparisons[1].find(Measure::Throughput)->better);
    EXPECT_FALSE(v.comparisons[1].qualifies);
    EXPECT_FALSE(v.winner);
    EXPECT_TRUE(v.decided);
    EXPECT_EQ(v.outcome, Verdict::Outcome::NoWinner);
    EXPECT_NE(v.text.find("fast gains: throughput +"), std::string::npos) << v.text;
    EXPECT_NE(v.text.find("latency increase under load could be worse by more than 5.0 ms"),
              std::string::npos)
        << v.text;
}

TEST(Verdict, LessLatencyIsSaidBesideTheGain) {
    const auto s = spec(1);
    const int n = s.plan.fewest();
    const auto e = experiment({250e6, 400e6}, n, 8e6, 4, {40, 3});
    const auto v = judge(e.trials, e.repeats, n, s, {"current", "fast"}, {0, 2});
    ASSERT_TRUE(v.winner) << v.text;
    EXPECT_NE(v.text.find("Also beyond the margin: latency increase under load -3"),
              std::string::npos)
        << v.text;
}

TEST(Verdict, WhenNothingCanWinItIsDecidedEarly) {
    const auto s = spec(2);
    const int n = s.plan.fewest();
    // Both candidates lose a third of the throughput.
    const auto e = experiment({300e6, 200e6, 190e6}, n, 5e6, 5);
    const auto v = judge(e.trials, e.repeats, n, s, kNames, {0, 1, 1});
    EXPECT_TRUE(v.decided);
    EXPECT_EQ(v.outcome, Verdict::Outcome::NoWinner);
    EXPECT_FALSE(v.winner);
    EXPECT_EQ(v.text.rfind("No winner: no candidate gains the margin of 3.0 % of throughput", 0),
              0u)
        << v.text;
}

TEST(Verdict, TheLastLookAlwaysDecidesAndSaysWhatCouldHaveShown) {
    const auto s = spec(2);
    const int n = s.plan.most();
    const auto e = experiment({300e6, 301e6, 300e6}, n, 15e6, 6);
    const auto v = judge(e.trials, e.repeats, n, s, kNames, {0, 1, 1});
    EXPECT_TRUE(v.decided);
    EXPECT_EQ(v.outcome, Verdict::Outcome::NoWinner);
    EXPECT_GT(v.resolution, 0.03);
    EXPECT_NE(v.text.find("would have shown"), std::string::npos) << v.text;
}

TEST(Verdict, ALeftOutCandidateIsNeitherJudgedNorALeader) {
    const auto s = spec(2);
    const int n = s.plan.fewest();
    auto e = experiment({250e6, 400e6, 300e6}, n, 8e6, 7);
    const auto v = judge(e.trials, e.repeats, n, s, kNames, {0, 1, 1}, {false, true, false});
    EXPECT_TRUE(v.comparisons[1].measures.empty());
    ASSERT_TRUE(v.winner);
    EXPECT_EQ(*v.winner, 2);
}

// The false-winner rate of the worst case the benchmark proves (7 placebos, both directions,
// skewed noise, drift inside the blocks, judged at every look at a margin of 0), at a size the
// suite affords: its 95 % upper bound at most 5 %, and every interval holding at once in at
// least 95 % of the runs. tests/bench/bench_verdict runs 2 000 of every case.
TEST(Verdict, FalseWinnersStayUnderOneInTwentyInTheWorstCase) {
    coresteer::simulate::Case c;
    c.candidates = 7;
    c.directions = 2;
    c.noise = coresteer::simulate::Noise::Skewed;
    c.runs = 300;
    c.seed = 77;
    const auto r = coresteer::simulate::run(c);
    const double upper = coresteer::simulate::upperBound(r.falseClaims, r.runs);
    std::printf("7 placebos: %d false winners in %d runs (95 %% upper bound %.3f), %d runs "
                "with an interval missing\n",
                r.falseClaims, r.runs, upper, r.misses);
    EXPECT_LE(upper, 0.05);
    EXPECT_LE(r.misses, r.runs / 20) << "coverage below 95 %";
    EXPECT_EQ(r.decided, r.runs); // the last look decides every run
}

// The router was not the limit: every layout forwards the same and no core came near
// saturation under the baseline's load. The verdict says so, not "no difference".
TEST(Verdict, ALoadTheRouterDidNotLimitIsSaidSo) {
    const auto s = spec(2);
    const int n = s.plan.most();
    const auto e = experiment({300e6, 300e6, 300e6}, n, 6e6, 8, {}, {0.35, 0.30, 0.20});
    const auto v = judge(e.trials, e.repeats, n, s, kNames, {0, 1, 1});
    EXPECT_TRUE(v.decided);
    EXPECT_EQ(v.outcome, Verdict::Outcome::NoWinner);
    EXPECT_EQ(v.bottleneck, Verdict::Bottleneck::Elsewhere);
    EXPECT_NEAR(v.baselineBusiest, 0.35, 0.03);
    EXPECT_EQ(v.text.rfind("The router was not the limit at 3", 0), 0u) << v.text;
    EXPECT_NE(v.text.find("the link, this computer or the load's server was"), std::string::npos)
        << v.text;
    // A core near saturation: the router was the limit, and no winner is an honest no.
    const auto busy = experiment({300e6, 300e6, 300e6}, n, 6e6, 8, {}, {0.93, 0.93, 0.93});
    const auto vb = judge(busy.trials, busy.repeats, n, s, kNames, {0, 1, 1});
    EXPECT_EQ(vb.bottleneck, Verdict::Bottleneck::Router);
    EXPECT_EQ(vb.text.rfind("No winner", 0), 0u) << vb.text;
}

// Headroom: under the same (capped) load, the layout that leaves the busiest core least busy
// wins, its throughput kept within the margin.
TEST(Verdict, HeadroomNamesTheLayoutThatLeavesTheCoresFree) {
    auto s = spec(2);
    s.objective = Objective::Headroom;
    const int n = s.plan.fewest();
    const auto e = experiment({300e6, 300e6, 300e6}, n, 1e6, 9, {}, {0.60, 0.58, 0.30});
    const auto v = judge(e.trials, e.repeats, n, s, kNames, {0, 1, 1});
    ASSERT_TRUE(v.winner) << v.text;
    EXPECT_EQ(*v.winner, 2);
    EXPECT_EQ(v.text.rfind("all on big wins: busiest core's load -", 0), 0u) << v.text;
}

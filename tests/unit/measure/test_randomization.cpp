// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The randomisation test: its size under the null for any noise (it rejects at most as often as
// its level says), its intervals (the bounds agree with the test at the margin, and move with a
// shift), and what too few blocks allow.
#include "core/measure/randomization.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

using namespace coresteer::measure;

namespace {

// n blocks of a treated value and two controls, all drawn alike (the null), with the treated
// one's slot drawn at random among three that drift upwards within the block: the values
// depend on the slot, never on which slot the treated one drew.
std::vector<ShiftTest::Block> nullBlocks(int n, std::mt19937_64& rng, int noise) {
    std::exponential_distribution<double> expo(1);
    std::normal_distribution<double> normal(0, 1);
    std::student_t_distribution<double> t3(3);
    std::uniform_int_distribution<int> slot(0, 2);
    std::vector<ShiftTest::Block> out;
    for (int b = 0; b < n; ++b) {
        double v[3];
        for (int s = 0; s < 3; ++s) {
            const double e = noise == 0 ? normal(rng) : noise == 1 ? -expo(rng) : t3(rng);
            v[s] = 100 + 0.8 * s + e;
        }
        const int t = slot(rng);
        ShiftTest::Block blk;
        blk.treated = v[t];
        blk.controls = 2;
        int k = 0;
        for (int s = 0; s < 3; ++s)
            if (s != t)
                blk.control[k++] = v[s];
        out.push_back(blk);
    }
    return out;
}

} // namespace

// The size: over many experiments where nothing differs, each side rejects at most as often as
// its level, for normal, skewed (dips) and heavy-tailed noise with drift inside the blocks.
TEST(Randomization, RejectsUnderTheNullNoMoreOftenThanItsLevel) {
    std::mt19937_64 rng(3);
    const double a = 0.05;
    const int runs = 3000;
    for (int noise = 0; noise < 3; ++noise) {
        int above = 0, below = 0;
        for (int r = 0; r < runs; ++r) {
            ShiftTest t(nullBlocks(8, rng, noise), static_cast<std::uint64_t>(r), 999);
            above += t.rejects(0, true, a);
            below += t.rejects(0, false, a);
        }
        const double ra = static_cast<double>(above) / runs, rb = static_cast<double>(below) / runs;
        std::printf("noise %d: rejected %.4f for a larger gain, %.4f for a smaller one\n", noise,
                    ra, rb);
        // The level, within 3.3 standard errors of 3000 runs (the test is exact: its size is
        // the level, not less; 20 000 runs here gave 0.050 to 0.052), and not much less: the
        // test uses what its level allows.
        for (double rate : {ra, rb}) {
            EXPECT_LE(rate, a + 0.013);
            EXPECT_GE(rate, 0.035);
        }
    }
}

TEST(Randomization, EstimateIsTheMeanPairedGain) {
    std::vector<ShiftTest::Block> blocks(3);
    const double treated[] = {10, 12, 14}, c1[] = {8, 9, 10}, c2[] = {9, 11, 12};
    for (int i = 0; i < 3; ++i) {
        blocks[static_cast<std::size_t>(i)].treated = treated[i];
        blocks[static_cast<std::size_t>(i)].control[0] = c1[i];
        blocks[static_cast<std::size_t>(i)].control[1] = c2[i];
        blocks[static_cast<std::size_t>(i)].controls = 2;
    }
    // Gains 1.5, 2, 3: mean 2.1666...
    EXPECT_NEAR(ShiftTest(blocks, 1).estimate(), 6.5 / 3, 1e-12);
}

TEST(Randomization, BoundsAgreeWithTheTestAndMoveWithAShift) {
    std::mt19937_64 rng(11);
    std::normal_distribution<double> noise(0, 1);
    std::vector<ShiftTest::Block> blocks;
    for (int b = 0; b < 12; ++b) {
        ShiftTest::Block blk;
        blk.treated = 103 + noise(rng);
        blk.control[0] = 100 + noise(rng);
        blk.control[1] = 100 + noise(rng);
        blk.controls = 2;
        blocks.push_back(blk);
    }
    const ShiftTest t(blocks, 5);
    const double a = 0.005;
    const auto b = t.bounds(a);
    ASSERT_TRUE(std::isfinite(b.lo) && std::isfinite(b.hi));
    EXPECT_LT(b.lo, t.estimate());
    EXPECT_GT(b.hi, t.estimate());
    EXPECT_GT(b.lo, 0); // a gain of 3 standard deviations, 12 blocks
    // rejects(D) for a larger gain exactly when D < lo; for a smaller one when D > hi.
    const double eps = 1e-9;
    EXPECT_TRUE(t.rejects(b.lo - eps, true, a));
    EXPECT_FALSE(t.rejects(b.lo, true, a));
    EXPECT_TRUE(t.rejects(b.hi + eps, false, a));
    EXPECT_FALSE(t.rejects(b.hi, false, a));
    // The same seed gives the same interval.
    const auto again = ShiftTest(blocks, 5).bounds(a);
    EXPECT_EQ(again.lo, b.lo);
    EXPECT_EQ(again.hi, b.hi);
    // Every treated value 2 higher: the estimate and both ends move by 2.
    auto shifted = blocks;
    for (auto& blk : shifted)
        blk.treated += 2;
    const ShiftTest s(shifted, 5);
    const auto sb = s.bounds(a);
    EXPECT_NEAR(s.estimate(), t.estimate() + 2, 1e-9);
    EXPECT_NEAR(sb.lo, b.lo + 2, 1e-9);
    EXPECT_NEAR(sb.hi, b.hi + 2, 1e-9);
}

TEST(Randomization, TooFewBlocksRejectNothing) {
    // 3 blocks of three: 27 arrangements, p never below 1/27: nothing at a level of 1 %.
    std::vector<ShiftTest::Block> blocks(3);
    for (auto& b : blocks) {
        b.treated = 1000;
        b.control[0] = 1;
        b.control[1] = 2;
        b.controls = 2;
    }
    const ShiftTest t(blocks, 1, 999);
    EXPECT_FALSE(t.rejects(0, true, 0.01));
    EXPECT_TRUE(t.rejects(0, true, 0.2));
    EXPECT_NEAR(ShiftTest::smallestP(3, 3, 999), 1.0 / 27, 1e-12);
    const auto none = ShiftTest({}, 1).bounds(0.05);
    EXPECT_TRUE(std::isinf(none.lo) && std::isinf(none.hi));
    EXPECT_FALSE(ShiftTest({}, 1).rejects(0, true, 0.5));
}

TEST(Randomization, OneControlIsASignFlip) {
    // Two candidates compared with each other: a block's two values swap under the null.
    std::vector<ShiftTest::Block> blocks(10);
    for (std::size_t i = 0; i < blocks.size(); ++i) {
        blocks[i].treated = 10 + static_cast<double>(i % 3);
        blocks[i].control[0] = 5 + static_cast<double>(i % 2);
        blocks[i].controls = 1;
    }
    const ShiftTest t(blocks, 2);
    // Every block favours the treated: p about 2^-10 < 0.005.
    EXPECT_TRUE(t.rejects(0, true, 0.005));
    EXPECT_FALSE(t.rejects(0, false, 0.4));
}

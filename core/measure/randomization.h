// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The tuner's test: inference from the experiment's own randomisation.
//
// In a block the trials run in an order drawn at random (design.h). If a candidate changes
// nothing (the null hypothesis), its trial and the baseline's two trials of the block would
// have given the same three values whichever of the three slots it had drawn: each of the three
// values was as likely to be the candidate's. So the sum over the blocks of the candidate's
// values is one draw from the sums of one value taken at random from each block's group, and
// its p-value is the share of those sums at least as large. That holds for any noise (skewed,
// heavy-tailed, drifting within a block), because the randomisation it rests on is the one the
// tuner performs, not a model of the noise.
//
// Intervals come from the same test under a shift model (the candidate adds a gain D to every
// trial): testing D subtracts it from the candidate's values, and the Ds not rejected form the
// interval. Each resample's comparison is linear in D, so each has one threshold, and the bounds
// are order statistics of the thresholds: computed exactly, not searched, and a decision against
// a margin (rejects()) agrees with the bound (bounds()) by construction.
//
// The resamples are Monte Carlo: p = (1 + exceedances) / (R + 1), a valid p-value for any R
// (it never falls below what the exact test gives by more than chance allows, and it is never
// below 1 / (R + 1)). Resample r's draw in block b is a hash of (seed, r, b): adding a block
// leaves the earlier draws as they were, and the same seed gives the same answer.
#pragma once

#include <cstdint>
#include <vector>

namespace coresteer::measure {

// Resamples of each test: enough that a p-value of 1 in 20 000 can be told.
inline constexpr int kResamples = 19999;

class ShiftTest {
public:
    // One block: the treated value (the candidate's) and one or two controls (the baseline's
    // runs; or, to compare two candidates, the other one's), each signed so that higher is
    // better.
    struct Block {
        double treated = 0;
        double control[2] = {0, 0};
        int controls = 1;
    };

    ShiftTest(std::vector<Block> blocks, std::uint64_t seed, int resamples = kResamples);

    int blocks() const { return static_cast<int>(m_blocks.size()); }
    // The shift the test centres on: the weighted mean over blocks of the treated value minus
    // the mean of its controls (the plain mean of the paired gains when every block has two).
    double estimate() const { return m_estimate; }
    // Whether a gain of `delta` is rejected at one-sided level `a`: in favour of a larger gain
    // (`larger`), else of a smaller one. Stops resampling as soon as the answer is known.
    bool rejects(double delta, bool larger, double a) const;
    // The bounds of the interval whose ends are each one-sided at level `a`: lo is the least
    // gain not rejected in favour of a larger one, hi the largest not rejected in favour of a
    // smaller one. -inf / +inf where no gain can be rejected (too few blocks for level `a`).
    struct Bounds {
        double lo, hi;
    };
    Bounds bounds(double a) const;
    // The smallest p-value these blocks allow, whatever they hold: 3^-n with n blocks of three
    // values (the exact test's floor), and never below 1 / (R + 1).
    static double smallestP(int blocks, int groupSize, int resamples = kResamples);

private:
    // Resample r's sum of picked values and how many picks were the treated one.
    void resample(int r, double& sum, int& treated) const;
    double threshold(double sum, int treated) const;
    std::vector<Block> m_blocks;
    std::uint64_t m_seed;
    int m_resamples;
    double m_treatedSum = 0;
    double m_estimate = 0;
};

} // namespace coresteer::measure

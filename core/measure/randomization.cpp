// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/measure/randomization.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace coresteer::measure {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// SplitMix64's finaliser: a well-mixed 64-bit hash of (seed, resample, block).
std::uint64_t mix(std::uint64_t x) {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

// Which of `groupSize` values resample r draws in block b: uniform, by Lemire's multiply-shift.
int pick(std::uint64_t seed, int r, int b, int groupSize) {
    const std::uint64_t h =
        mix(seed ^ mix((static_cast<std::uint64_t>(r) << 20) ^ static_cast<std::uint64_t>(b)));
    return static_cast<int>(((h >> 32) * static_cast<std::uint64_t>(groupSize)) >> 32);
}

} // namespace

ShiftTest::ShiftTest(std::vector<Block> blocks, std::uint64_t seed, int resamples)
    : m_blocks(std::move(blocks)), m_seed(seed), m_resamples(std::max(1, resamples)) {
    double num = 0, den = 0;
    for (auto& b : m_blocks) {
        b.controls = std::clamp(b.controls, 1, 2);
        m_treatedSum += b.treated;
        double c = 0;
        for (int i = 0; i < b.controls; ++i)
            c += b.control[i];
        const double g = b.controls + 1;
        // The centre of the randomisation distribution moves by (g - 1) / g of a shift: the
        // shift that puts the observed sum at the centre is this weighted mean.
        num += (g - 1) / g * (b.treated - c / b.controls);
        den += (g - 1) / g;
    }
    m_estimate = den > 0 ? num / den : 0;
}

void ShiftTest::resample(int r, double& sum, int& treated) const {
    sum = 0;
    treated = 0;
    for (std::size_t b = 0; b < m_blocks.size(); ++b) {
        const auto& blk = m_blocks[b];
        const int p = pick(m_seed, r, static_cast<int>(b), blk.controls + 1);
        if (p == 0) {
            sum += blk.treated;
            ++treated;
        } else {
            sum += blk.control[p - 1];
        }
    }
}

// Under a shift D the treated values drop by D: the resample's sum is sum - treated * D and the
// observed one T - n * D. The resample reaches the observed (counts against a larger gain) once
// D is at least (T - sum) / (n - treated); a resample that drew every treated value always
// does. Returned as -inf there.
double ShiftTest::threshold(double sum, int treated) const {
    const int n = blocks();
    if (treated >= n)
        return -kInf;
    return (m_treatedSum - sum) / static_cast<double>(n - treated);
}

bool ShiftTest::rejects(double delta, bool larger, double a) const {
    if (m_blocks.empty())
        return false;
    // Rejected when 1 + exceedances <= a (R + 1): at most `allowed` exceedances.
    const auto allowed = static_cast<long>(std::floor(a * (m_resamples + 1) + 1e-9)) - 1;
    if (allowed < 0)
        return false;
    long count = 0;
    for (int r = 0; r < m_resamples; ++r) {
        double sum;
        int treated;
        resample(r, sum, treated);
        const double t = threshold(sum, treated);
        // For a larger gain, a resample exceeds at D >= t; for a smaller one, at D <= t (a
        // resample of every treated value: always, either way).
        const bool exceeds = treated >= blocks() || (larger ? delta >= t : delta <= t);
        if (exceeds && ++count > allowed)
            return false;
    }
    return true;
}

ShiftTest::Bounds ShiftTest::bounds(double a) const {
    if (m_blocks.empty())
        return {-kInf, kInf};
    const auto allowed = static_cast<long>(std::floor(a * (m_resamples + 1) + 1e-9)) - 1;
    if (allowed < 0 || allowed >= m_resamples)
        return {-kInf, kInf};
    std::vector<double> lower(static_cast<std::size_t>(m_resamples)), upper(lower.size());
    for (int r = 0; r < m_resamples; ++r) {
        double sum;
        int treated;
        resample(r, sum, treated);
        const double t = threshold(sum, treated);
        lower[static_cast<std::size_t>(r)] = t;                              // -inf: always
        upper[static_cast<std::size_t>(r)] = treated >= blocks() ? kInf : t; // +inf: always
    }
    // A larger gain: rejected while at most `allowed` thresholds are <= D, that is below the
    // (allowed + 1)-th smallest. A smaller gain: above the (allowed + 1)-th largest.
    const auto k = static_cast<std::size_t>(allowed);
    std::nth_element(lower.begin(), lower.begin() + static_cast<std::ptrdiff_t>(k), lower.end());
    std::nth_element(upper.begin(), upper.begin() + static_cast<std::ptrdiff_t>(k), upper.end(),
                     std::greater<>());
    return {lower[k], upper[k]};
}

double ShiftTest::smallestP(int blocks, int groupSize, int resamples) {
    const double exact = std::pow(static_cast<double>(std::max(2, groupSize)), -blocks);
    return std::max(exact, 1.0 / (resamples + 1));
}

} // namespace coresteer::measure

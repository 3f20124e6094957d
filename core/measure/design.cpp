// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/measure/design.h"

#include <algorithm>

namespace coresteer::measure {

std::vector<Slot> blockOrder(int block, int candidates, std::mt19937_64& rng) {
    std::vector<Slot> order;
    for (int c = 0; c < candidates; ++c)
        order.push_back({block, c, false});
    if (candidates > 0)
        order.push_back({block, 0, true});
    std::shuffle(order.begin(), order.end(), rng);
    // The baseline's first run is the one that comes first; its second, the one after.
    bool seen = false;
    for (auto& s : order)
        if (s.candidate == 0) {
            s.repeat = seen;
            seen = true;
        }
    return order;
}

const char* toString(Verdict::Confidence c) {
    switch (c) {
    case Verdict::Confidence::Low:
        return "low";
    case Verdict::Confidence::Medium:
        return "medium";
    case Verdict::Confidence::High:
        return "high";
    }
    return "?";
}

std::vector<BlockPair> blockPairs(const std::vector<CandidateTrials>& trials,
                                  const std::vector<std::optional<TrialMeasures>>& repeats, int c) {
    std::vector<BlockPair> pairs;
    if (c < 0 || static_cast<std::size_t>(c) >= trials.size() || trials.empty())
        return pairs;
    const auto& own = trials[static_cast<std::size_t>(c)].byBlock;
    const auto& base = trials[0].byBlock;
    for (std::size_t b = 0; b < own.size() && b < base.size(); ++b) {
        if (!own[b] || !base[b])
            continue;
        BlockPair p;
        p.candidate = *own[b];
        p.baselineA = *base[b];
        if (b < repeats.size() && repeats[b])
            p.baselineB = *repeats[b];
        pairs.push_back(std::move(p));
    }
    return pairs;
}

namespace {

bool onObjective(Measure m, Objective o) {
    return (o == Objective::Throughput) == higherIsBetter(m);
}

// The objective's measures of a comparison.
std::vector<const Comparison::PerMeasure*> objectiveMeasures(const Comparison& c, Objective o) {
    std::vector<const Comparison::PerMeasure*> r;
    for (const auto& p : c.measures)
        if (onObjective(p.measure, o))
            r.push_back(&p);
    return r;
}

} // namespace

Verdict judge(const std::vector<CandidateTrials>& trials,
              const std::vector<std::optional<TrialMeasures>>& repeats, int blocks,
              Objective objective, bool budgetSpent, std::uint64_t seed,
              const std::vector<std::string>& names) {
    Verdict v;
    v.comparisons.resize(trials.size());
    for (std::size_t c = 1; c < trials.size(); ++c)
        v.comparisons[c] =
            compare(blockPairs(trials, repeats, static_cast<int>(c)), objective, seed + 1000 * c);
    for (std::size_t c = 1; c < trials.size(); ++c) {
        const auto& cmp = v.comparisons[c];
        if (cmp.wins && (!v.winner || cmp.score > v.comparisons[*v.winner].score))
            v.winner = static_cast<int>(c);
    }
    const auto name = [&](std::size_t c) {
        return c < names.size() ? names[c] : "candidate " + std::to_string(c);
    };
    const bool enough = blocks >= kMinBlocks;
    if (v.winner) {
        // The winner's objective measures that are better: their lower ends must clear every
        // other candidate's upper end of the same measure, and the floor.
        const auto& w = v.comparisons[static_cast<std::size_t>(*v.winner)];
        bool clear = true, beyondFloor = true;
        for (const auto* p : objectiveMeasures(w, objective)) {
            if (!p->better)
                continue;
            beyondFloor = beyondFloor && p->gain.lo > p->floor;
            for (std::size_t c = 1; c < trials.size(); ++c) {
                if (static_cast<int>(c) == *v.winner)
                    continue;
                if (const auto* o = v.comparisons[c].find(p->measure);
                    o && o->gain.hi >= p->gain.lo)
                    clear = false;
            }
        }
        v.decided = enough && clear;
        v.confidence = !enough || budgetSpent ? Verdict::Confidence::Low
                       : clear && beyondFloor ? Verdict::Confidence::High
                                              : Verdict::Confidence::Medium;
        if (budgetSpent && clear && enough)
            v.confidence = Verdict::Confidence::Medium;
        v.text = name(static_cast<std::size_t>(*v.winner)) + " wins: " + w.reason + ".";
    } else {
        // Nothing wins; can anything still? Not where every candidate's objective interval
        // lies below the floor.
        bool none = true;
        for (std::size_t c = 1; c < trials.size(); ++c)
            for (const auto* p : objectiveMeasures(v.comparisons[c], objective))
                if (p->gain.hi > p->floor)
                    none = false;
        v.decided = enough && none;
        v.confidence = !enough                ? Verdict::Confidence::Low
                       : none && !budgetSpent ? Verdict::Confidence::High
                                              : Verdict::Confidence::Medium;
        v.text = "No real difference: keep what you have.";
    }
    if (budgetSpent && !v.decided)
        v.text += " The time budget ran out after " + std::to_string(blocks) + " block" +
                  (blocks == 1 ? "" : "s") + ", before the verdict was settled.";
    return v;
}

} // namespace coresteer::measure

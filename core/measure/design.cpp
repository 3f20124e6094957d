// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/measure/design.h"

#include "core/measure/randomization.h"

#include <algorithm>
#include <cmath>

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

int Plan::lookFor(int blocks) const {
    for (std::size_t i = 0; i < looks.size(); ++i)
        if (looks[i] >= blocks)
            return static_cast<int>(i);
    return -1;
}

bool Plan::isLook(int blocks) const {
    return std::find(looks.begin(), looks.end(), blocks) != looks.end();
}

double Plan::level(int i) const {
    if (i < 0 || static_cast<std::size_t>(i) >= spend.size())
        return 0;
    return alpha / 2 * spend[static_cast<std::size_t>(i)] / std::max(1, candidates);
}

Plan makePlan(int candidates) {
    Plan p;
    p.candidates = std::max(1, candidates);
    // Four looks, the alpha spent on them growing with the blocks (a little early, for the
    // large effects that show at once; most at the end, where the small ones show). The first
    // look comes at the fewest blocks whose exact test can reach a tenth of that look's level,
    // so that a clear result there is a decision and not a coin at the edge of the test's
    // reach; the others follow every third block.
    p.spend = {0.1, 0.2, 0.3, 0.4};
    const double first = p.alpha / 2 * p.spend.front() / p.candidates;
    int n = 4;
    while (std::pow(3.0, -n) > first / 10)
        ++n;
    for (int i = 0; i < 4; ++i)
        p.looks.push_back(n + 3 * i);
    return p;
}

std::vector<BlockPair> blockPairs(const std::vector<CandidateTrials>& trials,
                                  const std::vector<std::optional<TrialMeasures>>& repeats, int c) {
    std::vector<BlockPair> pairs;
    if (c < 0 || static_cast<std::size_t>(c) >= trials.size() || trials.empty())
        return pairs;
    const auto& own = trials[static_cast<std::size_t>(c)].byBlock;
    const auto& base = trials[0].byBlock;
    for (std::size_t b = 0; b < own.size(); ++b) {
        BlockPair p;
        p.candidate = own[b];
        if (b < base.size())
            p.baselineA = base[b];
        if (b < repeats.size())
            p.baselineB = repeats[b];
        pairs.push_back(std::move(p));
    }
    return pairs;
}

const char* toString(Verdict::Outcome o) {
    switch (o) {
    case Verdict::Outcome::Open:
        return "open";
    case Verdict::Outcome::Winner:
        return "winner";
    case Verdict::Outcome::Tie:
        return "tie";
    case Verdict::Outcome::NoWinner:
        return "no-winner";
    }
    return "?";
}

const char* toString(Verdict::Bottleneck b) {
    switch (b) {
    case Verdict::Bottleneck::Unknown:
        return "unknown";
    case Verdict::Bottleneck::Router:
        return "router";
    case Verdict::Bottleneck::Elsewhere:
        return "elsewhere";
    }
    return "?";
}

double Comparison::PerMeasure::percent(double v) const {
    return baseline != 0 ? 100 * v / std::fabs(baseline) : 0;
}

const Comparison::PerMeasure* Comparison::find(Measure m) const {
    for (const auto& p : measures)
        if (p.measure == m)
            return &p;
    return nullptr;
}

} // namespace coresteer::measure

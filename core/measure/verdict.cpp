// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// judge(): the verdict of design.h, from the randomisation tests of randomization.h.
#include "core/measure/design.h"

#include "core/base/text.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace coresteer::measure {

namespace {

std::uint64_t seedFor(std::uint64_t seed, std::size_t a, std::size_t b) {
    return seed * 0x9e3779b97f4a7c15ULL + (static_cast<std::uint64_t>(a) << 16) + b + 1;
}

bool isLatency(Measure m) {
    return m == Measure::Latency || m == Measure::LatencyP90 || m == Measure::DownloadLatencyMs ||
           m == Measure::UploadLatencyMs;
}

// The measure as measured (for the baseline's level and the percentages), from its signed value.
double raw(Measure m, double signedValue) {
    return higherIsBetter(m) ? signedValue : -signedValue;
}

// A candidate's blocks of one measure, as the test takes them, and the baseline's mean.
struct Series {
    std::vector<ShiftTest::Block> blocks;
    double baseline = 0;
};

Series series(const std::vector<BlockPair>& pairs, Measure m, const TypicalBps& typical) {
    Series s;
    std::vector<double> base;
    for (const auto& p : pairs) {
        if (!p.candidate)
            continue;
        const auto v = signedValue(*p.candidate, m, typical);
        if (!v)
            continue;
        ShiftTest::Block b;
        b.treated = *v;
        b.controls = 0;
        for (const auto* t : {&p.baselineA, &p.baselineB})
            if (*t)
                if (const auto c = signedValue(**t, m, typical)) {
                    b.control[b.controls++] = *c;
                    base.push_back(raw(m, *c));
                }
        if (b.controls > 0)
            s.blocks.push_back(b);
    }
    s.baseline = mean(base);
    return s;
}

double marginFor(Measure m, double baseline, const JudgeSpec& spec) {
    const double relative = spec.marginPct / 100 * std::fabs(baseline);
    if (isLatency(m))
        return std::max(relative, spec.latencyMarginMs);
    if (m == Measure::BusiestShare)
        return std::max(relative, spec.shareMargin);
    return relative;
}

std::string pct(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%+.1f %%", v);
    return buf;
}

// A value of a measure as a person reads it: throughput (a share of the typical throughput) in
// percent of the baseline's; the others in their units.
std::string shown(const Comparison::PerMeasure& p, double v) {
    if (p.measure == Measure::Throughput)
        return pct(p.percent(v));
    return formatGain(p.measure, v);
}

// "latency increase under load -37.1 ms (-92.8 %)": the change as measured, not the gain.
std::string changeText(const Comparison::PerMeasure& p) {
    const double change = raw(p.measure, p.estimate);
    std::string s = std::string(toString(p.measure)) + " " + shown(p, change);
    if (p.measure != Measure::Throughput && p.baseline != 0)
        s += " (" + pct(p.percent(change)) + ")";
    return s;
}

std::string intervalText(const Comparison::PerMeasure& p) {
    if (!p.hasInterval)
        return "no interval yet";
    double lo = raw(p.measure, p.lo), hi = raw(p.measure, p.hi);
    if (lo > hi)
        std::swap(lo, hi);
    return "95 % interval " + shown(p, lo) + " to " + shown(p, hi);
}

std::string marginText(const Comparison::PerMeasure& p) {
    std::string s = shown(p, p.margin);
    if (!s.empty() && s[0] == '+')
        s.erase(0, 1);
    return s;
}

// What a candidate showed beyond the margins besides the objective, for the verdict.
std::string effects(const Comparison& c, Measure objective) {
    std::string out;
    // A direction's latency says what the latency under load says where it is the only one.
    const bool bothLatencies =
        c.find(Measure::DownloadLatencyMs) && c.find(Measure::UploadLatencyMs);
    for (const auto& p : c.measures) {
        if (p.measure == objective || p.measure == Measure::Latency || !(p.better || p.worse))
            continue;
        if (!bothLatencies &&
            (p.measure == Measure::DownloadLatencyMs || p.measure == Measure::UploadLatencyMs))
            continue;
        out += (out.empty() ? "" : ", ") + changeText(p);
    }
    // The latency, when it moved, comes first: it is what a person feels.
    if (const auto* l = c.find(Measure::Latency);
        l && objective != Measure::Latency && (l->better || l->worse))
        out = changeText(*l) + (out.empty() ? "" : ", " + out);
    return out;
}

} // namespace

TypicalBps typicalBps(const std::vector<CandidateTrials>& trials,
                      const std::vector<std::optional<TrialMeasures>>& repeats) {
    std::vector<TrialMeasures> all;
    for (const auto& t : trials)
        for (const auto& b : t.byBlock)
            if (b)
                all.push_back(*b);
    for (const auto& r : repeats)
        if (r)
            all.push_back(*r);
    return typicalBps(all);
}

std::optional<ShiftTest> measureTest(const std::vector<CandidateTrials>& trials,
                                     const std::vector<std::optional<TrialMeasures>>& repeats,
                                     int c, Measure m, const JudgeSpec& spec) {
    auto s = series(blockPairs(trials, repeats, c), m, typicalBps(trials, repeats));
    if (s.blocks.empty())
        return std::nullopt;
    return ShiftTest(std::move(s.blocks),
                     seedFor(spec.seed, static_cast<std::size_t>(c), static_cast<std::size_t>(m)));
}

Verdict judge(const std::vector<CandidateTrials>& trials,
              const std::vector<std::optional<TrialMeasures>>& repeats, int blocks,
              const JudgeSpec& spec, const std::vector<std::string>& names,
              const std::vector<int>& changes, const std::vector<bool>& leftOut) {
    Verdict v;
    const std::size_t n = trials.size();
    v.comparisons.resize(n);
    const auto& plan = spec.plan;
    v.look = plan.lookFor(blocks);
    const int lookIndex = v.look >= 0 ? v.look : static_cast<int>(plan.looks.size()) - 1;
    v.level = plan.level(lookIndex);
    const double a = v.level;
    const bool atLook = plan.isLook(blocks);
    const bool last = blocks >= plan.most();
    const Measure objective = objectiveMeasure(spec.objective);
    const auto guards = guardMeasures(spec.objective);
    const auto name = [&](std::size_t c) {
        return c < names.size() ? names[c] : "candidate " + std::to_string(c);
    };
    const auto out = [&](std::size_t c) { return c < leftOut.size() && leftOut[c]; };

    const auto typical = typicalBps(trials, repeats);

    for (std::size_t c = 1; c < n; ++c) {
        if (out(c))
            continue;
        auto& cmp = v.comparisons[c];
        const auto pairs = blockPairs(trials, repeats, static_cast<int>(c));
        bool guardsWithin = true, guardWorse = false;
        std::string guardWhy;
        bool better = false, cannotGain = false;
        // The objective first: a guard is tested only where the objective is better.
        std::vector<std::size_t> order{static_cast<std::size_t>(objective)};
        for (std::size_t mi = 0; mi < std::size(kMeasures); ++mi)
            if (kMeasures[mi] != objective)
                order.push_back(mi);
        for (const std::size_t mi : order) {
            const Measure m = kMeasures[mi];
            const bool isObjective = m == objective;
            const bool isGuard = std::find(guards.begin(), guards.end(), m) != guards.end();
            if (!spec.intervals && !isObjective && !isGuard)
                continue;
            auto s = series(pairs, m, typical);
            if (s.blocks.empty())
                continue;
            Comparison::PerMeasure p;
            p.measure = m;
            p.n = static_cast<int>(s.blocks.size());
            p.baseline = s.baseline;
            p.margin = marginFor(m, s.baseline, spec);
            ShiftTest test(std::move(s.blocks), seedFor(spec.seed, c, mi));
            p.estimate = test.estimate();
            if (isObjective) {
                better = test.rejects(p.margin, true, a);
                cannotGain = test.rejects(p.margin, false, a);
                p.better = better;
            } else if (isGuard) {
                // Within the margin: the loss's upper end below it. Worse: its lower end above.
                const bool within = !better || test.rejects(-p.margin, true, a);
                p.worse = !cannotGain && test.rejects(-p.margin, false, a);
                if (better && !within) {
                    guardsWithin = false;
                    if (guardWhy.empty())
                        guardWhy = std::string(toString(m)) + " could be worse by more than " +
                                   marginText(p);
                }
                guardWorse = guardWorse || p.worse;
            }
            // The objective's interval is needed to tell a candidate that qualifies from the
            // others; every interval, to show.
            if (spec.intervals || (isObjective && better)) {
                const auto b = test.bounds(a);
                p.lo = b.lo;
                p.hi = b.hi;
                p.hasInterval = std::isfinite(b.lo) && std::isfinite(b.hi);
                p.better = b.lo > p.margin;
                p.worse = b.hi < -p.margin;
            }
            cmp.measures.push_back(p);
        }
        const auto* obj = cmp.find(objective);
        cmp.guardFailure = guardWhy;
        cmp.qualifies = obj && better && guardsWithin;
        cmp.futile = !obj || cannotGain || guardWorse;
        if (!obj)
            cmp.reason = "not measured";
        else if (cmp.qualifies)
            cmp.reason = changeText(*obj) + " (" + intervalText(*obj) + ")";
        else if (better)
            cmp.reason = changeText(*obj) + ", but its " + guardWhy;
        else if (guardWorse)
            cmp.reason = "a guard is worse beyond its margin";
        else if (cannotGain)
            cmp.reason = "gains less than the margin of " + marginText(*obj);
        else
            cmp.reason = "not yet told from the baseline";
    }

    // The leader: of those that qualify, the largest gain; else the largest positive gain.
    const auto estimateOf = [&](std::size_t c) {
        const auto* p = v.comparisons[c].find(objective);
        return p ? p->estimate : -std::numeric_limits<double>::infinity();
    };
    std::optional<std::size_t> best, bestAny;
    for (std::size_t c = 1; c < n; ++c) {
        if (out(c) || !v.comparisons[c].find(objective))
            continue;
        if (v.comparisons[c].qualifies && (!best || estimateOf(c) > estimateOf(*best)))
            best = c;
        if (estimateOf(c) > 0 && (!bestAny || estimateOf(c) > estimateOf(*bestAny)))
            bestAny = c;
    }
    if (spec.intervals)
        for (std::size_t c = 1; c < n; ++c)
            if (const auto* p = v.comparisons[c].find(objective); p && p->hasInterval) {
                const double r = p->margin + (p->estimate - p->lo);
                if (v.resolution == 0 || r < v.resolution)
                    v.resolution = r;
            }

    if (best && atLook) {
        // A candidate that qualifies is a proven gain: the verdict is decided. Among those that
        // qualify, the leader is ranked above another where a paired test of their own blocks
        // shows its lead (one-sided, at spec.rankLevel); those it cannot rank tie with it.
        v.decided = true;
        std::vector<int> tie{static_cast<int>(*best)};
        for (std::size_t c = 1; c < n; ++c) {
            if (c == *best || !v.comparisons[c].qualifies)
                continue;
            std::vector<ShiftTest::Block> pairs;
            const auto& lead = trials[*best].byBlock;
            const auto& other = trials[c].byBlock;
            for (std::size_t b = 0; b < lead.size() && b < other.size(); ++b) {
                if (!lead[b] || !other[b])
                    continue;
                const auto x = signedValue(*lead[b], objective, typical);
                const auto y = signedValue(*other[b], objective, typical);
                if (x && y) {
                    ShiftTest::Block blk;
                    blk.treated = *x;
                    blk.control[0] = *y;
                    pairs.push_back(blk);
                }
            }
            const ShiftTest d(std::move(pairs), seedFor(spec.seed, *best, 100 + c));
            if (!d.rejects(0, true, spec.rankLevel))
                tie.push_back(static_cast<int>(c));
        }
        const auto changesOf = [&](int c) {
            return static_cast<std::size_t>(c) < changes.size()
                       ? changes[static_cast<std::size_t>(c)]
                       : c;
        };
        if (tie.size() > 1) {
            v.outcome = Verdict::Outcome::Tie;
            std::stable_sort(tie.begin(), tie.end(),
                             [&](int x, int y) { return changesOf(x) < changesOf(y); });
            v.tied = tie;
        } else {
            v.outcome = Verdict::Outcome::Winner;
        }
        v.winner = tie.front();
        v.leader = v.winner;
    }
    if (!v.decided) {
        bool allFutile = true;
        for (std::size_t c = 1; c < n; ++c)
            if (!out(c) && !v.comparisons[c].futile)
                allFutile = false;
        if (atLook && (allFutile || last)) {
            v.decided = true;
            v.outcome = Verdict::Outcome::NoWinner;
        } else if (best) {
            v.leader = static_cast<int>(*best);
        } else if (bestAny) {
            v.leader = static_cast<int>(*bestAny);
        }
    }

    // Was the router the limit?
    std::vector<double> busy;
    for (const auto& b :
         trials.empty() ? std::vector<std::optional<TrialMeasures>>{} : trials.front().byBlock)
        if (b && b->busiestShare)
            busy.push_back(*b->busiestShare);
    for (const auto& r : repeats)
        if (r && r->busiestShare)
            busy.push_back(*r->busiestShare);
    if (!busy.empty()) {
        v.baselineBusiest = median(busy);
        bool moved = false;
        for (std::size_t c = 1; c < n; ++c)
            if (const auto* p = v.comparisons[c].find(Measure::Throughput);
                p && (p->better || p->worse))
                moved = true;
        v.bottleneck = v.baselineBusiest >= spec.saturatedShare || moved
                           ? Verdict::Bottleneck::Router
                           : Verdict::Bottleneck::Elsewhere;
    }

    // The words.
    const auto& objName = toString(objective);
    if (v.outcome == Verdict::Outcome::Winner || v.outcome == Verdict::Outcome::Tie) {
        const auto w = static_cast<std::size_t>(*v.winner);
        const auto& cw = v.comparisons[w];
        const auto* p = cw.find(objective);
        if (v.outcome == Verdict::Outcome::Winner) {
            v.text = name(w) + " wins: " + changeText(*p);
            if (p->hasInterval)
                v.text += " (" + intervalText(*p) + "; the margin is " + marginText(*p) + ")";
        } else {
            std::string who, gains;
            for (std::size_t i = 0; i < v.tied.size(); ++i) {
                const auto c = static_cast<std::size_t>(v.tied[i]);
                const char* sep = i == 0 ? "" : i + 1 == v.tied.size() ? " and " : ", ";
                who += sep + name(c);
                gains += sep + shown(*p, raw(objective, estimateOf(c)));
            }
            v.text = who + (v.tied.size() == 2 ? " both" : " all") + " gain " + objName + " (" +
                     gains + ") and this run cannot rank them. " + name(w) +
                     ", which changes least, is named: " + changeText(*p);
            if (p->hasInterval)
                v.text += " (" + intervalText(*p) + ")";
        }
        v.text += ".";
        if (const auto e = effects(cw, objective); !e.empty())
            v.text += " Also beyond the margin: " + e + ".";
    } else if (v.outcome == Verdict::Outcome::NoWinner &&
               v.bottleneck == Verdict::Bottleneck::Elsewhere &&
               spec.objective == Objective::Throughput) {
        // Not "no difference": this load could not tell.
        std::string at;
        for (std::size_t c = 1; c < n && at.empty(); ++c)
            for (const auto m : {Measure::DownloadBps, Measure::UploadBps})
                if (const auto* p = v.comparisons[c].find(m))
                    at += (at.empty() ? "" : ", ") + text::fixed(p->baseline / 1e6, 0) +
                          " Mbit/s " + (m == Measure::DownloadBps ? "down" : "up");
        v.text = "The router was not the limit" + (at.empty() ? "" : " at " + at) +
                 ": the link, this computer or the load's server was. Its busiest core was " +
                 text::fixed(v.baselineBusiest * 100, 0) +
                 " % busy under the current layout, and no layout moved the throughput. A "
                 "layout cannot raise it; the headroom objective compares how much of the "
                 "cores each layout leaves free under the same load.";
    } else if (v.outcome == Verdict::Outcome::NoWinner) {
        const Comparison::PerMeasure* any = nullptr;
        for (std::size_t c = 1; c < n && !any; ++c)
            any = v.comparisons[c].find(objective);
        v.text = "No winner: no candidate gains the margin";
        if (any)
            v.text += " of " + marginText(*any) + " of " + std::string(objName);
        v.text += " and keeps every guard. Keep what you have.";
        if (v.resolution > 0 && any)
            v.text += " At the noise this run met, a gain of " +
                      shown(*any, raw(objective, v.resolution)) + " would have shown.";
    } else {
        v.text =
            "Not settled after " + std::to_string(blocks) + " block" + (blocks == 1 ? "" : "s");
        if (v.leader) {
            const auto* p = v.comparisons[static_cast<std::size_t>(*v.leader)].find(objective);
            v.text += ": " + name(static_cast<std::size_t>(*v.leader)) + " leads, " +
                      changeText(*p) + " (" + intervalText(*p) + ")";
        } else {
            v.text += ": no candidate leads the baseline";
        }
        v.text += ".";
    }
    // Those that gained but could not keep a guard, said once each.
    if (v.outcome != Verdict::Outcome::Open)
        for (std::size_t c = 1; c < n; ++c) {
            const auto& cmp = v.comparisons[c];
            const auto* p = cmp.find(objective);
            if (!out(c) && p && p->better && !cmp.qualifies)
                v.text += " " + name(c) + " gains: " + changeText(*p) + ", but its " +
                          cmp.guardFailure + ".";
        }
    return v;
}

} // namespace coresteer::measure

// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/measure/tune_json.h"

#include "core/base/text.h"
#include "core/layout/layout_json.h"

#include <cmath>

namespace coresteer::measure {

using nlohmann::json;

namespace {

json finite(double v) {
    return std::isfinite(v) ? json(v) : json(nullptr);
}

json med(const std::vector<double>& values) {
    if (values.empty())
        return nullptr;
    const auto e = medianInterval(values);
    return {
        {"median", e.median},
        {"ci95", e.hasInterval ? json{e.lo, e.hi} : json(nullptr)},
        {"coverage", e.hasInterval ? json(std::round(e.coverage * 10000) / 10000) : json(nullptr)},
        {"n", e.n}};
}

json gain(const Comparison::PerMeasure& p) {
    json j = {{"mean", p.estimate},
              {"gain_pct", p.baseline != 0 ? json(p.percent(p.estimate)) : json(nullptr)},
              {"margin", p.margin},
              {"better", p.better},
              {"worse", p.worse},
              {"n", p.n}};
    if (p.hasInterval) {
        j["ci95"] = {p.lo, p.hi};
        j["ci95_pct"] = p.baseline != 0 ? json{p.percent(p.lo), p.percent(p.hi)} : json(nullptr);
    } else {
        j["ci95"] = nullptr;
        j["ci95_pct"] = nullptr;
    }
    return j;
}

json optional(const std::optional<double>& v) {
    return v ? finite(*v) : json(nullptr);
}

json trialJson(const TrialResult& t) {
    json j = {{"block", t.block}, {"repeat", t.repeat}, {"start", t.start}, {"end", t.end}};
    for (const bool down : {true, false}) {
        std::optional<double> p90;
        for (const auto& p : t.probes)
            if (p.name == t.headlineProbe)
                p90 = down ? p.downP90 : p.upP90;
        j[down ? "download" : "upload"] = {
            {"bps", optional(down ? t.measures.downloadBps : t.measures.uploadBps)},
            {"latency_increase_ms",
             optional(down ? t.measures.downloadLatencyMs : t.measures.uploadLatencyMs)},
            {"latency_p90_ms", optional(p90)}};
    }
    j["probe"] = t.headlineProbe;
    json probes = json::array();
    for (const auto& p : t.probes)
        probes.push_back(
            {{"name", p.name},
             {"download", {{"median", optional(p.downMedian)}, {"p90", optional(p.downP90)}}},
             {"upload", {{"median", optional(p.upMedian)}, {"p90", optional(p.upP90)}}},
             {"lost", p.lost}});
    j["probes"] = std::move(probes);
    json cores = json::array();
    for (std::size_t i = 0; i < t.busy.size(); ++i)
        cores.push_back({{"cpu", i}, {"busy", t.busy[i]}, {"softirq", t.softirq[i]}});
    j["cores"] = std::move(cores);
    j["busiest_core"] = t.busiestCore >= 0 ? json(t.busiestCore) : json(nullptr);
    j["busiest_core_share"] = optional(t.measures.busiestShare);
    return j;
}

} // namespace

json tuneJson(const TuneResult& r, Objective objective) {
    json cands = json::array();
    for (std::size_t c = 0; c < r.candidates.size(); ++c) {
        const auto& cand = r.candidates[c];
        json j = {{"name", cand.name},
                  {"source", toString(cand.source)},
                  {"why", cand.why},
                  {"changes", cand.changes},
                  {"layout", layout::toJson(cand.layout)},
                  {"left_out", r.leftOut.size() > c && !r.leftOut[c].empty() ? json(r.leftOut[c])
                                                                             : json(nullptr)}};
        json trials = json::array();
        std::vector<TrialMeasures> own;
        for (const auto& t : r.trials)
            if (static_cast<std::size_t>(t.candidate) == c) {
                trials.push_back(trialJson(t));
                own.push_back(t.measures);
            }
        j["trials"] = std::move(trials);
        const auto values = [&](Measure m) {
            std::vector<double> v;
            for (const auto& t : own)
                if (const auto x = t.get(m))
                    v.push_back(*x);
            return v;
        };
        j["download"] = {{"bps", med(values(Measure::DownloadBps))},
                         {"latency_increase_ms", med(values(Measure::DownloadLatencyMs))}};
        j["upload"] = {{"bps", med(values(Measure::UploadBps))},
                       {"latency_increase_ms", med(values(Measure::UploadLatencyMs))}};
        j["latency_p90_ms"] = med(values(Measure::LatencyP90));
        j["busiest_core_share"] = med(values(Measure::BusiestShare));
        const Comparison* cmp =
            c > 0 && c < r.verdict.comparisons.size() ? &r.verdict.comparisons[c] : nullptr;
        if (c > 0) {
            json g = {{"download", json::object()}, {"upload", json::object()}};
            const auto put = [&](Measure m) {
                const auto* p = cmp ? cmp->find(m) : nullptr;
                return p ? gain(*p) : json(nullptr);
            };
            g["throughput"] = put(Measure::Throughput);
            g["download"]["bps"] = put(Measure::DownloadBps);
            g["download"]["latency_increase_ms"] = put(Measure::DownloadLatencyMs);
            g["upload"]["bps"] = put(Measure::UploadBps);
            g["upload"]["latency_increase_ms"] = put(Measure::UploadLatencyMs);
            g["latency_ms"] = put(Measure::Latency);
            g["latency_p90_ms"] = put(Measure::LatencyP90);
            g["busiest_core_share"] = put(Measure::BusiestShare);
            j["gain_vs_baseline"] = std::move(g);
            j["qualifies"] = cmp && cmp->qualifies;
            j["reason"] = cmp ? cmp->reason : std::string();
        }
        cands.push_back(std::move(j));
    }
    const auto& v = r.verdict;
    const auto nameOf = [&](std::optional<int> i) {
        return i && static_cast<std::size_t>(*i) < r.candidates.size()
                   ? json(r.candidates[static_cast<std::size_t>(*i)].name)
                   : json(nullptr);
    };
    json tied = json::array();
    for (int t : v.tied)
        tied.push_back(nameOf(t));
    json resolution = nullptr;
    if (v.resolution > 0) {
        resolution = {{"gain", v.resolution}};
        const Comparison::PerMeasure* any = nullptr;
        for (std::size_t c = 1; c < v.comparisons.size() && !any; ++c)
            any = v.comparisons[c].find(objectiveMeasure(objective));
        resolution["gain_pct"] =
            any && any->baseline != 0 ? json(any->percent(v.resolution)) : json(nullptr);
    }
    return {
        {"schema", "coresteer.tune/2"},
        {"objective", toString(objective)},
        {"margin_pct", r.marginPct},
        {"latency_margin_ms", r.latencyMarginMs},
        {"plan",
         {{"looks", r.plan.looks}, {"alpha", r.plan.alpha}, {"look", v.look}, {"level", v.level}}},
        {"blocks", r.blocks},
        {"seconds", std::round(r.seconds * 10) / 10},
        {"block_seconds", std::round(r.blockSeconds * 10) / 10},
        {"stopped", toString(r.stop)},
        {"stop_reason", r.stopText},
        {"baseline_restored", r.baselineRestored},
        {"read_back", r.readBack},
        {"seed", r.seed},
        {"candidates", std::move(cands)},
        {"outcome", toString(v.outcome)},
        {"decided", v.decided},
        {"winner", v.decided ? nameOf(v.winner) : json(nullptr)},
        {"leader", nameOf(v.leader)},
        {"tied", std::move(tied)},
        {"resolution", std::move(resolution)},
        {"bottleneck", v.bottleneck == Verdict::Bottleneck::Unknown ? json(nullptr)
                                                                    : json(toString(v.bottleneck))},
        {"baseline_busiest_core_share",
         v.bottleneck == Verdict::Bottleneck::Unknown ? json(nullptr) : json(v.baselineBusiest)},
        {"verdict", v.text}};
}

} // namespace coresteer::measure

// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/measure/tune_json.h"

#include "core/base/text.h"
#include "core/layout/layout_json.h"

#include <cmath>

namespace coresteer::measure {

using nlohmann::json;

namespace {

json estimate(const Estimate& e) {
    if (e.n == 0)
        return nullptr;
    return {{"median", e.median}, {"ci95", {e.lo, e.hi}}, {"n", e.n}};
}

json optional(const std::optional<double>& v) {
    return v ? json(*v) : json(nullptr);
}

Measure measureOf(bool down, bool bps) {
    return down ? (bps ? Measure::DownloadBps : Measure::DownloadLatencyMs)
                : (bps ? Measure::UploadBps : Measure::UploadLatencyMs);
}

json trialJson(const TrialResult& t) {
    json j = {{"block", t.block}, {"repeat", t.repeat}, {"start", t.start}, {"end", t.end}};
    for (const bool down : {true, false}) {
        const char* key = down ? "download" : "upload";
        std::optional<double> p90;
        for (const auto& p : t.probes)
            if (p.name == t.headlineProbe)
                p90 = down ? p.downP90 : p.upP90;
        j[key] = {{"bps", optional(t.measures.get(measureOf(down, true)))},
                  {"latency_increase_ms", optional(t.measures.get(measureOf(down, false)))},
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
    return j;
}

const char* objectiveName(Objective o) {
    return o == Objective::Throughput ? "throughput" : "latency";
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
        const Comparison* cmp =
            c > 0 && c < r.verdict.comparisons.size() ? &r.verdict.comparisons[c] : nullptr;
        json gain;
        for (const bool down : {true, false}) {
            json dir, g;
            for (const bool bps : {true, false}) {
                const auto m = measureOf(down, bps);
                std::vector<double> values;
                for (const auto& t : own)
                    if (const auto v = t.get(m))
                        values.push_back(*v);
                const char* key = bps ? "bps" : "latency_increase_ms";
                dir[key] = estimate(bootstrapMedian(values, r.seed + 17 * c));
                const auto* p = cmp ? cmp->find(m) : nullptr;
                g[key] = p ? estimate(p->gain) : json(nullptr);
            }
            j[down ? "download" : "upload"] = std::move(dir);
            gain[down ? "download" : "upload"] = std::move(g);
        }
        if (c > 0) {
            j["gain_vs_baseline"] = std::move(gain);
            j["wins"] = cmp && cmp->wins;
            j["reason"] = cmp ? cmp->reason : std::string();
        }
        cands.push_back(std::move(j));
    }
    json floor;
    for (const auto& [m, v] : r.noiseFloor) {
        const bool down = m == Measure::DownloadBps || m == Measure::DownloadLatencyMs;
        const bool bps = m == Measure::DownloadBps || m == Measure::UploadBps;
        floor[down ? "download" : "upload"][bps ? "bps" : "latency_increase_ms"] = v;
    }
    const auto& v = r.verdict;
    return {{"schema", "coresteer.tune/1"},
            {"objective", objectiveName(objective)},
            {"blocks", r.blocks},
            {"seconds", std::round(r.seconds * 10) / 10},
            {"stopped", toString(r.stop)},
            {"stop_reason", r.stopText},
            {"baseline_restored", r.baselineRestored},
            {"seed", r.seed},
            {"candidates", std::move(cands)},
            {"noise_floor", floor.is_null() ? json::object() : floor},
            {"winner", v.winner ? json(r.candidates[static_cast<std::size_t>(*v.winner)].name)
                                : json(nullptr)},
            {"verdict", v.text},
            {"confidence", toString(v.confidence)}};
}

namespace {

// A number from a document read from a file: nullopt unless it is a finite number.
std::optional<double> number(const json& j, const char* key) {
    if (!j.is_object() || !j.contains(key) || !j[key].is_number())
        return std::nullopt;
    const double v = j[key].get<double>();
    return std::isfinite(v) ? std::optional(v) : std::nullopt;
}

std::string str(const json& j, const char* key, std::size_t max = 80) {
    if (!j.is_object() || !j.contains(key) || !j[key].is_string())
        return {};
    return text::printable(j[key].get<std::string>(), max);
}

// "412 [398, 430]" in Mb/s, or ms; "-" for nothing.
std::string est(const json& e, bool bps, bool sign = false) {
    const auto m = number(e, "median");
    if (!m || !e.contains("ci95") || !e["ci95"].is_array() || e["ci95"].size() != 2 ||
        !e["ci95"][0].is_number() || !e["ci95"][1].is_number())
        return "-";
    const double scale = bps ? 1e-6 : 1;
    const int d = bps ? 0 : 1;
    const auto f = [&](double v) { return (sign && v > 0 ? "+" : "") + text::fixed(v * scale, d); };
    return f(*m) + " [" + f(e["ci95"][0].get<double>()) + ", " + f(e["ci95"][1].get<double>()) +
           "]";
}

std::string pad(std::string s, std::size_t n) {
    if (s.size() < n)
        s.append(n - s.size(), ' ');
    return s;
}

} // namespace

std::optional<std::string> tuneText(const json& t, std::string* error) {
    if (!t.is_object() || str(t, "schema") != "coresteer.tune/1" || !t.contains("candidates") ||
        !t["candidates"].is_array()) {
        if (error)
            *error = "not a tune's result (schema coresteer.tune/1)";
        return std::nullopt;
    }
    std::string out;
    const auto blocks = number(t, "blocks").value_or(0);
    out += "Tune: " + std::to_string(t["candidates"].size()) + " candidates, " +
           text::fixed(blocks, 0) + " blocks, " + text::fixed(number(t, "seconds").value_or(0), 0) +
           " s; objective " + str(t, "objective") +
           ". Medians with their 95 % intervals; a gain is the "
           "candidate against the baseline of its own block, positive is better.\n\n";
    out += pad("candidate", 46) + pad("download Mb/s", 20) + pad("gain", 20) +
           pad("upload Mb/s", 20) + pad("gain", 20) + pad("latency +ms down", 22) +
           "latency +ms up\n";
    for (const auto& c : t["candidates"]) {
        if (!c.is_object())
            continue;
        const json none;
        const auto& down = c.contains("download") ? c["download"] : none;
        const auto& up = c.contains("upload") ? c["upload"] : none;
        const json* gd = nullptr;
        const json* gu = nullptr;
        if (c.contains("gain_vs_baseline") && c["gain_vs_baseline"].is_object()) {
            const auto& g = c["gain_vs_baseline"];
            gd = g.contains("download") ? &g["download"] : nullptr;
            gu = g.contains("upload") ? &g["upload"] : nullptr;
        }
        const auto at = [](const json& j, const char* key) -> const json& {
            static const json null;
            return j.is_object() && j.contains(key) ? j[key] : null;
        };
        std::string name = str(c, "name", 40);
        if (str(c, "source") == "current")
            name += " (baseline)";
        out += pad(name, 46) + pad(est(at(down, "bps"), true), 20) +
               pad(gd ? est(at(*gd, "bps"), true, true) : "", 20) +
               pad(est(at(up, "bps"), true), 20) +
               pad(gu ? est(at(*gu, "bps"), true, true) : "", 20) +
               pad(est(at(down, "latency_increase_ms"), false), 22) +
               est(at(up, "latency_increase_ms"), false) + "\n";
        if (const auto left = str(c, "left_out", 200); !left.empty())
            out += "    left out: " + left + "\n";
    }
    if (t.contains("noise_floor") && t["noise_floor"].is_object()) {
        const auto& f = t["noise_floor"];
        const auto floorOf = [&](const char* dir, const char* key, double scale,
                                 int d) -> std::optional<std::string> {
            const auto v = f.contains(dir) ? number(f[dir], key) : std::nullopt;
            if (!v)
                return std::nullopt;
            return text::fixed(*v * scale, d);
        };
        out += "\nNoise floor (the baseline against itself, median |A - B|): download " +
               floorOf("download", "bps", 1e-6, 1).value_or("-") + " Mb/s, upload " +
               floorOf("upload", "bps", 1e-6, 1).value_or("-") + " Mb/s, latency " +
               floorOf("download", "latency_increase_ms", 1, 1).value_or("-") + " / " +
               floorOf("upload", "latency_increase_ms", 1, 1).value_or("-") + " ms.\n";
    }
    out += "\n" + str(t, "verdict", 400) + " (confidence: " + str(t, "confidence") + ")\n";
    if (const auto s = str(t, "stop_reason", 300); !s.empty())
        out += s + "\n";
    return out;
}

} // namespace coresteer::measure

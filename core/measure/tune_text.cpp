// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// tuneText(): the table of tune_json.h for a person. Every value comes from a document that may
// have been read from a file: each is checked, and every string is made printable.
#include "core/measure/tune_json.h"

#include "core/base/text.h"

#include <cmath>

namespace coresteer::measure {

using nlohmann::json;

namespace {

const json& at(const json& j, const char* key) {
    static const json null;
    return j.is_object() && j.contains(key) ? j[key] : null;
}

// A number from the document: nullopt unless it is a finite number of a sane size.
std::optional<double> number(const json& j, const char* key) {
    const auto& v = at(j, key);
    if (!v.is_number())
        return std::nullopt;
    const double d = v.get<double>();
    return std::isfinite(d) && std::fabs(d) < 1e15 ? std::optional(d) : std::nullopt;
}

std::optional<std::pair<double, double>> pairOf(const json& j, const char* key) {
    const auto& v = at(j, key);
    if (!v.is_array() || v.size() != 2 || !v[0].is_number() || !v[1].is_number())
        return std::nullopt;
    const double lo = v[0].get<double>(), hi = v[1].get<double>();
    if (!std::isfinite(lo) || !std::isfinite(hi) || std::fabs(lo) > 1e15 || std::fabs(hi) > 1e15)
        return std::nullopt;
    return std::pair{lo, hi};
}

std::string str(const json& j, const char* key, std::size_t max = 80) {
    const auto& v = at(j, key);
    return v.is_string() ? text::printable(v.get<std::string>(), max) : std::string();
}

std::string sign(double v, int digits) {
    return (v >= 0 ? "+" : "") + text::fixed(v, digits);
}

std::string pad(std::string s, std::size_t n) {
    if (s.size() < n)
        s.append(n - s.size(), ' ');
    return s + " ";
}

// The objective's gain as measured: "+45.2 % [+38.0, +52.1]", "-37.5 ms [-40.1, -35.0]", or
// "-36.0 points [...]" of the busiest core's load.
std::string objectiveGain(const json& gains, const std::string& objective) {
    const char* key = objective == "latency"    ? "latency_ms"
                      : objective == "headroom" ? "busiest_core_share"
                                                : "throughput";
    const auto& g = at(gains, key);
    if (objective == "throughput") {
        // In percent of the baseline's throughput.
        const auto m = number(g, "gain_pct");
        if (!m)
            return "-";
        std::string out = sign(*m, 1) + " %";
        if (const auto ci = pairOf(g, "ci95_pct"))
            out += " [" + sign(ci->first, 1) + ", " + sign(ci->second, 1) + "]";
        return out;
    }
    const auto m = number(g, "mean");
    if (!m)
        return "-";
    // A core's share in points, latency in ms, each as measured (a gain is a drop).
    const bool ms = objective == "latency";
    const double scale = ms ? 1 : 100;
    const double s = -1;
    const char* unit = ms ? " ms" : " points";
    std::string out = sign(s * *m * scale, 1) + unit;
    if (const auto ci = pairOf(g, "ci95")) {
        double lo = s * ci->first * scale, hi = s * ci->second * scale;
        if (lo > hi)
            std::swap(lo, hi);
        out += " [" + sign(lo, 1) + ", " + sign(hi, 1) + "]";
    }
    return out;
}

// "598 (+45.1 %)": a median in Mb/s, with the gain in percent.
std::string throughput(const json& own, const json& gain) {
    const auto m = number(own, "median");
    if (!m)
        return "-";
    std::string out = text::fixed(*m / 1e6, 0);
    if (const auto p = number(gain, "gain_pct"))
        out += " (" + sign(*p, 1) + " %)";
    return out;
}

} // namespace

std::optional<std::string> tuneText(const json& t, std::string* error) {
    const auto schema = str(t, "schema");
    if (!t.is_object() || (schema != "coresteer.tune/2" && schema != "coresteer.tune/1") ||
        !at(t, "candidates").is_array()) {
        if (error)
            *error = "not a tune's result (schema coresteer.tune/2)";
        return std::nullopt;
    }
    std::string out;
    if (schema == "coresteer.tune/1") {
        out += "A tune recorded by an earlier version of coresteer (coresteer.tune/1); its "
               "verdict, by the rules of that version:\n" +
               str(t, "verdict", 400) + "\n";
        if (const auto s = str(t, "stop_reason", 300); !s.empty())
            out += s + "\n";
        return out;
    }
    const auto objective = str(t, "objective", 20);
    const auto& cands = at(t, "candidates");
    out += "Tune: " + std::to_string(cands.size()) + " candidates, " +
           text::fixed(number(t, "blocks").value_or(0), 0) + " blocks, " +
           text::fixed(number(t, "seconds").value_or(0), 0) + " s; objective " + objective +
           "; margin " + text::fixed(number(t, "margin_pct").value_or(0), 1) + " % (latency " +
           text::fixed(number(t, "latency_margin_ms").value_or(0), 1) + " ms).\n" +
           "Each gain is a candidate against the baseline of its own block (the mean over the "
           "blocks) with its 95 % simultaneous interval (every candidate, every look); the "
           "other columns are medians of the candidate's trials.\n\n";
    out += pad("candidate", 44) + pad("gain (" + objective + ")", 28) + pad("download Mb/s", 16) +
           pad("upload Mb/s", 16) + pad("latency +ms", 18) + pad("busiest core", 13) + "\n";
    const auto winner = str(t, "winner", 200);
    std::vector<std::string> tied;
    if (at(t, "tied").is_array())
        for (const auto& n : at(t, "tied"))
            if (n.is_string())
                tied.push_back(text::printable(n.get<std::string>(), 200));
    for (std::size_t i = 0; i < cands.size() && i < 64; ++i) {
        const auto& c = cands[i];
        if (!c.is_object())
            continue;
        const auto& g = at(c, "gain_vs_baseline");
        std::string name = str(c, "name", 42);
        const bool baseline = str(c, "source") == "current" || i == 0;
        std::string status;
        const auto full = str(c, "name", 200);
        if (!str(c, "left_out", 200).empty())
            status = "left out";
        else if (!winner.empty() && full == winner)
            status = tied.empty() ? "winner" : "named (tie)";
        else if (std::find(tied.begin(), tied.end(), full) != tied.end())
            status = "tied";
        else if (at(c, "qualifies").is_boolean() && at(c, "qualifies").get<bool>())
            status = "qualifies";
        std::string latency = "-";
        if (const auto d = number(at(at(c, "download"), "latency_increase_ms"), "median"))
            latency = sign(*d, 1);
        if (const auto u = number(at(at(c, "upload"), "latency_increase_ms"), "median"))
            latency = (latency == "-" ? "" : latency + " / ") + sign(*u, 1);
        std::string busiest = "-";
        if (const auto b = number(at(c, "busiest_core_share"), "median"))
            busiest = text::fixed(*b * 100, 0) + " %";
        out += pad(baseline ? name + " (baseline)" : name, 44) +
               pad(baseline ? "" : objectiveGain(g, objective), 28) +
               pad(throughput(at(at(c, "download"), "bps"), at(at(g, "download"), "bps")), 16) +
               pad(throughput(at(at(c, "upload"), "bps"), at(at(g, "upload"), "bps")), 16) +
               pad(latency, 18) + pad(busiest, 13) + status + "\n";
        if (const auto left = str(c, "left_out", 200); !left.empty())
            out += "    left out: " + left + "\n";
    }
    const auto& plan = at(t, "plan");
    if (at(plan, "looks").is_array()) {
        std::string looks;
        for (const auto& l : at(plan, "looks"))
            if (l.is_number_integer() && looks.size() < 80)
                looks += (looks.empty() ? "" : ", ") + std::to_string(l.get<long long>());
        out += "\nPlan: looks at " + looks +
               " blocks; 95 % of the time every interval of every "
               "look holds at once.\n";
    }
    out += "\n" + str(t, "verdict", 1000) + "\n";
    if (const auto s = str(t, "stop_reason", 300); !s.empty())
        out += s + "\n";
    if (const auto s = str(t, "read_back", 600); !s.empty())
        out += s + "\n";
    return out;
}

} // namespace coresteer::measure

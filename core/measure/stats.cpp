// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/measure/stats.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace coresteer::measure {

double median(std::vector<double> v) {
    if (v.empty())
        return 0;
    const auto mid = v.size() / 2;
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid), v.end());
    const double upper = v[mid];
    if (v.size() % 2)
        return upper;
    const double lower = *std::max_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid));
    return (lower + upper) / 2;
}

double mean(const std::vector<double>& v) {
    if (v.empty())
        return 0;
    double s = 0;
    for (double x : v)
        s += x;
    return s / static_cast<double>(v.size());
}

Estimate medianInterval(std::vector<double> values, double level) {
    Estimate e;
    e.n = static_cast<int>(values.size());
    e.median = median(values);
    if (values.empty())
        return e;
    std::sort(values.begin(), values.end());
    // P(Binomial(n, 1/2) < k) for k = 1, 2, ...: the chance that fewer than k values fall below
    // the true median, which is what the k-th smallest misses by.
    const int n = e.n;
    std::vector<double> pmf(static_cast<std::size_t>(n) + 1);
    double logHalfN = n * std::log(0.5);
    for (int i = 0; i <= n; ++i)
        pmf[static_cast<std::size_t>(i)] = std::exp(std::lgamma(n + 1.0) - std::lgamma(i + 1.0) -
                                                    std::lgamma(n - i + 1.0) + logHalfN);
    double below = 0; // P(Bin < k)
    int best = 0;
    double bestCoverage = 0;
    for (int k = 1; k <= n / 2 + (n % 2); ++k) {
        below += pmf[static_cast<std::size_t>(k - 1)];
        const double coverage = 1 - 2 * below;
        if (coverage + 1e-12 < level)
            break;
        best = k;
        bestCoverage = coverage;
    }
    if (best == 0)
        return e;
    e.lo = values[static_cast<std::size_t>(best - 1)];
    e.hi = values[static_cast<std::size_t>(n - best)];
    e.coverage = bestCoverage;
    e.hasInterval = true;
    return e;
}

const char* toString(Measure m) {
    switch (m) {
    case Measure::Throughput:
        return "throughput";
    case Measure::DownloadBps:
        return "download throughput";
    case Measure::UploadBps:
        return "upload throughput";
    case Measure::Latency:
        return "latency increase under load";
    case Measure::LatencyP90:
        return "90th percentile of the latency increase";
    case Measure::DownloadLatencyMs:
        return "latency increase under download";
    case Measure::UploadLatencyMs:
        return "latency increase under upload";
    case Measure::BusiestShare:
        return "busiest core's load";
    }
    return "?";
}

const char* jsonKey(Measure m) {
    switch (m) {
    case Measure::Throughput:
        return "throughput";
    case Measure::DownloadBps:
        return "download_bps";
    case Measure::UploadBps:
        return "upload_bps";
    case Measure::Latency:
        return "latency_ms";
    case Measure::LatencyP90:
        return "latency_p90_ms";
    case Measure::DownloadLatencyMs:
        return "download_latency_ms";
    case Measure::UploadLatencyMs:
        return "upload_latency_ms";
    case Measure::BusiestShare:
        return "busiest_core_share";
    }
    return "?";
}

bool higherIsBetter(Measure m) {
    return m == Measure::Throughput || m == Measure::DownloadBps || m == Measure::UploadBps;
}

std::string formatGain(Measure m, double v) {
    char buf[64];
    switch (m) {
    case Measure::Throughput:
        std::snprintf(buf, sizeof buf, "%+.1f %%", v * 100);
        break;
    case Measure::DownloadBps:
    case Measure::UploadBps:
        std::snprintf(buf, sizeof buf, "%+.1f Mbit/s", v / 1e6);
        break;
    case Measure::BusiestShare:
        std::snprintf(buf, sizeof buf, "%+.1f points", v * 100);
        break;
    default:
        std::snprintf(buf, sizeof buf, "%+.1f ms", v);
        break;
    }
    return buf;
}

std::optional<double> TrialMeasures::get(Measure m) const {
    switch (m) {
    case Measure::Throughput:
        return std::nullopt;
    case Measure::DownloadBps:
        return downloadBps;
    case Measure::UploadBps:
        return uploadBps;
    case Measure::Latency:
        if (downloadLatencyMs && uploadLatencyMs)
            return (*downloadLatencyMs + *uploadLatencyMs) / 2;
        return downloadLatencyMs ? downloadLatencyMs : uploadLatencyMs;
    case Measure::LatencyP90:
        return latencyP90Ms;
    case Measure::DownloadLatencyMs:
        return downloadLatencyMs;
    case Measure::UploadLatencyMs:
        return uploadLatencyMs;
    case Measure::BusiestShare:
        return busiestShare;
    }
    return std::nullopt;
}

TypicalBps typicalBps(const std::vector<TrialMeasures>& all) {
    std::vector<double> down, up;
    for (const auto& t : all) {
        if (t.downloadBps)
            down.push_back(*t.downloadBps);
        if (t.uploadBps)
            up.push_back(*t.uploadBps);
    }
    return {median(down), median(up)};
}

std::optional<double> signedValue(const TrialMeasures& t, Measure m, const TypicalBps& typical) {
    if (m == Measure::Throughput) {
        // Each direction the run measured must be there: a trial whose load failed one way is
        // not a trial of the whole objective.
        double sum = 0;
        int n = 0;
        for (const auto& [v, typ] :
             {std::pair{t.downloadBps, typical.download}, std::pair{t.uploadBps, typical.upload}}) {
            if (typ <= 0)
                continue;
            if (!v)
                return std::nullopt;
            sum += *v / typ;
            ++n;
        }
        if (n == 0)
            return std::nullopt;
        return sum / n;
    }
    const auto v = t.get(m);
    if (!v || !std::isfinite(*v))
        return std::nullopt;
    return higherIsBetter(m) ? *v : -*v;
}

const char* toString(Objective o) {
    switch (o) {
    case Objective::Throughput:
        return "throughput";
    case Objective::Latency:
        return "latency";
    case Objective::Headroom:
        return "headroom";
    }
    return "?";
}

std::optional<Objective> objectiveFromString(const std::string& s) {
    for (auto o : {Objective::Throughput, Objective::Latency, Objective::Headroom})
        if (s == toString(o))
            return o;
    return std::nullopt;
}

Measure objectiveMeasure(Objective o) {
    switch (o) {
    case Objective::Throughput:
        return Measure::Throughput;
    case Objective::Latency:
        return Measure::Latency;
    case Objective::Headroom:
        return Measure::BusiestShare;
    }
    return Measure::Throughput;
}

std::vector<Measure> guardMeasures(Objective o) {
    switch (o) {
    case Objective::Throughput:
        return {Measure::Latency, Measure::LatencyP90};
    case Objective::Latency:
        return {Measure::Throughput, Measure::LatencyP90};
    case Objective::Headroom:
        return {Measure::Throughput, Measure::Latency, Measure::LatencyP90};
    }
    return {};
}

} // namespace coresteer::measure

// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/measure/trial.h"

#include "core/live/recording.h"

#include <algorithm>
#include <cmath>

namespace coresteer::measure {

namespace {

// The ramp at the start of a phase that throughput leaves out.
double rampSeconds(double phaseSeconds) {
    return std::min(1.0, 0.3 * phaseSeconds);
}

bool isLoad(std::string_view phase) {
    return phase == "download" || phase == "upload" || phase == "both" || phase == "load";
}

} // namespace

double percentile(std::vector<double> values, double p) {
    if (values.empty())
        return 0;
    std::sort(values.begin(), values.end());
    const double rank = std::ceil(std::clamp(p, 0.0, 1.0) * static_cast<double>(values.size()));
    const auto i = static_cast<std::size_t>(std::max(1.0, rank)) - 1;
    return values[std::min(i, values.size() - 1)];
}

void TrialLog::phase(double t, std::string_view name) {
    if (!m_phases.empty() && m_phases.back().to < 0)
        m_phases.back().to = t;
    m_current = std::string(name);
    if (isLoad(name))
        m_phases.push_back({std::string(name), t, -1});
}

void TrialLog::end(double t) {
    if (!m_phases.empty() && m_phases.back().to < 0)
        m_phases.back().to = t;
    m_current = "done";
}

void TrialLog::latency(double t, std::optional<double> ms, std::string_view probe) {
    std::string name(probe);
    if (std::find(m_probeOrder.begin(), m_probeOrder.end(), name) == m_probeOrder.end())
        m_probeOrder.push_back(name);
    if (m_current == "idle") {
        if (ms)
            m_idle[name].push_back(*ms);
    } else if (isLoad(m_current)) {
        // A probe lost under load stays in the series, as a lost one.
        m_loaded.push_back({t, ms ? *ms : 0, ms ? 0.0 : 1.0, name});
        if (!ms)
            ++m_lost[name];
    }
}

void TrialLog::throughput(double t, double down, double up) {
    if (isLoad(m_current))
        m_throughput.push_back({t, down, up, {}});
}

void TrialLog::rates(const live::Rates& r) {
    if (!isLoad(m_current))
        return;
    for (const auto& c : r.cores) {
        if (c.cpu < 0 || c.cpu > 4095)
            continue;
        const auto i = static_cast<std::size_t>(c.cpu);
        if (m_busy.size() <= i) {
            m_busy.resize(i + 1, 0);
            m_softirq.resize(i + 1, 0);
        }
        m_busy[i] += c.busy();
        m_softirq[i] += c.softirq;
    }
    ++m_coreSamples;
}

std::map<std::string, std::vector<double>> blockIdle(const std::vector<const TrialLog*>& logs) {
    std::map<std::string, std::vector<double>> out;
    for (const auto* l : logs)
        for (const auto& [probe, values] : l->idle())
            out[probe].insert(out[probe].end(), values.begin(), values.end());
    return out;
}

std::string headlineProbe(const std::vector<std::string>& probes) {
    const auto has = [&](std::string_view p) {
        return std::find(probes.begin(), probes.end(), p) != probes.end();
    };
    if (has(live::kDemoProbe))
        return std::string(live::kDemoProbe);
    for (const auto& p : probes)
        if (p != live::kLanProbe && p != live::kRouterProbe)
            return p;
    if (has(live::kRouterProbe))
        return std::string(live::kRouterProbe);
    return has(live::kLanProbe) ? std::string(live::kLanProbe) : std::string();
}

TrialResult TrialResult::measure(const TrialLog& log,
                                 const std::map<std::string, std::vector<double>>& blockIdle) {
    TrialResult r;
    r.start = log.from;
    r.end = log.to;
    // Which phases stand for each direction: its own phase, else "both" (or a load of the
    // person's own) for both.
    const auto spansOf = [&](bool down) {
        std::vector<const TrialLog::Span*> own, shared;
        for (const auto& s : log.m_phases) {
            if (s.name == (down ? "download" : "upload"))
                own.push_back(&s);
            else if (s.name == "both" || s.name == "load")
                shared.push_back(&s);
        }
        return own.empty() ? shared : own;
    };
    const auto steady = [](const TrialLog::Span& s, double t) {
        const double to = s.to < 0 ? t : s.to;
        return t >= s.from + rampSeconds(to - s.from) && t <= to;
    };
    for (const bool down : {true, false}) {
        const auto spans = spansOf(down);
        std::vector<double> bps;
        for (const auto& p : log.m_throughput)
            for (const auto* s : spans)
                if (steady(*s, p.t))
                    bps.push_back(down ? p.a : p.b);
        if (!bps.empty()) {
            double sum = 0;
            for (double v : bps)
                sum += v;
            (down ? r.measures.downloadBps : r.measures.uploadBps) =
                sum / static_cast<double>(bps.size());
        }
    }
    r.headlineProbe = measure::headlineProbe(log.m_probeOrder);
    for (const auto& name : log.m_probeOrder) {
        Probe p;
        p.name = name;
        const auto lost = log.m_lost.find(name);
        p.lost = lost == log.m_lost.end() ? 0 : lost->second;
        const auto idle = blockIdle.find(name);
        if (idle != blockIdle.end() && !idle->second.empty()) {
            const double base = median(idle->second);
            for (const bool down : {true, false}) {
                const auto spans = spansOf(down);
                std::vector<double> inc;
                for (const auto& l : log.m_loaded)
                    if (l.probe == name)
                        for (const auto* s : spans)
                            if (steady(*s, l.t))
                                inc.push_back(l.b != 0 ? kLostProbeMs : l.a - base);
                if (inc.empty())
                    continue;
                (down ? p.downMedian : p.upMedian) = median(inc);
                (down ? p.downP90 : p.upP90) = percentile(inc, 0.9);
            }
        }
        if (name == r.headlineProbe) {
            r.measures.downloadLatencyMs = p.downMedian;
            r.measures.uploadLatencyMs = p.upMedian;
            if (p.downP90 && p.upP90)
                r.measures.latencyP90Ms = (*p.downP90 + *p.upP90) / 2;
            else
                r.measures.latencyP90Ms = p.downP90 ? p.downP90 : p.upP90;
        }
        r.probes.push_back(std::move(p));
    }
    if (log.m_coreSamples > 0) {
        const double n = log.m_coreSamples;
        for (std::size_t i = 0; i < log.m_busy.size(); ++i) {
            r.busy.push_back(log.m_busy[i] / n);
            r.softirq.push_back(log.m_softirq[i] / n);
            if (r.busy.back() > r.busiestShare || r.busiestCore < 0) {
                r.busiestShare = r.busy.back();
                r.busiestCore = static_cast<int>(i);
            }
        }
        if (r.busiestCore >= 0)
            r.measures.busiestShare = r.busiestShare;
    }
    return r;
}

} // namespace coresteer::measure

// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// One trial of the tuner, measured: what the load test's events and the sampler's rates said
// while one candidate layout was in force, and what that comes to.
//
// Throughput is the load generator's (the demo: its model's) over the steady part of each
// phase: the first second, or the first 30 % of a shorter phase, is TCP's ramp and is left out.
// The latency increase of a probe is its round trip under load over the idle round trip of the
// whole block (every trial of the block opens with a short idle spell; pooled, they are one
// steady baseline under the same conditions as the block's loads), as a median and a 90th
// percentile; a probe lost under load counts as an increase of kLostProbeMs, so that a layout
// that drops probes looks worse for it. Per-core busy and softirq shares are the means over the
// load phases, and the busiest core's share is a measure of its own (the headroom objective).
#pragma once

#include "core/live/sample.h"
#include "core/measure/stats.h"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace coresteer::measure {

// What a trial saw, as it came.
class TrialLog {
public:
    double from = 0, to = 0; // the trial's start and end, on the recording's clock
    void latency(double t, std::optional<double> ms, std::string_view probe);
    void throughput(double t, double down, double up);
    void phase(double t, std::string_view name);
    void rates(const live::Rates& r);
    // The trial is over at `t` (any open phase ends there).
    void end(double t);

    // The probes' idle round trips (ms), for the block's pooled baseline.
    const std::map<std::string, std::vector<double>>& idle() const { return m_idle; }

private:
    friend struct TrialResult;
    struct Span {
        std::string name; // download, upload, both
        double from = 0, to = -1;
    };
    struct Point {
        double t = 0;
        double a = 0, b = 0;
        std::string probe;
    };
    std::vector<Span> m_phases;
    std::string m_current = "idle";
    std::map<std::string, std::vector<double>> m_idle;
    std::vector<Point> m_loaded; // latency under load: t, ms, lost (1) or not (0), probe
    std::map<std::string, int> m_lost;
    std::vector<Point> m_throughput; // t, down, up
    std::vector<double> m_busy, m_softirq;
    int m_coreSamples = 0;
    std::vector<std::string> m_probeOrder;
};

struct TrialResult {
    int block = 0;
    int candidate = 0;
    bool repeat = false;
    double start = 0, end = 0; // on the recording's clock
    TrialMeasures measures;    // the headline probe's latency, throughput each way
    std::string headlineProbe;
    struct Probe {
        std::string name;
        // The increase over the block's idle median, per direction: median and p90 (ms).
        std::optional<double> downMedian, downP90, upMedian, upP90;
        int lost = 0;
    };
    std::vector<Probe> probes;
    std::vector<double> busy, softirq; // by CPU id, 0..1, over the load
    int busiestCore = -1;
    double busiestShare = 0;

    // The trial's measures, against `blockIdle`: each probe's idle round trips pooled over the
    // block (blockIdle() of the block's logs).
    static TrialResult measure(const TrialLog& log,
                               const std::map<std::string, std::vector<double>>& blockIdle);
};

// The pooled idle round trips of a block's trials, per probe.
std::map<std::string, std::vector<double>> blockIdle(const std::vector<const TrialLog*>& logs);

// The probe that sees most of the path, as the recording's summary picks it: the demo's
// model, else the first probe beyond the router, else the router's own, else the LAN side.
std::string headlineProbe(const std::vector<std::string>& probes);

// The nearest-rank percentile `p` (0..1) of `values`; 0 for none.
double percentile(std::vector<double> values, double p);

} // namespace coresteer::measure

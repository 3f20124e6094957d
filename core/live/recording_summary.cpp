// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// What a recording says in numbers (recording.h): its summary, its CSV, two compared.
#include "core/live/recording.h"

#include "core/base/text.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>

namespace coresteer::live {

using text::fixed;

const RecordingSummary::Core* RecordingSummary::core(int cpu) const {
    for (const auto& c : cores)
        if (c.cpu == cpu)
            return &c;
    return nullptr;
}

const RecordingSummary::Interface* RecordingSummary::interface(std::string_view name) const {
    for (const auto& i : interfaces)
        if (i.name == name)
            return &i;
    return nullptr;
}

namespace {

// Means over the whole recording and peaks of one-second means, weighted by each tick's length.
class Meter {
public:
    void add(double value, double seconds) {
        m_sum += value * seconds;
        m_seconds += seconds;
        m_winSum += value * seconds;
        m_winSeconds += seconds;
        if (m_winSeconds >= 1.0 - 1e-9) {
            m_peak = std::max(m_peak.value_or(0.0), m_winSum / m_winSeconds);
            m_winSum = m_winSeconds = 0;
        }
    }
    double mean() const { return m_seconds > 0 ? m_sum / m_seconds : 0; }
    // A recording shorter than a second has its mean as its peak.
    double peak() const { return m_peak ? *m_peak : mean(); }

private:
    double m_sum = 0, m_seconds = 0, m_winSum = 0, m_winSeconds = 0;
    std::optional<double> m_peak;
};

struct Meters {
    std::map<int, std::pair<Meter, Meter>> cores;
    std::map<std::string, std::pair<Meter, Meter>> ifaces;
    Meter down, up;
    bool generator = false;
    std::vector<std::optional<double>> idle, loaded;
    int probes = 0;
};

} // namespace

std::optional<RecordingSummary> summarize(const Recording& r, std::string* error) {
    Replay replay(r);
    ReplayEvent e;
    Meters m;
    RecordingSummary s;
    std::string phase; // "" before any phase event: the first 3 s count as the idle baseline
    double lastThroughput = 0;
    while (replay.next(e)) {
        switch (e.kind) {
        case ReplayEvent::Kind::Rates: {
            ++s.ticks;
            const double dt = e.rates.seconds();
            for (const auto& c : e.rates.cores) {
                auto& [busy, kernel] = m.cores[c.cpu];
                busy.add(c.busy(), dt);
                kernel.add(c.kernel(), dt);
            }
            for (const auto& i : e.rates.interfaces) {
                auto& [rx, tx] = m.ifaces[i.name];
                rx.add(i.rxBitsPerSec, dt);
                tx.add(i.txBitsPerSec, dt);
            }
            break;
        }
        case ReplayEvent::Kind::Gap:
            ++s.gaps;
            break;
        case ReplayEvent::Kind::Latency: {
            ++m.probes;
            const bool idle = phase.empty() ? e.t < 3.0 : phase == "idle";
            if (idle)
                m.idle.push_back(e.latencyMs);
            else if (phase != "done")
                m.loaded.push_back(e.latencyMs);
            break;
        }
        case ReplayEvent::Kind::Throughput: {
            const double dt = std::max(0.1, e.t - lastThroughput);
            lastThroughput = e.t;
            m.generator = true;
            m.down.add(e.downBitsPerSec, dt);
            m.up.add(e.upBitsPerSec, dt);
            break;
        }
        case ReplayEvent::Kind::Phase:
            phase = e.phase;
            break;
        }
        s.seconds = std::max(s.seconds, e.t);
    }
    if (!replay.error().empty()) {
        if (error)
            *error = replay.error();
        return std::nullopt;
    }
    for (const auto& [cpu, mm] : m.cores)
        s.cores.push_back(
            {cpu, mm.first.peak(), mm.first.mean(), mm.second.peak(), mm.second.mean()});
    for (const auto& [name, mm] : m.ifaces)
        s.interfaces.push_back(
            {name, mm.first.peak(), mm.first.mean(), mm.second.peak(), mm.second.mean()});
    if (m.generator) {
        s.downPeak = m.down.peak();
        s.downMean = m.down.mean();
        s.upPeak = m.up.peak();
        s.upMean = m.up.mean();
    }
    s.probes = m.probes;
    s.latency = gradeLatency(m.idle, m.loaded);
    return s;
}

namespace {

std::string csvField(std::string_view s) {
    std::string out = "\"";
    for (char c : s) {
        if (c == '"')
            out += '"';
        out += static_cast<unsigned char>(c) < 0x20 ? ' ' : c;
    }
    return out + '"';
}

} // namespace

std::optional<std::string> recordingCsv(const Recording& r, std::string* error) {
    // The columns: every core and interface that appears anywhere in the recording.
    std::map<int, bool> cpus;
    std::map<std::string, bool> ifaces;
    {
        Replay pass(r);
        ReplayEvent e;
        while (pass.next(e))
            if (e.kind == ReplayEvent::Kind::Rates) {
                for (const auto& c : e.rates.cores)
                    cpus[c.cpu] = true;
                for (const auto& i : e.rates.interfaces)
                    ifaces[i.name] = true;
            }
        if (!pass.error().empty()) {
            if (error)
                *error = pass.error();
            return std::nullopt;
        }
    }
    std::string out = "t_s,uptime_s";
    for (const auto& [cpu, _] : cpus)
        for (const char* part : {"busy", "user", "system", "irq", "softirq"})
            out += ",cpu" + std::to_string(cpu) + '_' + part + "_pct";
    for (const auto& [name, _] : ifaces) {
        out += ',' + csvField(name + "_rx_mbps");
        out += ',' + csvField(name + "_tx_mbps");
    }
    out += ",latency_ms,down_mbps,up_mbps,phase\n";

    Replay replay(r);
    ReplayEvent e;
    std::string latency, down, up, phase;
    while (replay.next(e)) {
        switch (e.kind) {
        case ReplayEvent::Kind::Latency:
            latency = e.latencyMs ? fixed(*e.latencyMs, 3) : std::string("lost");
            break;
        case ReplayEvent::Kind::Throughput:
            down = fixed(e.downBitsPerSec / 1e6, 3);
            up = fixed(e.upBitsPerSec / 1e6, 3);
            break;
        case ReplayEvent::Kind::Phase:
            phase = e.phase;
            break;
        case ReplayEvent::Kind::Gap:
            break;
        case ReplayEvent::Kind::Rates: {
            out += fixed(e.t, 3) + ',' + fixed(e.rates.end, 2);
            for (const auto& [cpu, _] : cpus) {
                const auto* c = e.rates.core(cpu);
                if (!c) {
                    out += ",,,,,";
                    continue;
                }
                for (double v : {c->busy(), c->user, c->system, c->irq, c->softirq})
                    out += ',' + fixed(v * 100, 1);
            }
            for (const auto& [name, _] : ifaces) {
                const IfaceRate* found = nullptr;
                for (const auto& i : e.rates.interfaces)
                    if (i.name == name)
                        found = &i;
                out += found ? ',' + fixed(found->rxBitsPerSec / 1e6, 3) + ',' +
                                   fixed(found->txBitsPerSec / 1e6, 3)
                             : std::string(",,");
            }
            out += ',' + latency + ',' + down + ',' + up + ',' + phase + '\n';
            latency.clear();
            down.clear();
            up.clear();
            break;
        }
        }
    }
    if (!replay.error().empty()) {
        if (error)
            *error = replay.error();
        return std::nullopt;
    }
    return out;
}

std::string compareSummaries(const RecordingSummary& a, const RecordingSummary& b,
                             std::string_view nameA, std::string_view nameB) {
    std::string out;
    auto row = [&](const std::string& what, const std::string& x, const std::string& y) {
        char buf[256];
        std::snprintf(buf, sizeof buf, "%-28s %20s %20s\n", what.c_str(), x.c_str(), y.c_str());
        out += buf;
    };
    auto pct = [](std::optional<double> v) { return v ? fixed(*v * 100, 1) + " %" : "-"; };
    auto mbps = [](std::optional<double> v) { return v ? fixed(*v / 1e6, 1) + " Mb/s" : "-"; };
    row("", text::printable(nameA, 20), text::printable(nameB, 20));
    row("length", fixed(a.seconds, 1) + " s", fixed(b.seconds, 1) + " s");
    std::map<int, bool> cpus;
    for (const auto& c : a.cores)
        cpus[c.cpu] = true;
    for (const auto& c : b.cores)
        cpus[c.cpu] = true;
    auto coreValue = [](const RecordingSummary& s, int cpu, bool peak) -> std::optional<double> {
        const auto* c = s.core(cpu);
        if (!c)
            return std::nullopt;
        return peak ? c->peak : c->mean;
    };
    for (const auto& [cpu, _] : cpus) {
        row("cpu" + std::to_string(cpu) + " busy, peak", pct(coreValue(a, cpu, true)),
            pct(coreValue(b, cpu, true)));
        row("cpu" + std::to_string(cpu) + " busy, mean", pct(coreValue(a, cpu, false)),
            pct(coreValue(b, cpu, false)));
    }
    std::map<std::string, bool> ifaces;
    for (const auto& i : a.interfaces)
        ifaces[i.name] = true;
    for (const auto& i : b.interfaces)
        ifaces[i.name] = true;
    auto ifValue = [](const RecordingSummary& s, const std::string& n,
                      bool rx) -> std::optional<double> {
        const auto* i = s.interface(n);
        if (!i)
            return std::nullopt;
        return rx ? i->rxMean : i->txMean;
    };
    for (const auto& [name, _] : ifaces) {
        const auto shown = text::printable(name, 15);
        row(shown + " rx, mean", mbps(ifValue(a, name, true)), mbps(ifValue(b, name, true)));
        row(shown + " tx, mean", mbps(ifValue(a, name, false)), mbps(ifValue(b, name, false)));
    }
    if (a.downMean || b.downMean) {
        row("load generator down, mean", mbps(a.downMean), mbps(b.downMean));
        row("load generator up, mean", mbps(a.upMean), mbps(b.upMean));
    }
    auto lat = [](const RecordingSummary& s, int what) -> std::string {
        if (!s.latency)
            return "-";
        if (what == 0)
            return fixed(s.latency->idleMs, 1) + " ms";
        if (what == 1)
            return fixed(s.latency->loadedMs, 1) + " ms";
        return s.latency->grade;
    };
    row("latency idle (median)", lat(a, 0), lat(b, 0));
    row("latency loaded (median)", lat(a, 1), lat(b, 1));
    row("bufferbloat grade", lat(a, 2), lat(b, 2));
    return out;
}

} // namespace coresteer::live

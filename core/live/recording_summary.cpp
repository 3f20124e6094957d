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

const RecordingSummary::Probe* RecordingSummary::probe(std::string_view name) const {
    for (const auto& p : probeSummaries)
        if (p.name == name)
            return &p;
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
    int probes = 0;
    // Per probe, in the order first seen: its idle, its whole load, and each load phase.
    struct Probe {
        std::string name;
        int probes = 0;
        std::vector<std::optional<double>> idle, loaded;
        std::map<std::string, std::vector<std::optional<double>>> byPhase;
    };
    std::vector<Probe> byProbe;
    Probe& probe(const std::string& name) {
        for (auto& p : byProbe)
            if (p.name == name)
                return p;
        byProbe.push_back({name, 0, {}, {}, {}});
        return byProbe.back();
    }
    // Per load phase, in the order run: its length and its throughput.
    struct Phase {
        std::string name;
        double start = 0, end = 0;
        Meter down, up;
        bool generator = false;
    };
    std::vector<Phase> phases;
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
            auto& p = m.probe(e.probe);
            ++p.probes;
            const bool idle = phase.empty() ? e.t < 3.0 : phase == "idle";
            if (idle) {
                p.idle.push_back(e.latencyMs);
            } else if (phase != "done") {
                p.loaded.push_back(e.latencyMs);
                if (isLoadPhase(phase))
                    p.byPhase[phase].push_back(e.latencyMs);
            }
            break;
        }
        case ReplayEvent::Kind::Throughput: {
            const double dt = std::max(0.1, e.t - lastThroughput);
            lastThroughput = e.t;
            m.generator = true;
            m.down.add(e.downBitsPerSec, dt);
            m.up.add(e.upBitsPerSec, dt);
            if (!m.phases.empty() && m.phases.back().name == phase) {
                m.phases.back().generator = true;
                m.phases.back().down.add(e.downBitsPerSec, dt);
                m.phases.back().up.add(e.upBitsPerSec, dt);
            }
            break;
        }
        case ReplayEvent::Kind::Trial: // the tuner's marks: its own reader (tune_json.h)
            break;
        case ReplayEvent::Kind::Phase:
            if (!m.phases.empty() && m.phases.back().name == phase)
                m.phases.back().end = e.t;
            phase = e.phase;
            if (isLoadPhase(phase))
                m.phases.push_back({phase, e.t, e.t, {}, {}, false});
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
    if (!m.phases.empty() && m.phases.back().name == phase)
        m.phases.back().end = s.seconds;
    for (const auto& ph : m.phases) {
        RecordingSummary::Phase out{ph.name, std::max(0.0, ph.end - ph.start), {}, {}};
        if (ph.generator) {
            out.downMean = ph.down.mean();
            out.upMean = ph.up.mean();
        }
        s.phases.push_back(std::move(out));
    }
    s.probes = m.probes;
    for (const auto& p : m.byProbe) {
        RecordingSummary::Probe out{p.name, p.probes, gradeLatency(p.idle, p.loaded), {}};
        // In the order the phases ran.
        for (const auto& ph : s.phases)
            if (auto it = p.byPhase.find(ph.name); it != p.byPhase.end()) {
                bool seen = false;
                for (const auto& [n, _] : out.byPhase)
                    seen = seen || n == ph.name;
                if (auto g = gradeLatency(p.idle, it->second); g && !seen)
                    out.byPhase.emplace_back(ph.name, *g);
            }
        s.probeSummaries.push_back(std::move(out));
    }
    // The headline: beyond the router first, where the queue that bloats is (the demo's model
    // of it, in the demo).
    const RecordingSummary::Probe* headline = nullptr;
    if (const auto* demo = s.probe(kDemoProbe); demo && demo->latency)
        headline = demo;
    for (const auto& p : s.probeSummaries)
        if (p.latency && p.name != kLanProbe && p.name != kRouterProbe && !headline)
            headline = &p;
    for (auto name : {kRouterProbe, kLanProbe})
        if (const auto* p = s.probe(name); !headline && p && p->latency)
            headline = p;
    if (headline) {
        s.latency = headline->latency;
        s.latencyProbe = headline->name;
    }
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
    // The LAN-side probe's column first, as "latency_ms"; then the others in the order seen.
    std::vector<std::string> probes{std::string(kLanProbe)};
    {
        Replay pass(r);
        ReplayEvent e;
        while (pass.next(e))
            if (e.kind == ReplayEvent::Kind::Latency &&
                std::find(probes.begin(), probes.end(), e.probe) == probes.end())
                probes.push_back(e.probe);
            else if (e.kind == ReplayEvent::Kind::Rates) {
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
    out += ",latency_ms";
    for (std::size_t i = 1; i < probes.size(); ++i)
        out += ',' + csvField("latency_" + probes[i] + "_ms");
    out += ",down_mbps,up_mbps,phase\n";

    Replay replay(r);
    ReplayEvent e;
    std::vector<std::string> latency(probes.size());
    std::string down, up, phase;
    while (replay.next(e)) {
        switch (e.kind) {
        case ReplayEvent::Kind::Latency:
            for (std::size_t i = 0; i < probes.size(); ++i)
                if (probes[i] == e.probe)
                    latency[i] = e.latencyMs ? fixed(*e.latencyMs, 3) : std::string("lost");
            break;
        case ReplayEvent::Kind::Throughput:
            down = fixed(e.downBitsPerSec / 1e6, 3);
            up = fixed(e.upBitsPerSec / 1e6, 3);
            break;
        case ReplayEvent::Kind::Trial: // the tuner's marks: its own reader (tune_json.h)
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
            for (auto& l : latency) {
                out += ',' + l;
                l.clear();
            }
            out += ',' + down + ',' + up + ',' + phase + '\n';
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
    // Each probe's grade, whole and per phase, beside the headline's.
    std::vector<std::string> probes;
    for (const auto* s : {&a, &b})
        for (const auto& p : s->probeSummaries)
            if (std::find(probes.begin(), probes.end(), p.name) == probes.end())
                probes.push_back(p.name);
    auto ms = [](double v) { return fixed(v, 1) + " ms"; };
    auto grade = [&](const LatencyGrade& g) {
        return g.grade + " (+" + fixed(g.increaseMs, 1) + " ms)";
    };
    for (const auto& name : probes) {
        const auto* pa = a.probe(name);
        const auto* pb = b.probe(name);
        auto of = [&](const RecordingSummary::Probe* p, int what) -> std::string {
            if (!p || !p->latency)
                return "-";
            return what == 0   ? ms(p->latency->idleMs)
                   : what == 1 ? ms(p->latency->loadedMs)
                               : grade(*p->latency);
        };
        const auto shown = text::printable(name, 14);
        row("latency " + shown + ", idle", of(pa, 0), of(pb, 0));
        row("latency " + shown + ", loaded", of(pa, 1), of(pb, 1));
        row("grade " + shown, of(pa, 2), of(pb, 2));
        std::vector<std::string> phases;
        for (const auto* p : {pa, pb})
            if (p)
                for (const auto& [ph, _] : p->byPhase)
                    if (std::find(phases.begin(), phases.end(), ph) == phases.end())
                        phases.push_back(ph);
        for (const auto& ph : phases) {
            auto in = [&](const RecordingSummary::Probe* p) -> std::string {
                if (p)
                    for (const auto& [n, g] : p->byPhase)
                        if (n == ph)
                            return grade(g);
                return "-";
            };
            row("grade " + shown + ", " + ph, in(pa), in(pb));
        }
    }
    row("bufferbloat grade", a.latency ? a.latency->grade : "-",
        b.latency ? b.latency->grade : "-");
    return out;
}

} // namespace coresteer::live

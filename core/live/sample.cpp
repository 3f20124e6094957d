// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/live/sample.h"

#include "core/base/text.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <map>

namespace coresteer::live {

std::optional<double> parseUptime(std::string_view text, Diagnostics& diag) {
    const auto up = text::trim(text);
    const auto sp = up.find(' ');
    const std::string first(up.substr(0, sp));
    char* end = nullptr;
    const double uptime = std::strtod(first.c_str(), &end);
    if (first.empty() || !end || *end != '\0' || !(uptime >= 0) || uptime > 1e10) {
        diag.error("proc/uptime", 1, "not an uptime: '" + text::printable(first) + "'");
        return std::nullopt;
    }
    return uptime;
}

double parseCountersUptime(std::string_view text) {
    if (text.empty())
        return -1;
    Diagnostics ignored; // the same uptime, already checked (or "?": none)
    const auto v = parseUptime(text, ignored);
    return v ? *v : std::nan("");
}

std::optional<double> estimateUptime(double since, const ProcStat& sinceStat, const ProcStat& stat,
                                     double after, double atMostSeconds) {
    constexpr double kUserHz = 100;
    double sum = 0;
    int n = 0;
    for (const auto& c : stat.cpus) {
        const auto* then = sinceStat.cpu(c.cpu);
        if (!then || c.total() < then->total())
            continue; // came online since, or its counters went back (offline and on again)
        sum += static_cast<double>(c.total() - then->total());
        ++n;
    }
    if (n == 0)
        return std::nullopt;
    const double seconds = sum / n / kUserHz;
    if (!(seconds <= atMostSeconds))
        return std::nullopt;
    return std::max(since + seconds, after + 0.001);
}

bool parseSampleFile(char source, std::string_view text, Sample& s, Diagnostics& diag) {
    switch (source) {
    case 's':
        s.stat = parseProcStat(text, diag);
        if (s.stat.cpus.empty()) {
            diag.error("proc/stat", 1, "no cpuN lines");
            return false;
        }
        return true;
    case 'q':
        s.softirqs = text.empty() ? SoftirqTable{} : parseSoftirqs(text, diag);
        return true;
    case 'i':
        s.interrupts = text.empty() ? InterruptTable{} : parseInterrupts(text, diag);
        return true;
    case 'n':
        s.netdev = text.empty() ? std::vector<NetDevCounters>{} : parseNetDev(text, diag);
        return true;
    default:
        return true;
    }
}

std::optional<Sample> parseSample(const SampleTexts& t, Diagnostics& diag) {
    Sample s;
    const auto uptime = parseUptime(t.uptime, diag);
    if (!uptime)
        return std::nullopt;
    s.uptime = *uptime;
    s.countersUptime = parseCountersUptime(t.countersUptime);
    for (const auto& [source, text] : {std::pair<char, const std::string&>{'s', t.stat},
                                       {'q', t.softirqs},
                                       {'i', t.interrupts},
                                       {'n', t.netdev}})
        if (!parseSampleFile(source, text, s, diag))
            return std::nullopt;
    return s;
}

const CoreLoad* Rates::core(int cpu) const {
    for (const auto& c : cores)
        if (c.cpu == cpu)
            return &c;
    return nullptr;
}

const IrqRate* Rates::irq(std::uint32_t n) const {
    for (const auto& r : irqs)
        if (r.irq == n)
            return &r;
    return nullptr;
}

namespace {

// The increase of a counter, or nullopt when it went backwards.
std::optional<double> delta(std::uint64_t a, std::uint64_t b) {
    if (b < a)
        return std::nullopt;
    return static_cast<double>(b - a);
}

int maxCpu(const ProcStat& stat, const InterruptTable& irqs, const SoftirqTable& softirqs) {
    int m = -1;
    for (const auto& c : stat.cpus)
        m = std::max(m, c.cpu);
    for (int c : irqs.cpus)
        m = std::max(m, c);
    for (int c : softirqs.cpus)
        m = std::max(m, c);
    return m;
}

// The rates of one IRQ between its counts then (`p`, whose column of CPU c is pcolOf[c]) and
// now; nullopt when a count went backwards. An IRQ that did not fire has no perCpu (most of
// them, on a machine with thousands: no allocation for those).
std::optional<IrqRate> irqRate(const IrqCounts& p, const std::vector<int>& pcolOf,
                               const IrqRow& row, const std::vector<int>& cpus, int width,
                               double secs) {
    IrqRate ir;
    ir.irq = *row.irq;
    if (&p == &row.counts)
        return ir;
    for (std::size_t col = 0; col < cpus.size() && col < row.counts.size(); ++col) {
        const int cpu = cpus[col];
        const int pcol = pcolOf[static_cast<std::size_t>(cpu)];
        if (pcol < 0 || static_cast<std::size_t>(pcol) >= p.size())
            continue;
        const auto v = delta(p[static_cast<std::size_t>(pcol)], row.counts[col]);
        if (!v)
            return std::nullopt;
        if (*v == 0)
            continue;
        if (ir.perCpu.empty())
            ir.perCpu.assign(static_cast<std::size_t>(width), 0.0);
        ir.perCpu[static_cast<std::size_t>(cpu)] = *v / secs;
        ir.total += *v / secs;
    }
    return ir;
}

} // namespace

std::optional<Rates> computeRates(const Sample& prev, const Sample& cur, const Rates* last) {
    return computeRates(SampleBefore{prev.uptime, prev.countersUptime, &prev.stat, &prev.softirqs,
                                     &prev.netdev, &prev.interrupts, nullptr},
                        cur, last);
}

std::optional<Rates> computeRates(const SampleBefore& before, const Sample& cur,
                                  const Rates* last) {
    if (!(cur.uptime > before.uptime))
        return std::nullopt;
    const ProcStat& prevStat = *before.stat;
    const InterruptTable& prevIrqs = before.interrupts ? *before.interrupts : cur.interrupts;
    Rates r;
    r.start = before.uptime;
    r.end = cur.uptime;
    const int width = std::max(maxCpu(prevStat, prevIrqs, *before.softirqs),
                               maxCpu(cur.stat, cur.interrupts, cur.softirqs)) +
                      1;

    for (const auto& c : cur.stat.cpus) {
        const auto* p = prevStat.cpu(c.cpu);
        if (!p)
            continue; // came online since
        std::array<double, CpuTimes::Count> d{};
        bool ok = true;
        for (int f = 0; f < CpuTimes::Count && ok; ++f) {
            const auto v = delta(p->ticks[f], c.ticks[f]);
            ok = v.has_value();
            if (ok)
                d[f] = *v;
        }
        if (!ok) {
            ++r.resets;
            continue;
        }
        const double total = d[CpuTimes::User] + d[CpuTimes::Nice] + d[CpuTimes::System] +
                             d[CpuTimes::Idle] + d[CpuTimes::IoWait] + d[CpuTimes::Irq] +
                             d[CpuTimes::SoftIrq] + d[CpuTimes::Steal];
        if (total <= 0)
            continue; // no tick elapsed on this CPU (a tickless idle CPU reports nothing)
        CoreLoad l;
        l.cpu = c.cpu;
        l.user = (d[CpuTimes::User] + d[CpuTimes::Nice]) / total;
        l.system = d[CpuTimes::System] / total;
        l.irq = d[CpuTimes::Irq] / total;
        l.softirq = d[CpuTimes::SoftIrq] / total;
        l.iowait = d[CpuTimes::IoWait] / total;
        l.steal = d[CpuTimes::Steal] / total;
        l.idle = (d[CpuTimes::Idle] + d[CpuTimes::IoWait]) / total;
        r.cores.push_back(l);
    }
    std::sort(r.cores.begin(), r.cores.end(),
              [](const CoreLoad& a, const CoreLoad& b) { return a.cpu < b.cpu; });

    // The other files' counters: between the times they were read (NaN compares false).
    const double from = before.countersUptime < 0 ? before.uptime : before.countersUptime;
    const double to = cur.countersAt();
    if (!(to > from)) {
        if (last && to == last->countersEnd) { // the same counters as then: their rates held
            r.countersStart = last->countersStart;
            r.countersEnd = last->countersEnd;
            r.irqs = last->irqs;
            r.netRx = last->netRx;
            r.netTx = last->netTx;
            r.interfaces = last->interfaces;
        }
        return r;
    }
    r.countersStart = from;
    r.countersEnd = to;
    const double secs = to - from;

    // The earlier table's (first) column of each CPU id: InterruptTable::columnOf for all.
    std::vector<int> pcolOf(static_cast<std::size_t>(width), -1);
    for (std::size_t col = prevIrqs.cpus.size(); col-- > 0;)
        pcolOf[static_cast<std::size_t>(prevIrqs.cpus[col])] = static_cast<int>(col);
    r.irqs.reserve(cur.interrupts.rows.size());
    const auto* replaced = before.interrupts ? nullptr : before.replacedCounts;
    std::size_t next = 0; // the next replaced row
    for (std::size_t i = 0; i < cur.interrupts.rows.size(); ++i) {
        const auto& row = cur.interrupts.rows[i];
        const IrqCounts* p = nullptr;
        if (!before.interrupts) { // the same rows: this one, unless it was replaced
            while (replaced && next < replaced->size() && (*replaced)[next].first < i)
                ++next;
            p = replaced && next < replaced->size() && (*replaced)[next].first == i
                    ? &(*replaced)[next].second
                    : &row.counts;
        }
        if (!row.irq)
            continue;
        if (before.interrupts) {
            const auto* then = before.interrupts->findIrq(*row.irq);
            p = then ? &then->counts : nullptr;
        }
        if (!p)
            continue;
        auto ir = irqRate(*p, pcolOf, row, cur.interrupts.cpus, width, secs);
        if (!ir) {
            ++r.resets;
            continue;
        }
        r.irqs.push_back(std::move(*ir));
    }

    auto softirq = [&](const char* name, std::vector<double>& out) {
        out.assign(static_cast<std::size_t>(width), 0.0);
        const SoftirqTable& prevSoft = *before.softirqs;
        const auto* a = prevSoft.find(name);
        const auto* b = cur.softirqs.find(name);
        if (!a || !b)
            return;
        for (std::size_t col = 0; col < cur.softirqs.cpus.size() && col < b->counts.size(); ++col) {
            const int cpu = cur.softirqs.cpus[col];
            const auto it = std::find(prevSoft.cpus.begin(), prevSoft.cpus.end(), cpu);
            const auto pcol = static_cast<std::size_t>(it - prevSoft.cpus.begin());
            if (it == prevSoft.cpus.end() || pcol >= a->counts.size())
                continue;
            if (const auto v = delta(a->counts[pcol], b->counts[col]))
                out[static_cast<std::size_t>(cpu)] = *v / secs;
            else
                ++r.resets;
        }
    };
    softirq("NET_RX", r.netRx);
    softirq("NET_TX", r.netTx);

    std::map<std::string, const NetDevCounters*> then;
    for (const auto& n : *before.netdev)
        then[n.name] = &n;
    for (const auto& n : cur.netdev) {
        const auto it = then.find(n.name);
        if (it == then.end())
            continue;
        const auto& p = *it->second;
        const auto rb = delta(p.get(NetDevCounters::RxBytes), n.get(NetDevCounters::RxBytes));
        const auto tb = delta(p.get(NetDevCounters::TxBytes), n.get(NetDevCounters::TxBytes));
        const auto rp = delta(p.get(NetDevCounters::RxPackets), n.get(NetDevCounters::RxPackets));
        const auto tp = delta(p.get(NetDevCounters::TxPackets), n.get(NetDevCounters::TxPackets));
        if (!rb || !tb || !rp || !tp) {
            ++r.resets;
            continue;
        }
        r.interfaces.push_back({n.name, *rb * 8 / secs, *tb * 8 / secs, *rp / secs, *tp / secs});
    }
    return r;
}

} // namespace coresteer::live

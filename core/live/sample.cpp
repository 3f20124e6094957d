#include "core/live/sample.h"

#include "core/text.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <map>

namespace coresteer {

std::optional<Sample> parseSample(const SampleTexts& t, Diagnostics& diag) {
    Sample s;
    const auto up = text::trim(t.uptime);
    const auto sp = up.find(' ');
    const std::string first(up.substr(0, sp));
    char* end = nullptr;
    s.uptime = std::strtod(first.c_str(), &end);
    if (first.empty() || !end || *end != '\0' || !(s.uptime >= 0) || s.uptime > 1e10) {
        diag.error("proc/uptime", 1, "not an uptime: '" + text::printable(first) + "'");
        return std::nullopt;
    }
    s.stat = parseProcStat(t.stat, diag);
    if (s.stat.cpus.empty()) {
        diag.error("proc/stat", 1, "no cpuN lines");
        return std::nullopt;
    }
    if (!t.softirqs.empty())
        s.softirqs = parseSoftirqs(t.softirqs, diag);
    if (!t.interrupts.empty())
        s.interrupts = parseInterrupts(t.interrupts, diag);
    if (!t.netdev.empty())
        s.netdev = parseNetDev(t.netdev, diag);
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

int maxCpu(const Sample& s) {
    int m = -1;
    for (const auto& c : s.stat.cpus)
        m = std::max(m, c.cpu);
    for (int c : s.interrupts.cpus)
        m = std::max(m, c);
    for (int c : s.softirqs.cpus)
        m = std::max(m, c);
    return m;
}

} // namespace

std::optional<Rates> computeRates(const Sample& prev, const Sample& cur) {
    if (!(cur.uptime > prev.uptime))
        return std::nullopt;
    Rates r;
    r.start = prev.uptime;
    r.end = cur.uptime;
    const double secs = cur.uptime - prev.uptime;
    const int width = std::max(maxCpu(prev), maxCpu(cur)) + 1;

    for (const auto& c : cur.stat.cpus) {
        const auto* p = prev.stat.cpu(c.cpu);
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

    for (const auto& row : cur.interrupts.rows) {
        if (!row.irq)
            continue;
        const auto* p = prev.interrupts.findIrq(*row.irq);
        if (!p)
            continue;
        IrqRate ir;
        ir.irq = *row.irq;
        ir.perCpu.assign(static_cast<std::size_t>(width), 0.0);
        bool ok = true;
        for (std::size_t col = 0; col < cur.interrupts.cpus.size() && col < row.counts.size();
             ++col) {
            const int cpu = cur.interrupts.cpus[col];
            const int pcol = prev.interrupts.columnOf(cpu);
            if (pcol < 0 || static_cast<std::size_t>(pcol) >= p->counts.size())
                continue;
            const auto v = delta(p->counts[static_cast<std::size_t>(pcol)], row.counts[col]);
            if (!v) {
                ok = false;
                break;
            }
            ir.perCpu[static_cast<std::size_t>(cpu)] = *v / secs;
            ir.total += *v / secs;
        }
        if (!ok) {
            ++r.resets;
            continue;
        }
        r.irqs.push_back(std::move(ir));
    }

    auto softirq = [&](const char* name, std::vector<double>& out) {
        out.assign(static_cast<std::size_t>(width), 0.0);
        const auto* a = prev.softirqs.find(name);
        const auto* b = cur.softirqs.find(name);
        if (!a || !b)
            return;
        for (std::size_t col = 0; col < cur.softirqs.cpus.size() && col < b->counts.size(); ++col) {
            const int cpu = cur.softirqs.cpus[col];
            const auto it = std::find(prev.softirqs.cpus.begin(), prev.softirqs.cpus.end(), cpu);
            const auto pcol = static_cast<std::size_t>(it - prev.softirqs.cpus.begin());
            if (it == prev.softirqs.cpus.end() || pcol >= a->counts.size())
                continue;
            if (const auto v = delta(a->counts[pcol], b->counts[col]))
                out[static_cast<std::size_t>(cpu)] = *v / secs;
            else
                ++r.resets;
        }
    };
    softirq("NET_RX", r.netRx);
    softirq("NET_TX", r.netTx);

    std::map<std::string, const NetDevCounters*> before;
    for (const auto& n : prev.netdev)
        before[n.name] = &n;
    for (const auto& n : cur.netdev) {
        const auto it = before.find(n.name);
        if (it == before.end())
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

} // namespace coresteer

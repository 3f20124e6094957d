// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/live/demoload.h"

#include "core/base/cpumask.h"
#include "core/base/text.h"
#include "core/kernel/interrupts.h"
#include "core/kernel/procstat.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace coresteer::live {

namespace {

std::string readAll(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

bool writeAll(const std::string& path, const std::string& text, std::string* error) {
    // Written beside and renamed, so that a reader never sees half a file.
    const std::string tmp = path + ".demo-tmp";
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        out << text;
        if (!out) {
            if (error)
                *error = path + ": cannot write";
            return false;
        }
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0) {
        if (error)
            *error = path + ": cannot replace";
        return false;
    }
    return true;
}

std::string fmt(const char* f, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, f, v);
    return buf;
}

std::string u64(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%llu", static_cast<unsigned long long>(std::max(0.0, v)));
    return buf;
}

std::string padLeft(const std::string& s, std::size_t w) {
    return s.size() >= w ? s : std::string(w - s.size(), ' ') + s;
}

} // namespace

struct DemoLoad::State {
    std::string root;
    Profile p;
    std::vector<int> cpus;        // online CPU ids
    std::vector<double> capacity; // by CPU id, 1024 when unknown
    int width = 0;                // mask width

    // /proc/stat
    std::vector<std::array<double, CpuTimes::Count>> ticks; // by CPU id
    std::string statRest;                                   // the lines after the cpu lines
    // /proc/interrupts
    struct IrqLine {
        std::string label;
        std::vector<double> counts;
        std::string suffix;
    };
    std::vector<int> irqCpus; // columns
    std::vector<IrqLine> irqLines;
    std::map<std::uint32_t, std::size_t> irqIndex;
    // /proc/softirqs
    std::vector<int> sqCpus;
    std::vector<std::pair<std::string, std::vector<double>>> softirqs;
    // /proc/net/dev
    std::vector<std::pair<std::string, std::array<double, NetDevCounters::Count>>> netdev;

    struct Nic {
        std::string name;
        std::uint32_t irq = 0; // its busiest IRQ: the data vector
    };
    Nic a, b; // traffic flows a -> b (download) and b -> a (upload)
    std::uint64_t rng = 0x9e3779b97f4a7c15ull;
    // The share of a saturated core the router's other work leaves to packets drifts, slowly
    // (a mean-reverting walk, about a second long) and from step to step: a saturated router's
    // throughput is never flat, and the tuner's statistics have noise to measure.
    double drift = 0;

    double noise() { // 0..1, deterministic
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        return static_cast<double>(rng % 10000) / 10000.0;
    }
    double cost(double us, int cpu) const {
        const auto c = capacity[static_cast<std::size_t>(cpu)];
        return us * 1e-6 * 1024.0 / (c > 0 ? c : 1024.0);
    }
    // The CPU that takes `irq` now: the first online CPU of its smp_affinity (as the GIC and
    // MSI controllers choose), written back as its effective affinity.
    int irqCpu(std::uint32_t irq) const {
        const auto dir = root + "/proc/irq/" + std::to_string(irq) + "/";
        const auto mask = CpuMask::fromHex(text::trim(readAll(dir + "smp_affinity")));
        int pick = cpus.front();
        if (mask)
            for (int c : cpus)
                if (mask->test(c)) {
                    pick = c;
                    break;
                }
        const auto eff = CpuMask::fromCpus({pick}, width).toHex(width);
        if (text::trim(readAll(dir + "effective_affinity")) != eff)
            writeAll(dir + "effective_affinity", eff + "\n", nullptr);
        return pick;
    }
    std::vector<int> rpsCpus(const std::string& nic) const {
        const auto mask = CpuMask::fromHex(
            text::trim(readAll(root + "/sys/class/net/" + nic + "/queues/rx-0/rps_cpus")));
        std::vector<int> out;
        if (mask)
            for (int c : cpus)
                if (mask->test(c))
                    out.push_back(c);
        return out;
    }
};

DemoLoad::DemoLoad(std::unique_ptr<State> s) : m(std::move(s)) {}
DemoLoad::~DemoLoad() = default;

std::unique_ptr<DemoLoad> DemoLoad::create(std::string root, const Snapshot& snap,
                                           std::string* error) {
    return create(std::move(root), snap, Profile{}, error);
}

std::unique_ptr<DemoLoad> DemoLoad::create(std::string root, const Snapshot& snap,
                                           const Profile& profile, std::string* error) {
    auto fail = [&](const std::string& why) -> std::unique_ptr<DemoLoad> {
        if (error)
            *error = why;
        return nullptr;
    };
    auto s = std::make_unique<State>();
    s->root = std::move(root);
    s->p = profile;
    s->width = std::max(snap.topology.maskWidth, 1);
    for (const auto& c : snap.topology.cpus)
        if (c.online)
            s->cpus.push_back(c.id);
    if (s->cpus.empty())
        return fail("the demo router has no online CPU");
    const int maxId = *std::max_element(s->cpus.begin(), s->cpus.end());
    s->capacity.assign(static_cast<std::size_t>(maxId + 1), 1024.0);
    for (const auto& c : snap.topology.cpus)
        if (c.capacity && c.id <= maxId)
            s->capacity[static_cast<std::size_t>(c.id)] = *c.capacity;

    // The two wired NICs whose busiest IRQ has fired most carry the test.
    auto busiest = [&](const NetInterface& n) {
        std::uint32_t best = n.irqs.front();
        std::uint64_t most = 0;
        for (auto i : n.irqs)
            if (const auto* row = snap.interrupts.findIrq(i); row && row->total() >= most) {
                most = row->total();
                best = i;
            }
        return std::make_pair(best, most);
    };
    std::vector<std::pair<std::uint64_t, const NetInterface*>> nics;
    for (const auto& n : snap.interfaces)
        if (!n.isVirtual() && !n.isWireless() && !n.irqs.empty())
            nics.emplace_back(busiest(n).second, &n);
    if (nics.size() < 2)
        return fail("the demo router needs two NICs with IRQs");
    std::sort(nics.begin(), nics.end(), [](const auto& x, const auto& y) {
        return x.first > y.first || (x.first == y.first && x.second->name < y.second->name);
    });
    s->a = {nics[0].second->name, busiest(*nics[0].second).first};
    s->b = {nics[1].second->name, busiest(*nics[1].second).first};

    Diagnostics d;
    const auto stat = parseProcStat(readAll(s->root + "/proc/stat"), d);
    s->ticks.assign(static_cast<std::size_t>(maxId + 1), {});
    for (const auto& c : stat.cpus)
        if (c.cpu >= 0 && c.cpu <= maxId)
            for (int f = 0; f < CpuTimes::Count; ++f)
                s->ticks[static_cast<std::size_t>(c.cpu)][static_cast<std::size_t>(f)] =
                    static_cast<double>(c.ticks[static_cast<std::size_t>(f)]);
    {
        std::istringstream in(readAll(s->root + "/proc/stat"));
        std::string line;
        while (std::getline(in, line))
            if (!text::startsWith(line, "cpu"))
                s->statRest += line + "\n";
    }

    const auto irqText = readAll(s->root + "/proc/interrupts");
    const auto table = parseInterrupts(irqText, d);
    if (table.cpus.empty() || !table.findIrq(s->a.irq) || !table.findIrq(s->b.irq))
        return fail("the demo router's proc/interrupts lacks its NICs' IRQs");
    s->irqCpus = table.cpus;
    std::vector<std::string> lines;
    {
        std::istringstream in(irqText);
        std::string line;
        while (std::getline(in, line))
            lines.push_back(line);
    }
    for (const auto& r : table.rows) {
        State::IrqLine l;
        l.label = r.label;
        for (auto c : r.counts)
            l.counts.push_back(static_cast<double>(c));
        // The text after the counts (chip, hwirq, trigger, actions), as the kernel printed it.
        if (r.line >= 1 && static_cast<std::size_t>(r.line) <= lines.size()) {
            const auto& src = lines[static_cast<std::size_t>(r.line - 1)];
            std::size_t pos = src.find(':');
            pos = pos == std::string::npos ? src.size() : pos + 1;
            for (int k = 0; k < r.countColumns; ++k) {
                pos = src.find_first_not_of(' ', pos);
                pos = pos == std::string::npos ? src.size() : src.find(' ', pos);
                if (pos == std::string::npos)
                    pos = src.size();
            }
            l.suffix = src.substr(pos);
        }
        if (r.irq)
            s->irqIndex[*r.irq] = s->irqLines.size();
        s->irqLines.push_back(std::move(l));
    }

    const auto sq = parseSoftirqs(readAll(s->root + "/proc/softirqs"), d);
    s->sqCpus = sq.cpus;
    for (const auto& r : sq.rows) {
        std::vector<double> c;
        for (auto v : r.counts)
            c.push_back(static_cast<double>(v));
        s->softirqs.emplace_back(r.name, std::move(c));
    }
    for (const auto& n : parseNetDev(readAll(s->root + "/proc/net/dev"), d)) {
        std::array<double, NetDevCounters::Count> v{};
        for (int f = 0; f < NetDevCounters::Count; ++f)
            v[static_cast<std::size_t>(f)] =
                static_cast<double>(n.values[static_cast<std::size_t>(f)]);
        s->netdev.emplace_back(n.name, v);
    }
    auto load = std::unique_ptr<DemoLoad>(new DemoLoad(std::move(s)));
    // Three days up, at the start of the download phase: the demo opens under load.
    const double days = 3 * 86400;
    load->m_uptime = days - std::fmod(days, profile.period) + 0.2 * profile.period;
    load->m_latency = profile.baseRttMs;
    return load;
}

void DemoLoad::startTest(double idleSeconds, double phaseSeconds, std::vector<std::string> phases) {
    m_testStart = m_uptime;
    m_testIdle = std::max(0.0, idleSeconds);
    m_testPhase = std::max(0.5, phaseSeconds);
    if (phases.empty())
        phases = {"download", "upload", "download and upload"};
    m_testPhases = std::move(phases);
}

std::string DemoLoad::phase() const {
    if (m_testPhase > 0) {
        const double dt = (m_uptime - m_testStart - m_testIdle) / m_testPhase;
        const auto n = static_cast<double>(m_testPhases.size());
        if (dt >= 0 && dt < n)
            return m_testPhases[static_cast<std::size_t>(dt)];
        if (dt < n + 5 / m_testPhase)
            return "idle"; // the baseline, and a rest after the test
    }
    const double t = std::fmod(m_uptime, m->p.period) / m->p.period;
    if (t < 0.15 || t >= 0.9)
        return "idle";
    if (t < 0.45)
        return "download";
    if (t < 0.75)
        return "upload";
    return "download and upload";
}

bool DemoLoad::step(double seconds, std::string* error) {
    auto& s = *m;
    if (seconds <= 0)
        return true;
    m_uptime += seconds;
    const auto ph = phase();
    const double fullPps = s.p.linkMbps * 1e6 / (8 * s.p.packetBytes);
    const double wobble = 0.95 + 0.1 * s.noise();
    const double downPps =
        (ph == "download" || ph == "download and upload") ? fullPps * wobble : fullPps * 0.002;
    const double upPps =
        (ph == "upload" || ph == "download and upload") ? fullPps * 0.9 * wobble : fullPps * 0.001;

    const std::size_t n = s.capacity.size();
    std::vector<double> dIrq(n, 0), dSoft(n, 0), irqs(n, 0), netRx(n, 0), netTx(n, 0);
    struct Flow {
        const State::Nic* in;
        const State::Nic* out;
        double pps;
    };
    const Flow flows[] = {{&s.a, &s.b, downPps}, {&s.b, &s.a, upPps}};
    std::map<std::uint32_t, std::pair<int, double>> irqCount; // irq -> cpu, interrupts/s
    for (const auto& f : flows) {
        const int ic = s.irqCpu(f.in->irq);
        const int oc = s.irqCpu(f.out->irq);
        const auto rps = s.rpsCpus(f.in->name);
        dIrq[static_cast<std::size_t>(ic)] += f.pps * s.cost(s.p.irqUs, ic);
        dSoft[static_cast<std::size_t>(ic)] += f.pps * s.cost(s.p.napiUs, ic);
        // RPS hashes each flow to one CPU of the mask; every flow gets the same rate.
        for (int i = 0; i < s.p.flows; ++i) {
            const int c = rps.empty() ? ic : rps[static_cast<std::size_t>(i * 5 + 1) % rps.size()];
            dSoft[static_cast<std::size_t>(c)] += f.pps / s.p.flows * s.cost(s.p.stackUs, c);
        }
        dIrq[static_cast<std::size_t>(oc)] += f.pps * s.cost(s.p.txUs * 0.3, oc);
        dSoft[static_cast<std::size_t>(oc)] += f.pps * s.cost(s.p.txUs * 0.7, oc);
    }
    // The busiest core sets the pace: past 100% the router drops, and every path slows.
    double peak = 0;
    for (int c : s.cpus)
        peak =
            std::max(peak, dIrq[static_cast<std::size_t>(c)] + dSoft[static_cast<std::size_t>(c)]);
    s.drift +=
        (0.5 - s.noise()) * 0.04 * std::min(1.0, seconds * 10) - s.drift * std::min(1.0, seconds);
    const double avail = std::clamp(0.96 + 0.06 * s.noise() + s.drift, 0.8, 1.0);
    const double scale = peak > avail ? avail / peak : 1.0;
    m_down = downPps * scale * s.p.packetBytes * 8 / 1e6;
    m_up = upPps * scale * s.p.packetBytes * 8 / 1e6;
    // The queue before the busiest core: full when it is saturated (its length over the rate
    // the core drains it), rising steeply as it nears that, else cake's own under load. It
    // fills and drains over about half a second.
    m_peak = peak;
    const double servedPps = std::max(1.0, (downPps + upPps) * scale);
    const double fullMs = s.p.queuePackets / servedPps * 1000;
    const bool loaded = ph != "idle";
    double queueMs = peak >= 1.0 ? fullMs : fullMs * std::pow(std::max(0.0, peak - 0.85) / 0.15, 3);
    if (loaded)
        queueMs = std::max(queueMs, s.p.cakeQueueMs * (0.8 + 0.4 * s.noise()));
    m_queueMs += (queueMs - m_queueMs) * std::min(1.0, seconds / 0.5);
    m_latency = s.p.baseRttMs + 0.6 * s.noise() + m_queueMs;
    for (const auto& f : flows) {
        const double pps = f.pps * scale;
        const double ints = pps / s.p.packetsPerIrq;
        const int ic = s.irqCpu(f.in->irq);
        const int oc = s.irqCpu(f.out->irq);
        irqCount[f.in->irq].first = ic;
        irqCount[f.in->irq].second += ints;
        irqCount[f.out->irq].first = oc;
        irqCount[f.out->irq].second += ints / 2;
        netRx[static_cast<std::size_t>(ic)] += ints;
        for (int c : s.rpsCpus(f.in->name))
            netRx[static_cast<std::size_t>(c)] += ints;
        netTx[static_cast<std::size_t>(oc)] += ints / 4;
        for (auto& [name, v] : s.netdev) {
            if (name == f.in->name) {
                v[NetDevCounters::RxBytes] += pps * seconds * s.p.packetBytes;
                v[NetDevCounters::RxPackets] += pps * seconds;
            }
            if (name == f.out->name) {
                v[NetDevCounters::TxBytes] += pps * seconds * s.p.packetBytes;
                v[NetDevCounters::TxPackets] += pps * seconds;
            }
        }
    }

    // /proc/stat, in USER_HZ (100) ticks.
    std::array<double, CpuTimes::Count> all{};
    std::string stat;
    std::string lines;
    for (int c : s.cpus) {
        const auto i = static_cast<std::size_t>(c);
        const double irq = dIrq[i] * scale, soft = dSoft[i] * scale;
        const double user = 0.01 + 0.02 * s.noise(), sys = 0.005 + 0.01 * s.noise();
        const double idle = std::max(0.0, 1.0 - irq - soft - user - sys);
        auto& t = s.ticks[i];
        t[CpuTimes::User] += user * seconds * 100;
        t[CpuTimes::System] += sys * seconds * 100;
        t[CpuTimes::Irq] += irq * seconds * 100;
        t[CpuTimes::SoftIrq] += soft * seconds * 100;
        t[CpuTimes::Idle] += idle * seconds * 100;
        lines += "cpu" + std::to_string(c);
        for (int f = 0; f < CpuTimes::Count; ++f) {
            lines += " " + u64(std::floor(t[static_cast<std::size_t>(f)]));
            all[static_cast<std::size_t>(f)] += std::floor(t[static_cast<std::size_t>(f)]);
        }
        lines += "\n";
    }
    stat = "cpu ";
    for (double v : all)
        stat += " " + u64(v);
    stat += "\n" + lines + s.statRest;

    // /proc/interrupts
    for (const auto& [irq, cv] : irqCount) {
        const auto it = s.irqIndex.find(irq);
        if (it == s.irqIndex.end())
            continue;
        auto& l = s.irqLines[it->second];
        const auto col = std::find(s.irqCpus.begin(), s.irqCpus.end(), cv.first);
        if (col != s.irqCpus.end() &&
            static_cast<std::size_t>(col - s.irqCpus.begin()) < l.counts.size())
            l.counts[static_cast<std::size_t>(col - s.irqCpus.begin())] += cv.second * seconds;
    }
    std::string irqText(11, ' ');
    for (int c : s.irqCpus) {
        std::string h = "CPU" + std::to_string(c);
        irqText += h + std::string(h.size() < 11 ? 11 - h.size() : 1, ' ');
    }
    irqText += "\n";
    for (const auto& l : s.irqLines) {
        irqText += padLeft(l.label, 4) + ":";
        for (double v : l.counts)
            irqText += " " + padLeft(u64(std::floor(v)), 10);
        irqText += l.suffix + "\n";
    }

    // /proc/softirqs
    std::string sq(20, ' ');
    for (int c : s.sqCpus) {
        std::string h = "CPU" + std::to_string(c);
        sq += h + std::string(h.size() < 11 ? 11 - h.size() : 1, ' ');
    }
    sq += "\n";
    for (auto& [name, counts] : s.softirqs) {
        for (std::size_t k = 0; k < counts.size() && k < s.sqCpus.size(); ++k) {
            const auto cpu = static_cast<std::size_t>(s.sqCpus[k]);
            if (cpu >= n)
                continue;
            if (name == "NET_RX")
                counts[k] += netRx[cpu] * seconds;
            else if (name == "NET_TX")
                counts[k] += netTx[cpu] * seconds;
            else if (name == "TIMER" || name == "RCU" || name == "SCHED")
                counts[k] += 100 * seconds;
        }
        sq += padLeft(name, 12) + ":";
        for (double v : counts)
            sq += " " + padLeft(u64(std::floor(v)), 10);
        sq += "\n";
    }

    // /proc/net/dev
    std::string dev =
        "Inter-|   Receive                                                |  Transmit\n"
        " face |bytes    packets errs drop fifo frame compressed multicast|bytes    "
        "packets errs drop fifo colls carrier compressed\n";
    for (const auto& [name, v] : s.netdev) {
        dev += padLeft(name, 6) + ":";
        for (double x : v)
            dev += " " + u64(std::floor(x));
        dev += "\n";
    }

    const auto up = fmt("%.2f", m_uptime) + " " + fmt("%.2f", m_uptime * 6.5) + "\n";
    return writeAll(s.root + "/proc/stat", stat, error) &&
           writeAll(s.root + "/proc/interrupts", irqText, error) &&
           writeAll(s.root + "/proc/softirqs", sq, error) &&
           writeAll(s.root + "/proc/net/dev", dev, error) &&
           writeAll(s.root + "/proc/uptime", up, error);
}

} // namespace coresteer::live

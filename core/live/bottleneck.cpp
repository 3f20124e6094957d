// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/live/bottleneck.h"

#include "core/base/text.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <tuple>

namespace coresteer::live {

namespace {

int rankOf(const Snapshot& snap, int cpu) {
    const auto* c = snap.topology.classOf(cpu);
    return c ? c->rank : 0;
}

std::string irqName(const Snapshot& snap, std::uint32_t irq) {
    const auto* row = snap.interrupts.findIrq(irq);
    return "IRQ " + std::to_string(irq) +
           (row && !row->actions.empty() ? " " + text::printable(row->actions.front(), 32) : "");
}

} // namespace

void RecentLoad::add(const Rates& r) {
    m_ticks.push_back(r);
    double total = 0;
    for (const auto& t : m_ticks)
        total += std::max(0.0, t.seconds());
    while (m_ticks.size() > 1 && total - std::max(0.0, m_ticks.front().seconds()) >= m_seconds) {
        total -= std::max(0.0, m_ticks.front().seconds());
        m_ticks.pop_front();
    }
}

std::optional<Rates> RecentLoad::mean() const {
    if (m_ticks.empty())
        return std::nullopt;
    Rates out = m_ticks.back();
    out.start = m_ticks.front().start;
    std::map<int, std::pair<CoreLoad, double>> sums; // cpu -> weighted shares, seconds
    for (const auto& t : m_ticks) {
        const double w = std::max(1e-6, t.seconds());
        for (const auto& c : t.cores) {
            auto [it, fresh] = sums.try_emplace(c.cpu);
            auto& [sum, secs] = it->second;
            if (fresh)
                sum.idle = 0;
            sum.cpu = c.cpu;
            sum.idle += c.idle * w;
            sum.user += c.user * w;
            sum.system += c.system * w;
            sum.irq += c.irq * w;
            sum.softirq += c.softirq * w;
            sum.iowait += c.iowait * w;
            sum.steal += c.steal * w;
            secs += w;
        }
    }
    // The cores of the newest tick, in its order.
    for (auto& c : out.cores) {
        const auto& [sum, secs] = sums[c.cpu];
        c.user = sum.user / secs;
        c.system = sum.system / secs;
        c.irq = sum.irq / secs;
        c.softirq = sum.softirq / secs;
        c.iowait = sum.iowait / secs;
        c.steal = sum.steal / secs;
        c.idle = sum.idle / secs;
    }
    return out;
}

std::vector<Bottleneck> findBottlenecks(const Rates& rates, const Snapshot& snap, double hot,
                                        double cool) {
    std::vector<Bottleneck> out;
    for (const auto& c : rates.cores) {
        if (c.kernel() <= hot)
            continue;
        Bottleneck b;
        b.cpu = c.cpu;
        b.kernel = c.kernel();
        const int rank = rankOf(snap, c.cpu);
        // Faster classes first, then the least busy.
        std::vector<std::tuple<int, double, int>> idle;
        for (const auto& o : rates.cores)
            if (o.cpu != c.cpu && o.busy() < cool && rankOf(snap, o.cpu) >= rank)
                idle.emplace_back(-rankOf(snap, o.cpu), o.busy(), o.cpu);
        if (idle.empty())
            continue; // every comparable core is busy too: not a layout problem
        std::sort(idle.begin(), idle.end());
        for (const auto& [negRank, load, cpu] : idle)
            b.idleCores.push_back(cpu);

        // What fires here, busiest first.
        std::vector<std::pair<double, std::uint32_t>> irqs;
        for (const auto& ir : rates.irqs)
            if (static_cast<std::size_t>(c.cpu) < ir.perCpu.size() &&
                ir.perCpu[static_cast<std::size_t>(c.cpu)] >= 1.0)
                irqs.emplace_back(ir.perCpu[static_cast<std::size_t>(c.cpu)], ir.irq);
        std::sort(irqs.rbegin(), irqs.rend());
        for (std::size_t i = 0; i < irqs.size() && i < 4; ++i)
            b.onIt.push_back(irqName(snap, irqs[i].second) + " (" + text::eventRate(irqs[i].first) +
                             ")");
        std::string rpsQueue;
        for (const auto& nif : snap.interfaces)
            for (const auto& q : nif.rx)
                if (q.rpsCpus && q.rpsCpus->test(c.cpu) && !nif.isVirtual()) {
                    const auto name =
                        text::printable(nif.name, 16) + " rx-" + std::to_string(q.index) + " RPS";
                    if (rpsQueue.empty())
                        rpsQueue = name;
                    b.onIt.push_back(name);
                }

        const int to = b.idleCores.front();
        char pct[16];
        std::snprintf(pct, sizeof pct, "%.0f%%", b.kernel * 100);
        if (!irqs.empty())
            b.suggestion = "CPU" + std::to_string(c.cpu) + " is at " + pct +
                           " in kernel work while CPU" + std::to_string(to) + " idles: move " +
                           irqName(snap, irqs.front().second) + " to CPU" + std::to_string(to) +
                           ", or steer its receive processing (RPS) there.";
        else if (!rpsQueue.empty())
            b.suggestion = "CPU" + std::to_string(c.cpu) + " is at " + pct +
                           " in kernel work: " + "take it out of " + rpsQueue +
                           " and give that queue CPU" + std::to_string(to) + ".";
        else
            b.suggestion = "CPU" + std::to_string(c.cpu) + " is at " + pct +
                           " in kernel work while CPU" + std::to_string(to) +
                           " idles; nothing coresteer steers runs there (look at other IRQs).";
        out.push_back(std::move(b));
    }
    return out;
}

std::string loadExpectation(const Snapshot& snap) {
    const auto& o = snap.system.services.offloading;
    if (!o.software)
        return {};
    return std::string(o.hardware ? "Hardware" : "Software") + " flow offloading is on (" +
           o.where + "): established forwarded flows " +
           (o.hardware ? "bypass the CPU" : "bypass most of the CPU path") +
           " and SQM, so the load here is less than the traffic, and a test through the router "
           "shows the offload's speed, not this layout's.";
}

void accumulateLoad(MeasuredLoad& load, const Rates& r, double hot) {
    if (r.seconds() <= 0)
        return;
    load.seconds += r.seconds();
    ++load.intervals;
    for (const auto& rate : r.irqs) {
        // An IRQ that never fires a thousand times a second is no case for coalescing, and
        // leaving it out keeps a tick of a many-IRQ router cheap.
        if (rate.total < 1000 || rate.perCpu.empty())
            continue;
        const auto top = std::max_element(rate.perCpu.begin(), rate.perCpu.end());
        IrqLoad cand;
        cand.irq = rate.irq;
        cand.perSecond = rate.total;
        cand.cpu = static_cast<int>(top - rate.perCpu.begin());
        if (const auto* core = r.core(cand.cpu))
            cand.cpuKernel = core->kernel();
        auto it = std::lower_bound(load.irqs.begin(), load.irqs.end(), rate.irq,
                                   [](const IrqLoad& l, std::uint32_t n) { return l.irq < n; });
        if (it == load.irqs.end() || it->irq != rate.irq) {
            load.irqs.insert(it, cand);
            continue;
        }
        const bool candHot = cand.cpuKernel >= hot, keptHot = it->cpuKernel >= hot;
        if (candHot != keptHot ? candHot : cand.perSecond > it->perSecond)
            *it = cand;
    }
    for (const auto& i : r.interfaces) {
        auto it = std::find_if(load.interfaces.begin(), load.interfaces.end(),
                               [&](const InterfaceLoad& l) { return l.name == i.name; });
        if (it == load.interfaces.end())
            load.interfaces.push_back({i.name, i.rxPacketsPerSec});
        else
            it->rxPacketsPerSecond = std::max(it->rxPacketsPerSecond, i.rxPacketsPerSec);
    }
}

} // namespace coresteer::live

// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The shapes the planner offers besides its rules' own, for a measurement on the router to
// choose between: the rules see the cores' classes and the NICs' queues, not how fast a core
// really is under this router's load, nor what a queue's interrupts cost it.
#include "core/layout/layout_json.h"
#include "core/layout/planner_detail.h"

#include <nlohmann/json.hpp>

namespace coresteer::layout {

namespace detail {

CpuMask Planner::mask(const std::vector<int>& cpus) const {
    return CpuMask::fromCpus(cpus, m_width);
}

void Planner::allOnFastCores() {
    const auto& classes = m_snap.topology.classes;
    const auto fast = classes.back().cpus.cpus();
    const std::string fastName = classes.back().name;
    for (std::size_t i = 0; i < m_units.size(); ++i) {
        const auto& u = m_units[i];
        const int cpu = fast[i % fast.size()];
        for (auto irq : u.irqs)
            setIrq(irq, one(cpu, m_width),
                   u.name() + "'s interrupts on " + fastName + " " + cpuName(cpu) +
                       ", beside its packet work.");
        setRps(u, mask(fast),
               u.name() + "'s receive processing over the " + fastName + " cores " +
                   mask(fast).toList() + ".");
        setXps(u, mask(fast), u.name() + "'s transmit queues over the " + fastName + " cores.");
    }
    m_layout.notes.push_back("Everything on the " + fastName +
                             " cores: the interrupts beside the "
                             "packet work, the " +
                             classes.front().name + " cores left to the rest of the system.");
    if (!m_wifiIrqs.empty())
        wifiOn(fast.back(), fastName + " " + cpuName(fast.back()));
}

void Planner::rpsOverAllCores() {
    const auto all = mask(m_online);
    for (auto& t : m_layout.rx) {
        t.rpsCpus = all;
        t.why =
            t.interface + "'s receive processing spread over every core (" + all.toList() + ").";
    }
    m_layout.notes.push_back("RPS over all cores: the receive work of every queue may run on any "
                             "core; the interrupts stay where the rules put them.");
}

void Planner::irqPerCoreNoRps() {
    std::size_t next = 0;
    for (const auto& u : m_units) {
        // A NIC with several receive queues: a core for each vector; else one for all of them.
        const bool queues = receiveQueues(u) >= 2;
        int cpu = m_online[next % m_online.size()];
        for (auto irq : u.irqs) {
            if (queues)
                cpu = m_online[next++ % m_online.size()];
            setIrq(irq, one(cpu, m_width),
                   u.name() + "'s interrupt on " + cpuName(cpu) + ", a core of its own.");
        }
        if (!queues)
            ++next;
        setRps(u, CpuMask(m_width),
               "RPS off: " + u.name() + "'s packets are handled where their interrupt lands.");
    }
    m_layout.notes.push_back("An interrupt per core and RPS off: every packet is handled on the "
                             "core its interrupt lands on, with no hand-over between cores.");
    if (!m_wifiIrqs.empty())
        wifiOn(m_online.back(), cpuName(m_online.back()));
}

void Planner::irqsTogether() {
    const int first = m_online.front();
    const std::vector<int> rest(m_online.begin() + 1, m_online.end());
    for (const auto& u : m_units) {
        for (auto irq : u.irqs)
            setIrq(irq, one(first, m_width),
                   u.name() + "'s interrupts on " + cpuName(first) +
                       " with the other NICs': the interrupt itself is cheap.");
        setRps(u, mask(rest),
               u.name() + "'s receive processing on " + mask(rest).toList() +
                   ", apart from the interrupts.");
        setXps(u, mask(rest), u.name() + "'s transmit queues on " + mask(rest).toList() + ".");
    }
    m_layout.notes.push_back("Every NIC's interrupts together on " + cpuName(first) +
                             ", and the packet work (RPS, XPS) on the other cores.");
    if (!m_wifiIrqs.empty())
        wifiOn(m_online.back(), cpuName(m_online.back()));
}

} // namespace detail

namespace {

// The layout's JSON without its reasons and notes: what it writes.
nlohmann::json targets(const Layout& l) {
    Layout bare = l;
    bare.notes.clear();
    for (auto& t : bare.irqs)
        t.why.clear();
    for (auto& t : bare.rx)
        t.why.clear();
    for (auto& t : bare.tx)
        t.why.clear();
    for (auto& t : bare.interfaces)
        t.why.clear();
    for (auto& t : bare.governors)
        t.why.clear();
    return toJson(bare);
}

bool hasCoalescing(const Layout& l) {
    for (const auto& t : l.interfaces)
        if (t.rxUsecs || t.rxFrames)
            return true;
    return false;
}

} // namespace

bool sameTargets(const Layout& a, const Layout& b) {
    return targets(a) == targets(b);
}

std::vector<PlanAlternative> planAlternatives(const Snapshot& snap, const PlanGoal& goal,
                                              std::size_t max) {
    using Shape = PlanGoal::Shape;
    const auto& classes = snap.topology.classes;
    const bool twoClasses = classes.size() >= 2;
    const auto online = snap.topology.online.cpus();
    const std::string first = online.empty() ? "CPU0" : "CPU" + std::to_string(online.front());
    std::vector<PlanAlternative> out;
    const auto add = [&](Shape shape, bool coalescing, std::string name, std::string why) {
        if (out.size() >= max)
            return;
        PlanGoal g = goal;
        g.shape = shape;
        if (!coalescing)
            g.load.reset();
        Layout l = plan(snap, g);
        for (const auto& o : out)
            if (sameTargets(o.layout, l))
                return;
        out.push_back({std::move(name), std::move(why), shape, coalescing, std::move(l)});
    };
    // The recommendation, named by what it does.
    {
        const Layout rules = plan(snap, goal);
        std::string name = twoClasses ? "IRQs on " + classes.front().name + ", packet work on " +
                                            classes.back().name
                                      : "Recommended";
        out.push_back({std::move(name),
                       rules.notes.empty() ? "The planner's rules." : rules.notes.back(),
                       Shape::Rules, true, rules});
        if (goal.load && hasCoalescing(rules))
            add(Shape::Rules, false, out.front().name + ", without coalescing",
                "The recommendation without interrupt coalescing: more interrupts, less delay.");
    }
    if (twoClasses) {
        add(Shape::AllOnFastCores, true, "Everything on " + classes.back().name,
            "The interrupts beside the packet work on the " + classes.back().name +
                " cores: no hand-over to a slower core, which may be what limits this router.");
        add(Shape::RpsOverAllCores, true, "RPS over all cores",
            "The recommendation's interrupts, with receive work spread over every core: more "
            "cores for the shaping, at the cost of moving packets between them.");
        return out;
    }
    add(Shape::IrqPerCoreNoRps, true, "IRQ per core, no RPS",
        "Each NIC's interrupts on a core of their own and RPS off: no hand-over between cores, "
        "which wins where the cores are fast enough for a NIC each.");
    add(Shape::RpsOverAllCores, true, "RPS over all cores",
        "The recommendation's interrupts, with receive work spread over every core.");
    add(Shape::IrqsTogether, true, "IRQs on " + first + ", packet work on the others",
        "Every interrupt on " + first +
            " and the packet work on the other cores: right where one core is slower than the "
            "others, which nothing in sysfs tells and a measurement finds.");
    return out;
}

} // namespace coresteer::layout

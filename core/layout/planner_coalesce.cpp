// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// Interrupt coalescing from what the router did under load.
//
// A NIC's receive vector that fires tens of thousands of times a second on a CPU that is
// saturated with interrupt, softirq and kernel work spends that CPU on ending and starting NAPI
// polls with a few packets each. Letting each interrupt wait for more packets (rx-usecs, and
// rx-frames where the frame count would end the wait first) frees it: owners report a NanoPi M4
// going from about 1.5 to 2.4 Gbit/s of iperf3 after raising rx-usecs. The wait proposed,
// 125 us, is 1/40 of the 5 ms that cake aims a queue's delay at, so it does not show in a
// bufferbloat test; a driver that adapts its coalescing itself (adaptive RX) is left to it.
#include "core/base/text.h"
#include "core/layout/planner.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace coresteer::layout {

namespace {

constexpr double kHotRate = 15'000;       // interrupts a second of one vector
constexpr double kSaturated = 0.9;        // the CPU's irq + softirq + system share
constexpr std::uint32_t kUsecs = 125;     // at most 8 000 interrupts a second per vector
constexpr std::uint32_t kMaxFrames = 512; // a receive ring's worth on most NICs

struct Hot {
    const IrqLoad* load = nullptr;
    std::string label; // "IRQ 45 (eth0-rx-0)"
};

std::string pct(double share) {
    return std::to_string(static_cast<int>(std::lround(share * 100))) + "%";
}

std::string measured(const Hot& h, const MeasuredLoad& load) {
    return h.label + " fired " + text::eventRate(h.load->perSecond) + " on CPU" +
           std::to_string(h.load->cpu) + " while that CPU spent " + pct(h.load->cpuKernel) +
           " of its time on interrupts, softirqs and the kernel (measured over " +
           text::fixed(load.seconds, 0) + " s)";
}

} // namespace

InterfaceTarget& targetFor(Layout& layout, const std::string& name) {
    const auto it = std::find_if(layout.interfaces.begin(), layout.interfaces.end(),
                                 [&](const InterfaceTarget& t) { return t.interface == name; });
    if (it != layout.interfaces.end())
        return *it;
    layout.interfaces.emplace_back();
    layout.interfaces.back().interface = name;
    return layout.interfaces.back();
}

void proposeCoalescing(const Snapshot& snap, const MeasuredLoad& load, Layout& layout) {
    // Each interface's hottest receive vector, and how many receive vectors it has.
    std::map<std::string, Hot> hottest;
    std::map<std::string, int> rxVectors;
    for (const auto& info : snap.irqs) {
        if (info.interfaces.empty() || info.role == IrqRole::Tx)
            continue;
        for (const auto& name : info.interfaces)
            ++rxVectors[name];
        const auto* l = load.irq(info.irq);
        if (!l || l->perSecond < kHotRate || l->cpuKernel < kSaturated)
            continue;
        std::string label = "IRQ " + std::to_string(info.irq);
        if (const auto* row = snap.interrupts.findIrq(info.irq); row && !row->actions.empty())
            label += " (" + text::printable(row->actions.front(), 40) + ")";
        for (const auto& name : info.interfaces) {
            auto& h = hottest[name];
            if (!h.load || l->perSecond > h.load->perSecond)
                h = {l, label};
        }
    }
    for (const auto& [name, hot] : hottest) {
        const auto* nif = snap.interface(name);
        if (!nif || nif->isVirtual())
            continue;
        const auto why = measured(hot, load);
        const auto& c = nif->coalescing;
        if (!c) {
            layout.notes.push_back(
                why + ": coalescing " + name + "'s interrupts would free that CPU, but coresteer " +
                "could not read `ethtool -c " + name + "` (install ethtool on the router: " +
                "`opkg install ethtool`, `apt install ethtool`).");
            continue;
        }
        if (!c->rxUsecs && !c->rxFrames) {
            layout.notes.push_back(why + ": " + name + "'s driver" +
                                   (nif->driver.empty() ? "" : " (" + nif->driver + ")") +
                                   " takes no receive coalescing (ethtool -c), so its "
                                   "interrupts stay as they are.");
            continue;
        }
        if (c->adaptiveRx.value_or(false)) {
            layout.notes.push_back(
                why + ": " + name + "'s driver adapts its coalescing itself (adaptive RX is on), " +
                "and coresteer leaves that to it; `ethtool -C " + name + " adaptive-rx off " +
                "rx-usecs " + std::to_string(kUsecs) + "` would hold it to at most " +
                text::eventRate(1e6 / kUsecs) + " a vector.");
            continue;
        }
        std::string what;
        std::optional<std::uint32_t> usecs, frames;
        if (c->rxUsecs && *c->rxUsecs < kUsecs) {
            usecs = kUsecs;
            what = "rx-usecs " + std::to_string(kUsecs) + " (now " + std::to_string(*c->rxUsecs) +
                   ") lets an interrupt wait up to " + std::to_string(kUsecs) +
                   " us for more packets, at most " + text::eventRate(1e6 / kUsecs) +
                   " a vector; that is 1/40 of cake's 5 ms target";
        }
        // The frame count ends the wait first when fewer frames than arrive in kUsecs are
        // allowed (0 is "no frame limit" to most drivers).
        const auto* il = load.interface(name);
        const double perVector = il ? il->rxPacketsPerSecond / std::max(1, rxVectors[name]) : 0.0;
        const auto need = static_cast<std::uint32_t>(
            std::min<double>(kMaxFrames, std::ceil(perVector * kUsecs / 1e6)));
        if (c->rxFrames && *c->rxFrames > 0 && need > *c->rxFrames) {
            frames = need;
            what += std::string(what.empty() ? "" : "; ") + "rx-frames " + std::to_string(need) +
                    " (now " + std::to_string(*c->rxFrames) + "): at " +
                    text::eventRate(perVector, false) + " packets a second per vector, " +
                    std::to_string(*c->rxFrames) + " frames end the wait after " +
                    text::fixed(*c->rxFrames * 1e6 / perVector, 0) + " us";
        }
        if (!usecs && !frames) {
            layout.notes.push_back(why + ": " + name + "'s coalescing already waits " +
                                   (c->rxUsecs ? std::to_string(*c->rxUsecs) + " us" : "") +
                                   (c->rxUsecs && c->rxFrames ? " or " : "") +
                                   (c->rxFrames ? std::to_string(*c->rxFrames) + " frames" : "") +
                                   ", so the load on that CPU is not its interrupts' count.");
            continue;
        }
        auto& t = targetFor(layout, name);
        t.rxUsecs = usecs;
        t.rxFrames = frames;
        t.why += std::string(t.why.empty() ? "" : " ") + why + ": " + what + ".";
    }
}

} // namespace coresteer::layout

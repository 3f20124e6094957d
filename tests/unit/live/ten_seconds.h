// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// A recording for the recording tests: ten seconds of a two-core router, written tick by tick.
#pragma once

#include "core/live/recording.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

namespace coresteer::test {

using namespace coresteer::live;

struct CpuTicks {
    std::uint64_t user = 0, system = 0, irq = 0, softirq = 0, idle = 0;
};

// A cpu line of /proc/stat.
inline std::string cpu(const std::string& name, const CpuTicks& c) {
    return name + " " + std::to_string(c.user) + " 0 " + std::to_string(c.system) + " " +
           std::to_string(c.idle) + " 0 " + std::to_string(c.irq) + " " +
           std::to_string(c.softirq) + " 0 0 0\n";
}

// A two-CPU router's files at `uptime`, with cumulative counters.
inline SampleTexts texts(double uptime, CpuTicks c0, CpuTicks c1, std::uint64_t irq45,
                         std::uint64_t rxBytes, bool withIrq = true) {
    CpuTicks all{c0.user + c1.user, c0.system + c1.system, c0.irq + c1.irq, c0.softirq + c1.softirq,
                 c0.idle + c1.idle};
    SampleTexts t;
    t.uptime = std::to_string(uptime) + " 0.00\n";
    t.stat = cpu("cpu ", all) + cpu("cpu0", c0) + cpu("cpu1", c1) + "intr 1 2 3\nctxt 99\n";
    t.softirqs = "                    CPU0       CPU1\n          HI:          0          0\n"
                 "      NET_RX:        " +
                 std::to_string(irq45) + "          0\n      NET_TX:          1          1\n";
    t.interrupts = "           CPU0       CPU1\n";
    if (withIrq)
        t.interrupts += " 45:   " + std::to_string(irq45) + "   0   GICv3  45 Level     eth0\n";
    t.interrupts += " 46:   7   0   GICv3  46 Level     eth1\nIPI0:  1  1  Rescheduling\n";
    t.netdev = "Inter-|   Receive                                                |  Transmit\n"
               " face |bytes    packets errs drop fifo frame compressed multicast|bytes    "
               "packets errs drop fifo colls carrier compressed\n"
               "  eth0: " +
               std::to_string(rxBytes) + " " + std::to_string(rxBytes / 1000) +
               " 0 0 0 0 0 0 500 5 0 0 0 0 0 0\n";
    return t;
}

inline RecordingInfo info() {
    RecordingInfo i;
    i.label = "root@r6s";
    i.started = "2026-11-30T09:00:00Z";
    i.hz = 10;
    // Blocks that hold lines like the header's own must not confuse the reader.
    static const std::string capture = [] {
        FileBundle b;
        b.add("proc/stat", {BundleEntry::Kind::File, "events\nend 3\n@ 1.0"});
        return writeCapture(b);
    }();
    i.capture = capture;
    i.layout = "{\"schema\": \"coresteer.layout/1\"}";
    return i;
}

// Ten seconds at 10 Hz: CPU0 fully busy in softirq, CPU1 at a quarter user; 10 Mb/s in.
inline RecordingWriter tenSeconds(bool withLatency = true) {
    RecordingWriter w(info());
    w.phase(0, "idle");
    for (int i = 0; i <= 100; ++i) {
        const double t = i * 0.1;
        const auto k = static_cast<std::uint64_t>(i) * 20; // 20 jiffies per 0.1 s per CPU
        w.sample(t, texts(500 + t, {0, 0, 0, k, 0}, {k / 4, 0, 0, 0, k - k / 4}, k * 100,
                          static_cast<std::uint64_t>(i) * 125000));
        if (withLatency) {
            if (i == 30)
                w.phase(t, "load");
            w.latency(t, i < 30 ? 10.0 : (i % 10 == 5 ? std::nullopt : std::optional(50.0)));
        }
        if (i % 10 == 0 && i > 0)
            w.throughput(t, 900e6, 40e6);
    }
    w.phase(10.0, "done");
    return w;
}

} // namespace coresteer::test

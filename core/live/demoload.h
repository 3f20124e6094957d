// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The demo router's traffic: a model, not a measurement.
//
// The built-in demo is a capture of a NanoPi R6S, laid out in a private directory. To make its
// live views move, this model plays a repeating bufferbloat test through it (idle, download,
// upload, both) and advances the counters in that directory's /proc files, as the router's
// kernel would, under the masks the directory holds at that moment: so an apply in the demo
// changes where the load goes, as it would on the router. The test offers what cake's shaper
// lets through (1300 Mb/s). The per-packet costs are chosen so that the R6S's default layout
// saturates a LITTLE core short of that and that steering the stack to the big cores carries it
// with the busiest core under 90 %, below where the bottleneck detector speaks; they model where
// the work runs, not any one kernel.
//
// Latency is modelled too, to a host past the WAN, as owners describe it: while the cores keep
// up, cake holds its queue near its 5 ms target; when the core that carries the work saturates,
// the shaper no longer sets the pace, packets wait in the NIC's ring and the backlog before
// that core, and the round trip grows by that queue's length over the rate the core drains it.
//
// The real sampler reads the files it writes, so everything downstream is the product's code.
#pragma once

#include "core/model/snapshot.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace coresteer::live {

class DemoLoad {
public:
    struct Profile {
        double linkMbps = 1300; // what the test offers at full load: cake's shaped rate
        double period = 40;     // seconds of one test cycle
        double packetBytes = 1500;
        // CPU-microseconds per packet on a core of capacity 1024 (cpu_capacity scales them):
        // the hard IRQ and the NAPI poll run where the IRQ lands; the stack (forwarding,
        // firewall, cake) runs where RPS sends each flow, or with the poll without RPS.
        double irqUs = 0.6, napiUs = 2.4, stackUs = 7.5, txUs = 0.8;
        int packetsPerIrq = 8;      // NAPI coalescing
        int flows = 8;              // parallel streams, as bufferbloat tests use
        double baseRttMs = 12;      // to the host past the WAN, idle
        double queuePackets = 4096; // the ring and backlog that fill before a saturated core
        double cakeQueueMs = 3;     // what cake's queue adds under load while it sets the pace
    };

    // nullopt with *error when `root` lacks the files or `snap` names no NIC with an IRQ.
    static std::unique_ptr<DemoLoad> create(std::string root, const Snapshot& snap,
                                            std::string* error);
    static std::unique_ptr<DemoLoad> create(std::string root, const Snapshot& snap,
                                            const Profile& profile, std::string* error);
    ~DemoLoad();

    // Advances the model by `seconds` and writes proc/uptime, stat, interrupts, softirqs and
    // net/dev under the root. False with *error when a file cannot be written.
    bool step(double seconds, std::string* error);
    // The throughput of the last step, in Mb/s each way, and the phase of the test.
    double downMbps() const { return m_down; }
    double upMbps() const { return m_up; }
    // The round trip to a host past the WAN at the end of the last step, in ms.
    double latencyMs() const { return m_latency; }
    // The busiest core's demand in the last step (1: exactly saturated; above: the work it
    // was offered beyond what it could do).
    double peakDemand() const { return m_peak; }
    // "idle", "download", "upload", "download and upload".
    std::string phase() const;
    // A test starts now: `idleSeconds` of idle (its baseline), then `phases` ("download",
    // "upload", "download and upload"; empty: all three in that order), `phaseSeconds` each,
    // then idle for a few seconds before the repeating cycle goes on.
    void startTest(double idleSeconds, double phaseSeconds, std::vector<std::string> phases = {});
    double uptime() const { return m_uptime; }

private:
    struct State;
    explicit DemoLoad(std::unique_ptr<State> s);
    std::unique_ptr<State> m;
    double m_uptime = 0, m_down = 0, m_up = 0, m_latency = 0, m_peak = 0, m_queueMs = 0;
    double m_testStart = 0, m_testIdle = 0, m_testPhase = 0; // m_testPhase 0: no test
    std::vector<std::string> m_testPhases;
};

} // namespace coresteer::live

// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The demo router's traffic: a model, not a measurement.
//
// The built-in demo is a capture of a NanoPi R6S, laid out in a private directory. To make its
// live views move, this model plays a repeating bufferbloat test through it (idle, download,
// upload, both) and advances the counters in that directory's /proc files, as the router's
// kernel would, under the masks the directory holds at that moment: so an apply in the demo
// changes where the load goes, as it would on the router. The per-packet costs are chosen so
// that the R6S's default layout saturates a LITTLE core near 1 Gb/s and that steering the
// stack to the big cores lifts that by about half, the shape of the public recipe (800 to
// 1400 Mb/s); they model where the work runs, not any one kernel.
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
        double linkMbps = 2500; // what the test offers at full load
        double period = 40;     // seconds of one test cycle
        double packetBytes = 1500;
        // CPU-microseconds per packet on a core of capacity 1024 (cpu_capacity scales them):
        // the hard IRQ and the NAPI poll run where the IRQ lands; the stack (forwarding,
        // firewall, cake) runs where RPS sends each flow, or with the poll without RPS.
        double irqUs = 0.6, napiUs = 2.4, stackUs = 7.5, txUs = 0.8;
        int packetsPerIrq = 8; // NAPI coalescing
        int flows = 8;         // parallel streams, as bufferbloat tests use
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
    std::string phase() const;
    double uptime() const { return m_uptime; }

private:
    struct State;
    explicit DemoLoad(std::unique_ptr<State> s);
    std::unique_ptr<State> m;
    double m_uptime = 0, m_down = 0, m_up = 0;
};

} // namespace coresteer::live

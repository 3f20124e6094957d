// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The load test, one engine for the command line (`monitor --bufferbloat`), the GUI and the
// tuner: beside the sampler's ticks it runs the latency probes (the router's SSH port from the
// LAN side, ICMP echo to each host beyond the router, the demo's model) on threads of their own
// every 100 ms, the router's own ping to the first host beyond it on a channel of its SSH
// session (router_ping.h), irtt to each irtt server (the round trip and each way: irtt.h), and
// the load (iperf3, or HTTP(S) transfers: http_load.h) in phases after the 3 s idle baseline:
// download, upload and both, each `phaseSeconds` long. Everything lands in one recording, on its
// one time axis.
#pragma once

#include "core/live/http_load.h"
#include "core/live/irtt.h"
#include "core/live/loadgen.h"
#include "core/live/recording.h"
#include "core/live/router_ping.h"
#include "core/ssh/session.h"

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace coresteer::measure {

class LoadTest {
public:
    static constexpr double kIdleSeconds = 3.0;
    struct Spec {
        std::string lanHost; // the router's SSH address; empty: no LAN-side probe
        int lanPort = 0;
        std::vector<std::string> beyond;    // hosts past the WAN
        std::vector<live::IrttTarget> irtt; // irtt servers past the WAN (irtt.h)
        std::optional<live::LoadSpec> load;
        // The load's phases in order (Download, Upload, Both); empty: all three, as the
        // bufferbloat test runs them, or the one direction of a load that is not a Sequence.
        std::vector<live::LoadSpec::Direction> phases;
        double phaseSeconds = 10;
        double idleSeconds = kIdleSeconds; // the idle baseline before the load
        double duration = 10;              // without a load: the whole test, baseline included
        // The recording's time when the test starts: tick() takes and the probes stamp times
        // on the recording's clock, so that several tests (the tuner's trials) share one.
        double startTime = 0;
        // The demo: the model's round trip, phase and throughput, asked on the main thread
        // each tick.
        struct ModelState {
            double latencyMs = 0;
            std::string phase;
            double downBitsPerSec = 0, upBitsPerSec = 0;
        };
        std::function<ModelState()> model;
        // The router's SSH session, for its own ping to the first host beyond it (probe
        // "router"); read from the thread that calls tick(), as the sampler is.
        ssh::Session* session = nullptr;
    };
    // Opens the probes (a host that cannot be probed is said in *problems and left out).
    LoadTest(Spec spec, std::vector<std::string>* problems);
    ~LoadTest();
    LoadTest(const LoadTest&) = delete;
    LoadTest& operator=(const LoadTest&) = delete;

    // Once a tick, from the loop that records the samples (`t` on the recording's clock): the
    // phases move on (iperf3 starts and stops), and what the probes and iperf3 measured since
    // goes into `rec`. False when the test is over. `problem` gets a load generator that failed.
    bool tick(double t, live::RecordingWriter& rec, std::string* problem);
    // Ends the probes and the load; what they measured last goes into `rec`.
    void finish(double t, live::RecordingWriter& rec);

private:
    struct Event {
        enum class Kind { Latency, Throughput } kind;
        double t;
        std::optional<double> ms;
        std::string probe;
        double down = 0, up = 0;
    };
    struct Child;
    void push(Event e);
    void openRouterPing(std::vector<std::string>* problems);
    void readRouterPing(double t, live::RecordingWriter& rec);
    void drain(live::RecordingWriter& rec);
    void startLoad(live::LoadSpec::Direction d);
    void stopLoad();
    double now() const;

    Spec m_spec;
    std::chrono::steady_clock::time_point m_start;
    std::atomic<bool> m_stop{false};
    std::vector<std::thread> m_probes;
    std::mutex m_mutex;
    std::vector<Event> m_events;
    std::vector<live::LoadSpec::Direction> m_phases;
    std::size_t m_phase = 0;
    bool m_started = false; // the first load phase began
    std::string m_modelPhase;
    std::string m_loadError;
    double m_lastModelThroughput = -1; // when the model's throughput was last recorded
    std::unique_ptr<Child> m_iperf;
    std::unique_ptr<live::HttpLoad> m_http; // an HTTP(S) load instead of iperf3
    struct Irtt {
        live::IrttTarget target;
        std::unique_ptr<Child> child;
        bool said = false; // that it stopped
    };
    std::vector<Irtt> m_irtt;
    void openIrtt(std::vector<std::string>* problems);
    void stopIrtt();
    std::unique_ptr<ssh::Stream> m_routerPing;
    live::PingReader m_pingReader;
};

} // namespace coresteer::measure

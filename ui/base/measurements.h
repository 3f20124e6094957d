// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// What measuring a router under load hands between the UI and a connection's worker, where the
// bufferbloat test (measure::LoadTest) and the tuner (measure::runTune) run beside the sampler
// on the router's own session: what the UI asks for, what each tick of a test wrote into its
// recording, and the finished recording and tune, as immutable values shared by pointer (hence
// the metatypes). A header of its own, so that the Live tab and the dialogs need no connection.
#pragma once

#include "core/live/recording.h"
#include "core/measure/loadtest.h"
#include "core/measure/tuner.h"
#include "ui/base/snapshotptr.h"

#include <QMetaType>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace coresteer::ui {

using RecordingPtr = std::shared_ptr<const live::Recording>;

// A bufferbloat test for the worker to run: the load and its phases, the hosts beyond the router
// and the irtt servers (the worker adds the LAN side's probe, the router's session for its own
// ping, and the demo's model), and the head of its recording.
struct TestRequest {
    measure::LoadTest::Spec test;
    live::RecordingInfo info;
};

// What one tick of a test wrote into its recording, in the order written: the Live tab shows it
// as it comes. One a tick, never one a value.
struct TestEvents {
    struct Latency {
        double t = 0;
        std::optional<double> ms; // nullopt: lost
        std::string probe;
    };
    struct Throughput {
        double t = 0;
        double downBitsPerSec = 0, upBitsPerSec = 0;
    };
    struct Phase {
        double t = 0;
        std::string name; // idle, load, download, upload, both, done
    };
    std::vector<Latency> latency;
    std::vector<Throughput> throughput;
    std::vector<Phase> phases;
    // What the test said: a host that cannot be probed (as it starts), and a load generator or
    // an irtt that stopped or could not start (as it runs).
    std::vector<std::string> problems, loadProblems;
    std::size_t ticks = 0; // the recording's ticks so far
};
using TestEventsPtr = std::shared_ptr<const TestEvents>;

// A tune for the worker to run (measure::runTune) on the router `snapshot` was read from: its
// candidates (the baseline first), its spec (the worker adds the probes' session and the demo's
// model) and the head of its recording.
struct TuneRequest {
    SnapshotPtr snapshot;
    std::vector<measure::Candidate> candidates;
    measure::TuneSpec spec;
    live::RecordingInfo info;
};
using TuneResultPtr = std::shared_ptr<const measure::TuneResult>;

} // namespace coresteer::ui

Q_DECLARE_METATYPE(coresteer::ui::RecordingPtr)
Q_DECLARE_METATYPE(coresteer::ui::TestEventsPtr)
Q_DECLARE_METATYPE(coresteer::ui::TuneResultPtr)
Q_DECLARE_METATYPE(coresteer::measure::TuneProgress)

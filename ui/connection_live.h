// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// A connection's live state on its worker thread: the sampler, the demo's model, and the
// bufferbloat test while one runs. Private to the connection's files (connection.cpp,
// connection_test.cpp, connection_tune.cpp).
#pragma once

#include "core/live/demoload.h"
#include "core/live/recording.h"
#include "core/live/source.h"
#include "core/measure/loadtest.h"
#include "ui/connection.h"

#include <QElapsedTimer>
#include <QTimer>

#include <chrono>
#include <memory>
#include <optional>

namespace coresteer::ui {

struct Connection::Live {
    std::unique_ptr<QTimer> timer;
    std::unique_ptr<live::SampleSource> source;
    std::unique_ptr<live::DemoLoad> demo;
    std::optional<live::Sample> last;
    std::shared_ptr<const live::Rates> lastRates; // held by a sample of /proc/stat alone
    QElapsedTimer clock;                          // since the demo's model last stepped
    QElapsedTimer sinceProblem; // a router that cannot be sampled is asked again every 2 s
    bool problem = false;

    // The bufferbloat test while it runs: its recording, its engine (which ticks with the
    // sampler, as the command line's monitor ticks it), and what it wrote since the last tick.
    struct Test {
        std::unique_ptr<live::RecordingWriter> rec;
        std::unique_ptr<measure::LoadTest> engine;
        std::chrono::steady_clock::time_point start;
        std::shared_ptr<TestEvents> events;
        double now() const {
            return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        }
    };
    std::unique_ptr<Test> test;
};

} // namespace coresteer::ui

// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The bufferbloat test on the connection's worker: measure::LoadTest, the engine that the
// command line's `monitor --bufferbloat` and the tuner run, ticked with the live sampler as the
// command line ticks it, into one recording of the sampler's ticks, the probes, the load and its
// phases. What each tick wrote goes to the window as one TestEvents, the recording at the end.
#include "ui/connection.h"

#include "core/router/router.h"
#include "ui/connection_live.h"

namespace coresteer::ui {

using namespace coresteer::live;
using measure::LoadTest;

void Connection::startTest(TestRequest request) {
    QMetaObject::invokeMethod(
        m_worker, [this, request = std::move(request)]() mutable { beginTest(std::move(request)); },
        Qt::QueuedConnection);
}

void Connection::stopTest() {
    QMetaObject::invokeMethod(
        m_worker,
        [this] {
            if (m_live && m_live->test)
                finishTest({});
        },
        Qt::QueuedConnection);
}

// On the worker: the engine opens its probes now (a name beyond the router resolves here, off
// the UI thread), and the recording starts with its idle baseline.
void Connection::beginTest(TestRequest request) {
    if (!m_live || !m_live->timer || !m_live->timer->isActive()) {
        Q_EMIT testFinished(m_id, nullptr,
                            tr("Nothing is sampled here: there is nothing to record."));
        return;
    }
    auto& l = *m_live;
    if (l.test)
        finishTest({}); // one test at a time
    auto spec = std::move(request.test);
    spec.startTime = 0;
    if (m_router->isRemote() && m_router->session() && m_router->session()->isConnected()) {
        spec.lanHost = m_router->session()->resolvedHost();
        spec.lanPort = m_router->session()->resolvedPort();
        spec.session = m_router->session(); // the router's own ping, read on this thread
    }
    // The demo's model is the load, unless a load generator is named: it runs a test of its
    // own, whose phases and throughput become the recording's.
    if (l.demo && !spec.load) {
        std::vector<std::string> phases;
        for (auto d : spec.phases)
            phases.push_back(d == LoadSpec::Direction::Download ? "download"
                             : d == LoadSpec::Direction::Upload ? "upload"
                                                                : "download and upload");
        l.demo->startTest(spec.idleSeconds, spec.phaseSeconds, phases);
        const DemoLoad* demo = l.demo.get();
        spec.model = [demo] {
            return LoadTest::Spec::ModelState{demo->latencyMs(), demo->phase(),
                                              demo->downMbps() * 1e6, demo->upMbps() * 1e6};
        };
    }
    auto test = std::make_unique<Live::Test>();
    test->events = std::make_shared<TestEvents>();
    test->rec = std::make_unique<RecordingWriter>(std::move(request.info));
    // What the recording gets is what the window shows: the writer hands each event on.
    auto* t = test.get();
    test->rec->setTap({[t](double at, std::optional<double> ms, std::string_view probe) {
                           t->events->latency.push_back({at, ms, std::string(probe)});
                       },
                       [t](double at, double down, double up) {
                           t->events->throughput.push_back({at, down, up});
                       },
                       [t](double at, std::string_view phase) {
                           t->events->phases.push_back({at, std::string(phase)});
                       }});
    test->start = std::chrono::steady_clock::now();
    test->rec->phase(0, "idle");
    test->engine = std::make_unique<LoadTest>(std::move(spec), &test->events->problems);
    l.test = std::move(test);
}

// A tick of the test: the sample (or the gap) into the recording, then the engine's tick, as
// the command line's monitor does; what it wrote goes to the window.
void Connection::testTick(bool sampled, bool failed) {
    auto& l = *m_live;
    if (!l.test)
        return;
    auto& x = *l.test;
    const double t = x.now();
    if (sampled)
        x.rec->sample(t, l.source->lastTexts());
    else if (failed)
        x.rec->gap(t);
    std::string problem;
    const bool more = x.engine->tick(t, *x.rec, &problem);
    if (!problem.empty())
        x.events->loadProblems.push_back(problem);
    // A recording is bounded (many cores at a high rate for a long time reach it): it ends
    // itself, whole, before that.
    if (x.rec->bytes() + (4u << 20) > Recording::kMaxBytes) {
        finishTest(tr("The recording reached %1 MB and stopped.").arg(Recording::kMaxBytes >> 20));
        return;
    }
    if (!more) {
        finishTest({});
        return;
    }
    x.events->ticks = x.rec->ticks();
    Q_EMIT testEvents(m_id, std::exchange(x.events, std::make_shared<TestEvents>()));
}

// The end: the engine's last events, the recording read back whole (as a file of it would be),
// and both to the window.
void Connection::finishTest(const QString& problem) {
    auto& l = *m_live;
    auto test = std::move(l.test);
    test->engine->finish(test->now(), *test->rec);
    test->engine.reset(); // its probes and load stopped and joined
    test->rec->setTap({});
    test->events->ticks = test->rec->ticks();
    Q_EMIT testEvents(m_id, std::move(test->events));
    std::string error;
    auto rec = readRecording(test->rec->text(), &error);
    if (!rec) {
        Q_EMIT testFinished(
            m_id, nullptr,
            tr("The recording could not be kept: %1").arg(QString::fromStdString(error)));
        return;
    }
    Q_EMIT testFinished(m_id, std::make_shared<const Recording>(std::move(*rec)), problem);
}

} // namespace coresteer::ui

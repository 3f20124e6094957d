// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The tuner on the connection's worker: measure::runTune blocks this thread for the whole run,
// so the live sampler, which ticks on it too, waits (no second sampler on the router's
// session); the tuner's own samples go to the window as live() in its stead, so the Live tab's
// charts and heatmap keep running. On the demo, its model steps before each sample and is the
// load, as the command line's `tune` has it.
#include "ui/connection.h"

#include "core/base/json_text.h"
#include "core/measure/tune_json.h"
#include "core/router/router.h"
#include "ui/connection_live.h"

#include <QElapsedTimer>

namespace coresteer::ui {

using namespace coresteer::live;
using namespace coresteer::measure;

void Connection::cancelTune() {
    m_tuneCancel->store(true);
}

void Connection::runTuneHere(TuneRequest request) {
    auto refuse = [&](const QString& why) { Q_EMIT tuneFinished(m_id, nullptr, nullptr, why); };
    if (m_spec.replay)
        return refuse(tr("A recording is history: connect to the router to tune it."));
    if (!request.snapshot || request.candidates.size() < 2)
        return refuse(tr("Nothing to compare: choose at least one candidate besides the current "
                         "layout."));
    std::string error;
    // The live sampler waits: a test it runs ends now, and its channel closes (it opens again
    // at its next tick, after the tune).
    Live* l = m_live.get();
    if (l) {
        if (l->test)
            finishTest(tr("A tune started: the test ended."));
        l->source.reset();
        l->last.reset();
        l->lastRates.reset();
    }
    std::unique_ptr<DemoLoad> ownDemo; // the demo without a live view (its model all the same)
    DemoLoad* demo = l ? l->demo.get() : nullptr;
    if (m_spec.demo && !demo) {
        ownDemo = DemoLoad::create(m_spec.root.toStdString(), *request.snapshot, &error);
        if (!ownDemo)
            return refuse(QString::fromStdString(error));
        demo = ownDemo.get();
    }
    auto spec = std::move(request.spec);
    TuneHooks hooks;
    QElapsedTimer stepClock;
    stepClock.start();
    if (demo) {
        hooks.beforeTick = [demo, &stepClock](std::string* e) {
            const double dt = static_cast<double>(stepClock.restart()) / 1000.0;
            return demo->step(std::min(dt, 2.0), e);
        };
        if (!spec.test.load) {
            hooks.startModel = [demo](double idle, double phase,
                                      const std::vector<std::string>& phases) {
                demo->startTest(idle, phase, phases);
            };
            hooks.model = [demo] {
                return LoadTest::Spec::ModelState{demo->latencyMs(), demo->phase(),
                                                  demo->downMbps() * 1e6, demo->upMbps() * 1e6};
            };
        }
    } else if (!spec.test.load) {
        return refuse(tr("A tune needs a load through the router: an iperf3 server or URLs "
                         "beyond it (the demo's model is its own load)."));
    }
    if (m_router->isRemote() && m_router->session()) {
        spec.test.lanHost = m_router->session()->resolvedHost();
        spec.test.lanPort = m_router->session()->resolvedPort();
        spec.test.session = m_router->session();
    }
    hooks.progress = [this](const TuneProgress& p) { Q_EMIT tuneProgress(m_id, p); };
    hooks.rates = [this](double, const Rates& r) {
        Q_EMIT live(m_id, std::make_shared<const Rates>(r));
    };
    hooks.trial = [this](double t, int block, int candidate) {
        Q_EMIT tuneTrial(m_id, t, block, candidate);
    };
    hooks.cancel = m_tuneCancel.get();
    RecordingWriter rec(std::move(request.info));
    auto result =
        runTune(*m_router, *request.snapshot, std::move(request.candidates), spec, rec, hooks);
    rec.setTune(jsonText(tuneJson(result, spec.objective), -1));
    if (l) // the live sampler's demo steps from now on, not across the tune
        l->clock.restart();
    auto recording = readRecording(rec.text(), &error);
    Q_EMIT tuneFinished(
        m_id, std::make_shared<const TuneResult>(std::move(result)),
        recording ? std::make_shared<const Recording>(std::move(*recording)) : nullptr,
        recording ? QString()
                  : tr("The recording could not be kept: %1").arg(QString::fromStdString(error)));
}

} // namespace coresteer::ui

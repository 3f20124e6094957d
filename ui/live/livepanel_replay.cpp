// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The Live tab's replay: a recording fed to every view at its pace (ReplayDriver), as the
// connection feeds them live, with the bar that shows where it is and seeks (ReplayBar), a
// tune's trials marked on the heatmap by their candidates' names, and the recording's grade when
// it ends.
#include "ui/live/livepanel.h"

#include "ui/live/bufferbloattest.h"
#include "ui/live/latencychart.h"
#include "ui/live/replaybar.h"
#include "ui/live/replaydriver.h"
#include "ui/live/testcontrols.h"
#include "ui/live/testresult.h"

#include "core/base/text.h"

#include <QPushButton>

#include <nlohmann/json.hpp>

namespace coresteer::ui {

using namespace coresteer::live;

// A replay feeds every view as the connection would, and the bar moves and seeks it.
void LivePanel::wireReplay() {
    connect(m_replay, &ReplayDriver::rates, this, [this](const Rates& r) {
        addRates(r);
        Q_EMIT replayedRates(r);
    });
    connect(m_replay, &ReplayDriver::gap, this, [this] {
        addGap(m_history && m_history->size() ? m_history->time(m_history->size() - 1) : 0);
    });
    connect(m_replay, &ReplayDriver::latency, this,
            [this](double t, std::optional<double> ms, bool, const QString& probe) {
                addLatency(t, ms, probe);
            });
    connect(m_replay, &ReplayDriver::throughput, m_latency, &LatencyChart::addThroughput);
    connect(m_replay, &ReplayDriver::trial, this,
            [this](double, int block, int candidate) { replayTrial(block, candidate); });
    connect(m_replay, &ReplayDriver::restarted, this, [this] {
        clearViews();
        m_controls->setResult({});
    });
    connect(m_replay, &ReplayDriver::moved, this, &LivePanel::showReplayPosition);
    connect(m_replayBar, &ReplayBar::seekRequested, this, &LivePanel::seekReplay);
    connect(m_replayBar, &ReplayBar::speedChanged, m_replay, &ReplayDriver::setSpeed);
}

void LivePanel::startReplay(std::shared_ptr<const Recording> recording, SnapshotPtr snapshot,
                            double speed) {
    abandonTest();
    reset(std::move(snapshot), recording->info.hz, QString::fromStdString(recording->info.label));
    // A tune's candidates by name (its "tune" section, coresteer.tune/2), for its trials' marks.
    m_tuneNames.clear();
    if (!recording->info.tune.empty()) {
        const auto doc = nlohmann::json::parse(recording->info.tune, nullptr, false);
        if (doc.is_object() && doc.contains("candidates") && doc["candidates"].is_array())
            for (const auto& c : doc["candidates"])
                m_tuneNames << (c.is_object() && c.contains("name") && c["name"].is_string()
                                    ? QString::fromStdString(
                                          text::printable(c["name"].get<std::string>(), 60))
                                    : QString());
    }
    m_test->setRecording(recording);
    m_replayBar->start(*recording, speed);
    testButton()->setEnabled(false);
    m_replayBar->show();
    m_controls->setResult({});
    m_replay->start(std::move(recording), speed);
}

// A replayed trial's mark: its candidate's name, as the live tune marks it.
void LivePanel::replayTrial(int, int candidate) {
    if (candidate < 0)
        return; // the trial ended: the next one's mark follows
    const auto name = m_tuneNames.value(candidate);
    markTrial(name.isEmpty() ? tr("candidate %1").arg(candidate) : name);
}

bool LivePanel::replaying() const {
    return m_replay->active();
}

double LivePanel::replayPosition() const {
    return m_replay->position();
}

void LivePanel::seekReplay(double seconds) {
    if (!m_replay->recording() && recording())
        m_replay->start(recording(), m_replayBar->speed()); // made here
    m_replay->seek(seconds);
}

void LivePanel::finishReplay() {
    m_replay->setSpeed(0);
}

void LivePanel::showReplayPosition(double seconds, bool done) {
    const auto* rec = m_replay->recording();
    m_replayBar->showPosition(*rec, seconds, done);
    if (const auto grade = done ? TestResult::ofRecording(*rec) : QString(); !grade.isEmpty())
        m_controls->setResult(grade);
}

} // namespace coresteer::ui

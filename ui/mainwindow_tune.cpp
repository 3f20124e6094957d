// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// Layout > Find the best layout: the tuner's dialog wired to the router's connection, whose
// worker runs the tuner; its trials marked on the Live tab's heatmap (whose charts the tuner's
// samples keep running), its recording made the Live tab's to save and export, and its winner
// handed to the grid and the apply dialog like any layout.
#include "ui/mainwindow.h"

#include "core/base/json_text.h"
#include "core/collect/capture.h"
#include "core/layout/layout_json.h"
#include "core/measure/candidates.h"
#include "ui/live/livepanel.h"
#include "ui/models/maskgridmodel.h"
#include "ui/settings.h"

#include <QEventLoop>
#include <QMessageBox>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>

namespace coresteer::ui {

using namespace coresteer::measure;

TuneDialog* MainWindow::openTuneDialog() {
    const auto snap = m_grid->snapshot();
    if (!m_conn || !snap)
        return nullptr;
    if (m_tuneDialog) {
        m_tuneDialog->raise();
        return m_tuneDialog;
    }
    if (m_conn->spec().replay) {
        statusBar()->showMessage(tr("A recording is history: connect to the router to tune it."));
        return nullptr;
    }
    // The grid's pending edits are a candidate of their own.
    CandidateOptions options;
    if (m_grid->changedCount() > 0) {
        Candidate edits;
        edits.name = tr("Your pending edits").toStdString();
        edits.source = Candidate::Source::Edit;
        edits.why = tr("The grid's pending changes, as Apply would write them.").toStdString();
        edits.layout = m_grid->pendingLayout();
        options.extra.push_back(std::move(edits));
    }
    std::vector<std::string> notes;
    auto candidates = gatherCandidates(*snap, options, &notes);
    QStringList noteList;
    for (const auto& n : notes)
        noteList << QString::fromStdString(n);
    auto* c = m_conn.get();
    auto* d = new TuneDialog(c->spec().label, snap, std::move(candidates), noteList,
                             settings::loadTargets(), c->spec().demo, this);
    d->setAttribute(Qt::WA_DeleteOnClose);
    // What the dialog asks, this connection runs; its answers go back to the dialog (and die
    // with it, or with the connection the window leaves).
    connect(d, &TuneDialog::startRequested, c, [this, c, snap](TuneRequest r) {
        r.info.label = c->spec().label.toStdString();
        r.info.started = live::utcTimestamp();
        r.info.hz = r.spec.rate;
        if (snap->source)
            r.info.capture = writeCapture(*snap->source);
        r.info.layout = jsonText(layout::toJson(r.candidates.front().layout));
        if (auto* tabs = findChild<QTabWidget*>())
            tabs->setCurrentWidget(m_livePanel); // its charts and heatmap follow the run
        // Nothing else runs on the router meanwhile: no apply, no test of the Live tab.
        m_tuning = true;
        m_livePanel->testButton()->setEnabled(false);
        updateActions();
        c->startTune(std::move(r));
    });
    connect(d, &TuneDialog::cancelRequested, c, &Connection::cancelTune);
    connect(c, &Connection::tuneProgress, d,
            [d](quint64, const TuneProgress& p) { d->onProgress(p); });
    connect(c, &Connection::tuneTrial, d, [this, d](quint64, double t, int block, int candidate) {
        d->onTrial(t, block, candidate);
        if (candidate >= 0)
            m_livePanel->markTrial(d->candidateName(candidate));
    });
    connect(
        c, &Connection::tuneFinished, d,
        [this, d](quint64, TuneResultPtr result, RecordingPtr recording, const QString& problem) {
            endTuning();
            if (recording) { // the whole run, saved and exported as the Live tab's are
                m_livePanel->setRecording(recording);
                enableRecordingActions();
            }
            d->onFinished(std::move(result), std::move(recording), problem);
            refresh(); // the router is on its baseline again: the grid reads it
        });
    connect(c, &Connection::failed, d,
            [this, d](quint64, const QString& what, const QString& message, bool) {
                if (what != QLatin1String("tune") && what != QLatin1String("connect"))
                    return;
                endTuning();
                d->onFailed(message);
            });
    connect(d, &TuneDialog::applyWinnerRequested, this,
            [this](const layout::Layout& layout, const QString& name) {
                showPending(layout, tr("The tuner's winner, %1").arg(name));
                openApplyDialog();
            });
    connect(d, &TuneDialog::loadTargetUsed, this, [this](const QString& target) {
        settings::addLoadTarget(target);
        handSettingsToLive();
    });
    m_tuneDialog = d;
    d->show();
    return d;
}

bool MainWindow::stopTuneFirst(bool ask) {
    if (!m_tuning || !m_conn)
        return true;
    if (ask &&
        QMessageBox::question(this, tr("A tune is running"),
                              tr("The tuner is trying layouts on %1. Cancel it and restore the "
                                 "router's layout first?")
                                  .arg(m_conn->spec().label)) != QMessageBox::Yes)
        return false;
    // Its revert over the session, waited for here: past 30 s the router's own timer has it.
    statusBar()->showMessage(tr("Cancelling the tune: restoring the router's layout..."));
    QEventLoop wait;
    QTimer::singleShot(30000, &wait, &QEventLoop::quit);
    connect(m_conn.get(), &Connection::tuneFinished, &wait, &QEventLoop::quit,
            Qt::QueuedConnection);
    connect(m_conn.get(), &Connection::failed, &wait, &QEventLoop::quit, Qt::QueuedConnection);
    m_conn->cancelTune();
    wait.exec();
    return true;
}

void MainWindow::endTuning() {
    if (!m_tuning)
        return;
    m_tuning = false;
    m_livePanel->testButton()->setEnabled(m_grid->snapshot() != nullptr);
    updateActions();
}

} // namespace coresteer::ui

// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The Live tab's wiring: the tab knows no connection and reads no settings, so the window hands
// it the connection's live answers and the settings, passes its requests (the bufferbloat test,
// which runs on the connection's worker) to the connection and the test's events back, and keeps
// what the person changes there. Also the status bar's live read-out: the busiest core and the
// traffic, or the bottleneck.
#include "ui/mainwindow.h"

#include "core/live/bottleneck.h"
#include "ui/live/livepanel.h"
#include "ui/models/maskgridmodel.h"
#include "ui/settings.h"

#include <QAction>
#include <QLabel>

#include <algorithm>

namespace coresteer::ui {

using namespace coresteer::live;

// The tab's requests go to the current connection; what the person changes goes to the
// settings, and the settings come back as the tab offers them.
void MainWindow::wireLivePanel() {
    connect(m_livePanel, &LivePanel::testRequested, this, [this](const TestRequest& r) {
        if (m_conn)
            m_conn->startTest(r);
        else
            m_livePanel->abandonTest();
    });
    connect(m_livePanel, &LivePanel::testStopRequested, this, [this] {
        if (m_conn)
            m_conn->stopTest();
    });
    connect(m_livePanel, &LivePanel::recordingFinished, this, &MainWindow::enableRecordingActions);
    connect(m_livePanel, &LivePanel::replayedRates, this,
            [this](const Rates& r) { m_grid->setLive(r); });
    connect(m_livePanel, &LivePanel::beyondHostsEdited, this,
            [](const QStringList& hosts) { settings::setBeyondHosts(hosts); });
    connect(m_livePanel, &LivePanel::loadTargetUsed, this, [this](const QString& target) {
        settings::addLoadTarget(target);
        handSettingsToLive();
    });
    handSettingsToLive();
}

void MainWindow::enableRecordingActions() {
    for (auto* a : std::as_const(m_recordingActions))
        a->setEnabled(m_livePanel->recording() != nullptr);
}

void MainWindow::handSettingsToLive() {
    m_livePanel->setSettings(settings::loadTargets(), settings::beyondHosts());
}

// A new connection: its live answers go to the tab (only while it is the window's), and the
// tab and the read-out start over.
void MainWindow::wireLive(Connection* c) {
    connect(c, &Connection::live, this, &MainWindow::showLive);
    connect(c, &Connection::testEvents, this, [this](quint64 id, TestEventsPtr events) {
        if (m_conn && id == m_conn->id())
            m_livePanel->addTestEvents(*events);
    });
    connect(c, &Connection::testFinished, this,
            [this](quint64 id, RecordingPtr recording, const QString& problem) {
                if (m_conn && id == m_conn->id())
                    m_livePanel->endTest(std::move(recording), problem);
            });
    connect(c, &Connection::reached, this, [this](quint64 id, const QString& host, int port) {
        if (m_conn && id == m_conn->id())
            m_livePanel->setProbeTarget(host, port);
    });
    connect(c, &Connection::liveProblem, this, [this](quint64 id, const QString& text) {
        if (!m_conn || id != m_conn->id())
            return;
        m_liveLabel->setText(tr("Live: %1").arg(text));
        m_recentLoad.clear();
        if (const auto* h = m_livePanel->history(); h && h->size() > 0)
            m_livePanel->addGap(h->time(h->size() - 1)); // the views show the break
    });
    m_liveStarted = false;
    m_liveLabel->clear();
    m_livePanel->abandonTest();               // a test on the connection left behind ended with it
    m_livePanel->setModelled(c->spec().demo); // the demo's latency is its model's
    m_livePanel->setProbeTarget({}, 0);       // until an SSH connection says where it reached
    m_grid->setCpuLoad({});
}

// The first snapshot of a connection starts the Live tab: a recording replays, a capture shows
// its snapshot, and a router (or tree) is sampled at the rate the settings hold.
void MainWindow::startLive(const SnapshotPtr& snap) {
    if (m_liveStarted)
        return;
    m_liveStarted = true;
    const auto& spec = m_conn->spec();
    if (spec.replay && m_replay) {
        m_livePanel->startReplay(m_replay, snap, m_replaySpeed);
        return;
    }
    m_livePanel->reset(snap, settings::refreshHz(), spec.label);
    if (!spec.replay) // not a capture
        m_conn->startLive(settings::refreshHz(), snap);
}

QString MainWindow::liveText() const {
    return m_liveLabel->text();
}

void MainWindow::showLive(quint64 id, RatesPtr rates) {
    if (!m_conn || id != m_conn->id())
        return;
    m_grid->setLive(*rates);
    m_livePanel->addRates(*rates);
    const CoreLoad* hot = nullptr;
    for (const auto& c : rates->cores)
        if (!hot || c.busy() > hot->busy())
            hot = &c;
    double rx = 0, tx = 0;
    for (const auto& i : rates->interfaces)
        if (i.name != "lo") {
            rx = std::max(rx, i.rxBitsPerSec);
            tx = std::max(tx, i.txBitsPerSec);
        }
    auto mbps = [](double b) { return QString::number(b / 1e6, 'f', 0); };
    // A bottleneck (a core pegged in kernel work while a comparable one idles) is named, with
    // what runs there and the move, until it is gone.
    // Over the last second: one 100 ms tick's share moves in steps of 10 %.
    m_recentLoad.add(*rates);
    if (const auto snap = m_grid->snapshot()) {
        const auto found = findBottlenecks(*m_recentLoad.mean(), *snap);
        if (!found.empty()) {
            const auto& b = found.front();
            QStringList on;
            for (const auto& s : b.onIt)
                on << QString::fromStdString(s);
            m_liveLabel->setText(tr("Bottleneck: CPU%1 at %2% kernel work while CPU%3 idles")
                                     .arg(b.cpu)
                                     .arg(qRound(b.kernel * 100))
                                     .arg(b.idleCores.front()));
            m_liveLabel->setToolTip(
                QString::fromStdString(b.suggestion) +
                (on.isEmpty()
                     ? QString()
                     : tr("\nOn CPU%1: %2").arg(b.cpu).arg(on.join(QStringLiteral(", ")))));
            m_liveLabel->setStyleSheet(QStringLiteral("color: #c62828; font-weight: bold"));
            return;
        }
    }
    m_liveLabel->setStyleSheet(QString());
    // Where flow offloading keeps traffic off the CPU, the label says so beside the load.
    const auto snap = m_grid->snapshot();
    const auto expectation = snap ? QString::fromStdString(loadExpectation(*snap)) : QString();
    m_liveLabel->setToolTip(
        expectation.isEmpty()
            ? tr("Live: the busiest core and the traffic, sampled from the router")
            : expectation);
    m_liveLabel->setText(
        (hot ? tr("Live: CPU%1 %2% busy (%3% irq+softirq) · top interface %4 Mb/s in, %5 Mb/s out")
                   .arg(hot->cpu)
                   .arg(qRound(hot->busy() * 100))
                   .arg(qRound((hot->irq + hot->softirq) * 100))
                   .arg(mbps(rx), mbps(tx))
             : QString()) +
        (expectation.isEmpty() ? QString()
                               : tr(" · flow offloading on: traffic bypasses the CPU")));
}

} // namespace coresteer::ui

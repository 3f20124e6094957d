// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// Where the window's router comes from: the demo, this computer, a tree, a router over SSH, a
// capture or a recording, each laid out where needed and opened as a Connection (the one the
// window answers to from then on); and recordings read to compare.
#include "ui/mainwindow.h"

#include "core/base/text.h"
#include "core/collect/capture.h"
#include "core/live/recording.h"
#include "ui/dialogs/comparedialog.h"
#include "ui/dialogs/connectdialog.h"
#include "ui/live/livepanel.h"
#include "ui/logging.h"
#include "ui/settings.h"

#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QPushButton>
#include <QStatusBar>
#include <QTemporaryDir>

namespace coresteer::ui {

using namespace coresteer::live;

namespace {

// A capture file's text (or the built-in demo's); nullopt with *error "<file>: why".
std::optional<std::string> readCaptureFile(const QString& file, std::string* error) {
    QFile in(file);
    if (!in.open(QIODevice::ReadOnly)) {
        *error = file.toStdString() + ": cannot be read";
        return std::nullopt;
    }
    return in.readAll().toStdString();
}

// A recording from a file or from the built-in samples (":/recordings/...").
std::optional<Recording> readRecordingFile(const QString& file, std::string* error) {
    QFile in(file);
    if (!in.open(QIODevice::ReadOnly)) {
        *error = file.toStdString() + ": cannot be read";
        return std::nullopt;
    }
    if (in.size() > static_cast<qint64>(Recording::kMaxBytes)) {
        *error = file.toStdString() + ": larger than a recording can be";
        return std::nullopt;
    }
    const auto data = in.readAll();
    auto r = readRecording(
        std::string_view(data.constData(), static_cast<std::size_t>(data.size())), error);
    if (!r)
        *error = file.toStdString() + ": " + *error;
    return r;
}

} // namespace

bool MainWindow::openRecording(const QString& file, double speed) {
    std::string error;
    auto rec = readRecordingFile(file, &error);
    if (rec && rec->info.capture.empty())
        error = file.toStdString() + ": the recording holds no snapshot";
    if (!rec || rec->info.capture.empty()) {
        showFailure(0, QStringLiteral("open"), QString::fromStdString(error), false);
        return false;
    }
    auto replay = std::make_shared<const Recording>(std::move(*rec));
    Connection::Spec spec;
    spec.label = tr("Recording %1 (%2)")
                     .arg(QFileInfo(file).fileName(),
                          QString::fromStdString(text::printable(replay->info.label, 60)));
    spec.replay = true;
    if (!layOutAndOpen(replay->info.capture, replay->captureLine, file, std::move(spec)))
        return false;
    m_replay = std::move(replay);
    m_replaySpeed = speed;
    return true;
}

bool MainWindow::openCapture(const QString& file) {
    std::string error;
    const auto text = readCaptureFile(file, &error);
    if (!text) {
        showFailure(0, QStringLiteral("open"), QString::fromStdString(error), false);
        return false;
    }
    Connection::Spec spec;
    spec.label = tr("Capture %1").arg(QFileInfo(file).fileName());
    spec.replay = true; // read-only: no sampling, no apply
    return layOutAndOpen(*text, 1, file, std::move(spec));
}

bool MainWindow::layOutAndOpen(std::string_view capture, int firstLine, const QString& file,
                               Connection::Spec spec) {
    auto dir = std::make_unique<QTemporaryDir>();
    std::string error = "no temporary directory";
    if (!dir->isValid() || !layOutCapture(capture, dir->path().toStdString(), &error, firstLine)) {
        showFailure(0, QStringLiteral("open"),
                    QString::fromStdString(file.toStdString() + ": " + error), false);
        return false;
    }
    dropConnection(); // its worker may still write into the directory replaced now (the demo)
    m_demoDir = std::move(dir);
    m_replay.reset();
    spec.root = m_demoDir->path();
    openConnection(std::move(spec));
    return true;
}

CompareDialog* MainWindow::compareRecordings(const QString& before, const QString& after) {
    std::string error;
    auto a = readRecordingFile(before, &error);
    auto b = a ? readRecordingFile(after, &error) : std::nullopt;
    if (!a || !b) {
        showFailure(0, QStringLiteral("open"), QString::fromStdString(error), false);
        return nullptr;
    }
    auto* d = new CompareDialog(
        std::make_shared<const Recording>(std::move(*a)), QFileInfo(before).fileName(),
        std::make_shared<const Recording>(std::move(*b)), QFileInfo(after).fileName(), this);
    d->setAttribute(Qt::WA_DeleteOnClose);
    return d;
}

CompareDialog* MainWindow::compareWith(const QString& before) {
    const auto now = m_livePanel->recording();
    if (!now) {
        showFailure(0, QStringLiteral("open"), tr("Nothing has been recorded."), false);
        return nullptr;
    }
    std::string error;
    auto a = readRecordingFile(before, &error);
    if (!a) {
        showFailure(0, QStringLiteral("open"), QString::fromStdString(error), false);
        return nullptr;
    }
    auto* d = new CompareDialog(std::make_shared<const Recording>(std::move(*a)),
                                QFileInfo(before).fileName(), now, tr("this test"), this);
    d->setAttribute(Qt::WA_DeleteOnClose);
    return d;
}

void MainWindow::dropConnection() {
    stopTuneFirst(false); // leaving the router: its baseline back first, at once
    if (m_tuneDialog)     // the tuner's dialog is of the router left (a run there is cancelled)
        m_tuneDialog->deleteLater();
    m_tuning = false;
    if (m_conn) {
        m_conn->disconnect(this);
        m_conn.reset();
    }
}

void MainWindow::openConnection(Connection::Spec spec) {
    dropConnection();
    qCDebug(lcUi).noquote() << "opening" << spec.label << "root" << spec.root;
    m_conn = std::make_unique<Connection>(++m_nextId, std::move(spec), m_prompts);
    auto* c = m_conn.get();
    connect(c, &Connection::snapshotReady, this, &MainWindow::showSnapshot);
    connect(c, &Connection::failed, this, &MainWindow::showFailure);
    connect(c, &Connection::progress, this, [this](quint64 id, const QString& text) {
        if (m_conn && id == m_conn->id())
            statusBar()->showMessage(text);
    });
    connect(c, &Connection::idle, this, [this](quint64 id) {
        if (m_conn && id == m_conn->id())
            m_cancel->hide();
    });
    // A keep or revert that the apply dialog no longer waits for (it was closed) still
    // changes what the router has.
    connect(c, &Connection::settled, this, [this](quint64 id) {
        if (m_conn && id == m_conn->id() && !m_applyDialog)
            refresh();
    });
    wireLive(c);
    m_lastError.clear();
    refresh();
}

void MainWindow::refresh() {
    if (!m_conn)
        return;
    m_cancel->show();
    m_conn->refresh();
}

void MainWindow::cancel() {
    if (!m_conn)
        return;
    const auto label = m_conn->spec().label;
    m_conn->disconnect(this);
    m_conn->cancel();
    // Its worker ends within 200 ms; the connection goes with it, off the event loop's back.
    m_conn.release()->deleteLater();
    m_cancel->hide();
    statusBar()->showMessage(tr("Stopped: %1").arg(label));
    updateActions();
}

void MainWindow::openDemo() {
    std::string error;
    const auto file = QStringLiteral(":/demo/nanopi-r6s.capture");
    const auto text = readCaptureFile(file, &error);
    if (!text) {
        showFailure(0, QStringLiteral("demo"), QString::fromStdString(error), false);
        return;
    }
    Connection::Spec spec;
    spec.label = tr("Demo router (NanoPi R6S)");
    spec.demo = true;
    layOutAndOpen(*text, 1, file, std::move(spec));
}

void MainWindow::openThisComputer() {
    loadRoot(QStringLiteral("/"), tr("This computer"));
}

void MainWindow::connectDialog() {
    const QString sshDir = QDir::homePath() + QStringLiteral("/.ssh");
    QStringList aliases;
    for (const auto& h : ssh::sshConfigHosts(
             QString(sshDir + QStringLiteral("/config")).toStdString(), sshDir.toStdString()))
        aliases << QString::fromStdString(h);
    ConnectDialog d(settings::recentHosts(), aliases, this);
    if (d.exec() != QDialog::Accepted)
        return;
    const auto t = d.target();
    if (!t)
        return;
    Connection::Spec spec;
    spec.ssh = true;
    spec.target = *t;
    spec.root = d.root();
    spec.label = d.display();
    m_rememberHost = true;
    openConnection(std::move(spec));
}

void MainWindow::loadRoot(const QString& root, const QString& label) {
    Connection::Spec spec;
    spec.root = root;
    spec.label = label.isEmpty() ? root : label;
    openConnection(std::move(spec));
}

void MainWindow::openRoot() {
    const auto dir = QFileDialog::getExistingDirectory(this, tr("Root of a /proc and /sys tree"),
                                                       m_conn ? m_conn->spec().root : QString());
    if (!dir.isEmpty())
        loadRoot(dir);
}

} // namespace coresteer::ui

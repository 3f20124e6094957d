// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/mainwindow.h"

#include "core/base/json_text.h"
#include "core/base/text.h"
#include "core/collect/capture.h"
#include "core/layout/layout_json.h"
#include "core/layout/planner.h"
#include "core/live/bottleneck.h"
#include "core/live/recording.h"
#include "core/model/conflicts.h"
#include "ui/dialogs/applydialog.h"
#include "ui/dialogs/comparedialog.h"
#include "ui/dialogs/connectdialog.h"
#include "ui/dialogs/preferencesdialog.h"
#include "ui/live/livepanel.h"
#include "ui/logging.h"
#include "ui/models/coremodel.h"
#include "ui/models/maskgridmodel.h"
#include "ui/models/snapshotmodel.h"
#include "ui/settings.h"
#include "ui/views/maskgridview.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QKeySequence>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSaveFile>
#include <QScreen>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QStyle>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QToolBar>
#include <QTreeView>
#include <QUndoStack>
#include <QVBoxLayout>

#include <cmath>

namespace coresteer::ui {

using namespace coresteer::layout;
using namespace coresteer::live;

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), m_prompts(new Prompts(this, this)), m_model(new SnapshotModel(this)),
      m_cores(new CoreModel(this)), m_grid(new MaskGridModel(this)), m_undo(new QUndoStack(this)),
      m_gridView(new MaskGridView(m_grid, m_undo)), m_tree(new QTreeView),
      m_coreView(new QTableView), m_summary(new QLabel), m_warnings(new QPlainTextEdit),
      m_cancel(new QPushButton(tr("Cancel"))), m_liveLabel(new QLabel), m_livePanel(new LivePanel) {
    setWindowTitle(tr("coresteer"));
    resize(1100, 720);

    buildCentre();
    buildRouterMenu();
    buildEditMenu();
    buildRecordingMenu();
    buildLayoutMenu();
    buildToolBar();
    buildPresetsMenu();
    buildStatusBar();
    connect(m_undo, &QUndoStack::indexChanged, this, &MainWindow::updateActions);

    QSettings st;
    // The saved geometry, else most of the screen: the tables, the grid and the charts are wide.
    if (!restoreGeometry(st.value(QStringLiteral("window/geometry")).toByteArray()))
        if (const auto* s = screen()) {
            const auto avail = s->availableGeometry();
            const QSize size(avail.width() * 9 / 10, avail.height() * 9 / 10);
            resize(size.expandedTo(QSize(800, 560)).boundedTo(avail.size()));
            move(avail.center() - rect().center());
        }
    restoreState(st.value(QStringLiteral("window/state")).toByteArray());
    updateActions();
}

MainWindow::~MainWindow() {
    // The undo stack is a child: it is destroyed after this window's own parts, and clearing it
    // on the way must not call back into them.
    m_undo->disconnect(this);
    m_conn.reset(); // joins its thread while the prompts object still exists
}

void MainWindow::closeEvent(QCloseEvent* event) {
    QSettings st;
    st.setValue(QStringLiteral("window/geometry"), saveGeometry());
    st.setValue(QStringLiteral("window/state"), saveState());
    QMainWindow::closeEvent(event);
}

void MainWindow::updateActions() {
    // A recording's snapshot is history: nothing is applied to it.
    if (m_applyAction)
        m_applyAction->setEnabled(m_conn && !m_conn->spec().replay && m_grid->snapshot() &&
                                  m_grid->changedCount() > 0);
}

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

void MainWindow::rebuildRecentPresets() {
    m_recentPresets->clear();
    const auto files = settings::recentPresets();
    for (const auto& f : files)
        m_recentPresets->addAction(f, this, [this, f] { loadPreset(f); });
    m_recentPresets->setEnabled(!files.isEmpty());
}

void MainWindow::openConnection(Connection::Spec spec) {
    if (m_conn) {
        m_conn->disconnect(this);
        m_conn.reset();
    }
    qCDebug(lcUi).noquote() << "opening" << spec.label << "root" << spec.root;
    const bool demo = spec.demo;
    m_conn = std::make_unique<Connection>(++m_nextId, std::move(spec), m_prompts);
    auto* c = m_conn.get();
    connect(c, &Connection::snapshotReady, this, &MainWindow::showSnapshot);
    connect(c, &Connection::failed, this, &MainWindow::showFailure);
    connect(c, &Connection::progress, this, [this](quint64 id, const QString& text) {
        if (m_conn && id == m_conn->id())
            statusBar()->showMessage(text);
    });
    connect(c, &Connection::live, this, &MainWindow::showLive);
    connect(c, &Connection::sampled, this, [this](quint64 id, TextsPtr texts) {
        if (m_conn && id == m_conn->id())
            m_livePanel->addSample(*texts);
    });
    connect(c, &Connection::reached, this, [this](quint64 id, const QString& host, int port) {
        if (m_conn && id == m_conn->id())
            m_livePanel->setProbeTarget(host, port);
    });
    connect(c, &Connection::routerLatency, this,
            [this](quint64 id, const QVector<std::optional<double>>& replies) {
                if (m_conn && id == m_conn->id())
                    m_livePanel->addRouterLatency(replies);
            });
    connect(c, &Connection::demoModel, this,
            [this](quint64 id, double latencyMs, const QString& phase) {
                if (m_conn && id == m_conn->id())
                    m_livePanel->addDemoModel(latencyMs, phase);
            });
    connect(c, &Connection::liveProblem, this, [this](quint64 id, const QString& text) {
        if (!m_conn || id != m_conn->id())
            return;
        m_liveLabel->setText(tr("Live: %1").arg(text));
        m_recentLoad.clear();
        if (const auto* h = m_livePanel->history(); h && h->size() > 0)
            m_livePanel->addGap(h->time(h->size() - 1)); // the views show the break
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
    m_lastError.clear();
    m_liveStarted = false;
    m_liveLabel->clear();
    m_livePanel->stopTest();
    m_livePanel->setModelled(demo);     // the demo's latency is its model's
    m_livePanel->setProbeTarget({}, 0); // until an SSH connection says where it reached
    m_grid->setCpuLoad({});
    refresh();
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

bool MainWindow::savePreset(const QString& path) {
    const auto snap = m_grid->snapshot();
    if (!snap)
        return false;
    Preset p;
    p.board = snap->system.boardName;
    p.name = (p.board.empty() ? std::string("router") : p.board) + " as arranged";
    p.note = "Saved by coresteer from " + snap->origin + ".";
    p.layout = m_grid->pendingLayout(true);
    // A temporary beside it and a rename: never half a file, never through a planted name.
    QSaveFile f(path);
    const auto text = jsonText(toJson(p)) + "\n";
    if (!f.open(QIODevice::WriteOnly) ||
        f.write(text.data(), static_cast<qint64>(text.size())) !=
            static_cast<qint64>(text.size()) ||
        !f.commit()) {
        statusBar()->showMessage(tr("%1: cannot write").arg(path));
        return false;
    }
    settings::addRecentPreset(path);
    rebuildRecentPresets();
    statusBar()->showMessage(tr("Saved the layout to %1").arg(path));
    return true;
}

ApplyDialog* MainWindow::openApplyDialog() {
    const auto snap = m_grid->snapshot();
    if (!m_conn || !snap || m_grid->changedCount() == 0 || m_applyDialog)
        return m_applyDialog;
    if (m_conn->spec().replay) {
        statusBar()->showMessage(tr("A recording is history: connect to the router to apply."));
        return nullptr;
    }
    auto* d = new ApplyDialog(m_conn.get(), snap, m_grid->pendingLayout(),
                              m_grid->pendingLayout(true), settings::revertSeconds(), this);
    d->setAttribute(Qt::WA_DeleteOnClose);
    connect(d, &ApplyDialog::outcome, this,
            [this](ApplyReportPtr rep) { m_grid->setOutcomes(*rep); });
    connect(d, &ApplyDialog::routerChanged, this, &MainWindow::refresh);
    m_applyDialog = d;
    d->open();
    return d;
}

void MainWindow::showFailure(quint64 id, const QString& what, const QString& message,
                             bool hostKeyChanged) {
    if (id != 0 && (!m_conn || id != m_conn->id()))
        return; // from a connection the window has left
    qCDebug(lcUi).noquote() << what << "failed:" << message;
    m_lastError = message;
    statusBar()->showMessage(message);
    Q_EMIT failed(message);
    if (m_applyDialog && what != QStringLiteral("read") && what != QStringLiteral("connect"))
        return; // the apply dialog shows its own failures
    if (m_errorBox)
        m_errorBox->close();
    auto* box = new QMessageBox(hostKeyChanged ? QMessageBox::Critical : QMessageBox::Warning,
                                hostKeyChanged ? tr("Host key changed") : tr("coresteer"), message,
                                QMessageBox::Ok, this);
    if (hostKeyChanged)
        box->setInformativeText(
            tr("coresteer did not send anything to this router. If you reinstalled or reflashed "
               "it, remove its old key with <tt>ssh-keygen -R HOST</tt> and connect again. "
               "Otherwise someone may be intercepting the connection."));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setWindowModality(Qt::WindowModal);
    m_errorBox = box;
    box->open();
}

bool MainWindow::loadPreset(const QString& path) {
    QFile file(path);
    std::string error = "cannot read the file";
    std::optional<Preset> p;
    if (file.open(QIODevice::ReadOnly))
        p = parsePreset(file.readAll().toStdString(), &error);
    if (!p) {
        statusBar()->showMessage(
            tr("%1: %2").arg(path, QString::fromStdString(error).toHtmlEscaped()));
        return false;
    }
    showPending(p->layout, QString::fromStdString(p->name));
    if (!path.startsWith(QStringLiteral(":/"))) { // a file, not a built-in one
        settings::addRecentPreset(path);
        rebuildRecentPresets();
    }
    const auto snap = m_grid->snapshot();
    if (snap && p->board != snap->system.boardName)
        statusBar()->showMessage(statusBar()->currentMessage() +
                                 tr(" (made on %1, this is %2)")
                                     .arg(QString::fromStdString(p->board),
                                          QString::fromStdString(snap->system.boardName)));
    return true;
}

void MainWindow::showPending(const Layout& layout, const QString& what) {
    const auto snap = m_grid->snapshot();
    if (!snap)
        return;
    // The layout on a scratch model gives each row's mask; one command sets them all.
    MaskGridModel scratch;
    scratch.setSnapshot(snap);
    const auto unplaced = scratch.setPendingLayout(layout);
    std::map<int, CpuMask> masks;
    for (int r = 0; r < scratch.rowCount(); ++r)
        if (const auto m = scratch.pending(r))
            masks.emplace(r, *m);
    m_gridView->applyMasks(masks, what, m_grid->offGrid(layout));
    // The reasons, which the undo command does not carry, go on the rows as tooltips.
    m_grid->setPendingLayout(layout);
    QString msg = tr("%1: %2 changes").arg(what).arg(m_grid->changedCount());
    if (!unplaced.isEmpty())
        msg += tr("; not on this router: %1").arg(unplaced.join(QStringLiteral(", ")));
    statusBar()->showMessage(msg);
}

void MainWindow::recommend() {
    const auto snap = m_grid->snapshot();
    if (!snap)
        return;
    // With the load the Live tab measured on this router, the planner can propose coalescing.
    PlanGoal goal;
    if (const auto* load = m_livePanel->measuredLoad(*snap))
        goal.load = *load;
    showPending(plan(*snap, goal),
                goal.load ? tr("Recommend (with the load of the last %1 s on the Live tab)")
                                .arg(std::lround(goal.load->seconds))
                          : tr("Recommend"));
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

QString MainWindow::summaryText() const {
    return m_summary->text();
}

void MainWindow::showSnapshot(quint64 id, SnapshotPtr snap) {
    if (!m_conn || id != m_conn->id())
        return; // a late answer from a connection the window has left
    if (m_rememberHost && m_conn->spec().ssh) {
        settings::addRecentHost(m_conn->spec().label);
        m_rememberHost = false;
    }
    m_model->setSnapshot(snap);
    m_cores->setSnapshot(snap);
    m_grid->setSnapshot(snap);
    m_tree->expandAll();
    for (int c = 0; c < m_model->columnCount(); ++c)
        m_tree->resizeColumnToContents(c);

    const auto& s = snap->system;
    QStringList facts;
    facts << tr("<b>%1</b>")
                 .arg(QString::fromStdString(s.hostname.empty() ? snap->origin : s.hostname)
                          .toHtmlEscaped());
    if (!s.model.empty() || !s.boardName.empty())
        facts << QString::fromStdString(s.model.empty() ? s.boardName : s.model).toHtmlEscaped();
    if (s.isOpenWrt())
        facts << tr("OpenWrt %1").arg(QString::fromStdString(s.openwrtRelease).toHtmlEscaped());
    else if (!s.distribution.empty())
        facts << QString::fromStdString(s.distribution).toHtmlEscaped();
    facts << tr("kernel %1").arg(QString::fromStdString(s.kernel).toHtmlEscaped());
    QStringList classes;
    for (const auto& c : snap->topology.classes) {
        // The class's top frequency, where cpufreq gives one.
        std::uint32_t khz = 0;
        for (const auto& cpu : snap->topology.cpus)
            if (c.cpus.test(cpu.id) && cpu.maxFreqKHz)
                khz = std::max(khz, *cpu.maxFreqKHz);
        QString item = QStringLiteral("%1 %2").arg(QString::fromStdString(c.name),
                                                   QString::fromStdString(c.cpus.toList()));
        if (khz)
            item += QStringLiteral(" (%1 GHz)").arg(khz / 1e6, 0, 'f', 1);
        classes << item;
    }
    facts << tr("cores: %1").arg(classes.join(QStringLiteral(", ")));
    QString text = facts.join(QStringLiteral(" &middot; "));
    for (const auto& c : detectConflicts(*snap))
        text += QStringLiteral("<br>%1<b>%2</b>: %3 <i>%4</i>%5")
                    .arg(c.blocking ? QStringLiteral("<span style='color:#b00'>") : QString(),
                         QString::fromStdString(c.title).toHtmlEscaped(),
                         QString::fromStdString(c.detail).toHtmlEscaped(),
                         QString::fromStdString(c.suggestion).toHtmlEscaped(),
                         c.blocking ? QStringLiteral("</span>") : QString());
    m_summary->setText(text);

    QStringList lines;
    for (const auto& d : snap->diagnostics.entries())
        lines << QString::fromStdString(d.toString());
    m_warnings->setPlainText(lines.join(QLatin1Char('\n')));
    m_warnings->setVisible(!lines.isEmpty()); // only when there is something to say
    setWindowTitle(tr("coresteer - %1").arg(m_conn->spec().label));
    statusBar()->showMessage(tr("%1 interfaces, %2 IRQs, %3 warnings")
                                 .arg(snap->interfaces.size())
                                 .arg(snap->irqs.size())
                                 .arg(snap->diagnostics.entries().size()));
    updateActions();
    if (!m_liveStarted) {
        m_liveStarted = true;
        if (m_conn->spec().replay && m_replay) {
            m_livePanel->startReplay(m_replay, snap, m_replaySpeed);
        } else if (m_conn->spec().replay) {
            m_livePanel->reset(snap, settings::refreshHz(), m_conn->spec().label); // a capture
        } else {
            m_livePanel->reset(snap, settings::refreshHz(), m_conn->spec().label);
            m_conn->startLive(settings::refreshHz(), snap);
        }
    }
    Q_EMIT snapshotShown();
}

} // namespace coresteer::ui

// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The window itself: its parts built and its geometry kept, the actions' state, a snapshot
// shown (summary, conflicts, warnings, the models), failures, and Preferences.
#include "ui/mainwindow.h"

#include "core/model/conflicts.h"
#include "ui/dialogs/preferencesdialog.h"
#include "ui/live/livepanel.h"
#include "ui/logging.h"
#include "ui/models/coremodel.h"
#include "ui/models/maskgridmodel.h"
#include "ui/models/snapshotmodel.h"
#include "ui/settings.h"
#include "ui/views/maskgridview.h"

#include <QCloseEvent>
#include <QLabel>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScreen>
#include <QSettings>
#include <QStatusBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QTreeView>
#include <QUndoStack>

#include <algorithm>

namespace coresteer::ui {

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
    wireLivePanel();
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
    // A tune's candidate may be in force on the router: its revert first, at once.
    if (!stopTuneFirst(true)) {
        event->ignore();
        return;
    }
    QSettings st;
    st.setValue(QStringLiteral("window/geometry"), saveGeometry());
    st.setValue(QStringLiteral("window/state"), saveState());
    QMainWindow::closeEvent(event);
}

void MainWindow::updateActions() {
    // A recording's snapshot is history: nothing is applied to it.
    if (m_applyAction)
        m_applyAction->setEnabled(m_conn && !m_conn->spec().replay && m_grid->snapshot() &&
                                  m_grid->changedCount() > 0 && !m_tuning);
    if (m_tuneAction)
        m_tuneAction->setEnabled(m_conn && !m_conn->spec().replay && m_grid->snapshot());
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

// Preferences edits what the settings hold; what it accepts is kept, and the Live tab gets its
// part (the refresh rate counts from the next connection).
PreferencesDialog* MainWindow::openPreferences() {
    auto* d = new PreferencesDialog({settings::revertSeconds(), settings::refreshHz(),
                                     settings::loadTargets(), settings::beyondHosts()},
                                    this);
    d->setAttribute(Qt::WA_DeleteOnClose);
    connect(d, &QDialog::accepted, this, [this, d] {
        const auto& p = d->preferences();
        settings::setRevertSeconds(p.revertSeconds);
        settings::setRefreshHz(p.refreshHz);
        settings::setLoadTargets(p.loadTargets);
        settings::setBeyondHosts(p.beyondHosts);
        handSettingsToLive();
    });
    d->open();
    return d;
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
    startLive(snap);
    Q_EMIT snapshotShown();
}

} // namespace coresteer::ui

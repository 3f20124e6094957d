// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The pieces MainWindow's constructor builds: its centre, menus, tool bar and status bar.
#include "ui/mainwindow.h"

#include "core/layout/layout_json.h"
#include "ui/dialogs/comparedialog.h"
#include "ui/live/livepanel.h"
#include "ui/models/coremodel.h"
#include "ui/models/maskgridmodel.h"
#include "ui/models/snapshotmodel.h"
#include "ui/views/maskgridview.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QHeaderView>
#include <QKeySequence>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QStatusBar>
#include <QStyle>
#include <QTabWidget>
#include <QTableView>
#include <QToolBar>
#include <QTreeView>
#include <QUndoStack>
#include <QVBoxLayout>

namespace coresteer::ui {

using namespace coresteer::layout;

// The summary and the cores above; the mask grid, the live view and the details in tabs; the
// warnings below.
void MainWindow::buildCentre() {
    m_tree->setModel(m_model);
    m_tree->setAlternatingRowColors(true);
    m_tree->setUniformRowHeights(true);
    m_coreView->setModel(m_cores);
    m_coreView->verticalHeader()->hide();
    m_coreView->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_coreView->horizontalHeader()->setStretchLastSection(true); // the table takes the width
    // The governor a pending layout sets shows in the CPU table; right-click chooses it.
    connect(m_grid, &MaskGridModel::extrasChanged, this,
            [this] { m_cores->setPendingGovernors(m_grid->extras().governors); });
    m_coreView->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_coreView, &QWidget::customContextMenuRequested, this, &MainWindow::governorMenu);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary->setWordWrap(true);
    m_warnings->setReadOnly(true);
    m_warnings->setMaximumBlockCount(500);
    m_warnings->setObjectName(QStringLiteral("warnings"));
    m_warnings->hide(); // shown when a snapshot has something to say

    auto* top = new QWidget;
    auto* topLayout = new QVBoxLayout(top);
    topLayout->addWidget(m_summary);
    topLayout->addWidget(m_coreView);
    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(top);
    auto* tabs = new QTabWidget;
    tabs->addTab(m_gridView, tr("Masks"));
    tabs->addTab(m_livePanel, tr("Live"));
    tabs->addTab(m_tree, tr("Details"));
    split->addWidget(tabs);
    split->addWidget(m_warnings);
    split->setStretchFactor(1, 3);
    split->setSizes({200, 560, 80}); // the grid is the centre
    setCentralWidget(split);
}

// Router: where the snapshot comes from.
void MainWindow::buildRouterMenu() {
    auto* file = menuBar()->addMenu(tr("&Router"));
    m_connectAction = file->addAction(tr("&Connect..."), this, &MainWindow::connectDialog);
    m_connectAction->setShortcut(QKeySequence(tr("Ctrl+K")));
    m_connectAction->setToolTip(tr("Connect to a router over SSH"));
    file->addAction(tr("&Demo router"), this, &MainWindow::openDemo)
        ->setToolTip(tr("A NanoPi R6S, built in: everything works on a private copy"));
    file->addAction(tr("&This computer"), this, &MainWindow::openThisComputer)
        ->setToolTip(tr("This machine's own /proc and /sys (changes need root)"));
    auto* open = file->addAction(tr("&Open root directory..."), this, &MainWindow::openRoot);
    open->setShortcut(QKeySequence::Open);
    file->addAction(tr("Open &capture..."), this,
                    [this] {
                        const auto f = QFileDialog::getOpenFileName(
                            this, tr("Open a capture"), QString(),
                            tr("coresteer captures (*.capture);;All files (*)"));
                        if (!f.isEmpty())
                            openCapture(f);
                    })
        ->setToolTip(tr("A file saved by coresteer-cli capture: read-only, nothing to apply"));
    m_reloadAction = file->addAction(tr("&Reload"), this, &MainWindow::refresh);
    m_reloadAction->setShortcut(QKeySequence::Refresh);
    file->addSeparator();
    auto* quit = file->addAction(tr("&Quit"), qApp, &QApplication::quit);
    quit->setShortcut(QKeySequence::Quit);
}

// Edit: undo and redo of grid edits, the preferences.
void MainWindow::buildEditMenu() {
    auto* edit = menuBar()->addMenu(tr("&Edit"));
    m_undoAction = m_undo->createUndoAction(this, tr("&Undo"));
    m_undoAction->setShortcut(QKeySequence::Undo);
    m_redoAction = m_undo->createRedoAction(this, tr("&Redo"));
    m_redoAction->setShortcut(QKeySequence::Redo);
    edit->addAction(m_undoAction);
    edit->addAction(m_redoAction);
    edit->addSeparator();
    edit->addAction(tr("&Preferences..."), this, &MainWindow::openPreferences);
}

// Recording: open, compare, the built-in samples, save and export (also as the Live tab's
// buttons).
void MainWindow::buildRecordingMenu() {
    auto* recording = menuBar()->addMenu(tr("Re&cording"));
    recording->addAction(tr("&Open recording..."), this, [this] {
        const auto f = QFileDialog::getOpenFileName(this, tr("Open a recording"), QString(),
                                                    tr("coresteer recordings (*.csrec)"));
        if (!f.isEmpty())
            openRecording(f);
    });
    recording->addAction(tr("&Compare recordings..."), this, [this] {
        const auto before = QFileDialog::getOpenFileName(
            this, tr("The recording before"), QString(), tr("coresteer recordings (*.csrec)"));
        if (before.isEmpty())
            return;
        const auto after = QFileDialog::getOpenFileName(this, tr("The recording after"), QString(),
                                                        tr("coresteer recordings (*.csrec)"));
        if (!after.isEmpty())
            if (auto* d = compareRecordings(before, after))
                d->show();
    });
    recording
        ->addAction(tr("Sample: the demo &before and after Recommend"), this,
                    [this] {
                        if (auto* d = compareRecordings(
                                QStringLiteral(":/recordings/r6s-demo-before.csrec"),
                                QStringLiteral(":/recordings/r6s-demo-after.csrec")))
                            d->show();
                    })
        ->setToolTip(
            tr("Two recordings made by coresteer of a bufferbloat test on the R6S under the "
               "demo's traffic model, before and after Recommend"));
    recording->addAction(tr("Sample: &replay the demo's recording"), this, [this] {
        openRecording(QStringLiteral(":/recordings/r6s-demo-before.csrec"));
    });
    recording->addSeparator();
    auto exporter = [this](const QString& title, const QString& filter, const QString& suffix,
                           bool (LivePanel::*save)(const QString&, QString*) const) {
        return [this, title, filter, suffix, save] {
            auto f = QFileDialog::getSaveFileName(this, title, QString(), filter);
            if (f.isEmpty())
                return;
            if (!f.endsWith(suffix))
                f += suffix;
            QString error;
            if ((m_livePanel->*save)(f, &error))
                statusBar()->showMessage(tr("Saved %1").arg(f));
            else
                showFailure(m_conn ? m_conn->id() : 0, QStringLiteral("save"), error, false);
        };
    };
    m_recordingActions << recording->addAction(
        tr("&Save recording..."), this,
        exporter(tr("Save the recording"), tr("coresteer recordings (*.csrec)"),
                 QStringLiteral(".csrec"), &LivePanel::saveRecording));
    m_recordingActions << recording->addAction(tr("Export &CSV..."), this,
                                               exporter(tr("Export the recording as CSV"),
                                                        tr("CSV (*.csv)"), QStringLiteral(".csv"),
                                                        &LivePanel::exportCsv));
    m_recordingActions << recording->addAction(tr("Export &PNG..."), this,
                                               exporter(tr("Export the recording as a picture"),
                                                        tr("PNG (*.png)"), QStringLiteral(".png"),
                                                        &LivePanel::exportPng));
    m_recordingActions << recording->addAction(tr("Compare &with..."), this, [this] {
        const auto f = QFileDialog::getOpenFileName(this, tr("Compare this test with"), QString(),
                                                    tr("coresteer recordings (*.csrec)"));
        if (!f.isEmpty())
            if (auto* d = compareWith(f))
                d->show();
    });
    m_recordingActions.back()->setToolTip(
        tr("This test beside a saved recording: the one before a change, say"));
    for (auto* a : m_recordingActions)
        a->setEnabled(false);
    m_livePanel->setRecordingActions(m_recordingActions);
    // The live view as it is, test or not: where the person is, beside the test's button.
    recording->addSeparator();
    QList<QAction*> view;
    view << recording->addAction(tr("Save the live &view as PNG..."), this,
                                 exporter(tr("Save the live view as a picture"), tr("PNG (*.png)"),
                                          QStringLiteral(".png"), &LivePanel::saveViewPng));
    view.back()->setIconText(tr("View as PNG"));
    view.back()->setToolTip(tr("A picture of the whole Live tab as it is now"));
    view << recording->addAction(tr("Export the live view's sa&mples as CSV..."), this,
                                 exporter(tr("Export the live view's samples"), tr("CSV (*.csv)"),
                                          QStringLiteral(".csv"), &LivePanel::exportSamplesCsv));
    view.back()->setIconText(tr("Samples as CSV"));
    view.back()->setToolTip(tr("Every sample the live view holds (up to an hour): each core's "
                               "shares and each NIC interrupt's rate"));
    m_livePanel->setViewActions(view);
}

// Layout: the planner's recommendation, discarding pending changes, apply.
void MainWindow::buildLayoutMenu() {
    auto* layout = menuBar()->addMenu(tr("&Layout"));
    m_recommendAction = layout->addAction(tr("&Recommend"), this, &MainWindow::recommend);
    m_recommendAction->setToolTip(
        tr("Show the planner's layout for this router as pending changes"));
    layout->addAction(tr("&Discard pending changes"), this, [this] {
        std::map<int, CpuMask> masks;
        for (int r = 0; r < m_grid->rowCount(); ++r)
            if (const auto c = m_grid->current(r))
                masks.emplace(r, *c);
        m_gridView->applyMasks(masks, tr("Discard pending changes"), Layout{});
    });
    layout->addSeparator();
    m_applyAction = layout->addAction(tr("&Apply..."), this, &MainWindow::openApplyDialog);
    m_applyAction->setShortcut(QKeySequence(tr("Ctrl+Return")));
    m_applyAction->setToolTip(tr("Review the pending changes, apply them with an automatic "
                                 "revert, and make them persistent"));
    m_tuneAction =
        layout->addAction(tr("&Find the best layout..."), this, &MainWindow::openTuneDialog);
    m_tuneAction->setToolTip(tr("Try the planner's layouts, the presets and your own on the "
                                "router under load, and keep the one that measurably wins"));
}

// The everyday actions, one click away.
void MainWindow::buildToolBar() {
    auto* bar = addToolBar(tr("Main"));
    bar->setObjectName(QStringLiteral("mainToolBar"));
    bar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_connectAction->setIcon(style()->standardIcon(QStyle::SP_DriveNetIcon));
    m_reloadAction->setIcon(style()->standardIcon(QStyle::SP_BrowserReload));
    m_undoAction->setIcon(style()->standardIcon(QStyle::SP_ArrowBack));
    m_redoAction->setIcon(style()->standardIcon(QStyle::SP_ArrowForward));
    m_applyAction->setIcon(style()->standardIcon(QStyle::SP_DialogApplyButton));
    bar->addAction(m_connectAction);
    bar->addAction(m_reloadAction);
    bar->addSeparator();
    bar->addAction(m_undoAction);
    bar->addAction(m_redoAction);
    bar->addSeparator();
    bar->addAction(m_recommendAction);
    bar->addAction(m_applyAction);
}

// Presets: the built-in ones (each with its note), open, save, recent.
void MainWindow::buildPresetsMenu() {
    auto* presets = menuBar()->addMenu(tr("&Presets"));
    presets->setToolTipsVisible(true); // each preset's note: what it does, its source, its numbers
    for (const auto& f : QDir(QStringLiteral(":/presets")).entryList({QStringLiteral("*.json")})) {
        QFile in(QStringLiteral(":/presets/") + f);
        if (!in.open(QIODevice::ReadOnly))
            continue;
        const auto p = parsePreset(in.readAll().toStdString(), nullptr);
        if (!p)
            continue;
        auto* a = presets->addAction(QString::fromStdString(p->name), this,
                                     [this, f] { loadPreset(QStringLiteral(":/presets/") + f); });
        a->setToolTip(QString::fromStdString(p->note));
        a->setStatusTip(QString::fromStdString(p->board));
    }
    presets->addSeparator();
    presets->addAction(tr("&Open preset..."), this, [this] {
        const auto f = QFileDialog::getOpenFileName(this, tr("Open a preset"), QString(),
                                                    tr("coresteer presets (*.json)"));
        if (!f.isEmpty())
            loadPreset(f);
    });
    presets->addAction(tr("&Save as..."), this, [this] {
        auto f = QFileDialog::getSaveFileName(this, tr("Save the layout as a preset"), QString(),
                                              tr("coresteer presets (*.json)"));
        if (f.isEmpty())
            return;
        if (!f.endsWith(QStringLiteral(".json")))
            f += QStringLiteral(".json");
        savePreset(f);
    });
    m_recentPresets = presets->addMenu(tr("&Recent"));
    rebuildRecentPresets();
}

// The status bar: the live summary and Cancel.
void MainWindow::buildStatusBar() {
    m_cancel->setToolTip(tr("Stop what the connection is doing"));
    m_cancel->hide();
    connect(m_cancel, &QPushButton::clicked, this, &MainWindow::cancel);
    statusBar()->addPermanentWidget(m_liveLabel);
    statusBar()->addPermanentWidget(m_cancel);
    m_liveLabel->setToolTip(tr("Live: the busiest core and the traffic, sampled from the router"));
}

} // namespace coresteer::ui

// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The layout the grid holds and where it goes: presets loaded and saved (and the recent ones),
// the planner's Recommend (with the load the Live tab measured), governors chosen in the CPU
// table, and the apply dialog wired to the router's connection.
#include "ui/mainwindow.h"

#include "core/base/json_text.h"
#include "core/layout/layout_json.h"
#include "core/layout/planner.h"
#include "ui/live/livepanel.h"
#include "ui/models/coremodel.h"
#include "ui/models/maskgridmodel.h"
#include "ui/settings.h"
#include "ui/views/maskgridview.h"

#include <QAction>
#include <QFile>
#include <QMenu>
#include <QSaveFile>
#include <QStatusBar>
#include <QTableView>

#include <algorithm>
#include <cmath>

namespace coresteer::ui {

using namespace coresteer::layout;

void MainWindow::rebuildRecentPresets() {
    m_recentPresets->clear();
    const auto files = settings::recentPresets();
    for (const auto& f : files)
        m_recentPresets->addAction(f, this, [this, f] { loadPreset(f); });
    m_recentPresets->setEnabled(!files.isEmpty());
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

void MainWindow::governorMenu(const QPoint& pos) {
    const auto index = m_coreView->indexAt(pos);
    const auto* p = index.isValid() ? m_cores->policyOf(index.row()) : nullptr;
    if (!p || p->available.empty())
        return;
    QMenu menu(this);
    menu.addSection(tr("Governor of cpufreq policy%1 (CPU %2)")
                        .arg(p->id)
                        .arg(QString::fromStdString(p->cpus.toList())));
    const auto pending =
        m_cores->index(index.row(), CoreModel::Governor).data(CoreModel::RawValueRole).toString();
    auto* keep = menu.addAction(tr("As it is (%1)").arg(QString::fromStdString(p->governor)));
    connect(keep, &QAction::triggered, this,
            [this, row = index.row()] { chooseGovernor(row, {}); });
    menu.addSeparator();
    for (const auto& g : p->available) {
        const auto name = QString::fromStdString(g);
        auto* a = menu.addAction(name);
        a->setCheckable(true);
        a->setChecked(name == pending);
        connect(a, &QAction::triggered, this,
                [this, row = index.row(), name] { chooseGovernor(row, name); });
    }
    menu.exec(m_coreView->viewport()->mapToGlobal(pos));
}

bool MainWindow::chooseGovernor(int row, const QString& governor) {
    const auto* p = m_cores->policyOf(row);
    const auto g = governor.toStdString();
    if (!p || (!g.empty() &&
               std::find(p->available.begin(), p->available.end(), g) == p->available.end()))
        return false;
    auto extras = m_grid->extras();
    auto& list = extras.governors;
    list.erase(std::remove_if(list.begin(), list.end(),
                              [&](const GovernorTarget& t) { return t.policy == p->id; }),
               list.end());
    if (!g.empty() && g != p->governor)
        list.push_back({p->id, g, "Chosen in the CPU table."});
    m_gridView->applyMasks({}, tr("Governor of policy%1").arg(p->id), std::move(extras));
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
    if (m_tuning) {
        statusBar()->showMessage(tr("The tuner is trying layouts on the router: apply when it "
                                    "ends."));
        return nullptr;
    }
    auto* c = m_conn.get();
    auto* d = new ApplyDialog(c->spec().label, c->spec().root, snap, m_grid->pendingLayout(),
                              m_grid->pendingLayout(true), settings::revertSeconds(), this);
    d->setAttribute(Qt::WA_DeleteOnClose);
    // What the dialog asks, this connection runs, and its answers go back to the dialog (a
    // connection the window leaves takes its connections to the dialog with it).
    connect(d, &ApplyDialog::applyRequested, c, &Connection::apply);
    connect(d, &ApplyDialog::settleRequested, c, &Connection::settle);
    connect(d, &ApplyDialog::persistRequested, c, &Connection::persist);
    connect(c, &Connection::applied, d, [d](quint64, ApplyReportPtr r) { d->onApplied(r); });
    connect(c, &Connection::settled, d, [d](quint64, PendingAction a) { d->onSettled(a); });
    connect(c, &Connection::persisted, d, [d](quint64, PersistReportPtr r) { d->onPersisted(r); });
    connect(c, &Connection::failed, d,
            [d](quint64, const QString& what, const QString& message, bool) {
                d->onFailed(what, message);
            });
    connect(d, &ApplyDialog::outcome, this,
            [this](ApplyReportPtr rep) { m_grid->setOutcomes(*rep); });
    connect(d, &ApplyDialog::routerChanged, this, &MainWindow::refresh);
    m_applyDialog = d;
    d->open();
    return d;
}

} // namespace coresteer::ui

// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The apply dialog: review, apply at runtime with an automatic revert, keep or revert, then
// make persistent.
//
// Review shows the diff, the exact script that will run on the router, and the persistent files
// persist would write, all read-only. Apply runs that script; the router arms its own revert,
// and the dialog counts down to it with Keep and Revert. Keep confirms; only then does Make
// persistent write the boot-time files. The dialog runs nothing itself: it asks
// (applyRequested, settleRequested, persistRequested), and the window passes each request to the
// router's connection and each of that connection's answers back (onApplied, onSettled,
// onPersisted, onFailed). The per-target outcome also goes to the grid (outcome()).
#pragma once

#include "core/layout/apply.h"
#include "core/layout/layout.h"
#include "core/layout/persist.h"
#include "ui/base/reports.h"
#include "ui/base/snapshotptr.h"

#include <QDialog>
#include <QElapsedTimer>

#include <optional>
#include <string>
#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTabWidget;
class QTimer;
class QTreeWidget;

namespace coresteer::ui {

class ApplyDialog : public QDialog {
    Q_OBJECT
public:
    enum class Stage {
        Review,
        Applying,
        Countdown,
        Settling,
        Kept,
        Reverted,
        Persisting,
        Persisted,
        Failed
    };

    // For the router named `router` (as the window names it) whose files are under `root`.
    // `changes`: the rows that change (what runs now); `full`: every row as it will be (what
    // persist writes, so that the boot-time file covers the whole arrangement).
    ApplyDialog(const QString& router, const QString& root, SnapshotPtr snapshot,
                const layout::Layout& changes, const layout::Layout& full, int revertSeconds,
                QWidget* parent = nullptr);

    Stage stage() const { return m_stage; }
    int secondsLeft() const;
    QString statusText() const;
    const layout::ApplyScript& script() const { return m_script; }
    const std::optional<layout::PersistPlan>& persistPlan() const { return m_plan; }

    QPushButton* applyButton() const { return m_apply; }
    QPushButton* keepButton() const { return m_keep; }
    QPushButton* revertButton() const { return m_revert; }
    QPushButton* persistButton() const { return m_persist; }
    QTreeWidget* changesView() const { return m_changes; }
    QPlainTextEdit* scriptView() const { return m_scriptView; }
    QPlainTextEdit* filesView() const { return m_filesView; }
    // What persist does about irqbalance, where it runs or is enabled (hidden elsewhere):
    // leave it, ban the layout's IRQs in it (the default), or stop and disable it.
    enum class IrqbalanceChoice { Leave, Ban, Disable };
    QComboBox* irqbalanceBox() const { return m_irqbalance; }
    void setIrqbalanceChoice(IrqbalanceChoice c);
    // Disable the boot scripts that rewrite masks (and follow rc.local), where there are any.
    QCheckBox* bootScriptsBox() const { return m_bootScripts; }

    // The router's answers to what the dialog asked; `what` names the request that failed
    // ("apply", "confirm", "revert", "persist").
    void onApplied(coresteer::ui::ApplyReportPtr report);
    void onSettled(coresteer::layout::PendingAction action);
    void onPersisted(coresteer::ui::PersistReportPtr report);
    void onFailed(const QString& what, const QString& message);

Q_SIGNALS:
    // What the person asked the router to run: exactly the script shown, over its writes; keep
    // or revert; the persistent files.
    void applyRequested(const coresteer::layout::ApplyScript& script,
                        const std::vector<coresteer::layout::Write>& writes);
    void settleRequested(coresteer::layout::PendingAction action);
    void persistRequested(const coresteer::layout::PersistScript& script);
    void outcome(coresteer::ui::ApplyReportPtr report);
    // The router's values changed (applied, reverted, restored by its timer): read it again.
    void routerChanged();

protected:
    void reject() override;

private:
    void setStage(Stage s, const QString& text);
    void tick();
    // The persist plan for the layout and the irqbalance choice, and its preview.
    void planPersistence();

    std::string m_root; // the router's, where its files are
    SnapshotPtr m_snap;
    layout::Resolution m_resolution;
    std::vector<layout::Write> m_writes;
    layout::ApplyScript m_script;
    layout::Layout m_full;
    std::optional<layout::PersistPlan> m_plan;
    QString m_planError;
    int m_revertSeconds;
    Stage m_stage = Stage::Review;
    QElapsedTimer m_since;
    QTimer* m_timer;
    QLabel* m_summary;
    QLabel* m_status;
    QTabWidget* m_tabs;
    QTreeWidget* m_changes;
    QPlainTextEdit* m_scriptView;
    QPlainTextEdit* m_filesView;
    QPushButton* m_apply;
    QPushButton* m_keep;
    QPushButton* m_revert;
    QPushButton* m_persist;
    QPushButton* m_close;
    QComboBox* m_irqbalance;
    QCheckBox* m_bootScripts;
};

} // namespace coresteer::ui

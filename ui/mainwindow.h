// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The main window: one router at a time (the demo, this computer, a tree, or an SSH router),
// its summary and cores, the mask grid, and the apply, preset and connection actions.
//
// It is the one place that knows the connection and the settings: it wires the connection's
// answers to the models, the Live tab and the apply dialog, and hands them what the settings
// hold. Its files by job: mainwindow.cpp (the window, a snapshot shown, failures, preferences),
// mainwindow_build.cpp (menus and bars), mainwindow_open.cpp (where a router comes from),
// mainwindow_live.cpp (the Live tab and the live read-out), mainwindow_layout.cpp (presets,
// Recommend, governors, apply) and mainwindow_tune.cpp (Find the best layout: the tuner).
#pragma once

#include "core/layout/layout.h"
#include "core/live/bottleneck.h"
#include "core/live/recording.h"
#include "ui/connection.h"
#include "ui/dialogs/applydialog.h"
#include "ui/dialogs/tunedialog.h"

#include <QMainWindow>
#include <QMessageBox>
#include <QPointer>

#include <memory>

class QLabel;
class QMenu;
class QPlainTextEdit;
class QPushButton;
class QTemporaryDir;
class QTreeView;
class QTableView;
class QUndoStack;

namespace coresteer::ui {

class CoreModel;
class CompareDialog;
class LivePanel;
class MaskGridModel;
class MaskGridView;
class PreferencesDialog;
class SnapshotModel;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // The built-in demo router: the NanoPi R6S capture, laid out in a private temporary
    // directory. Apply and persist work on that copy; nothing touches the network.
    void openDemo();
    // This machine's own /proc and /sys (read-only unless run as root).
    void openThisComputer();
    // A /proc and /sys tree on this machine (a fixture root, a copy of a router).
    void loadRoot(const QString& root, const QString& label = {});
    // Any connection: SSH or local. Drops the current one; its late answers are ignored.
    void openConnection(Connection::Spec spec);
    // Asks for a router with the Connect dialog and connects to it.
    void connectDialog();
    // Reads the current router again.
    void refresh();
    // Stops the current connection's work (within 200 ms) and drops it.
    void cancel();

    // Opens a recording: its snapshot in the grid and the views, and its samples replayed in
    // the Live tab at `speed` times their pace (0: all at once). False with a message.
    bool openRecording(const QString& file, double speed = 1);
    // A capture (coresteer-cli capture), read-only: no live sampling, no apply.
    bool openCapture(const QString& file);
    // Before and after, side by side (nullptr with a message when a file does not read).
    CompareDialog* compareRecordings(const QString& before, const QString& after);
    // The Live tab's recording (the test just run, or the one replayed) beside `before`.
    CompareDialog* compareWith(const QString& before);

    // Shows the planner's layout for this router as pending, as one undoable step.
    void recommend();
    // Shows a preset file's layout as pending (one undoable step); a preset made on another
    // board, and the targets it has that this router lacks, are named in the status bar.
    // False with a message there when the file is not a preset.
    bool loadPreset(const QString& file);
    // Saves the grid as it would be after apply (every row's pending mask) as a preset.
    bool savePreset(const QString& file);
    // Sets the cpufreq governor that the pending layout gives the policy of the CPU table's
    // `row`, as one undoable step; an empty `governor` leaves the policy's as it is. False when
    // the row has no policy or the policy does not offer the governor.
    bool chooseGovernor(int row, const QString& governor);
    // Opens the apply dialog for the pending changes (nullptr when there is nothing to apply).
    ApplyDialog* openApplyDialog();
    // Opens Preferences over the settings; what it accepts is kept and handed to the Live tab.
    PreferencesDialog* openPreferences();
    // Layout > Find the best layout: the tuner's dialog over this router's candidates (the
    // grid's pending edits among them), run on its connection (nullptr with a message for a
    // recording or a capture, which cannot be tuned).
    TuneDialog* openTuneDialog();
    TuneDialog* tuneDialog() const { return m_tuneDialog; }

    Connection* connection() const { return m_conn.get(); }
    // Who answers the connection's questions (host keys, passwords); tests put their own.
    void setPrompts(Prompts* prompts) { m_prompts = prompts; }
    SnapshotModel* snapshotModel() const { return m_model; }
    CoreModel* coreModel() const { return m_cores; }
    MaskGridModel* gridModel() const { return m_grid; }
    MaskGridView* gridView() const { return m_gridView; }
    QUndoStack* undoStack() const { return m_undo; }
    QPushButton* cancelButton() const { return m_cancel; }
    LivePanel* livePanel() const { return m_livePanel; }
    ApplyDialog* applyDialog() const { return m_applyDialog; }
    QMessageBox* errorBox() const { return m_errorBox; }
    QString lastError() const { return m_lastError; }
    QAction* applyAction() const { return m_applyAction; }
    QAction* tuneAction() const { return m_tuneAction; }
    QString summaryText() const;
    // The live read-out in the status bar: the hottest core and the throughput.
    QString liveText() const;

Q_SIGNALS:
    void snapshotShown();
    void failed(const QString& message);

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    // The pieces the constructor builds (mainwindow_build.cpp).
    void buildCentre();
    void governorMenu(const QPoint& pos);
    void buildRouterMenu();
    void buildEditMenu();
    void buildRecordingMenu();
    void buildLayoutMenu();
    void buildToolBar();
    void buildPresetsMenu();
    void buildStatusBar();
    // Lays `capture` (the demo's, a recording's or a capture file's snapshot, `firstLine` on in
    // `file`) out in a private directory and opens it; a refusal names the file and the line.
    bool layOutAndOpen(std::string_view capture, int firstLine, const QString& file,
                       Connection::Spec spec);
    // The current connection goes (its thread joined, a tune there cancelled), with its dialogs.
    void dropConnection();
    void showSnapshot(quint64 id, SnapshotPtr snap);
    void showFailure(quint64 id, const QString& what, const QString& message, bool hostKeyChanged);
    // The Live tab and the live read-out (mainwindow_live.cpp): the tab's requests to the
    // connection and its changes to the settings; a new connection's live answers to the tab;
    // the live view of the first snapshot.
    void wireLivePanel();
    void wireLive(Connection* connection);
    void startLive(const SnapshotPtr& snap);
    void showLive(quint64 id, RatesPtr rates);
    void handSettingsToLive();
    void enableRecordingActions();
    void openRoot();
    void showPending(const layout::Layout& layout, const QString& what);
    void rebuildRecentPresets();
    void updateActions();
    void endTuning(); // the tuner's run ended: the router may be asked again
    // A tune running on the connection: (when `ask`, the person agrees, or false) cancelled,
    // and its revert to the baseline waited for, 30 s at most (then the router's timer has it).
    bool stopTuneFirst(bool ask);

    Prompts* m_prompts;
    std::unique_ptr<Connection> m_conn;
    quint64 m_nextId = 0;
    std::unique_ptr<QTemporaryDir> m_demoDir;        // the demo's tree, or a recording's snapshot
    std::shared_ptr<const live::Recording> m_replay; // opened, replayed once its snapshot shows
    double m_replaySpeed = 1;
    QList<QAction*> m_recordingActions; // enabled when there is a recording to save
    bool m_rememberHost = false;
    SnapshotModel* m_model;
    CoreModel* m_cores;
    MaskGridModel* m_grid;
    QUndoStack* m_undo;
    MaskGridView* m_gridView;
    QTreeView* m_tree;
    QTableView* m_coreView;
    QLabel* m_summary;
    QPlainTextEdit* m_warnings;
    QPushButton* m_cancel;
    QLabel* m_liveLabel;
    LivePanel* m_livePanel;
    bool m_liveStarted = false;
    live::RecentLoad m_recentLoad; // the last second's load, for the bottleneck label
    QMenu* m_recentPresets = nullptr;
    QAction* m_applyAction = nullptr;
    QAction* m_connectAction = nullptr;
    QAction* m_reloadAction = nullptr;
    QAction* m_undoAction = nullptr;
    QAction* m_redoAction = nullptr;
    QAction* m_recommendAction = nullptr;
    QAction* m_tuneAction = nullptr;
    QPointer<ApplyDialog> m_applyDialog;
    QPointer<TuneDialog> m_tuneDialog;
    bool m_tuning = false; // a tune runs on the connection: nothing else is asked of the router
    QPointer<QMessageBox> m_errorBox;
    QString m_lastError;
};

} // namespace coresteer::ui

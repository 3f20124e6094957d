// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// Layout > Find the best layout: the tuner (core/measure/tuner.h) for the person.
//
// Setup: the candidates, a checkable list of what gatherCandidates() found (the router's
// current layout, always in, as the baseline; the planner's recommendation and alternatives; the
// board's presets; the grid's pending edits when there are any), each with what it changes and
// why it may win, and more from layout or preset files ("Add from file..."); the load (an iperf3
// server or HTTP(S) URLs beyond the router, as the Live tab's test takes them; on the demo its
// model is the load), its phases and their length, the idle spell, the margin, the time
// budget (the plan it allows, said before Start) and the objective. Start asks for the run
// (startRequested); the window runs it on the router's connection, whose worker runs the tuner,
// and passes its progress, trials and result back (onProgress, onTrial, onFinished, onFailed),
// as the apply dialog is run.
//
// While it runs: the block, trial and candidate, and the time left; Cancel asks for the end
// (cancelRequested: the tuner puts the baseline back). After: the result as a table and a plot
// (tuneview.h), the verdict (decided or not), the winner highlighted; "Apply the winner..."
// hands its layout to the usual apply flow (applyWinnerRequested), and the whole run's
// recording can be saved as the Live tab's are.
#pragma once

#include "core/measure/candidates.h"
#include "ui/base/measurements.h"
#include "ui/base/snapshotptr.h"

#include <QDialog>
#include <QStringList>

#include <nlohmann/json.hpp>

#include <optional>
#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QSplitter;
class QStackedWidget;
class QTreeWidget;

namespace coresteer::ui {

class TunePlot;
class TuneTable;

class TuneDialog : public QDialog {
    Q_OBJECT
public:
    enum class Stage { Setup, Running, Cancelling, Done, Failed };

    // For the router named `router`, read as `snapshot`: `candidates` as gatherCandidates()
    // gave them (the baseline first) and `notes`, what it left out; `loadTargets` the load
    // targets the settings keep; `modelled`: the demo, whose model is the load.
    TuneDialog(const QString& router, SnapshotPtr snapshot,
               std::vector<measure::Candidate> candidates, const QStringList& notes,
               const QStringList& loadTargets, bool modelled, QWidget* parent = nullptr);

    Stage stage() const { return m_stage; }
    // The setup.
    QTreeWidget* candidateList() const { return m_list; }
    QComboBox* loadBox() const { return m_load; }
    QSpinBox* streamsBox() const { return m_streams; }
    QCheckBox* downloadBox() const { return m_download; }
    QCheckBox* uploadBox() const { return m_upload; }
    QCheckBox* bothBox() const { return m_both; }
    QSpinBox* phaseSecondsBox() const { return m_phaseSeconds; }
    QSpinBox* idleSecondsBox() const { return m_idleSeconds; }
    QSpinBox* marginBox() const { return m_margin; }
    // Before Start: the plan's trials and time, and whether the budget fits them.
    QString planText() const;
    QSpinBox* budgetBox() const { return m_budget; }
    QComboBox* objectiveBox() const { return m_objective; }
    // Shown where irqbalance runs on the router: the run starts only when it is checked.
    QCheckBox* allowConflictsBox() const { return m_allowConflicts; }
    // Checks the candidates by their row in the list (the baseline, row 0, stays checked).
    void checkOnly(const std::vector<int>& rows);
    // A layout or preset file (core/layout/layout_json.h) as one more candidate, checked;
    // false with *error when it is neither, the list is full or it is left out (whyLeftOut);
    // true with *error saying what of it does not apply here, or empty.
    bool addCandidateFile(const QString& file, QString* error);
    // The run the setup describes: the checked candidates (the baseline first) and the spec;
    // nullopt with *error when it cannot run (no candidate, no load, a load that cannot).
    std::optional<TuneRequest> request(QString* error) const;

    QPushButton* startButton() const { return m_start; }
    QPushButton* cancelButton() const { return m_cancel; }
    QPushButton* applyWinnerButton() const { return m_applyWinner; }
    QPushButton* saveButton() const { return m_save; }
    // Starts the run (startRequested), as the Start button does; false with the reason shown.
    bool start();
    QString progressText() const;
    QString verdictText() const;
    // The name of the running tune's candidate `index` (its trials' marks on the heatmap).
    QString candidateName(int index) const;
    int trialsStarted() const { return m_trialsStarted; }

    // After the run: its result, its document (coresteer.tune/2) and its recording.
    TuneResultPtr result() const { return m_result; }
    const nlohmann::json& document() const { return m_doc; }
    RecordingPtr recording() const { return m_recording; }
    TuneTable* table() const { return m_table; }
    TunePlot* plot() const { return m_plot; }
    bool saveRecording(const QString& file, QString* error) const;

    // The connection's answers.
    void onProgress(const measure::TuneProgress& progress);
    void onTrial(double t, int block, int candidate);
    void onFinished(TuneResultPtr result, RecordingPtr recording, const QString& problem);
    void onFailed(const QString& message);

Q_SIGNALS:
    void startRequested(const coresteer::ui::TuneRequest& request);
    void cancelRequested();
    // The winner's layout, to show in the grid and apply as any layout is.
    void applyWinnerRequested(const coresteer::layout::Layout& layout, const QString& name);
    // A load target the run used (kept first in the settings' list).
    void loadTargetUsed(const QString& target);

protected:
    void reject() override;

private:
    QWidget* buildSetup(const QStringList& notes, const QStringList& loadTargets);
    QWidget* buildRun();
    void addCandidate(const measure::Candidate& c, bool checked);
    void setStage(Stage s);
    void chooseFile();
    void saveAs();

    SnapshotPtr m_snap;
    bool m_modelled;
    std::vector<measure::Candidate> m_candidates; // in the list's order
    std::vector<measure::Candidate> m_running;    // the run's, the baseline first
    measure::TuneSpec m_spec;                     // the run's
    Stage m_stage = Stage::Setup;
    int m_trialsStarted = 0;
    TuneResultPtr m_result;
    RecordingPtr m_recording;
    nlohmann::json m_doc;

    QStackedWidget* m_pages;
    QTreeWidget* m_list;
    QLabel* m_detail;
    QComboBox* m_load;
    QSpinBox* m_streams;
    QCheckBox* m_download;
    QCheckBox* m_upload;
    QCheckBox* m_both;
    QSpinBox* m_phaseSeconds;
    QSpinBox* m_idleSeconds;
    QSpinBox* m_margin;
    QLabel* m_plan;
    QCheckBox* m_allowConflicts;
    bool m_refusingConflict = false; // irqbalance runs on the router
    QSpinBox* m_budget;
    QComboBox* m_objective;
    QLabel* m_problem;
    QLabel* m_progress;
    QProgressBar* m_bar;
    QLabel* m_notes;
    QLabel* m_verdict;
    QSplitter* m_split = nullptr;
    TuneTable* m_table;
    TunePlot* m_plot;
    QPushButton* m_start;
    QPushButton* m_cancel;
    QPushButton* m_applyWinner;
    QPushButton* m_save;
    QPushButton* m_close;
};

} // namespace coresteer::ui

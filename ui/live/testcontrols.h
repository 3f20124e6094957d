// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The bufferbloat test's controls on the Live tab: the optional load generator (none, one
// direction or download, upload and both in turn; its iperf3 server or URLs; its streams), the
// hosts beyond the router to probe, the record button with the view's export buttons beside it,
// the test's result, the recording's buttons under it, and at the bottom the test's chart (the
// panel's LatencyChart, in the same column so that the chart is what gives way when the column is
// short). It runs nothing: LivePanel starts the test with what it reads here, and the window
// keeps what the person typed in the settings.
#pragma once

#include "core/live/loadgen.h"

#include <QList>
#include <QStringList>
#include <QWidget>

#include <optional>

class QAction;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace coresteer::ui {

class TestControls : public QWidget {
    Q_OBJECT
public:
    // `chart` goes under the controls and takes the height they leave.
    explicit TestControls(QWidget* chart, QWidget* parent = nullptr);

    QPushButton* testButton() const { return m_testButton; }
    // The record button as the test is: "Stop recording" while it runs; "Stopping ..." (and
    // disabled) from the stop until the test has ended.
    void showRunning(bool running);
    void showStopping();

    // The load the person chose, each phase `phaseSeconds` long: nullopt for none, and for one
    // that cannot run here, which *problem then says.
    std::optional<live::LoadSpec> chosenLoad(int phaseSeconds, QString* problem) const;
    // Shows `spec` as the choice (nullopt: none).
    void showLoad(const std::optional<live::LoadSpec>& spec);
    QString loadText() const; // the server box's text, trimmed
    void setLoadText(const QString& text);
    // The targets the server box offers (its text stays).
    void setLoadTargets(const QStringList& targets);
    QStringList loadTargets() const;

    // The hosts beyond the router as typed; shown (no beyondHostsEdited).
    QStringList beyondHosts() const;
    void setBeyondHosts(const QStringList& hosts);
    // Of those, the ones a test may probe; each other one is said in *problem ("; " between).
    QStringList usableBeyondHosts(QString* problem) const;

    // The test's result (HTML), and a problem added under it.
    void setResult(const QString& html);
    QString result() const;
    void addProblem(const QString& html);

    // A text button for each action: the view's beside the record button, the recording's
    // under the result.
    void setViewActions(const QList<QAction*>& actions);
    void setRecordingActions(const QList<QAction*>& actions);
    QWidget* recordingButtons() const { return m_recordingButtons; }

Q_SIGNALS:
    // The record button, pressed to start (true) or to stop (false).
    void testToggled(bool start);
    // The person finished editing the hosts beyond the router.
    void beyondHostsEdited(const QStringList& hosts);

private:
    QComboBox* m_loadMode;
    QComboBox* m_loadServer;
    QSpinBox* m_loadStreams;
    QLineEdit* m_probeHosts;
    QPushButton* m_testButton;
    QWidget* m_viewButtons;
    QLabel* m_result;
    QWidget* m_recordingButtons;
    bool m_stopping = false; // the button waits for the test's end
};

} // namespace coresteer::ui

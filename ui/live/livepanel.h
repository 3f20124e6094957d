// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The Live tab: per-core load charts, the cores x time heatmap, where each NIC IRQ fires and how
// fast, and each interface's throughput. Fed one Rates per tick; keeps an hour of history.
//
// Start recording runs the bufferbloat test (BufferbloatTest: latency every 100 ms, 3 s idle
// baseline, optional iperf3 or HTTP(S) load, every tick's files kept). A finished recording can be
// saved, exported as CSV or as a PNG, and replayed here offline (ReplayDriver): the same views, fed
// at the recorded pace (or faster) from the file.
//
// The tab knows no connection and reads no settings: the window hands it each tick, what the
// connection reports and what the settings hold, and keeps what the person changes here
// (beyondHostsEdited, loadTargetUsed). Its parts have a file each: the charts (LoadCharts,
// HeatmapWidget, LatencyChart), the tables (IrqRateModel and InterfaceRateModel in ui/models),
// the test's controls and result (TestControls, TestResult), the replay (ReplayDriver,
// ReplayBar, fed from livepanel_replay.cpp) and the export (LiveExport).
#pragma once

#include "core/live/history.h"
#include "core/live/loadgen.h"
#include "core/live/recording.h"
#include "core/model/load.h"
#include "ui/base/snapshotptr.h"

#include <QList>
#include <QStringList>
#include <QVector>
#include <QWidget>

#include <memory>
#include <optional>

class QAction;
class QPushButton;
class QTableView;

namespace coresteer::ui {

class BufferbloatTest;
class HeatmapWidget;
class InterfaceRateModel;
class IrqRateModel;
class LatencyChart;
class LoadCharts;
class ReplayBar;
class ReplayDriver;
class TestControls;

class LivePanel : public QWidget {
    Q_OBJECT
public:
    explicit LivePanel(QWidget* parent = nullptr);

    // Starts over for this router; `hz` sizes the history (an hour of samples). `label` names
    // the router in recordings.
    void reset(SnapshotPtr snapshot, int hz, const QString& label = {});
    void addRates(const live::Rates& rates);
    void addGap(double uptime);
    // A tick's files, kept while recording (they arrive before the tick's rates).
    void addSample(const live::SampleTexts& texts);

    // Bufferbloat test and recording: latency probes every 100 ms (a TCP handshake with the
    // router's SSH port: its responsiveness; ICMP echo to the hosts beyond the router that the
    // person names, where the WAN's queue is) while the person runs a speed test or the load
    // generator runs; the first 3 s are the idle baseline. Without a probe (a local tree, the
    // demo without hosts) it records load only.
    void setProbeTarget(const QString& host, int port);
    // The hosts beyond the router, as the person typed them: shown, and handed on to be kept
    // with the settings (beyondHostsEdited).
    void setBeyondHosts(const QStringList& hosts);
    // The demo: its model's latency and phase each tick (Connection::demoModel). The first
    // makes the test take its latency from the model.
    void addDemoModel(double latencyMs, const QString& phase);
    // A router over SSH: its own ping's replies (Connection::routerLatency).
    void addRouterLatency(const QVector<std::optional<double>>& replies);
    void setModelled(bool on); // false: a new router, until its model speaks
    // What the settings hold, from the window (at the start and after Preferences): the load
    // targets the load's list offers and the hosts beyond the router. Nothing is handed back.
    void setSettings(const QStringList& loadTargets, const QStringList& beyondHosts);
    QStringList loadTargets() const; // the servers the load's list offers
    // Each phase of a test in phases (the load generator's sequence, the demo's test).
    void setPhaseSeconds(int seconds);
    QStringList beyondHosts() const;
    void startTest();
    void stopTest();
    bool testRunning() const;
    QString gradeText() const;
    // Latency probes shown since the views were last cleared (live or replayed).
    int probes() const { return m_probesShown; }
    QPushButton* testButton() const;

    // Optional load while recording: iperf3 on this machine against a server the person names,
    // or HTTP(S) downloads and POST uploads to URLs, started after the idle baseline and
    // stopped with the recording. nullopt: no load generator. loadGeneratorAvailable(): iperf3
    // is installed.
    void setLoadGenerator(std::optional<live::LoadSpec> spec);
    bool loadGeneratorAvailable() const;
    // What went wrong with the load generator, if anything (a bad server, iperf3's own error).
    QString loadGeneratorProblem() const;

    // The last recording finished here, or the one being replayed; nullptr when none.
    std::shared_ptr<const live::Recording> recording() const;
    std::size_t recordedTicks() const;
    // False with *error when there is nothing to save or the file cannot be written.
    bool saveRecording(const QString& file, QString* error) const;
    bool exportCsv(const QString& file, QString* error) const;
    bool exportPng(const QString& file, QString* error) const;
    // The Recording menu's save and export actions, as buttons under the test's result (where
    // the person is when a test ends); they are enabled as the actions are.
    void setRecordingActions(const QList<QAction*>& actions);
    QWidget* recordingButtons() const;
    // The view itself, whenever it shows samples (a test or not, live or replayed): a picture
    // of the whole Live tab as it is on screen, and the samples it holds (historyCsv: each
    // core's shares and each NIC IRQ's rate, the last hour). False with *error when there is
    // nothing to show yet or the file cannot be written.
    bool saveViewPng(const QString& file, QString* error) const;
    bool exportSamplesCsv(const QString& file, QString* error) const;
    // Their actions, as buttons beside the test's; enabled while the view has samples.
    void setViewActions(const QList<QAction*>& actions);

    // Replays a recording in every view at `speed` times its pace (0: all at once).
    void startReplay(std::shared_ptr<const live::Recording> recording, SnapshotPtr snapshot,
                     double speed = 1);
    bool replaying() const;
    // Feeds the rest of the replay now.
    void finishReplay();
    // Goes to `seconds` into the recording (also after the replay ended): the views start
    // again from there, and the replay goes on at its speed.
    void seekReplay(double seconds);
    double replayPosition() const;

Q_SIGNALS:
    // Recording began (true) or ended (false): the connection sends files only while on.
    void recordingActive(bool on);
    void recordingFinished();
    // A test starts on a router over SSH with a host beyond it: the router's own ping to that
    // host should run (Connection::startRouterProbe) until the test ends.
    void routerProbe(const QString& host);
    void routerProbeDone();
    // A test starts on the demo: its model should run one (DemoLoad::startTest).
    void demoTestStarting(double idleSeconds, double phaseSeconds);
    // Rates a replay shows (the window colours the grid by them).
    void replayedRates(const coresteer::live::Rates& rates);
    // What the person changed, for the settings: the hosts beyond the router, and a load
    // target a test started with (the window keeps it first and offers the list again).
    void beyondHostsEdited(const QStringList& hosts);
    void loadTargetUsed(const QString& target);

public:
    const live::History* history() const { return m_history.get(); }
    // The router's interrupts under load as sampled live since the last reset (not from a
    // replay), for the planner: nullptr unless at least `minSeconds` were measured on the
    // router that `snap` comes from.
    const MeasuredLoad* measuredLoad(const Snapshot& snap, double minSeconds = 5) const;
    LoadCharts* charts() const { return m_charts; }
    HeatmapWidget* heatmap() const { return m_heatmap; }
    QTableView* irqTable() const { return m_irqs; }
    QTableView* interfaceTable() const { return m_ifaces; }
    IrqRateModel* irqModel() const { return m_irqModel; }
    InterfaceRateModel* interfaceModel() const { return m_ifaceModel; }

private:
    QWidget* buildSide();
    void wireReplay();
    bool haveRecording(QString* error) const;
    bool haveSamples(QString* error) const;
    void enableViewActions();
    void showGrade();
    void showReplayPosition(double seconds, bool done);
    void addLatency(double t, std::optional<double> ms, const QString& probe);
    void clearViews();

    SnapshotPtr m_snap;
    std::unique_ptr<live::History> m_history;
    MeasuredLoad m_load;
    LoadCharts* m_charts;
    HeatmapWidget* m_heatmap;
    IrqRateModel* m_irqModel;
    InterfaceRateModel* m_ifaceModel;
    QTableView* m_irqs;
    QTableView* m_ifaces;
    BufferbloatTest* m_test;
    ReplayDriver* m_replay;
    LatencyChart* m_latency;
    TestControls* m_controls; // holds m_latency under it
    ReplayBar* m_replayBar;
    QList<QAction*> m_viewActions;
    QString m_label;
    int m_hz = 10;
    QString m_loadProblem;   // a load server that cannot be used
    int m_phaseSeconds = 10; // each phase of a download, upload, both sequence
    int m_probesShown = 0;   // latency probes in the views since they were cleared
};

} // namespace coresteer::ui

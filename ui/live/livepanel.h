// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The Live tab: per-core load charts, the cores x time heatmap, where each NIC IRQ fires and how
// fast, and each interface's throughput. Fed one Rates per tick; keeps an hour of history.
//
// Start recording runs the bufferbloat test (measure::LoadTest on the connection's worker, which
// BufferbloatTest asks for and follows: latency every 100 ms, 3 s idle baseline, optional iperf3
// or HTTP(S) load, every tick's files kept). A finished recording can be saved, exported as CSV
// or as a PNG, and replayed here offline (ReplayDriver): the same views, fed at the recorded pace
// (or faster) from the file. While the tuner runs, its trials are marked on the heatmap.
//
// The tab knows no connection and reads no settings: the window hands it each tick, what the
// connection reports and what the settings hold, passes on the test it asks for (testRequested,
// testStopRequested) and brings back what the test measured (addTestEvents, endTest), and keeps
// what the person changes here (beyondHostsEdited, loadTargetUsed). Its parts have a file each:
// the charts (LoadCharts,
// HeatmapWidget, LatencyChart), the tables (IrqRateModel and InterfaceRateModel in ui/models),
// the test's controls and result (TestControls, TestResult), the replay (ReplayDriver,
// ReplayBar, fed from livepanel_replay.cpp) and the export (LiveExport).
#pragma once

#include "core/live/history.h"
#include "core/live/loadgen.h"
#include "core/live/recording.h"
#include "core/model/load.h"
#include "ui/base/measurements.h"
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

    // Bufferbloat test and recording: latency probes every 100 ms (a TCP handshake with the
    // router's SSH port: its responsiveness; ICMP echo to the hosts beyond the router that the
    // person names, where the WAN's queue is) while the person runs a speed test or the load
    // generator runs; the first 3 s are the idle baseline. Without a probe (a local tree, the
    // demo without hosts) it records load only.
    void setProbeTarget(const QString& host, int port);
    // The hosts beyond the router, as the person typed them: shown, and handed on to be kept
    // with the settings (beyondHostsEdited).
    void setBeyondHosts(const QStringList& hosts);
    // The demo: the test's latency and phases are its model's.
    void setModelled(bool on);
    // What the settings hold, from the window (at the start and after Preferences): the load
    // targets the load's list offers and the hosts beyond the router. Nothing is handed back.
    void setSettings(const QStringList& loadTargets, const QStringList& beyondHosts);
    QStringList loadTargets() const; // the servers the load's list offers
    // Each phase of a test in phases (the load generator's sequence, the demo's test).
    void setPhaseSeconds(int seconds);
    QStringList beyondHosts() const;
    // Asks for a test (testRequested) and shows it running; stopTest() asks for its end
    // (testStopRequested), which endTest() brings.
    void startTest();
    void stopTest();
    // What a tick of the test wrote into its recording, and its end with the recording (nullptr
    // when it was not kept, which `problem` says). Running from startTest() to endTest().
    void addTestEvents(const TestEvents& events);
    void endTest(RecordingPtr recording, const QString& problem);
    // The connection the test ran on is gone: it ends here, without a recording.
    void abandonTest();
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
    // A recording made elsewhere (a tune's) becomes the one to save and export.
    void setRecording(RecordingPtr recording);
    // A tuner's trial of `candidate` begins: a mark on the heatmap at the next sample.
    void markTrial(const QString& candidate);
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
    // The test the connection's worker is to run beside its sampler, and its end.
    void testRequested(const coresteer::ui::TestRequest& request);
    void testStopRequested();
    void recordingFinished();
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
    LatencyChart* latencyChart() const { return m_latency; }
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
    void testEnded();
    void replayTrial(int block, int candidate);
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
    QStringList m_tuneNames; // a replayed tune's candidates, for its trials' marks
};

} // namespace coresteer::ui

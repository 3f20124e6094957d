// The Live tab: per-core load charts, the cores x time heatmap, where each NIC IRQ fires and how
// fast, and each interface's throughput. Fed one Rates per tick; keeps an hour of history.
//
// Recording: Start recording measures latency to the router every 100 ms (over SSH), marks the
// first 3 s as the idle baseline and the rest as under load, and keeps every tick's files with
// the snapshot and the layout in force (core/live/recording.h). A finished recording can be
// saved, exported as CSV or as a PNG, and replayed here offline: the same views, fed at the
// recorded pace (or faster) from the file.
#pragma once

#include "core/live/history.h"
#include "core/live/loadgen.h"
#include "core/live/recording.h"
#include "ui/connection.h"

#include <QElapsedTimer>

#include <QWidget>

#include <memory>
#include <optional>
#include <vector>

class QComboBox;
class QSlider;
class QLabel;
class QLineEdit;
class QProcess;
class QSpinBox;
class QLineSeries;
class QPushButton;
class QTableWidget;
class QTimer;
class QValueAxis;

namespace coresteer::ui {

class HeatmapWidget;
class LoadCharts;

class LivePanel : public QWidget {
    Q_OBJECT
public:
    explicit LivePanel(QWidget* parent = nullptr);

    // Starts over for this router; `hz` sizes the history (an hour of samples). `label` names
    // the router in recordings.
    void reset(SnapshotPtr snapshot, int hz, const QString& label = {});
    void addRates(const Rates& rates);
    void addGap(double uptime);
    // A tick's files, kept while recording (they arrive before the tick's rates).
    void addSample(const SampleTexts& texts);

    // Bufferbloat test and recording: latency probes every 100 ms (a TCP handshake with the
    // router's SSH port) while the person runs a speed test; the first 3 s are the idle
    // baseline. Without a probe target (a local tree, the demo) it records load only.
    void setProbeTarget(const QString& host, int port);
    void startTest();
    void stopTest();
    bool testRunning() const { return m_testing; }
    QString gradeText() const;
    int probes() const { return static_cast<int>(m_idle.size() + m_loaded.size()); }
    QPushButton* testButton() const { return m_testButton; }

    // Optional load while recording: iperf3 on this machine against a server the person names,
    // started after the idle baseline and stopped with the recording. Offered when iperf3 is
    // installed. nullopt: no load generator.
    void setLoadGenerator(std::optional<LoadSpec> spec);
    bool loadGeneratorAvailable() const;
    // What went wrong with the load generator, if anything (a bad server, iperf3's own error).
    QString loadGeneratorProblem() const { return m_loadProblem; }

    // The last recording finished here, or the one being replayed; nullptr when none.
    std::shared_ptr<const Recording> recording() const { return m_finished; }
    std::size_t recordedTicks() const { return m_writer ? m_writer->ticks() : 0; }
    // False with *error when there is nothing to save or the file cannot be written.
    bool saveRecording(const QString& file, QString* error) const;
    bool exportCsv(const QString& file, QString* error) const;
    bool exportPng(const QString& file, QString* error) const;

    // Replays a recording in every view at `speed` times its pace (0: all at once).
    void startReplay(std::shared_ptr<const Recording> recording, SnapshotPtr snapshot,
                     double speed = 1);
    bool replaying() const { return m_replay != nullptr; }
    // Feeds the rest of the replay now.
    void finishReplay();
    // Goes to `seconds` into the recording (also after the replay ended): the views start
    // again from there, and the replay goes on at its speed.
    void seekReplay(double seconds);
    double replayPosition() const { return m_replayAt; }

Q_SIGNALS:
    // Recording began (true) or ended (false): the connection sends files only while on.
    void recordingActive(bool on);
    void recordingFinished();
    // Rates a replay shows (the window colours the grid by them).
    void replayedRates(const coresteer::Rates& rates);

public:
    const History* history() const { return m_history.get(); }
    LoadCharts* charts() const { return m_charts; }
    HeatmapWidget* heatmap() const { return m_heatmap; }
    QTableWidget* irqTable() const { return m_irqs; }
    QTableWidget* interfaceTable() const { return m_ifaces; }

private:
    SnapshotPtr m_snap;
    std::unique_ptr<History> m_history;
    std::vector<std::uint32_t> m_nicIrqs;
    LoadCharts* m_charts;
    HeatmapWidget* m_heatmap;
    QTableWidget* m_irqs;
    QTableWidget* m_ifaces;

    void probe();
    void showGrade();
    void addLatency(double t, std::optional<double> ms);
    void addThroughput(double t, double down, double up);
    void replayStep();
    void showReplayPosition();
    void clearViews();
    void startLoad();
    void stopLoad();
    bool haveRecording(QString* error) const;
    double recordingSeconds() const;

    QString m_host;
    int m_port = 0;
    bool m_testing = false, m_inFlight = false;
    std::vector<std::optional<double>> m_idle, m_loaded;
    QTimer* m_probeTimer;
    QPushButton* m_testButton;
    QLabel* m_grade;
    QLineSeries* m_latency;
    QValueAxis* m_latencyX;
    QValueAxis* m_latencyY;
    QString m_label;
    int m_hz = 10;
    std::unique_ptr<RecordingWriter> m_writer;
    std::shared_ptr<const Recording> m_finished;
    QElapsedTimer m_recordClock;
    std::unique_ptr<Replay> m_replay;
    std::optional<ReplayEvent> m_pending; // the next replay event, not yet due
    std::string m_replayPhase;            // the recorded phase the replay is in
    double m_replayAt = 0, m_speed = 1;
    QElapsedTimer m_replayClock;
    QTimer* m_replayTimer;
    QWidget* m_replayBar;
    QLabel* m_replayLabel;
    QComboBox* m_replaySpeed;
    QSlider* m_replaySlider; // tenths of a second
    QLineSeries* m_down;
    QLineSeries* m_up;
    QValueAxis* m_mbps;
    QComboBox* m_loadMode;
    QLineEdit* m_loadServer;
    QSpinBox* m_loadStreams;
    QProcess* m_load = nullptr;
    std::unique_ptr<IperfReader> m_loadReader;
    QString m_loadProblem;
};

} // namespace coresteer::ui

// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The bufferbloat test behind the Live tab's record button: it records every tick's files with
// the snapshot and the layout in force (core/live/recording.h), measures latency to the router
// every 100 ms (a TCP handshake with its SSH port, off the UI thread) with the first 3 s as the
// idle baseline, and runs the optional iperf3 load after that baseline. It owns no widget: the
// panel shows what it reports.
#pragma once

#include "core/live/latency.h"
#include "core/live/loadgen.h"
#include "core/live/recording.h"
#include "ui/connection.h"

#include <QElapsedTimer>
#include <QObject>
#include <QString>

#include <memory>
#include <optional>
#include <vector>

class QProcess;
class QTimer;

namespace coresteer::ui {

class BufferbloatTest : public QObject {
    Q_OBJECT
public:
    // The idle baseline at the start of every test.
    static constexpr double kIdleSeconds = 3.0;

    explicit BufferbloatTest(QObject* parent = nullptr);
    ~BufferbloatTest() override;

    // Where latency is measured; empty or port 0: nowhere (a local tree, the demo).
    void setProbeTarget(const QString& host, int port);
    bool probing() const { return !m_host.isEmpty() && m_port > 0; }

    // Starts a recording of `snapshot`'s router, named `label`, at `hz`. `load`: iperf3 to
    // start after the baseline (nullopt: the person runs their own test).
    void start(const Snapshot& snapshot, const QString& label, int hz,
               std::optional<live::LoadSpec> load);
    // Ends it; the recording is then recording() (or problem() says why it was not kept).
    void stop();
    bool running() const { return m_running; }
    // Seconds since start(): probes, samples and load share this time axis.
    double seconds() const;

    // A tick's files and a tick the router did not answer, while running.
    void addSample(const live::SampleTexts& texts);
    void addGap();

    // Latencies so far, before and after the baseline (nullopt: a probe that failed).
    const std::vector<std::optional<double>>& idle() const { return m_idle; }
    const std::vector<std::optional<double>>& loaded() const { return m_loaded; }
    int probes() const { return static_cast<int>(m_idle.size() + m_loaded.size()); }
    std::optional<live::LatencyGrade> grade() const { return live::gradeLatency(m_idle, m_loaded); }

    std::shared_ptr<const live::Recording> recording() const { return m_finished; }
    // A recording from elsewhere (a file being replayed) becomes the one to save and export.
    void setRecording(std::shared_ptr<const live::Recording> recording);
    std::size_t recordedTicks() const { return m_writer ? m_writer->ticks() : 0; }

    static bool loadGeneratorAvailable();
    QString loadProblem() const { return m_loadProblem; }

Q_SIGNALS:
    void latencyMeasured(double t, std::optional<double> ms);
    void throughputMeasured(double t, double downBitsPerSec, double upBitsPerSec);
    // The baseline is over: what comes now is under load.
    void loadPhase();
    // Something to tell the person: a load generator that failed, a recording not kept, a
    // recording that reached its size limit (the test then stops by itself).
    void problem(const QString& text);

private:
    void probe();
    void startLoad(const live::LoadSpec& spec);
    void stopLoad();

    QString m_host;
    int m_port = 0;
    bool m_running = false, m_inFlight = false;
    std::vector<std::optional<double>> m_idle, m_loaded;
    QTimer* m_probeTimer;
    std::unique_ptr<live::RecordingWriter> m_writer;
    std::shared_ptr<const live::Recording> m_finished;
    QElapsedTimer m_clock;
    QProcess* m_load = nullptr;
    std::unique_ptr<live::IperfReader> m_loadReader;
    QString m_loadProblem;
};

} // namespace coresteer::ui

// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The bufferbloat test behind the Live tab's record button: it records every tick's files with
// the snapshot and the layout in force (core/live/recording.h) and measures latency every
// 100 ms, off the UI thread, with the first 3 s as the idle baseline: to the router from the LAN
// side (a TCP handshake with its SSH port: the router's responsiveness, probe "lan") and beyond
// the router (ICMP echo to each host the person names, where the WAN's queue is on the path;
// see core/live/echo.h). After the baseline it runs the optional iperf3 load: one direction, or
// download, upload and both in turn, each a phase of its own in the recording, and the test
// ends by itself after the last. It owns no widget: the panel shows what it reports.
#pragma once

#include "core/live/http_load.h"
#include "core/live/irtt.h"
#include "core/live/latency.h"
#include "core/live/loadgen.h"
#include "core/live/recording.h"
#include "core/model/snapshot.h"

#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <QStringList>
#include <QVector>

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
    // Hosts past the WAN to probe with ICMP echo (nothing is contacted before start()). A host
    // where ICMP cannot be had is probed by a TCP handshake with the load server's port.
    // Hosts beyond the router, probed by ICMP echo; an entry "irtt://HOST[:PORT]" is an irtt
    // server instead, probed by irtt for the round trip and each way (core/live/irtt.h).
    void setBeyondHosts(const QStringList& hosts);
    // The demo: latency comes from its model (modelLatency()), and its test's phases with it.
    void setModelled(bool on) { m_modelled = on; }
    bool modelled() const { return m_modelled; }
    bool probing() const {
        return (!m_host.isEmpty() && m_port > 0) || !m_beyondHosts.isEmpty() ||
               !m_irttTargets.empty() || m_modelled;
    }

    // Starts a recording of `snapshot`'s router, named `label`, at `hz`. `load`: iperf3 to
    // start after the baseline (nullopt: the person runs their own test).
    void start(const Snapshot& snapshot, const QString& label, int hz,
               std::optional<live::LoadSpec> load);
    // Ends it; the recording is then recording() (or problem() says why it was not kept).
    void stop();
    // The phases a load runs after the baseline: its direction, or download, upload and both
    // for a sequence, each `phaseSeconds` long.
    static std::vector<live::LoadSpec::Direction> loadPhases(const live::LoadSpec& spec);
    static const char* phaseName(live::LoadSpec::Direction d);
    bool running() const { return m_running; }
    // Seconds since start(): probes, samples and load share this time axis.
    double seconds() const;

    // The demo model's round trip this tick and its phase ("idle", "download", "upload",
    // "download and upload"), while running: a probe named "demo", and after the baseline the
    // model's load phases as the test's; the test ends when the model's load does.
    void modelLatency(double ms, const QString& phase);

    // The router's own ping to the first host beyond it (Connection::routerLatency), while
    // running: a probe named "router".
    void addRouterLatency(const QVector<std::optional<double>>& replies);
    // The host the router should ping for this test ("" when none: not a router over SSH, or
    // no host beyond it named).
    QString routerProbeHost() const;

    // A tick's files and a tick the router did not answer, while running.
    void addSample(const live::SampleTexts& texts);
    void addGap();

    // Latencies so far of each probe, before and after the baseline (nullopt: a probe that
    // failed), in the order the probes first answered.
    struct ProbeSeries {
        QString name;
        std::vector<std::optional<double>> idle, loaded;
    };
    const std::vector<ProbeSeries>& probeSeries() const { return m_series; }
    bool idleMeasured() const;
    int probes() const;
    // The headline grade: the first probe beyond the router that has one, else the LAN side's;
    // `probe` says which.
    std::optional<live::LatencyGrade> grade(QString* probe = nullptr) const;
    // How a beyond probe reaches its host ("ICMP", "TCP handshake", ...), once it is open.
    QString probeMethod(const QString& name) const;

    std::shared_ptr<const live::Recording> recording() const { return m_finished; }
    // A recording from elsewhere (a file being replayed) becomes the one to save and export.
    void setRecording(std::shared_ptr<const live::Recording> recording);
    std::size_t recordedTicks() const { return m_writer ? m_writer->ticks() : 0; }

    // iperf3 is installed (HTTP(S) load needs nothing more).
    static bool loadGeneratorAvailable();
    QString loadProblem() const { return m_loadProblem; }

Q_SIGNALS:
    void latencyMeasured(double t, std::optional<double> ms, const QString& probe);
    void throughputMeasured(double t, double downBitsPerSec, double upBitsPerSec);
    // The baseline is over, or a load phase begins: "load" (the person's own test), or
    // "download", "upload", "both".
    void loadPhase(const QString& name);
    // A sequence of load phases has run to its end, and the test with it.
    void finished();
    // Something to tell the person: a load generator that failed, a recording not kept, a
    // recording that reached its size limit (the test then stops by itself).
    void problem(const QString& text);

private:
    struct Echo;
    void probe();
    void measured(double t, std::optional<double> ms, const QString& name);
    void end();
    void runPhase(std::size_t index);
    void startLoad(const live::LoadSpec& spec);
    void stopLoad();

    QString m_host;
    int m_port = 0;
    QStringList m_beyondHosts;
    bool m_running = false, m_inFlight = false, m_modelled = false;
    QString m_modelPhase; // the model's load phase the test is in ("" before one)
    std::vector<ProbeSeries> m_series;
    std::vector<std::shared_ptr<Echo>> m_echoes;
    // irtt, one process a server for the whole test.
    std::vector<live::IrttTarget> m_irttTargets;
    std::vector<QProcess*> m_irtt;
    void startIrtt();
    void stopIrtt();
    std::optional<live::LoadSpec> m_loadSpec;
    std::vector<live::LoadSpec::Direction> m_phases;
    std::size_t m_generation = 0; // a new start() makes the timers of the last one stale
    QTimer* m_probeTimer;
    std::unique_ptr<live::RecordingWriter> m_writer;
    std::shared_ptr<const live::Recording> m_finished;
    QElapsedTimer m_clock;
    void startHttpLoad(const live::LoadSpec& spec);
    QProcess* m_load = nullptr;
    std::unique_ptr<live::IperfReader> m_loadReader;
    // HTTP(S) load instead: its reports come from its thread, queued, counted by m_loadRun so
    // that a stopped one's last reports are dropped; m_httpWatch notices that it failed.
    std::unique_ptr<live::HttpLoad> m_http;
    QTimer* m_httpWatch = nullptr;
    int m_loadRun = 0;
    QString m_loadProblem;
};

} // namespace coresteer::ui

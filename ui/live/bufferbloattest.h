// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The bufferbloat test behind the Live tab's record button, as the tab sees it. The test itself
// is measure::LoadTest, the one engine the command line and the tuner run too: it runs on the
// router's connection's worker, ticked with the sampler, and records every tick's files with the
// snapshot and the layout in force (core/live/recording.h), the latency every 100 ms with the
// first 3 s as the idle baseline (to the router from the LAN side, beyond the router to each
// host the person names, the router's own ping, irtt, the demo's model) and the optional load
// (iperf3 or HTTP(S)) in its phases after the baseline. This class asks for it (requested(),
// stopRequested()), takes what each tick wrote (addEvents()) and the finished recording
// (finish()), and keeps what the Live tab shows: each probe's latencies, the grade, the load
// generator's problems. It owns no widget and runs nothing.
#pragma once

#include "core/live/irtt.h"
#include "core/live/latency.h"
#include "core/live/loadgen.h"
#include "core/live/recording.h"
#include "core/model/snapshot.h"
#include "ui/base/measurements.h"

#include <QMap>
#include <QObject>
#include <QString>
#include <QStringList>

#include <memory>
#include <optional>
#include <vector>

namespace coresteer::ui {

class BufferbloatTest : public QObject {
    Q_OBJECT
public:
    // The idle baseline at the start of every test.
    static constexpr double kIdleSeconds = measure::LoadTest::kIdleSeconds;

    explicit BufferbloatTest(QObject* parent = nullptr);

    // Where the connection reached the router over SSH (its LAN side is probed there); empty or
    // port 0: nowhere (a local tree, the demo).
    void setProbeTarget(const QString& host, int port);
    // Hosts beyond the router, probed by ICMP echo (or a TCP handshake with the load server's
    // port where ICMP cannot be had); an entry "irtt://HOST[:PORT]" is an irtt server instead,
    // probed by irtt for the round trip and each way (core/live/irtt.h). Nothing is contacted
    // before a test starts.
    void setBeyondHosts(const QStringList& hosts);
    // The demo: latency comes from its model, and its test's phases with it.
    void setModelled(bool on) { m_modelled = on; }
    bool modelled() const { return m_modelled; }
    bool probing() const {
        return (!m_host.isEmpty() && m_port > 0) || !m_beyondHosts.isEmpty() ||
               !m_irttTargets.empty() || m_modelled;
    }

    // Asks for a test of `snapshot`'s router (requested()), recorded as `label` at `hz`; `load`
    // runs after the baseline (nullopt: the person runs their own test). `phaseSeconds` is each
    // phase of the demo's own test.
    void start(const Snapshot& snapshot, const QString& label, int hz,
               std::optional<live::LoadSpec> load, int phaseSeconds);
    // Asks for its end (stopRequested()); it runs until finish() says that it ended.
    void stop();
    // The connection it ran on is gone: it ends here, without a recording.
    void abandon();
    // What a tick of the test wrote into its recording.
    void addEvents(const TestEvents& events);
    // The test ended (stopped, at its last phase, or at the recording's size limit): its
    // recording (nullptr when it could not be kept, which `problem` then says).
    void finish(RecordingPtr recording, const QString& problem);

    bool running() const { return m_running; }
    bool stopping() const { return m_stopping; }
    static const char* phaseName(live::LoadSpec::Direction d);

    // The router's own ping to the first host beyond it ("" when none: not a router over SSH,
    // or no host beyond it named).
    QString routerProbeHost() const;

    // Latencies so far of each probe, before and after the baseline (nullopt: a probe that
    // failed), in the order the probes first answered.
    struct ProbeSeries {
        QString name;
        std::vector<std::optional<double>> idle, loaded;
    };
    const std::vector<ProbeSeries>& probeSeries() const { return m_series; }
    bool idleMeasured() const;
    int probes() const;
    // The headline grade: the demo's model, else the first probe beyond the router that has
    // one, else the router's own, else the LAN side's; `probe` says which.
    std::optional<live::LatencyGrade> grade(QString* probe = nullptr) const;
    // How a probe beyond the router reaches its host ("ICMP", "TCP handshake").
    QString probeMethod(const QString& name) const;

    std::shared_ptr<const live::Recording> recording() const { return m_finished; }
    // A recording from elsewhere (a file being replayed, a tune) becomes the one to save and
    // export.
    void setRecording(std::shared_ptr<const live::Recording> recording);
    std::size_t recordedTicks() const { return m_ticks; }

    // iperf3 is installed (HTTP(S) load needs nothing more).
    static bool loadGeneratorAvailable();
    QString loadProblem() const { return m_loadProblem; }

Q_SIGNALS:
    // What the connection's worker is to run, and that it is to stop.
    void requested(const coresteer::ui::TestRequest& request);
    void stopRequested();
    void latencyMeasured(double t, std::optional<double> ms, const QString& probe);
    void throughputMeasured(double t, double downBitsPerSec, double upBitsPerSec);
    // The baseline is over, or a load phase begins: "load" (the person's own test), or
    // "download", "upload", "both".
    void loadPhase(const QString& name);
    // The test ended, its recording kept (or not: problem() said why).
    void finished();
    // Something to tell the person (HTML): a host that cannot be probed, a load generator that
    // failed, a recording not kept or stopped at its size limit.
    void problem(const QString& text);

private:
    void measured(double t, std::optional<double> ms, const QString& name);

    QString m_host;
    int m_port = 0;
    QStringList m_beyondHosts;
    std::vector<live::IrttTarget> m_irttTargets;
    bool m_running = false, m_stopping = false, m_modelled = false;
    std::vector<ProbeSeries> m_series;
    QMap<QString, QString> m_tcpProbes; // beyond probes reached by a TCP handshake
    std::shared_ptr<const live::Recording> m_finished;
    std::size_t m_ticks = 0;
    QString m_loadProblem;
};

} // namespace coresteer::ui

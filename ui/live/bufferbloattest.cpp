// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/live/bufferbloattest.h"

#include "core/base/json_text.h"
#include "core/collect/capture.h"
#include "core/layout/layout_json.h"
#include "core/layout/resolve.h"
#include "core/live/echo.h"

#include <QFutureWatcher>
#include <QProcess>
#include <QStandardPaths>
#include <QStringList>
#include <QTimer>

#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>

namespace coresteer::ui {

using namespace coresteer::layout;
using namespace coresteer::live;

namespace {

// TERM, then KILL after 2 s; deleted later.
void stopProcess(QProcess* p) {
    if (p->state() != QProcess::NotRunning) {
        p->terminate();
        if (!p->waitForFinished(2000))
            p->kill();
        p->waitForFinished(1000);
    }
    p->deleteLater();
}

} // namespace

// A probe beyond the router: its socket, opened on a worker when the test starts, and used by
// one worker at a time.
struct BufferbloatTest::Echo {
    QString host, name;
    std::shared_ptr<EchoProbe> probe; // null until open (or when it could not be opened)
    bool opening = false, inFlight = false;
};

BufferbloatTest::BufferbloatTest(QObject* parent)
    : QObject(parent), m_probeTimer(new QTimer(this)) {
    m_probeTimer->setInterval(100);
    connect(m_probeTimer, &QTimer::timeout, this, &BufferbloatTest::probe);
}

BufferbloatTest::~BufferbloatTest() {
    stopLoad();
    stopIrtt();
}

void BufferbloatTest::setProbeTarget(const QString& host, int port) {
    m_host = host;
    m_port = port;
}

void BufferbloatTest::setBeyondHosts(const QStringList& hosts) {
    m_beyondHosts.clear();
    m_irttTargets.clear();
    for (const auto& h : hosts) {
        const auto t = h.trimmed();
        IrttTarget irtt;
        if (t.startsWith(QLatin1String("irtt://"))) {
            if (parseIrttTarget(t.mid(7).toStdString(), irtt, nullptr))
                m_irttTargets.push_back(irtt);
        } else if (!t.isEmpty() && !m_beyondHosts.contains(t)) {
            m_beyondHosts << t;
        }
    }
}

// irtt for the whole test (its -d a little past the test's planned end: it is stopped with the
// test); its replies are three probes. One that stops by itself (no server there) is said.
void BufferbloatTest::startIrtt() {
    stopIrtt();
    double seconds = 3600;
    if (m_loadSpec && m_loadSpec->direction == LoadSpec::Direction::Sequence)
        seconds = kIdleSeconds + 3 * std::max(1, m_loadSpec->phaseSeconds);
    for (const auto& target : m_irttTargets) {
        auto* p = new QProcess(this);
        auto reader = std::make_shared<IrttReader>();
        const auto rtt = QString::fromStdString(irttProbe(target));
        const auto up = QString::fromStdString(irttUpProbe(target));
        const auto down = QString::fromStdString(irttDownProbe(target));
        connect(p, &QProcess::readyReadStandardOutput, this, [=, this] {
            const auto out = p->readAllStandardOutput();
            const double t = this->seconds();
            for (const auto& r : reader->feed(
                     std::string_view(out.constData(), static_cast<std::size_t>(out.size())))) {
                if (!m_running)
                    return;
                measured(t, r.rttMs, rtt);
                measured(t, r.rttMs ? r.upMs : std::nullopt, up);
                measured(t, r.rttMs ? r.downMs : std::nullopt, down);
            }
        });
        connect(
            p, &QProcess::finished, this,
            [this, p, host = QString::fromStdString(target.host)](int code, QProcess::ExitStatus) {
                if (m_running && code != 0 &&
                    std::find(m_irtt.begin(), m_irtt.end(), p) != m_irtt.end())
                    Q_EMIT problem(tr("irtt to %1 stopped: %2")
                                       .arg(host.toHtmlEscaped(),
                                            QString::fromLocal8Bit(p->readAllStandardError())
                                                .trimmed()
                                                .toHtmlEscaped()));
            });
        connect(p, &QProcess::errorOccurred, this, [this, p](QProcess::ProcessError e) {
            if (e == QProcess::FailedToStart &&
                std::find(m_irtt.begin(), m_irtt.end(), p) != m_irtt.end())
                Q_EMIT problem(tr("irtt could not start: install irtt to probe an irtt server"));
        });
        QStringList args;
        for (const auto& a : irttArguments(target, static_cast<int>(seconds) + 5))
            args << QString::fromStdString(a);
        m_irtt.push_back(p);
        p->start(QStringLiteral("irtt"), args);
    }
}

void BufferbloatTest::stopIrtt() {
    const auto procs = std::exchange(m_irtt, {});
    for (auto* p : procs)
        stopProcess(p);
}

bool BufferbloatTest::idleMeasured() const {
    for (const auto& s : m_series)
        if (!s.idle.empty())
            return true;
    return false;
}

int BufferbloatTest::probes() const {
    std::size_t n = 0;
    for (const auto& s : m_series)
        n += s.idle.size() + s.loaded.size();
    return static_cast<int>(n);
}

std::optional<LatencyGrade> BufferbloatTest::grade(QString* probe) const {
    // The demo's model first, then the hosts beyond the router from here, then the router's
    // own ping to them, then the LAN side: as summarize() picks the headline.
    const auto lanName = QLatin1String(kLanProbe.data(), kLanProbe.size());
    const auto demoName = QLatin1String(kDemoProbe.data(), kDemoProbe.size());
    const auto routerName = QLatin1String(kRouterProbe.data(), kRouterProbe.size());
    std::vector<const ProbeSeries*> order;
    for (const auto& name : {QString(demoName), QString(), QString(routerName), QString(lanName)})
        for (const auto& s : m_series)
            if (name.isEmpty() ? s.name != demoName && s.name != lanName && s.name != routerName
                               : s.name == name)
                order.push_back(&s);
    for (const auto* s : order)
        if (auto g = gradeLatency(s->idle, s->loaded)) {
            if (probe)
                *probe = s->name;
            return g;
        }
    return std::nullopt;
}

QString BufferbloatTest::probeMethod(const QString& name) const {
    for (const auto& e : m_echoes)
        if (e->name == name && e->probe)
            return QString::fromLatin1(echoMethodName(e->probe->method()));
    return {};
}

std::vector<LoadSpec::Direction> BufferbloatTest::loadPhases(const LoadSpec& spec) {
    if (spec.direction == LoadSpec::Direction::Sequence)
        return {LoadSpec::Direction::Download, LoadSpec::Direction::Upload,
                LoadSpec::Direction::Both};
    return {spec.direction};
}

const char* BufferbloatTest::phaseName(LoadSpec::Direction d) {
    switch (d) {
    case LoadSpec::Direction::Download:
        return "download";
    case LoadSpec::Direction::Upload:
        return "upload";
    case LoadSpec::Direction::Both:
        return "both";
    case LoadSpec::Direction::Sequence:
        break;
    }
    return "load";
}

double BufferbloatTest::seconds() const {
    return static_cast<double>(m_clock.nsecsElapsed()) / 1e9;
}

void BufferbloatTest::start(const Snapshot& snapshot, const QString& label, int hz,
                            std::optional<LoadSpec> load) {
    m_running = true;
    ++m_generation;
    m_series.clear();
    RecordingInfo info;
    info.label = label.toStdString();
    info.started = utcTimestamp();
    info.hz = hz;
    if (snapshot.source)
        info.capture = writeCapture(*snapshot.source);
    info.layout = jsonText(toJson(currentLayout(snapshot)));
    m_writer = std::make_unique<RecordingWriter>(std::move(info));
    m_clock.start();
    m_writer->phase(0, "idle");
    m_loadProblem.clear();
    m_loadSpec = load;
    m_modelPhase.clear();
    m_phases = load ? loadPhases(*load) : std::vector<LoadSpec::Direction>{};
    // The probes beyond the router open their sockets now, off the UI thread (a name to
    // resolve), with the load server's port to fall back on.
    m_echoes.clear();
    for (const auto& host : m_beyondHosts) {
        auto e = std::make_shared<Echo>();
        e->host = host;
        e->name = QString::fromStdString(probeName(host.toStdString()));
        e->opening = true;
        m_echoes.push_back(e);
        const int fallback = load ? load->port : 0;
        auto* w = new QFutureWatcher<std::pair<std::shared_ptr<EchoProbe>, QString>>(this);
        connect(w, &QFutureWatcher<std::pair<std::shared_ptr<EchoProbe>, QString>>::finished, this,
                [this, w, e, gen = m_generation] {
                    w->deleteLater();
                    e->opening = false;
                    auto [probe, error] = w->result();
                    if (gen != m_generation)
                        return;
                    e->probe = std::move(probe);
                    if (!e->probe)
                        Q_EMIT problem(tr("No latency beyond the router to %1: %2")
                                           .arg(e->host.toHtmlEscaped(), error.toHtmlEscaped()));
                });
        w->setFuture(QtConcurrent::run([h = host.toStdString(), fallback] {
            std::string error;
            std::shared_ptr<EchoProbe> p = EchoProbe::open(h, fallback, &error);
            return std::pair{p, QString::fromStdString(error)};
        }));
    }
    startIrtt();
    // After the baseline the load phase starts: the person runs their test now, or the load
    // generator, when one is chosen, runs its phases.
    QTimer::singleShot(static_cast<int>(kIdleSeconds * 1000), this, [this, gen = m_generation] {
        if (gen != m_generation || !m_running)
            return;
        if (m_phases.empty() && m_modelled) {
            // The model's own phases mark the load, as they come.
        } else if (m_phases.empty()) {
            m_writer->phase(seconds(), "load");
            Q_EMIT loadPhase(QStringLiteral("load"));
        } else {
            runPhase(0);
        }
    });
    if (probing())
        m_probeTimer->start();
}

// One load phase: its name in the recording, iperf3 in its direction, and after a sequence's
// phase its end (a single direction runs until the test is stopped).
void BufferbloatTest::runPhase(std::size_t index) {
    if (!m_running || !m_writer)
        return;
    stopLoad();
    if (index >= m_phases.size()) {
        end();
        return;
    }
    const char* name = phaseName(m_phases[index]);
    m_writer->phase(seconds(), name);
    auto spec = *m_loadSpec;
    spec.direction = m_phases[index];
    startLoad(spec);
    Q_EMIT loadPhase(QString::fromLatin1(name));
    if (m_loadSpec->direction == LoadSpec::Direction::Sequence)
        QTimer::singleShot(std::max(1, m_loadSpec->phaseSeconds) * 1000, this,
                           [this, index, gen = m_generation] {
                               if (gen == m_generation)
                                   runPhase(index + 1);
                           });
}

void BufferbloatTest::stop() {
    const bool was = m_running;
    m_running = false;
    ++m_generation;
    m_probeTimer->stop();
    stopLoad();
    stopIrtt();
    if (!was || !m_writer)
        return;
    m_writer->phase(seconds(), "done");
    std::string error;
    auto rec = readRecording(m_writer->text(), &error);
    m_writer.reset();
    if (rec)
        m_finished = std::make_shared<const Recording>(std::move(*rec));
    else
        Q_EMIT problem(tr("The recording could not be kept: %1")
                           .arg(QString::fromStdString(error).toHtmlEscaped()));
}

void BufferbloatTest::setRecording(std::shared_ptr<const Recording> recording) {
    m_finished = std::move(recording);
}

void BufferbloatTest::addSample(const SampleTexts& texts) {
    if (!m_writer)
        return;
    m_writer->sample(seconds(), texts);
    // A recording is bounded (many cores at a high rate for a long time reach it): it ends
    // itself, whole, before that.
    if (m_writer->bytes() + (4u << 20) > Recording::kMaxBytes) {
        stop();
        Q_EMIT problem(
            tr("The recording reached %1 MB and stopped.").arg(Recording::kMaxBytes >> 20));
    }
}

void BufferbloatTest::addGap() {
    if (m_writer)
        m_writer->gap(seconds());
}

bool BufferbloatTest::loadGeneratorAvailable() {
    return !QStandardPaths::findExecutable(QStringLiteral("iperf3")).isEmpty();
}

void BufferbloatTest::startLoad(const LoadSpec& spec) {
    if (spec.isHttp()) {
        startHttpLoad(spec);
        return;
    }
    m_loadReader = std::make_unique<IperfReader>(spec);
    m_load = new QProcess(this);
    QStringList args;
    for (const auto& a : iperfArguments(spec))
        args << QString::fromStdString(a);
    connect(m_load, &QProcess::readyReadStandardOutput, this, [this, p = m_load] {
        const auto out = p->readAllStandardOutput();
        if (!m_loadReader)
            return;
        for (const auto& r : m_loadReader->feed(
                 std::string_view(out.constData(), static_cast<std::size_t>(out.size())))) {
            const double t = seconds();
            if (m_writer)
                m_writer->throughput(t, r.downBitsPerSec, r.upBitsPerSec);
            Q_EMIT throughputMeasured(t, r.downBitsPerSec, r.upBitsPerSec);
        }
    });
    connect(m_load, &QProcess::finished, this, [this, p = m_load](int code, QProcess::ExitStatus) {
        if (m_load == p && m_running && code != 0) {
            m_loadProblem = tr("iperf3 stopped: %1")
                                .arg(QString::fromLocal8Bit(p->readAllStandardError()).trimmed());
            Q_EMIT problem(m_loadProblem.toHtmlEscaped());
        }
    });
    m_load->start(QStringLiteral("iperf3"), args);
}

// HTTP(S) load (core/live/http_load.h): its thread's reports reach this thread queued, and a
// load that failed (a URL that does not serve, a certificate not trusted) is said once.
void BufferbloatTest::startHttpLoad(const LoadSpec& spec) {
    const int run = ++m_loadRun;
    m_http = std::make_unique<HttpLoad>(spec, [this, run](const HttpLoad::Report& r) {
        QMetaObject::invokeMethod(
            this,
            [this, run, r] {
                if (run != m_loadRun || !m_http)
                    return;
                const double t = seconds();
                if (m_writer)
                    m_writer->throughput(t, r.downBitsPerSec, r.upBitsPerSec);
                Q_EMIT throughputMeasured(t, r.downBitsPerSec, r.upBitsPerSec);
            },
            Qt::QueuedConnection);
    });
    if (!m_httpWatch) {
        m_httpWatch = new QTimer(this);
        m_httpWatch->setInterval(200);
        connect(m_httpWatch, &QTimer::timeout, this, [this] {
            if (!m_http || !m_http->failed() || !m_running)
                return;
            m_httpWatch->stop();
            m_loadProblem =
                tr("The HTTP load stopped: %1").arg(QString::fromStdString(m_http->error()));
            Q_EMIT problem(m_loadProblem.toHtmlEscaped());
        });
    }
    if (!m_http->start()) {
        m_loadProblem = QString::fromStdString(m_http->error());
        Q_EMIT problem(m_loadProblem.toHtmlEscaped());
        return;
    }
    m_httpWatch->start();
}

void BufferbloatTest::stopLoad() {
    ++m_loadRun;
    if (m_httpWatch)
        m_httpWatch->stop();
    m_http.reset(); // stops and joins its thread
    if (!m_load)
        return;
    auto* p = m_load;
    m_load = nullptr;
    m_loadReader.reset();
    stopProcess(p);
}

// The test ends by itself: whoever shows it stops it (and says so) on finished(), or it stops
// here.
void BufferbloatTest::end() {
    Q_EMIT finished();
    if (m_running)
        stop();
}

void BufferbloatTest::addRouterLatency(const QVector<std::optional<double>>& replies) {
    if (!m_running)
        return;
    const double t = seconds();
    for (const auto& ms : replies)
        measured(t, ms, QString::fromLatin1(kRouterProbe.data(), kRouterProbe.size()));
}

QString BufferbloatTest::routerProbeHost() const {
    if (m_host.isEmpty() || m_port <= 0 || m_beyondHosts.isEmpty() || m_modelled)
        return {};
    return m_beyondHosts.front();
}

void BufferbloatTest::modelLatency(double ms, const QString& phase) {
    if (!m_running || !m_modelled)
        return;
    const double t = seconds();
    measured(t, ms, QString::fromLatin1(kDemoProbe.data(), kDemoProbe.size()));
    if (t < kIdleSeconds - 0.2 || !m_phases.empty() || !m_running)
        return; // the baseline, or a load generator's phases
    const QString name =
        phase == QLatin1String("download and upload") ? QStringLiteral("both") : phase;
    if (name == QLatin1String("idle")) {
        if (!m_modelPhase.isEmpty()) { // the model's load is over, and the test with it
            end();
        }
        return;
    }
    if (name == m_modelPhase || !isLoadPhase(name.toStdString()))
        return;
    m_modelPhase = name;
    if (m_writer)
        m_writer->phase(t, name.toStdString());
    Q_EMIT loadPhase(name);
}

void BufferbloatTest::measured(double t, std::optional<double> ms, const QString& name) {
    auto it = std::find_if(m_series.begin(), m_series.end(),
                           [&](const ProbeSeries& s) { return s.name == name; });
    if (it == m_series.end()) {
        m_series.push_back({name, {}, {}});
        it = m_series.end() - 1;
    }
    (t < kIdleSeconds ? it->idle : it->loaded).push_back(ms);
    if (m_writer)
        m_writer->latency(t, ms, name.toStdString());
    Q_EMIT latencyMeasured(t, ms, name);
}

// One probe at a time of each kind, off the UI thread; a slow answer skips ticks rather than
// piling up.
void BufferbloatTest::probe() {
    if (!m_running)
        return;
    const double t = seconds(); // probes and samples on one time axis
    using Watcher = QFutureWatcher<std::optional<double>>;
    if (!m_inFlight && !m_host.isEmpty() && m_port > 0) {
        m_inFlight = true;
        auto* w = new Watcher(this);
        connect(w, &Watcher::finished, this, [this, w, t, gen = m_generation] {
            w->deleteLater();
            m_inFlight = false;
            if (m_running && gen == m_generation)
                measured(t, w->result(), QString::fromLatin1(kLanProbe.data(), kLanProbe.size()));
        });
        const std::string host = m_host.toStdString();
        const int port = m_port;
        w->setFuture(
            QtConcurrent::run([host, port] { return tcpConnectMs(host, port, 1000, nullptr); }));
    }
    for (const auto& e : m_echoes) {
        if (!e->probe || e->inFlight)
            continue;
        e->inFlight = true;
        auto* w = new Watcher(this);
        connect(w, &Watcher::finished, this, [this, w, t, e, gen = m_generation] {
            w->deleteLater();
            e->inFlight = false;
            if (m_running && gen == m_generation)
                measured(t, w->result(), e->name);
        });
        w->setFuture(QtConcurrent::run([p = e->probe] { return p->once(1000); }));
    }
}

} // namespace coresteer::ui

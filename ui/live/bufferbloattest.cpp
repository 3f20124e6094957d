// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/live/bufferbloattest.h"

#include "core/base/json_text.h"
#include "core/collect/capture.h"
#include "core/layout/layout_json.h"
#include "core/layout/resolve.h"

#include <QFutureWatcher>
#include <QProcess>
#include <QStandardPaths>
#include <QStringList>
#include <QTimer>
#include <QtConcurrent/QtConcurrentRun>

namespace coresteer::ui {

using namespace coresteer::layout;
using namespace coresteer::live;

BufferbloatTest::BufferbloatTest(QObject* parent)
    : QObject(parent), m_probeTimer(new QTimer(this)) {
    m_probeTimer->setInterval(100);
    connect(m_probeTimer, &QTimer::timeout, this, &BufferbloatTest::probe);
}

BufferbloatTest::~BufferbloatTest() {
    stopLoad();
}

void BufferbloatTest::setProbeTarget(const QString& host, int port) {
    m_host = host;
    m_port = port;
}

double BufferbloatTest::seconds() const {
    return static_cast<double>(m_clock.nsecsElapsed()) / 1e9;
}

void BufferbloatTest::start(const Snapshot& snapshot, const QString& label, int hz,
                            std::optional<LoadSpec> load) {
    m_running = true;
    m_idle.clear();
    m_loaded.clear();
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
    // After the baseline the load phase starts: the person runs their test now, or the load
    // generator, when one is chosen, starts.
    QTimer::singleShot(static_cast<int>(kIdleSeconds * 1000), this,
                       [this, writer = m_writer.get(), load] {
                           if (m_writer.get() != writer)
                               return;
                           m_writer->phase(seconds(), "load");
                           if (load)
                               startLoad(*load);
                           Q_EMIT loadPhase();
                       });
    if (probing())
        m_probeTimer->start();
}

void BufferbloatTest::stop() {
    const bool was = m_running;
    m_running = false;
    m_probeTimer->stop();
    stopLoad();
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

void BufferbloatTest::stopLoad() {
    if (!m_load)
        return;
    auto* p = m_load;
    m_load = nullptr;
    m_loadReader.reset();
    if (p->state() != QProcess::NotRunning) {
        p->terminate();
        if (!p->waitForFinished(2000))
            p->kill();
        p->waitForFinished(1000);
    }
    p->deleteLater();
}

// One probe at a time, off the UI thread; a slow answer skips ticks rather than piling up.
void BufferbloatTest::probe() {
    if (m_inFlight || !m_running)
        return;
    m_inFlight = true;
    const double t = seconds(); // probes and samples on one time axis
    auto* w = new QFutureWatcher<std::optional<double>>(this);
    connect(w, &QFutureWatcher<std::optional<double>>::finished, this, [this, w, t] {
        w->deleteLater();
        m_inFlight = false;
        if (!m_running)
            return;
        const auto ms = w->result();
        (t < kIdleSeconds ? m_idle : m_loaded).push_back(ms);
        if (m_writer)
            m_writer->latency(t, ms);
        Q_EMIT latencyMeasured(t, ms);
    });
    const std::string host = m_host.toStdString();
    const int port = m_port;
    w->setFuture(
        QtConcurrent::run([host, port] { return tcpConnectMs(host, port, 1000, nullptr); }));
}

} // namespace coresteer::ui

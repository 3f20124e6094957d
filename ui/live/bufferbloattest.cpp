// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/live/bufferbloattest.h"

#include "core/base/json_text.h"
#include "core/collect/capture.h"
#include "core/layout/layout_json.h"
#include "core/layout/resolve.h"

#include <QStandardPaths>

#include <algorithm>

namespace coresteer::ui {

using namespace coresteer::layout;
using namespace coresteer::live;

namespace {

// A sentence from the engine ("the HTTP load stopped: ...") as the tab says it.
QString sentence(const std::string& text) {
    auto s = QString::fromStdString(text);
    if (!s.isEmpty())
        s[0] = s[0].toUpper();
    return s;
}

} // namespace

BufferbloatTest::BufferbloatTest(QObject* parent) : QObject(parent) {}

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
    if (m_tcpProbes.contains(name))
        return m_tcpProbes.value(name);
    for (const auto& h : m_beyondHosts)
        if (QString::fromStdString(probeName(h.toStdString())) == name)
            return QStringLiteral("ICMP");
    return {};
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

void BufferbloatTest::start(const Snapshot& snapshot, const QString& label, int hz,
                            std::optional<LoadSpec> load, int phaseSeconds) {
    m_running = true;
    m_stopping = false;
    m_series.clear();
    m_tcpProbes.clear();
    m_ticks = 0;
    m_loadProblem.clear();
    TestRequest r;
    r.info.label = label.toStdString();
    r.info.started = utcTimestamp();
    r.info.hz = hz;
    if (snapshot.source)
        r.info.capture = writeCapture(*snapshot.source);
    r.info.layout = jsonText(toJson(currentLayout(snapshot)));
    auto& t = r.test;
    for (const auto& h : std::as_const(m_beyondHosts))
        t.beyond.push_back(h.toStdString());
    t.irtt = m_irttTargets;
    t.load = load;
    t.idleSeconds = kIdleSeconds;
    t.phaseSeconds = load ? std::max(1, load->phaseSeconds) : std::max(1, phaseSeconds);
    // Until it is stopped, but for a sequence of phases, which ends with its last, and the
    // demo's own test, which ends with the model's.
    t.duration = 1e12;
    Q_EMIT requested(r);
}

void BufferbloatTest::stop() {
    if (!m_running || m_stopping)
        return;
    m_stopping = true;
    Q_EMIT stopRequested();
}

void BufferbloatTest::abandon() {
    m_running = false;
    m_stopping = false;
}

void BufferbloatTest::finish(RecordingPtr recording, const QString& problem) {
    if (!m_running)
        return;
    m_running = false;
    m_stopping = false;
    if (recording)
        m_finished = std::move(recording);
    if (!problem.isEmpty())
        Q_EMIT this->problem(problem.toHtmlEscaped());
    Q_EMIT finished();
}

void BufferbloatTest::addEvents(const TestEvents& events) {
    if (!m_running)
        return;
    m_ticks = events.ticks;
    for (const auto& p : events.problems) {
        // A host beyond the router reached by a TCP handshake is a method, not a failure.
        const auto at = p.find(": probed by a TCP handshake");
        if (at != std::string::npos) {
            m_tcpProbes.insert(QString::fromStdString(probeName(p.substr(0, at))),
                               QStringLiteral("TCP handshake"));
            continue;
        }
        Q_EMIT problem(sentence(p).toHtmlEscaped());
    }
    for (const auto& p : events.loadProblems) {
        m_loadProblem = sentence(p);
        Q_EMIT problem(m_loadProblem.toHtmlEscaped());
    }
    // In the order the recording has them: latency and throughput as measured, the phases as
    // they begin (idle and done are the tab's own marks).
    for (const auto& l : events.latency)
        measured(l.t, l.ms, QString::fromStdString(l.probe));
    for (const auto& w : events.throughput)
        Q_EMIT throughputMeasured(w.t, w.downBitsPerSec, w.upBitsPerSec);
    for (const auto& p : events.phases)
        if (isLoadPhase(p.name))
            Q_EMIT loadPhase(QString::fromStdString(p.name));
}

void BufferbloatTest::setRecording(std::shared_ptr<const Recording> recording) {
    m_finished = std::move(recording);
}

bool BufferbloatTest::loadGeneratorAvailable() {
    return !QStandardPaths::findExecutable(QStringLiteral("iperf3")).isEmpty();
}

QString BufferbloatTest::routerProbeHost() const {
    if (m_host.isEmpty() || m_port <= 0 || m_beyondHosts.isEmpty() || m_modelled)
        return {};
    return m_beyondHosts.front();
}

void BufferbloatTest::measured(double t, std::optional<double> ms, const QString& name) {
    auto it = std::find_if(m_series.begin(), m_series.end(),
                           [&](const ProbeSeries& s) { return s.name == name; });
    if (it == m_series.end()) {
        m_series.push_back({name, {}, {}});
        it = m_series.end() - 1;
    }
    (t < kIdleSeconds ? it->idle : it->loaded).push_back(ms);
    Q_EMIT latencyMeasured(t, ms, name);
}

} // namespace coresteer::ui

// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/live/livepanel.h"

#include "ui/live/bufferbloattest.h"
#include "ui/live/heatmapwidget.h"
#include "ui/live/latencychart.h"
#include "ui/live/liveexport.h"
#include "ui/live/loadcharts.h"
#include "ui/live/replaybar.h"
#include "ui/live/replaydriver.h"
#include "ui/live/testcontrols.h"
#include "ui/live/testresult.h"
#include "ui/models/interfaceratemodel.h"
#include "ui/models/irqratemodel.h"

#include "core/live/bottleneck.h"

#include <QAction>
#include <QHeaderView>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace coresteer::ui {

using namespace coresteer::live;

namespace {

// A read-only table of `model`, its columns as wide as their text and the last one to the edge.
QTableView* tableOf(QAbstractItemModel* model, const QString& toolTip) {
    auto* t = new QTableView;
    t->setModel(model);
    t->setToolTip(toolTip);
    t->verticalHeader()->hide();
    t->setEditTriggers(QAbstractItemView::NoEditTriggers);
    t->setSelectionMode(QAbstractItemView::NoSelection);
    t->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    t->horizontalHeader()->setStretchLastSection(true);
    return t;
}

} // namespace

LivePanel::LivePanel(QWidget* parent)
    : QWidget(parent), m_charts(new LoadCharts), m_heatmap(new HeatmapWidget),
      m_irqModel(new IrqRateModel(this)), m_ifaceModel(new InterfaceRateModel(this)),
      m_irqs(tableOf(m_irqModel, tr("Where each NIC interrupt lands now, and how often it fires"))),
      m_ifaces(tableOf(m_ifaceModel, tr("Throughput of each interface, from /proc/net/dev"))),
      m_test(new BufferbloatTest(this)), m_replay(new ReplayDriver(this)),
      m_latency(new LatencyChart), m_controls(new TestControls(m_latency)),
      m_replayBar(new ReplayBar) {
    m_heatmap->setToolTip(tr("Cores (rows) over time (columns, newest on the right), coloured by "
                             "busy share; grey columns are times the router did not answer"));
    auto* tables = new QSplitter(Qt::Horizontal);
    tables->addWidget(m_irqs);
    tables->addWidget(m_ifaces);
    auto* middle = new QSplitter(Qt::Horizontal);
    middle->addWidget(m_heatmap);
    middle->addWidget(buildSide());
    middle->setStretchFactor(0, 2);
    middle->setStretchFactor(1, 1);

    connect(m_test, &BufferbloatTest::latencyMeasured, this,
            [this](double t, std::optional<double> ms, const QString& probe) {
                addLatency(t, ms, probe);
                if (t >= BufferbloatTest::kIdleSeconds)
                    showGrade();
            });
    connect(m_test, &BufferbloatTest::throughputMeasured, m_latency, &LatencyChart::addThroughput);
    connect(m_test, &BufferbloatTest::loadPhase, this,
            [this](const QString& name) { m_heatmap->addPhase(TestResult::phaseLabel(name)); });
    connect(m_test, &BufferbloatTest::finished, this, &LivePanel::testEnded);
    connect(m_test, &BufferbloatTest::problem, m_controls, &TestControls::addProblem);
    connect(m_test, &BufferbloatTest::requested, this, &LivePanel::testRequested);
    connect(m_test, &BufferbloatTest::stopRequested, this, &LivePanel::testStopRequested);
    connect(m_controls, &TestControls::testToggled, this,
            [this](bool on) { on ? startTest() : stopTest(); });
    connect(m_controls, &TestControls::beyondHostsEdited, this, &LivePanel::beyondHostsEdited);
    wireReplay();

    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(m_charts);
    split->addWidget(middle);
    split->addWidget(tables);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setStretchFactor(2, 2);
    auto* box = new QVBoxLayout(this);
    box->setContentsMargins(0, 0, 0, 0);
    box->addWidget(split);
}

// Beside the heatmap: the replay bar, and the test's controls and result over the latency strip.
QWidget* LivePanel::buildSide() {
    auto* side = new QWidget;
    auto* box = new QVBoxLayout(side);
    box->setContentsMargins(0, 0, 0, 0);
    m_replayBar->hide(); // while a recording replays
    box->addWidget(m_replayBar);
    box->addWidget(m_controls, 1);
    return side;
}

void LivePanel::setProbeTarget(const QString& host, int port) {
    m_test->setProbeTarget(host, port);
    testButton()->setToolTip(
        m_test->modelled()
            ? tr("Runs the demo's bufferbloat test: 3 s idle, then download, upload and both, "
                 "with the latency the demo models beyond the router; it ends by itself")
        : m_test->probing()
            ? tr("Records every sample and measures latency every 100 ms, to the router and to "
                 "the hosts beyond it: 3 s idle, then run your speed or bufferbloat test (or "
                 "choose a load), and stop when it ends")
            : tr("Records every sample (latency is measured to a router over SSH and to the "
                 "hosts beyond the router that you name)"));
}

QPushButton* LivePanel::testButton() const {
    return m_controls->testButton();
}

bool LivePanel::testRunning() const {
    return m_test->running();
}

std::shared_ptr<const Recording> LivePanel::recording() const {
    return m_test->recording();
}

std::size_t LivePanel::recordedTicks() const {
    return m_test->recordedTicks();
}

QString LivePanel::loadGeneratorProblem() const {
    return m_loadProblem.isEmpty() ? m_test->loadProblem() : m_loadProblem;
}

void LivePanel::startTest() {
    if (!m_snap || m_replay->active() || m_test->running())
        return;
    m_latency->clear();
    // The load generator, when one is chosen: a server that cannot be used is said now, and
    // the test records without load.
    m_loadProblem.clear();
    const auto load = m_controls->chosenLoad(m_phaseSeconds, &m_loadProblem);
    if (load) {
        const auto target = m_controls->loadText();
        Q_EMIT loadTargetUsed(target); // offered first from now on
        m_controls->setLoadText(target);
    }
    m_probesShown = 0;
    m_test->setBeyondHosts(m_controls->usableBeyondHosts(&m_loadProblem));
    m_heatmap->addPhase(m_test->probing() ? tr("idle") : tr("test"));
    m_controls->setResult(
        m_test->probing()
            ? tr("Recording. Measuring the idle latency for 3 s ...")
            : tr("Recording the load (no latency: name hosts beyond the router to probe)."));
    if (!m_loadProblem.isEmpty())
        m_controls->addProblem(m_loadProblem.toHtmlEscaped());
    m_controls->showRunning(true);
    m_test->start(*m_snap, m_label, m_hz, load, m_phaseSeconds); // testRequested
}

void LivePanel::stopTest() {
    if (!m_test->running())
        return;
    m_test->stop(); // testStopRequested; endTest() follows
    m_controls->showStopping();
}

void LivePanel::addTestEvents(const TestEvents& events) {
    m_test->addEvents(events);
}

void LivePanel::endTest(RecordingPtr recording, const QString& problem) {
    m_test->finish(std::move(recording), problem); // testEnded()
}

void LivePanel::abandonTest() {
    if (!m_test->running())
        return;
    m_test->abandon();
    m_controls->showRunning(false);
    m_heatmap->addPhase(tr("done"));
    m_controls->setResult({});
}

void LivePanel::testEnded() {
    m_controls->showRunning(false);
    m_heatmap->addPhase(tr("done"));
    showGrade();
    Q_EMIT recordingFinished();
}

void LivePanel::setRecording(RecordingPtr recording) {
    m_test->setRecording(std::move(recording));
}

void LivePanel::markTrial(const QString& candidate) {
    m_heatmap->addPhase(candidate);
}

void LivePanel::showGrade() {
    m_controls->setResult(
        TestResult::text(*m_test, [this](int cpu) { return m_heatmap->coreLabel(cpu); }));
}

QString LivePanel::gradeText() const {
    return m_controls->result();
}

bool LivePanel::loadGeneratorAvailable() const {
    return BufferbloatTest::loadGeneratorAvailable();
}

void LivePanel::setLoadGenerator(std::optional<LoadSpec> spec) {
    m_controls->showLoad(spec);
    if (spec)
        m_phaseSeconds = std::clamp(spec->phaseSeconds, 1, 3600);
}

void LivePanel::setSettings(const QStringList& loadTargets, const QStringList& beyondHosts) {
    m_controls->setLoadTargets(loadTargets);
    m_controls->setBeyondHosts(beyondHosts);
}

QStringList LivePanel::loadTargets() const {
    return m_controls->loadTargets();
}

void LivePanel::setBeyondHosts(const QStringList& hosts) {
    m_controls->setBeyondHosts(hosts);
    Q_EMIT beyondHostsEdited(beyondHosts());
}

QStringList LivePanel::beyondHosts() const {
    return m_controls->beyondHosts();
}

void LivePanel::setPhaseSeconds(int seconds) {
    m_phaseSeconds = std::clamp(seconds, 1, 3600);
}

void LivePanel::setModelled(bool on) {
    m_test->setModelled(on);
    setProbeTarget({}, 0);
}

void LivePanel::addLatency(double t, std::optional<double> ms, const QString& probe) {
    ++m_probesShown;
    m_latency->addLatency(t, ms, probe);
}

bool LivePanel::haveRecording(QString* error) const {
    if (!recording() && error)
        *error = tr("Nothing has been recorded.");
    return recording() != nullptr;
}

bool LivePanel::haveSamples(QString* error) const {
    const bool have = m_history && m_history->size() > 0;
    if (!have && error)
        *error = tr("The live view has no samples yet.");
    return have;
}

bool LivePanel::saveViewPng(const QString& file, QString* error) const {
    // The whole tab as it is on screen: charts, heatmap, the test's card and the tables.
    return haveSamples(error) && LiveExport::widgetPng(*const_cast<LivePanel*>(this), file, error);
}

bool LivePanel::exportSamplesCsv(const QString& file, QString* error) const {
    return haveSamples(error) && LiveExport::samplesCsv(*m_history, file, error);
}

bool LivePanel::saveRecording(const QString& file, QString* error) const {
    return haveRecording(error) && LiveExport::saveRecording(*recording(), file, error);
}

bool LivePanel::exportCsv(const QString& file, QString* error) const {
    return haveRecording(error) && LiveExport::recordingCsv(*recording(), file, error);
}

bool LivePanel::exportPng(const QString& file, QString* error) const {
    return haveRecording(error) && LiveExport::recordingPng(*recording(), file, error);
}

void LivePanel::setViewActions(const QList<QAction*>& actions) {
    m_viewActions = actions;
    m_controls->setViewActions(actions);
    enableViewActions();
}

void LivePanel::enableViewActions() {
    const bool on = haveSamples(nullptr);
    for (auto* a : std::as_const(m_viewActions))
        if (a->isEnabled() != on)
            a->setEnabled(on);
}

void LivePanel::setRecordingActions(const QList<QAction*>& actions) {
    m_controls->setRecordingActions(actions);
}

QWidget* LivePanel::recordingButtons() const {
    return m_controls->recordingButtons();
}

void LivePanel::reset(SnapshotPtr snapshot, int hz, const QString& label) {
    m_replay->stop();
    m_replayBar->hide();
    testButton()->setEnabled(snapshot != nullptr);
    m_snap = std::move(snapshot);
    m_hz = std::clamp(hz, 1, 20);
    m_label = label.isEmpty() && m_snap ? QString::fromStdString(m_snap->origin) : label;
    clearViews();
}

// Every view empty, for the snapshot it has.
void LivePanel::clearViews() {
    m_probesShown = 0;
    m_load = {};
    m_latency->clear();
    const int cores = m_snap ? std::max(m_snap->topology.maskWidth, 1) : 0;
    m_irqModel->setSnapshot(m_snap);
    m_ifaceModel->clear();
    m_history =
        std::make_unique<History>(static_cast<std::size_t>(3600 * m_hz), cores, m_irqModel->irqs());
    enableViewActions();
    // Each core by its number, its class (big, LITTLE) and its top frequency.
    std::vector<QString> labels, rows;
    for (int c = 0; c < cores; ++c) {
        const auto* cls = m_snap->topology.classOf(c);
        QString name =
            cls && cls->name != "uniform"
                ? QStringLiteral("CPU%1 %2").arg(c).arg(QString::fromStdString(cls->name))
                : QStringLiteral("CPU%1").arg(c);
        rows.push_back(name);
        const auto& cpus = m_snap->topology.cpus;
        if (static_cast<std::size_t>(c) < cpus.size() &&
            cpus[static_cast<std::size_t>(c)].maxFreqKHz)
            name += QStringLiteral(" %1 GHz").arg(
                *cpus[static_cast<std::size_t>(c)].maxFreqKHz / 1e6, 0, 'f', 2);
        labels.push_back(name);
    }
    m_charts->reset(cores, labels);
    m_heatmap->reset(cores, 600, rows);
}

void LivePanel::addRates(const Rates& r) {
    if (!m_history)
        return;
    m_history->push(r);
    if (m_history->size() == 1)
        enableViewActions();
    if (!replaying())
        live::accumulateLoad(m_load, r);
    m_charts->update(*m_history);
    m_heatmap->addSample(r);
    m_irqModel->setRates(r);
    m_ifaceModel->setRates(r);
}

const MeasuredLoad* LivePanel::measuredLoad(const Snapshot& snap, double minSeconds) const {
    if (!m_snap || m_snap->origin != snap.origin || m_load.seconds < minSeconds)
        return nullptr;
    return &m_load;
}

void LivePanel::addGap(double uptime) {
    if (!m_history)
        return;
    m_history->pushGap(uptime);
    m_heatmap->addGap();
}

} // namespace coresteer::ui

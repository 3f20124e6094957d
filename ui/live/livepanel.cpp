// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/live/livepanel.h"

#include "ui/qtext.h"

#include "ui/live/bufferbloattest.h"
#include "ui/live/heatmapwidget.h"
#include "ui/live/loadcharts.h"
#include "ui/live/recordingimage.h"
#include "ui/live/replaydriver.h"
#include "ui/settings.h"

#include "core/live/bottleneck.h"
#include "core/live/latency.h"
#include "core/live/recording.h"

#include <QAction>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QCoreApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLegendMarker>
#include <QLineEdit>
#include <QLineSeries>
#include <QPushButton>
#include <QSaveFile>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QToolButton>
#include <QVBoxLayout>
#include <QValueAxis>

#include <cmath>
#include <set>

namespace coresteer::ui {

using namespace coresteer::live;

namespace {

QTableWidget* table(const QStringList& headers) {
    auto* t = new QTableWidget(0, static_cast<int>(headers.size()));
    t->setHorizontalHeaderLabels(headers);
    t->verticalHeader()->hide();
    t->setEditTriggers(QAbstractItemView::NoEditTriggers);
    t->setSelectionMode(QAbstractItemView::NoSelection);
    t->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    t->horizontalHeader()->setStretchLastSection(true);
    return t;
}

void setCell(QTableWidget* t, int row, int col, const QString& text, bool right = false) {
    auto* it = t->item(row, col);
    if (!it) {
        it = new QTableWidgetItem;
        if (right)
            it->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        t->setItem(row, col, it);
    }
    if (it->text() != text)
        it->setText(text);
}

} // namespace

// A phase's name as the heatmap marks it.
static QString phaseLabel(const QString& name) {
    if (name == QLatin1String("download"))
        return QCoreApplication::translate("LivePanel", "download");
    if (name == QLatin1String("upload"))
        return QCoreApplication::translate("LivePanel", "upload");
    if (name == QLatin1String("both"))
        return QCoreApplication::translate("LivePanel", "both");
    return QCoreApplication::translate("LivePanel", "load");
}

LivePanel::LivePanel(QWidget* parent)
    : QWidget(parent), m_charts(new LoadCharts), m_heatmap(new HeatmapWidget),
      m_irqs(table({tr("IRQ"), tr("Name"), tr("Interface"), tr("Rate /s"), tr("Fires on")})),
      m_ifaces(
          table({tr("Interface"), tr("In Mb/s"), tr("Out Mb/s"), tr("In kpps"), tr("Out kpps")})),
      m_test(new BufferbloatTest(this)), m_replay(new ReplayDriver(this)),
      m_testButton(new QPushButton(tr("Start recording"))), m_grade(new QLabel),
      m_latency(new QLineSeries), m_probeHosts(new QLineEdit), m_latencyX(new QValueAxis),
      m_latencyY(new QValueAxis), m_replayBar(new QWidget), m_replayLabel(new QLabel),
      m_replaySpeed(new QComboBox), m_replaySlider(new QSlider(Qt::Horizontal)),
      m_down(new QLineSeries), m_up(new QLineSeries), m_mbps(new QValueAxis),
      m_loadMode(new QComboBox), m_loadServer(new QComboBox), m_loadStreams(new QSpinBox) {
    m_irqs->setToolTip(tr("Where each NIC interrupt lands now, and how often it fires"));
    m_ifaces->setToolTip(tr("Throughput of each interface, from /proc/net/dev"));
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
    buildReplayBar();

    connect(m_test, &BufferbloatTest::latencyMeasured, this,
            [this](double t, std::optional<double> ms, const QString& probe) {
                addLatency(t, ms, probe);
                if (t >= BufferbloatTest::kIdleSeconds)
                    showGrade();
            });
    connect(m_test, &BufferbloatTest::throughputMeasured, this, &LivePanel::addThroughput);
    connect(m_test, &BufferbloatTest::loadPhase, this,
            [this](const QString& name) { m_heatmap->addPhase(phaseLabel(name)); });
    connect(m_test, &BufferbloatTest::finished, this, &LivePanel::stopTest);
    connect(m_test, &BufferbloatTest::problem, this, &LivePanel::showProblem);
    connect(m_replay, &ReplayDriver::rates, this, [this](const Rates& r) {
        addRates(r);
        Q_EMIT replayedRates(r);
    });
    connect(m_replay, &ReplayDriver::gap, this, [this] {
        addGap(m_history && m_history->size() ? m_history->time(m_history->size() - 1) : 0);
    });
    connect(m_replay, &ReplayDriver::latency, this,
            [this](double t, std::optional<double> ms, bool, const QString& probe) {
                addLatency(t, ms, probe);
            });
    connect(m_replay, &ReplayDriver::throughput, this, &LivePanel::addThroughput);
    connect(m_replay, &ReplayDriver::restarted, this, [this] {
        clearViews();
        m_grade->clear();
    });
    connect(m_replay, &ReplayDriver::moved, this, &LivePanel::showReplayPosition);

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

// Beside the heatmap: the replay bar, the load generator, the test's button and grade, and the
// latency strip.
QWidget* LivePanel::buildSide() {
    m_testButton->setCheckable(true);
    m_testButton->setEnabled(false);
    connect(m_testButton, &QPushButton::toggled, this,
            [this](bool on) { on ? startTest() : stopTest(); });
    m_grade->setWordWrap(true);
    auto* side = new QWidget;
    auto* sideBox = new QVBoxLayout(side);
    sideBox->setContentsMargins(0, 0, 0, 0);
    sideBox->addWidget(m_replayBar);
    // The optional load generator, under the record button's control.
    m_loadMode->addItem(tr("None (run your own test)"));
    m_loadMode->addItem(tr("Download"), static_cast<int>(LoadSpec::Direction::Download));
    m_loadMode->addItem(tr("Upload"), static_cast<int>(LoadSpec::Direction::Upload));
    m_loadMode->addItem(tr("Both ways"), static_cast<int>(LoadSpec::Direction::Both));
    m_loadMode->addItem(tr("Download, upload, both (10 s each)"),
                        static_cast<int>(LoadSpec::Direction::Sequence));
    m_loadServer->setEditable(true);
    m_loadServer->setInsertPolicy(QComboBox::NoInsert);
    m_loadServer->setObjectName(QStringLiteral("loadServer"));
    m_loadServer->lineEdit()->setPlaceholderText(
        tr("iperf3 server host[:port], or URLs to download [POST a URL for uploads]"));
    m_loadServer->setToolTip(
        tr("Where the load goes, beyond the router: an iperf3 server (host[:port]), or HTTP(S) "
           "as the web's tests load: the URLs of large files to download (the streams take them in "
           "turn), and for uploads the word POST and a URL that takes them. Certificates are "
           "checked. The targets "
           "used before and those in Edit > Preferences are offered."));
    m_loadServer->addItems(settings::loadTargets());
    m_loadServer->setEditText(QString());
    m_loadStreams->setRange(1, 32);
    m_loadStreams->setValue(4);
    m_loadStreams->setSuffix(tr(" streams"));
    auto* load = new QHBoxLayout;
    load->addWidget(m_loadMode);
    load->addWidget(m_loadServer, 1);
    load->addWidget(m_loadStreams);
    sideBox->addLayout(load);
    // Latency where the queue is: hosts past the WAN, contacted only while a test runs.
    m_probeHosts->setObjectName(QStringLiteral("probeHosts"));
    m_probeHosts->setPlaceholderText(tr("Latency beyond the router: hosts past the WAN"));
    m_probeHosts->setToolTip(
        tr("Hosts past the router's WAN (your ISP's gateway, a DNS server, the load server) to "
           "probe with ICMP echo from this machine during a test, separated by spaces; "
           "irtt://HOST[:PORT] names an irtt server, probed by irtt for the round trip and each "
           "way's delay. The router's own address measures only its responsiveness. Nothing is "
           "contacted until a test starts."));
    m_probeHosts->setText(settings::beyondHosts().join(QLatin1Char(' ')));
    connect(m_probeHosts, &QLineEdit::editingFinished, this,
            [this] { settings::setBeyondHosts(beyondHosts()); });
    sideBox->addWidget(m_probeHosts);
    auto* testRow = new QHBoxLayout;
    testRow->addWidget(m_testButton, 1);
    m_viewButtons = new QWidget;
    m_viewButtons->setObjectName(QStringLiteral("viewButtons"));
    auto* viewBox = new QHBoxLayout(m_viewButtons);
    viewBox->setContentsMargins(0, 0, 0, 0);
    testRow->addWidget(m_viewButtons);
    sideBox->addLayout(testRow);
    sideBox->addWidget(m_grade);
    m_recordingButtons = new QWidget;
    m_recordingButtons->setObjectName(QStringLiteral("recordingButtons"));
    auto* buttons = new QHBoxLayout(m_recordingButtons);
    buttons->setContentsMargins(0, 0, 0, 0);
    sideBox->addWidget(m_recordingButtons);
    sideBox->addWidget(buildLatencyChart(), 1);
    return side;
}

// Latency (left axis, ms) and the load generator's throughput (right axis, Mb/s) over the last
// minute of the test.
QWidget* LivePanel::buildLatencyChart() {
    auto* chart = new QChart;
    chart->legend()->hide();
    chart->setMargins(QMargins(2, 2, 2, 2));
    chart->setTitle(tr("Latency (ms), load (Mb/s)"));
    QFont small = chart->titleFont();
    small.setPointSizeF(small.pointSizeF() * 0.8);
    chart->setTitleFont(small);
    chart->addSeries(m_latency);
    chart->addSeries(m_down);
    chart->addSeries(m_up);
    chart->addAxis(m_latencyX, Qt::AlignBottom);
    chart->addAxis(m_latencyY, Qt::AlignLeft);
    chart->addAxis(m_mbps, Qt::AlignRight);
    m_latencyChart = chart;
    m_latency->setName(tr("router (LAN side)"));
    m_down->setName(tr("down"));
    m_up->setName(tr("up"));
    for (auto* series : {m_latency, m_down, m_up})
        series->attachAxis(m_latencyX);
    m_latency->attachAxis(m_latencyY);
    m_down->attachAxis(m_mbps);
    m_up->attachAxis(m_mbps);
    m_latencyX->setRange(0, 60);
    m_latencyY->setRange(0, 10);
    m_mbps->setRange(0, 100);
    m_mbps->setLabelFormat(QStringLiteral("%.0f"));
    m_latencyY->setLabelFormat(QStringLiteral("%.1f"));
    m_latencyX->setLabelFormat(QStringLiteral("%.0f"));
    for (auto* axis : {m_latencyX, m_latencyY, m_mbps}) {
        axis->setLabelsFont(small);
        axis->setTickCount(4);
    }
    m_latencyX->setTitleText(QString());
    auto* view = new QChartView(chart);
    view->setMinimumWidth(340);
    view->setMinimumHeight(150);
    return view;
}

// The replay bar: where the replay is (drag to go elsewhere), and how fast it goes.
void LivePanel::buildReplayBar() {
    auto* bar = new QHBoxLayout(m_replayBar);
    bar->setContentsMargins(0, 0, 0, 0);
    bar->addWidget(m_replayLabel);
    m_replaySlider->setTracking(false); // one seek where the drag ends
    m_replaySlider->setToolTip(tr("Where the replay is: drag to go to another time"));
    connect(m_replaySlider, &QSlider::valueChanged, this,
            [this](int tenths) { seekReplay(tenths / 10.0); });
    bar->addWidget(m_replaySlider, 1);
    for (const auto& [text, speed] : std::initializer_list<std::pair<QString, double>>{
             {tr("1x"), 1}, {tr("4x"), 4}, {tr("16x"), 16}, {tr("All"), 0}})
        m_replaySpeed->addItem(text, speed);
    m_replaySpeed->setToolTip(tr("How fast the recording replays"));
    bar->addWidget(m_replaySpeed);
    connect(m_replaySpeed, &QComboBox::currentIndexChanged, this,
            [this] { m_replay->setSpeed(m_replaySpeed->currentData().toDouble()); });
    m_replayBar->hide();
}

void LivePanel::setProbeTarget(const QString& host, int port) {
    m_test->setProbeTarget(host, port);
    m_testButton->setToolTip(
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

bool LivePanel::testRunning() const {
    return m_test->running();
}

std::shared_ptr<const Recording> LivePanel::recording() const {
    return m_test->recording();
}

std::size_t LivePanel::recordedTicks() const {
    return m_test->recordedTicks();
}

bool LivePanel::replaying() const {
    return m_replay->active();
}

double LivePanel::replayPosition() const {
    return m_replay->position();
}

QString LivePanel::loadGeneratorProblem() const {
    return m_loadProblem.isEmpty() ? m_test->loadProblem() : m_loadProblem;
}

void LivePanel::startTest() {
    if (!m_snap || m_replay->active())
        return;
    m_down->clear();
    m_up->clear();
    clearLatencySeries();
    // The load generator, when one is chosen: a server that cannot be used is said now, and
    // the test records without load.
    std::optional<LoadSpec> load;
    m_loadProblem.clear();
    if (m_loadMode->currentIndex() > 0) {
        LoadSpec spec;
        std::string error;
        const auto server = m_loadServer->currentText().trimmed();
        spec.direction = static_cast<LoadSpec::Direction>(m_loadMode->currentData().toInt());
        if (!parseLoadTarget(server.toStdString(), spec, &error)) {
            m_loadProblem = QString::fromStdString(error);
        } else if (!spec.canRun(spec.direction)) {
            m_loadProblem =
                tr("An upload needs a URL that takes it, after the word POST: %1").arg(server);
        } else if (!spec.isHttp() && !loadGeneratorAvailable()) {
            m_loadProblem = tr("iperf3 is not installed here: install it, or load over HTTP(S) "
                               "with a URL");
        } else {
            settings::addLoadTarget(server);
            loadSettings();
            m_loadServer->setEditText(server);
            spec.streams = m_loadStreams->value();
            spec.phaseSeconds = m_phaseSeconds;
            load = spec;
        }
    }
    m_probesShown = 0;
    const auto hosts = beyondHosts();
    const auto usable = settings::plainHosts(hosts);
    for (const auto& h : hosts)
        if (!usable.contains(h))
            m_loadProblem += (m_loadProblem.isEmpty() ? QString() : QStringLiteral("; ")) +
                             tr("not a host name or address: %1").arg(h);
    m_test->setBeyondHosts(usable);
    if (m_test->modelled())
        Q_EMIT demoTestStarting(BufferbloatTest::kIdleSeconds, m_phaseSeconds);
    m_test->start(*m_snap, m_label, m_hz, load);
    if (const auto host = m_test->routerProbeHost(); !host.isEmpty())
        Q_EMIT routerProbe(host);
    m_heatmap->addPhase(m_test->probing() ? tr("idle") : tr("test"));
    m_grade->setText(
        m_test->probing()
            ? tr("Recording. Measuring the idle latency for 3 s ...")
            : tr("Recording the load (no latency: name hosts beyond the router to probe)."));
    if (!m_loadProblem.isEmpty())
        showProblem(m_loadProblem.toHtmlEscaped());
    if (!m_testButton->isChecked()) {
        const QSignalBlocker b(m_testButton);
        m_testButton->setChecked(true);
    }
    m_testButton->setText(tr("Stop recording"));
    Q_EMIT recordingActive(true);
}

void LivePanel::stopTest() {
    const bool was = m_test->running();
    m_test->stop();
    if (was)
        Q_EMIT routerProbeDone();
    if (m_testButton->isChecked()) {
        const QSignalBlocker b(m_testButton);
        m_testButton->setChecked(false);
    }
    m_testButton->setText(tr("Start recording"));
    if (!was)
        return;
    m_heatmap->addPhase(tr("done"));
    Q_EMIT recordingActive(false);
    showGrade();
    Q_EMIT recordingFinished();
}

bool LivePanel::loadGeneratorAvailable() const {
    return BufferbloatTest::loadGeneratorAvailable();
}

void LivePanel::setLoadGenerator(std::optional<LoadSpec> spec) {
    if (!spec) {
        m_loadMode->setCurrentIndex(0);
        return;
    }
    m_loadMode->setCurrentIndex(m_loadMode->findData(static_cast<int>(spec->direction)));
    m_loadServer->setEditText(QString::fromStdString(loadTargetText(*spec)));
    m_loadStreams->setValue(spec->streams);
    m_phaseSeconds = std::clamp(spec->phaseSeconds, 1, 3600);
}

void LivePanel::addSample(const SampleTexts& texts) {
    const bool was = m_test->running();
    m_test->addSample(texts); // stops the test at the recording's size limit
    if (was && !m_test->running())
        stopTest();
}

void LivePanel::showProblem(const QString& html) {
    m_grade->setText(m_grade->text().isEmpty() ? html
                                               : m_grade->text() + QStringLiteral("<br>") + html);
}

QLineSeries* LivePanel::latencySeries(const QString& probe) {
    if (probe == QLatin1String(kLanProbe.data(), kLanProbe.size()))
        return m_latency;
    if (auto it = m_beyondSeries.find(probe); it != m_beyondSeries.end())
        return it->second;
    // A series of its own for each probe, with the legend shown once there are two.
    auto* s = new QLineSeries;
    s->setName(probe == QLatin1String(kRouterProbe.data(), kRouterProbe.size())
                   ? tr("from the router")
               : probe == QLatin1String(kDemoProbe.data(), kDemoProbe.size()) ? tr("demo's model")
                                                                              : probe);
    m_latencyChart->addSeries(s);
    s->attachAxis(m_latencyX);
    s->attachAxis(m_latencyY);
    m_beyondSeries[probe] = s;
    return s;
}

// The legend names only the series that have points, and shows once there are two.
void LivePanel::updateLegend() {
    int shown = 0;
    for (auto* series : m_latencyChart->series()) {
        const bool has = static_cast<QLineSeries*>(series)->count() > 0;
        for (auto* marker : m_latencyChart->legend()->markers(series))
            marker->setVisible(has);
        shown += has;
    }
    m_latencyChart->legend()->setAlignment(Qt::AlignBottom);
    m_latencyChart->legend()->setVisible(shown > 1);
}

void LivePanel::loadSettings() {
    const auto text = m_loadServer->currentText();
    const QSignalBlocker b(m_loadServer);
    m_loadServer->clear();
    m_loadServer->addItems(settings::loadTargets());
    m_loadServer->setEditText(text);
    m_probeHosts->setText(settings::beyondHosts().join(QLatin1Char(' ')));
}

QStringList LivePanel::loadTargets() const {
    QStringList out;
    for (int i = 0; i < m_loadServer->count(); ++i)
        out << m_loadServer->itemText(i);
    return out;
}

void LivePanel::setPhaseSeconds(int seconds) {
    m_phaseSeconds = std::clamp(seconds, 1, 3600);
}

void LivePanel::setModelled(bool on) {
    m_test->setModelled(on);
    setProbeTarget({}, 0);
}

void LivePanel::addDemoModel(double latencyMs, const QString& phase) {
    if (!m_test->modelled()) {
        m_test->setModelled(true);
        setProbeTarget({}, 0); // the tooltip says what the test measures now
    }
    m_test->modelLatency(latencyMs, phase);
}

void LivePanel::addRouterLatency(const QVector<std::optional<double>>& replies) {
    m_test->addRouterLatency(replies);
}

void LivePanel::clearLatencySeries() {
    m_latency->clear();
    for (auto& [_, s] : m_beyondSeries) {
        m_latencyChart->removeSeries(s);
        delete s;
    }
    m_beyondSeries.clear();
    updateLegend();
}

void LivePanel::setBeyondHosts(const QStringList& hosts) {
    m_probeHosts->setText(hosts.join(QLatin1Char(' ')));
    settings::setBeyondHosts(beyondHosts());
}

QStringList LivePanel::beyondHosts() const {
    return m_probeHosts->text().split(QLatin1Char(' '), Qt::SkipEmptyParts);
}

void LivePanel::addLatency(double t, std::optional<double> ms, const QString& probe) {
    ++m_probesShown;
    if (ms) {
        auto* series = latencySeries(probe);
        series->append(t, *ms);
        if (series->count() == 1)
            updateLegend();
        m_latencyY->setMax(std::max(m_latencyY->max(), std::ceil(*ms * 1.2)));
    }
    m_latencyX->setRange(std::max(0.0, t - 60), std::max(60.0, t));
}

void LivePanel::addThroughput(double t, double down, double up) {
    m_down->append(t, down / 1e6);
    m_up->append(t, up / 1e6);
    if (m_down->count() == 1)
        updateLegend();
    m_mbps->setMax(std::max(m_mbps->max(), std::ceil(std::max(down, up) / 1e6 * 1.1)));
    m_latencyX->setRange(std::max(0.0, t - 60), std::max(60.0, t));
}

namespace {

// The whole text or nothing: a file that cannot be written keeps what it had.
// A text button for each action, in `row`'s horizontal layout.
void addButtons(QWidget* row, const QList<QAction*>& actions) {
    auto* box = static_cast<QHBoxLayout*>(row->layout());
    for (auto* a : actions) {
        auto* b = new QToolButton;
        b->setDefaultAction(a);
        b->setToolButtonStyle(Qt::ToolButtonTextOnly);
        box->addWidget(b);
    }
}

bool writeWhole(const QString& file, const std::string& text, QString* error) {
    QSaveFile out(file);
    if (!out.open(QIODevice::WriteOnly) ||
        out.write(text.data(), static_cast<qint64>(text.size())) !=
            static_cast<qint64>(text.size()) ||
        !out.commit()) {
        if (error)
            *error =
                QCoreApplication::translate("LivePanel", "%1: %2").arg(file, out.errorString());
        return false;
    }
    return true;
}

} // namespace

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
    if (!haveSamples(error))
        return false;
    // The whole tab as it is on screen: charts, heatmap, the test's card and the tables.
    const auto image = const_cast<LivePanel*>(this)->grab().toImage();
    if (image.isNull() || !image.save(file, "PNG")) {
        if (error)
            *error = tr("%1: cannot be written").arg(file);
        return false;
    }
    return true;
}

bool LivePanel::exportSamplesCsv(const QString& file, QString* error) const {
    if (!haveSamples(error))
        return false;
    return writeWhole(file, live::historyCsv(*m_history), error);
}

void LivePanel::setViewActions(const QList<QAction*>& actions) {
    m_viewActions = actions;
    addButtons(m_viewButtons, actions);
    enableViewActions();
}

void LivePanel::enableViewActions() {
    const bool on = haveSamples(nullptr);
    for (auto* a : std::as_const(m_viewActions))
        if (a->isEnabled() != on)
            a->setEnabled(on);
}

bool LivePanel::saveRecording(const QString& file, QString* error) const {
    if (!haveRecording(error))
        return false;
    return writeWhole(file, writeRecording(*recording()), error);
}

bool LivePanel::exportCsv(const QString& file, QString* error) const {
    if (!haveRecording(error))
        return false;
    std::string why;
    const auto csv = recordingCsv(*recording(), &why);
    if (!csv) {
        if (error)
            *error = QString::fromStdString(why);
        return false;
    }
    return writeWhole(file, *csv, error);
}

bool LivePanel::exportPng(const QString& file, QString* error) const {
    if (!haveRecording(error))
        return false;
    std::string why;
    const auto image = renderRecording(*recording(), &why);
    if (image.isNull()) {
        if (error)
            *error = QString::fromStdString(why);
        return false;
    }
    if (!image.save(file, "PNG")) {
        if (error)
            *error = tr("%1: cannot be written").arg(file);
        return false;
    }
    return true;
}

void LivePanel::startReplay(std::shared_ptr<const Recording> recording, SnapshotPtr snapshot,
                            double speed) {
    stopTest();
    reset(std::move(snapshot), recording->info.hz, QString::fromStdString(recording->info.label));
    m_test->setRecording(recording);
    {
        const QSignalBlocker b(m_replaySpeed);
        const int i = m_replaySpeed->findData(speed);
        m_replaySpeed->setCurrentIndex(i >= 0 ? i : 0);
    }
    {
        const QSignalBlocker b(m_replaySlider);
        m_replaySlider->setRange(0, static_cast<int>(std::ceil(recording->duration * 10)));
        m_replaySlider->setValue(0);
    }
    m_testButton->setEnabled(false);
    m_replayBar->show();
    m_grade->clear();
    m_replay->start(std::move(recording), speed);
}

void LivePanel::seekReplay(double seconds) {
    if (!m_replay->recording() && recording())
        m_replay->start(recording(), m_replaySpeed->currentData().toDouble()); // made here
    m_replay->seek(seconds);
}

void LivePanel::finishReplay() {
    m_replay->setSpeed(0);
}

void LivePanel::showReplayPosition(double seconds, bool done) {
    const auto* rec = m_replay->recording();
    {
        const QSignalBlocker b(m_replaySlider);
        m_replaySlider->setValue(static_cast<int>(std::lround(seconds * 10)));
    }
    const auto label = QString::fromStdString(text::printable(rec->info.label, 40));
    if (!done) {
        m_replayLabel->setText(tr("Replay of %1: %2 of %3 s")
                                   .arg(label)
                                   .arg(seconds, 0, 'f', 1)
                                   .arg(rec->duration, 0, 'f', 1));
        return;
    }
    m_replayLabel->setText(tr("Replayed %1 (%2 s)").arg(label).arg(rec->duration, 0, 'f', 1));
    std::string error;
    if (const auto s = summarize(*rec, &error); s && s->latency)
        m_grade->setText(tr("<b>Bufferbloat grade %1</b>: %2 ms idle, %3 ms under load")
                             .arg(QString::fromStdString(s->latency->grade))
                             .arg(s->latency->idleMs, 0, 'f', 1)
                             .arg(s->latency->loadedMs, 0, 'f', 1));
}

void LivePanel::showGrade() {
    QString probe;
    const auto g = m_test->grade(&probe);
    if (!g) {
        if (!m_test->running())
            m_grade->setText(!m_test->idleMeasured()
                                 ? QString()
                                 : tr("Too short: no latency under load measured."));
        else
            m_grade->setText(tr("Idle latency measured: run your speed test now."));
        return;
    }
    const bool lan = probe == QLatin1String(kLanProbe.data(), kLanProbe.size());
    const bool router = probe == QLatin1String(kRouterProbe.data(), kRouterProbe.size());
    const QString method = m_test->probeMethod(probe);
    const QString where =
        lan      ? tr("router responsiveness, from the LAN side")
        : router ? tr("from the router to %1, by its own ping")
                       .arg(m_test->routerProbeHost().toHtmlEscaped())
        : probe == QLatin1String(kDemoProbe.data(), kDemoProbe.size())
            ? tr("beyond the router, as the demo's model has it")
            : tr("beyond the router, to %1%2")
                  .arg(probe.toHtmlEscaped(),
                       method.isEmpty() ? QString() : tr(" by %1").arg(method.toHtmlEscaped()));
    QString text =
        tr("<b>Bufferbloat grade %1</b> (%7): %2 ms idle, %3 ms under load (+%4 ms; 95th "
           "percentile +%5 ms)%6")
            .arg(QString::fromStdString(g->grade))
            .arg(g->idleMs, 0, 'f', 1)
            .arg(g->loadedMs, 0, 'f', 1)
            .arg(g->increaseMs, 0, 'f', 1)
            .arg(g->p95IncreaseMs, 0, 'f', 1)
            .arg(g->lost ? tr(", %1 probes lost").arg(g->lost) : QString())
            .arg(where);
    // After the test, its result as one card: each phase's grade for that probe with the load
    // generator's throughput in it, and the busiest core.
    if (!m_test->running() && m_test->recording()) {
        std::string error;
        if (const auto sum = summarize(*m_test->recording(), &error)) {
            if (const auto* p = sum->probe(probe.toStdString()))
                for (const auto& [phase, pg] : p->byPhase) {
                    text += tr("<br>%1: +%2 ms, grade %3")
                                .arg(phaseLabel(QString::fromStdString(phase)))
                                .arg(pg.increaseMs, 0, 'f', 1)
                                .arg(QString::fromStdString(pg.grade));
                    for (const auto& ph : sum->phases)
                        if (ph.name == phase && ph.downMean)
                            text += tr("; %1 Mb/s down, %2 Mb/s up")
                                        .arg(*ph.downMean / 1e6, 0, 'f', 1)
                                        .arg(*ph.upMean / 1e6, 0, 'f', 1);
                }
            // An irtt server's delay each way, idle and loaded: which way the queue is.
            for (const auto& up : sum->probeSummaries) {
                constexpr std::string_view kUp = "irtt-up:";
                if (!up.latency || !std::string_view(up.name).starts_with(kUp))
                    continue;
                const auto host = up.name.substr(kUp.size());
                const auto* down = sum->probe("irtt-down:" + host);
                if (!down || !down->latency)
                    continue;
                const auto& u = *up.latency;
                const auto& d = *down->latency;
                text += tr("<br>Each way to %1 (irtt): up %2 ms idle, %3 ms loaded (+%4 ms); "
                           "down %5 ms idle, %6 ms loaded (+%7 ms)")
                            .arg(QString::fromStdString(host).toHtmlEscaped())
                            .arg(u.idleMs, 0, 'f', 1)
                            .arg(u.loadedMs, 0, 'f', 1)
                            .arg(u.increaseMs, 0, 'f', 1)
                            .arg(d.idleMs, 0, 'f', 1)
                            .arg(d.loadedMs, 0, 'f', 1)
                            .arg(d.increaseMs, 0, 'f', 1);
            }
            const RecordingSummary::Core* busiest = nullptr;
            for (const auto& c : sum->cores)
                if (!busiest || c.peak > busiest->peak)
                    busiest = &c;
            if (busiest)
                text += tr("<br>Busiest core: %1, %2 % at its peak (%3 % kernel work: irq, "
                           "softirq, system)")
                            .arg(m_heatmap->coreLabel(busiest->cpu).toHtmlEscaped())
                            .arg(busiest->peak * 100, 0, 'f', 0)
                            .arg(busiest->kernelPeak * 100, 0, 'f', 0);
        }
    }
    m_grade->setText(text);
}

QString LivePanel::gradeText() const {
    return m_grade->text();
}

void LivePanel::reset(SnapshotPtr snapshot, int hz, const QString& label) {
    m_replay->stop();
    m_replayBar->hide();
    m_testButton->setEnabled(snapshot != nullptr);
    m_snap = std::move(snapshot);
    m_hz = std::clamp(hz, 1, 20);
    m_label = label.isEmpty() && m_snap ? QString::fromStdString(m_snap->origin) : label;
    clearViews();
}

// Every view empty, for the snapshot it has.
void LivePanel::clearViews() {
    m_probesShown = 0;
    m_load = {};
    m_down->clear();
    m_up->clear();
    clearLatencySeries();
    const int cores = m_snap ? std::max(m_snap->topology.maskWidth, 1) : 0;
    m_nicIrqs.clear();
    std::set<std::uint32_t> seen;
    if (m_snap)
        for (const auto& n : m_snap->interfaces)
            for (auto i : n.irqs)
                if (seen.insert(i).second)
                    m_nicIrqs.push_back(i);
    m_history = std::make_unique<History>(static_cast<std::size_t>(3600 * m_hz), cores, m_nicIrqs);
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
    m_irqs->setRowCount(static_cast<int>(m_nicIrqs.size()));
    for (std::size_t k = 0; k < m_nicIrqs.size(); ++k) {
        const auto irq = m_nicIrqs[k];
        const auto* row = m_snap->interrupts.findIrq(irq);
        const auto* info = m_snap->irq(irq);
        setCell(m_irqs, static_cast<int>(k), 0, QString::number(irq), true);
        setCell(m_irqs, static_cast<int>(k), 1,
                row && !row->actions.empty() ? QString::fromStdString(row->actions.front())
                                             : QString());
        setCell(m_irqs, static_cast<int>(k), 2,
                info && !info->interfaces.empty() ? QString::fromStdString(info->interfaces.front())
                                                  : QString());
    }
    m_ifaces->setRowCount(0);
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
    for (std::size_t k = 0; k < m_nicIrqs.size(); ++k) {
        const auto* ir = r.irq(m_nicIrqs[k]);
        QStringList on;
        if (ir)
            for (std::size_t c = 0; c < ir->perCpu.size(); ++c)
                if (ir->perCpu[c] >= 0.5)
                    on << QStringLiteral("CPU%1").arg(c);
        setCell(m_irqs, static_cast<int>(k), 3, ir ? eventRate(ir->total, false) : QString(), true);
        setCell(m_irqs, static_cast<int>(k), 4, on.join(QStringLiteral(", ")));
    }
    int row = 0;
    m_ifaces->setRowCount(static_cast<int>(r.interfaces.size()));
    for (const auto& n : r.interfaces) {
        setCell(m_ifaces, row, 0, QString::fromStdString(n.name));
        setCell(m_ifaces, row, 1, QString::number(n.rxBitsPerSec / 1e6, 'f', 1), true);
        setCell(m_ifaces, row, 2, QString::number(n.txBitsPerSec / 1e6, 'f', 1), true);
        setCell(m_ifaces, row, 3, QString::number(n.rxPacketsPerSec / 1e3, 'f', 1), true);
        setCell(m_ifaces, row, 4, QString::number(n.txPacketsPerSec / 1e3, 'f', 1), true);
        ++row;
    }
}

const MeasuredLoad* LivePanel::measuredLoad(const Snapshot& snap, double minSeconds) const {
    if (!m_snap || m_snap->origin != snap.origin || m_load.seconds < minSeconds)
        return nullptr;
    return &m_load;
}

void LivePanel::addGap(double uptime) {
    m_test->addGap();
    if (!m_history)
        return;
    m_history->pushGap(uptime);
    m_heatmap->addGap();
}

void LivePanel::setRecordingActions(const QList<QAction*>& actions) {
    addButtons(m_recordingButtons, actions);
    static_cast<QHBoxLayout*>(m_recordingButtons->layout())->addStretch(1);
}

} // namespace coresteer::ui

#include "ui/livepanel.h"

#include "ui/heatmapwidget.h"
#include "ui/loadcharts.h"

#include "core/live/latency.h"

#include <QChart>
#include <QChartView>
#include <QDateTime>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineSeries>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>
#include <QValueAxis>
#include <QtConcurrent/QtConcurrentRun>

#include <cmath>
#include <set>

namespace coresteer::ui {

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

QString perSecond(double v) {
    if (v >= 1e6)
        return QStringLiteral("%1M").arg(v / 1e6, 0, 'f', 2);
    if (v >= 1e4)
        return QStringLiteral("%1k").arg(v / 1e3, 0, 'f', 1);
    return QString::number(qRound(v));
}

} // namespace

LivePanel::LivePanel(QWidget* parent)
    : QWidget(parent), m_charts(new LoadCharts), m_heatmap(new HeatmapWidget),
      m_irqs(table({tr("IRQ"), tr("Name"), tr("Interface"), tr("Rate /s"), tr("Fires on")})),
      m_ifaces(
          table({tr("Interface"), tr("In Mb/s"), tr("Out Mb/s"), tr("In kpps"), tr("Out kpps")})),
      m_probeTimer(new QTimer(this)), m_testButton(new QPushButton(tr("Start bufferbloat test"))),
      m_grade(new QLabel), m_latency(new QLineSeries), m_latencyX(new QValueAxis),
      m_latencyY(new QValueAxis) {
    m_irqs->setToolTip(tr("Where each NIC interrupt lands now, and how often it fires"));
    m_ifaces->setToolTip(tr("Throughput of each interface, from /proc/net/dev"));
    m_heatmap->setToolTip(tr("Cores (rows) over time (columns, newest on the right), coloured by "
                             "busy share; grey columns are times the router did not answer"));
    auto* tables = new QSplitter(Qt::Horizontal);
    tables->addWidget(m_irqs);
    tables->addWidget(m_ifaces);
    // The latency strip beside the heatmap, with the test's button and grade.
    auto* chart = new QChart;
    chart->legend()->hide();
    chart->setMargins(QMargins(2, 2, 2, 2));
    chart->setTitle(tr("Latency to the router (ms)"));
    chart->addSeries(m_latency);
    chart->addAxis(m_latencyX, Qt::AlignBottom);
    chart->addAxis(m_latencyY, Qt::AlignLeft);
    m_latency->attachAxis(m_latencyX);
    m_latency->attachAxis(m_latencyY);
    m_latencyX->setRange(0, 60);
    m_latencyX->setTitleText(tr("s"));
    m_latencyY->setRange(0, 10);
    auto* latencyView = new QChartView(chart);
    latencyView->setMinimumWidth(260);
    m_testButton->setCheckable(true);
    m_testButton->setEnabled(false);
    m_testButton->setToolTip(tr("Latency is measured to a router over SSH"));
    connect(m_testButton, &QPushButton::toggled, this,
            [this](bool on) { on ? startTest() : stopTest(); });
    m_grade->setWordWrap(true);
    auto* side = new QWidget;
    auto* sideBox = new QVBoxLayout(side);
    sideBox->setContentsMargins(0, 0, 0, 0);
    sideBox->addWidget(m_testButton);
    sideBox->addWidget(m_grade);
    sideBox->addWidget(latencyView, 1);
    auto* middle = new QSplitter(Qt::Horizontal);
    middle->addWidget(m_heatmap);
    middle->addWidget(side);
    middle->setStretchFactor(0, 3);
    middle->setStretchFactor(1, 1);
    m_probeTimer->setInterval(100);
    connect(m_probeTimer, &QTimer::timeout, this, &LivePanel::probe);

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

void LivePanel::setProbeTarget(const QString& host, int port) {
    m_host = host;
    m_port = port;
    const bool ok = !host.isEmpty() && port > 0;
    m_testButton->setEnabled(ok);
    m_testButton->setToolTip(ok ? tr("Measures latency to the router every 100 ms: 3 s idle, "
                                     "then run your speed or bufferbloat test, and stop when "
                                     "it ends")
                                : tr("Latency is measured to a router over SSH"));
}

void LivePanel::startTest() {
    if (m_host.isEmpty() || m_port <= 0)
        return;
    m_testing = true;
    m_idle.clear();
    m_loaded.clear();
    m_latency->clear();
    m_testStartMs = QDateTime::currentMSecsSinceEpoch();
    m_grade->setText(tr("Measuring the idle latency for 3 s ..."));
    m_probeTimer->start();
    if (!m_testButton->isChecked()) {
        const QSignalBlocker b(m_testButton);
        m_testButton->setChecked(true);
    }
    m_testButton->setText(tr("Stop the test"));
}

void LivePanel::stopTest() {
    m_testing = false;
    m_probeTimer->stop();
    if (m_testButton->isChecked()) {
        const QSignalBlocker b(m_testButton);
        m_testButton->setChecked(false);
    }
    m_testButton->setText(tr("Start bufferbloat test"));
    showGrade();
}

// One probe at a time, off the UI thread; a slow answer skips ticks rather than piling up.
void LivePanel::probe() {
    if (m_inFlight || !m_testing)
        return;
    m_inFlight = true;
    const double t =
        static_cast<double>(QDateTime::currentMSecsSinceEpoch() - m_testStartMs) / 1000.0;
    auto* w = new QFutureWatcher<std::optional<double>>(this);
    connect(w, &QFutureWatcher<std::optional<double>>::finished, this, [this, w, t] {
        w->deleteLater();
        m_inFlight = false;
        if (!m_testing)
            return;
        const auto ms = w->result();
        (t < 3.0 ? m_idle : m_loaded).push_back(ms);
        if (ms) {
            m_latency->append(t, *ms);
            m_latencyY->setMax(std::max(m_latencyY->max(), std::ceil(*ms * 1.2)));
        }
        m_latencyX->setRange(std::max(0.0, t - 60), std::max(60.0, t));
        if (t >= 3.0)
            showGrade();
    });
    const std::string host = m_host.toStdString();
    const int port = m_port;
    w->setFuture(
        QtConcurrent::run([host, port] { return tcpConnectMs(host, port, 1000, nullptr); }));
}

void LivePanel::showGrade() {
    const auto g = gradeLatency(m_idle, m_loaded);
    if (!g) {
        if (!m_testing)
            m_grade->setText(m_idle.empty() ? QString()
                                            : tr("Too short: no latency under load measured."));
        else
            m_grade->setText(tr("Idle latency measured: run your speed test now."));
        return;
    }
    m_grade->setText(tr("<b>Bufferbloat grade %1</b>: %2 ms idle, %3 ms under load (+%4 ms)%5")
                         .arg(QString::fromStdString(g->grade))
                         .arg(g->idleMs, 0, 'f', 1)
                         .arg(g->loadedMs, 0, 'f', 1)
                         .arg(g->increaseMs, 0, 'f', 1)
                         .arg(g->lost ? tr(", %1 probes lost").arg(g->lost) : QString()));
}

QString LivePanel::gradeText() const {
    return m_grade->text();
}

void LivePanel::reset(SnapshotPtr snapshot, int hz) {
    m_snap = std::move(snapshot);
    const int cores = m_snap ? std::max(m_snap->topology.maskWidth, 1) : 0;
    m_nicIrqs.clear();
    std::set<std::uint32_t> seen;
    if (m_snap)
        for (const auto& n : m_snap->interfaces)
            for (auto i : n.irqs)
                if (seen.insert(i).second)
                    m_nicIrqs.push_back(i);
    m_history = std::make_unique<History>(static_cast<std::size_t>(3600 * std::max(hz, 1)), cores,
                                          m_nicIrqs);
    std::vector<QString> labels;
    for (int c = 0; c < cores; ++c) {
        const auto* cls = m_snap->topology.classOf(c);
        labels.push_back(
            cls && cls->name != "uniform"
                ? QStringLiteral("CPU%1 %2").arg(c).arg(QString::fromStdString(cls->name))
                : QStringLiteral("CPU%1").arg(c));
    }
    m_charts->reset(cores, labels);
    m_heatmap->reset(cores, 600);
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
    m_charts->update(*m_history);
    m_heatmap->addSample(r);
    for (std::size_t k = 0; k < m_nicIrqs.size(); ++k) {
        const auto* ir = r.irq(m_nicIrqs[k]);
        QStringList on;
        if (ir)
            for (std::size_t c = 0; c < ir->perCpu.size(); ++c)
                if (ir->perCpu[c] >= 0.5)
                    on << QStringLiteral("CPU%1").arg(c);
        setCell(m_irqs, static_cast<int>(k), 3, ir ? perSecond(ir->total) : QString(), true);
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

void LivePanel::addGap(double uptime) {
    if (!m_history)
        return;
    m_history->pushGap(uptime);
    m_heatmap->addGap();
}

} // namespace coresteer::ui

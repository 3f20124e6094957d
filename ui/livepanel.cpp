#include "ui/livepanel.h"

#include "ui/heatmapwidget.h"
#include "ui/loadcharts.h"

#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

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
          table({tr("Interface"), tr("In Mb/s"), tr("Out Mb/s"), tr("In kpps"), tr("Out kpps")})) {
    m_irqs->setToolTip(tr("Where each NIC interrupt lands now, and how often it fires"));
    m_ifaces->setToolTip(tr("Throughput of each interface, from /proc/net/dev"));
    m_heatmap->setToolTip(tr("Cores (rows) over time (columns, newest on the right), coloured by "
                             "busy share; grey columns are times the router did not answer"));
    auto* tables = new QSplitter(Qt::Horizontal);
    tables->addWidget(m_irqs);
    tables->addWidget(m_ifaces);
    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(m_charts);
    split->addWidget(m_heatmap);
    split->addWidget(tables);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setStretchFactor(2, 2);
    auto* box = new QVBoxLayout(this);
    box->setContentsMargins(0, 0, 0, 0);
    box->addWidget(split);
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

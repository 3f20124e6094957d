// The Live tab: per-core load charts, the cores x time heatmap, where each NIC IRQ fires and how
// fast, and each interface's throughput. Fed one Rates per tick; keeps an hour of history.
#pragma once

#include "core/live/history.h"
#include "ui/connection.h"

#include <QWidget>

#include <memory>

class QTableWidget;

namespace coresteer::ui {

class HeatmapWidget;
class LoadCharts;

class LivePanel : public QWidget {
    Q_OBJECT
public:
    explicit LivePanel(QWidget* parent = nullptr);

    // Starts over for this router; `hz` sizes the history (an hour of samples).
    void reset(SnapshotPtr snapshot, int hz);
    void addRates(const Rates& rates);
    void addGap(double uptime);

    const History* history() const { return m_history.get(); }
    LoadCharts* charts() const { return m_charts; }
    HeatmapWidget* heatmap() const { return m_heatmap; }
    QTableWidget* irqTable() const { return m_irqs; }
    QTableWidget* interfaceTable() const { return m_ifaces; }

private:
    SnapshotPtr m_snap;
    std::unique_ptr<History> m_history;
    std::vector<std::uint32_t> m_nicIrqs;
    LoadCharts* m_charts;
    HeatmapWidget* m_heatmap;
    QTableWidget* m_irqs;
    QTableWidget* m_ifaces;
};

} // namespace coresteer::ui

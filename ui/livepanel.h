// The Live tab: per-core load charts, the cores x time heatmap, where each NIC IRQ fires and how
// fast, and each interface's throughput. Fed one Rates per tick; keeps an hour of history.
#pragma once

#include "core/live/history.h"
#include "ui/connection.h"

#include <QWidget>

#include <memory>
#include <optional>
#include <vector>

class QLabel;
class QLineSeries;
class QPushButton;
class QTableWidget;
class QTimer;
class QValueAxis;

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

    // Bufferbloat test: latency probes every 100 ms (a TCP handshake with the router's SSH
    // port) while the person runs a speed test; the first 3 s are the idle baseline. Without a
    // probe target (a local tree, the demo) the test is not offered.
    void setProbeTarget(const QString& host, int port);
    void startTest();
    void stopTest();
    bool testRunning() const { return m_testing; }
    QString gradeText() const;
    int probes() const { return static_cast<int>(m_idle.size() + m_loaded.size()); }
    QPushButton* testButton() const { return m_testButton; }

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

    void probe();
    void showGrade();
    QString m_host;
    int m_port = 0;
    bool m_testing = false, m_inFlight = false;
    qint64 m_testStartMs = 0;
    std::vector<std::optional<double>> m_idle, m_loaded;
    QTimer* m_probeTimer;
    QPushButton* m_testButton;
    QLabel* m_grade;
    QLineSeries* m_latency;
    QValueAxis* m_latencyX;
    QValueAxis* m_latencyY;
};

} // namespace coresteer::ui

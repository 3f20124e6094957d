// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The latency strip beside the heatmap: each probe's round trip (left axis, ms) and the load
// generator's (or the demo's model's) throughput down and up (right axis, Mb/s) over the last
// minute of a test or a replay. The LAN side's probe has its series from the start, every other
// probe gets one of its own with its first answer; the legend names the series that have points
// once there are two. Each axis fits what it shows: the load's to the highest throughput of the
// minute shown, the latency's grows with the highest round trip; both start over with clear().
#pragma once

#include <QChartView>
#include <QString>

#include <map>
#include <optional>

class QChart;
class QLineSeries;
class QValueAxis;

namespace coresteer::ui {

class LatencyChart : public QChartView {
    Q_OBJECT
public:
    explicit LatencyChart(QWidget* parent = nullptr);

    // A probe's answer `t` seconds into the test; a lost one (nullopt) only moves the time axis.
    void addLatency(double t, std::optional<double> ms, const QString& probe);
    void addThroughput(double t, double downBitsPerSec, double upBitsPerSec);
    // Every series empty, the probes' own ones gone, the axes at their first scales.
    void clear();

    // The top of an axis that shows values up to `value`: 1, 1.5, 2, 2.5, 3, 4, 5, 6 or 8 times
    // a power of ten, a tenth above `value` at least, so the line never touches the top.
    static double scaleFor(double value);
    // For tests: the throughput points and the load axis' top.
    int loadPoints() const;
    double loadScale() const;
    double latencyScale() const;

private:
    QLineSeries* series(const QString& probe);
    void updateLegend();
    void showTime(double t); // the last minute up to `t`
    void fitLoad();          // the load axis to the throughput shown

    QChart* m_chart;
    QLineSeries* m_latency; // the LAN side's probe
    QLineSeries* m_down;
    QLineSeries* m_up;
    std::map<QString, QLineSeries*> m_probes; // every other probe's
    QValueAxis* m_x;
    QValueAxis* m_ms;
    QValueAxis* m_mbps;
};

} // namespace coresteer::ui

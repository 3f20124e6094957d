// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// Per-core load over the last 30 s (Qt Charts, a point a second; the heatmap has every sample):
// one small chart per core with irq, softirq, system and user stacked, or one chart with the
// mean and a busy line for each of the busiest cores (the choice for many cores, where the
// heatmap shows every one).
// Each series is fed by one replace() per tick from the live History.
#pragma once

#include "core/live/history.h"

#include <QStringList>
#include <QWidget>

#include <vector>

class QChart;
class QChartView;
class QGridLayout;
class QLineSeries;
class QValueAxis;

namespace coresteer::ui {

class LoadCharts : public QWidget {
    Q_OBJECT
public:
    enum class Mode { PerCore, OneChart };
    static constexpr int kOneChartLines = 12;
    explicit LoadCharts(QWidget* parent = nullptr);

    // Starts over for `cores` CPUs. PerCore is the default up to 16 cores.
    void reset(int cores, const std::vector<QString>& coreLabels = {});
    void setMode(Mode m);
    Mode mode() const { return m_mode; }
    // Redraws from the history: the last `seconds` of it.
    void update(const live::History& h, double seconds = 30);
    int seriesCount() const;
    // The key to the stacked colours of PerCore ("irq", "softirq", "system", "user", "idle"), in
    // a row above the charts; null in OneChart mode.
    QWidget* legend() const { return m_legend; }
    // The charts' titles (each core's label), for tests.
    QStringList titles() const;
    // Points in the first series (for tests).
    int pointCount() const;

private:
    void build();
    struct CoreChart {
        QChartView* view = nullptr;
        QValueAxis* x = nullptr;
        std::vector<QLineSeries*> upper; // irq, +softirq, +system, +user
    };
    Mode m_mode = Mode::PerCore;
    int m_cores = 0;
    std::vector<QString> m_labels;
    QGridLayout* m_grid;
    std::vector<CoreChart> m_charts; // PerCore
    QWidget* m_legend = nullptr;     // PerCore
    QChartView* m_one = nullptr;     // OneChart
    QValueAxis* m_oneX = nullptr;
    std::vector<QLineSeries*> m_lines; // OneChart, busy per core
};

} // namespace coresteer::ui

// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/live/latencychart.h"

#include "core/live/recording.h"

#include <QChart>
#include <QLegendMarker>
#include <QLineSeries>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace coresteer::ui {

using namespace coresteer::live;

LatencyChart::LatencyChart(QWidget* parent)
    : QChartView(new QChart, parent), m_chart(chart()), m_latency(new QLineSeries),
      m_down(new QLineSeries), m_up(new QLineSeries), m_x(new QValueAxis), m_ms(new QValueAxis),
      m_mbps(new QValueAxis) {
    m_chart->legend()->hide();
    m_chart->setMargins(QMargins(2, 2, 2, 2));
    m_chart->setTitle(tr("Latency (ms), load (Mb/s)"));
    QFont small = m_chart->titleFont();
    small.setPointSizeF(small.pointSizeF() * 0.8);
    m_chart->setTitleFont(small);
    m_chart->addSeries(m_latency);
    m_chart->addSeries(m_down);
    m_chart->addSeries(m_up);
    m_chart->addAxis(m_x, Qt::AlignBottom);
    m_chart->addAxis(m_ms, Qt::AlignLeft);
    m_chart->addAxis(m_mbps, Qt::AlignRight);
    m_latency->setName(tr("router (LAN side)"));
    m_down->setName(tr("down"));
    m_up->setName(tr("up"));
    for (auto* series : {m_latency, m_down, m_up})
        series->attachAxis(m_x);
    m_latency->attachAxis(m_ms);
    m_down->attachAxis(m_mbps);
    m_up->attachAxis(m_mbps);
    m_x->setRange(0, 60);
    m_ms->setRange(0, 10);
    m_mbps->setRange(0, 100);
    m_mbps->setLabelFormat(QStringLiteral("%.0f"));
    m_ms->setLabelFormat(QStringLiteral("%.1f"));
    m_x->setLabelFormat(QStringLiteral("%.0f"));
    for (auto* axis : {m_x, m_ms, m_mbps}) {
        axis->setLabelsFont(small);
        axis->setTickCount(4);
    }
    m_x->setTitleText(QString());
    setMinimumWidth(340);
    setMinimumHeight(150);
}

QLineSeries* LatencyChart::series(const QString& probe) {
    if (probe == QLatin1String(kLanProbe.data(), kLanProbe.size()))
        return m_latency;
    if (auto it = m_probes.find(probe); it != m_probes.end())
        return it->second;
    auto* s = new QLineSeries;
    s->setName(probe == QLatin1String(kRouterProbe.data(), kRouterProbe.size())
                   ? tr("from the router")
               : probe == QLatin1String(kDemoProbe.data(), kDemoProbe.size()) ? tr("demo's model")
                                                                              : probe);
    m_chart->addSeries(s);
    s->attachAxis(m_x);
    s->attachAxis(m_ms);
    m_probes[probe] = s;
    return s;
}

void LatencyChart::updateLegend() {
    int shown = 0;
    for (auto* series : m_chart->series()) {
        const bool has = static_cast<QLineSeries*>(series)->count() > 0;
        for (auto* marker : m_chart->legend()->markers(series))
            marker->setVisible(has);
        shown += has;
    }
    m_chart->legend()->setAlignment(Qt::AlignBottom);
    m_chart->legend()->setVisible(shown > 1);
}

void LatencyChart::clear() {
    m_down->clear();
    m_up->clear();
    m_latency->clear();
    for (auto& [_, s] : m_probes) {
        m_chart->removeSeries(s);
        delete s;
    }
    m_probes.clear();
    m_x->setRange(0, 60);
    m_ms->setRange(0, 10);
    m_mbps->setRange(0, 100);
    updateLegend();
}

double LatencyChart::scaleFor(double value) {
    const double want = std::max(value * 1.1, 1e-9);
    const double decade = std::pow(10.0, std::floor(std::log10(want)));
    for (const double step : {1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0})
        if (step * decade >= want)
            return step * decade;
    return 10 * decade;
}

int LatencyChart::loadPoints() const {
    return static_cast<int>(m_down->count());
}

double LatencyChart::loadScale() const {
    return m_mbps->max();
}

double LatencyChart::latencyScale() const {
    return m_ms->max();
}

void LatencyChart::showTime(double t) {
    const double from = std::max(0.0, t - 60);
    if (from != m_x->min() || std::max(60.0, t) != m_x->max()) {
        m_x->setRange(from, std::max(60.0, t));
        fitLoad(); // older throughput scrolled out of the minute shown
    }
}

// The load axis fits the highest throughput of the minute shown (the load generator's reports
// come at most twice a second: a few hundred points at most).
void LatencyChart::fitLoad() {
    double top = 0;
    for (const auto* s : {m_down, m_up}) {
        const auto points = s->points();
        for (auto it = points.crbegin(); it != points.crend() && it->x() >= m_x->min(); ++it)
            top = std::max(top, it->y());
    }
    const double scale = top > 0 ? scaleFor(top) : 100.0;
    if (scale != m_mbps->max())
        m_mbps->setRange(0, scale);
}

void LatencyChart::addLatency(double t, std::optional<double> ms, const QString& probe) {
    if (ms) {
        auto* s = series(probe);
        s->append(t, *ms);
        if (s->count() == 1)
            updateLegend();
        if (*ms * 1.1 > m_ms->max())
            m_ms->setRange(0, scaleFor(*ms));
    }
    showTime(t);
}

void LatencyChart::addThroughput(double t, double downBitsPerSec, double upBitsPerSec) {
    m_down->append(t, downBitsPerSec / 1e6);
    m_up->append(t, upBitsPerSec / 1e6);
    if (m_down->count() == 1)
        updateLegend();
    showTime(t);
    fitLoad();
}

} // namespace coresteer::ui

// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/live/loadcharts.h"

#include <QAreaSeries>
#include <QChart>
#include <QChartView>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineSeries>
#include <QPixmap>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace coresteer::ui {

using namespace coresteer::live;

namespace {

const QColor kColours[] = {QColor(0xd3, 0x2f, 0x2f), QColor(0xff, 0x8f, 0x00),
                           QColor(0x3b, 0x7d, 0xd8), QColor(0x7c, 0xb3, 0x42)};
const char* kNames[] = {"irq", "softirq", "system", "user"};

QChart* bareChart() {
    auto* c = new QChart;
    c->setMargins(QMargins(2, 2, 2, 2));
    c->setBackgroundRoundness(0);
    c->legend()->hide();
    c->setAnimationOptions(QChart::NoAnimation);
    return c;
}

} // namespace

LoadCharts::LoadCharts(QWidget* parent) : QWidget(parent), m_grid(new QGridLayout(this)) {
    m_grid->setContentsMargins(0, 0, 0, 0);
    m_grid->setSpacing(2);
}

void LoadCharts::reset(int cores, const std::vector<QString>& coreLabels) {
    m_cores = cores;
    m_labels = coreLabels;
    m_mode = cores <= 16 ? Mode::PerCore : Mode::OneChart;
    build();
}

void LoadCharts::setMode(Mode m) {
    if (m == m_mode)
        return;
    m_mode = m;
    build();
}

void LoadCharts::build() {
    while (auto* item = m_grid->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    m_charts.clear();
    m_lines.clear();
    m_legend = nullptr;
    m_one = nullptr;
    m_oneX = nullptr;
    if (m_mode == Mode::PerCore) {
        const int cols = m_cores <= 4 ? m_cores : m_cores <= 8 ? 4 : 8;
        // The key to the colours, once for all the charts, with the scale they share.
        m_legend = new QWidget;
        m_legend->setObjectName(QStringLiteral("loadLegend"));
        auto* keys = new QHBoxLayout(m_legend);
        keys->setContentsMargins(4, 0, 4, 0);
        auto swatch = [&](const QColor& colour, const QString& name) {
            QPixmap px(10, 10);
            px.fill(colour);
            auto* box = new QLabel;
            box->setPixmap(px);
            keys->addWidget(box);
            auto* text = new QLabel(name);
            text->setObjectName(QStringLiteral("legendKey"));
            keys->addWidget(text);
            keys->addSpacing(8);
        };
        for (int k = 0; k < 4; ++k)
            swatch(kColours[k], QString::fromLatin1(kNames[k]));
        swatch(palette().color(QPalette::Base), tr("idle"));
        keys->addStretch(1);
        keys->addWidget(new QLabel(tr("% of each core, stacked, over the last 30 s")));
        m_grid->addWidget(m_legend, 0, 0, 1, std::max(cols, 1));
        for (int c = 0; c < m_cores; ++c) {
            CoreChart cc;
            auto* chart = bareChart();
            const auto label = static_cast<std::size_t>(c) < m_labels.size()
                                   ? m_labels[static_cast<std::size_t>(c)]
                                   : QStringLiteral("CPU%1").arg(c);
            chart->setTitle(label);
            QLineSeries* lower = nullptr;
            cc.x = new QValueAxis;
            cc.x->setRange(-30, 0);
            cc.x->setVisible(false); // small multiples: the axes cost more to draw than the data
            auto* y = new QValueAxis;
            y->setRange(0, 100);
            y->setLabelsVisible(c % std::max(cols, 1) == 0); // one scale a row, labelled
            y->setLabelFormat(QStringLiteral("%d%%"));
            y->setGridLineVisible(false);
            y->setTickCount(3);
            chart->addAxis(cc.x, Qt::AlignBottom);
            chart->addAxis(y, Qt::AlignLeft);
            for (int k = 0; k < 4; ++k) {
                auto* upper = new QLineSeries(chart);
                auto* area = new QAreaSeries(upper, lower);
                area->setName(QString::fromLatin1(kNames[k]));
                area->setColor(kColours[k]);
                area->setBorderColor(kColours[k]);
                chart->addSeries(area);
                area->attachAxis(cc.x);
                area->attachAxis(y);
                cc.upper.push_back(upper);
                lower = upper;
            }
            cc.view = new QChartView(chart);
            cc.view->setMinimumSize(120, 90);
            cc.view->setToolTip(tr("%1: irq (red), softirq (orange), system (blue) and user "
                                   "(green), stacked, in % of the core, over the last 30 seconds")
                                    .arg(label));
            m_grid->addWidget(cc.view, 1 + c / std::max(cols, 1), c % std::max(cols, 1));
            m_charts.push_back(cc);
        }
    } else {
        auto* chart = bareChart();
        chart->setTitle(tr("Busy % per core"));
        m_oneX = new QValueAxis;
        m_oneX->setRange(-30, 0);
        m_oneX->setTitleText(tr("seconds"));
        auto* y = new QValueAxis;
        y->setRange(0, 100);
        y->setLabelFormat(QStringLiteral("%d%%"));
        y->setTitleText(tr("busy"));
        chart->addAxis(m_oneX, Qt::AlignBottom);
        chart->addAxis(y, Qt::AlignLeft);
        // Many cores: the mean and the busiest kOneChartLines of them (the heatmap shows all).
        const int lines = std::min(m_cores, kOneChartLines) + 1;
        for (int k = 0; k < lines; ++k) {
            auto* s = new QLineSeries(chart);
            s->setName(k == 0 ? tr("mean") : QStringLiteral("CPU%1").arg(k - 1));
            if (k == 0) {
                QPen pen(palette().color(QPalette::WindowText));
                pen.setWidth(2);
                s->setPen(pen);
            }
            chart->addSeries(s);
            s->attachAxis(m_oneX);
            s->attachAxis(y);
            m_lines.push_back(s);
        }
        chart->legend()->setVisible(true);
        chart->legend()->setAlignment(Qt::AlignRight);
        m_one = new QChartView(chart);
        m_grid->addWidget(m_one, 0, 0);
    }
}

void LoadCharts::update(const History& h, double seconds) {
    if (h.size() == 0)
        return;
    const double now = h.time(h.size() - 1);
    std::size_t first = h.size();
    while (first > 0 && now - h.time(first - 1) <= seconds)
        --first;
    // A small chart is a few hundred pixels wide: one point a second is what it can show. Every
    // step-th sample is drawn, the newest always.
    constexpr std::size_t kMaxPoints = 30;
    const std::size_t step =
        std::max<std::size_t>(1, (h.size() - first + kMaxPoints - 1) / kMaxPoints);
    first = h.size() - 1 - ((h.size() - 1 - first) / step) * step;
    const auto n = static_cast<qsizetype>((h.size() - first + step - 1) / step);
    if (m_mode == Mode::PerCore) {
        QList<QPointF> pts[4];
        for (int c = 0; c < m_cores && static_cast<std::size_t>(c) < m_charts.size(); ++c) {
            for (auto& p : pts) {
                p.clear();
                p.reserve(n);
            }
            for (std::size_t i = first; i < h.size(); i += step) {
                const double x = h.time(i) - now;
                if (h.isGap(i)) {
                    for (auto& p : pts)
                        p.append(QPointF(x, 0));
                    continue;
                }
                const auto& s = h.core(i, c);
                double acc = 0;
                const std::uint16_t parts[] = {s.irq, s.softirq, s.system, s.user};
                for (int k = 0; k < 4; ++k) {
                    acc += s.share(parts[k]) * 100.0;
                    pts[k].append(QPointF(x, std::min(acc, 100.0)));
                }
            }
            auto& cc = m_charts[static_cast<std::size_t>(c)];
            for (int k = 0; k < 4; ++k)
                cc.upper[static_cast<std::size_t>(k)]->replace(pts[k]);
            cc.x->setRange(-seconds, 0);
        }
    } else {
        // The busiest cores now, busiest first.
        std::vector<std::pair<double, int>> order;
        for (int c = 0; c < m_cores; ++c)
            order.emplace_back(-h.core(h.size() - 1, c).busy(), c);
        std::sort(order.begin(), order.end());
        QList<QPointF> pts;
        for (std::size_t k = 0; k < m_lines.size(); ++k) {
            pts.clear();
            pts.reserve(n);
            const int c = k == 0 ? -1 : order[k - 1].second;
            for (std::size_t i = first; i < h.size(); i += step) {
                double v = 0;
                if (!h.isGap(i) && c >= 0) {
                    v = h.core(i, c).busy();
                } else if (!h.isGap(i)) {
                    for (int j = 0; j < m_cores; ++j)
                        v += h.core(i, j).busy();
                    v /= std::max(m_cores, 1);
                }
                pts.append(QPointF(h.time(i) - now, v * 100));
            }
            if (c >= 0) {
                const auto name = QStringLiteral("CPU%1").arg(c);
                if (m_lines[k]->name() != name)
                    m_lines[k]->setName(name);
            }
            m_lines[k]->replace(pts);
        }
        if (m_oneX)
            m_oneX->setRange(-seconds, 0);
    }
}

int LoadCharts::seriesCount() const {
    return m_mode == Mode::PerCore ? static_cast<int>(m_charts.size()) * 4
                                   : static_cast<int>(m_lines.size());
}

int LoadCharts::pointCount() const {
    if (m_mode == Mode::PerCore)
        return m_charts.empty() ? 0 : static_cast<int>(m_charts.front().upper.front()->count());
    return m_lines.empty() ? 0 : static_cast<int>(m_lines.front()->count());
}

QStringList LoadCharts::titles() const {
    QStringList out;
    for (const auto& cc : m_charts)
        out << cc.view->chart()->title();
    if (m_one)
        out << m_one->chart()->title();
    return out;
}

} // namespace coresteer::ui

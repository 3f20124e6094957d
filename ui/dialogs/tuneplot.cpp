// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/dialogs/tuneview.h"

#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QHBoxLayout>
#include <QLabel>
#include <QLegendMarker>
#include <QLineSeries>
#include <QScatterSeries>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <limits>

namespace coresteer::ui {

using nlohmann::json;

namespace {

const QColor kTrial(0x5c, 0x7c, 0xb0), kWinner(0x2e, 0x7d, 0x32), kMedian(0x21, 0x21, 0x21);

} // namespace

TunePlot::TunePlot(QWidget* parent)
    : QWidget(parent), m_charts(new QHBoxLayout), m_key(new QLabel) {
    auto* box = new QVBoxLayout(this);
    box->setContentsMargins(0, 0, 0, 0);
    m_charts->setContentsMargins(0, 0, 0, 0);
    box->addLayout(m_charts, 1);
    // The charts number their candidates; the key names them whole, wrapping as it must.
    m_key->setWordWrap(true);
    m_key->setTextFormat(Qt::RichText);
    box->addWidget(m_key);
    setMinimumHeight(240);
}

QString TunePlot::keyText() const {
    return m_key->text();
}

void TunePlot::setTune(const json& tune) {
    while (auto* item = m_charts->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    m_dots = m_intervals = 0;
    m_directions.clear();
    const bool throughput = tuneString(tune, "objective") != QLatin1String("latency");
    const char* key = throughput ? "bps" : "latency_increase_ms";
    const auto& cands = tuneAt(tune, "candidates");
    QStringList names;
    const int n = cands.is_array() ? static_cast<int>(std::min<std::size_t>(cands.size(), 64)) : 0;
    for (int i = 0; i < n; ++i)
        names << tr("<b>%1</b>&nbsp;%2%3")
                     .arg(i)
                     .arg(
                         tuneString(cands[static_cast<std::size_t>(i)], "name", 80).toHtmlEscaped(),
                         i == 0 ? tr(" (the baseline)") : QString());
    m_key->setText(names.join(QStringLiteral(" &middot; ")));
    for (const bool down : {true, false}) {
        // A direction the load ran: some trial measured it.
        bool measured = false;
        if (cands.is_array())
            for (const auto& c : cands)
                for (const auto& t : tuneAt(c, "trials"))
                    measured = measured || tuneNumber(tuneAt(t, down ? "download" : "upload"), key);
        if (!measured)
            continue;
        m_directions << (down ? QStringLiteral("download") : QStringLiteral("upload"));
        m_charts->addWidget(chart(tune, down, throughput), 1);
    }
}

// One direction's chart: a column a candidate, its trials as dots spread across the column,
// its median as a square and its 95 % interval as a bar.
QChartView* TunePlot::chart(const json& tune, bool down, bool throughput) {
    const char* dir = down ? "download" : "upload";
    const char* key = throughput ? "bps" : "latency_increase_ms";
    const double scale = throughput ? 1e-6 : 1;
    auto* c = new QChart;
    c->setAnimationOptions(QChart::NoAnimation);
    c->setMargins(QMargins(4, 4, 4, 4));
    c->setTitle(down ? (throughput ? tr("Download throughput (Mb/s)")
                                   : tr("Latency increase under download (ms)"))
                     : (throughput ? tr("Upload throughput (Mb/s)")
                                   : tr("Latency increase under upload (ms)")));
    auto* dots = new QScatterSeries;
    dots->setName(tr("a trial"));
    dots->setMarkerSize(7);
    dots->setColor(kTrial);
    dots->setBorderColor(kTrial);
    auto* winnerDots = new QScatterSeries;
    winnerDots->setName(tr("the winner's trial"));
    winnerDots->setMarkerSize(7);
    winnerDots->setColor(kWinner);
    winnerDots->setBorderColor(kWinner);
    auto* medians = new QScatterSeries;
    medians->setName(tr("median, 95 % interval"));
    medians->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
    medians->setMarkerSize(11);
    medians->setColor(kMedian);
    medians->setBorderColor(kMedian);
    auto* x = new QCategoryAxis;
    x->setStartValue(-0.5);
    auto* y = new QValueAxis;
    c->addAxis(x, Qt::AlignBottom);
    c->addAxis(y, Qt::AlignLeft);
    double lo = std::numeric_limits<double>::max(), hi = std::numeric_limits<double>::lowest();
    auto seen = [&](double v) {
        lo = std::min(lo, v);
        hi = std::max(hi, v);
    };
    const auto& cands = tuneAt(tune, "candidates");
    const auto winner = tuneString(tune, "winner");
    const int n = cands.is_array() ? static_cast<int>(std::min<std::size_t>(cands.size(), 64)) : 0;
    std::vector<QLineSeries*> bars;
    for (int i = 0; i < n; ++i) {
        const auto& cand = cands[static_cast<std::size_t>(i)];
        x->append(QString::number(i), i + 0.5); // named in the key below the charts
        const bool wins = i > 0 && !winner.isEmpty() && tuneString(cand, "name", 80) == winner;
        const auto& trials = tuneAt(cand, "trials");
        const int count = trials.is_array() ? static_cast<int>(trials.size()) : 0;
        for (int k = 0; k < count; ++k)
            if (const auto v = tuneNumber(tuneAt(trials[static_cast<std::size_t>(k)], dir), key)) {
                (wins ? winnerDots : dots)->append(i - 0.25 + 0.5 * (k + 0.5) / count, *v * scale);
                seen(*v * scale);
                ++m_dots;
            }
        if (const auto e = tuneEstimate(tuneAt(tuneAt(cand, dir), key))) {
            medians->append(i, e->median * scale);
            auto* bar = new QLineSeries;
            bar->append(i, e->lo * scale);
            bar->append(i, e->hi * scale);
            QPen pen(wins ? kWinner : kMedian);
            pen.setWidth(3);
            bar->setPen(pen);
            bars.push_back(bar);
            seen(e->lo * scale);
            seen(e->hi * scale);
            ++m_intervals;
        }
    }
    for (auto* s : std::initializer_list<QXYSeries*>{dots, winnerDots, medians}) {
        c->addSeries(s);
        s->attachAxis(x);
        s->attachAxis(y);
    }
    for (auto* bar : bars) {
        c->addSeries(bar);
        bar->attachAxis(x);
        bar->attachAxis(y);
        for (auto* m : c->legend()->markers(bar))
            m->setVisible(false);
    }
    if (winnerDots->count() == 0)
        for (auto* m : c->legend()->markers(winnerDots))
            m->setVisible(false);
    x->setRange(-0.5, std::max(0, n - 1) + 0.5);
    x->setLabelsPosition(QCategoryAxis::AxisLabelsPositionCenter);
    if (lo > hi)
        lo = hi = 0;
    const double pad = std::max((hi - lo) * 0.15, std::abs(hi) * 0.02 + 1e-3);
    y->setRange(throughput ? std::max(0.0, lo - pad) : lo - pad, hi + pad);
    y->applyNiceNumbers();
    y->setLabelFormat(throughput ? QStringLiteral("%.0f") : QStringLiteral("%.1f"));
    c->legend()->setAlignment(Qt::AlignBottom);
    auto* view = new QChartView(c);
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumSize(360, 240);
    return view;
}

} // namespace coresteer::ui

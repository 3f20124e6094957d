// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/live/recordingimage.h"

#include "ui/live/heatmapwidget.h"

#include "core/base/text.h"
#include "core/collect/capture.h"
#include "core/model/snapshot.h"

#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>
#include <map>

namespace coresteer::ui {

using namespace coresteer::live;

namespace {

struct Series {
    std::vector<std::pair<double, double>> a, b; // (t, value)
    QString title, aName, bName;
};

// A round step for an axis that spans `range` in about `n` steps.
double niceStep(double range, int n) {
    const double raw = range / std::max(n, 1);
    const double mag = std::pow(10.0, std::floor(std::log10(std::max(raw, 1e-9))));
    for (double m : {1.0, 2.0, 5.0, 10.0})
        if (raw <= m * mag)
            return m * mag;
    return 10 * mag;
}

} // namespace

QImage renderRecording(const Recording& rec, std::string* error) {
    // One pass: per-core busy in pixel columns, the probes, the throughput.
    constexpr int kPlotW = 900, kLeft = 96, kRight = 70, kTop = 44, kStrip = 90, kGap = 26;
    const double duration = std::max(rec.duration, 0.1);
    auto column = [&](double t) {
        return std::clamp(static_cast<int>(t / duration * kPlotW), 0, kPlotW - 1);
    };
    int cores = 0;
    std::vector<std::vector<std::pair<double, int>>> cells; // [column][cpu] = (sum, count)
    cells.resize(kPlotW);
    std::vector<std::pair<double, std::optional<double>>> probes;
    Series generator, busiest;
    std::map<std::string, double> ifaceSum;
    std::vector<std::pair<double, std::vector<IfaceRate>>> ifaceSeries;
    Replay replay(rec);
    ReplayEvent e;
    double prev = -1; // the time of the last tick with rates; -1 after a gap
    while (replay.next(e)) {
        switch (e.kind) {
        case ReplayEvent::Kind::Rates: {
            // A tick covers the columns since the tick before it (a short recording fills the
            // width; a long one averages several ticks into a column).
            const int to = column(e.t);
            const int from = prev >= 0 ? std::min(column(prev) + 1, to)
                                       : column(std::max(0.0, e.t - e.rates.seconds()));
            prev = e.t;
            for (int x = from; x <= to; ++x) {
                auto& col = cells[static_cast<std::size_t>(x)];
                for (const auto& c : e.rates.cores) {
                    cores = std::max(cores, c.cpu + 1);
                    if (col.size() < static_cast<std::size_t>(cores))
                        col.resize(static_cast<std::size_t>(cores));
                    col[static_cast<std::size_t>(c.cpu)].first += c.busy();
                    col[static_cast<std::size_t>(c.cpu)].second += 1;
                }
            }
            for (const auto& i : e.rates.interfaces)
                if (i.name != "lo")
                    ifaceSum[i.name] += i.rxBitsPerSec + i.txBitsPerSec;
            ifaceSeries.emplace_back(e.t, e.rates.interfaces);
            break;
        }
        case ReplayEvent::Kind::Gap:
            prev = -1;
            break;
        case ReplayEvent::Kind::Latency:
            probes.emplace_back(e.t, e.latencyMs);
            break;
        case ReplayEvent::Kind::Throughput:
            generator.a.emplace_back(e.t, e.downBitsPerSec / 1e6);
            generator.b.emplace_back(e.t, e.upBitsPerSec / 1e6);
            break;
        case ReplayEvent::Kind::Trial: // the tuner's marks: its own reader (tune_json.h)
            break;
        case ReplayEvent::Kind::Phase:
            break;
        }
    }
    if (!replay.error().empty()) {
        if (error)
            *error = replay.error();
        return {};
    }
    const auto summary = summarize(rec, error);
    if (!summary)
        return {};

    // Core names from the recording's snapshot: "CPU4 big".
    std::vector<QString> names;
    if (const auto bundle = readCapture(rec.info.capture, nullptr)) {
        const auto snap = buildSnapshot(*bundle);
        for (int c = 0; c < cores; ++c) {
            const auto* cls = snap.topology.classOf(c);
            names.push_back(
                cls && cls->name != "uniform"
                    ? QStringLiteral("CPU%1 %2").arg(c).arg(QString::fromStdString(cls->name))
                    : QStringLiteral("CPU%1").arg(c));
        }
    }
    for (int c = static_cast<int>(names.size()); c < cores; ++c)
        names.push_back(QStringLiteral("CPU%1").arg(c));

    Series* through = &generator;
    if (generator.a.empty()) {
        // The busiest interface's rx and tx.
        std::string top;
        double best = -1;
        for (const auto& [n, v] : ifaceSum)
            if (v > best) {
                best = v;
                top = n;
            }
        for (const auto& [t, ifs] : ifaceSeries)
            for (const auto& i : ifs)
                if (i.name == top) {
                    busiest.a.emplace_back(t, i.rxBitsPerSec / 1e6);
                    busiest.b.emplace_back(t, i.txBitsPerSec / 1e6);
                }
        busiest.title =
            QStringLiteral("%1 (Mb/s)").arg(QString::fromStdString(text::printable(top, 24)));
        busiest.aName = QStringLiteral("in");
        busiest.bName = QStringLiteral("out");
        through = &busiest;
    } else {
        generator.title = QStringLiteral("Load generator (Mb/s)");
        generator.aName = QStringLiteral("down");
        generator.bName = QStringLiteral("up");
    }

    const int rowH = std::clamp(320 / std::max(cores, 1), 2, 18);
    const int heatH = rowH * std::max(cores, 1);
    const int height = kTop + heatH + kGap + kStrip + kGap + kStrip + 40;
    QImage img(kLeft + kPlotW + kRight, height, QImage::Format_RGB32);
    img.fill(Qt::white);
    QPainter p(&img);
    p.setRenderHint(QPainter::Antialiasing, false);
    QFont f = p.font();
    f.setPixelSize(12);
    p.setFont(f);

    // Title: what, when, how long, the grade.
    QString title = QStringLiteral("%1 — %2 — %3 s at %4 Hz")
                        .arg(QString::fromStdString(text::printable(rec.info.label, 60)),
                             QString::fromStdString(text::printable(rec.info.started, 30)))
                        .arg(rec.duration, 0, 'f', 1)
                        .arg(rec.info.hz);
    if (summary->latency)
        title += QStringLiteral(" — bufferbloat grade %1 (+%2 ms)")
                     .arg(QString::fromStdString(summary->latency->grade))
                     .arg(summary->latency->increaseMs, 0, 'f', 1);
    QFont bold = f;
    bold.setBold(true);
    bold.setPixelSize(14);
    p.setFont(bold);
    p.setPen(Qt::black);
    p.drawText(QRect(8, 6, img.width() - 16, 20), Qt::AlignLeft | Qt::AlignVCenter, title);
    p.setFont(f);
    p.drawText(QRect(kLeft, 24, kPlotW, 18), Qt::AlignLeft | Qt::AlignVCenter,
               QStringLiteral("Busy share of each core (grey: no sample)"));

    // The heatmap.
    QImage heat(kPlotW, std::max(cores, 1), QImage::Format_RGB32);
    heat.fill(QColor(0xd0, 0xd0, 0xd0));
    for (int x = 0; x < kPlotW; ++x)
        for (std::size_t c = 0; c < cells[static_cast<std::size_t>(x)].size(); ++c) {
            const auto& [sum, n] = cells[static_cast<std::size_t>(x)][c];
            if (n)
                heat.setPixel(x, static_cast<int>(c), HeatmapWidget::colour(sum / n));
        }
    p.drawImage(QRect(kLeft, kTop, kPlotW, heatH), heat);
    for (int c = 0; c < cores; ++c)
        if (rowH >= 9 || c % std::max(1, 10 / rowH) == 0)
            p.drawText(QRect(4, kTop + c * rowH, kLeft - 8, rowH),
                       Qt::AlignRight | Qt::AlignVCenter, names[static_cast<std::size_t>(c)]);
    // The colour scale.
    const int lx = kLeft + kPlotW + 12;
    for (int y = 0; y < heatH; ++y)
        p.fillRect(lx, kTop + y, 14, 1, QColor(HeatmapWidget::colour(1.0 - double(y) / heatH)));
    p.drawText(lx + 16, kTop + 10, QStringLiteral("100%"));
    p.drawText(lx + 16, kTop + heatH, QStringLiteral("0%"));

    // A strip: a line chart of one or two series against time.
    auto strip = [&](int top, const std::vector<std::pair<double, double>>& a,
                     const std::vector<std::pair<double, double>>& b, const QString& name,
                     const QString& aName, const QString& bName, const std::vector<double>& lost) {
        p.setPen(QColor(0x90, 0x90, 0x90));
        p.drawRect(kLeft, top, kPlotW - 1, kStrip);
        double maxV = 1;
        for (const auto& s : {&a, &b})
            for (const auto& [t, v] : *s)
                maxV = std::max(maxV, v);
        maxV *= 1.1;
        auto pt = [&](double t, double v) {
            return QPointF(kLeft + t / duration * kPlotW, top + kStrip - v / maxV * kStrip);
        };
        p.setRenderHint(QPainter::Antialiasing, true);
        for (const auto& [s, colour] :
             {std::pair{&a, QColor(0x15, 0x65, 0xc0)}, std::pair{&b, QColor(0xe6, 0x51, 0x00)}}) {
            if (s->empty())
                continue;
            QPainterPath path(pt(s->front().first, s->front().second));
            for (const auto& [t, v] : *s)
                path.lineTo(pt(t, v));
            p.setPen(QPen(colour, 1.5));
            p.drawPath(path);
        }
        p.setRenderHint(QPainter::Antialiasing, false);
        p.setPen(QColor(0xc6, 0x28, 0x28));
        for (double t : lost)
            p.drawLine(pt(t, 0), QPointF(pt(t, 0).x(), top));
        p.setPen(Qt::black);
        p.drawText(QRect(4, top, kLeft - 8, 16), Qt::AlignRight,
                   QString::number(maxV, 'f', maxV < 10 ? 1 : 0));
        p.drawText(QRect(4, top + kStrip - 16, kLeft - 8, 16), Qt::AlignRight, QStringLiteral("0"));
        p.drawText(QRect(kLeft + 4, top - 18, kPlotW, 16), Qt::AlignLeft | Qt::AlignVCenter, name);
        p.setPen(QColor(0x15, 0x65, 0xc0));
        if (!a.empty())
            p.drawText(QRect(kLeft, top - 18, kPlotW - 60, 16), Qt::AlignRight, aName);
        p.setPen(QColor(0xe6, 0x51, 0x00));
        if (!b.empty())
            p.drawText(QRect(kLeft, top - 18, kPlotW - 4, 16), Qt::AlignRight, bName);
        p.setPen(Qt::black);
    };
    std::vector<std::pair<double, double>> latency;
    std::vector<double> lost;
    for (const auto& [t, ms] : probes) {
        if (ms)
            latency.emplace_back(t, *ms);
        else
            lost.push_back(t);
    }
    const int latencyTop = kTop + heatH + kGap;
    strip(latencyTop, latency, {},
          probes.empty() ? QStringLiteral("Latency: not measured")
                         : QStringLiteral("Latency to the router (ms; red: lost probes)"),
          QStringLiteral("latency"), {}, lost);
    const int throughTop = latencyTop + kStrip + kGap;
    strip(throughTop, through->a, through->b, through->title, through->aName, through->bName, {});

    // The time axis.
    const double step = niceStep(duration, 10);
    for (double t = 0; t <= duration + 1e-9; t += step) {
        const int x = kLeft + static_cast<int>(t / duration * kPlotW);
        p.drawLine(x, throughTop + kStrip, x, throughTop + kStrip + 4);
        p.drawText(QRect(x - 30, throughTop + kStrip + 6, 60, 16), Qt::AlignHCenter,
                   QString::number(t, 'f', step < 1 ? 1 : 0));
    }
    p.drawText(QRect(kLeft, throughTop + kStrip + 20, kPlotW, 16), Qt::AlignHCenter,
               QStringLiteral("seconds"));
    p.end();
    return img;
}

} // namespace coresteer::ui

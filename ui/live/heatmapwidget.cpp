// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/live/heatmapwidget.h"

#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>
#include <cstring>

namespace coresteer::ui {

using namespace coresteer::live;

HeatmapWidget::HeatmapWidget(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setMinimumHeight(80);
    setAttribute(Qt::WA_OpaquePaintEvent);
}

void HeatmapWidget::reset(int cores, int columns, std::vector<QString> labels) {
    m_cores = std::max(cores, 0);
    m_labels = std::move(labels);
    int widest = 0; // the widest row label (the first 256: rows beyond are too thin to label)
    for (int c = 0; c < std::min(m_cores, 256); ++c)
        widest = std::max(widest, fontMetrics().horizontalAdvance(coreLabel(c)));
    m_labelWidth = std::clamp(widest + 8, 28, 110);
    m_phases.clear();
    m_pushed = 0;
    m_columns = std::max(columns, 2);
    m_image = QImage(m_columns, std::max(m_cores, 1), QImage::Format_RGB32);
    m_image.fill(QColor(0x20, 0x20, 0x28));
    m_scaled = QImage();
    m_times.clear();
    m_values.clear();
    update();
}

QRgb HeatmapWidget::colour(double share) {
    const double s = std::clamp(share, 0.0, 1.0);
    // A perceptual ramp: navy (idle), teal, yellow, orange, red (pegged).
    static const QColor stops[] = {QColor(0x1a, 0x23, 0x7e), QColor(0x00, 0x89, 0x7b),
                                   QColor(0xfd, 0xd8, 0x35), QColor(0xfb, 0x8c, 0x00),
                                   QColor(0xd5, 0x00, 0x00)};
    const double x = s * 4.0;
    const int i = std::min(3, static_cast<int>(x));
    const double f = x - i;
    const auto& a = stops[i];
    const auto& b = stops[i + 1];
    return qRgb(static_cast<int>(a.red() + (b.red() - a.red()) * f),
                static_cast<int>(a.green() + (b.green() - a.green()) * f),
                static_cast<int>(a.blue() + (b.blue() - a.blue()) * f));
}

void HeatmapWidget::pushColumn(const std::vector<double>& shares, bool gap) {
    if (m_image.isNull())
        return;
    // Shift every row one pixel left (memmove per scan line), then write the new column.
    const int bpl = static_cast<int>(m_image.bytesPerLine());
    for (int y = 0; y < m_image.height(); ++y) {
        auto* line = reinterpret_cast<QRgb*>(m_image.scanLine(y));
        std::memmove(line, line + 1, static_cast<std::size_t>(bpl) - sizeof(QRgb));
        line[m_columns - 1] = gap ? qRgb(0x60, 0x60, 0x60)
                                  : colour(static_cast<std::size_t>(y) < shares.size()
                                               ? shares[static_cast<std::size_t>(y)]
                                               : 0.0);
    }
    // The shown image moves by the same fraction of its width; only the new strip is scaled.
    if (!m_scaled.isNull() && m_scaled.size() == mapRect().size()) {
        const int w = m_scaled.width();
        const int left = w * (m_columns - 1) / m_columns; // where the newest column starts
        const int shift = w - left;
        for (int y = 0; y < m_scaled.height(); ++y) {
            auto* line = reinterpret_cast<QRgb*>(m_scaled.scanLine(y));
            std::memmove(line, line + shift, static_cast<std::size_t>(w - shift) * sizeof(QRgb));
            const int core = y * m_image.height() / m_scaled.height();
            const QRgb c =
                reinterpret_cast<const QRgb*>(m_image.constScanLine(core))[m_columns - 1];
            std::fill(line + w - shift, line + w, c);
        }
    }
    std::vector<float> v(shares.begin(), shares.end());
    m_values.push_back(std::move(v));
    ++m_pushed;
    while (!m_phases.empty() && m_pushed - m_phases.front().sample > m_columns)
        m_phases.pop_front();
    if (static_cast<int>(m_values.size()) > m_columns)
        m_values.pop_front();
    update();
}

void HeatmapWidget::addSample(const Rates& rates) {
    std::vector<double> shares(static_cast<std::size_t>(m_cores), 0.0);
    for (const auto& c : rates.cores)
        if (c.cpu >= 0 && c.cpu < m_cores)
            shares[static_cast<std::size_t>(c.cpu)] = c.busy();
    m_times.push_back(rates.end);
    if (static_cast<int>(m_times.size()) > m_columns)
        m_times.pop_front();
    pushColumn(shares, false);
}

void HeatmapWidget::addGap() {
    m_times.push_back(m_times.empty() ? 0.0 : m_times.back());
    if (static_cast<int>(m_times.size()) > m_columns)
        m_times.pop_front();
    pushColumn({}, true);
}

void HeatmapWidget::addPhase(const QString& name) {
    if (!m_phases.empty() && m_phases.back().sample == m_pushed)
        m_phases.back().name = name;
    else
        m_phases.push_back({m_pushed, name});
    update();
}

std::vector<HeatmapWidget::PhaseMark> HeatmapWidget::phases() const {
    return {m_phases.begin(), m_phases.end()};
}

QString HeatmapWidget::coreLabel(int cpu) const {
    return static_cast<std::size_t>(cpu) < m_labels.size() ? m_labels[static_cast<std::size_t>(cpu)]
                                                           : QStringLiteral("CPU%1").arg(cpu);
}

QRect HeatmapWidget::mapRect() const {
    // Core labels on the left, the colour scale and its values on the right, the time axis below.
    const int legend = 58, axis = 16;
    const int label = m_labelWidth;
    return QRect(label, 2, std::max(10, width() - label - legend),
                 std::max(10, height() - 4 - axis));
}

int HeatmapWidget::columnX(const QRect& r, long long fromEnd) const {
    const long long col = m_columns - 1 - fromEnd;
    return r.left() + static_cast<int>((2 * col + 1) * r.width() / (2LL * m_columns));
}

std::vector<double> HeatmapWidget::timeMarks() const {
    std::vector<double> out;
    if (m_times.size() < 2)
        return out;
    // A mark every 10 s back from the newest sample (20 s, 60 s over longer windows).
    const double span = m_times.back() - m_times.front();
    const double step = span > 300 ? 60 : span > 60 ? 20 : 10;
    for (double ago = std::floor(span / step) * step; ago >= 0; ago -= step)
        out.push_back(ago);
    return out;
}

QString HeatmapWidget::timeLabel(double ago) {
    return ago == 0 ? tr("0 s") : tr("-%1 s").arg(ago, 0, 'f', 0);
}

QStringList HeatmapWidget::timeLabels() const {
    QStringList out;
    for (double ago : timeMarks())
        out << timeLabel(ago);
    return out;
}

QString HeatmapWidget::readout(const QPoint& pos) const {
    const auto r = mapRect();
    if (!r.contains(pos) || m_cores == 0 || m_values.empty())
        return {};
    const int cpu = std::clamp((pos.y() - r.top()) * m_cores / r.height(), 0, m_cores - 1);
    const int col = (pos.x() - r.left()) * m_columns / r.width(); // 0 = oldest column shown
    const int fromEnd = m_columns - 1 - col;                      // 0 = the newest sample
    const int idx = static_cast<int>(m_values.size()) - 1 - fromEnd;
    if (idx < 0)
        return {};
    const auto& v = m_values[static_cast<std::size_t>(idx)];
    const auto name = coreLabel(cpu);
    if (v.empty())
        return tr("%1: no data (the router was not reachable)").arg(name);
    const double secondsAgo = m_times.back() - m_times[static_cast<std::size_t>(idx)];
    return tr("%1, %2 s ago: %3% busy")
        .arg(name)
        .arg(secondsAgo, 0, 'f', 1)
        .arg(qRound(v[static_cast<std::size_t>(cpu)] * 100));
}

void HeatmapWidget::rescale() {
    m_scaled = m_image.isNull() ? QImage() : m_image.scaled(mapRect().size());
}

void HeatmapWidget::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette().window());
    const auto r = mapRect();
    if (!m_image.isNull() && m_scaled.size() != r.size())
        rescale(); // a new size: scaled once, then shifted along with the samples
    if (!m_scaled.isNull())
        p.drawImage(r.topLeft(), m_scaled);
    p.setPen(palette().color(QPalette::WindowText));
    QFont f = font();
    f.setPointSizeF(f.pointSizeF() * 0.8);
    p.setFont(f);
    // Core labels, with their class, where they fit.
    const int every = std::max(1, m_cores * 12 / std::max(r.height(), 1));
    for (int c = 0; c < m_cores; c += every) {
        const int y = r.top() + (2 * c + 1) * r.height() / (2 * m_cores);
        p.drawText(QRect(0, y - 8, r.left() - 4, 16), Qt::AlignRight | Qt::AlignVCenter,
                   coreLabel(c));
    }
    // The time axis, in seconds back from the newest sample.
    if (m_times.size() >= 2) {
        const double perSample =
            (m_times.back() - m_times.front()) / static_cast<double>(m_times.size() - 1);
        for (double ago : timeMarks()) {
            const int x = columnX(r, std::llround(ago / std::max(perSample, 1e-9)));
            p.drawLine(x, r.bottom() + 1, x, r.bottom() + 4);
            p.drawText(QRect(x - 30, r.bottom() + 3, 60, 14), Qt::AlignHCenter | Qt::AlignTop,
                       timeLabel(ago));
        }
    }
    // The test's phases: a line where each starts, its name beside it, cut short where the
    // next phase begins (a test's "done" and the next one's "idle" may be a column apart).
    for (std::size_t i = 0; i < m_phases.size(); ++i) {
        const auto& m = m_phases[i];
        const long long fromEnd = m_pushed - m.sample;
        if (fromEnd < 0 || fromEnd >= m_columns)
            continue;
        const int x = columnX(r, fromEnd) - r.width() / (2 * m_columns);
        p.setPen(QPen(Qt::white, 1, Qt::DashLine));
        p.drawLine(x, r.top(), x, r.bottom());
        p.setPen(Qt::white);
        int room = r.right() - x - 3;
        if (i + 1 < m_phases.size())
            room =
                columnX(r, m_pushed - m_phases[i + 1].sample) - r.width() / (2 * m_columns) - x - 4;
        if (room > 8)
            p.drawText(QRect(x + 3, r.top(), room, 14), Qt::AlignLeft | Qt::AlignVCenter,
                       p.fontMetrics().elidedText(m.name, Qt::ElideRight, room));
    }
    p.setPen(palette().color(QPalette::WindowText));
    // The colour scale, drawn once per size.
    const QRect scale(r.right() + 10, r.top(), 12, r.height());
    if (m_legend.size() != scale.size()) {
        m_legend = QImage(scale.size(), QImage::Format_RGB32);
        for (int y = 0; y < scale.height(); ++y)
            std::fill_n(reinterpret_cast<QRgb*>(m_legend.scanLine(y)), scale.width(),
                        colour(1.0 - static_cast<double>(y) / scale.height()));
    }
    p.drawImage(scale.topLeft(), m_legend);
    p.setPen(palette().color(QPalette::WindowText));
    p.drawText(scale.right() + 2, scale.top() + 10, QStringLiteral("100%"));
    p.drawText(scale.right() + 2, scale.center().y() + 4, QStringLiteral("50%"));
    p.drawText(scale.right() + 2, scale.bottom(), QStringLiteral("0%"));
}

void HeatmapWidget::mouseMoveEvent(QMouseEvent* e) {
    const auto text = readout(e->position().toPoint());
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(e->globalPosition().toPoint(), text, this);
}

void HeatmapWidget::leaveEvent(QEvent*) {
    QToolTip::hideText();
}

} // namespace coresteer::ui

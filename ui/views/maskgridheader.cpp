// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/views/maskgridheader.h"

#include "ui/models/maskgridmodel.h"

#include <QPainter>
#include <QStyleOptionHeader>

#include <algorithm>

namespace coresteer::ui {

MaskGridHeader::MaskGridHeader(QWidget* parent) : QHeaderView(Qt::Horizontal, parent) {
    setDefaultAlignment(Qt::AlignCenter);
    setSectionsClickable(false);
    setHighlightSections(false);
}

std::vector<MaskGridHeader::Group> MaskGridHeader::groups() const {
    std::vector<Group> out;
    if (!model())
        return out;
    for (int s = MaskGridModel::FirstCpu; s < model()->columnCount(); ++s) {
        const auto c =
            model()->headerData(s, Qt::Horizontal, MaskGridModel::CpuClassRole).toStringList();
        if (c.isEmpty())
            return {}; // one class (or none known): nothing to group by
        const QString detail = c.size() > 1 ? c[1] : QString();
        if (!out.empty() && out.back().name == c[0] && out.back().last == s - 1)
            out.back().last = s;
        else
            out.push_back({c[0], detail, s, s});
    }
    return out;
}

QString MaskGridHeader::bandText(const Group& g, int width) const {
    const auto fm = fontMetrics();
    const int pad = 6;
    const QString full = g.detail.isEmpty() ? g.name : g.name + QLatin1Char(' ') + g.detail;
    for (const auto& t : {full, g.name, g.name.left(1)})
        if (fm.horizontalAdvance(t) + pad <= width)
            return t;
    return {};
}

int MaskGridHeader::bandHeight() const {
    return fontMetrics().height() + 6;
}

QSize MaskGridHeader::sizeHint() const {
    QSize s = QHeaderView::sizeHint();
    // The numbers' row, and the band above them where there are classes to name.
    const int row = fontMetrics().height() + 8;
    s.setHeight(std::max(s.height(), row) + (groups().empty() ? 0 : bandHeight()));
    return s;
}

void MaskGridHeader::paintSection(QPainter* p, const QRect& rect, int logicalIndex) const {
    if (logicalIndex < MaskGridModel::FirstCpu) {
        QHeaderView::paintSection(p, rect, logicalIndex);
        return;
    }
    // The number below the band (painted over the whole header in paintEvent).
    QRect r = rect;
    if (m_band)
        r.setTop(rect.top() + bandHeight());
    QStyleOptionHeader opt;
    initStyleOption(&opt);
    opt.rect = r;
    opt.section = logicalIndex;
    opt.textAlignment = Qt::AlignCenter;
    opt.text = model()->headerData(logicalIndex, Qt::Horizontal, Qt::DisplayRole).toString();
    opt.position = QStyleOptionHeader::Middle;
    style()->drawControl(QStyle::CE_HeaderSection, &opt, p, this);
    const auto load = model()->headerData(logicalIndex, Qt::Horizontal, MaskGridModel::CpuLoadRole);
    if (load.isValid()) {
        // The CPU's load as in its cells: the hot core stands out above the grid too.
        const double l = std::clamp(load.toDouble(), 0.0, 1.0);
        QRect bar = r.adjusted(1, 1, -1, -1);
        bar.setTop(bar.bottom() - static_cast<int>(bar.height() * l));
        p->fillRect(bar, QColor::fromHsvF(0.06, 0.35 + 0.5 * l, 1.0, 0.55));
    }
    style()->drawControl(QStyle::CE_HeaderLabel, &opt, p, this);
}

void MaskGridHeader::paintEvent(QPaintEvent* e) {
    // The runs once a paint, not once a section.
    const auto gs = groups();
    m_band = !gs.empty();
    QHeaderView::paintEvent(e);
    if (gs.empty())
        return;
    QPainter p(viewport());
    const int h = bandHeight();
    const QRect visible = viewport()->rect();
    for (const auto& g : gs) {
        const int x0 = sectionViewportPosition(g.first);
        const int x1 = sectionViewportPosition(g.last) + sectionSize(g.last);
        QRect band(x0, 0, x1 - x0, h);
        QStyleOptionHeader opt;
        initStyleOption(&opt);
        opt.rect = band;
        opt.position = QStyleOptionHeader::Middle;
        style()->drawControl(QStyle::CE_HeaderSection, &opt, &p, this);
        // The name centred on what shows of the run, so a run scrolled half away keeps it.
        const QRect shown = band.intersected(visible);
        if (shown.width() <= 0)
            continue;
        QFont f = p.font();
        f.setBold(true);
        p.setFont(f);
        p.setPen(palette().color(QPalette::ButtonText));
        p.drawText(shown, Qt::AlignCenter, bandText(g, shown.width()));
        p.setFont(font());
    }
}

} // namespace coresteer::ui

// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// MaskGridHeader: the mask grid's column header. Each CPU column shows its number (shaded by the
// CPU's load); where the router has more than one class of core, a band above the numbers names
// each run of CPUs of one class once ("LITTLE 1.8 GHz" over CPUs 0-3, "big 2.3 GHz" over 4-7),
// so that 64 narrow columns still read as groups.
#pragma once

#include <QHeaderView>

#include <vector>

namespace coresteer::ui {

class MaskGridHeader : public QHeaderView {
    Q_OBJECT
public:
    explicit MaskGridHeader(QWidget* parent = nullptr);

    // One run of adjacent CPU columns of one class.
    struct Group {
        QString name;   // "big", "LITTLE", ...
        QString detail; // its top frequency ("2.3 GHz"), or empty
        int first = 0;  // logical sections (columns), inclusive
        int last = 0;
    };
    // The runs, from the model's CpuClassRole; empty when every core is of one class.
    std::vector<Group> groups() const;
    // What the band shows for `g` in `width` pixels: the name and frequency, the name alone,
    // or its first letter.
    QString bandText(const Group& g, int width) const;

    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent* e) override;
    void paintSection(QPainter* p, const QRect& rect, int logicalIndex) const override;

private:
    int bandHeight() const;
    bool m_band = false; // this paint has a band (set by paintEvent for paintSection)
};

} // namespace coresteer::ui

// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// Cores x time: one row per core, one column per sample, coloured by busy share, scrolling to
// the left as samples arrive. Paints into a QImage that shifts by one column per sample, so a
// tick costs one column of pixels whatever the width (smooth at 20 Hz with 256 cores). Hover
// reads out the core, the time and its load; a colour scale with its values sits on the right,
// core labels with their class on the left, and a time axis in seconds with the test's phases
// below.
#pragma once

#include "core/live/sample.h"

#include <QImage>
#include <QWidget>

#include <deque>
#include <vector>

namespace coresteer::ui {

class HeatmapWidget : public QWidget {
    Q_OBJECT
public:
    explicit HeatmapWidget(QWidget* parent = nullptr);

    // Starts over with `cores` rows, keeping `columns` samples. `labels` name the rows ("4 big");
    // the core's number where there are none.
    void reset(int cores, int columns = 600, std::vector<QString> labels = {});
    void addSample(const live::Rates& rates);
    void addGap();
    // A mark where the test's next phase starts ("idle", "load", "done"), at the next sample.
    void addPhase(const QString& name);
    struct PhaseMark {
        long long sample; // the count of samples before it
        QString name;
    };
    // The marks still on the map, oldest first.
    std::vector<PhaseMark> phases() const;
    // The time axis' labels now, left to right ("-50 s" ... "0 s"), where the map has samples.
    QStringList timeLabels() const;
    QString coreLabel(int cpu) const;
    int cores() const { return m_cores; }
    int samples() const { return static_cast<int>(m_times.size()); }
    // The colour for a busy share (0..1): dark blue through yellow to red.
    static QRgb colour(double share);
    // What the hover shows for a point of the widget (empty outside the map).
    QString readout(const QPoint& pos) const;
    const QImage& image() const { return m_image; }

    QSize sizeHint() const override { return {600, 200}; }

protected:
    void paintEvent(QPaintEvent*) override;
    void mouseMoveEvent(QMouseEvent* e) override;
    void leaveEvent(QEvent*) override;

private:
    QRect mapRect() const;
    // The x of the column of the sample that came `fromEnd` samples before the newest.
    int columnX(const QRect& r, long long fromEnd) const;
    // The time axis' marks, in seconds before the newest sample, oldest first; and a mark's text.
    std::vector<double> timeMarks() const;
    static QString timeLabel(double ago);
    void pushColumn(const std::vector<double>& shares, bool gap);
    void rescale();

    int m_cores = 0, m_columns = 600;
    QImage m_image;  // m_columns x m_cores, one pixel per sample and core
    QImage m_scaled; // m_image at the size it is shown, kept in step by shifting it too
    QImage m_legend; // the colour scale at its shown size
    std::deque<double> m_times;
    std::deque<std::vector<float>> m_values; // kept for the read-out
    std::vector<QString> m_labels;
    int m_labelWidth = 40;
    std::deque<PhaseMark> m_phases;
    long long m_pushed = 0; // samples and gaps so far
    QPoint m_hover{-1, -1};
};

} // namespace coresteer::ui

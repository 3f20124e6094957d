// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The bar over the Live tab's side while a recording replays: which recording and where the
// replay is (drag the slider to go elsewhere: one seek where the drag ends), and how fast it goes
// (1x, 4x, 16x, or all at once). ReplayDriver plays; this only shows it and asks.
#pragma once

#include "core/live/recording.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QSlider;

namespace coresteer::ui {

class ReplayBar : public QWidget {
    Q_OBJECT
public:
    explicit ReplayBar(QWidget* parent = nullptr);

    // A replay of `recording` starts at `speed` (one of the bar's, else the first).
    void start(const live::Recording& recording, double speed);
    double speed() const;
    // Where the replay of `recording` is; `done`: it reached the end.
    void showPosition(const live::Recording& recording, double seconds, bool done);

Q_SIGNALS:
    void seekRequested(double seconds);
    void speedChanged(double speed);

private:
    QLabel* m_label;
    QSlider* m_slider; // tenths of a second
    QComboBox* m_speed;
};

} // namespace coresteer::ui

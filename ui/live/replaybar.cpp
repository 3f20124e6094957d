// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/live/replaybar.h"

#include "core/base/text.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSlider>

#include <cmath>
#include <initializer_list>
#include <utility>

namespace coresteer::ui {

ReplayBar::ReplayBar(QWidget* parent)
    : QWidget(parent), m_label(new QLabel), m_slider(new QSlider(Qt::Horizontal)),
      m_speed(new QComboBox) {
    auto* bar = new QHBoxLayout(this);
    bar->setContentsMargins(0, 0, 0, 0);
    bar->addWidget(m_label);
    m_slider->setTracking(false); // one seek where the drag ends
    m_slider->setToolTip(tr("Where the replay is: drag to go to another time"));
    connect(m_slider, &QSlider::valueChanged, this,
            [this](int tenths) { Q_EMIT seekRequested(tenths / 10.0); });
    bar->addWidget(m_slider, 1);
    for (const auto& [text, speed] : std::initializer_list<std::pair<QString, double>>{
             {tr("1x"), 1}, {tr("4x"), 4}, {tr("16x"), 16}, {tr("All"), 0}})
        m_speed->addItem(text, speed);
    m_speed->setToolTip(tr("How fast the recording replays"));
    bar->addWidget(m_speed);
    connect(m_speed, &QComboBox::currentIndexChanged, this,
            [this] { Q_EMIT speedChanged(speed()); });
}

void ReplayBar::start(const live::Recording& recording, double speed) {
    {
        const QSignalBlocker b(m_speed);
        const int i = m_speed->findData(speed);
        m_speed->setCurrentIndex(i >= 0 ? i : 0);
    }
    const QSignalBlocker b(m_slider);
    m_slider->setRange(0, static_cast<int>(std::ceil(recording.duration * 10)));
    m_slider->setValue(0);
}

double ReplayBar::speed() const {
    return m_speed->currentData().toDouble();
}

void ReplayBar::showPosition(const live::Recording& recording, double seconds, bool done) {
    {
        const QSignalBlocker b(m_slider);
        m_slider->setValue(static_cast<int>(std::lround(seconds * 10)));
    }
    const auto label = QString::fromStdString(text::printable(recording.info.label, 40));
    if (done)
        m_label->setText(tr("Replayed %1 (%2 s)").arg(label).arg(recording.duration, 0, 'f', 1));
    else
        m_label->setText(tr("Replay of %1: %2 of %3 s")
                             .arg(label)
                             .arg(seconds, 0, 'f', 1)
                             .arg(recording.duration, 0, 'f', 1));
}

} // namespace coresteer::ui

// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/live/replaydriver.h"

#include <QTimer>

#include <algorithm>
#include <limits>

namespace coresteer::ui {

using namespace coresteer::live;

ReplayDriver::ReplayDriver(QObject* parent) : QObject(parent), m_timer(new QTimer(this)) {
    m_timer->setInterval(50);
    connect(m_timer, &QTimer::timeout, this, &ReplayDriver::step);
}

void ReplayDriver::start(std::shared_ptr<const Recording> recording, double speed) {
    m_recording = std::move(recording);
    m_replay = std::make_unique<Replay>(*m_recording);
    m_pending.reset();
    m_phase.clear();
    m_at = 0;
    m_speed = speed;
    m_clock.start();
    if (speed <= 0)
        step();
    else
        m_timer->start();
}

bool ReplayDriver::seek(double seconds) {
    if (!m_recording)
        return false;
    if (!m_replay)
        m_replay = std::make_unique<Replay>(*m_recording);
    if (!m_replay->seek(seconds))
        return false;
    Q_EMIT restarted();
    m_pending.reset();
    m_phase = m_replay->phase();
    m_at = std::max(seconds, 0.0);
    m_clock.restart();
    if (m_speed > 0)
        m_timer->start();
    step();
    return true;
}

void ReplayDriver::setSpeed(double speed) {
    m_speed = speed;
    if (m_speed <= 0)
        step();
}

void ReplayDriver::stop() {
    m_timer->stop();
    m_replay.reset();
}

// Feeds every event that is due by now, at the chosen speed.
void ReplayDriver::step() {
    if (!m_replay)
        return;
    const double dt = static_cast<double>(m_clock.restart()) / 1000.0;
    m_at = m_speed > 0 ? m_at + dt * m_speed : std::numeric_limits<double>::infinity();
    ReplayEvent e;
    while (true) {
        if (!m_pending) {
            if (!m_replay->next(e))
                break;
            m_pending = std::move(e);
        }
        if (m_pending->t > m_at)
            break;
        auto& ev = *m_pending;
        switch (ev.kind) {
        case ReplayEvent::Kind::Rates:
            Q_EMIT rates(ev.rates);
            break;
        case ReplayEvent::Kind::Gap:
            Q_EMIT gap();
            break;
        case ReplayEvent::Kind::Latency:
            // The recorded phases say what was idle (the first 3 s when a file has none).
            Q_EMIT latency(ev.t, ev.latencyMs, m_phase.empty() ? ev.t < 3.0 : m_phase == "idle",
                           QString::fromStdString(ev.probe));
            break;
        case ReplayEvent::Kind::Throughput:
            Q_EMIT throughput(ev.t, ev.downBitsPerSec, ev.upBitsPerSec);
            break;
        case ReplayEvent::Kind::Trial:
            Q_EMIT trial(ev.t, ev.block, ev.candidate);
            break;
        case ReplayEvent::Kind::Phase:
            m_phase = ev.phase;
            break;
        }
        m_pending.reset();
    }
    const bool done = !m_pending;
    if (done) {
        m_timer->stop();
        m_replay.reset();
    }
    Q_EMIT moved(std::min(m_at, m_recording->duration), done);
}

} // namespace coresteer::ui

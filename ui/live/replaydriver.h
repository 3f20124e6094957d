// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// Plays a recording back at its recorded pace, faster, or all at once, and seeks in it: a
// timer feeds the panel every event that has fallen due (rates, gaps, latency, throughput,
// phases, a tuner's trials), as the live connection would have. The recording's checkpoints make a
// seek cost about the same wherever it goes (core/live/recording.h).
#pragma once

#include "core/live/recording.h"

#include <QElapsedTimer>
#include <QObject>

#include <memory>
#include <optional>
#include <string>

class QTimer;

namespace coresteer::ui {

class ReplayDriver : public QObject {
    Q_OBJECT
public:
    explicit ReplayDriver(QObject* parent = nullptr);

    // Plays `recording` from its start at `speed` times its pace (0: all at once).
    void start(std::shared_ptr<const live::Recording> recording, double speed);
    // Goes to `seconds` into the recording (also after the replay ended); the replay goes on
    // from there at its speed. False when the recording has no such time.
    bool seek(double seconds);
    void setSpeed(double speed); // 0 feeds the rest at once
    void stop();                 // ends it where it is, feeding nothing more

    bool active() const { return m_replay != nullptr; }
    double position() const { return m_at; }
    double speed() const { return m_speed; }
    const live::Recording* recording() const { return m_recording.get(); }

Q_SIGNALS:
    // Each event as it falls due. `idle`: the latency was measured in the idle phase.
    void rates(const coresteer::live::Rates& rates);
    void gap();
    void latency(double t, std::optional<double> ms, bool idle, const QString& probe);
    void throughput(double t, double downBitsPerSec, double upBitsPerSec);
    // A tuner's trial of `candidate` (0: the baseline) in `block` begins; candidate -1: the
    // trial ended.
    void trial(double t, int block, int candidate);
    // After each step: where the replay is, and whether it has reached the end.
    void moved(double seconds, bool done);
    // A seek: the views start again from there.
    void restarted();

private:
    void step();

    std::shared_ptr<const live::Recording> m_recording;
    std::unique_ptr<live::Replay> m_replay;
    std::optional<live::ReplayEvent> m_pending; // the next event, not yet due
    std::string m_phase;                        // the recorded phase the replay is in
    double m_at = 0, m_speed = 1;
    QElapsedTimer m_clock;
    QTimer* m_timer;
};

} // namespace coresteer::ui

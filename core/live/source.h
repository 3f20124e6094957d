// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// Where live samples come from: a router over its one long-lived SSH channel (stream.h), or a
// /proc tree on this machine read directly.
#pragma once

#include "core/live/sample.h"
#include "core/live/stream.h"

#include <chrono>
#include <memory>
#include <optional>
#include <string>

namespace coresteer::ssh {
class Session;
class Stream;
} // namespace coresteer::ssh

namespace coresteer::live {

class SampleSource {
public:
    virtual ~SampleSource() = default;
    // One tick: reads the counters now. nullopt with *error when the router could not be read;
    // a source that failed may be asked again (the SSH source then starts its awk anew, unless
    // the awk went past a cap of SampleDecoder: then it gives that error again, and starts none).
    virtual std::optional<Sample> next(std::string* error) = 0;
    // Bytes received from the router so far (0 for a local tree).
    virtual std::uint64_t bytesIn() const { return 0; }
    // The files of the last sample next() returned, as the parsers read them (for recordings).
    const SampleTexts& lastTexts() const { return m_texts; }

protected:
    SampleTexts m_texts;
};

// The time of the tick after the one due at `due`, `period` later; or `now` when this process
// could not run for longer than a period (suspended, a stalled machine): the ticks missed are
// skipped, not caught up with in a burst that the router would pay for.
inline std::chrono::steady_clock::time_point nextTick(std::chrono::steady_clock::time_point due,
                                                      std::chrono::steady_clock::time_point now,
                                                      std::chrono::steady_clock::duration period) {
    const auto next = due + period;
    return now > next + period ? now : next;
}

// Reads <root>/proc/{uptime,stat,softirqs,interrupts,net/dev} on each tick.
std::unique_ptr<SampleSource> localSampleSource(std::string root);
// How often the SSH source asks for /proc/softirqs, /proc/interrupts and /proc/net/dev: the
// ticks between read /proc/stat alone (stream.h), with no uptime (they are dated by
// estimateUptime), and their IRQ, softirq and interface rates are held (computeRates). Those three
// files are most of what a tick costs the router (tests/bench/sampler_cost.sh); per-core load stays
// at the full rate.
inline constexpr int kCountersEveryMs = 950;

// The sampler awk over `session` (which must outlive the source), under `root` on the router:
// every file on the first tick and then about every `countersEveryMs` (0: on every tick).
std::unique_ptr<SampleSource> sshSampleSource(ssh::Session& session, std::string root,
                                              int tickTimeoutMs = 5000,
                                              int countersEveryMs = kCountersEveryMs);

} // namespace coresteer::live

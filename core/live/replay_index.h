// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// Internal to core/live: a recording's replay checkpoints, which readRecording builds
// (recording.cpp) and Replay starts again from (replay.cpp).
#pragma once

#include "core/live/recording.h"
#include "core/live/stream.h"

#include <cstddef>
#include <string>
#include <vector>

namespace coresteer::live {

// Everything a replay is between two events, to start again from.
struct ReplayCheckpoint {
    std::size_t offset = 0; // of the event line it is before
    int line = 0;           // lines read before it
    double latest = 0, latestEvent = 0;
    SampleDecoder::State decoder;
    bool haveSample = false, haveLast = false;
    double lastTickTime = 0;
    double wholeTickTime = -1; // Replay::m_wholeTickTime
    std::size_t ticks = 0;
    std::string phase;
};

struct ReplayIndex {
    // A checkpoint every this many bytes of events at least, and more when the files have
    // many lines (starting again from a checkpoint parses every line: the events between two
    // cost about as much to read); and at most this many ticks apart. Never one that would
    // hold more bytes of lines of its own than the events since the one before: the
    // checkpoints together hold at most as much as the events.
    static constexpr std::size_t kMinSpacing = 256u << 10;
    static constexpr std::size_t kBytesPerLine = 32;
    static constexpr std::size_t kMaxTicks = 4096;

    std::vector<ReplayCheckpoint> checkpoints; // in the file's order
    bool statOnlyTicks = false; // a tick read /proc/stat alone (Replay then holds rates)
    std::size_t bytes = 0;      // in memory
};

} // namespace coresteer::live

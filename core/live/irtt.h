// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// irtt (Debian's irtt) as a latency probe for the bufferbloat test, against an `irtt server`
// that the person names: a UDP packet each 100 ms for the whole test, whose replies carry the
// server's timestamps, so that each round trip splits into its send delay (this machine to the
// server: the upload's queue) and its receive delay (back: the download's queue). Three probes
// in the recording: "irtt:HOST" (the round trip), "irtt-up:HOST" and "irtt-down:HOST".
//
// The two clocks need not agree: the one-way delays are shifted, once, so that the first reply's
// are each half its round trip. Their increases under load, which grade the test, are exact up
// to the clocks' drift over the test. irtt runs without a shell (its arguments are a vector),
// and what it prints is read as untrusted: bounded lines, only "seq=", "rtt=", "rd=" and "sd="
// read, a jump in the sequence counting at most kMaxGap lost.
#pragma once

#include "core/live/router_ping.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace coresteer::live {

struct IrttTarget {
    static constexpr int kDefaultPort = 2112;
    std::string host;
    int port = kDefaultPort;
};

// "host", "host:port" or "[v6]:port"; false with *error when it is none.
bool parseIrttTarget(std::string_view text, IrttTarget& target, std::string* error);
// The arguments after "irtt": a packet each 100 ms for `seconds`.
std::vector<std::string> irttArguments(const IrttTarget& target, int seconds);
// The recording's probe names for the round trip, the send and the receive delay.
std::string irttProbe(const IrttTarget& target);
std::string irttUpProbe(const IrttTarget& target);
std::string irttDownProbe(const IrttTarget& target);

class IrttReader {
public:
    static constexpr std::uint64_t kMaxGap = SequenceGaps::kMaxGap;
    struct Reply {
        std::optional<double> rttMs; // nullopt: lost
        std::optional<double> upMs, downMs;
    };
    std::vector<Reply> feed(std::string_view data);

private:
    void line(std::string_view l, std::vector<Reply>& out);
    std::string m_buf;
    SequenceGaps m_gaps;
    std::optional<double> m_upShift, m_downShift;
};

// A Go duration as irtt prints it ("273µs", "1.39ms", "2.1s", "950ns"), in milliseconds.
std::optional<double> parseGoDurationMs(std::string_view text);

} // namespace coresteer::live

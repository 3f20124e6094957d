// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// Latency from the router itself to a host past the WAN: the router's own `ping` (BusyBox's on
// OpenWrt, iputils' elsewhere), one process for the whole test on a channel of the SSH session
// that samples it. Beside the same host probed from this machine, it separates the router's own
// queue from the path: what this machine sees beyond what the router sees is the LAN side's.
//
// The router's output is untrusted: lines are bounded, only "seq=N" (or "icmp_seq=N") and
// "time=X ms" are read from them, and a jump in the sequence counts at most kMaxGap lost.
#pragma once

#include "core/base/text.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace coresteer::live {

// The shell command that runs on the router: five echoes a second, or one where its ping takes
// no fraction of a second; `host` is quoted. Empty when `host` is not a plain host name or
// address.
std::string routerPingCommand(std::string_view host);

// Replies numbered in sequence, as ping and irtt number them: how many were lost before `seq`
// (a jump counts at most kMaxGap), or nullopt for a duplicate or a late reply (counted already).
class SequenceGaps {
public:
    static constexpr std::uint64_t kMaxGap = 50;
    std::optional<std::uint64_t> lostBefore(std::uint64_t seq);

private:
    std::optional<std::uint64_t> m_last;
};

// Whole lines of what a probe prints, in pieces: fn(line) for each; a line longer than 4 KiB
// without its end is nothing a probe prints, and is dropped.
template <typename Fn> void forEachProbeLine(std::string& buffer, std::string_view data, Fn&& fn) {
    text::forEachLine(buffer, data, [&](std::string_view l) {
        fn(l);
        return true;
    });
    if (buffer.size() > 4096)
        buffer.clear();
}

class PingReader {
public:
    static constexpr std::uint64_t kMaxGap = SequenceGaps::kMaxGap;
    // A reply (ms) or a lost echo (nullopt), in sequence order.
    std::vector<std::optional<double>> feed(std::string_view data);

private:
    void line(std::string_view l, std::vector<std::optional<double>>& out);
    std::string m_buf;
    SequenceGaps m_gaps;
};

} // namespace coresteer::live

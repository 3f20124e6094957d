// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/live/router_ping.h"

#include "core/base/shell.h"
#include "core/base/text.h"

#include <cctype>

namespace coresteer::live {

std::string routerPingCommand(std::string_view host) {
    if (host.empty() || host.size() > 253 || host.front() == '-')
        return {};
    for (unsigned char c : host)
        if (!std::isalnum(c) && c != '.' && c != '-' && c != ':' && c != '_')
            return {};
    const auto h = shellQuote(host);
    // A ping that takes no fraction of a second ends at once with a usage error: then once a
    // second. Its errors stay on the router.
    return "ping -i 0.2 " + h + " 2>/dev/null || exec ping " + h + " 2>/dev/null";
}

std::optional<std::uint64_t> SequenceGaps::lostBefore(std::uint64_t seq) {
    if (m_last && seq <= *m_last)
        return std::nullopt;
    const std::uint64_t lost = m_last ? std::min(seq - *m_last - 1, kMaxGap) : 0;
    m_last = seq;
    return lost;
}

std::vector<std::optional<double>> PingReader::feed(std::string_view data) {
    std::vector<std::optional<double>> out;
    forEachProbeLine(m_buf, data, [&](std::string_view l) { line(l, out); });
    return out;
}

void PingReader::line(std::string_view l, std::vector<std::optional<double>>& out) {
    if (l.size() > 512)
        return;
    auto value = [&](std::string_view key) -> std::string_view {
        std::size_t at = 0;
        while ((at = l.find(key, at)) != std::string_view::npos) {
            // "seq=" must not match inside "icmp_seq=" twice, nor "xseq=".
            if (at == 0 || l[at - 1] == ' ' || l[at - 1] == '_')
                break;
            at += key.size();
        }
        if (at == std::string_view::npos)
            return {};
        const auto rest = l.substr(at + key.size());
        return rest.substr(0, rest.find(' '));
    };
    const auto seqText = value("seq=");
    const auto timeText = value("time=");
    if (seqText.empty() || timeText.empty())
        return;
    const auto seq = text::parseU64(seqText);
    const auto ms = text::parseDouble(timeText);
    if (!seq || !ms || *ms < 0 || *ms > 600000)
        return;
    const auto lost = m_gaps.lostBefore(*seq);
    if (!lost)
        return; // a duplicate or a late reply: counted already
    out.insert(out.end(), *lost, std::nullopt);
    out.emplace_back(*ms);
}

} // namespace coresteer::live

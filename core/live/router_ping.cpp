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

std::vector<std::optional<double>> PingReader::feed(std::string_view data) {
    std::vector<std::optional<double>> out;
    m_buf.append(data);
    std::size_t start = 0;
    for (std::size_t nl; (nl = m_buf.find('\n', start)) != std::string::npos; start = nl + 1)
        line(std::string_view(m_buf).substr(start, nl - start), out);
    m_buf.erase(0, start);
    if (m_buf.size() > 4096) // a line without end is nothing ping prints
        m_buf.clear();
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
    if (m_lastSeq && *seq <= *m_lastSeq)
        return; // a duplicate or a late reply: counted already
    if (m_lastSeq)
        for (std::uint64_t s = *m_lastSeq + 1, n = 0; s < *seq && n < kMaxGap; ++s, ++n)
            out.emplace_back(std::nullopt);
    m_lastSeq = seq;
    out.emplace_back(*ms);
}

} // namespace coresteer::live

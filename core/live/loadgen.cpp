// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/live/loadgen.h"

#include "core/base/text.h"

#include <algorithm>

namespace coresteer::live {

bool parseLoadServer(std::string_view text, LoadSpec& spec, std::string* error) {
    auto fail = [&](const std::string& why) {
        if (error)
            *error = "load generator server '" + text::printable(text, 60) + "': " + why;
        return false;
    };
    std::string_view host = text;
    std::optional<std::uint64_t> port;
    if (!text.empty() && text.front() == '[') {
        const auto close = text.find(']');
        if (close == std::string_view::npos)
            return fail("no closing ']'");
        host = text.substr(1, close - 1);
        const auto rest = text.substr(close + 1);
        if (!rest.empty()) {
            if (rest.front() != ':')
                return fail("expected ':port' after ']'");
            port = text::parseU64(rest.substr(1));
            if (!port)
                return fail("not a port");
        }
    } else if (std::count(text.begin(), text.end(), ':') == 1) {
        const auto colon = text.find(':');
        host = text.substr(0, colon);
        port = text::parseU64(text.substr(colon + 1));
        if (!port)
            return fail("not a port");
    }
    if (host.empty() || host.size() > 253)
        return fail("no host");
    if (host.front() == '-')
        return fail("a host cannot start with '-'");
    for (char c : host)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == ':' ||
              c == '_' || c == '%'))
            return fail("not a host name or address");
    if (port && (*port < 1 || *port > 65535))
        return fail("the port must be 1 to 65535");
    spec.server = std::string(host);
    if (port)
        spec.port = static_cast<int>(*port);
    return true;
}

bool isLoadUrl(std::string_view url, std::string* error) {
    auto fail = [&](const std::string& why) {
        if (error)
            *error = "load URL '" + text::printable(url, 80) + "': " + why;
        return false;
    };
    if (url.size() > 2048)
        return fail("longer than 2048 bytes");
    for (char c : url)
        if (static_cast<unsigned char>(c) <= 0x20 || static_cast<unsigned char>(c) >= 0x7f)
            return fail("spaces, control characters and bytes beyond ASCII must be %-encoded");
    std::string_view rest;
    if (url.substr(0, 7) == "http://")
        rest = url.substr(7);
    else if (url.substr(0, 8) == "https://")
        rest = url.substr(8);
    else
        return fail("not an http:// or https:// URL");
    const auto authority = rest.substr(0, rest.find_first_of("/?#"));
    if (authority.find('@') != std::string_view::npos)
        return fail("a user or password in a URL would be written to the settings and the "
                    "recording; use a URL without one");
    if (authority.empty() || authority.front() == ':')
        return fail("no host");
    return true;
}

bool parseLoadTarget(std::string_view text, LoadSpec& spec, std::string* error) {
    const auto trimmed = text::trim(text);
    if (trimmed.substr(0, 7) != "http://" && trimmed.substr(0, 8) != "https://") {
        if (!parseLoadServer(trimmed, spec, error))
            return false;
        spec.urls.clear();
        spec.postUrl.clear();
        return true;
    }
    std::vector<std::string> urls;
    std::string post;
    bool afterPost = false;
    text::Tokenizer words(trimmed);
    for (std::string_view word; words.next(word);) {
        if (word == "POST" && !afterPost && !urls.empty()) {
            afterPost = true;
            continue;
        }
        if (!isLoadUrl(word, error))
            return false;
        if (afterPost && !post.empty()) {
            if (error)
                *error = "load target: one URL after POST, not two";
            return false;
        }
        if (afterPost) {
            post = std::string(word);
        } else if (urls.size() == LoadSpec::kMaxUrls) {
            if (error)
                *error = "load target: at most " + std::to_string(LoadSpec::kMaxUrls) +
                         " URLs to download from";
            return false;
        } else {
            urls.emplace_back(word);
        }
    }
    if (afterPost && post.empty()) {
        if (error)
            *error = "load target: POST needs the URL that takes the uploads after it";
        return false;
    }
    spec.urls = std::move(urls);
    spec.postUrl = std::move(post);
    return true;
}

std::string loadTargetText(const LoadSpec& spec) {
    if (spec.isHttp()) {
        std::string t;
        for (const auto& u : spec.urls)
            t += (t.empty() ? "" : " ") + u;
        return spec.postUrl.empty() ? t : t + " POST " + spec.postUrl;
    }
    const bool v6 = spec.server.find(':') != std::string::npos;
    return (v6 ? "[" + spec.server + "]" : spec.server) + ":" + std::to_string(spec.port);
}

bool isCongestionName(std::string_view name) {
    if (name.empty() || name.size() > 15)
        return false;
    for (char c : name)
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'))
            return false;
    return true;
}

std::vector<std::string> iperfArguments(const LoadSpec& spec) {
    std::vector<std::string> a = {"--client",    spec.server,
                                  "--port",      std::to_string(spec.port),
                                  "--parallel",  std::to_string(std::clamp(spec.streams, 1, 32)),
                                  "--time",      std::to_string(std::max(spec.seconds, 1)),
                                  "--interval",  "0.5",
                                  "--forceflush"};
    if (isCongestionName(spec.congestion)) {
        a.emplace_back("--congestion");
        a.push_back(spec.congestion);
    }
    if (spec.direction == LoadSpec::Direction::Download)
        a.emplace_back("--reverse");
    else if (spec.direction == LoadSpec::Direction::Both)
        a.emplace_back("--bidir");
    return a;
}

namespace {

double unitScale(std::string_view unit) {
    if (unit == "bits/sec")
        return 1;
    if (unit == "Kbits/sec")
        return 1e3;
    if (unit == "Mbits/sec")
        return 1e6;
    if (unit == "Gbits/sec")
        return 1e9;
    if (unit == "Tbits/sec")
        return 1e12;
    return -1;
}

} // namespace

std::vector<IperfReader::Report> IperfReader::feed(std::string_view data) {
    std::vector<Report> out;
    text::forEachLine(m_buf, data, [&](std::string_view l) {
        line(l, out);
        return true;
    });
    if (m_buf.size() > 4096)
        m_buf.clear(); // not iperf3's output: nothing to read in it
    return out;
}

// "[SUM][RX-C]   0.50-1.00   sec   270 MBytes  4.52 Gbits/sec" and the like.
void IperfReader::line(std::string_view l, std::vector<Report>& out) {
    if (l.empty() || l.front() != '[' || l.find("sender") != l.npos || l.find("receiver") != l.npos)
        return;
    const auto idEnd = l.find(']');
    if (idEnd == l.npos)
        return;
    const auto id = text::trim(l.substr(1, idEnd - 1));
    auto rest = l.substr(idEnd + 1);
    std::string_view role;
    if (!rest.empty() && rest.front() == '[') {
        const auto roleEnd = rest.find(']');
        if (roleEnd == rest.npos)
            return;
        role = rest.substr(1, roleEnd - 1);
        rest = rest.substr(roleEnd + 1);
    }
    const bool sum = id == "SUM";
    if (!sum && !text::parseU64(id))
        return;
    // With several streams only the sums count; with one, the stream's own line.
    if (sum != (std::clamp(m_spec.streams, 1, 32) > 1))
        return;
    std::vector<std::string_view> w;
    text::Tokenizer tok(rest);
    for (std::string_view t; tok.next(t);)
        w.push_back(t);
    if (w.size() < 6 || w[1] != "sec")
        return;
    const auto dash = w[0].find('-');
    if (dash == w[0].npos)
        return;
    const auto endText = text::parseDouble(w[0].substr(dash + 1));
    const auto rateText = text::parseDouble(w[4]);
    const double scale = unitScale(w[5]);
    if (!endText || !rateText || scale < 0)
        return;
    const double end = endText.value(), rate = rateText.value() * scale;
    bool down = m_spec.direction == LoadSpec::Direction::Download;
    if (m_spec.direction == LoadSpec::Direction::Both) {
        if (role == "RX-C")
            down = true;
        else if (role == "TX-C")
            down = false;
        else
            return;
    }
    if (m_pending && m_pending->end != end) {
        out.push_back(*m_pending); // an interval with one direction only
        m_pending.reset();
    }
    if (!m_pending) {
        m_pending = Report{end, 0, 0};
        m_haveDown = m_haveUp = false;
    }
    (down ? m_pending->downBitsPerSec : m_pending->upBitsPerSec) = rate;
    (down ? m_haveDown : m_haveUp) = true;
    if (m_spec.direction != LoadSpec::Direction::Both || (m_haveDown && m_haveUp)) {
        out.push_back(*m_pending);
        m_pending.reset();
    }
}

} // namespace coresteer::live

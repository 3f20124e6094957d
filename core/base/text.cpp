// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/base/text.h"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <sys/stat.h>
#include <unistd.h>

namespace coresteer::text {

std::string_view trim(std::string_view s) {
    std::size_t b = 0, e = s.size();
    while (b < e && (isSpace(s[b]) || s[b] == '\n'))
        ++b;
    while (e > b && (isSpace(s[e - 1]) || s[e - 1] == '\n'))
        --e;
    return s.substr(b, e - b);
}

bool LineReader::next(std::string_view& line) {
    if (m_pos >= m_data.size())
        return false;
    const std::size_t nl = m_data.find('\n', m_pos);
    const std::size_t end = nl == std::string_view::npos ? m_data.size() : nl;
    line = m_data.substr(m_pos, end - m_pos);
    m_pos = nl == std::string_view::npos ? m_data.size() : nl + 1;
    ++m_line;
    return true;
}

std::string_view Tokenizer::rest() const {
    std::size_t p = m_pos;
    while (p < m_s.size() && isSpace(m_s[p]))
        ++p;
    return m_s.substr(p);
}

std::optional<std::uint64_t> parseU64(std::string_view s) {
    if (s.empty() || s.size() > 20)
        return std::nullopt;
    std::uint64_t v = 0;
    for (char c : s) {
        if (!isDigit(c))
            return std::nullopt;
        // No division a digit: the overflow checks of the multiply and the add.
        if (__builtin_mul_overflow(v, std::uint64_t{10}, &v) ||
            __builtin_add_overflow(v, static_cast<std::uint64_t>(c - '0'), &v))
            return std::nullopt;
    }
    return v;
}

std::optional<std::int64_t> parseI64(std::string_view s) {
    bool neg = false;
    if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
        neg = s[0] == '-';
        s.remove_prefix(1);
    }
    const auto u = parseU64(s);
    if (!u)
        return std::nullopt;
    const auto max = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
    if (*u > max + (neg ? 1u : 0u))
        return std::nullopt;
    if (neg)
        return *u == max + 1 ? std::numeric_limits<std::int64_t>::min()
                             : -static_cast<std::int64_t>(*u);
    return static_cast<std::int64_t>(*u);
}

std::optional<double> parseDouble(std::string_view s) {
    if (s.empty() || s.size() > 64)
        return std::nullopt;
    double v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size() || !std::isfinite(v))
        return std::nullopt;
    return v;
}

std::string fixed(double v, int decimals) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

std::string eventRate(double perSecond, bool unit) {
    char buf[48];
    const char* u = unit ? "/s" : "";
    if (perSecond >= 1e6)
        std::snprintf(buf, sizeof buf, "%.2fM%s", perSecond / 1e6, u);
    else if (perSecond >= 1e4)
        std::snprintf(buf, sizeof buf, "%.1fk%s", perSecond / 1e3, u);
    else
        std::snprintf(buf, sizeof buf, "%.0f%s", perSecond, u);
    return buf;
}

std::string printable(std::string_view s, std::size_t maxLen) {
    std::string out;
    static const char* hex = "0123456789abcdef";
    for (unsigned char c : s) {
        if (out.size() >= maxLen) {
            out += "...";
            break;
        }
        if (c >= 0x20 && c < 0x7f) {
            out += static_cast<char>(c);
        } else if (c == '\n') {
            out += "\\n";
        } else if (c == '\t') {
            out += "\\t";
        } else {
            out += "\\x";
            out += hex[c >> 4];
            out += hex[c & 15];
        }
    }
    return out;
}

std::vector<std::string_view> split(std::string_view s, char sep) {
    std::vector<std::string_view> out;
    std::size_t b = 0;
    while (true) {
        const std::size_t p = s.find(sep, b);
        if (p == std::string_view::npos) {
            out.push_back(s.substr(b));
            return out;
        }
        out.push_back(s.substr(b, p - b));
        b = p + 1;
    }
}

bool startsWith(std::string_view s, std::string_view prefix) {
    return s.substr(0, prefix.size()) == prefix;
}

bool writeFileAtomic(const std::string& path, std::string_view content, std::string* error) {
    // A temporary of an unpredictable name beside `path`, made with O_EXCL (mkstemp): nothing
    // anyone placed there beforehand, a link least of all, is opened or written through.
    std::string tmp = path + ".XXXXXX";
    const int fd = ::mkstemp(tmp.data());
    auto fail = [&] {
        if (error)
            *error = path + ": cannot be written";
        return false;
    };
    if (fd < 0)
        return fail();
    const mode_t mask = ::umask(0);
    ::umask(mask);
    bool ok = ::fchmod(fd, 0666 & ~mask) == 0;
    for (std::size_t at = 0; ok && at < content.size();) {
        const auto n = ::write(fd, content.data() + at, content.size() - at);
        if (n < 0 && errno == EINTR)
            continue;
        ok = n > 0;
        at += ok ? static_cast<std::size_t>(n) : 0;
    }
    ok = ::fsync(fd) == 0 && ok;
    ok = ::close(fd) == 0 && ok;
    if (!ok || std::rename(tmp.c_str(), path.c_str()) != 0) {
        ::unlink(tmp.c_str());
        return fail();
    }
    return true;
}

bool canWriteFileAtomic(const std::string& path, std::string* error) {
    std::string tmp = path + ".XXXXXX";
    const int fd = ::mkstemp(tmp.data());
    struct stat st {};
    const bool isDir = ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
    if (fd >= 0) {
        ::close(fd);
        ::unlink(tmp.c_str());
    }
    if (fd < 0 || isDir) {
        if (error)
            *error = path + ": cannot be written" + (isDir ? " (a directory)" : "");
        return false;
    }
    return true;
}

} // namespace coresteer::text

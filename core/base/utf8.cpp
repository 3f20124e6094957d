// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/base/utf8.h"

#include <cstdio>

namespace coresteer::utf8 {

long next(std::string_view s, std::size_t& pos) {
    const auto b0 = static_cast<unsigned char>(s[pos]);
    if (b0 < 0x80) {
        ++pos;
        return b0;
    }
    int len = 0;
    long cp = 0, min = 0;
    if ((b0 & 0xe0) == 0xc0) {
        len = 2, cp = b0 & 0x1f, min = 0x80;
    } else if ((b0 & 0xf0) == 0xe0) {
        len = 3, cp = b0 & 0x0f, min = 0x800;
    } else if ((b0 & 0xf8) == 0xf0) {
        len = 4, cp = b0 & 0x07, min = 0x10000;
    } else {
        ++pos;
        return -1;
    }
    if (pos + len > s.size()) {
        ++pos;
        return -1;
    }
    for (int i = 1; i < len; ++i) {
        const auto b = static_cast<unsigned char>(s[pos + i]);
        if ((b & 0xc0) != 0x80) {
            ++pos;
            return -1;
        }
        cp = (cp << 6) | (b & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) {
        ++pos;
        return -1;
    }
    pos += len;
    return cp;
}

bool valid(std::string_view s) {
    for (std::size_t i = 0; i < s.size();)
        if (next(s, i) < 0)
            return false;
    return true;
}

namespace {

void hexBytes(std::string& out, std::string_view bytes) {
    char buf[8];
    for (unsigned char c : bytes) {
        std::snprintf(buf, sizeof buf, "\\x%02x", c);
        out += buf;
    }
}

} // namespace

std::string terminalSafe(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size();) {
        const auto at = i;
        const long cp = next(s, i);
        const bool control = cp < 0 || (cp < 0x20 && cp != '\n' && cp != '\t') || cp == 0x7f ||
                             (cp >= 0x80 && cp < 0xa0) || (cp >= 0x202a && cp <= 0x202e) ||
                             (cp >= 0x2066 && cp <= 0x2069);
        if (control)
            hexBytes(out, s.substr(at, i - at));
        else
            out.append(s.substr(at, i - at));
    }
    return out;
}

TerminalSafeStream::TerminalSafeStream(std::ostream& to)
    : std::ostream(nullptr), m_buf(to.rdbuf()) {
    rdbuf(&m_buf);
}

TerminalSafeStream::~TerminalSafeStream() {
    m_buf.pubsync();
}

TerminalSafeStream::Buf::int_type TerminalSafeStream::Buf::overflow(int_type c) {
    if (c != traits_type::eof()) {
        m_pending += static_cast<char>(c);
        if (c == '\n')
            drain(false);
    }
    return traits_type::not_eof(c);
}

std::streamsize TerminalSafeStream::Buf::xsputn(const char* s, std::streamsize n) {
    m_pending.append(s, static_cast<std::size_t>(n));
    if (m_pending.find('\n') != std::string::npos)
        drain(false);
    return n;
}

int TerminalSafeStream::Buf::sync() {
    drain(false);
    return m_to->pubsync();
}

void TerminalSafeStream::Buf::drain(bool all) {
    // Keep the start of a code point whose last bytes have not come yet.
    std::size_t keep = 0;
    if (!all) {
        for (std::size_t back = 1; back <= 3 && back <= m_pending.size(); ++back) {
            const auto b = static_cast<unsigned char>(m_pending[m_pending.size() - back]);
            if ((b & 0xc0) == 0x80)
                continue; // a continuation byte: look further back
            const std::size_t need = (b & 0xe0) == 0xc0   ? 2
                                     : (b & 0xf0) == 0xe0 ? 3
                                     : (b & 0xf8) == 0xf0 ? 4
                                                          : 1;
            if (need > back)
                keep = back;
            break;
        }
    }
    const auto text = terminalSafe(std::string_view(m_pending).substr(0, m_pending.size() - keep));
    m_to->sputn(text.data(), static_cast<std::streamsize>(text.size()));
    m_pending.erase(0, m_pending.size() - keep);
}

std::string yamlQuoted(std::string_view s) {
    std::string out = "\"";
    char buf[16];
    for (std::size_t i = 0; i < s.size();) {
        long cp = next(s, i);
        if (cp < 0)
            cp = 0xfffd;
        if (cp == '"' || cp == '\\') {
            out += '\\';
            out += static_cast<char>(cp);
        } else if (cp >= 0x20 && cp < 0x7f) {
            out += static_cast<char>(cp);
        } else if (cp == '\n') {
            out += "\\n";
        } else if (cp == '\t') {
            out += "\\t";
        } else if (cp < 0x100) {
            std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned>(cp));
            out += buf;
        } else if (cp < 0x10000) {
            std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(cp));
            out += buf;
        } else {
            std::snprintf(buf, sizeof buf, "\\U%08x", static_cast<unsigned>(cp));
            out += buf;
        }
    }
    return out + "\"";
}

} // namespace coresteer::utf8

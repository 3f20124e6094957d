// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// UTF-8 as untrusted bytes: decoding one code point at a time, and text made safe for the
// language it lands in (a terminal, a YAML document).
#pragma once

#include <cstddef>
#include <ostream>
#include <streambuf>
#include <string>
#include <string_view>

namespace coresteer::utf8 {

// The code point that starts at s[pos], and pos moved past it; -1 for a byte that does not start
// a valid sequence (overlong forms, surrogates and code points above U+10FFFF are invalid), and
// pos moved past that one byte.
long next(std::string_view s, std::size_t& pos);

bool valid(std::string_view s);

// For a terminal: C0 controls but newline and tab, DEL, C1 controls (U+0080..U+009F), the
// bidirectional overrides and isolates (U+202A..U+202E, U+2066..U+2069) and invalid bytes are
// written as \xNN per byte, so nothing a router sends can move the cursor, recolour or retitle
// the user's terminal, or reorder what it shows.
std::string terminalSafe(std::string_view s);

// An ostream over another that passes everything through terminalSafe(), a line at a time (a
// code point split between two writes is kept until its end arrives). For text a person reads;
// never for JSON, whose escapes are its own.
class TerminalSafeStream : public std::ostream {
public:
    explicit TerminalSafeStream(std::ostream& to);
    ~TerminalSafeStream() override;

private:
    class Buf : public std::streambuf {
    public:
        explicit Buf(std::streambuf* to) : m_to(to) {}
        ~Buf() override { drain(true); }

    protected:
        int_type overflow(int_type c) override;
        std::streamsize xsputn(const char* s, std::streamsize n) override;
        int sync() override;

    private:
        void drain(bool all);
        std::streambuf* m_to;
        std::string m_pending;
    };
    Buf m_buf;
};

// A YAML double-quoted scalar: printable ASCII as it is, everything else escaped (\n, \t, \xNN,
// \uNNNN, \UNNNNNNNN), so no byte of it can end a line, a scalar or a document, in YAML 1.1 (which
// breaks lines at U+0085, U+2028 and U+2029 too) or 1.2. Invalid UTF-8 becomes U+FFFD; `exact`
// callers check valid() first.
std::string yamlQuoted(std::string_view s);

} // namespace coresteer::utf8

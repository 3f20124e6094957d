// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// Small, allocation-free helpers for reading kernel text formats.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace coresteer::text {

inline bool isSpace(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}
inline bool isDigit(char c) {
    return c >= '0' && c <= '9';
}

std::string_view trim(std::string_view s);

// Iterates the lines of a buffer; the last line needs no trailing newline.
class LineReader {
public:
    explicit LineReader(std::string_view data) : m_data(data) {}
    bool next(std::string_view& line);
    int lineNumber() const { return m_line; }
    // Where the next line starts; reset() goes back (or on) to such a place.
    std::size_t position() const { return m_pos; }
    void reset(std::size_t position, int lineNumber) {
        m_pos = position;
        m_line = lineNumber;
    }

private:
    std::string_view m_data;
    std::size_t m_pos = 0;
    int m_line = 0;
};

// Splits on runs of white space.
class Tokenizer {
public:
    explicit Tokenizer(std::string_view s) : m_s(s) {}
    // Inline: the parsers call it once a token, and a call that returns the token through
    // memory costs a store-forwarding stall each time.
    bool next(std::string_view& tok) {
        const std::size_t n = m_s.size();
        while (m_pos < n && isSpace(m_s[m_pos]))
            ++m_pos;
        if (m_pos >= n)
            return false;
        const std::size_t b = m_pos;
        while (m_pos < n && !isSpace(m_s[m_pos]))
            ++m_pos;
        tok = m_s.substr(b, m_pos - b);
        return true;
    }
    std::string_view rest() const; // remaining text, leading space trimmed
    std::size_t position() const { return m_pos; }

private:
    std::string_view m_s;
    std::size_t m_pos = 0;
};

// Decimal unsigned integer; nullopt on empty input, any non-digit, or overflow.
std::optional<std::uint64_t> parseU64(std::string_view s);
std::optional<std::int64_t> parseI64(std::string_view s);
// A finite decimal number ("12.5", "-3", "1e3"); nullopt on anything else.
std::optional<double> parseDouble(std::string_view s);

// `v` with exactly `decimals` digits after the point ("%.*f"), as files and tables write it.
std::string fixed(double v, int decimals);

// An event rate (interrupts, packets) as people read it: "123/s", "45.6k/s" from 10 000 on,
// "1.23M/s" from a million on; without the "/s" when `unit` is false (a column that says it).
std::string eventRate(double perSecond, bool unit = true);

// Printable form of untrusted text for messages: control bytes escaped, length capped.
std::string printable(std::string_view s, std::size_t maxLen = 80);

std::vector<std::string_view> split(std::string_view s, char sep);

bool startsWith(std::string_view s, std::string_view prefix);

// Whole lines out of a stream that arrives in pieces: appends `data` to `buffer` and calls
// fn(line) (without its newline) for each complete line, until fn returns false; what is left
// waits in `buffer` for the next piece. False, with the buffer dropped, when fn stopped.
template <typename Fn> bool forEachLine(std::string& buffer, std::string_view data, Fn&& fn) {
    buffer.append(data);
    std::size_t start = 0;
    while (true) {
        const auto nl = buffer.find('\n', start);
        if (nl == std::string::npos)
            break;
        if (!fn(std::string_view(buffer.data() + start, nl - start))) {
            buffer.clear();
            return false;
        }
        start = nl + 1;
    }
    buffer.erase(0, start);
    return true;
}

// Writes `content` to `path` through a new temporary file of an unpredictable name beside it
// (mkstemp) and a rename, so a reader never sees half a file and nothing planted at a known name
// is written through. False with *error ("<path>: cannot be written").
bool writeFileAtomic(const std::string& path, std::string_view content, std::string* error);
// Whether writeFileAtomic() could write `path` now: a temporary made and removed beside it (a
// run that ends in a file checks before it starts). False with *error as writeFileAtomic says.
bool canWriteFileAtomic(const std::string& path, std::string* error);

} // namespace coresteer::text

// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// Diagnostics: what went wrong while reading a router's files, with file and line.
#pragma once

#include <string>
#include <vector>

namespace coresteer {

enum class Severity { Warning, Error };

struct Diagnostic {
    Severity severity = Severity::Warning;
    std::string file; // path relative to the root, e.g. "proc/interrupts"
    int line = 0;     // 1-based; 0 when the problem concerns the whole file
    std::string message;

    // "proc/interrupts:12: error: ..." in the style of a compiler.
    std::string toString() const;
    bool operator==(const Diagnostic&) const = default;
};

class Diagnostics {
public:
    // Bounded: a garbage file cannot produce millions of messages.
    static constexpr std::size_t kMaxEntries = 200;

    void warn(std::string file, int line, std::string message);
    void error(std::string file, int line, std::string message);
    void add(Diagnostic d);
    void append(const Diagnostics& other);
    // Adds what `other` counted past kMaxEntries without listing (its errors among them), for a
    // caller that added other's entries itself.
    void appendUnlisted(const Diagnostics& other);

    const std::vector<Diagnostic>& entries() const { return m_entries; }
    bool hasErrors() const { return m_errors > 0; }
    bool empty() const { return m_entries.empty(); }
    std::size_t suppressed() const { return m_suppressed; }

private:
    std::vector<Diagnostic> m_entries;
    std::size_t m_errors = 0;
    std::size_t m_suppressed = 0;
};

} // namespace coresteer

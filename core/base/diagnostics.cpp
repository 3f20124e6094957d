// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/base/diagnostics.h"

namespace coresteer {

std::string Diagnostic::toString() const {
    std::string s = file;
    if (line > 0) {
        s += ':';
        s += std::to_string(line);
    }
    s += severity == Severity::Error ? ": error: " : ": warning: ";
    s += message;
    return s;
}

void Diagnostics::warn(std::string file, int line, std::string message) {
    add({Severity::Warning, std::move(file), line, std::move(message)});
}

void Diagnostics::error(std::string file, int line, std::string message) {
    add({Severity::Error, std::move(file), line, std::move(message)});
}

void Diagnostics::add(Diagnostic d) {
    if (d.severity == Severity::Error)
        ++m_errors;
    if (m_entries.size() >= kMaxEntries) {
        ++m_suppressed;
        return;
    }
    m_entries.push_back(std::move(d));
}

void Diagnostics::append(const Diagnostics& other) {
    for (const auto& d : other.m_entries)
        add(d);
    appendUnlisted(other);
}

void Diagnostics::appendUnlisted(const Diagnostics& other) {
    std::size_t listedErrors = 0;
    for (const auto& d : other.m_entries)
        listedErrors += d.severity == Severity::Error;
    m_errors += other.m_errors - listedErrors;
    m_suppressed += other.m_suppressed;
}

} // namespace coresteer

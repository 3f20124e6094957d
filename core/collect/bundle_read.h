// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// Typed reads of single-value files from a FileBundle, with diagnostics naming the file.
#pragma once

#include "core/base/cpumask.h"
#include "core/base/diagnostics.h"
#include "core/collect/bundle.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace coresteer {

class BundleReader {
public:
    BundleReader(const FileBundle& bundle, Diagnostics& diag) : m_bundle(bundle), m_diag(diag) {}

    const FileBundle& bundle() const { return m_bundle; }
    Diagnostics& diag() { return m_diag; }

    // Content of a file; a missing file gives nullopt silently, a failed read gives a warning.
    std::optional<std::string_view> text(const std::string& path);
    // First line, trimmed.
    std::optional<std::string> line(const std::string& path);
    std::optional<std::uint64_t> number(const std::string& path, std::uint64_t max);
    std::optional<std::int64_t> signedNumber(const std::string& path);
    std::optional<CpuMask> hexMask(const std::string& path);
    // The same of an entry already found (nullptr when absent); `path` names it in messages.
    std::optional<CpuMask> hexMask(std::string_view path, const BundleEntry* entry);
    std::optional<CpuMask> listMask(const std::string& path);
    // Basename of a symlink's target.
    std::optional<std::string> linkName(const std::string& path);

private:
    std::optional<std::string_view> text(std::string_view path, const BundleEntry* e);
    std::optional<std::string> line(std::string_view path, const BundleEntry* e);

    const FileBundle& m_bundle;
    Diagnostics& m_diag;
};

std::string baseName(std::string_view path);

} // namespace coresteer

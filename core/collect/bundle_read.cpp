// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/collect/bundle_read.h"

#include "core/base/text.h"

namespace coresteer {

std::string baseName(std::string_view path) {
    while (!path.empty() && path.back() == '/')
        path.remove_suffix(1);
    const auto slash = path.rfind('/');
    return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

std::optional<std::string_view> BundleReader::text(const std::string& path) {
    return text(path, m_bundle.get(path));
}

std::optional<std::string_view> BundleReader::text(std::string_view path, const BundleEntry* e) {
    if (!e)
        return std::nullopt;
    switch (e->kind) {
    case BundleEntry::Kind::File:
        return std::string_view(e->data);
    case BundleEntry::Kind::Unreadable:
        m_diag.warn(std::string(path), 0, "cannot read: " + text::printable(e->data));
        return std::nullopt;
    case BundleEntry::Kind::TooLarge:
        m_diag.error(std::string(path), 0, "file larger than " + e->data + " bytes; ignored");
        return std::nullopt;
    default:
        return std::nullopt;
    }
}

std::optional<std::string> BundleReader::line(const std::string& path) {
    return line(path, m_bundle.get(path));
}

std::optional<std::string> BundleReader::line(std::string_view path, const BundleEntry* e) {
    const auto t = text(path, e);
    if (!t)
        return std::nullopt;
    const auto first = text::trim(t->substr(0, t->find('\n')));
    if (first.empty())
        return std::nullopt; // an empty attribute says nothing (a read error through `read`)
    return std::string(first);
}

std::optional<std::uint64_t> BundleReader::number(const std::string& path, std::uint64_t max) {
    const auto l = line(path);
    if (!l)
        return std::nullopt;
    const auto v = text::parseU64(*l);
    if (!v || *v > max) {
        m_diag.warn(path, 1,
                    "expected a number up to " + std::to_string(max) + ", got '" +
                        text::printable(*l) + "'");
        return std::nullopt;
    }
    return v;
}

std::optional<std::int64_t> BundleReader::signedNumber(const std::string& path) {
    const auto l = line(path);
    if (!l)
        return std::nullopt;
    const auto v = text::parseI64(*l);
    if (!v)
        m_diag.warn(path, 1, "expected a number, got '" + text::printable(*l) + "'");
    return v;
}

std::optional<CpuMask> BundleReader::hexMask(const std::string& path) {
    return hexMask(path, m_bundle.get(path));
}

std::optional<CpuMask> BundleReader::hexMask(std::string_view path, const BundleEntry* entry) {
    const auto l = line(path, entry);
    if (!l)
        return std::nullopt;
    std::string error;
    auto m = CpuMask::fromHex(*l, &error);
    if (!m)
        m_diag.warn(std::string(path), 1, error);
    return m;
}

std::optional<CpuMask> BundleReader::listMask(const std::string& path) {
    const auto l = line(path);
    if (!l)
        return std::nullopt;
    std::string error;
    auto m = CpuMask::fromList(*l, &error);
    if (!m)
        m_diag.warn(path, 1, error);
    return m;
}

std::optional<std::string> BundleReader::linkName(const std::string& path) {
    const auto* target = m_bundle.link(path);
    if (!target) {
        if (const auto* e = m_bundle.get(path); e && e->kind == BundleEntry::Kind::Unreadable)
            m_diag.warn(path, 0, "cannot read link: " + text::printable(e->data));
        return std::nullopt;
    }
    auto name = baseName(*target);
    if (name.empty() || name == "." || name == "..") {
        m_diag.warn(path, 0, "odd link target '" + text::printable(*target) + "'");
        return std::nullopt;
    }
    return name;
}

} // namespace coresteer

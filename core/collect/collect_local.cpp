// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/collect/collect_local.h"

#include "core/base/text.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace coresteer {

namespace fs = std::filesystem;

namespace {

constexpr std::size_t kMaxDirNames = 65536;

BundleEntry readFileEntry(const fs::path& p, std::uint64_t maxBytes) {
    const int fd = ::open(p.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    if (fd < 0) {
        if (errno == ENOENT || errno == ENOTDIR)
            return {BundleEntry::Kind::Missing, {}};
        return {BundleEntry::Kind::Unreadable, std::strerror(errno)};
    }
    std::string data;
    char buf[65536];
    BundleEntry result{BundleEntry::Kind::File, {}};
    while (true) {
        const ssize_t n = ::read(fd, buf, sizeof buf);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            if (errno == ENOENT) { // sysfs attributes that do not apply (xps_cpus, single queue)
                result = {BundleEntry::Kind::Missing, {}};
                break;
            }
            result = {BundleEntry::Kind::Unreadable, std::strerror(errno)};
            break;
        }
        if (n == 0)
            break;
        if (data.size() + static_cast<std::size_t>(n) > maxBytes) {
            result = {BundleEntry::Kind::TooLarge, std::to_string(maxBytes)};
            break;
        }
        data.append(buf, static_cast<std::size_t>(n));
    }
    ::close(fd);
    if (result.kind == BundleEntry::Kind::File)
        result.data = std::move(data);
    return result;
}

BundleEntry readLinkEntry(const fs::path& p) {
    std::error_code ec;
    const auto target = fs::read_symlink(p, ec);
    if (!ec)
        return {BundleEntry::Kind::Link, target.string()};
    if (ec == std::errc::no_such_file_or_directory || ec == std::errc::not_a_directory)
        return {BundleEntry::Kind::Missing, {}};
    if (ec == std::errc::invalid_argument) // exists, but is not a link
        return {BundleEntry::Kind::Missing, {}};
    return {BundleEntry::Kind::Unreadable, ec.message()};
}

// Sorted names not starting with '.', or nullopt when `p` is not a readable directory.
std::optional<std::vector<std::string>> listDir(const fs::path& p) {
    std::error_code ec;
    if (!fs::is_directory(p, ec))
        return std::nullopt;
    std::vector<std::string> names;
    fs::directory_iterator it(p, fs::directory_options::skip_permission_denied, ec);
    if (ec)
        return std::nullopt;
    for (; it != fs::directory_iterator(); it.increment(ec)) {
        if (ec || names.size() >= kMaxDirNames)
            break;
        auto name = it->path().filename().string();
        if (!name.empty() && name[0] != '.' && name.find('\n') == std::string::npos)
            names.push_back(std::move(name));
    }
    std::sort(names.begin(), names.end());
    return names;
}

std::string joinNames(const std::vector<std::string>& names) {
    std::string s;
    for (const auto& n : names) {
        s += n;
        s += '\n';
    }
    return s;
}

class Walker {
public:
    Walker(const fs::path& root, FileBundle& bundle) : m_root(root), m_bundle(bundle) {}

    void walk(const CollectPattern& pat) {
        m_pattern = &pat;
        const auto comps = text::split(pat.pattern, '/');
        m_comps.assign(comps.begin(), comps.end());
        step(0, "");
    }

private:
    static bool isWild(std::string_view c) {
        return !c.empty() && (c.back() == '*' || c.back() == '#');
    }

    void step(std::size_t i, const std::string& rel) {
        if (i == m_comps.size()) {
            leaf(rel);
            return;
        }
        const auto comp = m_comps[i];
        const std::string prefix = rel.empty() ? "" : rel + "/";
        if (!isWild(comp)) {
            step(i + 1, prefix + std::string(comp));
            return;
        }
        const auto names = listed(rel);
        for (const auto& n : names)
            if (matchComponent(comp, n))
                step(i + 1, prefix + n);
    }

    // Directory listings are recorded once, so the snapshot builder sees every interface,
    // queue and IRQ even when a file below it is missing.
    std::vector<std::string> listed(const std::string& rel) {
        if (const auto* e = m_bundle.get(rel); e && e->kind == BundleEntry::Kind::Dir)
            return m_bundle.list(rel);
        const auto names = listDir(m_root / rel);
        if (!names)
            return {};
        m_bundle.add(rel, {BundleEntry::Kind::Dir, joinNames(*names)});
        return *names;
    }

    void leaf(const std::string& rel) {
        if (m_bundle.get(rel))
            return;
        if (m_pattern->onlyIfFile) {
            const auto slash = rel.rfind('/');
            const auto* guard = m_bundle.file(
                (slash == std::string::npos ? std::string() : rel.substr(0, slash + 1)) +
                m_pattern->onlyIfFile);
            const auto& prefixes = m_pattern->onlyIfPrefixes;
            if (!guard || std::none_of(prefixes.begin(), prefixes.end(),
                                       [&](const char* p) { return text::startsWith(*guard, p); }))
                return;
        }
        const bool wild = std::any_of(m_comps.begin(), m_comps.end(), isWild);
        BundleEntry e;
        switch (m_pattern->kind) {
        case BundleEntry::Kind::File:
            e = readFileEntry(m_root / rel, m_pattern->maxBytes);
            break;
        case BundleEntry::Kind::Link:
            e = readLinkEntry(m_root / rel);
            break;
        case BundleEntry::Kind::Dir: {
            const auto names = listDir(m_root / rel);
            e = names ? BundleEntry{BundleEntry::Kind::Dir, joinNames(*names)} : BundleEntry{};
            break;
        }
        default:
            return;
        }
        // Globbed paths that do not exist are simply not there; fixed paths are recorded as
        // Missing so the snapshot can say what it lacks.
        if (e.kind == BundleEntry::Kind::Missing && wild)
            return;
        m_bundle.add(rel, std::move(e));
    }

    fs::path m_root;
    FileBundle& m_bundle;
    const CollectPattern* m_pattern = nullptr;
    std::vector<std::string_view> m_comps;
};

} // namespace

FileBundle collectLocal(const fs::path& root) {
    FileBundle bundle;
    bundle.origin = root.string();
    Walker walker(root, bundle);
    for (const auto& pat : collectionSpec())
        walker.walk(pat);
    return bundle;
}

} // namespace coresteer

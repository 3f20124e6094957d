// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// FileBundle: the raw files that make one snapshot, read from a local root or a remote one.
//
// The collection spec lists what to read as glob patterns. The local collector walks them with
// std::filesystem; the SSH collector turns them into one shell script. Both produce the same
// FileBundle, and buildSnapshot() turns a bundle into a Snapshot, so both paths share all parsing.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace coresteer {

struct BundleEntry {
    enum class Kind {
        File,       // data = content
        Link,       // data = symlink target, as readlink prints it
        Dir,        // data = names, one per line, sorted
        Missing,    // does not exist
        Unreadable, // exists, but reading failed; data = reason ("Permission denied")
        TooLarge,   // larger than its pattern allows; data = the limit
    };
    Kind kind = Kind::Missing;
    std::string data;

    bool ok() const { return kind == Kind::File || kind == Kind::Link || kind == Kind::Dir; }
    bool operator==(const BundleEntry&) const = default;
};

class FileBundle {
public:
    // Bounds against a hostile or broken root.
    static constexpr std::size_t kMaxEntries = 200000;
    static constexpr std::uint64_t kMaxTotalBytes = 256ull << 20;

    // false once the bundle is full (the entry is then dropped and `truncated()` is set).
    bool add(std::string path, BundleEntry entry);
    const BundleEntry* get(std::string_view path) const;
    // Content of a File entry, or nullptr.
    const std::string* file(std::string_view path) const;
    // Target of a Link entry, or nullptr.
    const std::string* link(std::string_view path) const;
    // Names in a Dir entry (empty when absent).
    std::vector<std::string> list(std::string_view path) const;

    const std::map<std::string, BundleEntry, std::less<>>& entries() const { return m_entries; }
    std::uint64_t totalBytes() const { return m_bytes; }
    bool truncated() const { return m_truncated; }
    // Where the files came from ("/", "tests/fixtures/boards/bpi-r4", "ssh://root@router").
    std::string origin;

private:
    std::map<std::string, BundleEntry, std::less<>> m_entries;
    std::uint64_t m_bytes = 0;
    bool m_truncated = false;
};

// One pattern of the collection spec. Path components may be "*" (any name not starting with
// '.'), "#" (names of digits only) or "prefix#" / "prefix*" (e.g. "cpu#", "rx-*").
struct CollectPattern {
    std::string pattern;
    BundleEntry::Kind kind; // File, Link or Dir
    std::uint64_t maxBytes; // for File entries
    bool expected = false;  // a missing match is worth a warning
    // Read only when the file `onlyIfFile` beside it starts with one of `onlyIfPrefixes` (the
    // status of network threads, not of every process). onlyIfFile must be collected by an
    // earlier pattern.
    const char* onlyIfFile = nullptr;
    std::vector<const char*> onlyIfPrefixes = {};
};

const std::vector<CollectPattern>& collectionSpec();

// Bounds on names, as the file system has them: a name (one path component) of at most 255
// bytes, a path or a link target of at most 4095.
inline constexpr std::size_t kMaxNameBytes = 255;
inline constexpr std::size_t kMaxPathBytes = 4095;

// Why `name` cannot be one name in a directory, such as "a name with a NUL byte" or "the name
// '..'"; empty when it can.
std::string entryNameProblem(std::string_view name);
// Why `path` cannot name an entry below a directory ("an absolute path", "the name '..' in the
// path", ...); empty when it can: relative, and every name in it one that entryNameProblem()
// takes.
std::string entryPathProblem(std::string_view path);
// Why `target` cannot be a link's target (empty, a NUL byte, too long); empty when it can.
std::string linkTargetProblem(std::string_view target);

// Whether `name` matches one pattern component.
bool matchComponent(std::string_view component, std::string_view name);

} // namespace coresteer

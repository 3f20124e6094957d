// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/collect/collect_remote.h"

#include "core/base/shell.h"
#include "core/base/text.h"
#include "core/router-scripts/router_scripts.h"

#include <algorithm>
#include <random>

namespace coresteer {

namespace {

constexpr std::uint64_t kAttrBytes = 64u << 10;

bool isWild(std::string_view c) {
    return !c.empty() && (c.back() == '*' || c.back() == '#');
}

// Small sysfs and procfs attributes are read with the shell's `read`, which saves a fork per
// file; tables, device-tree strings (with NULs) and anything large go through cat.
bool readWithBuiltin(const CollectPattern& p) {
    return p.maxBytes <= kAttrBytes && !text::startsWith(p.pattern, "proc/device-tree/");
}

// Shell code that walks one pattern: nested loops over its wildcard components.
std::string walkCode(const CollectPattern& p) {
    const auto comps = text::split(p.pattern, '/');
    const bool wild = std::any_of(comps.begin(), comps.end(), isWild);
    std::string code, rel, indent;
    int depth = 0;
    for (std::size_t i = 0; i < comps.size(); ++i) {
        const auto c = comps[i];
        if (!isWild(c)) {
            rel += (rel.empty() ? "" : "/") + std::string(c);
            continue;
        }
        ++depth;
        const std::string var = "n" + std::to_string(depth);
        const std::string glob = std::string(c.substr(0, c.size() - 1)) + "*";
        code += indent + "lsd \"" + rel + "\"\n";
        code +=
            indent + "for a" + std::to_string(depth) + " in \"$R/" + rel + "\"/" + glob + "; do\n";
        indent += "  ";
        code += indent + var + "=${a" + std::to_string(depth) + "##*/}; m '" + std::string(c) +
                "' \"$" + var + "\" || continue\n";
        rel += (rel.empty() ? "$" : "/$") + var;
    }
    const char* fn = p.kind == BundleEntry::Kind::Link  ? "lk"
                     : p.kind == BundleEntry::Kind::Dir ? "dr"
                     : readWithBuiltin(p)               ? "rf"
                                                        : "cf";
    std::string leaf = std::string(fn) + " \"" + rel + "\" " + (wild ? "1" : "0");
    if (p.onlyIfFile) {
        // The same test as the local walker's: the guard file's content starts with the prefix
        // (its first line here, as the prefix has no newline).
        const auto dir = rel.substr(0, rel.rfind('/') + 1);
        std::string prefixes;
        for (const char* prefix : p.onlyIfPrefixes)
            prefixes += (prefixes.empty() ? "" : " | ") + shellQuote(prefix) + "*";
        leaf = "g=; { IFS= read -r g < \"$R/" + dir + p.onlyIfFile +
               "\"; } 2>/dev/null; case $g in " + prefixes + ") " + leaf + " ;; esac";
    }
    code += indent + leaf + "\n";
    for (int d = depth; d > 0; --d) {
        indent.resize(indent.size() - 2);
        code += indent + "done\n";
    }
    return code;
}

std::string reasonFrom(std::string_view message) {
    // "cat: /x: Permission denied", "cat: can't open '/x': Permission denied" -> the reason.
    const auto colon = message.rfind(": ");
    return std::string(
        text::trim(colon == std::string_view::npos ? message : message.substr(colon + 2)));
}

// A directory whose listing the walk records: a proper prefix of some pattern, up to a wildcard.
bool isListedDirectory(std::string_view path) {
    const auto parts = text::split(path, '/');
    for (const auto& p : collectionSpec()) {
        const auto comps = text::split(p.pattern, '/');
        if (comps.size() <= parts.size() || !isWild(comps[parts.size()]))
            continue;
        bool ok = true;
        for (std::size_t i = 0; ok && i < parts.size(); ++i)
            ok = matchComponent(comps[i], parts[i]);
        if (ok)
            return true;
    }
    return false;
}

} // namespace

CollectScript makeCollectScript(const std::string& root) {
    CollectScript cs;
    cs.token = randomToken("@@cs");
    std::string r = root;
    while (r.size() > 1 && r.back() == '/')
        r.pop_back();
    if (r == "/")
        r.clear();
    cs.script =
        "R=" + shellQuote(r) + "\nT='" + cs.token + "'\n" + std::string(router_scripts::kCollectSh);
    for (const auto& p : collectionSpec()) {
        // Commands' answers, not files: they run on the live root only (ethtool for every
        // interface with a bus device, once for all three of its answers; tc, else ip); a
        // fixture root holds captures of them.
        if (text::startsWith(p.pattern, "ethtool/") || p.pattern == "tc/qdisc" ||
            p.pattern == "ip/link") {
            std::string live;
            if (p.pattern == "ethtool/*/coalesce")
                live = "  command -v ethtool >/dev/null 2>&1 && for a1 in /sys/class/net/*; do\n"
                       "    n1=${a1##*/}; m '*' \"$n1\" || continue\n"
                       "    [ -e \"$a1/device\" ] && ec \"$n1\"\n"
                       "  done\n";
            else if (p.pattern == "tc/qdisc")
                live = "  if command -v tc >/dev/null 2>&1; then cmd tc/qdisc tc qdisc show\n"
                       "  elif command -v ip >/dev/null 2>&1; then cmd ip/link ip link show; fi\n";
            cs.script += "if [ -z \"$R\" ]; then\n" + (live.empty() ? ":\n" : live) + "else\n" +
                         walkCode(p) + "fi\n";
            continue;
        }
        cs.script += walkCode(p);
    }
    cs.script += "printf '%s DONE\\n' \"$T\"\n";
    return cs;
}

const CollectPattern* patternFor(std::string_view path) {
    const auto parts = text::split(path, '/');
    for (const auto& p : collectionSpec()) {
        const auto comps = text::split(p.pattern, '/');
        if (comps.size() != parts.size())
            continue;
        bool ok = true;
        for (std::size_t i = 0; ok && i < comps.size(); ++i)
            ok = matchComponent(comps[i], parts[i]);
        if (ok)
            return &p;
    }
    return nullptr;
}

namespace {

const char* kindName(BundleEntry::Kind k) {
    switch (k) {
    case BundleEntry::Kind::File:
        return "a file";
    case BundleEntry::Kind::Link:
        return "a link";
    case BundleEntry::Kind::Dir:
        return "a directory";
    default:
        return "an entry";
    }
}

// Why the script could not have printed an entry of `kind` at `path` (empty when it could):
// each pattern of the spec gives its paths one kind, and listings are of directories.
std::string kindProblem(char kind, std::string_view path, const CollectPattern* pat) {
    BundleEntry::Kind k;
    switch (kind) {
    case 'F':
        k = BundleEntry::Kind::File;
        break;
    case 'L':
        k = BundleEntry::Kind::Link;
        break;
    case 'D':
        k = BundleEntry::Kind::Dir;
        break;
    case 'M':
        return {};
    default:
        return "unknown entry kind '" + text::printable(std::string_view(&kind, 1)) +
               "' (entries are F, L, D or M)";
    }
    const auto want = pat ? pat->kind : BundleEntry::Kind::Dir; // no pattern: a listing
    if (k == want || (k == BundleEntry::Kind::Dir && isListedDirectory(path)))
        return {};
    return std::string(kindName(k)) + " where the collection spec has " + kindName(want);
}

} // namespace

bool parseCollectOutput(std::string_view out, const std::string& token, FileBundle& bundle,
                        std::string* error, int firstLine, EntryLines* lines) {
    EntryLines own;
    EntryLines& seen = lines ? *lines : own;
    int line = firstLine;    // the line of the entry being read
    std::size_t counted = 0; // where `line` was counted up to
    auto fail = [&](const std::string& msg) {
        if (error)
            *error = "line " + std::to_string(line) + ": " + msg;
        return false;
    };
    const std::string marker = token + " ";
    const std::string endMarker = "\n" + token + " E";
    std::size_t pos = 0;
    while (true) {
        line += static_cast<int>(std::count(out.begin() + counted, out.begin() + pos, '\n'));
        counted = pos;
        if (out.compare(pos, marker.size(), marker) != 0)
            return fail("the router's output is cut short or garbled here");
        const auto eol = out.find('\n', pos);
        if (eol == std::string_view::npos)
            return fail("the router's output is cut short");
        const auto header = out.substr(pos + marker.size(), eol - pos - marker.size());
        if (header == "DONE")
            return true;
        if (header.size() < 3 || header[1] != ' ')
            return fail("bad entry header in the router's output");
        const char kind = header[0];
        const std::string path(header.substr(2));
        const auto where = text::printable(path) + ": ";
        const auto contentStart = eol + 1;
        const auto end = out.find(endMarker, contentStart);
        if (end == std::string_view::npos)
            return fail(where + "the router's output is cut short here");
        const std::string_view content = out.substr(contentStart, end - contentStart);
        const auto endEol = out.find('\n', end + endMarker.size());
        if (endEol == std::string_view::npos)
            return fail(where + "the router's output is cut short after it");
        const auto status =
            text::trim(out.substr(end + endMarker.size(), endEol - end - endMarker.size()));
        pos = endEol + 1;

        const auto* pat = patternFor(path);
        if (!pat && !(kind == 'D' && isListedDirectory(path)))
            return fail(where + "an unexpected path (the collection spec reads no such file)");
        if (const auto p = entryPathProblem(path); !p.empty())
            return fail(where + p);
        if (const auto first = seen.find(path); first != seen.end()) {
            const auto* before = bundle.get(path);
            if (kind == 'D' && before && before->kind == BundleEntry::Kind::Dir)
                continue; // a directory is listed once for each pattern that walks it
            return fail(where + "declared a second time (first on line " +
                        std::to_string(first->second) + ")");
        }
        // An F entry with a failed status says only that the path could not be read (a capture
        // writes an unreadable link so): it has no kind to check.
        const auto sp = status.find(' ');
        const auto rc = text::parseU64(status.substr(0, sp));
        const bool unread = kind == 'F' && !status.empty() && (!rc || *rc != 0);
        if (const auto p = kindProblem(kind, path, pat); !p.empty() && !unread)
            return fail(where + p);
        seen.emplace(path, line);
        const bool wild = pat && pat->pattern != path;
        BundleEntry e;
        switch (kind) {
        case 'F': {
            if (unread) {
                const auto reason =
                    reasonFrom(sp == std::string_view::npos ? "" : status.substr(sp + 1));
                if (reason.find("No such file") != std::string::npos) {
                    if (wild)
                        continue;
                    e = {BundleEntry::Kind::Missing, {}};
                } else {
                    // (a capture writes an unreadable entry with no reason as "unreadable")
                    e = {BundleEntry::Kind::Unreadable, reason.empty() ? "unreadable" : reason};
                }
            } else if (content.size() > pat->maxBytes) {
                e = {BundleEntry::Kind::TooLarge, std::to_string(pat->maxBytes)};
            } else {
                e = {BundleEntry::Kind::File, std::string(content)};
            }
            break;
        }
        case 'L':
            if (const auto p = linkTargetProblem(content); !p.empty())
                return fail(where + p);
            e = {BundleEntry::Kind::Link, std::string(content)};
            break;
        case 'D': {
            std::vector<std::string> names;
            for (auto n : text::split(content, '\n')) {
                if (n.empty() || names.size() >= 65536)
                    continue;
                if (const auto p = entryNameProblem(n); !p.empty())
                    return fail(where + "lists " + p);
                names.emplace_back(n);
            }
            std::sort(names.begin(), names.end());
            std::string joined;
            for (const auto& n : names)
                joined += n + "\n";
            e = {BundleEntry::Kind::Dir, joined};
            break;
        }
        default: // 'M'
            e = {BundleEntry::Kind::Missing, {}};
            break;
        }
        if (!bundle.add(path, std::move(e)))
            return fail("the router sent more files or bytes than coresteer accepts");
    }
}

} // namespace coresteer

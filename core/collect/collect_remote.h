// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The collection spec as one POSIX sh script, and its output back as a FileBundle.
//
// The script runs on the router with `sh -s` (BusyBox ash, dash and bash alike), using only
// cat, readlink, `ethtool -c/-l/-x`, `tc qdisc show` or `ip link show` (live root only) and
// shell builtins. It walks the same globs as
// collectLocal() and prints every entry between delimiters made of a random per-run token, which no
// file content can fake:
//
//   <token> F proc/interrupts\n<content>\n<token> E <status> <message>\n
//   <token> L sys/class/net/eth0/device\n<target>\n<token> E\n
//   <token> D sys/class/net\n<name>\n<name>\n...\n<token> E\n
//   <token> M etc/openwrt_release\n\n<token> E\n
//   <token> DONE\n
//
// The root prefix reaches the script single-quoted; names found on the router only ever live in
// double-quoted variables, never in code.
#pragma once

#include "core/collect/bundle.h"

#include <map>
#include <string>
#include <string_view>

namespace coresteer {

struct CollectScript {
    std::string token;
    std::string script;
};

// A script that collects `root` ("/" on a router; a fixture root in tests).
CollectScript makeCollectScript(const std::string& root);

// Each entry's path and the line its header is on.
using EntryLines = std::map<std::string, int, std::less<>>;

// Parses the script's output. False, with a message in *error that starts "line N: ", when the
// output is cut short, its framing is broken, or it holds an entry that the script never prints:
// a path outside the collection spec, a kind the spec does not give that path (a link where it
// reads a file), an entry kind other than F, L, D and M, a path declared twice, a name with a
// NUL byte or longer than a file name can be; the bundle is then not to be used. Lines count
// from `firstLine` (the output's place in a file that holds it); *lines, when given, receives
// every entry's line.
bool parseCollectOutput(std::string_view output, const std::string& token, FileBundle& bundle,
                        std::string* error, int firstLine = 1, EntryLines* lines = nullptr);

// Which pattern of the spec a collected path belongs to (nullptr when none).
const CollectPattern* patternFor(std::string_view path);

} // namespace coresteer

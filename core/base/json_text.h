// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// JSON text from any bytes. Every JSON document coresteer writes (snapshots, layouts, presets,
// the CLI's --json answers, a recording's layout) is made by jsonText(), which never throws on
// what a router sends.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace coresteer {

// `j` as text, indented by `indent` spaces (< 0: on one line). Strings are the router's bytes:
// a sequence that is not UTF-8 becomes U+FFFD (nlohmann would throw type_error.316), and valid
// text is kept as it is, so a valid name reads back byte for byte. The characters a terminal or
// a script may take for something else are written as \u escapes: C0 controls and DEL, the C1
// controls (U+0080-U+009F) and the line and paragraph separators U+2028 and U+2029.
std::string jsonText(const nlohmann::json& j, int indent = 2);

} // namespace coresteer

// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// Text for a POSIX shell: a word quoted, and a delimiter no file can know in advance.
#pragma once

#include <string>
#include <string_view>

namespace coresteer {

// Single-quotes `s` for a POSIX shell. Never fails: NUL bytes cannot occur in the names we
// quote (the kernel forbids them), and are dropped if they do.
std::string shellQuote(std::string_view s);

// A random delimiter for one script run on a router ("@@cs" + 32 hex digits): the router's
// files cannot know it in advance, so they cannot fake the framing.
std::string randomToken(std::string_view prefix);

} // namespace coresteer

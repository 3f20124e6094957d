// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// coresteer-cli's commands, callable from tests. app/cli_main.cpp only forwards argv here.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace coresteer {

// Exit codes: 0 ok, 1 partial (warnings), 2 unusable input or bad usage.
int runCli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

} // namespace coresteer

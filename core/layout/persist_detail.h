// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// What persist.cpp and persist_files.cpp share. Internal to core/layout.
#pragma once

#include <string>

namespace coresteer::layout::detail {

inline constexpr const char* kOverridePath = "usr/libexec/platform/packet-steering.sh";
// Where persist-install.sh's board_aside keeps the board's own (its ASIDE).
inline constexpr const char* kBoardSteeringPath = "usr/libexec/platform/packet-steering.board.sh";
inline constexpr const char* kStateDir = "etc/coresteer";

// The comment every file persist writes starts with: the marker, the version, the board, `what`.
std::string header(const std::string& boardName, const std::string& what);
// A name udev's KERNEL== and systemd's unit instances take as it is.
bool plainName(const std::string& n);

} // namespace coresteer::layout::detail

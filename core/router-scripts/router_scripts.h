// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The shell and awk that run on routers, as real files in this folder, embedded in the binary
// at build time (cmake/EmbedFiles.cmake). Each file's header comment is its contract: what it
// reads, what it writes, its exit statuses. Scripts are POSIX sh for BusyBox ash, dash and bash.
#pragma once

#include <string_view>

namespace coresteer::router_scripts {

// TAB, NL, say, digits, kthread and the ethtool readers: what every script that keeps state
// starts with, after RSS_SPEC (kRssSpecAwk, for rss_now).
extern const std::string_view kCommonSh;
// D ($R/tmp/coresteer) and state_dir, which makes it with mode 0700 and refuses it when it is
// anyone else's, a link, or holds a state file that is not a plain file.
extern const std::string_view kStateDirSh;
// After kCommonSh and kStateDirSh: the runtime apply's state. state_lock and state_unlock, the
// check for a pending apply, the keys and values restore may write, getv, setv, restore, arm and
// claim. Used by the apply, settle and fleet scripts and by the revert job.
extern const std::string_view kRevertStateSh;
// After kRevertStateSh: the runtime apply, over WRITES ("key<TAB>value" lines), SECS, T, ID.
extern const std::string_view kApplySh;
// After kRevertStateSh: confirm or revert (ACTION) the pending apply.
extern const std::string_view kSettleSh;
// export ansible: the board check (R, BOARD), the apply (after kRevertStateSh, kBoardCheckSh
// and ROUTER) and the persist (after kBoardCheckSh, ROUTER, LAYOUT and the install scripts).
extern const std::string_view kBoardCheckSh;
extern const std::string_view kFleetApplySh;
extern const std::string_view kFleetPersistSh;
// The persisted apply script's body (after kCommonSh, kStateDirSh and the layout as data), and
// the awk that finds IRQs by action name and rank in /proc/interrupts.
extern const std::string_view kRouterApplySh;
extern const std::string_view kFindIrqsAwk;
// After kCommonSh and kStateDirSh: ban_irqs, banned_as and unban_irqs, irqbalance's bans of the
// IRQs the layout pins (persist's scripts and the persisted apply script).
extern const std::string_view kIrqbalanceBanSh;
// persist and unpersist: uninstall, stage, link, unchanged, keep_sysupgrade, move_in, ...
extern const std::string_view kPersistInstallSh;
// OpenWrt's platform packet-steering script as persist installs it (after BOARD and HOOK): the
// firmware's steering, then the layout.
extern const std::string_view kSteeringOverrideSh;
// The collector script's functions (the walk over the spec follows them, collect_remote.h).
extern const std::string_view kCollectSh;
// The live sampler (stream.h). It holds no single quote: it travels inside one.
extern const std::string_view kSamplerAwk;
// The spread (`ethtool -X` arguments) that gives the RSS indirection table `ethtool -x` shows.
extern const std::string_view kRssSpecAwk;
// The revert job's body (after kRevertStateSh), run as `/bin/sh $D/revert.sh ID SECONDS`.
extern const std::string_view kRevertJobSh;

} // namespace coresteer::router_scripts

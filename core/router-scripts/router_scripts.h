// The shell and awk that run on routers, as real files in this folder, embedded in the binary
// at build time (cmake/EmbedFiles.cmake). Each file's header comment is its contract: what it
// reads, what it writes, its exit statuses. Scripts are POSIX sh for BusyBox ash, dash and bash.
#pragma once

#include <string_view>

namespace coresteer::router_scripts {

// TAB, NL, say, digits and kthread: what every script that keeps state starts with.
extern const std::string_view kCommonSh;
// D ($R/tmp/coresteer) and state_dir, which makes it with mode 0700 and refuses it when it is
// anyone else's, a link, or holds a state file that is not a plain file.
extern const std::string_view kStateDirSh;
// After kCommonSh and kStateDirSh: the runtime apply's state. state_lock and state_unlock, the
// check for a pending apply, the keys and values restore may write, getv, setv, restore, arm and
// claim. Used by the apply, settle and fleet scripts and by the revert job.
extern const std::string_view kRevertStateSh;
// The revert job's body (after kRevertStateSh), run as `/bin/sh $D/revert.sh ID SECONDS`.
extern const std::string_view kRevertJobSh;

} // namespace coresteer::router_scripts

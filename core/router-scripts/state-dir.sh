# SPDX-FileCopyrightText: 2026 coresteer maintainers
# SPDX-License-Identifier: GPL-3.0-or-later
# shellcheck shell=sh
# state-dir.sh: coresteer's runtime state directory on the router, D=$R/tmp/coresteer, made and
# checked before anything is kept there. Sourced (as text) after common.sh: before
# revert-state.sh, and by the persisted apply script for the lock of its waiter.
#
# Input:  R, the root prefix: "" on a router, a fixture root in tests.
# Output: D; state_dir, which returns 0 when D is a directory of this user's own (root on a
#         router) with mode 0700, made here with `mkdir -m 700` when it is missing, and holds no
#         link at a state file's name; state_files, which checks that every state file is a plain
#         file (revert-state.sh runs it under its lock). Each returns 1 with the reason on
#         stderr. /tmp is writable by every user of the router: a directory someone else made
#         first, or a link in its place, is refused, never used.

D="$R/tmp/coresteer"
STATE_FILES='lock revert.new revert.data pending revert.sh claimed applying'

# state_dir: $D exists, is a directory of this user's own with mode 0700, and holds no link at
# the name of a state file. 1 with the reason on stderr otherwise.
state_dir() {
    if [ ! -e "$D" ] && [ ! -L "$D" ]; then
        if [ -n "$R" ] && [ ! -d "$R/tmp" ]; then mkdir -p "$R/tmp"; fi
        # Another apply may make it at the same moment: the checks below decide.
        mkdir -m 700 "$D" 2>/dev/null
    fi
    if [ -L "$D" ] || [ ! -d "$D" ]; then
        say "$D is a link or not a directory: refusing to keep coresteer's state there (remove it as root)"
        return 1
    fi
    set -f
    # shellcheck disable=SC2046 # the fields of ls's line
    set -- $(ls -ldn "$D" 2>/dev/null)
    set +f
    case ${1:-} in
    drwx------ | drwx------.) ;;
    *)
        say "$D has mode ${1:-unknown}, not drwx------: refusing to keep coresteer's state there (remove it as root)"
        return 1
        ;;
    esac
    # This shell's own uid (root on a router), read without running anything from PATH.
    status_field /proc/self/status Uid
    if [ -z "$sf" ] || [ "${3:-}" != "$sf" ]; then
        say "$D belongs to uid ${3:-unknown}, not to uid ${sf:-unknown}: refusing to keep coresteer's state there (remove it as root)"
        return 1
    fi
    # coresteer never makes a link here: one that is here was planted.
    for f in $STATE_FILES lock.d persist.wait steering irqbalance; do
        if [ -L "$D/$f" ]; then
            say "$D/$f is a link: refusing to use it (remove it as root)"
            return 1
        fi
    done
    return 0
}

# state_files: every state file that exists is a plain file. Under the state lock, where no
# other coresteer step is changing them. 1 with the reason on stderr otherwise.
state_files() {
    for f in $STATE_FILES; do
        if [ -e "$D/$f" ] && [ ! -f "$D/$f" ]; then
            say "$D/$f is not a plain file: refusing to use it (remove it as root)"
            return 1
        fi
    done
    return 0
}

# SPDX-FileCopyrightText: 2026 coresteer maintainers
# SPDX-License-Identifier: GPL-3.0-or-later
# shellcheck shell=sh
# apply.sh: the runtime apply, run with `sh -s` after common.sh, state-dir.sh, revert-state.sh
# and these assignments:
#   R        the root prefix ("" on a router)
#   T        this run's token: every line of the answer starts with it
#   ID       the revert job's id
#   SECS     seconds until the router restores the old values; empty: arm no revert
#   WRITES   "key<TAB>value" lines, in order: the values to write (keys as revert-state.sh says)
# Every old value is kept in revert.data before the revert is armed, and before any write.
# Answer, one line each: "$T A SECS" (the revert is armed); "$T W ok KEY", "$T W refused KEY
# MESSAGE" (the kernel said no; the rest goes on) or "$T W failed KEY MESSAGE" (then every value
# is restored: "$T ROLLBACK"); "$T B KEY VALUE" for each key read back, with the
# effective_affinity of each IRQ; "$T DONE".
# Exit status: 0 done; 2 SECS out of range; 3 the state is unsafe or cannot be written; 4 an
# apply is pending; 5 a current value cannot be read (nothing written); 6 a write failed and
# everything was restored.

if [ -n "$SECS" ]; then
    revert_time "$SECS" || exit 2
fi
begin_apply || exit $?

# cap KEY: keeps KEY's current value (NAPI threads and coalescing only on the live root).
cap() {
    case $1 in napi:* | ethtool:*) [ -n "$R" ] && return 0 ;; esac
    if ! getv "$1"; then
        say "cannot read the current value of $1"
        exit 5
    fi
    # shellcheck disable=SC2154 # v: getv's answer (revert-state.sh)
    printf '%s\t%s\n' "$1" "$v" >>"$D/revert.new"
}
w() {
    if e=$( { setv "$1" "$2"; } 2>&1); then
        printf '%s W ok %s\n' "$T" "$1"
        return 0
    fi
    e=${e%%"$NL"*}
    case $e in
    *"Invalid argument"* | *"I/O error"* | *"Input/output error"* | *"Value too large"* | \
        *"out of range"* | *"only on the live root"* | *"not found"* | *"not supported"*)
        printf '%s W refused %s %s\n' "$T" "$1" "$e"
        return 0
        ;;
    esac
    printf '%s W failed %s %s\n' "$T" "$1" "$e"
    claim
    restore
    rm -f "$D/claimed"
    printf '%s ROLLBACK\n' "$T"
    exit 6
}
rb() {
    getv "$1"
    printf '%s B %s %s\n' "$T" "$1" "$v"
}
# readback KEY: the value as it reads now, and an IRQ's effective CPUs.
readback() {
    rb "$1"
    case $1 in
    proc/irq/*/smp_affinity)
        [ ! -e "$R/${1%/*}/effective_affinity" ] || rb "${1%/*}/effective_affinity"
        ;;
    esac
}

each_line "$WRITES" cap
mv -f "$D/revert.new" "$D/revert.data" || exit 3
if [ -n "$SECS" ]; then
    arm "$ID" "$SECS" || exit $?
    printf '%s A %s\n' "$T" "$SECS"
fi
each_line "$WRITES" w
each_line "$WRITES" readback
end_apply
printf '%s DONE\n' "$T"

# SPDX-FileCopyrightText: 2026 coresteer maintainers
# SPDX-License-Identifier: GPL-3.0-or-later
# shellcheck shell=sh
# fleet-apply.sh: `export ansible`'s apply, after common.sh, state-dir.sh, revert-state.sh,
# board-check.sh and ROUTER (the router apply script, persist.h). CORESTEER_REVERT_AFTER gives
# the seconds until the router restores the old values (default 60; 5 to 86400).
# Runs ROUTER once as a dry run that keeps every value it would change in revert.new, arms the
# revert with them, then runs it for real: only values that differ are written.
# Prints "coresteer: changed N (...)" or "coresteer: unchanged" (nothing armed).
# Exit status: 0; 2 a revert time out of range; 3 unsafe state; 4 an apply is pending; 5 another
# board (board-check.sh).

secs=${CORESTEER_REVERT_AFTER:-60}
revert_time "$secs" || exit 2
begin_apply || exit $?
# run_router KEEP DRY: the router apply script, keeping old values in KEEP, writing only
# without DRY.
run_router() {
    printf '%s\n' "$ROUTER" | CORESTEER_ROOT="$R" CORESTEER_KEEP="$1" CORESTEER_DRY="$2" \
        CORESTEER_WAIT=0 ACTION=add INTERFACE='' /bin/sh -s
}
run_router "$D/revert.new" 1
n=0
while IFS= read -r _; do n=$((n + 1)); done <"$D/revert.new"
if [ "$n" -eq 0 ]; then
    rm -f "$D/revert.new"
    echo "coresteer: unchanged"
    exit 0
fi
mv -f "$D/revert.new" "$D/revert.data" || exit 3
arm "fleet$$" "$secs" || exit $?
run_router "" ""
end_apply
echo "coresteer: changed $n (the router restores them in $secs s unless confirmed)"

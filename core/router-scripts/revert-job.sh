# SPDX-FileCopyrightText: 2026 coresteer maintainers
# SPDX-License-Identifier: GPL-3.0-or-later
# shellcheck shell=sh
# revert-job.sh: the revert job. An apply writes it, after revert-state.sh and a first line that
# sets R from the job's own path, to $D/revert.sh, and starts it as
#   /bin/sh $D/revert.sh ID SECONDS
# after revert.data holds every old value. It sleeps SECONDS; then, under the state lock (which
# it takes from an apply that holds it more than 5 s longer: see state_lock_within), if
# `pending` still names ID (no confirm or revert took it), it claims it, writes every old value
# back and says so in the system log. A confirm or revert that claims `pending` ends it (SIGTERM)
# and its sleep. Exit status 0; 3 when the state is no longer safe to use.

trap '' HUP INT PIPE
sleep "$2" &
rj_sleep=$!
trap 'kill "$rj_sleep" 2>/dev/null; exit 0' TERM
wait "$rj_sleep"
trap '' TERM
state_dir 2>/dev/null || exit 3
state_lock_within 5 2>/dev/null || exit 3
rj_id=
read -r _ rj_id _ <"$D/pending" 2>/dev/null
if [ "$rj_id" = "$1" ] && mv -f "$D/pending" "$D/claimed"; then
    restore 2>/dev/null
    rm -f "$D/claimed"
    logger -t coresteer -- "layout not confirmed within $2 s: reverted" 2>/dev/null
fi
state_unlock
exit 0

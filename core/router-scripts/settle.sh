# SPDX-FileCopyrightText: 2026 coresteer maintainers
# SPDX-License-Identifier: GPL-3.0-or-later
# shellcheck shell=sh
# settle.sh: confirm or revert the pending apply, run with `sh -s` after common.sh,
# state-dir.sh, revert-state.sh and ACTION=confirm or ACTION=revert. Claims `pending` under the
# state lock and ends the revert job it names; revert also writes every old value back now.
# Prints "settled". Exit status: 0 settled; 1 nothing was pending; 3 the state is unsafe.

state_dir || exit 3
state_lock || exit 3
if ! claim; then
    echo "nothing is waiting for confirmation (never applied, already confirmed, or reverted by the timer)" >&2
    exit 1
fi
if [ "$ACTION" = revert ]; then
    restore
fi
rm -f "$D/claimed"
state_unlock
echo settled

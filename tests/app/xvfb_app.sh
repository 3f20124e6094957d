#!/bin/sh
# SPDX-FileCopyrightText: 2026 coresteer maintainers
# SPDX-License-Identifier: GPL-3.0-or-later
# The real coresteer binary under Xvfb: it opens the demo router, saves a screenshot and quits
# by itself (--quit-after), and it quits cleanly on SIGTERM, saving its window state.
# usage: xvfb_app.sh COREsteer_BINARY WORK_DIR
set -eu
bin=$1
work=$2
rm -rf "$work"
mkdir -p "$work/config"
export XDG_CONFIG_HOME="$work/config" HOME="$work"
fail() { echo "FAIL: $*" >&2; exit 1; }

# 1. --quit-after with a screenshot of the demo.
start=$(date +%s%N)
xvfb-run -a -s "-screen 0 1280x800x24" "$bin" --quit-after 4000 --screenshot "$work/demo.png" \
    >"$work/run1.log" 2>&1 || fail "exit status $? with --quit-after: $(cat "$work/run1.log")"
ms=$(( ($(date +%s%N) - start) / 1000000 ))
[ "$ms" -ge 4000 ] || fail "quit after $ms ms, before the 4000 asked"
[ -s "$work/demo.png" ] || fail "no screenshot"
size=$(stat -c %s "$work/demo.png")
[ "$size" -gt 30000 ] || fail "the screenshot is $size bytes: a blank window?"
conf="$work/config/coresteer/coresteer.conf"
{ [ -f "$conf" ] && grep -q '^geometry=' "$conf"; } || fail "the window state was not saved on quit"
echo "--quit-after: quit after $ms ms, screenshot $size bytes"

# 2. SIGTERM while running: a clean quit (exit 0, window state saved again).
rm -f "$conf"
# shellcheck disable=SC2016 # the inner sh expands $0 and $pid, not this one
xvfb-run -a -s "-screen 0 1280x800x24" sh -c '
    "$0" & pid=$!
    sleep 4
    kill -TERM $pid
    wait $pid' "$bin" >"$work/run2.log" 2>&1 || fail "exit status $? after SIGTERM: $(cat "$work/run2.log")"
{ [ -f "$conf" ] && grep -q '^geometry=' "$conf"; } || fail "the window state was not saved on SIGTERM"
echo "SIGTERM: clean quit"

#!/bin/sh
# SPDX-FileCopyrightText: 2026 coresteer maintainers
# SPDX-License-Identifier: GPL-3.0-or-later
# The vm tests leave nothing behind even when they die: start the router in netns.sh, kill the
# whole thing with SIGKILL from outside, and check that no QEMU of it is left on the host.
#   tests/router-vm/cleanup_test.sh VMDIR WORKDIR
set -eu
here=$(cd "$(dirname "$0")" && pwd)
vm=$1
work=$2
rm -rf "$work"
mkdir -p "$work"
"$here/netns.sh" sh -c "'$here/router.sh' start '$vm' '$work/state' 2222 > '$work/up' 2>&1; sleep 600" \
    > /dev/null 2>&1 &
pid=$!
trap 'kill -9 $pid 2>/dev/null || true' EXIT
t=0
until grep -q "up after" "$work/up" 2>/dev/null; do
    sleep 1
    t=$((t + 1))
    if [ $t -gt 150 ] || grep -q "router.sh:" "$work/up" && ! grep -q "up after" "$work/up"; then
        echo "cleanup_test: the router did not start" >&2
        cat "$work/up" >&2
        exit 1
    fi
done
pgrep -f "$work/state/disk.img" >/dev/null || { echo "cleanup_test: no QEMU seen running" >&2; exit 1; }
kill -9 "$pid"
wait "$pid" 2>/dev/null || true
t=0
while pgrep -f "$work/state/disk.img" >/dev/null; do
    sleep 0.2
    t=$((t + 1))
    if [ $t -gt 50 ]; then echo "cleanup_test: QEMU outlived its namespace" >&2; exit 1; fi
done
if ip link show cs-tap1 >/dev/null 2>&1; then
    echo "cleanup_test: a tap appeared on the host" >&2
    exit 1
fi
echo "cleanup_test: QEMU and its namespace are gone after SIGKILL"

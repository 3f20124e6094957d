#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 coresteer maintainers
# SPDX-License-Identifier: GPL-3.0-or-later
# What a persisted layout costs the router at each hotplug event: the wall time of the generated
# /etc/hotplug.d/net/95-coresteer under BusyBox ash (OpenWrt's shell), for one `add` event, on
# copies of a small and a large seed board. Prints the median of RUNS events per board.
#   tests/bench/persist_hotplug.sh [BUILD_DIR] [RUNS]
set -euo pipefail
case ${1:-} in
-h | --help) sed -n '4,7p' "$0"; exit 0 ;;
-*) echo "$0: unknown option $1 (--help)" >&2; exit 2 ;;
esac
cd "$(dirname "$0")/../.."
build=${1:-build/dev}
[ -x "$build/app/coresteer-cli" ] || { echo "no $build/app/coresteer-cli: build first" >&2; exit 2; }
runs=${2:-21}
cli=$PWD/$build/app/coresteer-cli
work=$PWD/$build/bench-persist
median() { sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

for board in ipq4019-acrh17 nanopi-r6s-friendlywrt x86-server-96; do
    rm -rf "$work"
    mkdir -p "$work"
    src=tests/fixtures/boards/$board
    [ -d "$src" ] || src=resources/demo/$board # the demo router's tree
    cp -a "$src" "$work/root"
    [ -f "$work/root/etc/openwrt_release" ] || mkdir -p "$work/root/run/systemd/system"
    "$cli" plan --root "$work/root" --json > "$work/layout.json" 2>/dev/null
    # Exit 1: persisted, with a conflict left (irqbalance on the x86 board).
    "$cli" persist --root "$work/root" "$work/layout.json" > /dev/null || [ $? -eq 1 ]
    script=$work/root/etc/hotplug.d/net/95-coresteer
    [ -f "$script" ] || script=$work/root/etc/coresteer/apply.sh
    # An interface the layout covers: the first one its targets name.
    iface=$(sed -n '/"interface"/{s/.*"interface": *"\([^"]*\)".*/\1/p;q;}' "$work/layout.json")
    [ -n "$iface" ] || { echo "persist_hotplug: no interface in the $board layout" >&2; exit 1; }
    targets=$("$cli" diff --root "$work/root" "$work/layout.json" 2>/dev/null |
              sed -n 's/^[0-9]* of \([0-9]*\) values.*/\1/p')
    : > "$work/t"
    for _ in $(seq "$runs"); do
        t0=$(date +%s%N)
        ACTION=add INTERFACE="$iface" CORESTEER_ROOT="$work/root" CORESTEER_WAIT=0 \
            busybox ash "$script"
        t1=$(date +%s%N)
        echo $(( (t1 - t0) / 1000 )) >> "$work/t"
    done
    printf 'persist_hotplug %-24s %5d targets  %8s us per add event (median of %d)\n' \
        "$board" "$targets" "$(median < "$work/t")" "$runs"
done
rm -rf "$work"

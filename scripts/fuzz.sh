#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 coresteer maintainers
# SPDX-License-Identifier: GPL-3.0-or-later
# Runs every libFuzzer target of the asan build for $1 seconds (default 60), $2 at a time
# (default 2).
# Seeds come from the board fixtures; a crash input is saved under tests/fuzz/regressions/<target>/,
# where ctest replays it from then on. Prints one line per target: "fuzz_X: ok ..." or "fuzz_X: FAILED ...".
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
seconds=${1:-60}
parallel=${2:-2}
build=build/asan
corpus=$build/fuzz-corpus
boards=tests/fixtures/boards
demo=resources/demo

seed() { # seed TARGET GLOB...
    local t=$1 f
    shift
    mkdir -p "$corpus/$t"
    for f in "$@"; do
        [ -f "$f" ] && cp "$f" "$corpus/$t/$(echo "$f" | tr '/' '_')"
    done
}
seed interrupts $boards/*/proc/interrupts $demo/*/proc/interrupts
seed procstat $boards/*/proc/stat $demo/*/proc/stat
seed softirqs $boards/*/proc/softirqs $demo/*/proc/softirqs
seed netdev $boards/*/proc/net/dev $demo/*/proc/net/dev
seed cpumask $boards/*/proc/irq/*/smp_affinity $boards/*/sys/devices/system/cpu/online \
    $demo/*/proc/irq/*/smp_affinity
mkdir -p "$corpus/snapshot" "$corpus/recording" "$corpus/sampler" "$corpus/capture"
# Captures of the smaller boards, behind the byte that picks the capture mode (0: a capture).
for b in archer-c7-v2 bcm4708-router mt7621-router nanopi-r4s; do
    f=$corpus/capture/$b.capture
    [ -f "$f" ] && continue
    "$build/app/coresteer-cli" capture --root "$boards/$b" "$f.part" >/dev/null &&
        { printf '\0' && cat "$f.part"; } >"$f"
    rm -f "$f.part"
done
seed export resources/presets/*.json

run_one() {
    local t=$1 log=$build/fuzz-$1.log
    "$build/tests/fuzz/fuzz_$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
        -max_len=65536 -print_final_stats=1 -artifact_prefix="tests/fuzz/regressions/$t/" \
        "$corpus/$t" "tests/fuzz/regressions/$t" >"$log" 2>&1
    local rc=$? execs
    execs=$(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}')
    if [ $rc -eq 0 ]; then
        echo "fuzz_$t: ok, ${execs:-?} inputs in ${seconds} s, no crash"
    else
        echo "fuzz_$t: FAILED (exit $rc), input saved in tests/fuzz/regressions/$t/; see $log"
        grep -E 'ERROR|SUMMARY|runtime error' "$log" | head -5
    fi
}

pids=()
for t in interrupts procstat softirqs netdev cpumask snapshot recording sampler capture export; do
    if [ ! -x "$build/tests/fuzz/fuzz_$t" ]; then
        echo "fuzz_$t: FAILED, not built"
        continue
    fi
    run_one "$t" &
    pids+=($!)
    if [ ${#pids[@]} -ge "$parallel" ]; then
        wait "${pids[0]}"
        pids=("${pids[@]:1}")
    fi
done
wait

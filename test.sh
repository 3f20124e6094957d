#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 coresteer maintainers
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds coresteer and runs every test, each once, in the build that proves most with it:
#   1. the dev build (gcc, -Werror), the product as it ships, and its tests: the GUI's (offscreen,
#      against sshd and dropbear, under Xvfb), the emulated router's and the package's,
#   2. the asan build (clang, ASan + UBSan) of core/ and cli/, and their tests under the
#      sanitizers: unit, SSH against sshd and dropbear, network namespaces, the checks of the tree,
#   3. each libFuzzer target for CORESTEER_FUZZ_SECONDS (default 20) under ASan + UBSan,
#   4. the benchmarks, which print their figures against their targets: the /proc/interrupts
#      parser (against awk), bytes to model for huge routers, recordings (an hour of 20 000 IRQ
#      rows: seek and play), layouts, the Live tab, a snapshot over SSH against `ssh true`
#      on the test sshd and dropbear, and the tuner's verdict by simulation (its false-winner
#      rate, coverage and power in the worst cases).
# The SSH tests start a real OpenSSH sshd and dropbear on 127.0.0.1 (tests/ssh/servers.sh) and
# need root, for sshd and for the test user coresteer-test it creates.
# The last line counts everything: "coresteer: N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")" || exit 1
. scripts/deps.sh
# Each stage's name and when it began, for the table of stage times at the end.
stage_names=()
stage_starts=()
stage() {
    printf '\n=== %s (at %d s)\n' "$*" "$SECONDS"
    stage_names+=("$*")
    stage_starts+=("$SECONDS")
}
stage_times() {
    local i end
    echo "stage times (s):"
    for i in "${!stage_names[@]}"; do
        end=${stage_starts[i + 1]:-$SECONDS}
        printf '  %-40s %5d\n' "${stage_names[i]}" $((end - stage_starts[i]))
    done
    printf '  %-40s %5d\n' "all, from the start of test.sh" "$SECONDS"
}

stage "packages (apt-get, only what is missing)"
ensure_packages "${CORESTEER_BUILD_PACKAGES[@]}" "${CORESTEER_TEST_PACKAGES[@]}" || exit 2

passed=0
failed=0
failures=() # what failed, named again at the end, where a log's tail shows it
jobs=$(nproc)

# ctest's "N% tests passed, F tests failed out of T" adds to the totals.
count_ctest() {
    local line t f
    line=$(grep -E 'tests passed, [0-9]+ tests? failed out of [0-9]+' "$1" | tail -1)
    if [ -z "$line" ]; then
        failed=$((failed + 1))
        failures+=("$2: no ctest summary")
        return
    fi
    while read -r name; do
        failures+=("$2: $name")
        details+=("$2|${name% (*}")
    done < <(sed -n '/The following tests FAILED:/,$p' "$1" | grep -E '^[[:space:]]+[0-9]+ - ' |
        sed -E 's/^[[:space:]]+[0-9]+ - //')
    f=$(echo "$line" | sed -E 's/.* ([0-9]+) tests? failed out of ([0-9]+).*/\1/')
    t=$(echo "$line" | sed -E 's/.* failed out of ([0-9]+).*/\1/')
    passed=$((passed + t - f))
    failed=$((failed + f))
}

# What a failed ctest test printed, from ctest's LastTest.log: its failure lines (gtest's
# "Failure" with what follows, errors, timeouts) or else its last lines, a few per test, so the
# end of this script's log says why and not only what.
failure_detail() {
    local log=$1 name=$2 out
    [ -f "$log" ] || return 0
    out=$(awk -v n="$name" '
        /^[0-9]+\/[0-9]+ Test: / { s = $0; sub(/^[0-9]+\/[0-9]+ Test: /, "", s); p = (s == n); next }
        p && /^<end of output>/ { p = 0 }
        p' "$log")
    { grep -E -A4 'Failure$|FAILED  \]|[Ee]rror|[Tt]imeout|timed out|not ok' <<<"$out" ||
        tail -n 12 <<<"$out"; } | head -n 24 | sed "s/^/  | /"
}
details=() # "preset|test" of each failed ctest test
fuzz_seconds=${CORESTEER_FUZZ_SECONDS:-20}


# One preset's tests: ctest's figures go to the totals, its log to build/PRESET/ctest.log, and
# its jobs are twice the cores for the asan build, whose tests wait more than they compute
# (revert timers, the SSH servers, the router scripts' shells), one a core for the dev build's,
# which include the emulated router, whose guest a busy machine starves.
run_ctest() {
    local preset=$1
    local log=build/$preset/ctest.log test_jobs=$jobs
    [ "$preset" = asan ] && test_jobs=$((2 * jobs))
    ctest --preset "$preset" -j "$test_jobs" --timeout 600 2>&1 | tee "$log"
    count_ctest "$log" "$preset"
    # Its LastTest.log, kept for failure_detail (a later run would write over it).
    cat "build/$preset/Testing/Temporary/LastTest.log" >> "build/$preset/all-tests.log" 2>/dev/null
}
rm -f build/dev/all-tests.log build/asan/all-tests.log

for preset in dev asan; do
    stage "build: $preset"
    if ! { cmake --preset "$preset" >/dev/null && cmake --build --preset "$preset" -j "$jobs"; }; then
        echo "build $preset FAILED"
        failed=$((failed + 1))
        failures+=("build $preset")
        continue
    fi
    stage "tests: $preset"
    # The fuzzers run beside the asan build's tests, one at a time, at nice 19: those tests
    # mostly wait, the fuzzers take the CPU they leave, and a test that wants a core has nearly
    # all of it (a fuzzer keeps about 1.5 % of a busy core: libFuzzer's 10 s timeout for one
    # input is wall time, which the lowest class, SCHED_IDLE, could starve).
    fuzz_pid=
    if [ "$preset" = asan ]; then
        nice -n 19 scripts/fuzz.sh "$fuzz_seconds" 1 > build/asan/fuzz.log 2>&1 &
        fuzz_pid=$!
    fi
    run_ctest "$preset"
    if [ -n "$fuzz_pid" ]; then
        stage "fuzzing: the rest of ${fuzz_seconds} s per target, one at a time"
        wait "$fuzz_pid" || true
    fi
done

grep -E '^fuzz_' build/asan/fuzz.log || true
passed=$((passed + $(grep -c '^fuzz_.*: ok' build/asan/fuzz.log || true)))
failed=$((failed + $(grep -c '^fuzz_.*: FAILED' build/asan/fuzz.log || true)))
while read -r name; do failures+=("$name"); done < <(grep -E '^fuzz_.*: FAILED' build/asan/fuzz.log || true)

# A benchmark that misses its target (or fails) counts once, by its name.
bench_failed() {
    failed=$((failed + 1))
    failures+=("benchmark: $1")
}

stage "benchmarks"
if [ -x build/dev/tests/bench/bench_interrupts ]; then
    build/dev/tests/bench/bench_interrupts --benchmark_min_time=0.5 || bench_failed bench_interrupts
fi
if [ -x build/dev/tests/bench/bench_layout ]; then
    build/dev/tests/bench/bench_layout --benchmark_min_time=0.2 || bench_failed bench_layout
fi
if [ -x build/dev/tests/bench/bench_snapshot ]; then
    build/dev/tests/bench/bench_snapshot --benchmark_min_time=0.2 --benchmark_repetitions=3 ||
        bench_failed bench_snapshot
fi
if [ -x build/dev/tests/bench/bench_recording ]; then
    build/dev/tests/bench/bench_recording --benchmark_min_time=0.2 --benchmark_repetitions=3 ||
        bench_failed bench_recording
fi
# The verdict's worst cases (7 placebos both ways under each noise, and the power among 4), 1 000
# runs each; the whole table (18 cases and 6 of power, 2 000 runs each) is `bench_verdict`.
if [ -x build/dev/tests/bench/bench_verdict ]; then
    build/dev/tests/bench/bench_verdict --quick --runs 1000 || bench_failed bench_verdict
fi
if [ -x build/dev/tests/bench/bench_live_ui ]; then
    build/dev/tests/bench/bench_live_ui || bench_failed bench_live_ui
fi
tests/bench/persist_hotplug.sh build/dev 21 || bench_failed persist_hotplug.sh
tests/bench/ssh_snapshot.sh build/dev 11 || bench_failed ssh_snapshot.sh
tests/bench/sampler_cost.sh build/dev --turns 5 || bench_failed sampler_cost.sh

printf '\n=== done (at %d s)\n' "$SECONDS"
stage_times
for d in "${details[@]+"${details[@]}"}"; do
    echo "why $d:"
    failure_detail "build/${d%%|*}/all-tests.log" "${d#*|}"
done
for f in "${failures[@]+"${failures[@]}"}"; do
    echo "failed: $f"
done
echo "coresteer: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

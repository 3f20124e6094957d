#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 coresteer maintainers
# SPDX-License-Identifier: GPL-3.0-or-later
# Whether a tune knows what limited it, on the emulated router's lab (tests/router-vm/lab.sh),
# with cake shaping both of its egresses to CORESTEER_LAB_LIMIT (default 10mbit), far below what
# its CPU forwards:
#   (e) throughput, the planner's candidates, from everything on the fast CPU1: no winner, and
#       the verdict says the router was not the limit (bottleneck "elsewhere");
#   (e') headroom (the busiest core's load under the same load), from all on the slow CPU0: a
#       decided verdict, and a winner, if any, whose upload packet work is off CPU0;
#   (f) a load whose server is gone: not measured (exit 2), nothing applied.
# Each run prints its verdict, its outcome and its time; exit 1 when one does not say what it
# must. Not in the suite: about 10 minutes. It runs itself inside tests/router-vm/netns.sh.
#   tests/bench/lab_limits.sh [BUILD_DIR]
# Settings: CORESTEER_LAB_LIMIT (cake's rate), CORESTEER_LAB_PHASE_SECONDS (3), and lab.sh's own.
set -euo pipefail
case ${1:-} in
-h | --help) sed -n '4,15p' "$0"; exit 0 ;;
-*) echo "$0: unknown option $1 (--help)" >&2; exit 2 ;;
esac
cd "$(dirname "$0")/../.."
build=${1:-build/dev}
[ -x "$build/app/coresteer-cli" ] || { echo "no $build/app/coresteer-cli: build first" >&2; exit 2; }
if [ -z "${CORESTEER_LAB_LIMITS_INSIDE:-}" ]; then
    tests/router-vm/build.sh "$build/router-vm" > /dev/null
    CORESTEER_LAB_LIMITS_INSIDE=1 exec tests/router-vm/netns.sh "$0" "$build"
fi
cli=$PWD/$build/app/coresteer-cli
vm=$PWD/$build/router-vm
lab=$PWD/tests/router-vm/lab.sh
work=$PWD/$build/bench-lab-limits
state=$work/state
phase=${CORESTEER_LAB_PHASE_SECONDS:-3}
rm -rf "$work"
mkdir -p "$work"
trap '"$lab" stop "$state" > /dev/null 2>&1 || true' EXIT
CORESTEER_LAB_CAKE=${CORESTEER_LAB_LIMIT:-10mbit} "$lab" start "$vm" "$state" 2222
"$lab" serve "$state" 5202
"$lab" relay "$state" 2200
"$lab" layout "$state" irq=1 rps=0
echo "lab_limits: $("$lab" load "$state" 3) (all on CPU0, cake at ${CORESTEER_LAB_LIMIT:-10mbit})"
bad=0

# NAME PORT ARGS...: a tune in the LAN namespace; NAME.json, NAME.err; its exit status in $rc.
tune() {
    local name=$1 port=$2
    shift 2
    local t0=$SECONDS
    rc=0
    "$lab" ns "$state" lan "$cli" tune ssh://root@127.0.0.1:2200 --identity "$vm/client_key" \
        --known-hosts "$state/known_hosts" --load "iperf3://10.201.2.1:$port" --congestion cubic \
        --probe 10.201.2.1 --phases upload --phase-seconds "$phase" --idle-seconds 1 \
        --record "$work/$name.rec" --json "$@" > "$work/$name.json" 2> "$work/$name.err" || rc=$?
    echo "lab_limits: $name: exit $rc after $((SECONDS - t0)) s: $(tail -n 1 "$work/$name.err")"
}

# The JSON's fields a person reads, and a check: python3 JSON CHECK prints them and exits 1
# when CHECK (an expression of j, the document) is false.
verdict() {
    python3 - "$1" "$2" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
print("  outcome %s, decided %s, winner %s, bottleneck %s (baseline's busiest core %s), "
      "%s blocks" % (j.get("outcome"), j.get("decided"), j.get("winner"), j.get("bottleneck"),
                     j.get("baseline_busiest_core_share"), j.get("blocks")))
print("  " + str(j.get("verdict")))
def work_cpus(c):
    lay = c["layout"]
    for q in lay.get("rx_queues", []):
        if q["interface"] == "eth1" and q.get("rps_cpus"):
            return q["rps_cpus"]
    for i in lay.get("irqs", []):
        if i["action"] == "virtio1-input.0":
            return i["cpus"]
    return "0"
def cpus(text):  # "0-1,3" -> {0, 1, 3}
    out = set()
    for part in filter(None, text.split(",")):
        lo, _, hi = part.partition("-")
        out.update(range(int(lo), int(hi or lo) + 1))
    return out
winner = next((c for c in j["candidates"] if c["name"] == j.get("winner")), None)
sys.exit(0 if eval(sys.argv[2]) else 1)
PY
}

# LABEL NAME EXIT CHECK: run NAME ended with EXIT and CHECK holds of its document.
expect() {
    if [ "$rc" -eq "$3" ] && verdict "$work/$2.json" "$4"; then
        echo "lab_limits: $1 ok"
    else
        echo "lab_limits: $1 FAILED"
        bad=1
    fi
}

# (e) throughput on a link that caps the load, from everything on the fast CPU1: not the
# router's limit. (From all on the slow CPU0 at 20 Mbit/s the router still was part of the
# limit: its slow core 74 % busy with the sampler's work under emulation, and a layout that
# took IRQs off it gained 7 %: the verdict said so, bottleneck router.)
"$lab" layout "$state" irq=2 rps=0
tune limited 5202 --budget 900
"$lab" layout "$state" irq=1 rps=0
expect "(e)" limited 0 \
    'j["winner"] is None and j["bottleneck"] == "elsewhere" and "not the limit" in j["verdict"]'

# (e') headroom on the same link: the busiest core's load decides.
tune headroom 5202 --budget 900 --objective headroom
expect "(e')" headroom 0 'j["decided"] and (winner is None or 0 not in cpus(work_cpus(winner)))'

# (f) a load whose server is gone: port 5299 has none.
tune dead 5299 --budget 900
expect "(f)" dead 2 'j["stopped"] == "not-measured" and all(not c["trials"] for c in j["candidates"])'
exit "$bad"

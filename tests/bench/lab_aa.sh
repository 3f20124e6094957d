#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 coresteer maintainers
# SPDX-License-Identifier: GPL-3.0-or-later
# How often the tuner names a winner where there is none: on the emulated router's lab
# (tests/router-vm/lab.sh, booted once), RUNS runs of `coresteer-cli tune` with the baseline and
# three placebos (--no-plan), changes that should not matter to the forwarding the load
# measures, each run a fresh experiment: the management NIC's (eth0's) IRQs on CPU1, its RPS on
# CPU1, and the LAN and WAN NICs' configuration IRQs (which do not fire under traffic) on CPU1.
# Each run goes to its plan's end (looks at 9, 12, 15 and 18 blocks) unless the budget stops it
# first; every look counts. Prints each run's outcome, winner and wall time, then how many named
# a winner, against the target of at most 1 in 20 (exit 1 when the rate is above it, which at
# 20 runs means 2 or more), and the time per run. The tune runs as the suite's vm_lab (b) runs
# it (tests/router-vm/lab_test.sh): upload in 3 s phases, 1 s of idle a trial. Not in the
# suite: a run takes 4 to 7 minutes. It runs itself inside tests/router-vm/netns.sh.
#   tests/bench/lab_aa.sh [BUILD_DIR] [RUNS]
# Settings: CORESTEER_LAB_AA_LAYOUT (the baseline, lab.sh layout's KEY=MASK words; default
# "irq=1 rps=0", all on the slow CPU0), CORESTEER_LAB_PHASE_SECONDS (3), CORESTEER_LAB_BUDGET
# (the budget of a run, seconds: 600, which reaches the plan's last look), and lab.sh's own.
set -euo pipefail
case ${1:-} in
-h | --help) sed -n '4,19p' "$0"; exit 0 ;;
-*) echo "$0: unknown option $1 (--help)" >&2; exit 2 ;;
esac
cd "$(dirname "$0")/../.."
build=${1:-build/dev}
runs=${2:-10}
[ -x "$build/app/coresteer-cli" ] || { echo "no $build/app/coresteer-cli: build first" >&2; exit 2; }
# Once, in network and PID namespaces of its own, where the lab's taps and QEMU live and die,
# after the router's image is made (cached; its first build downloads the kernel).
if [ -z "${CORESTEER_LAB_AA_INSIDE:-}" ]; then
    tests/router-vm/build.sh "$build/router-vm" > /dev/null
    CORESTEER_LAB_AA_INSIDE=1 exec tests/router-vm/netns.sh "$0" "$build" "$runs"
fi
cli=$PWD/$build/app/coresteer-cli
vm=$PWD/$build/router-vm
lab=$PWD/tests/router-vm/lab.sh
work=$PWD/$build/bench-lab-aa
state=$work/state
layout=${CORESTEER_LAB_AA_LAYOUT:-irq=1 rps=0}
phase=${CORESTEER_LAB_PHASE_SECONDS:-3}
budget=${CORESTEER_LAB_BUDGET:-600}
rm -rf "$work"
mkdir -p "$work"
trap '"$lab" stop "$state" > /dev/null 2>&1 || true' EXIT
"$lab" start "$vm" "$state" 2222
"$lab" serve "$state" 5202
"$lab" relay "$state" 2200
# shellcheck disable=SC2086 # the layout's KEY=MASK words, split on purpose
"$lab" layout "$state" $layout
# The placebos, as layout files: each names only what it moves; the rest stays the baseline's.
python3 - "$work" <<'PY'
import json, sys
def save(name, irqs=(), rx=()):
    json.dump({"schema": "coresteer.layout/1", "tx_queues": [],
               "irqs": [{"action": a, "cpus": "1"} for a in irqs],
               "rx_queues": [{"interface": i, "queue": 0, "rps_cpus": "1"} for i in rx]},
              open("%s/%s.json" % (sys.argv[1], name), "w"), indent=2)
save("placebo-mgmt-irqs", irqs=("virtio0-input.0", "virtio0-output.0"))
save("placebo-mgmt-rps", rx=("eth0",))
save("placebo-config-irqs", irqs=("virtio1-config", "virtio2-config"))
PY

wrong=0
total=0
for i in $(seq "$runs"); do
    t0=$(date +%s.%N)
    rc=0
    "$lab" ns "$state" lan "$cli" tune ssh://root@127.0.0.1:2200 --identity "$vm/client_key" \
        --known-hosts "$state/known_hosts" --load iperf3://10.201.2.1:5202 --congestion cubic \
        --probe 10.201.2.1 --phases upload --phase-seconds "$phase" --idle-seconds 1 \
        --budget "$budget" --record "$work/aa-$i.rec" --candidate "$work/placebo-mgmt-irqs.json" \
        --candidate "$work/placebo-mgmt-rps.json" --candidate "$work/placebo-config-irqs.json" \
        --no-plan \
        --json > "$work/aa-$i.json" 2> "$work/aa-$i.err" || rc=$?
    secs=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.0f", b - a }')
    total=$((total + secs))
    if [ "$rc" -ne 0 ]; then
        echo "run $i: tune failed (exit $rc) after $secs s: $(tail -n 3 "$work/aa-$i.err")" >&2
        exit 1
    fi
    line=$(python3 - "$work/aa-$i.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
ran = [c for c in j["candidates"][1:] if not c.get("left_out")]
if len(ran) != 3:
    sys.exit("%d placebos ran, not 3: %s" % (len(ran), [c.get("left_out") for c in j["candidates"]]))
gains = []
for c in ran:
    g = ((c.get("gain_vs_baseline") or {}).get("upload") or {}).get("bps") or {}
    gains.append("%+.1f %%" % g["gain_pct"] if g.get("gain_pct") is not None else "-")
print("%s\t%s blocks, %s, outcome %s, gains %s; winner %s (%s)" % (
    "wrong" if j.get("winner") is not None else "right", j.get("blocks"), j.get("stopped"),
    j.get("outcome"), ", ".join(gains), j.get("winner"), j.get("verdict")))
PY
    ) || { echo "run $i: $line" >&2; exit 1; }
    [ "${line%%$'\t'*}" = right ] || wrong=$((wrong + 1))
    echo "run $i: ${secs} s, ${line#*$'\t'}"
done
echo "lab A/A: a winner named in $wrong of $runs runs (target: at most 1 in 20);" \
    "$((total / runs)) s a run"
# At most 1 in 20: wrong / runs <= 0.05.
[ $((wrong * 20)) -le "$runs" ]

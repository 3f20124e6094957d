#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 coresteer maintainers
# SPDX-License-Identifier: GPL-3.0-or-later
# How often the tuner names a winner where there is none: on the emulated router's lab
# (tests/router-vm/lab.sh, booted once), RUNS runs of `coresteer-cli tune` with the baseline and
# one candidate identical to it (--no-plan), each run a fresh experiment. Prints each run's
# winner, verdict and wall time, then how many named a winner, against the target of at most
# 1 in 20 (exit 1 when the rate is above it), and the time per run. The tune runs as the
# suite's vm_lab runs it (tests/router-vm/lab_test.sh, part (c)): upload in 3 s phases, 1 s of
# idle a trial, within a budget of 160 s. Not in the suite: 10 runs take about 27 minutes.
# It runs itself inside tests/router-vm/netns.sh.
#   tests/bench/lab_aa.sh [BUILD_DIR] [RUNS]
# Settings: CORESTEER_LAB_AA_LAYOUT (the baseline, lab.sh layout's KEY=MASK words; default
# "irq=1 rps=0", all on the slow CPU0), CORESTEER_LAB_PHASE_SECONDS (3), CORESTEER_LAB_BUDGET
# (the budget of a run, seconds: 160; the tuner's own default is 1800, which lets a run reach
# its plan's last look), and lab.sh's own.
set -euo pipefail
case ${1:-} in
-h | --help) sed -n '4,16p' "$0"; exit 0 ;;
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
budget=${CORESTEER_LAB_BUDGET:-160}
rm -rf "$work"
mkdir -p "$work"
trap '"$lab" stop "$state" > /dev/null 2>&1 || true' EXIT
"$lab" start "$vm" "$state" 2222
"$lab" serve "$state" 5202
"$lab" relay "$state" 2200
# shellcheck disable=SC2086 # the layout's KEY=MASK words, split on purpose
"$lab" layout "$state" $layout
# The candidate: what the router holds now, as a layout file (snapshot's and plan's form).
python3 - "$work/same.json" "$layout" <<'PY'
import json, sys
keys = dict(w.split("=", 1) for w in sys.argv[2].split())
def cpus(hexmask):
    m = int(hexmask.replace(",", ""), 16)
    return ",".join(str(i) for i in range(m.bit_length()) if m >> i & 1)
irq, rps = keys.get("irq"), keys.get("rps")
layout = {"schema": "coresteer.layout/1", "tx_queues": [],
          "irqs": [{"action": "virtio%d-%s" % (n, q), "cpus": cpus(irq)}
                   for n in (1, 2) for q in ("config", "input.0", "output.0")] if irq else [],
          "rx_queues": [{"interface": i, "queue": 0, "rps_cpus": cpus(rps)}
                        for i in ("eth1", "eth2")] if rps else []}
json.dump(layout, open(sys.argv[1], "w"), indent=2)
PY

wrong=0
total=0
for i in $(seq "$runs"); do
    t0=$(date +%s.%N)
    rc=0
    "$lab" ns "$state" lan "$cli" tune ssh://root@127.0.0.1:2200 --identity "$vm/client_key" \
        --known-hosts "$state/known_hosts" --load iperf3://10.201.2.1:5202 --congestion cubic \
        --probe 10.201.2.1 --phases upload --phase-seconds "$phase" --idle-seconds 1 \
        --budget "$budget" --record "$work/aa-$i.rec" --candidate "$work/same.json" --no-plan \
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
c = j["candidates"][-1]
g = ((c.get("gain_vs_baseline") or {}).get("upload") or {}).get("bps") or {}
ci = g.get("ci95") or [float("nan"), float("nan")]
gain = "gain %.1f [%.1f, %.1f] Mbit/s" % (g["mean"] / 1e6, ci[0] / 1e6,
                                          ci[1] / 1e6) if g else "no gain measured"
print("%s\t%s blocks, %s, %s; winner %s (%s)" % (
    "wrong" if j.get("winner") is not None else "right", j.get("blocks"), j.get("stopped"), gain,
    j.get("winner"), j.get("verdict")))
PY
    )
    [ "${line%%$'\t'*}" = right ] || wrong=$((wrong + 1))
    echo "run $i: ${secs} s, ${line#*$'\t'}"
done
echo "lab A/A: a winner named in $wrong of $runs runs (target: at most 1 in 20);" \
    "$((total / runs)) s a run"
# At most 1 in 20: wrong / runs <= 0.05.
[ $((wrong * 20)) -le "$runs" ]

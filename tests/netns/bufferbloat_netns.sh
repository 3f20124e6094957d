#!/bin/sh
# SPDX-FileCopyrightText: 2026 coresteer maintainers
# SPDX-License-Identifier: GPL-3.0-or-later
# The bufferbloat test against a real bloated queue, in two network namespaces this script makes
# (nothing of it reaches the host's network): the client's, where coresteer-cli runs, and the
# far side's, joined by a veth pair. The far side's egress is a tbf at 40 Mbit/s with 300 ms of
# queue (the kernel here has tbf, not netem, fq_codel or cake), and it runs iperf3's server. The
# load's streams are cubic at both ends (--congestion, set per socket: this machine's default,
# bbr, keeps queues short, and a namespace may not make cubic its default). `monitor --bufferbloat` loads
# the link in three phases and probes the far side by ICMP, twice: with iperf3, then with
# HTTP load (downloads of a file and POST uploads, from and to a python3 web server on the far
# side, tests/support/http_load_server.py, which sends with cubic too). For each, an
# independent probe (ping, one echo each 100 ms) runs over the same seconds, and tbf counts the
# bytes it sent. The HTTP run also probes an `irtt server` on the far side (`--irtt`): its
# download-way delay carries the queue, its upload-way delay does not. Checked, for each load:
#   - the idle latency is under 3 ms;
#   - the download phase's loaded increase is within 25 % of the independent probe's;
#   - the download phase's throughput is within 10 % of what tbf sent in those seconds;
# and for irtt: its download-way increase in the download phase is within 25 % of ping's, and
# its upload-way increase there under 10 ms (that way has no queue).
#   tests/netns/bufferbloat_netns.sh CORESTEER_CLI WORKDIR
set -eu
cli=$1
work=$2
phase=${PHASE_SECONDS:-8}

if [ "${CORESTEER_NETNS_INSIDE:-}" != 1 ]; then
    rm -rf "$work"
    mkdir -p "$work"
    # The client's namespace: the script again, inside it; everything started in it dies with it.
    CORESTEER_NETNS_INSIDE=1 exec unshare --net --pid --mount-proc --fork --kill-child \
        "$0" "$cli" "$work"
fi

fail() {
    echo "FAIL: $*" >&2
    exit 1
}
ip link set lo up
# The far side: a namespace of its own, held open by a sleeping process.
unshare --net sleep 600 &
far=$!
for _ in 1 2 3 4 5 6 7 8 9 10; do
    [ "$(readlink /proc/$far/ns/net 2>/dev/null)" != "$(readlink /proc/$$/ns/net)" ] && break
    sleep 0.1
done
[ "$(readlink /proc/$far/ns/net)" != "$(readlink /proc/$$/ns/net)" ] || fail "no far side"
ip link add cs-near type veth peer name cs-far
ip link set cs-far netns "$far"
ip addr add 198.18.0.1/24 dev cs-near
ip link set cs-near up
nsenter -t "$far" -n sh -c '
    set -e
    ip link set lo up
    ip addr add 198.18.0.2/24 dev cs-far
    ip link set cs-far up
    tc qdisc add dev cs-far root tbf rate 40mbit burst 32kbit latency 300ms
'
nsenter -t "$far" -n iperf3 --server --bind 198.18.0.2 --daemon --pidfile "$work/iperf3.pid"
nsenter -t "$far" -n python3 "$(dirname "$0")/../support/http_load_server.py" --address 198.18.0.2 \
    --port 8080 --congestion cubic > "$work/web.port" &
nsenter -t "$far" -n irtt server -b 198.18.0.2:2112 > /dev/null 2>&1 &
sleep 0.5

# One test with the load `$2...`, its files in $work/$1, checked against ping and tbf.
run_test() {
    dir=$work/$1
    shift
    mkdir -p "$dir"
    # tbf's byte count on the far side, every 250 ms, with the time.
    (
        while :; do
            printf '%s %s\n' "$(date +%s.%N)" \
                "$(nsenter -t "$far" -n tc -s qdisc show dev cs-far | awk '/Sent/ {print $2; exit}')"
            sleep 0.25
        done
    ) > "$dir/tbf.txt" &
    counter=$!
    # The independent probe: ping, an echo each 100 ms, each answer with its time.
    ping -D -n -i 0.1 198.18.0.2 > "$dir/ping.txt" 2>&1 &
    pinger=$!
    date +%s.%N > "$dir/start.txt"
    "$cli" monitor --root / --rate 5 --bufferbloat "$@" --probe 198.18.0.2 \
        --congestion cubic --phase-seconds "$phase" --record "$dir/test.csrec" --json > /dev/null 2> "$dir/cli.err" ||
        { cat "$dir/cli.err" >&2; fail "monitor --bufferbloat $* failed"; }
    kill "$pinger" "$counter" 2> /dev/null || true
    wait "$pinger" "$counter" 2> /dev/null || true
    cat "$dir/cli.err" >&2
    "$cli" recording summary --json "$dir/test.csrec" > "$dir/summary.json"
    echo "load: $*"
    check "$dir"
}

check() {
python3 - "$1" <<'EOF'
import json, statistics, sys
work = sys.argv[1]
start = float(open(f"{work}/start.txt").read())
summary = json.load(open(f"{work}/summary.json"))
# The recording's phases and throughput reports, on its own time axis.
phases, reports = [], []
for line in open(f"{work}/test.csrec", "rb"):
    if line.startswith(b"P "):
        _, t, name = line.decode().split()
        phases.append((float(t), name))
    elif line.startswith(b"W "):
        _, t, down, up = line.decode().split()
        reports.append((float(t), float(down), float(up)))
bounds = {}
for (t, name), nxt in zip(phases, phases[1:] + [(None, None)]):
    bounds[name] = (t, nxt[0])
assert "download" in bounds, phases
d0, d1 = bounds["download"]
pings = []
for line in open(f"{work}/ping.txt"):
    if line.startswith("[") and "time=" in line:
        when = float(line[1:line.index("]")]) - start
        ms = float(line.split("time=")[1].split()[0])
        pings.append((when, ms))
idle = [ms for t, ms in pings if t < 3.0]
loaded = [ms for t, ms in pings if d0 <= t < d1]
probe = summary["by_probe"]["198.18.0.2"]
irtt_down = summary["by_probe"].get("irtt-down:198.18.0.2")
irtt_up = summary["by_probe"].get("irtt-up:198.18.0.2")
ours_idle = probe["idle_ms"]
ours_increase = probe["phases"]["download"]["increase_ms"]
theirs_increase = statistics.median(loaded) - statistics.median(idle)
# tbf's bytes in the download phase's seconds (its counter's nearest readings), against the
# load generator's reports in the same seconds.
tbf = [tuple(map(float, l.split())) for l in open(f"{work}/tbf.txt") if len(l.split()) == 2]
tbf = [(t - start, b) for t, b in tbf]
w0, w1 = d0 + 1.0, d1 - 0.5
def at(t):
    return min(tbf, key=lambda x: abs(x[0] - t))
(a_t, a_b), (b_t, b_b) = at(w0), at(w1)
tbf_bps = (b_b - a_b) * 8 / (b_t - a_t)
ours = [down for t, down, up in reports if a_t + 0.5 <= t <= b_t]
ours_bps = statistics.mean(ours)
print(f"idle: ours {ours_idle:.2f} ms, ping {statistics.median(idle):.2f} ms")
print(f"download increase: ours {ours_increase:.1f} ms, ping {theirs_increase:.1f} ms "
      f"({len(loaded)} pings)")
print(f"download throughput: ours {ours_bps/1e6:.1f} Mb/s, tbf {tbf_bps/1e6:.1f} Mb/s")
print(f"grade: {summary['latency']['grade']} (probe {summary['latency']['probe']})")
bad = []
if ours_idle >= 3.0:
    bad.append("idle latency not under 3 ms")
if abs(ours_increase - theirs_increase) > 0.25 * theirs_increase:
    bad.append("loaded increase not within 25 % of the independent probe's")
if abs(ours_bps - tbf_bps) > 0.10 * tbf_bps:
    bad.append("throughput not within 10 % of tbf's byte count")
if irtt_down is not None:
    down_inc = irtt_down["phases"]["download"]["increase_ms"]
    up_inc = irtt_up["phases"]["download"]["increase_ms"]
    print(f"irtt in the download phase: download way +{down_inc:.1f} ms, upload way "
          f"+{up_inc:.1f} ms (ping +{theirs_increase:.1f} ms)")
    if abs(down_inc - theirs_increase) > 0.25 * theirs_increase:
        bad.append("irtt's download-way increase not within 25 % of the independent probe's")
    if up_inc >= 10:
        bad.append("irtt's upload-way delay grew where that way has no queue")
for p in ("download", "upload", "both"):
    if p not in probe["phases"]:
        bad.append(f"no grade for {p}")
if bad:
    print("FAIL: " + "; ".join(bad))
    sys.exit(1)
print("PASS")
EOF
}

run_test iperf3 --load iperf3://198.18.0.2
[ "$(head -n 1 "$work/web.port")" = 8080 ] || fail "the web server did not start"
run_test http --load http://198.18.0.2:8080/bytes/100000000 --post-url http://198.18.0.2:8080/sink \
    --irtt 198.18.0.2
grep -q '"irtt-down:198.18.0.2"' "$work/http/summary.json" || fail "no irtt probe in the recording"

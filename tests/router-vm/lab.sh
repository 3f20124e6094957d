#!/bin/sh
# SPDX-FileCopyrightText: 2026 coresteer maintainers
# SPDX-License-Identifier: GPL-3.0-or-later
# The lab: the emulated router in a shape whose forwarding throughput depends on its IRQ and RPS
# layout, for the layout tuner's proof. `router.sh start-lab` boots it with 2 vCPUs and one queue
# pair on eth1 (LAN) and on eth2 (WAN); this script moves each NIC's tap into a network namespace
# of its own (LAN 10.201.1.1/24, WAN 10.201.2.1/24, the guest .2 on each, each side routed through
# the guest; no TSO on the taps: MTU-sized frames, as from a wire), so that traffic from LAN to WAN
# is forwarded by the guest; turns forwarding on and puts cake on both egresses at a rate above
# what the router can forward, so that its CPU is the limit; and slows vCPU0 like a LITTLE core:
# a CFS quota on QEMU's thread "CPU 0/TCG" alone (cgroup v1 `cpu`, or v2 `cpu.max` in a threaded
# cgroup). Nothing in the guest says which core is the slow one. Run it inside
# tests/router-vm/netns.sh, never in the host's namespace.
#   tests/router-vm/lab.sh start VMDIR STATE [PORT]    boot the lab (SSH on 127.0.0.1:PORT)
#   tests/router-vm/lab.sh load STATE [SECONDS] [up|down]  iperf3 LAN -> WAN (up, default) or
#                                                      WAN -> LAN (down, iperf3 -R): Mbit/s
#                                                      received, each guest CPU's busy share
#   tests/router-vm/lab.sh layout STATE KEY=MASK...    IRQ affinity, RPS, XPS in the guest (hex):
#       irq= every IRQ of eth1 and eth2, irq.eth1= irq.eth2= one NIC's, N= /proc/irq/N;
#       rps= rps.eth1= rps.eth2= rps_cpus (0: off); xps= xps.eth1= xps.eth2= xps_cpus
#   tests/router-vm/lab.sh show STATE                  the guest's layout and qdiscs
#   tests/router-vm/lab.sh quota STATE PERCENT|off     vCPU0's share of one host core
#   tests/router-vm/lab.sh ns STATE lan|wan COMMAND... a command in the LAN or WAN namespace
#                                                      (and the lab's cgroup, as QEMU's peer)
#   tests/router-vm/lab.sh serve STATE [PORT]          an iperf3 server in the WAN namespace
#                                                      (10.201.2.1:PORT, default 5202) until stop
#   tests/router-vm/lab.sh relay STATE [PORT]          in the LAN namespace, 127.0.0.1:PORT (2200)
#                                                      to the router's SSH, but for handshakes
#                                                      alone (see the command)
#   tests/router-vm/lab.sh check STATE                 whether the guest forwards: pings from the
#                                                      LAN namespace to the router and beyond it,
#                                                      and, where that fails, the guest's NICs,
#                                                      their IRQs and its kernel log (exit 1), or
#                                                      its console's end when the guest does not
#                                                      answer its management port either (exit 3)
#   tests/router-vm/lab.sh revive STATE                takes eth1 and eth2 down and up in the
#                                                      guest: a virtio queue that stopped
#                                                      receiving is refilled and polled again
#   tests/router-vm/lab.sh stop STATE                  power off; namespaces and cgroup go
# From the LAN namespace the router answers SSH on 10.201.1.2:22, as a router does on its LAN;
# STATE/known_hosts holds its key for that address too. So coresteer-cli can drive it with a
# load through it, e.g. after `serve`:
#   lab.sh ns STATE lan coresteer-cli tune ssh://root@10.201.1.2 --identity VMDIR/client_key \
#       --known-hosts STATE/known_hosts --load iperf3://10.201.2.1:5202 --record FILE
# Settings: CORESTEER_LAB_QUOTA (vCPU0's percent of a host core at start, default 35; off: none),
# CORESTEER_LAB_WEIGHT (the CPU weight of QEMU and iperf3 on the host, in ordinary processes:
# default 16, so that other work on the host moves the figures less; 0: no cgroup but vCPU0's),
# CORESTEER_LAB_CAKE (cake's bandwidth, default 2gbit), CORESTEER_LAB_STREAMS (iperf3 -P, 4),
# CORESTEER_LAB_PERIOD_US (the period of vCPU0's quota, default 10000).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
cmd=${1:-}
state=${2:-}
# vCPU0's quota is given in periods of CORESTEER_LAB_PERIOD_US (10 ms): the slow core then runs
# a share of every few milliseconds, as a slower core would, instead of standing still for long
# spells (see set_quota).
period=${CORESTEER_LAB_PERIOD_US:-10000}

die() {
    echo "lab.sh: $*" >&2
    exit 1
}

usage() {
    sed -n '2,50p' "$0" >&2
    exit 2
}

guest() {
    "$here/router.sh" ssh "$state" "$@"
}

# Records NAME=VALUE in STATE/lab.env, the lab's own state beside router.sh's STATE/env.
remember() {
    echo "$1=$2" >> "$state/lab.env"
}

load_state() {
    { [ -f "$state/env" ] && [ -f "$state/lab.env" ]; } || die "no lab in $state (lab.sh start?)"
    # shellcheck disable=SC1091 # written at run time by router.sh and lab.sh start
    . "$state/env"
    # shellcheck disable=SC1091
    . "$state/lab.env"
    kill -0 "$CS_VM_PID" 2>/dev/null ||
        die "the lab's QEMU ($CS_VM_PID) is gone: see $state/console.log"
}

# A process that holds a network namespace of its own (with its loopback up); prints its pid.
hold_netns() {
    unshare --net sh -c 'ip link set lo up && exec sleep 2147483647' < /dev/null > /dev/null 2>&1 &
    p=$!
    i=0
    # Once it sleeps, it has its namespace (unshare came first) with the loopback up.
    until is_holder "$p"; do
        i=$((i + 1))
        [ "$i" -lt 200 ] || die "no namespace from unshare"
        sleep 0.05
    done
    echo "$p"
}

# Whether pid $1 is one of our holders (a pid may have been taken again since).
is_holder() {
    [ -n "$1" ] && { tr '\0' ' ' < "/proc/$1/cmdline"; } 2>/dev/null | grep -q '^sleep 2147483647'
}

in_ns() {
    side=$1
    shift
    case $side in
    lan) p=${CS_LAB_LAN_PID:-} ;;
    wan) p=${CS_LAB_WAN_PID:-} ;;
    *) die "no namespace '$side' (lan or wan)" ;;
    esac
    is_holder "$p" || die "the $side namespace is gone"
    nsenter -t "$p" -n "$@"
}

# The cgroup hierarchy that has the cpu controller: "v1 MOUNTPOINT" or "v2 MOUNTPOINT".
cpu_hierarchy() {
    awk '$3 == "cgroup" && $4 ~ /(^|,)cpu(,|$)/ { print "v1", $2; exit }' /proc/mounts |
        grep . && return 0
    awk '$3 == "cgroup2" { print $2 }' /proc/mounts | while read -r m; do
        if grep -qw cpu "$m/cgroup.controllers" 2>/dev/null; then
            echo "v2 $m"
            break
        fi
    done
}

# The lab's cgroups. Its own cgroup (CS_LAB_CGROUP_TOP, beside QEMU's former one) holds QEMU,
# and the iperf3 of `load`, at the CPU weight of CORESTEER_LAB_WEIGHT ordinary processes (16):
# on a host busy with other work, the lab's figures then depend on the layout more than on that
# work. Its child "vcpu0" (CS_LAB_CGROUP) holds vCPU0's thread alone, with the quota.
# CORESTEER_LAB_WEIGHT=0 leaves QEMU where it is (cgroup v1: only vCPU0's thread moves).
make_cgroup() {
    pid=$1
    tid=$2
    weight=$3
    h=$(cpu_hierarchy)
    [ -n "$h" ] || die "no cgroup hierarchy with the cpu controller here"
    mode=${h%% *}
    mnt=${h#* }
    if [ "$mode" = v1 ]; then
        cur=$(awk -F: '$2 ~ /(^|,)cpu(,|$)/ { print $3; exit }' "/proc/$pid/cgroup")
        top=$(mktemp -d "$mnt${cur%/}/coresteer-lab.XXXXXX") ||
            die "cannot make a cgroup under $mnt$cur"
        remember CS_LAB_CGROUP_MODE v1
        remember CS_LAB_CGROUP_TOP "$top"
        remember CS_LAB_CGROUP_HOME "$mnt${cur%/}"
        cg=$top
        if [ "$weight" -gt 0 ]; then
            echo $((weight * 1024)) > "$top/cpu.shares"
            echo "$pid" > "$top/cgroup.procs"
            remember CS_LAB_SHIELD "$top"
            cg=$top/vcpu0
            mkdir "$cg"
        fi
        remember CS_LAB_CGROUP "$cg"
        echo "$tid" > "$cg/tasks"
    else
        # cgroup v2 moves whole processes, and threads only within a threaded subtree: QEMU goes
        # into the lab's cgroup (a sibling of its former one where their parent has cpu enabled,
        # else at the root, which may always hold processes beside its children), whose threaded
        # child "vcpu0" gets the one thread. At the root, QEMU leaves its former cgroup's limits
        # while the lab runs. Not tried here (this machine has cgroup v1's cpu controller).
        cur=$(awk -F: '$1 == "0" { print $3; exit }' "/proc/$pid/cgroup")
        parent=$(dirname "$mnt$cur")
        grep -qw cpu "$parent/cgroup.subtree_control" 2>/dev/null || parent=$mnt
        grep -qw cpu "$parent/cgroup.subtree_control" ||
            echo +cpu > "$parent/cgroup.subtree_control"
        top=$(mktemp -d "$parent/coresteer-lab.XXXXXX") || die "cannot make a cgroup under $parent"
        remember CS_LAB_CGROUP_MODE v2
        remember CS_LAB_CGROUP_TOP "$top"
        remember CS_LAB_CGROUP_HOME "$mnt$cur"
        if [ "$weight" -gt 0 ]; then
            w=$((weight * 100))
            [ "$w" -le 10000 ] || w=10000
            echo "$w" > "$top/cpu.weight"
            remember CS_LAB_SHIELD "$top"
        fi
        echo "$pid" > "$top/cgroup.procs"
        mkdir "$top/vcpu0"
        remember CS_LAB_CGROUP "$top/vcpu0"
        echo threaded > "$top/vcpu0/cgroup.type"
        echo +cpu > "$top/cgroup.subtree_control"
        echo "$tid" > "$top/vcpu0/cgroup.threads"
    fi
}

# Sets vCPU0's quota: a percent of one host core, or "off". With a period of 100 ms, 35 % stood
# vCPU0 still for 65 ms at a time: at 150 Mbit/s more frames than its NIC's ring holds (256)
# arrive in 65 ms, so each spell dropped frames and the figures swung with how TCP met the
# spells. The kernel takes a quota of 1 ms at least: a share too small for the period gets a
# 100 ms one.
set_quota() {
    p=$period
    case $1 in
    off | none | max | 0) q= ;;
    *[!0-9]*) die "quota: a percent of a core (1 to 100) or off, not '$1'" ;;
    *)
        [ "$1" -le 100 ] || die "quota: at most 100 % of a core"
        q=$(($1 * p / 100))
        if [ "$q" -lt 1000 ]; then
            p=100000
            q=$(($1 * p / 100))
        fi
        ;;
    esac
    if [ "$CS_LAB_CGROUP_MODE" = v1 ]; then
        echo -1 > "$CS_LAB_CGROUP/cpu.cfs_quota_us"
        echo "$p" > "$CS_LAB_CGROUP/cpu.cfs_period_us"
        echo "${q:--1}" > "$CS_LAB_CGROUP/cpu.cfs_quota_us"
    else
        echo "${q:-max} $p" > "$CS_LAB_CGROUP/cpu.max"
    fi
}

remove_cgroup() {
    [ -n "${CS_LAB_CGROUP_TOP:-}" ] || return 0
    [ -d "$CS_LAB_CGROUP_TOP" ] || return 0
    # A QEMU still alive goes back where it was.
    if [ "$CS_LAB_CGROUP_MODE" = v2 ]; then
        while read -r p; do
            echo "$p" > "$CS_LAB_CGROUP_HOME/cgroup.procs" 2>/dev/null || true
        done < "$CS_LAB_CGROUP_TOP/cgroup.procs"
    else
        for d in "$CS_LAB_CGROUP_TOP/vcpu0" "$CS_LAB_CGROUP_TOP"; do
            [ -f "$d/tasks" ] || continue
            while read -r t; do
                echo "$t" > "$CS_LAB_CGROUP_HOME/tasks" 2>/dev/null || true
            done < "$d/tasks"
        done
    fi
    i=0
    until { [ ! -d "$CS_LAB_CGROUP_TOP/vcpu0" ] || rmdir "$CS_LAB_CGROUP_TOP/vcpu0" 2>/dev/null; } &&
        rmdir "$CS_LAB_CGROUP_TOP" 2>/dev/null; do
        i=$((i + 1))
        [ "$i" -lt 50 ] || { echo "lab.sh: could not remove $CS_LAB_CGROUP_TOP" >&2; return 0; }
        sleep 0.1
    done
}

# Runs a command in the lab's cgroup (when it has one) and namespace $1: `ns`.
in_lab() {
    "$0" ns "$state" "$@"
}

# Guest CPU lines of /proc/stat, one "cpuN user nice system idle iowait irq softirq ..." each.
guest_stat() {
    guest "grep '^cpu[0-9]' /proc/stat" 2>/dev/null || true
}

# The host's side: "host BUSY TOTAL" (all its CPUs, in ticks), then "thread TICKS NAME" for each
# of QEMU's threads (utime + stime).
host_sample() {
    awk '$1 == "cpu" { t = 0; for (i = 2; i <= 9; i++) t += $i; print "host", t - $5 - $6, t; exit }' \
        /proc/stat
    for t in "/proc/$CS_VM_PID/task/"*; do
        awk -v n="$(cat "$t/comm" 2>/dev/null)" '{ sub(/^.*\) /, ""); print "thread", $12 + $13, n }' \
            "$t/stat" 2>/dev/null || true
    done
}

case $cmd in
start)
    [ $# -ge 3 ] || usage
    # Only inside a network namespace of the tests' own (netns.sh: a loopback and nothing
    # else): the lab's addresses and taps must never meet the host's network.
    for i in $(ip -o link show | awk -F': ' '{ sub(/@.*/, "", $2); print $2 }'); do
        case $i in
        lo | cs-tap*) ;;
        *) die "start: run inside tests/router-vm/netns.sh (this namespace has $i)" ;;
        esac
    done
    mkdir -p "$3"
    state=$(cd "$3" && pwd)
    t0=$(date +%s.%N)
    if [ -f "$state/lab.env" ]; then "$0" stop "$state"; else "$here/router.sh" stop "$state"; fi
    : > "$state/lab.env"
    trap '"$0" stop "$state"' EXIT
    "$here/router.sh" start-lab "$2" "$state" "${4:-2222}"
    # shellcheck disable=SC1091 # written at run time by router.sh
    . "$state/env"
    # The slow core: vCPU0's thread, by the name QEMU gives it (-name ...,debug-threads=on).
    tid=
    for t in "/proc/$CS_VM_PID/task/"*; do
        case $(cat "$t/comm" 2>/dev/null) in "CPU 0/"*) tid=${t##*/} ;; esac
    done
    [ -n "$tid" ] || die "no thread 'CPU 0/...' in QEMU ($CS_VM_PID)"
    remember CS_LAB_VCPU0_TID "$tid"
    # The cgroups of labs killed with their namespace (never stopped) are empty: they go. A
    # cgroup in use refuses rmdir; one younger than a minute may be a lab's that is starting.
    h=$(cpu_hierarchy)
    find "${h#* }" -maxdepth 4 -type d -name 'coresteer-lab.*' -mmin +1 2>/dev/null |
        while read -r d; do
            rmdir "$d/vcpu0" 2>/dev/null || true
            rmdir "$d" 2>/dev/null || true
        done
    make_cgroup "$CS_VM_PID" "$tid" "${CORESTEER_LAB_WEIGHT:-16}"
    # shellcheck disable=SC1091
    . "$state/lab.env"
    set_quota "${CORESTEER_LAB_QUOTA:-35}"
    remember CS_LAB_QUOTA "${CORESTEER_LAB_QUOTA:-35}"
    # LAN and WAN: a namespace each, which the tap QEMU holds moves into with its fd.
    lan=$(hold_netns)
    remember CS_LAB_LAN_PID "$lan"
    wan=$(hold_netns)
    remember CS_LAB_WAN_PID "$wan"
    # shellcheck disable=SC1091
    . "$state/lab.env"
    ip link set cs-tap1 netns "$lan"
    ip link set cs-tap2 netns "$wan"
    in_ns lan ip addr add 10.201.1.1/24 dev cs-tap1
    in_ns lan ip link set cs-tap1 up
    in_ns lan ip route add default via 10.201.1.2
    in_ns wan ip addr add 10.201.2.1/24 dev cs-tap2
    in_ns wan ip link set cs-tap2 up
    in_ns wan ip route add default via 10.201.2.2
    # Frames as from a wire: no TSO on the taps, so the guest gets MTU-sized frames (not the
    # host's 64 KB TCP segments, whose size varies with each flow's rate), its driver and GRO
    # work per frame on the IRQ's CPU, and a run's cost per byte does not depend on the host.
    in_ns lan ethtool -K cs-tap1 tso off
    in_ns wan ethtool -K cs-tap2 tso off
    # The guest forwards, and cake shapes both egresses above what its CPU can forward: set up
    # with iproute2's tc, which the image keeps off the PATH (its BusyBox tc cannot).
    guest "set -e
        for m in \$(cat /lib/modules/lab); do
            grep -q \"^\${m%.ko} \" /proc/modules || insmod /lib/modules/\$m
        done
        echo 1 > /proc/sys/net/ipv4/ip_forward
        for d in eth1 eth2; do
            /usr/libexec/lab/tc qdisc replace dev \$d root cake bandwidth ${CORESTEER_LAB_CAKE:-2gbit}
        done" ||
        die "the guest's forwarding and cake could not be set up"
    in_ns lan ping -c 1 -W 5 10.201.2.1 > /dev/null || die "no path from LAN to WAN through the guest"
    # The router's key for its LAN address, where the LAN namespace reaches its SSH.
    echo "10.201.1.2 $(cat "$2/host_key.pub")" >> "$state/known_hosts"
    trap - EXIT
    awk -v t0="$t0" -v t1="$(date +%s.%N)" -v q="${CORESTEER_LAB_QUOTA:-35}" 'BEGIN {
        printf "lab.sh: up after %.1f s; vCPU0 (thread %s) quota %s%s\n", t1 - t0, "'"$tid"'", q,
            q ~ /^[0-9]+$/ ? " % of a core" : "" }'
    ;;
load)
    [ $# -ge 2 ] || usage
    load_state
    secs=${3:-6}
    case ${4:-up} in
    up) reverse= ;;
    down) reverse=-R ;;
    *) die "load: up or down, not '$4'" ;;
    esac
    streams=${CORESTEER_LAB_STREAMS:-4}
    is_holder "$CS_LAB_WAN_PID" || die "the wan namespace is gone"
    in_lab wan iperf3 -s -1 -B 10.201.2.1 -p 5201 > "$state/iperf3-server.log" 2>&1 &
    srv=$!
    i=0
    until in_ns wan ss -Hltn 'sport = :5201' | grep -q .; do
        i=$((i + 1))
        [ "$i" -lt 100 ] || { kill "$srv" 2>/dev/null; die "iperf3's server did not start"; }
        sleep 0.05
    done
    before=$(guest_stat)
    h0=$(host_sample)
    t0=$(date +%s.%N)
    # shellcheck disable=SC2086 # $reverse: no word, or -R
    if ! in_lab lan iperf3 -c 10.201.2.1 -p 5201 -P "$streams" -t "$secs" -C cubic -J $reverse \
        > "$state/load.json"; then
        kill "$srv" 2>/dev/null || true
        die "iperf3 failed: $(head -c 400 "$state/load.json")"
    fi
    t1=$(date +%s.%N)
    h1=$(host_sample)
    after=$(guest_stat)
    wait "$srv" 2>/dev/null || true
    python3 - "$state/load.json" "$before" "$after" "$h0" "$h1" "$t0" "$t1" "$(getconf CLK_TCK)" \
        "$(nproc)" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
end = j["end"]
mbit = end["sum_received"]["bits_per_second"] / 1e6
retr = end["sum_sent"].get("retransmits", 0)
def cpus(text):
    out = {}
    for line in text.splitlines():
        f = line.split()
        if len(f) > 8 and f[0].startswith("cpu"):
            v = [int(x) for x in f[1:9]]
            out[f[0]] = (sum(v), v[3] + v[4], v[6])  # total, idle + iowait, softirq
    return out
b, a = cpus(sys.argv[2]), cpus(sys.argv[3])
guest = []
for c in sorted(a):
    if c in b and a[c][0] > b[c][0]:
        t = a[c][0] - b[c][0]
        guest.append("%s %.0f%% (softirq %.0f%%)"
                     % (c, 100 * (t - (a[c][1] - b[c][1])) / t, 100 * (a[c][2] - b[c][2]) / t))
def host(text):
    busy, threads = None, {}
    for line in text.splitlines():
        f = line.split(" ", 2)
        if f[0] == "host":
            busy = (int(f[1]), int(f[2].split()[0]))
        elif f[0] == "thread" and len(f) == 3:
            threads[f[2]] = threads.get(f[2], 0) + int(f[1])
    return busy, threads
(hb0, th0), (hb1, th1) = host(sys.argv[4]), host(sys.argv[5])
wall = float(sys.argv[7]) - float(sys.argv[6])
hz, ncpu = int(sys.argv[8]), int(sys.argv[9])
qemu = []
for name in sorted(th1):
    share = 100 * (th1[name] - th0.get(name, 0)) / hz / wall
    if share >= 5 or name.startswith("CPU "):
        qemu.append("%s %.0f%%" % (name, share))
hostbusy = 100 * (hb1[0] - hb0[0]) / (hb1[1] - hb0[1]) if hb0 and hb1 and hb1[1] > hb0[1] else 0
print("%.1f Mbit/s  guest busy: %s | QEMU threads (of a host core): %s | host %d CPUs %.0f%% busy"
      " | %d retransmits" % (mbit, ", ".join(guest) or "?", ", ".join(qemu), ncpu, hostbusy, retr))
PY
    ;;
layout)
    [ $# -ge 3 ] || usage
    load_state
    shift 2
    for a in "$@"; do
        printf '%s\n' "$a" | grep -Eqx '(irq|rps|xps)(\.eth[12])?=[0-9a-fA-F,]+|[0-9]+=[0-9a-fA-F,]+' ||
            die "layout: not KEY=MASK: '$a' (irq, irq.eth1, rps, rps.eth2, xps, N)"
    done
    guest sh -s -- "$@" <<'GUEST'
set -e
# The smp_affinity files of a NIC's IRQs: those whose action starts with its device's name.
irq_files() {
    d=$(basename "$(readlink "/sys/class/net/$1/device")")
    awk -v d="$d-" 'index($NF, d) == 1 { sub(":", "", $1); print "/proc/irq/" $1 "/smp_affinity" }' \
        /proc/interrupts
}
for a in "$@"; do
    key=${a%%=*}
    mask=${a#*=}
    case $key in
    *.*) nics=${key#*.} ;;
    *) nics="eth1 eth2" ;;
    esac
    case $key in
    irq*) files=$(for n in $nics; do irq_files "$n"; done) ;;
    rps*) files=$(for n in $nics; do ls /sys/class/net/"$n"/queues/rx-*/rps_cpus; done) ;;
    xps*) files=$(for n in $nics; do ls /sys/class/net/"$n"/queues/tx-*/xps_cpus; done) ;;
    *) files=/proc/irq/$key/smp_affinity ;;
    esac
    for f in $files; do echo "$mask" > "$f"; done
done
GUEST
    ;;
show)
    [ $# -ge 2 ] || usage
    load_state
    guest sh -s <<'GUEST'
for n in eth1 eth2; do
    d=$(basename "$(readlink "/sys/class/net/$n/device")")
    printf '%s (%s):' "$n" "$d"
    for i in $(awk -v d="$d-" 'index($NF, d) == 1 { sub(":", "", $1); print $1 }' /proc/interrupts); do
        printf ' %s=%s/%s' "$(awk -v i="$i:" '$1 == i { print $NF }' /proc/interrupts)" \
            "$(cat "/proc/irq/$i/smp_affinity")" "$(cat "/proc/irq/$i/effective_affinity")"
    done
    # (a NIC with one transmit queue has no XPS: reading xps_cpus fails)
    printf ' rps=%s xps=%s\n' "$(cat /sys/class/net/$n/queues/rx-0/rps_cpus)" \
        "$(cat /sys/class/net/$n/queues/tx-0/xps_cpus 2>/dev/null || echo -)"
done
echo "ip_forward=$(cat /proc/sys/net/ipv4/ip_forward)"
/usr/libexec/lab/tc qdisc show dev eth1 && /usr/libexec/lab/tc qdisc show dev eth2
GUEST
    echo "vCPU0 quota: $CS_LAB_QUOTA"
    ;;
quota)
    [ $# -ge 3 ] || usage
    load_state
    set_quota "$3"
    sed -i '/^CS_LAB_QUOTA=/d' "$state/lab.env"
    remember CS_LAB_QUOTA "$3"
    ;;
ns)
    [ $# -ge 4 ] || usage
    load_state
    case $3 in
    lan) p=${CS_LAB_LAN_PID:-} ;;
    wan) p=${CS_LAB_WAN_PID:-} ;;
    *) die "no namespace '$3' (lan or wan)" ;;
    esac
    is_holder "$p" || die "the $3 namespace is gone"
    shift 3
    # Into the lab's cgroup first (this shell's pid is the command's after the execs), so that
    # the command weighs on the host as much as QEMU does, whatever else runs there.
    if [ -n "${CS_LAB_SHIELD:-}" ]; then
        echo $$ > "$CS_LAB_SHIELD/cgroup.procs" || die "cannot join the cgroup $CS_LAB_SHIELD"
    fi
    exec nsenter -t "$p" -n "$@"
    ;;
serve)
    [ $# -ge 2 ] || usage
    load_state
    port=${3:-5202}
    [ -z "${CS_LAB_SERVER_PID:-}" ] || ! kill -0 "$CS_LAB_SERVER_PID" 2>/dev/null ||
        die "an iperf3 server of the lab runs already (pid $CS_LAB_SERVER_PID)"
    rm -f "$state/iperf3-serve.pid"
    in_lab wan iperf3 -s -D -B 10.201.2.1 -p "$port" -I "$state/iperf3-serve.pid" \
        --logfile "$state/iperf3-serve.log" || die "iperf3's server did not start"
    i=0
    until [ -s "$state/iperf3-serve.pid" ] && in_ns wan ss -Hltn "sport = :$port" | grep -q .; do
        i=$((i + 1))
        [ "$i" -lt 100 ] || die "iperf3's server did not start: $(cat "$state/iperf3-serve.log")"
        sleep 0.05
    done
    sed -i '/^CS_LAB_SERVER_PID=/d' "$state/lab.env"
    remember CS_LAB_SERVER_PID "$(tr -dc 0-9 < "$state/iperf3-serve.pid")"
    ;;
relay)
    # The tuner's load test probes the LAN side with a TCP handshake with the router's SSH port,
    # ten a second, and dropbear forks and executes itself for every connection: under emulation
    # that took 60 to 85 % of a guest core (on a real router, a few percent), enough to hide
    # what the layout does. This relay answers such a handshake itself: it connects to the
    # router only for a connection that sends something or stays open 0.2 s, as an SSH client
    # does, and then passes the bytes both ways.
    [ $# -ge 2 ] || usage
    load_state
    port=${3:-2200}
    [ -z "${CS_LAB_RELAY_PID:-}" ] || ! kill -0 "$CS_LAB_RELAY_PID" 2>/dev/null ||
        die "a relay of the lab runs already (pid $CS_LAB_RELAY_PID)"
    in_lab lan python3 - "$port" > "$state/relay.log" 2>&1 <<'PY' &
import asyncio, sys

async def pipe(src, dst):
    try:
        while data := await src.read(65536):
            dst.write(data)
            await dst.drain()
    except OSError:
        pass
    finally:
        dst.close()

async def client(reader, writer):
    try:
        first = await asyncio.wait_for(reader.read(65536), 0.2)
        if not first:  # a handshake and nothing else: the router never sees it
            writer.close()
            return
    except asyncio.TimeoutError:
        first = b""
    try:
        up_reader, up_writer = await asyncio.open_connection("10.201.1.2", 22)
    except OSError:
        writer.close()
        return
    up_writer.write(first)
    await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))

async def main():
    server = await asyncio.start_server(client, "127.0.0.1", int(sys.argv[1]))
    async with server:
        await server.serve_forever()

asyncio.run(main())
PY
    relay=$!
    i=0
    until in_ns lan ss -Hltn "sport = :$port" | grep -q .; do
        i=$((i + 1))
        [ "$i" -lt 100 ] || die "the relay did not start: $(cat "$state/relay.log")"
        sleep 0.05
    done
    sed -i '/^CS_LAB_RELAY_PID=/d' "$state/lab.env"
    remember CS_LAB_RELAY_PID "$relay"
    grep -q "^\[127.0.0.1\]:$port " "$state/known_hosts" ||
        echo "[127.0.0.1]:$port $(cut -d' ' -f2- "$state/known_hosts" | head -n 1)" >> "$state/known_hosts"
    ;;
check)
    # Forwarding needs the guest's LAN side (eth1) and its WAN side (eth2): one ping each way
    # through it. Where one fails, what the guest says about its NICs (through the management
    # port, which is neither) and the end of its console.
    [ $# -ge 2 ] || usage
    load_state
    ok=1
    for a in 10.201.1.2 10.201.2.1; do
        in_ns lan ping -c 2 -i 0.3 -W 2 "$a" > /dev/null 2>&1 ||
            { echo "lab.sh: no answer from $a on the LAN side"; ok=0; }
    done
    [ "$ok" = 1 ] && { echo "lab.sh: the guest forwards"; exit 0; }
    # shellcheck disable=SC2016 # expanded in the guest
    said=$(guest 'for n in eth1 eth2; do
            ip link show "$n"
            for c in rx_packets rx_dropped tx_packets tx_dropped; do
                printf "%s %s=%s\n" "$n" "$c" "$(cat "/sys/class/net/$n/statistics/$c")"
            done
        done
        grep -E "virtio[12]-" /proc/interrupts
        dmesg | tail -n 20' 2>&1) || {
        echo "$said" | sed 's/^/lab.sh: guest: /'
        echo "lab.sh: the guest does not answer on its management port either"
        tail -n 20 "$state/console.log" 2>/dev/null | sed 's/^/lab.sh: console: /'
        exit 3
    }
    echo "$said" | sed 's/^/lab.sh: guest: /'
    tail -n 20 "$state/console.log" 2>/dev/null | sed 's/^/lab.sh: console: /'
    exit 1
    ;;
revive)
    [ $# -ge 2 ] || usage
    load_state
    # shellcheck disable=SC2016 # expanded in the guest
    guest 'for n in eth1 eth2; do ip link set "$n" down && ip link set "$n" up; done' ||
        die "the guest did not take its NICs down and up"
    i=0
    until in_ns lan ping -c 1 -W 1 10.201.2.1 > /dev/null 2>&1; do
        i=$((i + 1))
        [ "$i" -lt 10 ] || die "no path from LAN to WAN through the guest after revive"
    done
    echo "lab.sh: eth1 and eth2 went down and up; the guest forwards"
    ;;
stop)
    [ $# -ge 2 ] || usage
    state=$(cd "$state" && pwd)
    if [ -f "$state/lab.env" ]; then
        # shellcheck disable=SC1091
        . "$state/lab.env"
    fi
    "$here/router.sh" stop "$state"
    # The server of `serve`, if it is still the iperf3 it was.
    if [ -n "${CS_LAB_SERVER_PID:-}" ] &&
        { tr '\0' ' ' < "/proc/$CS_LAB_SERVER_PID/cmdline"; } 2>/dev/null | grep -q '^iperf3 -s'; then
        kill "$CS_LAB_SERVER_PID" 2>/dev/null || true
    fi
    if [ -n "${CS_LAB_RELAY_PID:-}" ] &&
        { tr '\0' ' ' < "/proc/$CS_LAB_RELAY_PID/cmdline"; } 2>/dev/null | grep -q '^python3 - '; then
        kill "$CS_LAB_RELAY_PID" 2>/dev/null || true
    fi
    for p in ${CS_LAB_LAN_PID:-} ${CS_LAB_WAN_PID:-}; do
        if is_holder "$p"; then kill "$p" 2>/dev/null || true; fi
    done
    remove_cgroup
    rm -f "$state/lab.env"
    ;;
*)
    usage
    ;;
esac

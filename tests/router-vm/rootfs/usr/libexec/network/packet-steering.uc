#!/bin/sh
# The emulated router's model of OpenWrt 24.10's packet-steering.uc (package netifd), from its
# facts, for a router without threaded NAPI or Wi-Fi: arguments "-l N" (every steered receive
# queue's rps_flow_cnt), "0" (RPS off), "2" (RPS over every CPU). It steers each device that has
# a bus device (a device link) and no lower_* device, in the order of /sys/class/net; each takes
# the least loaded CPU, which without NAPI threads to weigh is CPU0, CPU1, ... in turn, and all
# of its receive queues get that one CPU. It never touches XPS or /proc/irq.
flows=0
disable=
all=
while [ $# -gt 0 ]; do
    case $1 in
    -l) flows=$2; shift ;;
    0) disable=1 ;;
    2) all=1 ;;
    esac
    shift
done
n=0
for c in /sys/bus/cpu/devices/cpu*; do [ -e "$c" ] && n=$((n + 1)); done
[ "$n" -ge 2 ] || exit 0
i=0
for dev in /sys/class/net/*; do
    [ -e "$dev/device" ] || continue
    for l in "$dev"/lower_*; do [ -e "$l" ] && continue 2; done
    if [ -n "$disable" ]; then
        v=0
    elif [ -n "$all" ]; then
        v=$(printf %x $(((1 << n) - 1)))
    else
        v=$(printf %x $((1 << (i % n))))
        i=$((i + 1))
    fi
    for q in "$dev"/queues/rx-*/rps_cpus; do [ -f "$q" ] && echo "$v" >"$q"; done
    for q in "$dev"/queues/rx-*/rps_flow_cnt; do [ -f "$q" ] && echo "$flows" >"$q"; done
done

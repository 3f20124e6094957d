#!/bin/sh
# SPDX-FileCopyrightText: 2026 coresteer maintainers
# SPDX-License-Identifier: GPL-3.0-or-later
# Starts and stops the emulated router (built by build.sh) under QEMU, inside the caller's own
# network namespace (see netns.sh): 4 vCPUs (TCG), a management NIC reachable only through
# 127.0.0.1:PORT (QEMU's user network, restricted: no way out), and two virtio-net NICs with 4
# queue pairs each on taps cs-tap1 and cs-tap2 (10.201.1.1 and 10.201.2.1 here, .2 in the guest),
# and an Intel 82574L (e1000e, eth3) on a restricted user network, whose driver takes rx-usecs.
# `start-lab` boots the lab instead (see lab.sh, which drives it): 2 vCPUs whose QEMU threads are
# named ("CPU 0/TCG"), the same management NIC, eth1 and eth2 with one queue pair each on taps
# cs-tap1 and cs-tap2 that QEMU makes and that lab.sh then moves into namespaces of their own,
# no eth3.
#   tests/router-vm/router.sh start VMDIR STATE [PORT]   boot, wait for SSH, write STATE/env
#   tests/router-vm/router.sh start-lab VMDIR STATE [PORT]   the same, in the lab's shape
#   tests/router-vm/router.sh stop STATE                 power off, remove the taps
#   tests/router-vm/router.sh ssh STATE COMMAND...       run a command on the router (OpenSSH)
# STATE/disk.img is the persistent /etc; `start` copies a fresh one unless it exists.
set -eu
cmd=${1:-}
state=${2:-}

ssh_router() {
    # shellcheck disable=SC1091 # written at run time by `router.sh start`
    . "$state/env"
    ssh -q -o BatchMode=yes -o UserKnownHostsFile="$CS_VM_KNOWN_HOSTS" -o StrictHostKeyChecking=yes \
        -o GlobalKnownHostsFile=/dev/null -F /dev/null -o IdentitiesOnly=yes -o ConnectTimeout=5 \
        -i "$CS_VM_KEY" -p "$CS_VM_PORT" root@127.0.0.1 "$@"
}

case $cmd in
start | start-lab)
    vm=$(cd "$2" && pwd)
    mkdir -p "$3"
    state=$(cd "$3" && pwd)
    port=${4:-2222}
    # Only in a namespace that has nothing but its loopback (and our own taps): never the host's.
    if ip -o link show | grep -v -e ': lo:' -e ': cs-tap[12]' | grep -q .; then
        echo "router.sh: run me in a network namespace of my own (tests/router-vm/netns.sh)" >&2
        exit 2
    fi
    [ -f "$state/disk.img" ] || cp "$vm/disk.img" "$state/disk.img"
    nics=
    queues=4
    cpus=4
    lab=
    opts=
    if [ "$cmd" = start-lab ]; then
        # The lab: one queue pair per NIC on taps that QEMU makes (they go when it exits, wherever
        # lab.sh has moved them), 2 vCPUs, and vCPU threads named for lab.sh to find.
        [ -c /dev/net/tun ] || { echo "router.sh: the lab needs /dev/net/tun" >&2; exit 1; }
        lab=1
        queues=1
        cpus=2
        for i in 1 2; do
            nics="$nics -netdev tap,id=n$i,ifname=cs-tap$i,script=no,downscript=no"
            nics="$nics -device virtio-net-pci,netdev=n$i,addr=0x$((3 + i))"
        done
        opts="-name coresteer-lab,debug-threads=on"
    fi
    [ -n "$lab" ] || for i in 1 2; do
        if [ -c /dev/net/tun ] && ip tuntap add dev "cs-tap$i" mode tap multi_queue 2>/dev/null; then
            ip addr add "10.201.$i.1/24" dev "cs-tap$i"
            ip link set "cs-tap$i" up
            nics="$nics -netdev tap,id=n$i,ifname=cs-tap$i,script=no,downscript=no,queues=4"
            nics="$nics -device virtio-net-pci,netdev=n$i,mq=on,rss=on,vectors=10,addr=0x$((3 + i))"
        else
            queues=1
            echo "router.sh: no multiqueue tap here (/dev/net/tun?): eth$i is a single-queue NIC" >&2
            nics="$nics -netdev user,id=n$i,restrict=on,net=10.201.$i.0/24"
            nics="$nics -device virtio-net-pci,netdev=n$i,addr=0x$((3 + i))"
        fi
    done
    # eth3: an emulated Intel 82574L (e1000e) on a restricted user network, for coalescing.
    [ -n "$lab" ] ||
        nics="$nics -netdev user,id=n3,restrict=on,net=10.201.3.0/24 -device e1000e,netdev=n3,addr=0x7"
    rm -f "$state/qemu.pid" "$state/console.log"
    # A reboot of the router ends QEMU (-no-reboot): the tests start it again from the disk, a
    # cold boot, as a warm reset boots slowly under emulation (vm_fixture.h, rebootGuest).
    [ -n "$lab" ] || opts="-no-reboot"
    # shellcheck disable=SC2086
    qemu-system-x86_64 -accel "${CORESTEER_VM_ACCEL:-tcg,thread=multi}" -m 256 -smp "$cpus" \
        -kernel "$vm/vmlinux" -initrd "$vm/initramfs.cpio.gz" -append "console=ttyS0 quiet" \
        -display none -monitor none -serial "file:$state/console.log" \
        -drive "file=$state/disk.img,if=none,id=etc,format=raw" \
        -device virtio-blk-pci,drive=etc,addr=0x6 \
        -netdev "user,id=mgmt,restrict=on,hostfwd=tcp:127.0.0.1:$port-10.0.2.15:22" \
        -device virtio-net-pci,netdev=mgmt,addr=0x3 \
        $nics $opts -pidfile "$state/qemu.pid" -daemonize
    echo "[127.0.0.1]:$port $(cat "$vm/host_key.pub")" > "$state/known_hosts"
    cat > "$state/env" <<ENV
CS_VM_PORT=$port
CS_VM_KEY=$vm/client_key
CS_VM_KNOWN_HOSTS=$state/known_hosts
CS_VM_QUEUES=$queues
CS_VM_PID=$(cat "$state/qemu.pid")
ENV
    [ -z "$lab" ] || echo "CS_VM_LAB=1" >> "$state/env"
    t0=$(date +%s)
    until ssh_router true 2>/dev/null; do
        if [ $(($(date +%s) - t0)) -gt 120 ] || ! kill -0 "$(cat "$state/qemu.pid")" 2>/dev/null; then
            echo "router.sh: the router did not come up; console:" >&2
            tail -n 30 "$state/console.log" >&2
            exit 1
        fi
        sleep 0.5
    done
    echo "router.sh: up after $(($(date +%s) - t0)) s, ssh -p $port root@127.0.0.1 ($queues queue pairs per NIC)"
    ;;
stop)
    if [ -f "$state/qemu.pid" ]; then
        pid=$(cat "$state/qemu.pid")
        kill "$pid" 2>/dev/null || true
        i=0
        while kill -0 "$pid" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
        kill -9 "$pid" 2>/dev/null || true
        rm -f "$state/qemu.pid"
    fi
    for i in 1 2; do ip link del "cs-tap$i" 2>/dev/null || true; done
    ;;
ssh)
    shift 2
    ssh_router "$@"
    ;;
*)
    sed -n '2,17p' "$0" >&2
    exit 2
    ;;
esac

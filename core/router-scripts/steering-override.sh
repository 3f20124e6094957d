# SPDX-FileCopyrightText: 2026 coresteer maintainers
# SPDX-License-Identifier: GPL-3.0-or-later
# shellcheck shell=sh
# steering-override.sh: /usr/libexec/platform/packet-steering.sh as persist installs it, after
# these assignments:
#   BOARD  where persist keeps the board's own platform script ("" when the board had none)
#   HOOK   the router apply script (/etc/hotplug.d/net/95-coresteer)
# OpenWrt runs this file in place of its own packet steering. From 23.05 on,
# /etc/init.d/packet_steering (START=25) runs it at boot, on every network and firewall reload
# and on every interface event; from 24.10 on with network.globals.packet_steering as its
# argument. 23.05's /usr/libexec/network/packet-steering.sh runs it without arguments (when
# packet_steering is 1, holding /var/lock/smp_tune.lock) and then ends.
# It runs the firmware's own steering first, so that the devices the layout does not name keep
# it (Wi-Fi, upper devices, anything added later), then the layout, which wins for the devices
# and IRQs it names. CORESTEER_ROOT is the root prefix (tests run it on fixture roots).
R=${CORESTEER_ROOT:-}

# A script the firmware's steering runs may run this one again: once is enough.
[ -n "${CORESTEER_STEERING:-}" ] && exit 0
CORESTEER_STEERING=1
export CORESTEER_STEERING

# network.globals.NAME as uci reads it (on a root prefix, from its /etc/config/network: the last
# "option NAME" line, quotes taken off).
steering_option() {
    if [ -z "$R" ]; then
        uci -q get "network.@globals[0].$1" 2>/dev/null
        return 0
    fi
    sed -n "s/^[[:space:]]*option[[:space:]][[:space:]]*$1[[:space:]][[:space:]]*//p" \
        "$R/etc/config/network" 2>/dev/null | tail -n 1 | tr -d "'\""
}

# The CPUs the firmware's steering spreads over, as a hex mask (as packet-steering.sh counts
# them: the processors of /proc/cpuinfo; 63 at most in shell arithmetic).
all_cpus() {
    n=$(grep -c '^processor' "$R/proc/cpuinfo" 2>/dev/null)
    [ "${n:-0}" -gt 1 ] || return 1
    [ "$n" -gt 63 ] && n=63
    printf '%x' $(((1 << n) - 1))
}

# 23.05's steering when a platform script is there to call (it calls that instead of its own):
# every queue of every device that is hardware (a device link, no lower_* device) spread over
# all CPUs: XPS on every device, RPS except on DSA ports (subsystem mdio_bus).
steer_2305() {
    mask=$(all_cpus) || return 0
    for dev in "$R"/sys/class/net/*; do
        [ -d "$dev/device" ] || continue
        for l in "$dev"/lower_*; do
            [ -e "$l" ] && continue 2
        done
        for q in "$dev"/queues/tx-*/xps_cpus; do
            [ -f "$q" ] && echo "$mask" >"$q" 2>/dev/null
        done
        subsystem=$(readlink "$dev/device/subsystem" 2>/dev/null)
        [ "${subsystem##*/}" = mdio_bus ] && continue
        for q in "$dev"/queues/rx-*/rps_cpus; do
            [ -f "$q" ] && echo "$mask" >"$q" 2>/dev/null
        done
    done
}

# The firmware's steering: the board's own platform script where persist found one, else
# OpenWrt's packet-steering.uc (24.10 on, called as /etc/init.d/packet_steering calls it when
# no platform script is there: -l network.globals.steering_flows, then the packet_steering
# value), else what 23.05's packet-steering.sh does itself.
steer_firmware() {
    if [ -n "$BOARD" ] && [ -f "$R$BOARD" ]; then
        /bin/sh "$R$BOARD" "$@"
    elif [ -f "$R/usr/libexec/network/packet-steering.uc" ]; then
        [ $# -gt 0 ] || set -- "$(steering_option packet_steering)"
        flows=$(steering_option steering_flows)
        if [ "${flows:-0}" -gt 0 ] 2>/dev/null; then
            "$R/usr/libexec/network/packet-steering.uc" -l "$flows" "$@"
        else
            "$R/usr/libexec/network/packet-steering.uc" "$@"
        fi
    elif [ "${1-$(steering_option packet_steering)}" = 1 ]; then
        steer_2305 # 23.05 steers only while packet_steering is 1
    fi
}

steer_firmware "$@"
ACTION=add INTERFACE='' exec /bin/sh "$R$HOOK"

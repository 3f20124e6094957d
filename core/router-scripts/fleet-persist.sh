# SPDX-FileCopyrightText: 2026 coresteer maintainers
# SPDX-License-Identifier: GPL-3.0-or-later
# shellcheck shell=sh
# fleet-persist.sh: `export ansible`'s persist, after board-check.sh and these assignments:
#   R, M            the root prefix, and the marker every file coresteer writes carries
#   ROUTER, LAYOUT  the router apply script and /etc/coresteer/layout.json, which the install
#                   scripts below take from these variables
#   OVERRIDE_T/_S   persist.h's install script (and its token) for OpenWrt with the packet
#                   steering override; empty when the playbook leaves packet steering alone
#   OPENWRT_T/_S    the same for OpenWrt without it
#   SYSTEMD_T/_S    the same for systemd
#   OPENRC_{LOCAL,NOLOCAL}_{MDEV,UDEV,NONE}_T/_S
#                   the same for OpenRC: with the owner's local service in a runlevel or without
#                   (persist adds it to the default one), and with mdev or mdevd (a rule line
#                   in a plain /etc/mdev.conf), udev (a rule file) or neither
#   PERSIST_FNS     the install scripts' functions, which each of them evaluates first
#   BAN_NOW         "1": irqbalance leaves the layout's IRQs alone from now on, where the router
#                   has it (the router apply script, BAN=auto, bans them again at every boot)
# Picks the one this router needs (the override where OpenWrt's packet steering service is),
# runs it in its only-if-changed form, and prints
# "coresteer: wrote|removed ..." lines, then "coresteer: changed" or "coresteer: unchanged".
# Exit status: 0; 3 the install script stopped; 6 neither hotplug.d with a caller, nor
# systemd, nor OpenRC.

# shellcheck disable=SC2153 # the *_T and *_S come from the caller
# By what the router has: hotplug.d with a caller (OpenWrt, BusyBox firmwares), or systemd.
if [ -f "$R/etc/openwrt_release" ] ||
    { [ -d "$R/etc/hotplug.d" ] && { [ -e "$R/sbin/hotplug-call" ] || [ -e "$R/sbin/procd" ]; }; }; then
    # A board's own platform script moves aside and runs first (board_aside).
    if [ -n "$OVERRIDE_S" ] && [ -e "$R/etc/init.d/packet_steering" ]; then
        T=$OVERRIDE_T
        S=$OVERRIDE_S
    else
        T=$OPENWRT_T
        S=$OPENWRT_S
    fi
elif [ -d "$R/run/systemd/system" ]; then
    T=$SYSTEMD_T
    S=$SYSTEMD_S
elif [ -d "$R/run/openrc" ]; then
    # What the snapshot reads (snapshot_system.cpp): the local service in a runlevel (not the
    # link a persist added, which /etc/coresteer/openrc-local notes), and the device manager.
    fp_local=NOLOCAL
    fp_dm=NONE
    for fp_l in sysinit boot default; do
        fp_d="$R/etc/runlevels/$fp_l"
        if { [ -e "$fp_d/local" ] || [ -L "$fp_d/local" ]; } &&
            ! { [ "$fp_l" = default ] && [ -f "$R/etc/coresteer/openrc-local" ]; }; then
            fp_local=LOCAL
        fi
        if [ -e "$fp_d/mdev" ] || [ -L "$fp_d/mdev" ] || [ -e "$fp_d/mdevd" ] ||
            [ -L "$fp_d/mdevd" ]; then
            fp_dm=MDEV
        elif { [ -e "$fp_d/udev" ] || [ -L "$fp_d/udev" ]; } && [ "$fp_dm" = NONE ]; then
            fp_dm=UDEV
        fi
    done
    # No rules file to add a line to: as without a device manager.
    if [ "$fp_dm" = MDEV ] && { [ ! -f "$R/etc/mdev.conf" ] || [ -L "$R/etc/mdev.conf" ]; }; then
        fp_dm=NONE
    fi
    # The names are of the fixed sets above.
    eval "T=\$OPENRC_${fp_local}_${fp_dm}_T; S=\$OPENRC_${fp_local}_${fp_dm}_S"
else
    echo "coresteer: this router has no way coresteer knows to run a script when an interface appears: no /etc/hotplug.d with a hotplug caller (/sbin/hotplug-call or procd), no systemd (no /run/systemd/system) and no OpenRC (no /run/openrc)" >&2
    exit 6
fi
# In a subshell of this shell, which has $ROUTER and $LAYOUT (an argument or a variable in the
# environment of a new process is limited to 128 KiB; these are not).
out=$(
    # shellcheck disable=SC2034 # read by the install script, through its root assignment
    CORESTEER_ROOT=$R
    eval "$S"
) || exit 3
changed=
done=
while IFS= read -r l; do
    case $l in
    "$T W "*)
        changed=1
        echo "coresteer: wrote ${l#"$T W "}"
        ;;
    "$T R "*) echo "coresteer: removed ${l#"$T R "}" ;;
    "$T S "*)
        changed=1
        echo "coresteer: /etc/sysupgrade.conf keeps ${l#"$T S "}"
        ;;
    "$T I "*) echo "coresteer: ${l#"$T I "}" ;;
    "$T SAME") ;;
    "$T DONE") done=1 ;;
    esac
done <<EOF
$out
EOF
[ -n "$done" ] || {
    echo "coresteer: the persist script stopped before its end" >&2
    exit 3
}
# The bans now: the router apply script once, for every interface (the layout is in force
# already, so it writes nothing else), in a subshell of its own.
if [ -n "${BAN_NOW:-}" ]; then
    bn_before=$(cat "$R/etc/coresteer/irqbalance.banned" 2>/dev/null)
    (
        CORESTEER_ROOT=$R
        CORESTEER_WAIT=0
        ACTION=add
        export CORESTEER_ROOT CORESTEER_WAIT ACTION
        unset INTERFACE CORESTEER_DRY CORESTEER_KEEP
        eval "$ROUTER"
    ) >/dev/null 2>&1
    bn_after=$(cat "$R/etc/coresteer/irqbalance.banned" 2>/dev/null)
    if [ "$bn_before" != "$bn_after" ]; then
        changed=1
        # shellcheck disable=SC2086 # one line
        echo "coresteer: irqbalance leaves IRQ" $bn_after "alone"
    fi
fi
if [ -n "$changed" ]; then echo "coresteer: changed"; else echo "coresteer: unchanged"; fi

# SPDX-FileCopyrightText: 2026 coresteer maintainers
# SPDX-License-Identifier: GPL-3.0-or-later
# shellcheck shell=sh
# router-apply.sh: the persisted apply script's body (/etc/hotplug.d/net/95-coresteer on OpenWrt,
# /etc/coresteer/apply.sh under systemd), after common.sh, state-dir.sh and the layout as data:
#   R          the root prefix, from CORESTEER_ROOT ("" on a router)
#   WAIT       seconds to keep looking for IRQs and queues that are not there yet
#   COVERED    the interfaces whose "add" applies the layout, one a line; "*": every one
#   SOCK_FLOW  rps_sock_flow_entries, or ""
#   IRQS       "rank<TAB>mask<TAB>action" per IRQ target, found by FIND_IRQS (find-irqs.awk)
#   QUEUES     "interface<TAB>queue<TAB>rps|flows|xps<TAB>value" per queue target
#   THREADS    "device<TAB>napi<TAB>mask": the CPUs of the NAPI threads napi/<device>-N, where the
#              device is an interface, a driver's own NAPI device (mtk_eth) or a radio (phy0);
#              "radio<TAB>worker<TAB>mask": mt76's TX worker "mt76-tx <radio>", where the radio
#              is "@interface" when it was not known (the radio of the interface's phy80211);
#              "interface<TAB>usecs<TAB>value": rx-usecs (these three on the live root only);
#              "interface<TAB>threaded<TAB>1|0": threaded NAPI on or off (before the threads are
#              looked for: switched on, they appear then);
#              "interface<TAB>channels-combined|channels-rx|channels-tx<TAB>N" (ethtool -L) and
#              "interface<TAB>rss<TAB>default|equal N|weight W0 W1 ..." (ethtool -X): before the
#              IRQs and queues are looked for, which a new channel count makes
#   RSS_SPEC   rss-spec.awk, for rss_now (common.sh)
#   CPUFREQ    "policy<TAB>governor" per cpufreq policy the layout sets a governor for
#   MARK       the text every file coresteer writes carries
#   STEERING   OpenWrt's platform packet-steering script as persist installed it, or "" for none
#   BAN        "1": irqbalance leaves the IRQs this script pins alone (irqbalance-ban.sh, which
#              then follows state-dir.sh): IRQ numbers can change at boot, and the new ones are
#              banned as they are found; "auto": the same where irqbalance's configuration is
#              found, and nothing said where it is not
# Environment, as procd and udev set it: ACTION (only "add" applies), INTERFACE (a covered one,
# or none for all); CORESTEER_WAIT overrides WAIT; CORESTEER_FOREGROUND=1 waits in the
# foreground (systemd); CORESTEER_KEEP names a file that gets "key<TAB>old value" before each
# write (apply.sh's revert file); CORESTEER_DRY=1 keeps the old values and writes nothing.
# A value that already reads as wanted is not written again. Problems go to the system log
# (logger), or to stderr under a root prefix or with CORESTEER_KEEP. Exit status 0.

logged=
pinned=
log() {
    if [ -n "$R" ] || [ -n "${CORESTEER_KEEP:-}" ] || ! command -v logger >/dev/null 2>&1; then
        printf 'coresteer: %s\n' "$*" >&2
    else
        logger -t coresteer -- "$*"
    fi
}
# same A B: two masks (or numbers) alike, commas and leading zeros aside. No fork, no glob.
same() {
    set -f
    nm_o=$IFS
    IFS=,
    nm_a=
    for nm_p in $1; do nm_a=$nm_a$nm_p; done
    nm_b=
    for nm_p in $2; do nm_b=$nm_b$nm_p; done
    IFS=$nm_o
    set +f
    while :; do case $nm_a in 0?*) nm_a=${nm_a#0} ;; *) break ;; esac; done
    while :; do case $nm_b in 0?*) nm_b=${nm_b#0} ;; *) break ;; esac; done
    [ -n "$nm_a" ] && [ "$nm_a" = "$nm_b" ]
}
# keep KEY OLD: before a write, what a revert restores (only when CORESTEER_KEEP names a file).
# Returns 1 under CORESTEER_DRY: keep the old value, write nothing.
keep() {
    [ -z "${CORESTEER_KEEP:-}" ] || printf '%s\t%s\n' "$1" "$2" >> "$CORESTEER_KEEP"
    [ -z "${CORESTEER_DRY:-}" ]
}
put() {
    if [ ! -e "$R/$1" ]; then
        missing=$((missing + 1))
        return 0
    fi
    cur=
    IFS= read -r cur < "$R/$1" 2>/dev/null
    same "$cur" "$2" && return 0
    keep "$1" "$cur" || return 0
    # No subshell on the way that works: a fork per write is most of the cost on a router.
    # echo, not printf: BusyBox ash's printf fails a refused write without saying why.
    { echo "$2" > "$R/$1"; } 2>/dev/null && return 0
    e=$( { echo "$2" > "$R/$1"; } 2>&1 )
    once "$1" "/$1: the kernel refused $2: ${e##*: }"
}
# once KEY MESSAGE: log each problem once per run, not once per retry.
once() {
    case " $logged " in
    *" $1 "*) ;;
    *) logged="$logged $1"; log "$2" ;;
    esac
}
q() {
    case $3 in
    rps) put "sys/class/net/$1/queues/rx-$2/rps_cpus" "$4" ;;
    flows) put "sys/class/net/$1/queues/rx-$2/rps_flow_cnt" "$4" ;;
    xps) put "sys/class/net/$1/queues/tx-$2/xps_cpus" "$4" ;;
    esac
}
# gov POLICY GOVERNOR: the policy's cpufreq governor.
gov() {
    put "sys/devices/system/cpu/cpufreq/policy$1/scaling_governor" "$2"
}
# n KIND DEVICE MASK: the CPUs of the device's kernel threads, the NAPI threads napi/DEVICE-N
# (KIND napi) or mt76's TX worker "mt76-tx DEVICE" (KIND worker). Threads and coalescing exist
# only on the live root (not under a CORESTEER_ROOT).
n() {
    [ -z "$R" ] || return 0
    found=
    for f in /proc/[0-9]*/comm; do
        c=
        IFS= read -r c < "$f" 2>/dev/null
        case $1:$c in
        "napi:napi/$2-"* | "worker:mt76-tx $2")
            p=${f%/comm}
            # Only the kernel's own threads: any process may take such a name.
            kthread "${p##*/}" || continue
            found=1
            cur=$(sed -n 's/^Cpus_allowed:[[:space:]]*//p' "$p/status" 2>/dev/null)
            same "$cur" "$3" && continue
            keep "napi:${p##*/}" "$cur" || continue
            e=$(taskset -p "$(printf '%s' "$3" | tr -d ,)" "${p##*/}" 2>&1 >/dev/null) ||
                once "napi:$2" "$c: taskset $3 failed: $e" ;;
        esac
    done
    [ -n "$found" ] || missing=$((missing + 1))
}
# c INTERFACE PARAMETER VALUE: ethtool -C, PARAMETER rx-usecs or rx-frames.
c() {
    [ -z "$R" ] || return 0
    case $2 in rx-usecs | rx-frames) ;; *) return 0 ;; esac
    [ -e "/sys/class/net/$1" ] || { missing=$((missing + 1)); return 0; }
    cur=$(ethtool -c "$1" 2>/dev/null | sed -n "s/^$2:[[:space:]]*//p")
    [ "$cur" = "$3" ] && return 0
    case $cur in
    '' | *[!0-9]*) [ -z "${CORESTEER_DRY:-}" ] || return 0 ;;
    *) keep "ethtool:$1:$2" "$cur" || return 0 ;;
    esac
    if ! e=$(ethtool -C "$1" "$2" "$3" 2>&1); then
        case $e in
        *unmodified*|*"no coalesce parameters changed"*) ;;
        *) once "ethtool:$1:$2" "$1: ethtool -C $2 $3 failed: ${e%%"$NL"*}" ;;
        esac
    fi
}
# e INTERFACE channels-KIND N | e INTERFACE rss SPREAD: ethtool -L and -X (the live root only),
# before the IRQs and queues; nothing for the other THREADS lines.
e() {
    case $2 in channels-* | rss) ;; *) return 0 ;; esac
    [ -z "$R" ] || return 0
    [ -e "/sys/class/net/$1" ] || { missing=$((missing + 1)); return 0; }
    case $2 in
    channels-combined | channels-rx | channels-tx)
        digits "$3" || return 0
        channels_now "$1" "${2#channels-}"
        [ "$cn" = "$3" ] && return 0
        if [ -z "$cn" ]; then
            once "ethtool:$1:$2" "$1: ethtool -l shows no ${2#channels-} channels"
            return 0
        fi
        keep "ethtool:$1:$2" "$cn" || return 0
        if ! ee=$(ethtool -L "$1" "${2#channels-}" "$3" 2>&1); then
            case $ee in
            *unmodified* | *"no channel parameters changed"*) ;;
            *) once "ethtool:$1:$2" "$1: ethtool -L ${2#channels-} $3 failed: ${ee%%"$NL"*}" ;;
            esac
        fi
        ;;
    rss)
        rss_ok "$3" || return 0
        rss_now "$1" "$3"
        # shellcheck disable=SC2154 # rn: rss_now's answer (common.sh)
        [ "$rn" = same ] && return 0
        if [ -z "$rn" ]; then
            once "ethtool:$1:rss" "$1: its RSS indirection table is no spread ethtool can set back (or ethtool -x shows none): left as it is"
            return 0
        fi
        keep "ethtool:$1:rss" "$rn" || return 0
        set -f
        # shellcheck disable=SC2086 # the spread's words: "equal 4"
        ee=$(ethtool -X "$1" $3 2>&1) || once "ethtool:$1:rss" "$1: ethtool -X $3 failed: ${ee%%"$NL"*}"
        set +f
        ;;
    esac
}
covered() {
    [ "$COVERED" != '*' ] || return 0
    cv_rest=$COVERED
    while [ -n "$cv_rest" ]; do
        cv=${cv_rest%%"$NL"*}
        cv_rest=${cv_rest#"$cv"}
        cv_rest=${cv_rest#"$NL"}
        [ "$cv" != "$1" ] || return 0
    done
    return 1
}
# thread DEVICE napi MASK | thread RADIO worker MASK | thread INTERFACE usecs|frames VALUE |
# thread INTERFACE threaded 1|0
thread() {
    case $2 in
    threaded)
        case $1 in
        '' | . | .. | */*) return 0 ;;
        esac
        put "sys/class/net/$1/threaded" "$3" ;;
    napi) n napi "$1" "$3" ;;
    worker)
        case $1 in
        @*)
            # The radio of the interface's phy80211 link.
            rl=$(readlink "$R/sys/class/net/${1#@}/phy80211" 2>/dev/null) || {
                missing=$((missing + 1))
                return 0
            }
            n worker "${rl##*/}" "$3" ;;
        *) n worker "$1" "$3" ;;
        esac ;;
    usecs) c "$1" rx-usecs "$3" ;;
    frames) c "$1" rx-frames "$3" ;;
    esac
}
apply_all() {
    missing=0
    each_line "$THREADS" e
    [ -z "$SOCK_FLOW" ] || put proc/sys/net/core/rps_sock_flow_entries "$SOCK_FLOW"
    if [ -n "$IRQS" ]; then
        found=$(printf '%s\n' "$IRQS" | awk "$FIND_IRQS" - "$R/proc/interrupts" 2>/dev/null)
        while IFS="$TAB" read -r s n v; do
            case $s in
            ok)
                put "proc/irq/$n/smp_affinity" "$v"
                case " $pinned " in *" $n "*) ;; *) pinned="$pinned $n" ;; esac
                ;;
            missing) missing=$((missing + 1)) ;;
            esac
        done <<EOF
$found
EOF
    fi
    each_line "$QUEUES" q
    each_line "$THREADS" thread
    each_line "$CPUFREQ" gov
}
# ban: irqbalance leaves alone every IRQ pinned so far (what it has not banned yet), where asked.
ib_say() { log "$*"; }
ban() {
    case ${BAN:-} in
    1) ;;
    auto) ib_kind || return 0 ;;
    *) return 0 ;;
    esac
    # shellcheck disable=SC2086 # the numbers
    [ -z "$pinned" ] || [ -n "${CORESTEER_DRY:-}" ] || ban_irqs $pinned
}
# ensure_steering: coresteer's platform packet-steering script back in place where a firmware
# upgrade took it away (sysupgrade keeps /etc, not /usr): the new image's own board script, if
# it brought one, moves aside and runs first. Only where the steering service is; one run at a
# time, its lock in coresteer's own state directory.
ensure_steering() {
    es_p="$R/usr/libexec/platform/packet-steering.sh"
    es_b="$R/usr/libexec/platform/packet-steering.board.sh"
    [ -n "$STEERING" ] && [ -f "$R/etc/init.d/packet_steering" ] || return 0
    grep -q "$MARK" "$es_p" 2>/dev/null && return 0
    state_dir 2>/dev/null && mkdir "$D/steering" 2>/dev/null || return 0
    if ! grep -q "$MARK" "$es_p" 2>/dev/null && mkdir -p "${es_p%/*}" 2>/dev/null &&
        printf '%s' "$STEERING" >"$es_p.coresteer-new" 2>/dev/null &&
        chmod 755 "$es_p.coresteer-new"; then
        if [ -f "$es_p" ]; then mv -f "$es_p" "$es_b"; fi
        if mv -f "$es_p.coresteer-new" "$es_p"; then
            log "/usr/libexec/platform/packet-steering.sh put back in place (after a firmware upgrade); the firmware's own steering runs first"
        elif [ -f "$es_b" ] && [ ! -e "$es_p" ]; then
            mv -f "$es_b" "$es_p"
        fi
    fi
    rm -f "$es_p.coresteer-new"
    rmdir "$D/steering" 2>/dev/null
}
case ${ACTION:-add} in
add) ;;
*) exit 0 ;;
esac
ensure_steering
if [ -n "${INTERFACE:-}" ] && ! covered "$INTERFACE"; then
    exit 0
fi
apply_all
ban
wait_s=${CORESTEER_WAIT:-$WAIT}
if [ "$missing" -gt 0 ] && [ "$wait_s" -gt 0 ]; then
    # Drivers request their IRQs, and some create queues, only when the interface comes up,
    # after this event: look again every second for a while. One waiter at a time, its lock in
    # coresteer's own state directory (none when that is not safe to use).
    lock="$D/persist.wait"
    if state_dir 2>/dev/null && mkdir "$lock" 2>/dev/null; then
        waiter() {
            i=0
            while [ "$i" -lt "$wait_s" ]; do
                sleep 1
                i=$((i + 1))
                apply_all
                [ "$missing" -eq 0 ] && break
            done
            ban
            [ "$missing" -eq 0 ] || log "$missing IRQs or queues of the layout did not appear within $wait_s s"
            rmdir "$lock" 2>/dev/null
        }
        if [ "${CORESTEER_FOREGROUND:-0}" = 1 ]; then
            waiter
        else
            ( trap '' HUP; waiter ) </dev/null >/dev/null 2>&1 &
        fi
    fi
fi

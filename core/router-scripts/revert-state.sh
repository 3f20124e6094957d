# SPDX-FileCopyrightText: 2026 coresteer maintainers
# SPDX-License-Identifier: GPL-3.0-or-later
# shellcheck shell=sh
# revert-state.sh: the state of a runtime apply on the router, and the one way to read and change
# it. Sourced (as text) after common.sh and state-dir.sh by the apply, confirm and revert scripts, by `export
# ansible`'s apply, and by the revert job itself. POSIX sh: BusyBox ash, dash, bash.
#
# Input:  R, the root prefix: "" on a router, a fixture root in tests.
# State:  in D=$R/tmp/coresteer, once state_dir (state-dir.sh) has found it safe:
#           lock         flock's lock file; lock.d instead where there is no flock (a mkdir lock
#                        holding its owner's PID)
#           revert.new   the old values while an apply captures them
#           revert.data  "key<TAB>old value" per target: what a revert writes back
#           pending      "PID ID HH:MM:SS FROM" of the armed revert job, while one waits
#           revert.sh    the revert job: `/bin/sh $D/revert.sh ID SECONDS`
#           claimed      `pending`, once a confirm, a revert or the job has taken it
#           applying     "PID START" of the apply that holds the lock (see stop_apply)
# Keys:   a path under $R (proc/irq/N/smp_affinity, proc/irq/N/smp_affinity_list,
#         sys/class/net/IF/queues/rx-N/rps_cpus, .../rx-N/rps_flow_cnt, .../tx-N/xps_cpus,
#         proc/sys/net/core/rps_sock_flow_entries,
#         sys/devices/system/cpu/cpufreq/policyN/scaling_governor), napi:PID (a kernel thread's
#         CPUs, through taskset) or ethtool:IF:rx-usecs, ethtool:IF:rx-frames,
#         ethtool:IF:channels-combined (-rx, -tx: ethtool -L), ethtool:IF:rss (ethtool -X, a
#         spread as rss_ok takes it). restore writes nothing else, whatever revert.data says, and
#         writes in the reverse order of the apply: a spread goes back before the channel count
#         that it was made for, or after the count it needs.
# Exit statuses the callers give: 2 a revert time out of range, 3 unsafe or unwritable state,
# 4 an apply is pending.

# state_lock, state_lock_within SECONDS: one apply, confirm, revert or revert job at a time. flock where there is
# one (the kernel frees the lock when its holder ends); otherwise a mkdir lock, broken only when
# the process it names has ended. state_unlock, or the end of the shell, frees it. Then checks
# the state files (state_files): 1 when the lock or the check fails.
# Within SECONDS (the revert job), it waits no longer than that for an apply that holds the lock:
# it ends that apply (stop_apply) and goes on once it is gone, so a stalled apply, or one whose
# SSH connection died in the middle, is reverted all the same.
state_lock() {
    lock_state ''
}
state_lock_within() {
    lock_state "$1"
}
lock_state() {
    sl_max=$1
    sl_i=0
    if command -v flock >/dev/null 2>&1; then
        exec 9>>"$D/lock" || { say "cannot open $D/lock"; return 1; }
        if [ -z "$sl_max" ]; then
            flock 9 || { say "cannot lock $D/lock"; return 1; }
        else
            until flock -n 9; do
                sl_i=$((sl_i + 1))
                # Its children may hold the lock on after it: once it is gone, go on.
                if [ "$sl_i" -gt "$sl_max" ] && stop_apply; then break; fi
                sleep 1
            done
        fi
        state_files
        return
    fi
    sl_empty=0
    while ! mkdir "$D/lock.d" 2>/dev/null; do
        sl_pid=
        IFS= read -r sl_pid <"$D/lock.d/pid" 2>/dev/null
        if [ -z "$sl_pid" ]; then
            # Made a moment ago, its PID not written yet; or left so by a holder that died in
            # that moment.
            sl_empty=$((sl_empty + 1))
            [ "$sl_empty" -lt 30 ] || rm -rf "$D/lock.d"
        elif ! kill -0 "$sl_pid" 2>/dev/null; then
            rm -rf "$D/lock.d"
            continue
        fi
        sl_i=$((sl_i + 1))
        if [ -n "$sl_max" ] && [ "$sl_i" -gt "$sl_max" ]; then
            stop_apply # then the rule above breaks its lock
        fi
        sleep 1
    done
    echo "$$" >"$D/lock.d/pid"
    trap 'rm -rf "$D/lock.d"' EXIT
    state_files
}

# proc_start PID: the process's start time (field 22 of /proc/PID/stat), which tells it from a
# process that takes its PID later. 1 when there is no such process.
proc_start() {
    ps_line=
    IFS= read -r ps_line <"/proc/$1/stat" 2>/dev/null || return 1
    ps_line=${ps_line##*) }
    set -f
    # shellcheck disable=SC2086 # the fields after the command name
    set -- $ps_line
    set +f
    [ "$#" -ge 20 ] || return 1
    shift 19
    printf '%s' "$1"
}

# stop_apply: ends the apply that `applying` names (its PID and start time: never a process
# that took the PID since), and its process group where it leads one (sshd and dropbear start
# a session's shell so). 0 once that apply is gone; 1 when none is named.
stop_apply() {
    sa_pid=
    sa_start=
    read -r sa_pid sa_start <"$D/applying" 2>/dev/null
    digits "$sa_pid" && [ -n "$sa_start" ] || return 1
    [ "$(proc_start "$sa_pid")" = "$sa_start" ] || return 0
    kill -TERM "-$sa_pid" 2>/dev/null
    kill -TERM "$sa_pid" 2>/dev/null
    for _ in 1 2 3; do
        sleep 1
        [ "$(proc_start "$sa_pid")" = "$sa_start" ] || return 0
    done
    kill -KILL "-$sa_pid" 2>/dev/null
    kill -KILL "$sa_pid" 2>/dev/null
    return 0
}

state_unlock() {
    if [ -d "$D/lock.d" ]; then
        rm -rf "$D/lock.d"
        trap - EXIT
    else
        exec 9>&-
    fi
}

# begin_apply: how every apply starts: the state directory checked, the lock taken, no other apply
# pending, and an empty revert.new of this apply's own. Otherwise the exit status to stop with:
# 3, or 4 while another apply is pending.
begin_apply() {
    umask 077
    state_dir || return 3
    state_lock || return 3
    pending_check || return 4
    rm -f "$D/revert.new" "$D/applying"
    (
        set -C
        : >"$D/revert.new"
        printf '%s %s\n' "$$" "$(proc_start "$$")" >"$D/applying"
    ) || {
        say "cannot write $D/revert.new"
        return 3
    }
}

# end_apply: the apply is over (what begin_apply began).
end_apply() {
    rm -f "$D/applying"
    state_unlock
}

# pending_check: 0 when no revert waits; otherwise says which one does, and 1.
pending_check() {
    [ -e "$D/pending" ] || return 0
    pc_since=
    pc_from=
    read -r _ _ pc_since pc_from <"$D/pending" 2>/dev/null
    say "an apply is pending since ${pc_since:-an unknown time} from ${pc_from:-an unknown host}; confirm or revert it first"
    return 1
}

# key_ok KEY: a target coresteer sets, named as coresteer names it.
key_ok() {
    case $1 in
    napi:*)
        kthread "${1#napi:}"
        return
        ;;
    ethtool:*:rx-usecs | ethtool:*:rx-frames | ethtool:*:channels-combined | \
        ethtool:*:channels-rx | ethtool:*:channels-tx | ethtool:*:rss)
        ko_if=${1#ethtool:}
        ko_if=${ko_if%:*}
        case $ko_if in
        '' | . | .. | */* | *:*) return 1 ;;
        esac
        return 0
        ;;
    /* | */ | *//*) return 1 ;;
    esac
    set -f
    ko_ifs=$IFS
    IFS=/
    # shellcheck disable=SC2086 # split at the slashes
    set -- $1
    IFS=$ko_ifs
    set +f
    case $# in
    4)
        [ "$1/$2" = proc/irq ] && digits "$3" || return 1
        case $4 in
        smp_affinity | smp_affinity_list) return 0 ;;
        esac
        ;;
    5)
        [ "$1/$2/$3/$4/$5" = proc/sys/net/core/rps_sock_flow_entries ] && return 0
        [ "$1/$2/$3/$5" = sys/class/net/threaded ] || return 1
        case $4 in
        . | ..) return 1 ;;
        esac
        return 0
        ;;
    7)
        if [ "$1/$2/$3/$4/$5/$7" = sys/devices/system/cpu/cpufreq/scaling_governor ]; then
            case $6 in policy*) digits "${6#policy}" && return 0 ;; esac
            return 1
        fi
        [ "$1/$2/$3" = sys/class/net ] && [ "$5" = queues ] || return 1
        case $4 in
        . | ..) return 1 ;;
        esac
        case $6/$7 in
        rx-*/rps_cpus | rx-*/rps_flow_cnt) digits "${6#rx-}" && return 0 ;;
        tx-*/xps_cpus) digits "${6#tx-}" && return 0 ;;
        esac
        ;;
    esac
    return 1
}

# value_ok KEY VALUE: a mask, CPU list or number, as the kernel prints them; for a governor, its
# name (lower-case letters, digits, '_' and '-'); for threaded NAPI, 0 or 1.
value_ok() {
    case $1 in
    ethtool:*:rss)
        rss_ok "$2"
        return
        ;;
    ethtool:*)
        digits "$2"
        return
        ;;
    */threaded)
        case $2 in
        0 | 1) return 0 ;;
        esac
        return 1
        ;;
    */scaling_governor)
        case $2 in
        '' | *[!0-9a-z_-]*) return 1 ;;
        esac
        [ "${#2}" -le 32 ]
        return
        ;;
    esac
    case $2 in
    '' | *[!0-9a-fA-F,-]*) return 1 ;;
    esac
    [ "${#2}" -le 8192 ]
}

# getv KEY: the current value into $v. napi:* and ethtool:* exist only on the live root.
getv() {
    v=
    case $1 in
    napi:*)
        [ -z "$R" ] && kthread "${1#napi:}" || return 1
        v=$(sed -n 's/^Cpus_allowed:[[:space:]]*//p' "/proc/${1#napi:}/status" 2>/dev/null)
        ;;
    ethtool:*)
        [ -z "$R" ] || return 1
        gv_k=${1#ethtool:}
        case ${gv_k##*:} in
        rx-usecs) v=$(ethtool -c "${gv_k%:*}" 2>/dev/null | sed -n 's/^rx-usecs:[[:space:]]*//p') ;;
        rx-frames) v=$(ethtool -c "${gv_k%:*}" 2>/dev/null | sed -n 's/^rx-frames:[[:space:]]*//p') ;;
        channels-*)
            channels_now "${gv_k%:*}" "${gv_k##*:channels-}"
            # shellcheck disable=SC2154 # cn: channels_now's answer (common.sh)
            v=$cn
            ;;
        rss)
            rss_now "${gv_k%:*}"
            # shellcheck disable=SC2154 # rn: rss_now's answer (common.sh)
            v=$rn
            [ -n "$v" ]
            return
            ;;
        *) return 1 ;;
        esac
        # A parameter the driver does not take ("n/a") has no value to restore.
        case $v in '' | *[!0-9]*) return 1 ;; esac
        ;;
    *) IFS= read -r v <"$R/$1" 2>/dev/null ;;
    esac
    [ -n "$v" ]
}

# setv KEY VALUE: writes; the reason on stderr when it fails.
setv() {
    case $1 in
    napi:* | ethtool:*)
        if [ -n "$R" ]; then
            echo "only on the live root (/), not under $R" >&2
            return 1
        fi
        ;;
    esac
    case $1 in
    napi:*)
        if ! kthread "${1#napi:}"; then
            echo "process ${1#napi:} is not a kernel thread: not found" >&2
            return 1
        fi
        taskset -p "$(printf '%s' "$2" | tr -d ,)" "${1#napi:}" >/dev/null
        ;;
    ethtool:*:channels-*)
        sv_k=${1#ethtool:}
        if ! digits "$2"; then
            echo "not a number: $2" >&2
            return 1
        fi
        if ! sv_e=$(ethtool -L "${sv_k%:*}" "${sv_k##*:channels-}" "$2" 2>&1); then
            case $sv_e in
            *unmodified* | *"no channel parameters changed"*) ;;
            *)
                printf '%s\n' "$sv_e" >&2
                return 1
                ;;
            esac
        fi
        ;;
    ethtool:*:rss)
        sv_k=${1#ethtool:}
        if ! rss_ok "$2"; then
            echo "not a spread coresteer sets: $2" >&2
            return 1
        fi
        set -f
        # shellcheck disable=SC2086 # the spread's words: "equal 4"
        sv_e=$(ethtool -X "${sv_k%:*}" $2 2>&1)
        sv_s=$?
        set +f
        if [ "$sv_s" -ne 0 ]; then
            printf '%s\n' "$sv_e" >&2
            return 1
        fi
        ;;
    ethtool:*)
        sv_k=${1#ethtool:}
        case ${sv_k##*:}:$2 in
        rx-usecs:* | rx-frames:*) ;;
        *)
            echo "not a coalescing parameter coresteer sets: ${sv_k##*:}" >&2
            return 1
            ;;
        esac
        case $2 in
        '' | *[!0-9]*)
            echo "not a number: $2" >&2
            return 1
            ;;
        esac
        if ! sv_e=$(ethtool -C "${sv_k%:*}" "${sv_k##*:}" "$2" 2>&1); then
            case $sv_e in
            *unmodified* | *"no coalesce parameters changed"*) ;;
            *)
                printf '%s\n' "$sv_e" >&2
                return 1
                ;;
            esac
        fi
        ;;
    # echo, not printf: BusyBox ash's printf fails a refused write without saying why.
    *) echo "$2" >"$R/$1" ;;
    esac
}

# restore: writes back every old value of revert.data that is one coresteer sets; says which
# lines it left alone.
restore() {
    [ -f "$D/revert.data" ] && [ ! -L "$D/revert.data" ] || return 0
    # Last line first, each with its line number.
    awk '{ l[NR] = $0 } END { for (i = NR; i > 0; i--) print i "\t" l[i] }' "$D/revert.data" |
    while IFS="$TAB" read -r rs_n rs_p rs_v; do
        [ -n "$rs_p" ] || continue
        if ! key_ok "$rs_p" || ! value_ok "$rs_p" "$rs_v"; then
            say "revert.data line $rs_n is not a value coresteer sets: left alone"
            continue
        fi
        setv "$rs_p" "$rs_v" >/dev/null 2>&1
    done
}

# from: where this apply came from, for the message a second apply gets.
from() {
    if [ -n "${SSH_CLIENT:-}" ]; then
        printf '%s' "${SSH_CLIENT%% *}"
    else
        printf 'this router'
    fi
}

# revert_time SECONDS: whole seconds from 5 to 86400, or 2 with the reason.
revert_time() {
    if ! digits "$1" || [ "$1" -lt 5 ] || [ "$1" -gt 86400 ]; then
        say "the revert time must be 5 to 86400 seconds, not '$1'"
        return 2
    fi
}

# arm ID SECONDS: starts the revert job, once revert.data holds every old value, and records it
# in `pending`. $REVERT_JOB is the job's text.
arm() {
    revert_time "$2" || return 2
    rm -f "$D/revert.sh" "$D/pending" "$D/claimed"
    (
        set -C
        printf '%s\n' "$REVERT_JOB" >"$D/revert.sh"
    ) || return 3
    /bin/sh "$D/revert.sh" "$1" "$2" 9>&- </dev/null >/dev/null 2>&1 &
    ar_pid=$!
    if ! (
        set -C
        printf '%s %s %s %s\n' "$ar_pid" "$1" "$(date +%H:%M:%S)" "$(from)" >"$D/pending"
    ); then
        kill "$ar_pid" 2>/dev/null
        return 3
    fi
}

# job_ours PID ID: the process is the revert job armed as ID (and not a process that took its
# PID since).
job_ours() {
    digits "$1" || return 1
    case $2 in
    '' | *[!0-9A-Za-z_.-]*) return 1 ;;
    esac
    jo_c=$(tr '\0' ' ' <"/proc/$1/cmdline" 2>/dev/null) || return 1
    case $jo_c in
    "/bin/sh $D/revert.sh $2 "*) return 0 ;;
    esac
    return 1
}

# claim: takes `pending` for the caller and ends the revert job it names, when that PID is the
# job. 1 when no revert waits.
claim() {
    [ -f "$D/pending" ] || return 1
    cl_pid=
    cl_id=
    read -r cl_pid cl_id _ <"$D/pending" 2>/dev/null
    mv -f "$D/pending" "$D/claimed" || return 1
    if job_ours "$cl_pid" "$cl_id"; then
        kill "$cl_pid" 2>/dev/null
    fi
    return 0
}

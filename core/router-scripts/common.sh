# SPDX-FileCopyrightText: 2026 coresteer maintainers
# SPDX-License-Identifier: GPL-3.0-or-later
# shellcheck shell=sh
# common.sh: small helpers every router script of coresteer's that keeps state starts with.
# POSIX sh: BusyBox ash, dash, bash. Defines TAB and NL, and:
#   say MESSAGE   the message on stderr, as "coresteer: MESSAGE"
#   digits WORD   0 when WORD is a decimal number of at most 10 digits
#   status_field FILE FIELD
#                 the first word of a /proc/PID/status field, into $sf
#   each_line TEXT FUNCTION
#                 FUNCTION with the tab-separated fields of every line of TEXT, in order; no fork
#   kthread PID   0 when the process is a kernel thread (its parent is kthreadd, PID 2): a user
#                 process may call itself "napi/eth0-8193", only the kernel's threads have PPid 2
#   channels_now IF KIND
#                 the current count of KIND (combined, rx, tx) channels of IF, from `ethtool -l`,
#                 into $cn (empty where the driver has none)
#   rss_now IF [WANT]
#                 the spread of IF's RSS indirection table (`ethtool -x`, through RSS_SPEC, the
#                 awk of rss-spec.awk, which the script sets before this one), into $rn: "same"
#                 when WANT gives that table; empty where no spread gives it
#   rss_ok SPREAD 0 for "default", "equal N" or "weight N ...": the arguments of ethtool -X
#                 coresteer writes

# shellcheck disable=SC2034 # for the scripts that come after this one
TAB='	'
# shellcheck disable=SC2034
NL='
'

say() {
    printf 'coresteer: %s\n' "$*" >&2
}

digits() {
    case $1 in
    '' | *[!0-9]*) return 1 ;;
    esac
    [ "${#1}" -le 10 ]
}

# status_field FILE FIELD: the first word of FIELD's value in a /proc/PID/status FILE, into $sf.
# Read by the shell itself: no fork, nothing from PATH.
status_field() {
    sf=
    while IFS=: read -r sf_k sf_v; do
        if [ "$sf_k" = "$2" ]; then
            set -f
            # shellcheck disable=SC2086 # the value's words
            set -- $sf_v
            set +f
            sf=${1:-}
            return 0
        fi
    done <"$1" 2>/dev/null
    return 1
}

# kthread PID: the process is a kernel thread (its parent is kthreadd, PID 2).
kthread() {
    digits "$1" && status_field "/proc/$1/status" PPid && [ "$sf" = 2 ]
}

each_line() {
    el_rest=$1
    el_fn=$2
    while [ -n "$el_rest" ]; do
        el_line=${el_rest%%"$NL"*}
        el_rest=${el_rest#"$el_line"}
        el_rest=${el_rest#"$NL"}
        [ -n "$el_line" ] || continue
        el_ifs=$IFS
        IFS=$TAB
        set -f
        # shellcheck disable=SC2086 # the fields of the line
        set -- $el_line
        IFS=$el_ifs
        set +f
        "$el_fn" "$@"
    done
}

channels_now() {
    case $2 in
    combined) cn_k=Combined ;;
    rx) cn_k=RX ;;
    tx) cn_k=TX ;;
    *) return 1 ;;
    esac
    cn=$(ethtool -l "$1" 2>/dev/null | sed -n "/^Current hardware settings:/,\$ s/^$cn_k:[[:space:]]*//p")
    digits "$cn" || cn=
}

rss_now() {
    rn=$(ethtool -x "$1" 2>/dev/null | awk -v want="${2:-}" "$RSS_SPEC") || rn=
}

rss_ok() {
    case $1 in
    default) return 0 ;;
    'equal '*) digits "${1#equal }" && return 0 ;;
    'weight '*)
        ro_w=${1#weight }
        case $ro_w in '' | ' '* | *' ' | *'  '* | *[!0-9\ ]*) return 1 ;; esac
        [ "${#1}" -le 32768 ]
        return
        ;;
    esac
    return 1
}

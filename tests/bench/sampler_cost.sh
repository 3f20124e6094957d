#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 coresteer maintainers
# SPDX-License-Identifier: GPL-3.0-or-later
# What watching costs the router: the CPU time of the whole server-side SSH session (the sshd or
# dropbear process for the connection and everything it runs), connect excluded, for
#   - coresteer-cli monitor at 10 Hz (one awk over one channel), with the mawk it prefers where
#     there is one (Debian, most x86 routers): every file by its lines, only changed lines sent,
#   - the same sampler command under BusyBox awk, as OpenWrt runs it (a PATH where `awk` is
#     BusyBox and there is no mawk), paced at 10 Hz by lines from the client as the monitor does
#     (every tenth asks for every file, the others for /proc/stat alone): each file read whole,
#     and sent whole when it changed,
# each against htop -d 1 over ssh -tt (htop refreshing 10 times a second: what people watch with
# today), on the test sshd and dropbear on 127.0.0.1, sampling this machine's own /proc. The
# sampler reads every file on one tick in ten and /proc/stat alone on the others (not even the
# uptime: the client dates those ticks), as the monitor asks (stream.h). Target: the monitor at most 0.1 x htop, under either awk (docs/testing.md:
# the transport floor alone takes 0.06-0.07). Prints the figures and the bytes per sample.
#
# Each workload runs in turns with its own htop session: one second the workload runs and htop
# is stopped (SIGSTOP on the server), the next second htop runs and the workload is stopped
# (SIGSTOP on its client; the client skips the ticks it missed, so nothing comes in a burst),
# 15 turns each (--turns N), 15 s of steady state for each side. On a virtual machine the host's other load
# shows up as CPU time of whichever process runs, and it comes and goes over tens of seconds
# (seen here: a `cat` floor from 0.2% to 2.5% of a core, a sampler from 0.56% to 2.4%, between
# windows a minute apart). Adjacent seconds see the same host, so each turn gives a ratio of its
# own, and the median of the turns is the figure the target is checked against; nothing runs beside
# anything else, so neither pays for the other's cache misses.
# With --candidates it also measures the other way for BusyBox awk: every file by its lines and
# only the changed lines sent (fewer bytes, more work per line), which the sampler does not use;
# and tests/bench/proc_reader in place of the awk: it reads the five files each tick and does
# nothing else, the floor under any sampler; the same reading /proc/stat alone, the floor
# under per-core load at 10 Hz with nothing else on screen; and a tick that carries nothing, a
# line sent every 100 ms to a remote `cat` (the transport floor).
# With --rounds N every workload is measured N times, taking turns, and the last rows per server
# give the medians.
# The servers (and so every session) run on CPU 0 and the clients on CPU 1, where there are two:
# a router and the machine watching it are two machines, and the client's work (decoding and
# rating each tick) must not slow the server by sharing its core. The ticks of the rows other
# than the monitor come from one process that sleeps between them (a shell loop would fork a
# `sleep` per tick on the client's CPU, which here made the server's figures lower).
#   tests/bench/sampler_cost.sh [BUILD_DIR] [--candidates] [--rounds N] [--turns N]
set -euo pipefail
self=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
cd "$(dirname "$0")/../.."
build=build/dev candidates='' rounds=1 steady=15
while [ $# -gt 0 ]; do
    case $1 in
    --candidates) candidates=1 ;;
    --rounds)
        rounds=${2:-}
        shift
        ;;
    --turns)
        steady=${2:-}
        shift
        ;;
    -h | --help)
        sed -n '4,40p' "$self"
        exit 0
        ;;
    -*) echo "sampler_cost.sh: unknown option $1 (--help)" >&2; exit 2 ;;
    *) build=$1 ;;
    esac
    shift
done
case $rounds in '' | *[!0-9]* | 0) echo "--rounds takes a count" >&2; exit 2 ;; esac
case $steady in '' | *[!0-9]* | 0) echo "--turns takes a count" >&2; exit 2 ;; esac
[ -x "$build/app/coresteer-cli" ] || { echo "sampler_cost.sh: no $build/app/coresteer-cli: build first" >&2; exit 2; }
dir=$PWD/$build/bench-sampler
cli=$PWD/$build/app/coresteer-cli
tests/ssh/servers.sh start "$dir" >/dev/null
cleanup() {
    local g
    # Every client group started, stopped or not (kill -CONT first: a stopped one would not go).
    if [ -f "$dir/groups" ]; then
        while read -r g; do
            { kill -CONT -- "-$g"; kill -TERM -- "-$g"; } 2>/dev/null || true
        done < "$dir/groups"
    fi
    tests/ssh/servers.sh stop "$dir"
}
trap cleanup EXIT
rm -f "$dir/groups"
# shellcheck disable=SC1091 # written at run time by tests/ssh/servers.sh start
. "$dir/env"
# The sampler's command with BusyBox as the only awk (in a directory the test user can read).
bb=$dir/busybox-awk
mkdir -p "$bb"
ln -sf "$(command -v busybox)" "$bb/awk"
chmod 755 "$dir" "$bb"
printf 'PATH=%s; %s\n' "$bb" "$("$PWD/$build/tests/bench/sampler_command" /)" > "$dir/sampler.cmd"
printf 'PATH=%s; %s\n' "$bb" "$("$PWD/$build/tests/bench/sampler_command" / 0)" \
    > "$dir/sampler-lines.cmd"
# A line every 100 ms, on time, from one process. With "tiered", as the monitor asks: every
# file on the first tick and on every tenth, /proc/stat alone ("s") on the others.
cat > "$dir/ticker.pl" <<'PERL'
use Time::HiRes qw(time sleep);
$| = 1;
my $t = time;
my $tiered = @ARGV && $ARGV[0] eq 'tiered';
my $n = 0;
# Ticks missed while stopped are skipped, as the monitor skips them.
while (1) {
    $t += 0.1; my $d = $t - time; $t = time if $d < -0.1; sleep($d) if $d > 0;
    print $tiered && $n++ % 10 ? "s\n" : "\n";
}
PERL
ticker="perl $dir/ticker.pl"
cp "$PWD/$build/tests/bench/proc_reader" "$dir/proc_reader"
chmod 755 "$dir/proc_reader"
kh=$dir/bench_known_hosts
rm -f "$kh"
hz=$(getconf CLK_TCK)
client_cpu=
if [ "$(nproc)" -ge 2 ]; then
    taskset -p -c 0 "$(cat "$dir/sshd.pid")" >/dev/null
    taskset -p -c 0 "$(cat "$dir/dropbear.pid")" >/dev/null
    client_cpu="taskset -c 1"
    # This script too: it reads /proc every second while a session runs.
    taskset -p -c 1 $$ >/dev/null
fi
settle=0.3

# A process and all its descendants, as a list of PIDs.
tree_pids() {
    local c
    echo "$1"
    for c in $(pgrep -P "$1"); do tree_pids "$c"; done
}

# CPU time in microseconds of the processes given: the scheduler's own count for each
# (/proc/PID/schedstat, in ns: exact, where utime and stime are sampled at the timer tick, too
# coarse for a process that runs half a millisecond a tick) plus the children each has reaped
# (cutime + cstime, in clock ticks). Bash builtins only: it is read twice a second.
cpu_us() {
    local pid run s rest sum=0
    for pid in "$@"; do
        read -r run _ < "/proc/$pid/schedstat" 2>/dev/null || continue
        read -r s < "/proc/$pid/stat" 2>/dev/null || continue
        rest=${s##*) }
        # shellcheck disable=SC2086
        set -- $rest
        sum=$((sum + run / 1000 + (${14} + ${15}) * 1000000 / hz))
    done
    echo "$sum"
}

# The child of the server's master process that appeared since `before` (the session).
new_child() {
    local master=$1 before=$2 c
    for c in $(pgrep -P "$master"); do
        case " $before " in *" $c "*) ;; *) echo "$c"; return ;; esac
    done
}

# The median of its arguments (numbers, with or without a trailing %).
median() {
    printf '%s\n' "${@%\%}" | sort -g | awk '
        { v[NR] = $1 }
        END { m = int((NR + 1) / 2); x = NR % 2 ? v[m] : (v[m] + v[m + 1]) / 2
              printf(x == int(x) && index(v[1], ".") == 0 ? "%d" : "%.3f", x) }'
}

# Starts a command in the background in a process group of its own (so that one signal stops or
# resumes the whole client: ticker and ssh) and waits for its session under the server's
# master process. Sets started (the group) and session.
start_session() {
    local master=$1 before
    shift
    before=$(pgrep -P "$master" | tr '\n' ' ' || true)
    # shellcheck disable=SC2086 # client_cpu is empty or "taskset -c 1": its words are the command
    setsid $client_cpu "$@" > /dev/null 2>&1 &
    started=$!
    echo "$started" >> "$dir/groups" # for cleanup, should this script be stopped
    session=
    for _ in $(seq 50); do
        sleep 0.2
        session=$(new_child "$master" "$before")
        [ -z "$session" ] || return 0
    done
    echo "no session found for $*" >&2
    return 1
}

# The first process named NAME under process PID.
descendant() {
    local c
    for c in $(pgrep -P "$1"); do
        if [ "$(cat "/proc/$c/comm" 2>/dev/null)" = "$2" ]; then
            echo "$c"
            return 0
        fi
        descendant "$c" "$2" && return 0
    done
    return 1
}

# Stops a client (its whole group) and the session it started, and waits until the session is
# gone, so that the next one cannot be taken for it.
end_session() {
    local group=$1 sess=$2
    { kill -CONT -- "-$group"; kill -TERM -- "-$group"; } 2>/dev/null || true
    wait "$group" 2>/dev/null || true
    for _ in $(seq 50); do
        kill -0 "$sess" 2>/dev/null || break
        sleep 0.1
    done
}

# Measures a workload (the command given) against htop -d 1, in $steady turns (see the top):
# the workload runs, and after $settle s its CPU time is counted for one second; then it is
# stopped and htop runs, counted the same way, and is stopped. The settling leaves out what
# resuming costs (measured here: htop's second right after SIGCONT costs 5-17% more than one of
# its steady seconds) and lets the last tick of the side that stopped finish. Prints, as % of one
# core: the workload's mean, htop's mean, and the median of the turns' ratios.
measure() {
    local master=$1 htop_group htop_session htop_pid w_group w_session
    shift
    start_session "$master" sh -c "sleep 900 | exec ssh -tt ${ssh_opts[*]} \
        'TERM=xterm htop -d 1' > /dev/null 2>&1" || return 1
    htop_group=$started htop_session=$session
    for _ in $(seq 50); do
        htop_pid=$(descendant "$htop_session" htop || true)
        [ -z "$htop_pid" ] || break
        sleep 0.1
    done
    [ -n "$htop_pid" ] || { echo "htop did not start" >&2; return 1; }
    kill -STOP "$htop_pid"
    start_session "$master" "$@" || return 1
    w_group=$started w_session=$session
    sleep 2 # connected, and past the first ticks
    local wp hp k a b c d w0 w1 h0 h1 q wus=0 hus=0 ws=0 hs=0 turns=()
    # Nothing forks in steady state: the processes counted are known now.
    wp=$(tree_pids "$w_session" | tr '\n' ' ')
    hp=$(tree_pids "$htop_session" | tr '\n' ' ')
    for ((k = 0; k < steady; k++)); do
        kill -CONT -- "-$w_group"
        sleep "$settle"
        # shellcheck disable=SC2086
        w0=$(cpu_us $wp) a=$EPOCHREALTIME
        sleep 1
        # shellcheck disable=SC2086
        w1=$(cpu_us $wp) b=$EPOCHREALTIME
        kill -STOP -- "-$w_group"
        kill -CONT "$htop_pid"
        sleep "$settle"
        # shellcheck disable=SC2086
        h0=$(cpu_us $hp) c=$EPOCHREALTIME
        sleep 1
        # shellcheck disable=SC2086
        h1=$(cpu_us $hp) d=$EPOCHREALTIME
        kill -STOP "$htop_pid"
        read -r wus hus ws hs q < <(awk -v w="$((w1 - w0))" -v h="$((h1 - h0))" \
            -v a="$a" -v b="$b" -v c="$c" -v d="$d" -v W="$wus" -v H="$hus" -v WS="$ws" \
            -v HS="$hs" 'BEGIN { printf "%d %d %.6f %.6f %.4f\n", W + w, H + h, WS + b - a,
                HS + d - c, (h > 0 ? (w / (b - a)) / (h / (d - c)) : 0) }')
        turns+=("$q")
    done
    kill -CONT "$htop_pid" 2>/dev/null || true
    end_session "$w_group" "$w_session"
    end_session "$htop_group" "$htop_session"
    awk -v w="$wus" -v h="$hus" -v ws="$ws" -v hs="$hs" -v m="$(median "${turns[@]}")" \
        'BEGIN { printf "%.2f %.2f %s\n", w / 1e4 / ws, h / 1e4 / hs, m }'
}

# Bytes per tick of a sampler's output saved in FILE (a tick starts with "T <uptime>").
per_tick() {
    awk '/^T [-0-9]/ { n++ } END { printf "%.0f", n ? b / n : 0 }' b="$(wc -c < "$1")" "$1"
}

echo "server-side CPU of one SSH session, % of one core while it runs, in ${steady} one-second"
echo "turns with htop -d 1 in a session of its own (connect excluded); ratio = workload / htop,"
echo "the median of the turns' ratios (target <= 0.1 for the sampler); bytes per tick:"
fmt='%-9s %-9s %7s %7s %6s %7s\n'
# shellcheck disable=SC2059
printf "$fmt" server workload cpu htop ratio bytes
rows=() # "server workload cpu htop ratio bytes", every round
# A workload paced by the ticker, on the current server: the remote command given, its output
# to the file given.
ticked() {
    measure "$master" sh -c "$ticker ${3:-} | exec ssh ${ssh_opts[*]} $1 > '$2' 2>/dev/null"
}
# Column N of this server's rows for workload w.
rows_col() {
    printf '%s\n' "${rows[@]}" | awk -v s="$server" -v w="$w" -v n="$1" \
        '$1 == s && $2 == w { print $n }'
}
for server in sshd dropbear; do
    port=$CS_SSHD_PORT master=$(cat "$dir/sshd.pid")
    if [ "$server" = dropbear ]; then port=$CS_DROPBEAR_PORT master=$(cat "$dir/dropbear.pid"); fi
    target="ssh://$CS_SSH_USER@127.0.0.1:$port"
    "$cli" snapshot "$target" --known-hosts "$kh" --identity "$CS_CLIENT_KEY" \
        --accept-new-host-key >/dev/null 2>&1 || true
    ssh_opts=(-o BatchMode=yes -o UserKnownHostsFile="$kh" -o StrictHostKeyChecking=yes
              -o GlobalKnownHostsFile=/dev/null -F /dev/null -o IdentitiesOnly=yes
              -i "$CS_CLIENT_KEY" -p "$port" "$CS_SSH_USER@127.0.0.1")
    workloads=(mawk busybox)
    [ -z "$candidates" ] || workloads+=(bb-lines reader stat-only floor)
    for ((r = 1; r <= rounds; r++)); do
        for w in "${workloads[@]}"; do
            case $w in
            mawk)
                # The monitor's own count (printed when it stops): samples and bytes.
                read -r cpu htop ratio < <(measure "$master" sh -c "exec '$cli' monitor \
                    '$target' --known-hosts '$kh' --identity '$CS_CLIENT_KEY' --rate 10 \
                    --duration 0 > /dev/null 2> '$dir/monitor.err'")
                sleep 0.5
                read -r samples _ bytes _ < <(tail -1 "$dir/monitor.err" | tr -d ',') || true
                per=$(awk -v b="${bytes:-0}" -v n="${samples:-0}" \
                    'BEGIN { printf "%.0f", n ? b / n : 0 }')
                ;;
            busybox | bb-lines)
                f=sampler.cmd
                [ "$w" = busybox ] || f=sampler-lines.cmd
                read -r cpu htop ratio < <(ticked "\"\$(cat '$dir/$f')\"" "$dir/$w.out" tiered)
                per=$(per_tick "$dir/$w.out")
                ;;
            reader)
                read -r cpu htop ratio < <(ticked "'$dir/proc_reader'" /dev/null)
                per=400
                ;;
            stat-only)
                read -r cpu htop ratio < <(ticked "'$dir/proc_reader' /proc/stat" /dev/null)
                per=400
                ;;
            floor)
                read -r cpu htop ratio < <(ticked cat /dev/null)
                per=1
                ;;
            esac
            rows+=("$server $w $cpu $htop $ratio $per")
            # shellcheck disable=SC2059
            printf "$fmt" "$server" "$w" "$cpu%" "$htop%" "$ratio" "$per"
        done
    done
    if [ "$rounds" -gt 1 ]; then
        for w in "${workloads[@]}"; do
            # shellcheck disable=SC2046,SC2059
            printf "$fmt" "  median" "$w" "$(median $(rows_col 3))%" "$(median $(rows_col 4))%" \
                "$(median $(rows_col 5))" "$(median $(rows_col 6))"
        done
    fi
done
[ -z "$candidates" ] ||
    echo "(bb-lines: BusyBox awk sending changed lines; reader: no awk, the floor under any sampler;" \
        "stat-only: the same reading /proc/stat alone, the floor under per-core load at 10 Hz)"

#!/usr/bin/env bash
# What watching costs the router: the CPU time of the whole server-side SSH session (the sshd or
# dropbear process for the connection and everything it runs), over 15 s of steady state with
# the connect excluded, for
#   - coresteer-cli monitor at 10 Hz (one awk over one channel), with the mawk it prefers where
#     there is one (Debian, most x86 routers): every file by its lines, only changed lines sent,
#   - the same sampler command under BusyBox awk, as OpenWrt runs it (a PATH where `awk` is
#     BusyBox and there is no mawk), paced at 10 Hz by lines from the client as the monitor does:
#     each file read whole, and sent whole when it changed,
#   - htop -d 1 over ssh -tt (htop refreshing 10 times a second: what people watch with today),
#   - a tick that carries nothing: a line sent every 100 ms to a remote `cat` (the transport floor),
# on the test sshd and dropbear on 127.0.0.1, sampling this machine's own /proc. Target: the
# monitor at most 0.2 x htop, under either awk. Prints the figures and the bytes per sample.
# With --candidates it also measures the other way for BusyBox awk: every file by its lines and
# only the changed lines sent (fewer bytes, more work per line), which the sampler does not use;
# and tests/bench/proc_reader in place of the awk: it reads the five files each tick and does
# nothing else, the floor under any sampler.
# With --rounds N every figure is measured N times, the workloads taking turns (mawk, BusyBox,
# ..., htop, floor; then again), and the last rows per server give the median of each column and
# of each round's ratios: on a virtual machine whose host is busy a single 15 s figure can be
# off by half (seen here: the floor alone from 0.2% to 1.0% between two runs), and the turns
# spread that over every workload alike.
# The servers (and so every session) run on CPU 0 and the clients on CPU 1, where there are two:
# a router and the machine watching it are two machines, and the client's work (decoding and
# rating each tick) must not slow the server by sharing its core. The ticks of the rows other
# than the monitor come from one process that sleeps between them (a shell loop would fork a
# `sleep` per tick on the client's CPU, which here made the server's figures lower).
#   tests/bench/sampler_cost.sh [BUILD_DIR] [--candidates] [--rounds N]
set -euo pipefail
cd "$(dirname "$0")/../.."
build=build/dev candidates= rounds=1
while [ $# -gt 0 ]; do
    case $1 in
    --candidates) candidates=1 ;;
    --rounds)
        rounds=${2:-}
        shift
        ;;
    *) build=$1 ;;
    esac
    shift
done
case $rounds in '' | *[!0-9]* | 0) echo "--rounds takes a count" >&2; exit 2 ;; esac
dir=$PWD/$build/bench-sampler
cli=$PWD/$build/app/coresteer-cli
tests/ssh/servers.sh start "$dir" >/dev/null
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
    tests/ssh/servers.sh stop "$dir"
}
trap cleanup EXIT
. "$dir/env"
# The sampler's command with BusyBox as the only awk (in a directory the test user can read).
bb=$dir/busybox-awk
mkdir -p "$bb"
ln -sf "$(command -v busybox)" "$bb/awk"
chmod 755 "$dir" "$bb"
printf 'PATH=%s; %s\n' "$bb" "$("$PWD/$build/tests/bench/sampler_command" /)" > "$dir/sampler.cmd"
printf 'PATH=%s; %s\n' "$bb" "$("$PWD/$build/tests/bench/sampler_command" / 0)" \
    > "$dir/sampler-lines.cmd"
# A line every 100 ms, on time, from one process.
cat > "$dir/ticker.pl" <<'PERL'
use Time::HiRes qw(time sleep);
$| = 1;
my $t = time;
while (1) { $t += 0.1; my $d = $t - time; sleep($d) if $d > 0; print "\n"; }
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
steady=15

# CPU time in microseconds of a process and all its descendants: the scheduler's own count for
# each live process (/proc/PID/schedstat, in ns: exact, where utime and stime are sampled at
# the timer tick, too coarse for a process that runs half a millisecond a tick) plus the
# children each has reaped (cutime + cstime, in clock ticks).
tree_us() {
    local root=$1 f s rest pid run
    for f in /proc/[0-9]*/stat; do
        read -r s 2>/dev/null < "$f" || continue
        pid=${s%% *}
        read -r run _ < "/proc/$pid/schedstat" 2>/dev/null || continue
        rest=${s##*) }
        # shellcheck disable=SC2086
        set -- $rest
        echo "$pid $2 $run ${14} ${15}"
    done | awk -v r="$root" -v hz="$hz" '
        { pp[$1] = $2; t[$1] = $3 / 1000 + ($4 + $5) * 1e6 / hz }
        END {
            sum = 0
            for (p in pp) {
                q = p
                for (i = 0; i < 64 && q != "" && q != 0 && q != r; i++) q = pp[q]
                if (q == r) sum += t[p]
            }
            printf "%.0f\n", sum
        }'
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
              printf(x == int(x) && index(v[1], ".") == 0 ? "%d" : "%.2f", x) }'
}

# % of one core: CPU microseconds from $1 to $2 over the wall-clock seconds from $3 to $4.
pct() {
    awk -v a="$1" -v b="$2" -v x="$3" -v y="$4" 'BEGIN { printf "%.2f", (b - a) / 1e4 / (y - x) }'
}

# Runs a workload in the background, waits for its session, measures it for $steady s. Prints
# two figures, as % of one core: the mean over the whole window, and the median of its one-second
# slices (a second in which the host took the CPU away counts once, not with its whole weight).
measure() {
    local master=$1; shift
    local before session t0 t1 w0 w1 ta wa tb wb i slices=()
    before=$(pgrep -P "$master" | tr '\n' ' ' || true)
    $client_cpu "$@" 2>/dev/null &
    pids+=($!)
    local wl=$!
    sleep 3 # connected, and past the first tick
    for _ in 1 2 3 4 5; do
        session=$(new_child "$master" "$before")
        [ -z "$session" ] || break
        sleep 1
    done
    [ -n "$session" ] || { echo "no session found for $*" >&2; kill "$wl"; return 1; }
    t0=$(tree_us "$session") w0=$EPOCHREALTIME
    ta=$t0 wa=$w0
    for ((i = 0; i < steady; i++)); do
        sleep 1
        tb=$(tree_us "$session") wb=$EPOCHREALTIME
        slices+=("$(pct "$ta" "$tb" "$wa" "$wb")")
        ta=$tb wa=$wb
    done
    t1=$tb w1=$wb
    {
        pkill -TERM -P "$wl" || true
        kill "$wl" || true
        wait "$wl" || true
    } 2>/dev/null
    # The next workload starts only when this session is gone, so it cannot be taken for it.
    for _ in $(seq 50); do
        kill -0 "$session" 2>/dev/null || break
        sleep 0.1
    done
    echo "$(pct "$t0" "$t1" "$w0" "$w1") $(median "${slices[@]}")"
}

# Bytes per tick of a sampler's output saved in FILE (a tick starts with "T <uptime>").
per_tick() {
    awk '/^T [0-9]/ { n++ } END { printf "%.0f", n ? b / n : 0 }' b="$(wc -c < "$1")" "$1"
}
ratio() { awk -v m="$1" -v h="$2" 'BEGIN { printf "%.2f", (h > 0 ? m / h : 0) }'; }

echo "server-side CPU of one SSH session, % of one core, over ${steady} s (connect excluded),"
echo "and the sampler's bytes per tick:"
head='%-9s %7s %7s %7s %7s %6s %6s %7s %7s'
printf "$head" server mawk busybox htop floor ratio r-bb bytes b-bb
[ -z "$candidates" ] || printf ' %8s %6s %7s %7s %6s' bb-lines r-bbl b-bbl reader r-rd
echo
# One row: the server, then mawk busybox htop floor ratio r-bb bytes b-bb [bb-lines r-bbl b-bbl
# reader r-rd].
show() {
    local name=$1
    shift
    printf "$head" "$name" "$1%" "$2%" "$3%" "$4%" "$5" "$6" "$7" "$8"
    [ $# -le 8 ] || printf ' %8s %6s %7s %7s %6s' "$9%" "${10}" "${11}" "${12}%" "${13}"
    echo
}
# Sets row from the figures mawk busybox htop floor [bb-lines reader] and the bytes per tick.
make_row() {
    row=("$1" "$2" "$3" "$4" "$(ratio "$1" "$3")" "$(ratio "$2" "$3")" "${sizes[@]}")
    [ -z "$candidates" ] || row+=("$5" "$(ratio "$5" "$3")" "$lines" "$6" "$(ratio "$6" "$3")")
}
# Shows, under a label, the median of each column of the rows given (a row a word list).
show_medians() {
    local label=$1 c med=()
    shift
    for ((c = 1; c <= ${#row[@]}; c++)); do
        # shellcheck disable=SC2046
        med+=("$(median $(printf '%s\n' "$@" | cut -d' ' -f"$c"))")
    done
    show "$label" "${med[@]}"
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
    cols=() cols1=() # each round's rows: means over the window, and one-second medians
    for ((r = 1; r <= rounds; r++)); do
        read -r mon mon1 < <(measure "$master" sh -c "exec '$cli' monitor '$target' \
            --known-hosts '$kh' --identity '$CS_CLIENT_KEY' --rate 10 --duration 0 > /dev/null \
            2> '$dir/monitor.err'")
        read -r monbb monbb1 < <(measure "$master" sh -c "$ticker | exec ssh ${ssh_opts[*]} \
            \"\$(cat '$dir/sampler.cmd')\" > '$dir/busybox.out' 2>/dev/null")
        monbbl= reader= monbbl1= reader1=
        if [ -n "$candidates" ]; then
            read -r monbbl monbbl1 < <(measure "$master" sh -c "$ticker | exec ssh ${ssh_opts[*]} \
                \"\$(cat '$dir/sampler-lines.cmd')\" > '$dir/busybox-lines.out' 2>/dev/null")
            read -r reader reader1 < <(measure "$master" sh -c "$ticker | exec ssh ${ssh_opts[*]} \
                '$dir/proc_reader' > /dev/null 2>&1")
        fi
        read -r htop htop1 < <(measure "$master" sh -c "sleep 60 | exec ssh -tt ${ssh_opts[*]} \
            'TERM=xterm htop -d 1' > /dev/null 2>&1")
        read -r floor floor1 < <(measure "$master" sh -c "$ticker | exec ssh ${ssh_opts[*]} cat \
            > /dev/null 2>&1")
        # The monitor's own count (printed when it stops): samples and bytes from the router.
        sleep 0.5
        read -r samples _ bytes _ < <(tail -1 "$dir/monitor.err" | tr -d ',') || true
        per=$(awk -v b="${bytes:-0}" -v n="${samples:-0}" 'BEGIN { printf "%.0f", n ? b / n : 0 }')
        sizes=("$per" "$(per_tick "$dir/busybox.out")")
        [ -z "$candidates" ] || lines=$(per_tick "$dir/busybox-lines.out")
        # The row of the means over the window, then the row of the one-second medians.
        make_row "$mon" "$monbb" "$htop" "$floor" "$monbbl" "$reader"
        cols+=("${row[*]}")
        show "$server" "${row[@]}"
        make_row "$mon1" "$monbb1" "$htop1" "$floor1" "$monbbl1" "$reader1"
        cols1+=("${row[*]}")
        show "  1-s" "${row[@]}"
    done
    if [ "$rounds" -gt 1 ]; then
        show_medians "  median" "${cols[@]}"
        show_medians "  med 1-s" "${cols1[@]}"
    fi
done
echo "(ratio = sampler / htop, r-bb under BusyBox awk; target <= 0.2; a server's first row is the"
echo " mean over the window, its 1-s row the median of the window's one-second slices)"
[ -z "$candidates" ] || echo "(bb-lines: BusyBox awk sending changed lines; reader: no awk, the floor)"

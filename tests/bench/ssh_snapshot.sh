#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 coresteer maintainers
# SPDX-License-Identifier: GPL-3.0-or-later
# Wall time of `coresteer-cli snapshot ssh://...` for the NanoPi R6S fixture against
# `ssh ... true` to the same server, interleaved, on the test sshd and dropbear on 127.0.0.1.
# Prints medians, the ratio (target <= 1.3: one connection and one exec) and the bytes that
# crossed the loopback interface per run.
#   tests/bench/ssh_snapshot.sh [BUILD_DIR] [RUNS]
set -euo pipefail
case ${1:-} in
-h | --help) sed -n '4,8p' "$0"; exit 0 ;;
-*) echo "$0: unknown option $1 (--help)" >&2; exit 2 ;;
esac
cd "$(dirname "$0")/../.."
build=${1:-build/dev}
[ -x "$build/app/coresteer-cli" ] || { echo "no $build/app/coresteer-cli: build first" >&2; exit 2; }
runs=${2:-15}
dir=$PWD/$build/bench-ssh
cli=$PWD/$build/app/coresteer-cli
board=$PWD/tests/fixtures/boards/nanopi-r6s-openwrt
tests/ssh/servers.sh start "$dir" >/dev/null
trap 'tests/ssh/servers.sh stop "$dir"' EXIT
# shellcheck disable=SC1091 # written at run time by tests/ssh/servers.sh start
. "$dir/env"
kh=$dir/bench_known_hosts
rm -f "$kh"

lo_bytes() { awk '$1 == "lo:" { print $2 + $10 }' /proc/net/dev; }
now_ns() { date +%s%N; }
median() { sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

for server in sshd dropbear; do
    port=$CS_SSHD_PORT
    [ "$server" = dropbear ] && port=$CS_DROPBEAR_PORT
    # Both clients know the host key before timing starts.
    "$cli" snapshot "ssh://$CS_SSH_USER@127.0.0.1:$port" --root "$board" --known-hosts "$kh" \
        --identity "$CS_CLIENT_KEY" --accept-new-host-key >/dev/null 2>&1
    ssh_opts=(-o BatchMode=yes -o UserKnownHostsFile="$kh" -o StrictHostKeyChecking=yes
              -o GlobalKnownHostsFile=/dev/null -F /dev/null -o IdentitiesOnly=yes
              -i "$CS_CLIENT_KEY" -p "$port")
    : > "$dir/cs.t"; : > "$dir/ssh.t"; : > "$dir/cs.b"; : > "$dir/ssh.b"
    for _ in $(seq "$runs"); do
        b0=$(lo_bytes); t0=$(now_ns)
        "$cli" snapshot "ssh://$CS_SSH_USER@127.0.0.1:$port" --root "$board" --known-hosts "$kh" \
            --identity "$CS_CLIENT_KEY" --json >/dev/null
        t1=$(now_ns); b1=$(lo_bytes)
        ssh "${ssh_opts[@]}" "$CS_SSH_USER@127.0.0.1" true
        t2=$(now_ns); b2=$(lo_bytes)
        echo $(( (t1 - t0) / 1000 )) >> "$dir/cs.t"
        echo $(( (t2 - t1) / 1000 )) >> "$dir/ssh.t"
        echo $(( (b1 - b0) / 2 )) >> "$dir/cs.b"   # lo counts every byte twice (rx and tx)
        echo $(( (b2 - b1) / 2 )) >> "$dir/ssh.b"
    done
    cs=$(median < "$dir/cs.t"); sh=$(median < "$dir/ssh.t")
    csb=$(median < "$dir/cs.b"); shb=$(median < "$dir/ssh.b")
    ratio=$(awk -v a="$cs" -v b="$sh" 'BEGIN { printf "%.2f", a / b }')
    verdict=$(awk -v r="$ratio" 'BEGIN { print (r <= 1.3) ? "PASS" : "FAIL" }')
    printf '%-8s coresteer-cli snapshot: %6.1f ms median, %7d bytes | ssh true: %6.1f ms, %6d bytes | ratio %s (target <= 1.3: %s) over %d interleaved runs\n' \
        "$server" "$(awk -v v="$cs" 'BEGIN{print v/1000}')" "$csb" \
        "$(awk -v v="$sh" 'BEGIN{print v/1000}')" "$shb" "$ratio" "$verdict" "$runs"
done

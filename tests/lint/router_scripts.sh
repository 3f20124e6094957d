#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 coresteer maintainers
# SPDX-License-Identifier: GPL-3.0-or-later
# Every script coresteer runs on routers (core/router-scripts/*.sh): checked as POSIX sh, and
# parsed by BusyBox ash, OpenWrt's shell; every awk program parsed as POSIX awk. Exit 0 when
# every one passes.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
failed=0
scripts=(core/router-scripts/*.sh)
[ -e "${scripts[0]}" ] || { echo "no router scripts found"; exit 1; }
for f in "${scripts[@]}"; do
    if ! shellcheck --shell=sh --severity=style "$f"; then
        echo "FAILED shellcheck: $f"
        failed=$((failed + 1))
    fi
    if ! busybox ash -n "$f"; then
        echo "FAILED busybox ash -n: $f"
        failed=$((failed + 1))
    fi
done
# The awk programs: parsed as POSIX awk (gawk --posix parses and prints without running them);
# the behaviour tests run them under BusyBox awk and mawk.
awks=(core/router-scripts/*.awk)
for f in "${awks[@]}"; do
    if ! gawk --posix --pretty-print=/dev/null -f "$f"; then
        echo "FAILED gawk --posix: $f"
        failed=$((failed + 1))
    fi
done
echo "${#scripts[@]} router scripts and ${#awks[@]} awk programs checked, $failed failures"
[ "$failed" -eq 0 ]

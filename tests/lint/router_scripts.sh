#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 coresteer maintainers
# SPDX-License-Identifier: GPL-3.0-or-later
# Every script coresteer runs on routers (core/router-scripts/*.sh), checked as POSIX sh by
# shellcheck and parsed by BusyBox ash, OpenWrt's shell. Exit 0 when every one passes.
set -uo pipefail
cd "$(dirname "$0")/../.."
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
echo "${#scripts[@]} router scripts checked, $failed failures"
[ "$failed" -eq 0 ]

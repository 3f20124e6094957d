#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 coresteer maintainers
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds coresteer and starts it on its built-in demo router (a NanoPi R6S; nothing touches the
# network). ./run.sh --this-computer opens this machine's /proc and /sys instead, and a root
# directory opens that tree, e.g. ./run.sh tests/fixtures/boards/nanopi-r6s-openwrt
set -euo pipefail
cd "$(dirname "$0")"
. scripts/deps.sh
ensure_packages "${CORESTEER_BUILD_PACKAGES[@]}"
cmake --preset dev >/dev/null
cmake --build --preset dev --target coresteer coresteer-cli
if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ] && [ -z "${QT_QPA_PLATFORM:-}" ]; then
    echo "run.sh: no display (DISPLAY or WAYLAND_DISPLAY is not set). The command-line tool works" >&2
    echo "without one: build/dev/app/coresteer-cli snapshot --root /" >&2
    exit 1
fi
exec build/dev/app/coresteer "$@"

#!/usr/bin/env bash
# Builds coresteer and starts it on this machine's own /proc and /sys (read-only).
# Pass a root directory to show another tree, e.g. ./run.sh tests/fixtures/boards/nanopi-r6s-openwrt
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

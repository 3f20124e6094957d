#!/bin/sh
# SPDX-FileCopyrightText: 2026 coresteer maintainers
# SPDX-License-Identifier: GPL-3.0-or-later
# keyring_session.sh HOME COMMAND...: runs COMMAND in a D-Bus session of its own with a GNOME
# Keyring unlocked for it, whose files live under HOME (never the user's own keyring).
set -eu
home=$1
shift
rm -rf "$home"
mkdir -p "$home/data" "$home/config" "$home/cache" "$home/runtime"
chmod 700 "$home/runtime"
export HOME="$home" XDG_DATA_HOME="$home/data" XDG_CONFIG_HOME="$home/config" \
    XDG_CACHE_HOME="$home/cache" XDG_RUNTIME_DIR="$home/runtime"
exec dbus-run-session -- sh -c '
    # A new login keyring, unlocked with this password, serving the Secret Service.
    printf "coresteer-test-keyring" | gnome-keyring-daemon --unlock --components=secrets >/dev/null
    exec "$@"' keyring-session "$@"

#!/bin/sh
# SPDX-FileCopyrightText: 2026 coresteer maintainers
# SPDX-License-Identifier: GPL-3.0-or-later
# A router's sampler gone wrong, for the SSH tests: servers.sh installs it as `mawk` and `awk`
# in a directory that only the sampler test key's forced command puts first on PATH, so
# coresteer's own sampler command runs unchanged and execs this instead of the real awk.
# The root it was given (CORESTEER_ROOT, exported by that command) says how it misbehaves:
#
#   */endless-tick    answers the first tick request with "T" and then lines under new keys,
#                     without end: the tick is never ended
#   */endless-ticks   answers it with whole ticks, without end, never asked for
read -r _ || exit 0
case $CORESTEER_ROOT in
*/endless-tick)
    printf 'T 1.00\n'
    exec /usr/bin/mawk 'BEGIN {
        f = sprintf("%1000s", ""); gsub(/ /, "7", f)
        for (n = 1; ; n++) printf "+i:%d\t%d: %s %s %s %s %s %s %s %s\n", n, n, f, f, f, f, f, f, f, f
    }' ;;
*/endless-ticks)
    exec /usr/bin/mawk 'BEGIN { for (n = 1; ; n++) printf "T %d.00\n+s:cpu\tcpu 1 2 3 4\nE\n", n }' ;;
esac
echo "fake_sampler.sh: no misbehaviour for root '$CORESTEER_ROOT'" >&2
exit 1

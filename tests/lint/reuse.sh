#!/bin/sh
# SPDX-FileCopyrightText: 2026 coresteer maintainers
# SPDX-License-Identifier: GPL-3.0-or-later
# Licensing of the tree: `reuse lint` (Debian's reuse) passes, and every source file, script
# and CMake file carries its own SPDX lines in its first lines (.reuse/dep5 covers only data,
# pictures and text that cannot carry a header). Run from anywhere; exit 1 with the reasons.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
status=0
if ! out=$(reuse lint 2>&1); then
    printf '%s\n' "$out"
    status=1
fi
missing=$(git ls-files -- '*.cpp' '*.h' '*.sh' '*.awk' '*.cmake' 'CMakeLists.txt' '*/CMakeLists.txt' \
    ':!tests/fixtures/*' ':!tests/router-vm/rootfs/*' | while IFS= read -r f; do
    head -n 5 -- "$f" | grep -q 'SPDX-License-Identifier:' || printf '%s\n' "$f"
done)
if [ -n "$missing" ]; then
    printf 'no SPDX-License-Identifier in the first lines of:\n%s\n' "$missing"
    status=1
fi
[ "$status" -ne 0 ] || echo "reuse lint: compliant; every source file has its SPDX lines"
exit "$status"

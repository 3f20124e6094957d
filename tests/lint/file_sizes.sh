#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 coresteer maintainers
# SPDX-License-Identifier: GPL-3.0-or-later
# No production source is over 600 lines: the C++ sources and headers (*.cpp, *.h) and the
# router scripts (*.sh, *.awk) under core/, cli/, ui/ and app/ (the tests are not held to it).
#   tests/lint/file_sizes.sh [SOURCE_DIR]
# Prints each file over the limit as "PATH: N lines (limit 600)"; exit 1 if there is one.
set -euo pipefail
cd "${1:-$(dirname "$0")/../..}"
limit=600
checked=0
over=0
while IFS= read -r -d '' f; do
    checked=$((checked + 1))
    # Lines as awk counts them: a last line without its newline counts too.
    n=$(awk 'END { print NR }' "$f")
    if [ "$n" -gt "$limit" ]; then
        echo "$f: $n lines (limit $limit)"
        over=$((over + 1))
    fi
done < <(find core cli ui app -type f \( -name '*.cpp' -o -name '*.h' -o -name '*.sh' -o -name '*.awk' \) \
    -print0 | sort -z)
[ "$checked" -gt 0 ] || { echo "no production sources found under core/, cli/, ui/, app/ in $PWD"; exit 1; }
echo "$checked production files checked, $over over $limit lines"
[ "$over" -eq 0 ]

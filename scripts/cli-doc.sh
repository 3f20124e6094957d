#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 coresteer maintainers
# SPDX-License-Identifier: GPL-3.0-or-later
# docs/cli.md is the man page of coresteer-cli (resources/man/coresteer-cli.1) rendered as text:
# one source for both. `scripts/cli-doc.sh` writes it; `scripts/cli-doc.sh --check` fails when
# it is out of date (a test runs that).
set -euo pipefail
cd "$(dirname "$0")/.."
render() {
    echo "# coresteer-cli reference"
    echo
    echo "This is the man page (\`man coresteer-cli\` once installed), rendered by"
    echo "\`scripts/cli-doc.sh\` from \`resources/man/coresteer-cli.1\`."
    echo
    echo '```'
    LC_ALL=C.UTF-8 MANWIDTH=96 MAN_KEEP_FORMATTING=0 MANROFFOPT="-rHY=0" man -E UTF-8 -l resources/man/coresteer-cli.1 \
        2>/dev/null | col -bx | sed -e 's/[[:space:]]*$//'
    echo '```'
}
if [ "${1:-}" = --check ]; then
    if diff -u docs/cli.md <(render); then echo "docs/cli.md matches the man page"; else
        echo "docs/cli.md is out of date: run scripts/cli-doc.sh"; exit 1; fi
else
    render > docs/cli.md
fi

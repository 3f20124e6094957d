#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 coresteer maintainers
# SPDX-License-Identifier: GPL-3.0-or-later
# `cmake --install` into a scratch prefix: every file lands at its place, and the desktop file,
# the AppStream metadata, the man page and the bash completion pass their own validators.
#   tests/packaging/install_layout.sh BUILD_DIR SCRATCH_DIR
set -euo pipefail
build=$1
prefix=$2/prefix
rm -rf "$prefix"
cmake --install "$build" --prefix "$prefix" >/dev/null
id=io.github.coresteer.coresteer
fail=0
expect() {
    if [ -e "$prefix/$1" ]; then echo "ok: $1"; else echo "MISSING: $1"; fail=1; fi
}
expect bin/coresteer
expect bin/coresteer-cli
expect share/applications/$id.desktop
expect share/metainfo/$id.metainfo.xml
expect share/icons/hicolor/scalable/apps/$id.svg
expect share/man/man1/coresteer-cli.1
expect share/bash-completion/completions/coresteer-cli
expect share/coresteer/demo/nanopi-r6s.capture
expect share/coresteer/demo/r6s-demo-before.csrec
expect share/coresteer/demo/r6s-demo-after.csrec
n=$(find "$prefix/share/coresteer/presets" -name '*.json' | wc -l)
if [ "$n" -ge 6 ]; then echo "ok: $n presets"; else echo "MISSING: presets ($n)"; fail=1; fi

if desktop-file-validate "$prefix/share/applications/$id.desktop"; then
    echo "ok: desktop-file-validate"
else
    echo "FAILED: desktop-file-validate"
    fail=1
fi
appstreamcli validate --no-net --pedantic "$prefix/share/metainfo/$id.metainfo.xml" ||
    { echo "FAILED: appstreamcli validate"; fail=1; }
# The man page renders without a groff warning.
warnings=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -E UTF-8 -l \
    "$prefix/share/man/man1/coresteer-cli.1" 2>&1 >/dev/null || true)
if [ -z "$warnings" ]; then echo "ok: man page"; else echo "FAILED: man page: $warnings"; fail=1; fi
# The completion parses, and completes the commands and a verb's options.
bash -n "$prefix/share/bash-completion/completions/coresteer-cli"
out=$(bash -c '
    . /usr/share/bash-completion/bash_completion
    . "$1/share/bash-completion/completions/coresteer-cli"
    complete_line() {
        COMP_LINE=$1; COMP_POINT=${#1}; read -ra COMP_WORDS <<< "$1"; COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
        COMPREPLY=(); _coresteer_cli; echo "${COMPREPLY[*]}"
    }
    complete_line "coresteer-cli mon"
    complete_line "coresteer-cli monitor --re"
' _ "$prefix")
if [ "$(echo "$out" | sed -n 1p)" = monitor ] && echo "$out" | sed -n 2p | grep -qw -- --record; then
    echo "ok: bash completion"
else
    echo "FAILED: bash completion: $out"
    fail=1
fi
"$prefix/bin/coresteer-cli" --version
exit $fail

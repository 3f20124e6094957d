#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 coresteer maintainers
# SPDX-License-Identifier: GPL-3.0-or-later
# The project's own shell scripts (test.sh, run.sh, .ci/run, scripts/, tests/ and the emulated
# router's userland in tests/router-vm/rootfs): shellcheck, as the shell each one's shebang names
# (bash, or POSIX sh for sh, dash and ash), following what they source. A script is every file
# that git knows (tracked, or new and not ignored) that ends in .sh or starts with a shebang of
# sh or bash; a .sh without a shebang (a sourced file) names its shell by a `# shellcheck
# shell=bash` line in its first lines. Not here: tests/fixtures/ (data modelled on firmwares)
# and core/router-scripts/ (tests/lint/router_scripts.sh checks those for the router's shells).
# No blanket exclusions: a finding is fixed, or disabled on its own line with the reason.
#   tests/lint/shell_scripts.sh [SOURCE_DIR]
# Prints each script checked with its shell, and what shellcheck found; exit 1 on any finding.
set -euo pipefail
cd "${1:-$(dirname "$0")/../..}"

excluded() {
    case $1 in
    tests/fixtures/* | core/router-scripts/*) return 0 ;;
    esac
    return 1
}

# Every file of the tree: git's list (with new files not yet added), or without git, the files
# outside what .gitignore leaves out.
list_files() {
    if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
        git ls-files -z --cached --others --exclude-standard
    else
        find . \( -path ./.git -o -path ./build -o -path './build-*' -o -path ./.cache \) -prune \
            -o -type f -print0 | sed -z 's|^\./||'
    fi
}

# The shell a file's first line names ("bash" or "sh"), or its `# shellcheck shell=` line; the
# interpreter's name when it is another one; nothing when it names none.
shell_of() {
    local first="" words i interp
    IFS= read -r -n 256 first <"$1" || true
    if [[ $first == '#!'* ]]; then
        read -ra words <<<"${first#\#!}"
        interp=${words[0]:-}
        interp=${interp##*/}
        if [ "$interp" = env ]; then
            interp=
            for ((i = 1; i < ${#words[@]}; i++)); do
                case ${words[i]} in
                -* | *=*) ;;
                *) interp=${words[i]##*/}; break ;;
                esac
            done
        fi
    else
        interp=$(head -n 10 -- "$1" | sed -n 's/^#[[:space:]]*shellcheck[[:space:]].*shell=\([a-z]*\).*/\1/p' |
            head -n 1)
    fi
    case $interp in
    bash) echo bash ;;
    sh | dash | ash) echo sh ;;
    *) echo "$interp" ;;
    esac
}

scripts=()
shells=()
failures=()
while IFS= read -r -d '' f; do
    excluded "$f" && continue
    if [ ! -f "$f" ] || [ -L "$f" ]; then continue; fi
    shell=$(shell_of "$f")
    case $f in
    *.sh)
        case $shell in
        bash | sh) ;;
        '') failures+=("$f: no shebang, nor a '# shellcheck shell=' line: which shell runs it?"); continue ;;
        *) failures+=("$f: a .sh run by $shell, not by sh or bash"); continue ;;
        esac
        ;;
    *) [ "$shell" = bash ] || [ "$shell" = sh ] || continue ;;
    esac
    scripts+=("$f")
    shells+=("$shell")
done < <(list_files | sort -z)

[ "${#scripts[@]}" -gt 0 ] || { echo "no shell scripts found in $PWD"; exit 1; }
nbash=0
nsh=0
for i in "${!scripts[@]}"; do
    f=${scripts[i]}
    shell=${shells[i]}
    if [ "$shell" = bash ]; then nbash=$((nbash + 1)); else nsh=$((nsh + 1)); fi
    if out=$(shellcheck --norc --color=never --severity=style --shell="$shell" --external-sources \
        --source-path=SCRIPTDIR "$f" 2>&1); then
        printf 'ok (%s): %s\n' "$shell" "$f"
    else
        printf 'FAILED (%s): %s\n%s\n' "$shell" "$f" "$out"
        failures+=("$f: shellcheck --shell=$shell")
    fi
done
for f in "${failures[@]+"${failures[@]}"}"; do
    echo "failed: $f"
done
echo "${#scripts[@]} shell scripts checked ($nbash bash, $nsh sh), ${#failures[@]} failures"
[ "${#failures[@]}" -eq 0 ]

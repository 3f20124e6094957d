# SPDX-FileCopyrightText: 2026 coresteer maintainers
# SPDX-License-Identifier: GPL-3.0-or-later
# shellcheck shell=sh
# collect.sh: the functions of the collector script (collect_remote.h), which reads what a
# snapshot needs in one run: the walk over the collection spec's globs that follows these
# functions is made from the spec. Inputs: R (the root prefix), T (this run's token). Uses only
# cat, readlink, ethtool -c/-l/-x, tc or ip and builtins; names found on the router only ever live in double-quoted
# variables. Each entry is framed by the token (collect_remote.h says how):
#   hdr KIND PATH      an entry's header line
#   fin                its end
#   m PATTERN NAME     NAME matches one component of a pattern ("irq#": a number after "irq";
#                      "eth*": any name that starts "eth")
#   lsd PATH           a directory's names (D)
#   miss PATH QUIET    M for a path that is not there, unless QUIET is 1
#   cf PATH QUIET      a file through cat (F, then E with cat's status and message)
#   rf PATH QUIET      a small attribute through the shell's read (no fork)
#   lk PATH QUIET      a link's target (L); readlink runs for links only (a fork costs more
#                      than the rest of an entry)
#   dr PATH QUIET      a directory's listing, or M
#   ec NAME            `ethtool -c`, `-l` and `-x NAME` as the files ethtool/NAME/coalesce,
#                      .../channels and .../rxfh (the live root only)
#   cmd PATH COMMAND.. a command's answer as the file PATH (the live root only)
LC_ALL=C
export LC_ALL
NL='
'
hdr() { printf '%s %s %s\n' "$T" "$1" "$2"; }
fin() { printf '\n%s E\n' "$T"; }
m() {
    case $2 in .*|''|*"$NL"*) return 1 ;; esac
    case $1 in
    *'#') p=${1%?}
        case $2 in "$p"*) r=${2#"$p"}; case $r in ''|*[!0-9]*) return 1 ;; esac; return 0 ;; esac
        return 1 ;;
    *'*') p=${1%?}; case $2 in "$p"*) return 0 ;; esac; return 1 ;;
    esac
    [ "$1" = "$2" ]
}
lsd() {
    [ -d "$R/$1" ] || return 0
    hdr D "$1"
    for n in "$R/$1"/*; do
        [ -e "$n" ] || [ -L "$n" ] || continue
        n=${n##*/}
        case $n in *"$NL"*) continue ;; esac
        printf '%s\n' "$n"
    done
    fin
}
miss() { [ "$2" = 1 ] || { hdr M "$1"; fin; }; }
cf() {
    f="$R/$1"
    if [ ! -e "$f" ]; then miss "$1" "$2"; return 0; fi
    hdr F "$1"
    if [ -d "$f" ]; then printf '\n%s E 1 cat: %s: Is a directory\n' "$T" "$1"; return 0; fi
    { e=$(cat "$f" 2>&1 >&3); } 3>&1
    rc=$?
    e=${e%%"$NL"*}
    printf '\n%s E %s %s\n' "$T" "$rc" "$e"
}
rf() {
    f="$R/$1"
    if [ ! -e "$f" ]; then miss "$1" "$2"; return 0; fi
    hdr F "$1"
    if [ -d "$f" ]; then printf '\n%s E 1 read: %s: Is a directory\n' "$T" "$1"; return 0; fi
    if [ ! -r "$f" ]; then printf '\n%s E 1 read: %s: Permission denied\n' "$T" "$1"; return 0; fi
    l=
    while IFS= read -r l; do printf '%s\n' "$l"; l=; done < "$f"
    [ -n "$l" ] && printf '%s' "$l"
    fin
}
lk() {
    if [ -L "$R/$1" ] && t=$(readlink "$R/$1" 2>/dev/null); then hdr L "$1"; printf '%s' "$t"; fin
    else miss "$1" "$2"; fi
}
dr() { if [ -d "$R/$1" ]; then lsd "$1"; else miss "$1" "$2"; fi; }
cmd() {
    hdr F "$1"
    shift
    { e=$("$@" 2>&1 >&3); } 3>&1
    rc=$?
    e=${e%%"$NL"*}
    printf '\n%s E %s %s\n' "$T" "$rc" "$e"
}
ec() {
    case $1 in -*) return 0 ;; esac
    cmd "ethtool/$1/coalesce" ethtool -c "$1"
    cmd "ethtool/$1/channels" ethtool -l "$1"
    cmd "ethtool/$1/rxfh" ethtool -x "$1"
}

#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 coresteer maintainers
# SPDX-License-Identifier: GPL-3.0-or-later
# Every relative link and image of the documentation resolves: README.md, resources/README.md
# and docs/*.md. A link `[..](path)`, an image `![..](path)`, a reference `[..]: path` and an
# HTML `src=`/`href=` must name a file or folder that exists, relative to the doc (a leading /
# is the top of the tree); where it carries `#anchor` and names a markdown file (or nothing: the
# doc itself), that file must have a heading whose GitHub slug is the anchor. Links in code
# (fenced blocks, `code spans`) are text, not links; URLs with a scheme (https:, mailto:) are
# not checked. Prints `FILE:LINE: broken link TARGET` for each broken one and exits 1.
# Usage: doc_links.sh [SOURCE_DIR] (default: the tree this script is in).
set -euo pipefail
src=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$src"

# One pass over a markdown file: `A<TAB>anchor` for each heading (GitHub's slug: lower case,
# letters, digits, `-` and `_` kept, a space becomes `-`, the rest dropped; `-1`, `-2` for
# repeats) and each HTML id/name, `L<TAB>line<TAB>target` for each link. Bytes, not characters
# (LC_ALL=C): non-ASCII is kept as letters except the punctuation and symbol blocks.
# shellcheck disable=SC2016 # an awk program: its $ are awk's
scan='
BEGIN { for (i = 1; i < 256; i++) ord[sprintf("%c", i)] = i; fence = ""; span = 0; prev = "" }
function unique(s,   r) {
    r = s
    while (r in occ) { occ[s]++; r = s "-" occ[s] }
    occ[r] = 0
    return r
}
function slug(s,   out, i, n, c, b, b2, b3, t, a, drop) {
    while (match(s, /\[[^]]*\]\([^)]*\)/)) {
        t = substr(s, RSTART, RLENGTH); a = index(t, "](")
        s = substr(s, 1, RSTART - 1) substr(t, 2, a - 2) substr(s, RSTART + RLENGTH)
    }
    s = tolower(s); out = ""; n = length(s)
    for (i = 1; i <= n; i++) {
        c = substr(s, i, 1); b = ord[c]
        if (c ~ /[a-z0-9_-]/) out = out c
        else if (c == " ") out = out "-"
        else if (b < 128) continue
        else if (b >= 192 && b < 224) {
            b2 = ord[substr(s, i + 1, 1)]
            if (b == 194) {
                if (b2 == 170 || b2 == 178 || b2 == 179 || b2 == 181 || b2 == 185 || b2 == 186 ||
                    b2 >= 188 && b2 <= 190) out = out substr(s, i, 2)
            } else if (b == 195) {
                if (b2 >= 128 && b2 <= 158 && b2 != 151) out = out c sprintf("%c", b2 + 32)
                else if (b2 != 183 && b2 != 151) out = out substr(s, i, 2)
            } else out = out substr(s, i, 2)
            i += 1
        } else if (b >= 224 && b < 240) {
            b2 = ord[substr(s, i + 1, 1)]; b3 = ord[substr(s, i + 2, 1)]
            drop = b == 226 || (b == 227 && b2 == 128) ||
                   (b == 239 && b2 == 188 && (b3 <= 143 || b3 >= 154 && b3 <= 160 || b3 >= 187)) ||
                   (b == 239 && b2 == 189 && (b3 == 128 || b3 >= 155 && b3 <= 165))
            if (!drop) out = out substr(s, i, 3)
            i += 2
        } else if (b >= 240) {
            if (!(b == 240 && ord[substr(s, i + 1, 1)] == 159)) out = out substr(s, i, 4)
            i += 3
        } else out = out c
    }
    return out
}
function heading(h) {
    sub(/^[ \t]+/, "", h); sub(/[ \t]+#+[ \t]*$/, "", h); sub(/[ \t]+$/, "", h)
    if (h ~ /^#+$/) h = ""
    print "A\t" unique(slug(h))
}
function blanks(k,   r) { r = ""; while (k-- > 0) r = r " "; return r }
function mask(line,   out, i, j, k, n, c) {
    out = ""; n = length(line); i = 1
    while (i <= n) {
        c = substr(line, i, 1)
        if (c == "`") {
            k = 0; j = i
            while (j <= n && substr(line, j, 1) == "`") { k++; j++ }
            if (span == 0) span = k; else if (span == k) span = 0
            out = out blanks(k); i = j; continue
        }
        if (span) out = out " "
        else if (c == "\\" && i < n) { out = out "  "; i += 2; continue }
        else out = out c
        i++
    }
    return out
}
function link(t) {
    if (t != "") print "L\t" NR "\t" t
}
{
    line = $0; sub(/\r$/, "", line)
    if (fence != "") {
        t = line; sub(/^ ? ? ?/, "", t); sub(/[ \t]+$/, "", t)
        if (length(t) >= length(fence) && t ~ (substr(fence, 1, 1) == "`" ? "^`+$" : "^~+$")) fence = ""
        prev = ""; next
    }
    if (match(line, /^ ? ? ?(```+|~~~+)/)) {
        fence = substr(line, RSTART, RLENGTH); sub(/^ +/, "", fence); span = 0; prev = ""; next
    }
    if (line ~ /^[ \t]*$/) { span = 0; prev = ""; next }
    m = mask(line)
    if (m ~ /^ ? ? ?#+([ \t]|$)/ && m !~ /^ ? ? ?#######/) {
        h = line; sub(/^ ? ? ?#+/, "", h); heading(h); span = 0
    } else if (line ~ /^ ? ? ?(=+|-+)[ \t]*$/ && prev != "" && prev !~ /^ ? ? ?([-*+>|#]|[0-9]+[.)])/) {
        heading(prevraw)
    }
    rest = m
    while (match(rest, /(id|name)="[^"]*"/)) {
        t = substr(rest, RSTART, RLENGTH); sub(/^[a-z]+="/, "", t); print "A\t" substr(t, 1, length(t) - 1)
        rest = substr(rest, RSTART + RLENGTH)
    }
    rest = m
    while ((p = index(rest, "](")) > 0) {
        rest = substr(rest, p + 2)
        if (substr(rest, 1, 1) == "<") { e = index(rest, ">"); if (e > 2) link(substr(rest, 2, e - 2)) }
        else { match(rest, /^[^ \t)]*/); link(substr(rest, 1, RLENGTH)) }
    }
    if (match(m, /^ ? ? ?\[[^]]+\]:[ \t]*/)) {
        t = substr(m, RSTART + RLENGTH); sub(/[ \t].*$/, "", t); gsub(/^<|>$/, "", t); link(t)
    }
    rest = m
    while (match(rest, /(src|href)="[^"]*"/)) {
        t = substr(rest, RSTART, RLENGTH); sub(/^[a-z]+="/, "", t); link(substr(t, 1, length(t) - 1))
        rest = substr(rest, RSTART + RLENGTH)
    }
    prev = m; prevraw = line
}'

declare -A anchors=()
# The anchors of a markdown file, one per line with a newline either side, cached.
anchors_of() {
    if [[ -z ${anchors[$1]+set} ]]; then
        anchors[$1]=$'\n'$(LC_ALL=C awk "$scan" "$1" | sed -n 's/^A\t//p')$'\n'
    fi
}
urldecode() { printf '%b' "${1//%/\\x}"; }

docs=(README.md)
for f in resources/README.md docs/*.md; do
    if [[ -f $f ]]; then docs+=("$f"); fi
done
broken=0
checked=0
for doc in "${docs[@]}"; do
    dir=$(dirname "$doc")
    links=$(LC_ALL=C awk "$scan" "$doc" | sed -n 's/^L\t//p')
    while IFS=$'\t' read -r line target; do
        [[ -n $target ]] || continue
        case $target in [A-Za-z]*:*) [[ ${target%%:*} =~ ^[A-Za-z][A-Za-z0-9+.-]*$ ]] && continue ;; esac
        checked=$((checked + 1))
        path=${target%%#*}
        path=$(urldecode "${path%%\?*}")
        anchor=
        if [[ $target == *'#'* ]]; then anchor=$(urldecode "${target#*#}"); fi
        if [[ -z $path ]]; then
            file=$doc
        elif [[ $path == /* ]]; then
            file=.$path
        else
            file=$dir/$path
        fi
        ok=1
        if [[ ! -e $file ]]; then
            ok=0
        elif [[ -n $anchor && -f $file && $file == *.md ]]; then
            anchors_of "$file"
            [[ ${anchors[$file]} == *$'\n'"$anchor"$'\n'* ]] || ok=0
        fi
        if [[ $ok -eq 0 ]]; then
            printf '%s:%s: broken link %s\n' "$doc" "$line" "$target"
            broken=$((broken + 1))
        fi
    done <<<"$links"
done
if [[ $broken -gt 0 ]]; then
    echo "$broken broken links in the docs"
    exit 1
fi
echo "doc links: $checked relative links in ${#docs[@]} docs resolve"

# SPDX-FileCopyrightText: 2026 coresteer maintainers
# SPDX-License-Identifier: GPL-3.0-or-later
# find-irqs.awk: finds each wanted IRQ in /proc/interrupts by its first action name and its rank
# among the IRQs with that name in hwirq order, exactly as core/kernel/interrupts.cpp and
# core/layout/resolve.cpp do. POSIX awk (BusyBox, mawk, gawk).
# Input: the wanted targets on stdin ("-"), one "rank<TAB>mask<TAB>action" per line, then
# /proc/interrupts. Output: per target, in order, "ok<TAB>irq<TAB>mask" or
# "missing<TAB>rank<TAB>action".
FNR == NR { split($0, f, "\t"); w++; WR[w] = f[1] + 0; WM[w] = f[2]; WA[w] = f[3]; next }
FNR == 1 { ncpu = NF; next }
$1 ~ /^[0-9]+:$/ {
    irq = substr($1, 1, length($1) - 1) + 0
    i = 2; c = 0
    while (i <= NF && c < ncpu && $i ~ /^[0-9]+$/) { i++; c++ }
    n = 0
    for (j = i; j <= NF; j++) t[++n] = $j
    if (n == 0) next
    hw = 0; from = 0
    for (j = 1; j <= n && j <= 8 && !from; j++) {
        s = t[j]
        if (j > 1 && (s == "Level" || s == "Edge" || s ~ /^(Level|Edge)-/)) {
            if (j >= 3 && t[j - 1] ~ /^[0-9]+$/) hw = t[j - 1] + 0
            from = j + 1
        } else if (j > 1 && s ~ /^[0-9]+-(edge|fasteoi|level|simple|percpu|percpu_devid|bad)$/) {
            hw = substr(s, 1, index(s, "-") - 1) + 0
            from = j + 1
        } else if (j == 1 && s ~ /-(edge|fasteoi|level|simple|percpu|percpu_devid|bad)$/) {
            from = 2
        }
    }
    if (!from) {
        from = 2
        for (j = 2; j < n && j <= 6; j++) if (t[j] ~ /^[0-9]+$/) { hw = t[j] + 0; from = j + 1; break }
    }
    a = ""
    for (j = from; j <= n; j++) {
        s = t[j]
        if (s ~ /,$/) { a = a (a == "" ? "" : " ") substr(s, 1, length(s) - 1); break }
        a = a (a == "" ? "" : " ") s
    }
    if (a == "") next
    m = ++C[a]; H[a, m] = hw; I[a, m] = irq
}
END {
    for (a in C) {
        for (p = 2; p <= C[a]; p++) {
            h = H[a, p]; q = I[a, p]; j = p - 1
            while (j >= 1 && (H[a, j] > h || (H[a, j] == h && I[a, j] > q))) {
                H[a, j + 1] = H[a, j]; I[a, j + 1] = I[a, j]; j--
            }
            H[a, j + 1] = h; I[a, j + 1] = q
        }
    }
    for (x = 1; x <= w; x++) {
        a = WA[x]; r = WR[x] + 1
        if (r <= C[a]) printf "ok\t%d\t%s\n", I[a, r], WM[x]
        else printf "missing\t%d\t%s\n", WR[x], a
    }
}

# SPDX-FileCopyrightText: 2026 coresteer maintainers
# SPDX-License-Identifier: GPL-3.0-or-later
# rss-spec.awk: reads `ethtool -x IF` and prints the one spread ethtool sets that gives its RSS
# indirection table, as the arguments of `ethtool -X IF`: "default" (entry i to ring
# i % rings), else "equal N", else "weight W0 W1 ..." (for its contiguous runs: the runs'
# lengths over the shortest one's, rounded, times 1 to 64; else over their common divisor; else
# the lengths), as RssSpread::of does (core/model/snapshot_rss.cpp). Exit status 1, nothing
# printed, where there is no table or none of these gives it exactly (a revert could not put it
# back).
# With -v want=SPREAD (one of the three forms): prints "same" when that spread gives the table
# there is now, else the spread of the table as above.
# POSIX awk (BusyBox, mawk, gawk).

function gcd(a, b, x) {
    while (b) {
        x = a % b
        a = b
        b = x
    }
    return a
}

# fill(form, arg, count): the table that spread makes over n entries into f[] (count weights
# in wt[]); 0 where ethtool refuses it.
function fill(form, arg, count, i, j, p, s) {
    if (form == "default" || form == "equal") {
        if (arg < 1)
            return 0
        for (i = 0; i < n; i++)
            f[i] = i % arg
        return 1
    }
    s = 0
    for (j = 0; j < count; j++)
        s += wt[j]
    if (s < 1 || s > n)
        return 0
    j = -1
    p = 0
    for (i = 0; i < n; i++) {
        while (i >= int(n * p / s)) {
            j++
            if (j >= count)
                return 0
            p += wt[j]
        }
        f[i] = j
    }
    return 1
}

function same_table(i) {
    for (i = 0; i < n; i++)
        if (f[i] != t[i])
            return 0
    return 1
}

function weights_fit(out, j) {
    if (!fill("weight", 0, top + 1) || !same_table())
        return ""
    out = "weight"
    for (j = 0; j <= top; j++)
        out = out " " wt[j]
    return out
}

function spread(i, j, g, d, m, out, shortest) {
    if (rings > 0 && fill("default", rings, 0) && same_table())
        return "default"
    top = 0 # global: weights_fit reads it
    for (i = 0; i < n; i++)
        if (t[i] > top)
            top = t[i]
    if (fill("equal", top + 1, 0) && same_table())
        return "equal " (top + 1)
    for (i = 1; i < n; i++)
        if (t[i] < t[i - 1])
            return ""
    for (j = 0; j <= top; j++)
        c[j] = 0
    for (i = 0; i < n; i++)
        c[t[i]]++
    g = 0
    shortest = 0
    for (j = 0; j <= top; j++) {
        g = gcd(g, c[j])
        if (c[j] && (!shortest || c[j] < shortest))
            shortest = c[j]
    }
    for (m = 1; m <= 64; m++) {
        for (j = 0; j <= top; j++)
            wt[j] = int((2 * c[j] * m + shortest) / (2 * shortest))
        out = weights_fit()
        if (out != "")
            return out
    }
    for (d = g; d >= 1; d = (d == 1 ? 0 : 1)) {
        for (j = 0; j <= top; j++)
            wt[j] = c[j] / d
        out = weights_fit()
        if (out != "")
            return out
    }
    return ""
}

/^RX flow hash indirection table for / {
    rings = $(NF - 2)
    if (rings !~ /^[0-9]+$/)
        bad = 1
    rings += 0
    table = 1
    next
}
table && /^[ \t]*[0-9]+:/ {
    for (i = 2; i <= NF; i++) {
        if ($i !~ /^[0-9]+$/ || n >= 65536)
            bad = 1
        t[n++] = $i + 0
    }
    next
}
table && NF {
    table = 0
}
END {
    if (bad || n == 0)
        exit 1
    if (want != "") {
        k = split(want, w, " ")
        ok = 0
        if (w[1] == "default" && k == 1)
            ok = fill("default", rings, 0)
        else if (w[1] == "equal" && k == 2)
            ok = fill("equal", w[2] + 0, 0)
        else if (w[1] == "weight" && k >= 2) {
            for (j = 2; j <= k; j++)
                wt[j - 2] = w[j] + 0
            ok = fill("weight", 0, k - 1)
        }
        if (ok && same_table()) {
            print "same"
            exit 0
        }
    }
    s = spread()
    if (s == "")
        exit 1
    print s
}

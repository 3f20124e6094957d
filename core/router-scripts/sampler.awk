# SPDX-FileCopyrightText: 2026 coresteer maintainers
# SPDX-License-Identifier: GPL-3.0-or-later
# sampler.awk: the live sampler (stream.h).
# The router side of the live view: one awk for the whole session, one tick per line on its
# stdin. What a tick costs the router (tests/bench/sampler_cost.sh) is the kernel making the
# five files, sshd sending the result (about 17 us a kilobyte more, over loopback here), and
# the own work of the awk, where BusyBox awk (on OpenWrt) pays about 2000 instructions for every
# operation it runs, ten times mawk; looking at one line costs it 6 to 12 thousand. So:
#  - under an awk that honours RS (BusyBox, gawk), each file is read whole as one record (RS a
#    byte the files never hold: one getline a file, not one a line), cut with index() and
#    substr() to what the views use (/proc/stat up to its intr line, /proc/softirqs up to the
#    end of NET_RX, /proc/interrupts up to the rows of the architecture), and sent whole when it
#    is not what it was last tick, framed by its length: "F<source> <bytes>" and the bytes.
#    Per tick that is a few operations a file;
#  - a file longer than CORESTEER_WHOLE bytes (a server with dozens of cores) goes by its lines
#    from then on, because there the bytes cost more than the work; and so does every file
#    under mawk -W interactive, which reads files by lines whatever RS is (found out at the
#    start) and whose work per line is cheap. "F<source> 0" first, then: a line that is there
#    again unchanged costs one lookup, L?[line] = its key, one array per file, K[key] = its
#    line now; a changed or new line is sent whole, as "+key<tab>line"; a key can only have
#    gone when a new one came or the count of keyed lines changed, and only then are the keys
#    worked out for every line, each key gone sent as "-key".
# A tick line "s" asks for /proc/stat alone: softirqs, interrupts and net/dev are the costly
# files to make and read (tests/bench/sampler_cost.sh), and the client asks for them about once
# a second. Such a tick starts "T - s": the other counters are as the last whole tick read them,
# and there is no uptime either (opening a file is most of what such a tick costs the router):
# the client dates the tick by how far the CPUs' times in /proc/stat moved since the last tick
# that read the uptime (estimateUptime, sample.h).
# The C++ SampleEncoder (recordings) keeps the lines under the same keys, and sends the fields
# that changed: there the size of a file matters, and the CPU is this machine.
# No single quote in this file: the program goes to the router inside one (shellQuote).
function upd(L, k, line, text) {
    if (k in K) delete L[K[k]]
    else fresh = 1
    K[k] = line
    L[line] = k
    o = o "+" k "\t" text "\n"
}
function lead(s) {
    while (substr(s, 1, 1) == " ") s = substr(s, 2)
    return s
}
function key(s, line, no,    k, c) {
    if (s == "s") return substr(line, 1, 3) == "cpu" ? "s:" substr(line, 1, index(line, " ") - 1) : "."
    if (no == 1 && (s == "q" || s == "i")) return s ":H"
    if (s == "i") {
        k = lead(substr(line, 1, index(line, ":")))
        return index("0123456789", substr(k, 1, 1)) ? "i:" k : "."
    }
    if (s == "q") {
        k = lead(substr(line, 1, index(line, ":")))
        # (BLOCK follows NET_RX in every kernel: nothing after it is needed)
        return (k == "NET_RX:" || k == "NET_TX:") ? "q:" k : k == "BLOCK:" ? "." : ""
    }
    if (no <= 2) return ""
    c = index(line, ":")
    if (c == 0) return ""
    k = lead(substr(line, 1, c - 1))
    return (k == "" || index(k, " ") || index(k, "|")) ? "" : "n:" k
}
# A file longer than B, by its lines (the lines of the last tick are in L).
function lines(L, s, f,    line, no, k, nk) {
    if (B) RS = "\n"
    no = 0
    nk = 0
    fresh = 0
    while ((getline line < f) > 0) {
        no++
        if (line in L) { nk++; continue }
        k = key(s, line, no)
        if (k == ".") break
        if (k == "") continue
        nk++
        upd(L, k, line, s == "n" ? substr(k, 3) ": " substr(line, index(line, ":") + 1) : line)
    }
    close(f)
    if (fresh || nk != NK[s]) gone(L, s, f)
    NK[s] = nk
    if (B) RS = "\001"
}
# The file read again for its keys alone; each key of source s gone is sent as "-key".
function gone(L, s, f,    line, no, k, seen) {
    no = 0
    while ((getline line < f) > 0) {
        k = key(s, line, ++no)
        if (k == ".") break
        if (k != "") seen[k] = 1
    }
    close(f)
    for (k in K)
        if (substr(k, 1, 1) == s && !(k in seen)) {
            delete L[K[k]]
            delete K[k]
            o = o "-" k "\n"
        }
}
# Where the rows of the architecture in /proc/interrupts (NMI, LOC on x86; IPI0, Err on ARM: no
# view reads them, and the file by its lines leaves them out too) begin in its text x: a
# newline and the first such row up to its colon; "." when x has none. Found once: the kernel
# prints these rows, always the same, after the last numbered IRQ.
function arch(x,    n, a, k) {
    n = split(x, a, "\n")
    for (k = 2; k <= n; k++)
        if (a[k] != "" && key("i", a[k], k) == ".") return "\n" substr(a[k], 1, index(a[k], ":"))
    return "."
}
# A file as one record ("" when it cannot be read).
function whole(f,    x) {
    x = ""
    getline x < f
    close(f)
    return x
}
# Source s, whose file f was read whole into x and cut: sent whole if it changed, and from now
# on by its lines if it is longer than B.
function put(L, s, f, x) {
    if (x == W[s]) return
    if (length(x) > B) {
        big[s] = 1
        o = o "F" s " 0\n"
        return lines(L, s, f)
    }
    W[s] = x
    o = o "F" s " " length(x) "\n" x
}
BEGIN {
    R = ENVIRON["CORESTEER_ROOT"]
    if (R == "/") R = ""
    B = ENVIRON["CORESTEER_WHOLE"] + 0
    U = R "/proc/uptime"
    S = R "/proc/stat"
    Q = R "/proc/softirqs"
    I = R "/proc/interrupts"
    N = R "/proc/net/dev"
    # An awk that reads a file by lines whatever RS is (mawk -W interactive) sends every file
    # by its lines.
    RS = "\001"
    if (!index(whole(S), "\n")) B = 0
    RS = "\n"
}
{
    # Files are read whole, as one record: RS is a byte they never hold (until the next tick).
    if (B) RS = "\001"
    only = $0 == "s"
    if (only) o = "T - s\n"
    else if ((getline up < U) <= 0) {
        printf "X %s\n", U
        fflush()
        RS = "\n"
        next
    } else {
        close(U)
        o = "T " substr(up, 1, index(up, " ") - 1) "\n"
    }
    if ("s" in big) lines(LS, "s", S)
    else {
        x = whole(S)
        if (i = index(x, "\nintr")) x = substr(x, 1, i)
        put(LS, "s", S, x)
    }
    if (!only) {
        if ("q" in big) lines(LQ, "q", Q)
        else {
            x = whole(Q)
            if ((i = index(x, "NET_RX:")) && (j = index(substr(x, i), "\n"))) x = substr(x, 1, i + j - 1)
            put(LQ, "q", Q, x)
        }
        if ("i" in big) lines(LI, "i", I)
        else {
            x = whole(I)
            if (A == "" && x != "") A = arch(x)
            if (A != "." && (i = index(x, A))) x = substr(x, 1, i)
            put(LI, "i", I, x)
        }
        if ("n" in big) lines(LN, "n", N)
        else put(LN, "n", N, whole(N))
    }
    if (B) RS = "\n"
    # One write for the whole tick, so one SSH packet.
    printf "%s", o "E\n"
    fflush()
}

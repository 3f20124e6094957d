#include "core/live/stream.h"

#include "core/ssh/session.h"
#include "core/text.h"

#include <algorithm>

namespace coresteer {

namespace {

// The router's side of the live view: one awk for the whole session, one tick per line on its
// stdin. What it costs the router per tick is what it does per line of the files, and BusyBox
// awk (OpenWrt's) is about ten times slower per operation than mawk, so:
//  - a line that is there again unchanged costs one lookup: L?[line] = its key, one array per
//    file, for the lines of the last tick that carry a key; K[key] = its line now;
//  - a changed line is sent whole. Sending only its changed fields meant splitting it and its
//    last text and comparing them field by field: with half of the R6S's lines changing each
//    tick that cost BusyBox awk 1.8 ms a tick against 0.55 ms for whole lines, for 2.4 KB
//    instead of 0.9 KB, which costs sshd far less than the difference
//    (tests/bench/sampler_cost.sh measures the sampler under both awks);
//  - a key can only have gone when a new one came or the count of keyed lines changed: only
//    then are the files read a second time, for their keys alone, and each key gone is sent
//    as "-key".
// The C++ SampleEncoder (recordings) keeps the same lines under the same keys, and sends the
// fields that changed: there a file's size matters and the CPU is this machine's.
// No single quote in here: the program goes to the router inside one (shellQuote).
constexpr const char* kAwk = R"AWK(
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
        return (k == "NET_RX:" || k == "NET_TX:") ? "q:" k : ""
    }
    if (no <= 2) return ""
    c = index(line, ":")
    if (c == 0) return ""
    k = lead(substr(line, 1, c - 1))
    return (k == "" || index(k, " ") || index(k, "|")) ? "" : "n:" k
}
function rdq(f,    line, no, net, k) {
    no = 0
    net = 0
    while (net < 2 && (getline line < f) > 0) {
        if (line in LQ) {
            nk++
            if (++no > 1) net++
            continue
        }
        k = key("q", line, ++no)
        if (k == "") continue
        nk++
        if (no > 1) net++
        upd(LQ, k, line, line)
    }
    close(f)
}
# /proc/stat (s), /proc/interrupts (i), /proc/net/dev (n): a key per line up to the first "."
function rd(L, s, f,    line, no, k) {
    no = 0
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
}
# The keys of a file now (a second read, only when a key may have gone).
function keys(s, f,    line, no, k) {
    no = 0
    while ((getline line < f) > 0) {
        k = key(s, line, ++no)
        if (k == ".") break
        if (k != "") seen[k] = 1
    }
    close(f)
}
function gone(    k, s) {
    split("", seen)
    keys("s", R "/proc/stat")
    keys("q", R "/proc/softirqs")
    keys("i", R "/proc/interrupts")
    keys("n", R "/proc/net/dev")
    for (k in K)
        if (!(k in seen)) {
            s = substr(k, 1, 1)
            if (s == "s") delete LS[K[k]]
            else if (s == "q") delete LQ[K[k]]
            else if (s == "i") delete LI[K[k]]
            else delete LN[K[k]]
            delete K[k]
            o = o "-" k "\n"
        }
}
BEGIN { R = ENVIRON["CORESTEER_ROOT"]; if (R == "/") R = "" }
{
    f = R "/proc/uptime"
    if ((getline up < f) <= 0) {
        printf "X %s\n", f
        fflush()
        next
    }
    close(f)
    split(up, u, " ")
    o = "T " u[1] "\n"
    fresh = 0
    nk = 0
    rd(LS, "s", R "/proc/stat")
    rdq(R "/proc/softirqs")
    rd(LI, "i", R "/proc/interrupts")
    rd(LN, "n", R "/proc/net/dev")
    if (fresh || nk != lastnk) gone()
    lastnk = nk
    # One write for the whole tick, so one SSH packet.
    printf "%s", o "E\n"
    fflush()
}
)AWK";

} // namespace

std::string makeSamplerCommand(const std::string& root) {
    // mawk, where there is one, costs the router the least per tick (Debian always has it, even
    // when `awk` is gawk); it reads a pipe in blocks unless told -W interactive. Otherwise awk:
    // BusyBox's on OpenWrt. `command -v` is the shell's own: nothing forks before the exec.
    return "CORESTEER_ROOT=" + ssh::shellQuote(root) +
           "; export CORESTEER_ROOT; P=" + ssh::shellQuote(kAwk) +
           "; if command -v mawk >/dev/null 2>&1; then exec mawk -W interactive \"$P\"; fi; "
           "exec awk \"$P\"";
}

namespace {

// awk's split(s, f, " "): fields between runs of blanks, tabs and newlines.
std::vector<std::string> awkFields(std::string_view s) {
    std::vector<std::string> out;
    std::size_t i = 0;
    while (i < s.size()) {
        while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n'))
            ++i;
        const auto b = i;
        while (i < s.size() && s[i] != ' ' && s[i] != '\t' && s[i] != '\n')
            ++i;
        if (i > b)
            out.emplace_back(s.substr(b, i - b));
    }
    return out;
}

std::string_view lead(std::string_view s) {
    while (!s.empty() && s.front() == ' ')
        s.remove_prefix(1);
    return s;
}

} // namespace

void SampleEncoder::update(const std::string& key, std::string_view line, std::string& out) {
    m_seen[key] = true;
    auto it = m_lines.find(key);
    if (it != m_lines.end() && it->second.raw == line)
        return;
    auto fields = awkFields(line);
    if (it == m_lines.end() || it->second.fields.size() != fields.size()) {
        out += '+';
        out += key;
        out += '\t';
        out += line;
        out += '\n';
        m_lines[key] = Line{std::string(line), std::move(fields)};
        return;
    }
    Line& l = it->second;
    l.raw = std::string(line);
    std::string changes;
    for (std::size_t i = 0; i < fields.size(); ++i)
        if (l.fields[i] != fields[i]) {
            changes += ' ';
            changes += std::to_string(i + 1);
            changes += ':';
            changes += fields[i];
            l.fields[i] = std::move(fields[i]);
        }
    if (!changes.empty())
        out += '=' + key + '\t' + changes.substr(1) + '\n';
}

// The awk's rd(): which lines of a file are kept, and under which key.
void SampleEncoder::read(char source, std::string_view text, std::string& out) {
    const std::string src(1, source);
    int no = 0;
    text::LineReader lines(text);
    std::string_view line;
    while (lines.next(line)) {
        ++no;
        if (source == 's') {
            if (!text::startsWith(line, "cpu"))
                break;
            const auto sp = line.find(' ');
            update("s:" + std::string(line.substr(0, sp == line.npos ? 0 : sp)), line, out);
        } else if (no == 1 && (source == 'q' || source == 'i')) {
            update(src + ":H", line, out);
        } else if (source == 'i') {
            const auto c = line.find(':');
            const auto k = lead(line.substr(0, c == line.npos ? 0 : c + 1));
            if (k.empty() || !text::isDigit(k.front()))
                break; // the architecture's rows follow the numbered IRQs
            update("i:" + std::string(k), line, out);
        } else if (source == 'q') {
            const auto c = line.find(':');
            const auto k = lead(line.substr(0, c == line.npos ? 0 : c + 1));
            if (k == "NET_RX:" || k == "NET_TX:")
                update("q:" + std::string(k), line, out);
        } else if (source == 'n' && no > 2) {
            const auto c = line.find(':');
            if (c == line.npos)
                continue;
            const auto k = lead(line.substr(0, c));
            if (!k.empty() && k.find(' ') == k.npos && k.find('|') == k.npos)
                update("n:" + std::string(k),
                       std::string(k) + ": " + std::string(line.substr(c + 1)), out);
        }
    }
}

std::string SampleEncoder::encode(const SampleTexts& t) {
    std::string out = "T ";
    const auto up = awkFields(t.uptime);
    out += up.empty() ? std::string("0") : up.front();
    out += '\n';
    m_seen.clear();
    read('s', t.stat, out);
    read('q', t.softirqs, out);
    read('i', t.interrupts, out);
    read('n', t.netdev, out);
    for (auto it = m_lines.begin(); it != m_lines.end();) {
        if (m_seen.count(it->first)) {
            ++it;
            continue;
        }
        out += '-' + it->first + '\n';
        it = m_lines.erase(it);
    }
    out += "E\n";
    return out;
}

bool SampleDecoder::feed(std::string_view data, std::vector<SampleTexts>& ticks,
                         std::string* error) {
    m_bytes += data.size();
    m_unreadable = false;
    if (!text::forEachLine(m_buf, data, [&](std::string_view l) { return line(l, ticks, error); }))
        return false;
    if (m_buf.size() > kMaxLine) {
        if (error)
            *error = "sampler line " + std::to_string(m_lineNo + 1) + ": longer than " +
                     std::to_string(kMaxLine) + " bytes";
        m_buf.clear();
        return false;
    }
    return true;
}

bool SampleDecoder::line(std::string_view l, std::vector<SampleTexts>& ticks, std::string* error) {
    ++m_lineNo;
    auto fail = [&](const std::string& why) {
        if (error)
            *error = "sampler line " + std::to_string(m_lineNo) + ": " + why + ": '" +
                     text::printable(l, 60) + "'";
        return false;
    };
    if (l.size() > kMaxLine)
        return fail("too long");
    if (l.empty())
        return fail("empty line");
    const char op = l.front();
    if (op == 'X' && l.size() > 2 && l[1] == ' ') {
        m_unreadable = true;
        if (error)
            *error = "the router cannot read " + text::printable(l.substr(2), 200);
        return false;
    }
    if (op == 'T') {
        if (m_inTick)
            return fail("a tick started inside a tick");
        if (l.size() < 3 || l[1] != ' ')
            return fail("bad tick header");
        m_uptime = std::string(l.substr(2));
        m_inTick = true;
        return true;
    }
    if (!m_inTick)
        return fail("data outside a tick");
    if (op == 'E') {
        if (l.size() != 1)
            return fail("bad tick end");
        m_inTick = false;
        ticks.push_back({m_uptime + "\n", text('s'), text('q'), text('i'), text('n')});
        return true;
    }
    if (op != '+' && op != '=' && op != '-')
        return fail("unknown record");
    const auto tab = l.find('\t');
    const auto key = l.substr(1, tab == std::string_view::npos ? l.npos : tab - 1);
    if (key.size() < 3 || key.size() > 80 || key[1] != ':' ||
        std::string_view("sqin").find(key[0]) == std::string_view::npos)
        return fail("bad key");
    if (op == '-') {
        if (tab != std::string_view::npos)
            return fail("unexpected data");
        m_lines.erase(std::string(key));
        return true;
    }
    if (tab == std::string_view::npos)
        return fail("no data");
    const auto body = l.substr(tab + 1);
    if (op == '+') {
        if (m_lines.size() >= kMaxKeys && !m_lines.count(key))
            return fail("too many lines");
        Line ln;
        for (auto f : text::split(body, ' '))
            for (auto g : text::split(f, '\t'))
                if (!g.empty())
                    ln.fields.emplace_back(g);
        const auto it = m_lines.find(key);
        ln.order = it != m_lines.end() ? it->second.order : ++m_order;
        m_lines[std::string(key)] = std::move(ln);
        return true;
    }
    const auto it = m_lines.find(key);
    if (it == m_lines.end())
        return fail("an update of an unknown line");
    for (auto item : text::split(body, ' ')) {
        const auto colon = item.find(':');
        const auto idx = text::parseU64(item.substr(0, colon));
        if (colon == std::string_view::npos || !idx || *idx < 1 || *idx > it->second.fields.size())
            return fail("bad field update");
        it->second.fields[*idx - 1] = std::string(item.substr(colon + 1));
    }
    return true;
}

// A file's text again: its lines in the order first seen, the CPU header first.
std::string SampleDecoder::text(char source) const {
    std::vector<std::pair<std::uint64_t, const Line*>> lines;
    for (const auto& [key, ln] : m_lines)
        if (key[0] == source)
            lines.emplace_back(key == std::string{source, ':', 'H'} ? 0 : ln.order, &ln);
    std::sort(lines.begin(), lines.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    std::string out;
    if (source == 'n')
        out = "Inter-|   Receive\n face |bytes\n"; // the two header lines parseNetDev skips
    for (const auto& [order, ln] : lines) {
        for (std::size_t i = 0; i < ln->fields.size(); ++i) {
            if (i)
                out += ' ';
            out += ln->fields[i];
        }
        out += '\n';
    }
    return out;
}

} // namespace coresteer

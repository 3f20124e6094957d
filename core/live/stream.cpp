// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/live/stream.h"

#include "core/base/shell.h"
#include "core/base/text.h"
#include "core/router-scripts/router_scripts.h"

#include <algorithm>

namespace coresteer::live {

namespace {} // namespace

std::string makeSamplerCommand(const std::string& root, std::size_t wholeMax) {
    // mawk, where there is one (Debian always has it, even when `awk` is gawk), costs the
    // router the least per tick. It reads a pipe in blocks unless told -W interactive, and then
    // reads every file by lines whatever RS is: the awk finds that out at its start and sends
    // every file by its lines, which is also fewer bytes. Otherwise awk: BusyBox's on OpenWrt,
    // files whole. `command -v` is the shell's own: nothing forks before the exec. LC_ALL=C:
    // length() counts bytes (gawk counts characters in a UTF-8 locale).
    return "CORESTEER_ROOT=" + shellQuote(root) + "; CORESTEER_WHOLE=" + std::to_string(wholeMax) +
           "; LC_ALL=C; export CORESTEER_ROOT CORESTEER_WHOLE LC_ALL; P=" +
           shellQuote(router_scripts::kSamplerAwk) +
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
    const bool statOnly = !t.countersUptime.empty();
    out += statOnly ? " s\n" : "\n";
    m_seen.clear();
    read('s', t.stat, out);
    if (statOnly) { // the other files were not read: their lines stay as they were
        for (const auto& [key, line] : m_lines)
            if (key.front() != 's')
                m_seen[key] = true;
    } else {
        read('q', t.softirqs, out);
        read('i', t.interrupts, out);
        read('n', t.netdev, out);
    }
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

SampleDecoder::SampleDecoder(const State& state)
    : m_uptime(state.m_uptime), m_countersUptime(state.m_countersUptime),
      m_statOnly(state.m_statOnly), m_kept(state.m_kept), m_lineNo(state.m_lineNo),
      m_bytes(state.m_bytes) {
    for (std::size_t k = 0; k < m_sources.size(); ++k) {
        m_sources[k].file = state.m_sources[k].file;
        m_sources[k].lines = LineStore(state.m_sources[k].lines);
        m_keys += m_sources[k].lines.live();
    }
}

std::string SampleDecoder::countersUptime() const {
    if (!m_statOnly)
        return {};
    return m_countersUptime.empty() ? std::string("?") : m_countersUptime;
}

SampleDecoder::State SampleDecoder::state() const {
    State st;
    for (std::size_t k = 0; k < m_sources.size(); ++k)
        st.m_sources[k] = {m_sources[k].file, m_sources[k].lines.freeze()};
    st.m_uptime = m_uptime;
    st.m_countersUptime = m_countersUptime;
    st.m_statOnly = m_statOnly;
    st.m_lineNo = m_lineNo;
    st.m_bytes = m_bytes;
    st.m_kept = m_kept;
    return st;
}

std::size_t SampleDecoder::State::bytes(const State* before) const {
    std::size_t n = sizeof *this + (m_uptime.capacity() > 15 ? m_uptime.capacity() : 0) +
                    (m_countersUptime.capacity() > 15 ? m_countersUptime.capacity() : 0);
    for (std::size_t k = 0; k < m_sources.size(); ++k) {
        const auto& src = m_sources[k];
        const auto* then = before ? &before->m_sources[k] : nullptr;
        if (src.file && !(then && then->file == src.file))
            n += sizeof(std::string) + src.file->capacity();
        n += src.lines.bytes(then ? &then->lines : nullptr);
    }
    return n;
}

std::uint64_t SampleDecoder::made() const {
    std::uint64_t n = 0;
    for (const auto& src : m_sources)
        n += src.lines.made();
    return n;
}

namespace {

// What a kept line costs beyond its key and text: its place in the store and string headers.
constexpr std::size_t kLineCost = 64;

std::string capText(std::size_t bytes) {
    return bytes % (1u << 20) == 0 ? std::to_string(bytes >> 20) + " MiB"
                                   : std::to_string(bytes) + " bytes";
}

} // namespace

bool SampleDecoder::overflow(const std::string& why, std::string* error) {
    m_overflowed = true;
    if (error)
        *error = "sampler line " + std::to_string(m_lineNo) + ": " + why;
    return false;
}

bool SampleDecoder::tickGrew(std::size_t add, std::string* error) {
    m_tickBytes += add;
    if (m_tickBytes <= m_limits.tickBytes)
        return true;
    return overflow("a tick of more than " + capText(m_limits.tickBytes) +
                        ", the cap on one tick: the router's sampler never ended it",
                    error);
}

bool SampleDecoder::kept(std::size_t add, std::size_t drop, std::string* error) {
    m_kept = m_kept + add - std::min(drop, m_kept + add);
    if (m_kept <= m_limits.tickBytes)
        return true;
    return overflow("the files of a tick would hold more than " + capText(m_limits.tickBytes) +
                        ", the cap on one tick",
                    error);
}

bool SampleDecoder::feed(std::string_view data, std::vector<SampleTexts>& ticks,
                         std::string* error) {
    return feedAny(data, &ticks, nullptr, error);
}

bool SampleDecoder::feed(std::string_view data, std::size_t& ended, std::string* error) {
    return feedAny(data, nullptr, &ended, error);
}

bool SampleDecoder::feedLine(std::string_view l, std::size_t& ended, std::string* error) {
    if (m_need > 0 || !m_buf.empty())
        return feedAny(std::string(l) + '\n', nullptr, &ended, error);
    m_bytes += l.size() + 1;
    m_unreadable = false;
    m_overflowed = false;
    return line(l, nullptr, &ended, error);
}

bool SampleDecoder::feedAny(std::string_view data, std::vector<SampleTexts>* ticks,
                            std::size_t* ended, std::string* error) {
    m_bytes += data.size();
    m_unreadable = false;
    m_overflowed = false;
    while (!data.empty()) {
        if (m_need > 0) { // inside an F record: its bytes, newlines and all
            const auto n = std::min(m_need, data.size());
            if (!tickGrew(n, error))
                return false;
            m_file.append(data.substr(0, n));
            data.remove_prefix(n);
            m_need -= n;
            if (m_need == 0 && !fileDone(error))
                return false;
            continue;
        }
        const auto nl = data.find('\n');
        if (nl == std::string_view::npos) {
            m_buf.append(data);
            if (m_buf.size() > kMaxLine) {
                if (error)
                    *error = "sampler line " + std::to_string(m_lineNo + 1) + ": longer than " +
                             std::to_string(kMaxLine) + " bytes";
                m_buf.clear();
                return false;
            }
            break;
        }
        bool ok;
        if (m_buf.empty()) { // a whole line in `data`: no copy
            ok = line(data.substr(0, nl), ticks, ended, error);
        } else {
            std::string l;
            l.swap(m_buf);
            l.append(data.substr(0, nl));
            ok = line(l, ticks, ended, error);
        }
        data.remove_prefix(nl + 1);
        if (!ok)
            return false;
    }
    return true;
}

bool SampleDecoder::fileDone(std::string* error) {
    const auto lines = static_cast<std::uint64_t>(std::count(m_file.begin(), m_file.end(), '\n'));
    if (!m_file.empty() && m_file.back() != '\n') {
        if (error)
            *error = "sampler line " + std::to_string(m_lineNo + lines + 1) +
                     ": the text of an F record does not end with a newline";
        return false;
    }
    m_lineNo += lines;
    // The file whole replaces the lines of its source that came as + records.
    auto& src = source(m_fileSource);
    std::size_t dropped = src.file ? src.file->size() : 0;
    for (std::size_t i = 0; i < src.lines.size(); ++i)
        if (const auto* l = src.lines.at(i))
            dropped += l->key.size() + l->text.size() + kLineCost;
    m_keys -= src.lines.live();
    src.lines.clear();
    src.file = std::make_shared<const std::string>(std::move(m_file));
    m_file.clear();
    auto& c = changed(m_fileSource);
    c.changed = c.structural = true;
    return kept(src.file->size(), dropped, error);
}

namespace {

// A record's fields (separated by runs of blanks and tabs) as a line's text: each followed by
// one blank but the last.
std::size_t joinFields(std::string_view body, std::string& out) {
    out.clear();
    std::size_t n = 0;
    std::size_t i = 0;
    while (i < body.size()) {
        while (i < body.size() && (body[i] == ' ' || body[i] == '\t'))
            ++i;
        const auto b = i;
        while (i < body.size() && body[i] != ' ' && body[i] != '\t')
            ++i;
        if (i > b) {
            if (n++)
                out += ' ';
            out.append(body.substr(b, i - b));
        }
    }
    return n;
}

} // namespace

bool SampleDecoder::line(std::string_view l, std::vector<SampleTexts>* ticks, std::size_t* ended,
                         std::string* error) {
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
        // "T <uptime>", or "T <uptime> s" or "T - s" for a tick that read /proc/stat alone
        // (the router's sampler sends "-": that tick has no uptime, see stream.h).
        const auto up = l.substr(2);
        const auto sp = up.find(' ');
        if (sp != up.npos && up.substr(sp) != " s")
            return fail("bad tick header");
        if (sp == up.npos && up == kNoUptime)
            return fail("bad tick header");
        m_uptime = std::string(up.substr(0, sp));
        m_statOnly = sp != up.npos;
        m_inTick = true;
        for (auto& c : m_changes) {
            c.changed = c.structural = false;
            c.lines.clear();
        }
        m_tickBytes = 0;
        return tickGrew(l.size() + 1, error);
    }
    if (!m_inTick)
        return fail("data outside a tick");
    if (!tickGrew(l.size() + 1, error))
        return false;
    if (op == 'E') {
        if (l.size() != 1)
            return fail("bad tick end");
        m_inTick = false;
        if (ticks && ticks->size() >= m_limits.pendingTicks)
            return overflow("more than " + std::to_string(m_limits.pendingTicks) +
                                " ticks at once: the router sends ticks that were not asked for",
                            error);
        if (!m_statOnly)
            m_countersUptime = m_uptime;
        if (ticks)
            ticks->push_back(
                {m_uptime + "\n", text('s'), text('q'), text('i'), text('n'), countersUptime()});
        if (ended)
            ++*ended;
        return true;
    }
    if (op == 'F') {
        if (l.size() < 4 || l[2] != ' ' || kSources.find(l[1]) == std::string_view::npos)
            return fail("bad file record");
        const std::uint64_t size = text::parseU64(l.substr(3)).value_or(kMaxFile + 1);
        if (size > kMaxFile)
            return fail("bad size");
        m_fileSource = l[1];
        m_need = static_cast<std::size_t>(size);
        m_file.clear();
        return m_need > 0 || fileDone(error);
    }
    if (op != '+' && op != '=' && op != '-')
        return fail("unknown record");
    const auto tab = l.find('\t');
    const auto key = l.substr(1, tab == std::string_view::npos ? l.npos : tab - 1);
    if (key.size() < 3 || key.size() > 80 || key[1] != ':' ||
        kSources.find(key[0]) == std::string_view::npos)
        return fail("bad key");
    auto& src = source(key[0]);
    auto& c = changed(key[0]);
    const auto at = src.lines.find(key);
    const std::size_t before = at ? key.size() + src.lines.at(*at)->text.size() + kLineCost : 0;
    if (op == '-') {
        if (tab != std::string_view::npos)
            return fail("unexpected data");
        if (at) {
            if (!kept(0, before, error))
                return false;
            src.lines.erase(*at);
            --m_keys;
            c.changed = c.structural = true;
            src.lines.compact(); // positions move only when lines went
        }
        return true;
    }
    if (tab == std::string_view::npos)
        return fail("no data");
    const auto body = l.substr(tab + 1);
    c.changed = true;
    if (op == '+') {
        if (m_keys >= kMaxKeys && !at)
            return fail("too many lines");
        if (at) { // a known line, whole again: it keeps its place
            auto& ln = src.lines.edit(*at);
            ln.fields = joinFields(body, ln.text);
            c.lines.push_back({*at});
            return kept(key.size() + ln.text.size() + kLineCost, before, error);
        }
        LineStore::Line ln;
        ln.key = std::string(key);
        ln.fields = joinFields(body, ln.text);
        const std::size_t size = key.size() + ln.text.size() + kLineCost;
        src.lines.add(std::move(ln));
        ++m_keys;
        c.structural = true;
        return kept(size, 0, error);
    }
    if (!at)
        return fail("an update of an unknown line");
    auto& ln = src.lines.edit(*at);
    auto& lc = c.lines.emplace_back(LineChange{*at, std::string::npos, 0});
    // The line's fields (the text splits on single blanks: no field holds one), then each
    // "index:value" in order; one that is wrong stops there, with those before it applied.
    // The views point into the line and the record until the new text is made; the buffers
    // are kept from record to record.
    auto& fields = m_fieldViews;
    fields.clear();
    if (ln.fields) {
        const std::string_view t = ln.text;
        std::size_t b = 0;
        for (std::size_t i = 0; i < t.size(); ++i) // fields are short: no call per field
            if (t[i] == ' ') {
                fields.push_back(t.substr(b, i - b));
                b = i + 1;
            }
        fields.push_back(t.substr(b));
    }
    bool ok = true;
    for (std::size_t b = 0;;) {
        const auto e = body.find(' ', b);
        const auto item = body.substr(b, e == std::string_view::npos ? e : e - b);
        const auto colon = item.find(':');
        const auto idx = text::parseU64(item.substr(0, colon));
        if (colon == std::string_view::npos || !idx || *idx < 1 || *idx > fields.size()) {
            ok = false;
            break;
        }
        fields[*idx - 1] = item.substr(colon + 1);
        lc.firstField = std::min<std::size_t>(lc.firstField, *idx);
        lc.lastField = std::max<std::size_t>(lc.lastField, *idx);
        if (e == std::string_view::npos)
            break;
        b = e + 1;
    }
    if (!ok || lc.firstField > lc.lastField) // say nothing of which fields: read it whole
        lc = {*at};
    std::size_t size = fields.size();
    for (const auto f : fields)
        size += f.size();
    if (size > kMaxLine) // no line the sampler prints is as long
        return fail("makes a line longer than " + std::to_string(kMaxLine) + " bytes");
    m_text.resize(size ? size - 1 : 0);
    char* out = m_text.data();
    for (std::size_t i = 0; i < fields.size(); ++i) {
        if (i)
            *out++ = ' ';
        out = std::copy(fields[i].begin(), fields[i].end(), out);
    }
    const std::size_t was = ln.text.size();
    ln.text.swap(m_text);
    if (!kept(ln.text.size(), was, error))
        return false;
    return ok || fail("bad field update");
}

// A file's text again: what came whole, then its lines in the order first seen, the CPU
// header first.
std::string SampleDecoder::text(char source, std::vector<std::size_t>* lineOf) const {
    const auto& src = this->source(source);
    std::string out = src.file ? *src.file : std::string();
    if (source == 'n' && out.empty())
        out = "Inter-|   Receive\n face |bytes\n"; // the two header lines parseNetDev skips
    if (lineOf)
        lineOf->assign(static_cast<std::size_t>(std::count(out.begin(), out.end(), '\n')),
                       std::string::npos);
    const auto h = src.lines.find(std::string{source, ':', 'H'});
    auto add = [&](std::size_t i) {
        out += src.lines.at(i)->text;
        out += '\n';
        if (lineOf)
            lineOf->push_back(i);
    };
    if (h)
        add(*h);
    for (std::size_t i = 0; i < src.lines.size(); ++i)
        if (src.lines.at(i) && i != h)
            add(i);
    return out;
}

std::string_view SampleDecoder::line(char source, std::size_t position) const {
    const auto* l = this->source(source).lines.at(position);
    return l ? std::string_view(l->text) : std::string_view();
}

} // namespace coresteer::live

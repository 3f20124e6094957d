// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// Replay of a recording (recording.h): events in order, checkpoints, seeking.
#include "core/live/recording.h"
#include "core/live/replay_index.h"

#include "core/base/text.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace coresteer::live {

std::size_t Recording::memoryBytes() const {
    return sizeof *this + info.label.capacity() + info.started.capacity() +
           info.capture.capacity() + info.layout.capacity() + events.capacity() +
           (index ? index->bytes : 0);
}

std::size_t Recording::checkpoints() const {
    return index ? index->checkpoints.size() : 0;
}

namespace {

constexpr double kNever = -std::numeric_limits<double>::infinity();

} // namespace

Replay::Replay(const Recording& r)
    : m_rec(r), m_lines(r.events), m_latest(kNever), m_latestEvent(kNever) {}

bool Replay::fail(const std::string& why) {
    m_done = true;
    m_error = "recording line " + std::to_string(m_rec.firstEventLine + m_lines.lineNumber() - 1) +
              ": " + why;
    return false;
}

bool Replay::next(ReplayEvent& e) {
    return advance(&e, std::numeric_limits<double>::infinity());
}

// The last checkpoint with no event as late as `t` before it (their times only grow).
const ReplayCheckpoint* Replay::checkpointBefore(double t) const {
    if (!m_rec.index)
        return nullptr;
    const auto& cps = m_rec.index->checkpoints;
    const auto it = std::partition_point(cps.begin(), cps.end(),
                                         [t](const ReplayCheckpoint& c) { return c.latest < t; });
    return it == cps.begin() ? nullptr : &*std::prev(it);
}

bool Replay::seek(double t) {
    if (!m_error.empty())
        return false;
    const ReplayCheckpoint* from = checkpointBefore(t);
    // Going on from here does as well when nothing read so far is as late as `t` and here is
    // not before that checkpoint.
    const bool onFromHere =
        !m_done && m_latest < t && m_tickTime < 0 && (!from || m_lines.position() >= from->offset);
    if (!onFromHere)
        restart(from);
    // A recording that read parses at every tick: the files are parsed once, where the seek
    // ends. One made by hand is parsed tick by tick, so that an error is found where it is.
    advance(nullptr, t, m_rec.index != nullptr);
    if (m_error.empty() && m_decoder.statOnly() && !m_held && m_wholeTickTime >= 0 && m_haveLast)
        replayWholeTick(t);
    if (m_error.empty() && m_stale)
        parseAll();
    return m_error.empty();
}

// The seek ended after ticks that read /proc/stat alone, whose IRQ, softirq and interface
// rates are those of the last whole tick, which a seek does not make: start again from
// before that tick and play on to `t`, making rates and giving no events.
void Replay::replayWholeTick(double t) {
    const double whole = m_wholeTickTime;
    restart(checkpointBefore(whole));
    advance(nullptr, whole, m_rec.index != nullptr);
    if (m_error.empty() && m_stale)
        parseAll();
    ReplayEvent e;
    for (e.t = -1; m_error.empty() && advance(&e, t) && e.t >= 0; e.t = -1) {
    }
}

void Replay::restart(const ReplayCheckpoint* from) {
    m_decoder = from ? SampleDecoder(from->decoder) : SampleDecoder();
    m_lines.reset(from ? from->offset : 0, from ? from->line : 0);
    m_latest = from ? from->latest : kNever;
    m_latestEvent = from ? from->latestEvent : kNever;
    m_lastTickTime = from ? from->lastTickTime : 0;
    m_wholeTickTime = from ? from->wholeTickTime : -1;
    m_tickCount = from ? from->ticks : 0;
    m_phase = from ? from->phase : std::string();
    m_haveLast = from && from->haveLast;
    m_haveSample = from && from->haveSample;
    m_tickTime = -1;
    m_done = false;
    m_error.clear();
    m_sample = Sample{};
    m_held.reset();
    m_stale = m_haveSample;
    if (m_stale) {
        Diagnostics diag;
        if (const auto up = parseUptime(m_decoder.uptime(), diag))
            m_sample.uptime = *up;
        m_sample.countersUptime = parseCountersUptime(m_decoder.countersUptime());
    }
}

// The files as the decoder has them, parsed whole (a recording that read parses).
void Replay::parseAll() {
    Diagnostics diag;
    for (const char source : SampleDecoder::kSources)
        parseWhole(source, m_sample, diag);
    m_stale = false;
}

bool Replay::buildIndex(ReplayIndex& index) {
    m_building = &index;
    advance(nullptr, std::numeric_limits<double>::infinity());
    m_building = nullptr;
    index.bytes = sizeof index + index.checkpoints.capacity() * sizeof(ReplayCheckpoint);
    for (std::size_t i = 0; i < index.checkpoints.size(); ++i)
        index.bytes +=
            index.checkpoints[i].decoder.bytes(i ? &index.checkpoints[i - 1].decoder : nullptr);
    return m_error.empty();
}

// One of the files whole, into its part of `s`; for /proc/interrupts, which decoder line made
// which row.
bool Replay::parseWhole(char source, Sample& s, Diagnostics& diag) {
    if (source != 'i')
        return parseSampleFile(source, m_decoder.text(source), s, diag);
    std::vector<std::size_t> lineOf;
    const auto text = m_decoder.text('i', &lineOf);
    parseSampleFile('i', text, s, diag);
    std::size_t positions = 0;
    for (const auto p : lineOf)
        if (p != std::string::npos)
            positions = std::max(positions, p + 1);
    m_rowOf.assign(positions, std::string::npos);
    m_simple.assign(s.interrupts.rows.size(), 0);
    m_keptIn.assign(s.interrupts.rows.size(), std::string::npos);
    for (std::size_t r = 0; r < s.interrupts.rows.size(); ++r) {
        const auto n = static_cast<std::size_t>(s.interrupts.rows[r].line - 1);
        if (n < lineOf.size() && lineOf[n] != std::string::npos) {
            m_rowOf[lineOf[n]] = r;
            m_simple[r] = simpleRow(lineOf[n], s.interrupts.rows[r]);
        }
    }
    // Line by line only under a CPU header of the decoder's own (a header-less table takes
    // its columns from its first row).
    const auto first = text::trim(std::string_view(text).substr(0, text.find('\n')));
    std::vector<int> cpus;
    std::string error;
    m_rowsByLine = !lineOf.empty() && lineOf[0] != std::string::npos &&
                   text::startsWith(first, "CPU") && parseCpuHeader(first, cpus, error) &&
                   cpus == s.interrupts.cpus;
    return true;
}

bool Replay::simpleRow(std::size_t position, const IrqRow& row) const {
    const auto text = m_decoder.line('i', position);
    const auto n = row.label.size();
    // "35:" a field of its own ("35:0 ..." puts the first count in it), then single blanks.
    if (text.size() <= n || text.compare(0, n, row.label) != 0 || text[n] != ':' ||
        (text.size() > n + 1 && text[n + 1] != ' ') || text.back() == ' ')
        return false;
    for (std::size_t i = n + 1; i < text.size(); ++i) // no empty field, no other white space
        if ((text[i] == ' ' && text[i - 1] == ' ') || (text[i] != ' ' && text::isSpace(text[i])))
            return false;
    return true;
}

// The rows of these decoder lines brought up to date, each in its place, or false (nothing
// changed) when one no longer makes the row it made: then the table is read whole. An update
// of count fields only is read from those fields; any other change reads the line again.
bool Replay::updateRows(const std::vector<SampleDecoder::LineChange>& lines,
                        SampleBefore::Counts* replaced, Diagnostics& diag) {
    auto& rows = m_sample.interrupts.rows;
    struct Update {
        std::size_t row;
        std::vector<std::pair<std::size_t, std::uint64_t>> counts; // column, value
        std::optional<IrqRow> whole;
    };
    // One change a line, of all the tick's changes to it: the line as it is now, read whole if
    // any change was of the whole line.
    std::vector<SampleDecoder::LineChange> merged(lines);
    std::sort(merged.begin(), merged.end(),
              [](const auto& a, const auto& b) { return a.position < b.position; });
    std::size_t kept = 0;
    for (const auto& c : merged) {
        if (kept && merged[kept - 1].position == c.position) {
            auto& m = merged[kept - 1];
            const bool whole = m.firstField == 0 || c.firstField == 0;
            m.firstField = whole ? 0 : std::min(m.firstField, c.firstField);
            m.lastField = whole ? std::string::npos : std::max(m.lastField, c.lastField);
        } else {
            merged[kept++] = c;
        }
    }
    merged.resize(kept);
    std::vector<Update> updates;
    updates.reserve(merged.size());
    for (const auto& c : merged) {
        if (c.position >= m_rowOf.size() || m_rowOf[c.position] == std::string::npos)
            return false;
        Update u{m_rowOf[c.position], {}, std::nullopt};
        const auto& row = rows[u.row];
        const auto text = m_decoder.line('i', c.position);
        bool countsOnly = m_simple[u.row] && c.firstField >= 2 &&
                          c.lastField <= static_cast<std::size_t>(row.countColumns) + 1;
        if (countsOnly) {
            std::size_t field = 1, b = 0;
            while (field <= c.lastField && countsOnly) {
                if (b > text.size()) { // fewer fields than that
                    countsOnly = false;
                    break;
                }
                const auto e = std::min(text.find(' ', b), text.size());
                if (field >= c.firstField) {
                    const auto v = text::parseU64(text.substr(b, e - b));
                    countsOnly = v.has_value();
                    if (v)
                        u.counts.emplace_back(field - 2, *v);
                }
                ++field;
                b = e + 1;
            }
        }
        if (!countsOnly) {
            u.counts.clear();
            u.whole = parseInterruptRow(text, m_sample.interrupts.cpus.size(), diag,
                                        "proc/interrupts", row.line);
            if (!u.whole || u.whole->label != row.label)
                return false;
        }
        updates.push_back(std::move(u));
    }
    for (std::size_t i = 0; i < updates.size(); ++i) {
        auto& u = updates[i];
        auto& row = rows[u.row];
        if (replaced && m_keptIn[u.row] != m_tickCount) { // the counts the rates start from
            m_keptIn[u.row] = m_tickCount;
            replaced->emplace_back(u.row, row.counts);
        }
        if (u.whole) {
            row = std::move(*u.whole);
            m_simple[u.row] = simpleRow(merged[i].position, row); // it may be, or no longer
        } else {
            for (const auto& [col, v] : u.counts)
                row.counts.set(col, v);
        }
    }
    if (replaced)
        std::sort(replaced->begin(), replaced->end(),
                  [](const auto& a, const auto& b) { return a.first < b.first; });
    return true;
}

bool Replay::tickEnded(double t, ReplayEvent* e, bool& due, bool decodeOnly) {
    Diagnostics diag;
    auto parseFailed = [&] {
        std::string why = "a tick that does not parse";
        for (const auto& d : diag.entries())
            if (d.severity == Severity::Error) {
                why += ": " + d.toString();
                break;
            }
        return fail(why);
    };
    const auto up = parseUptime(m_decoder.uptime(), diag);
    if (!up)
        return parseFailed();
    if (decodeOnly) { // its uptime only: the files are parsed where the seek ends
        due = m_haveLast && *up > m_sample.uptime;
        m_sample.uptime = *up;
        m_sample.countersUptime = parseCountersUptime(m_decoder.countersUptime());
        m_haveSample = m_haveLast = m_stale = true;
        noteTick(t, false);
        return true;
    }
    // The parts of the last sample that this tick replaces, kept for its rates.
    Sample before;
    SampleBefore::Counts replaced;
    std::array<bool, 4> whole{};
    for (std::size_t k = 0; k < SampleDecoder::kSources.size(); ++k) {
        const char source = SampleDecoder::kSources[k];
        const auto& c = m_decoder.changes(k);
        if (m_haveSample && !c.changed)
            continue;
        if (source == 'i' && m_haveSample && !c.structural && m_rowsByLine &&
            updateRows(c.lines, e ? &replaced : nullptr, diag))
            continue;
        whole[k] = true;
        switch (source) {
        case 's':
            before.stat = std::move(m_sample.stat);
            break;
        case 'q':
            before.softirqs = std::move(m_sample.softirqs);
            break;
        case 'i':
            before.interrupts = std::move(m_sample.interrupts);
            break;
        default:
            before.netdev = std::move(m_sample.netdev);
            break;
        }
        if (!parseWhole(source, m_sample, diag))
            return parseFailed();
    }
    const double prevUptime = m_sample.uptime;
    const double prevCounters = m_sample.countersAt();
    m_sample.uptime = *up;
    m_sample.countersUptime = parseCountersUptime(m_decoder.countersUptime());
    due = m_haveLast && *up > prevUptime;
    if (e && due) {
        SampleBefore b{prevUptime,
                       prevCounters,
                       whole[0] ? &before.stat : &m_sample.stat,
                       whole[1] ? &before.softirqs : &m_sample.softirqs,
                       whole[3] ? &before.netdev : &m_sample.netdev,
                       whole[2] ? &before.interrupts : nullptr,
                       &replaced};
        *e = ReplayEvent{};
        e->kind = ReplayEvent::Kind::Rates;
        e->t = t;
        e->rates = std::move(*computeRates(b, m_sample, m_held ? &*m_held : nullptr));
        // Kept for the ticks of stat alone after it, where there are any (a copy of every
        // IRQ's rates), and not again on such a tick: it holds the same counter rates.
        if (!m_decoder.statOnly() && (!m_rec.index || m_rec.index->statOnlyTicks))
            m_held = e->rates;
    }
    m_haveSample = m_haveLast = true;
    noteTick(t, e && due);
    return true;
}

void Replay::noteTick(double t, bool rated) {
    if (m_decoder.statOnly()) {
        if (m_building)
            m_building->statOnlyTicks = true;
        return; // the counters that rates hold did not change
    }
    m_wholeTickTime = t;
    if (!rated)
        m_held.reset();
}

bool Replay::advance(ReplayEvent* e, double until, bool decodeOnly) {
    std::string_view l;
    std::size_t sinceTicks = m_tickCount;
    std::size_t sinceOffset = m_lines.position();
    std::uint64_t sinceMade = m_decoder.made();
    while (!m_done) {
        const auto start = m_lines.position();
        const int lineNo = m_lines.lineNumber();
        if (!m_lines.next(l))
            break;
        if (l.empty())
            return fail("empty line");
        const char op = l.front();
        if (op == 'T' || op == '+' || op == '=' || op == '-' || op == 'E') {
            if (m_tickTime < 0)
                return fail("a tick without its '@' time");
            std::string err;
            std::size_t ended = 0;
            const bool ok = m_decoder.feedLine(l, ended, &err);
            if (!ok) {
                if (text::startsWith(err, "sampler line ")) // its own count means nothing here
                    err.erase(0, err.find(": ") + 2);
                return fail(err);
            }
            if (!ended)
                continue;
            const double t = m_tickTime;
            m_tickTime = -1;
            bool due = false;
            if (!tickEnded(t, e, due, decodeOnly))
                return false;
            if (due)
                m_latestEvent = std::max(m_latestEvent, t);
            if (e && due)
                return true;
            continue; // the first tick, or one after a gap or a reboot
        }
        text::Tokenizer tok(l);
        std::string_view word, time;
        tok.next(word);
        if (word.size() != 1 || !tok.next(time))
            return fail("unknown event '" + text::printable(l, 40) + "'");
        const auto t = text::parseDouble(time);
        if (!t || *t < 0)
            return fail("bad time '" + text::printable(time, 20) + "'");
        if (*t >= until) {
            m_lines.reset(start, lineNo);
            return true;
        }
        const auto since = start - sinceOffset;
        if (m_building && m_tickTime < 0 && m_decoder.made() - sinceMade <= since &&
            (since >= std::max(ReplayIndex::kMinSpacing,
                               ReplayIndex::kBytesPerLine * m_decoder.lines()) ||
             m_tickCount - sinceTicks >= ReplayIndex::kMaxTicks)) {
            m_building->checkpoints.push_back(
                {start, lineNo, m_latest, m_latestEvent, m_decoder.state(), m_haveSample,
                 m_haveLast, m_lastTickTime, m_wholeTickTime, m_tickCount, m_phase});
            sinceOffset = start;
            sinceTicks = m_tickCount;
            sinceMade = m_decoder.made();
        }
        m_latest = std::max(m_latest, *t);
        if (op == '@') {
            if (m_tickTime >= 0)
                return fail("a tick time with no tick after it");
            m_tickTime = *t;
            m_lastTickTime = *t;
            ++m_tickCount;
            continue;
        }
        ReplayEvent ev;
        ev.t = *t;
        std::string_view a, b;
        if (op == 'G') {
            ev.kind = ReplayEvent::Kind::Gap;
            m_haveLast = false;
            m_held.reset();
        } else if (op == 'L' && tok.next(a)) {
            ev.kind = ReplayEvent::Kind::Latency;
            if (a != "lost") {
                ev.latencyMs = text::parseDouble(a);
                if (!ev.latencyMs || *ev.latencyMs < 0)
                    return fail("bad latency '" + text::printable(a, 20) + "'");
            }
            ev.probe = std::string(kLanProbe);
            if (tok.next(b)) {
                if (!isProbeName(b))
                    return fail("bad probe name '" + text::printable(b, 20) + "'");
                ev.probe = std::string(b);
            }
        } else if (op == 'W' && tok.next(a) && tok.next(b)) {
            ev.kind = ReplayEvent::Kind::Throughput;
            const auto down = text::parseDouble(a), up = text::parseDouble(b);
            if (!down || !up || *down < 0 || *up < 0)
                return fail("bad throughput");
            ev.downBitsPerSec = *down;
            ev.upBitsPerSec = *up;
        } else if (op == 'P' && tok.next(a) && (a == "idle" || a == "done" || isLoadPhase(a))) {
            ev.kind = ReplayEvent::Kind::Phase;
            ev.phase = std::string(a);
            m_phase = ev.phase;
        } else if (op == 'M' && tok.next(a)) {
            ev.kind = ReplayEvent::Kind::Trial;
            if (a != "end") {
                const auto block = text::parseU64(a);
                const auto candidate = tok.next(b) ? text::parseU64(b) : std::nullopt;
                if (!block || !candidate || *block > 100000 || *candidate > 1000)
                    return fail("bad trial '" + text::printable(l, 40) + "'");
                ev.block = static_cast<int>(*block);
                ev.candidate = static_cast<int>(*candidate);
            }
        } else {
            return fail("bad event '" + text::printable(l, 40) + "'");
        }
        std::string_view extra;
        if (tok.next(extra))
            return fail("unexpected '" + text::printable(extra, 20) + "'");
        m_latestEvent = std::max(m_latestEvent, *t);
        if (e) {
            *e = std::move(ev);
            return true;
        }
    }
    if (!m_done && m_tickTime >= 0)
        return fail("the last tick is cut short");
    m_done = true;
    return false;
}

} // namespace coresteer::live

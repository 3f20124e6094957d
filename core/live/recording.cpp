#include "core/live/recording.h"

#include "core/base/text.h"
#include "core/collect/capture.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <limits>
#include <map>

namespace coresteer {

namespace {

constexpr std::string_view kMagic = "coresteer-recording 1";

std::string num(double v, int decimals) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

// One line of text for the header: no newline can end it early.
std::string oneLine(std::string_view s) {
    std::string out(s.substr(0, 200));
    std::replace(out.begin(), out.end(), '\n', ' ');
    std::replace(out.begin(), out.end(), '\r', ' ');
    return out;
}

} // namespace

RecordingWriter::RecordingWriter(RecordingInfo info) : m_info(std::move(info)) {
    m_info.hz = std::clamp(m_info.hz, 1, 20);
}

double RecordingWriter::clamp(double t) {
    if (!std::isfinite(t) || t < m_last)
        t = m_last;
    m_last = t;
    return t;
}

void RecordingWriter::sample(double t, const SampleTexts& texts) {
    m_events += "@ " + num(clamp(t), 3) + '\n';
    m_events += m_encoder.encode(texts);
    ++m_ticks;
}

void RecordingWriter::gap(double t) {
    m_events += "G " + num(clamp(t), 3) + '\n';
}

void RecordingWriter::latency(double t, std::optional<double> ms) {
    m_events += "L " + num(clamp(t), 3) + ' ' +
                (ms && std::isfinite(*ms) && *ms >= 0 ? num(*ms, 3) : std::string("lost")) + '\n';
}

void RecordingWriter::throughput(double t, double down, double up) {
    m_events += "W " + num(clamp(t), 3) + ' ' + num(std::max(0.0, down), 0) + ' ' +
                num(std::max(0.0, up), 0) + '\n';
}

void RecordingWriter::phase(double t, std::string_view name) {
    m_events += "P " + num(clamp(t), 3) + ' ' + oneLine(name) + '\n';
}

namespace {

std::string format(const RecordingInfo& info, std::string_view events, std::size_t ticks) {
    std::string out(kMagic);
    out += "\nlabel " + oneLine(info.label) + "\nstarted " + oneLine(info.started) + "\nhz " +
           std::to_string(info.hz) + "\ncapture " + std::to_string(info.capture.size()) + '\n' +
           info.capture + "\nlayout " + std::to_string(info.layout.size()) + '\n' + info.layout +
           "\nevents\n";
    out += events;
    out += "end " + std::to_string(ticks) + '\n';
    return out;
}

} // namespace

std::string RecordingWriter::text() const {
    return format(m_info, m_events, m_ticks);
}

std::string writeRecording(const Recording& r) {
    return format(r.info, r.events, r.ticks);
}

bool saveRecording(const RecordingWriter& w, const std::string& path, std::string* error) {
    return text::writeFileAtomic(path, w.text(), error);
}

std::string utcTimestamp() {
    const std::time_t now = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&now, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

// ---- reading -----------------------------------------------------------------------------------

namespace {

class HeaderReader {
public:
    explicit HeaderReader(std::string_view text) : m_text(text) {}
    int line() const { return m_line; }
    std::size_t pos() const { return m_pos; }

    // The next line, which must start with `key` and a space (or be exactly `key` when bare).
    std::optional<std::string_view> field(std::string_view key, std::string* error, bool bare) {
        const auto nl = m_text.find('\n', m_pos);
        if (nl == std::string_view::npos)
            return fail("the file ends before '" + std::string(key) + "'", error);
        const auto l = m_text.substr(m_pos, nl - m_pos);
        ++m_line;
        m_pos = nl + 1;
        if (bare ? l != key : !text::startsWith(l, std::string(key) + ' '))
            return fail("expected '" + std::string(key) + "', found '" + text::printable(l, 40) +
                            "'",
                        error);
        return bare ? l : l.substr(key.size() + 1);
    }
    // A block of `n` bytes and its closing newline.
    std::optional<std::string_view> block(std::string_view key, std::string* error) {
        const auto n = field(key, error, false);
        if (!n)
            return std::nullopt;
        const auto size = text::parseU64(*n);
        if (!size || *size > m_text.size() - m_pos || m_text.size() - m_pos - *size < 1 ||
            m_text[m_pos + *size] != '\n')
            return fail("'" + std::string(key) + "' gives a size the file does not hold", error);
        const auto b = m_text.substr(m_pos, *size);
        m_line += static_cast<int>(std::count(b.begin(), b.end(), '\n')) + 1;
        m_pos += *size + 1;
        return b;
    }

private:
    std::nullopt_t fail(const std::string& why, std::string* error) const {
        if (error)
            *error = "recording line " + std::to_string(m_line) + ": " + why;
        return std::nullopt;
    }
    std::string_view m_text;
    std::size_t m_pos = 0;
    int m_line = 0;
};

} // namespace

std::optional<Recording> readRecording(std::string_view text, std::string* error) {
    if (text.size() > Recording::kMaxBytes) {
        if (error)
            *error = "a recording is at most " + std::to_string(Recording::kMaxBytes >> 20) + " MB";
        return std::nullopt;
    }
    if (!text::startsWith(text, std::string(kMagic) + "\n")) {
        if (error)
            *error = "not a coresteer recording (line 1 is not \"coresteer-recording 1\")";
        return std::nullopt;
    }
    HeaderReader h(text);
    Recording r;
    if (!h.field(kMagic, error, true))
        return std::nullopt;
    const auto label = h.field("label", error, false);
    if (!label)
        return std::nullopt;
    const auto started = h.field("started", error, false);
    if (!started)
        return std::nullopt;
    const auto hz = h.field("hz", error, false);
    if (!hz)
        return std::nullopt;
    const auto hzValue = text::parseU64(*hz);
    if (!hzValue || *hzValue < 1 || *hzValue > 20) {
        if (error)
            *error = "recording line " + std::to_string(h.line()) + ": hz must be 1 to 20";
        return std::nullopt;
    }
    r.captureLine = h.line() + 2; // after the "capture <n>" line
    const auto capture = h.block("capture", error);
    if (!capture)
        return std::nullopt;
    if (!capture->empty() && !readCapture(*capture, error, r.captureLine)) {
        if (error)
            *error = "recording " + *error;
        return std::nullopt;
    }
    const auto layout = h.block("layout", error);
    if (!layout)
        return std::nullopt;
    if (!h.field("events", error, true))
        return std::nullopt;
    r.info = {std::string(*label), std::string(*started), static_cast<int>(*hzValue),
              std::string(*capture), std::string(*layout)};
    r.firstEventLine = h.line() + 1;

    // The events run to "end <ticks>", which must be the last line.
    auto rest = text.substr(h.pos());
    const auto endAt = rest.rfind("\nend ");
    const bool emptyEvents = text::startsWith(rest, "end ");
    if (endAt == std::string_view::npos && !emptyEvents) {
        if (error)
            *error = "recording: no 'end' line (the file was cut short)";
        return std::nullopt;
    }
    const auto endLine = emptyEvents ? rest : rest.substr(endAt + 1);
    const auto count = text::parseU64(text::trim(endLine.substr(4)));
    if (!count || endLine.back() != '\n' || std::count(endLine.begin(), endLine.end(), '\n') != 1) {
        if (error)
            *error = "recording: the 'end' line is not the last line, or not 'end <ticks>'";
        return std::nullopt;
    }
    r.events = std::string(emptyEvents ? std::string_view() : rest.substr(0, endAt + 1));

    // Every event is read once here, so that a recording that loads replays in full, and the
    // replay's checkpoints are left on the way.
    auto index = std::make_shared<ReplayIndex>();
    Replay replay(r);
    if (!replay.buildIndex(*index)) {
        if (error)
            *error = replay.error();
        return std::nullopt;
    }
    r.ticks = replay.ticks();
    r.duration = std::max({0.0, replay.m_latestEvent, replay.lastTickTime()});
    r.index = std::move(index);
    if (r.ticks != *count) {
        if (error)
            *error = "recording: 'end' says " + std::to_string(*count) + " ticks, the file has " +
                     std::to_string(r.ticks);
        return std::nullopt;
    }
    return r;
}

std::optional<Recording> loadRecording(const std::string& path, std::string* error) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        if (error)
            *error = path + ": cannot be read";
        return std::nullopt;
    }
    std::string text;
    char buf[1 << 16];
    while (in.read(buf, sizeof buf) || in.gcount() > 0) {
        text.append(buf, static_cast<std::size_t>(in.gcount()));
        if (text.size() > Recording::kMaxBytes) {
            if (error)
                *error = path + ": larger than a recording can be";
            return std::nullopt;
        }
    }
    auto r = readRecording(text, error);
    if (!r && error)
        *error = path + ": " + *error;
    return r;
}

// ---- replay ------------------------------------------------------------------------------------

// Everything a replay is between two events, to start again from.
struct ReplayCheckpoint {
    std::size_t offset = 0; // of the event line it is before
    int line = 0;           // lines read before it
    double latest = 0, latestEvent = 0;
    SampleDecoder::State decoder;
    bool haveSample = false, haveLast = false;
    double lastTickTime = 0;
    std::size_t ticks = 0;
    std::string phase;
};

struct ReplayIndex {
    // A checkpoint every this many bytes of events at least, and more when the files have
    // many lines (starting again from a checkpoint parses every line: the events between two
    // cost about as much to read); and at most this many ticks apart. Never one that would
    // hold more bytes of lines of its own than the events since the one before: the
    // checkpoints together hold at most as much as the events.
    static constexpr std::size_t kMinSpacing = 256u << 10;
    static constexpr std::size_t kBytesPerLine = 32;
    static constexpr std::size_t kMaxTicks = 4096;

    std::vector<ReplayCheckpoint> checkpoints; // in the file's order
    std::size_t bytes = 0;                     // in memory
};

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

bool Replay::seek(double t) {
    if (!m_error.empty())
        return false;
    // The last checkpoint with no event as late as `t` before it (their times only grow).
    const ReplayCheckpoint* from = nullptr;
    if (m_rec.index) {
        const auto& cps = m_rec.index->checkpoints;
        const auto it = std::partition_point(
            cps.begin(), cps.end(), [t](const ReplayCheckpoint& c) { return c.latest < t; });
        if (it != cps.begin())
            from = &*std::prev(it);
    }
    // Going on from here does as well when nothing read so far is as late as `t` and here is
    // not before that checkpoint.
    const bool onFromHere =
        !m_done && m_latest < t && m_tickTime < 0 && (!from || m_lines.position() >= from->offset);
    if (!onFromHere)
        restart(from);
    // A recording that read parses at every tick: the files are parsed once, where the seek
    // ends. One made by hand is parsed tick by tick, so that an error is found where it is.
    advance(nullptr, t, m_rec.index != nullptr);
    if (m_error.empty() && m_stale)
        parseAll();
    return m_error.empty();
}

void Replay::restart(const ReplayCheckpoint* from) {
    m_decoder = from ? SampleDecoder(from->decoder) : SampleDecoder();
    m_lines.reset(from ? from->offset : 0, from ? from->line : 0);
    m_latest = from ? from->latest : kNever;
    m_latestEvent = from ? from->latestEvent : kNever;
    m_lastTickTime = from ? from->lastTickTime : 0;
    m_tickCount = from ? from->ticks : 0;
    m_phase = from ? from->phase : std::string();
    m_haveLast = from && from->haveLast;
    m_haveSample = from && from->haveSample;
    m_tickTime = -1;
    m_done = false;
    m_error.clear();
    m_sample = Sample{};
    m_stale = m_haveSample;
    if (m_stale) {
        Diagnostics diag;
        if (const auto up = parseUptime(m_decoder.uptime(), diag))
            m_sample.uptime = *up;
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
                row.counts[col] = v;
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
        m_haveSample = m_haveLast = m_stale = true;
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
    m_sample.uptime = *up;
    due = m_haveLast && *up > prevUptime;
    if (e && due) {
        SampleBefore b{prevUptime,
                       whole[0] ? &before.stat : &m_sample.stat,
                       whole[1] ? &before.softirqs : &m_sample.softirqs,
                       whole[3] ? &before.netdev : &m_sample.netdev,
                       whole[2] ? &before.interrupts : nullptr,
                       &replaced};
        *e = ReplayEvent{};
        e->kind = ReplayEvent::Kind::Rates;
        e->t = t;
        e->rates = std::move(*computeRates(b, m_sample));
    }
    m_haveSample = m_haveLast = true;
    return true;
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
            m_building->checkpoints.push_back({start, lineNo, m_latest, m_latestEvent,
                                               m_decoder.state(), m_haveSample, m_haveLast,
                                               m_lastTickTime, m_tickCount, m_phase});
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
        } else if (op == 'L' && tok.next(a)) {
            ev.kind = ReplayEvent::Kind::Latency;
            if (a != "lost") {
                ev.latencyMs = text::parseDouble(a);
                if (!ev.latencyMs || *ev.latencyMs < 0)
                    return fail("bad latency '" + text::printable(a, 20) + "'");
            }
        } else if (op == 'W' && tok.next(a) && tok.next(b)) {
            ev.kind = ReplayEvent::Kind::Throughput;
            const auto down = text::parseDouble(a), up = text::parseDouble(b);
            if (!down || !up || *down < 0 || *up < 0)
                return fail("bad throughput");
            ev.downBitsPerSec = *down;
            ev.upBitsPerSec = *up;
        } else if (op == 'P' && tok.next(a) && (a == "idle" || a == "load" || a == "done")) {
            ev.kind = ReplayEvent::Kind::Phase;
            ev.phase = std::string(a);
            m_phase = ev.phase;
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

// ---- summaries ---------------------------------------------------------------------------------

const RecordingSummary::Core* RecordingSummary::core(int cpu) const {
    for (const auto& c : cores)
        if (c.cpu == cpu)
            return &c;
    return nullptr;
}

const RecordingSummary::Interface* RecordingSummary::interface(std::string_view name) const {
    for (const auto& i : interfaces)
        if (i.name == name)
            return &i;
    return nullptr;
}

namespace {

// Means over the whole recording and peaks of one-second means, weighted by each tick's length.
class Meter {
public:
    void add(double value, double seconds) {
        m_sum += value * seconds;
        m_seconds += seconds;
        m_winSum += value * seconds;
        m_winSeconds += seconds;
        if (m_winSeconds >= 1.0 - 1e-9) {
            m_peak = std::max(m_peak.value_or(0.0), m_winSum / m_winSeconds);
            m_winSum = m_winSeconds = 0;
        }
    }
    double mean() const { return m_seconds > 0 ? m_sum / m_seconds : 0; }
    // A recording shorter than a second has its mean as its peak.
    double peak() const { return m_peak ? *m_peak : mean(); }

private:
    double m_sum = 0, m_seconds = 0, m_winSum = 0, m_winSeconds = 0;
    std::optional<double> m_peak;
};

struct Meters {
    std::map<int, std::pair<Meter, Meter>> cores;
    std::map<std::string, std::pair<Meter, Meter>> ifaces;
    Meter down, up;
    bool generator = false;
    std::vector<std::optional<double>> idle, loaded;
    int probes = 0;
};

} // namespace

std::optional<RecordingSummary> summarize(const Recording& r, std::string* error) {
    Replay replay(r);
    ReplayEvent e;
    Meters m;
    RecordingSummary s;
    std::string phase; // "" before any phase event: the first 3 s count as the idle baseline
    double lastThroughput = 0;
    while (replay.next(e)) {
        switch (e.kind) {
        case ReplayEvent::Kind::Rates: {
            ++s.ticks;
            const double dt = e.rates.seconds();
            for (const auto& c : e.rates.cores) {
                auto& [busy, kernel] = m.cores[c.cpu];
                busy.add(c.busy(), dt);
                kernel.add(c.kernel(), dt);
            }
            for (const auto& i : e.rates.interfaces) {
                auto& [rx, tx] = m.ifaces[i.name];
                rx.add(i.rxBitsPerSec, dt);
                tx.add(i.txBitsPerSec, dt);
            }
            break;
        }
        case ReplayEvent::Kind::Gap:
            ++s.gaps;
            break;
        case ReplayEvent::Kind::Latency: {
            ++m.probes;
            const bool idle = phase.empty() ? e.t < 3.0 : phase == "idle";
            if (idle)
                m.idle.push_back(e.latencyMs);
            else if (phase != "done")
                m.loaded.push_back(e.latencyMs);
            break;
        }
        case ReplayEvent::Kind::Throughput: {
            const double dt = std::max(0.1, e.t - lastThroughput);
            lastThroughput = e.t;
            m.generator = true;
            m.down.add(e.downBitsPerSec, dt);
            m.up.add(e.upBitsPerSec, dt);
            break;
        }
        case ReplayEvent::Kind::Phase:
            phase = e.phase;
            break;
        }
        s.seconds = std::max(s.seconds, e.t);
    }
    if (!replay.error().empty()) {
        if (error)
            *error = replay.error();
        return std::nullopt;
    }
    for (const auto& [cpu, mm] : m.cores)
        s.cores.push_back(
            {cpu, mm.first.peak(), mm.first.mean(), mm.second.peak(), mm.second.mean()});
    for (const auto& [name, mm] : m.ifaces)
        s.interfaces.push_back(
            {name, mm.first.peak(), mm.first.mean(), mm.second.peak(), mm.second.mean()});
    if (m.generator) {
        s.downPeak = m.down.peak();
        s.downMean = m.down.mean();
        s.upPeak = m.up.peak();
        s.upMean = m.up.mean();
    }
    s.probes = m.probes;
    s.latency = gradeLatency(m.idle, m.loaded);
    return s;
}

namespace {

std::string csvField(std::string_view s) {
    std::string out = "\"";
    for (char c : s) {
        if (c == '"')
            out += '"';
        out += static_cast<unsigned char>(c) < 0x20 ? ' ' : c;
    }
    return out + '"';
}

} // namespace

std::optional<std::string> recordingCsv(const Recording& r, std::string* error) {
    // The columns: every core and interface that appears anywhere in the recording.
    std::map<int, bool> cpus;
    std::map<std::string, bool> ifaces;
    {
        Replay pass(r);
        ReplayEvent e;
        while (pass.next(e))
            if (e.kind == ReplayEvent::Kind::Rates) {
                for (const auto& c : e.rates.cores)
                    cpus[c.cpu] = true;
                for (const auto& i : e.rates.interfaces)
                    ifaces[i.name] = true;
            }
        if (!pass.error().empty()) {
            if (error)
                *error = pass.error();
            return std::nullopt;
        }
    }
    std::string out = "t_s,uptime_s";
    for (const auto& [cpu, _] : cpus)
        for (const char* part : {"busy", "user", "system", "irq", "softirq"})
            out += ",cpu" + std::to_string(cpu) + '_' + part + "_pct";
    for (const auto& [name, _] : ifaces) {
        out += ',' + csvField(name + "_rx_mbps");
        out += ',' + csvField(name + "_tx_mbps");
    }
    out += ",latency_ms,down_mbps,up_mbps,phase\n";

    Replay replay(r);
    ReplayEvent e;
    std::string latency, down, up, phase;
    while (replay.next(e)) {
        switch (e.kind) {
        case ReplayEvent::Kind::Latency:
            latency = e.latencyMs ? num(*e.latencyMs, 3) : std::string("lost");
            break;
        case ReplayEvent::Kind::Throughput:
            down = num(e.downBitsPerSec / 1e6, 3);
            up = num(e.upBitsPerSec / 1e6, 3);
            break;
        case ReplayEvent::Kind::Phase:
            phase = e.phase;
            break;
        case ReplayEvent::Kind::Gap:
            break;
        case ReplayEvent::Kind::Rates: {
            out += num(e.t, 3) + ',' + num(e.rates.end, 2);
            for (const auto& [cpu, _] : cpus) {
                const auto* c = e.rates.core(cpu);
                if (!c) {
                    out += ",,,,,";
                    continue;
                }
                for (double v : {c->busy(), c->user, c->system, c->irq, c->softirq})
                    out += ',' + num(v * 100, 1);
            }
            for (const auto& [name, _] : ifaces) {
                const IfaceRate* found = nullptr;
                for (const auto& i : e.rates.interfaces)
                    if (i.name == name)
                        found = &i;
                out += found ? ',' + num(found->rxBitsPerSec / 1e6, 3) + ',' +
                                   num(found->txBitsPerSec / 1e6, 3)
                             : std::string(",,");
            }
            out += ',' + latency + ',' + down + ',' + up + ',' + phase + '\n';
            latency.clear();
            down.clear();
            up.clear();
            break;
        }
        }
    }
    if (!replay.error().empty()) {
        if (error)
            *error = replay.error();
        return std::nullopt;
    }
    return out;
}

std::string compareSummaries(const RecordingSummary& a, const RecordingSummary& b,
                             std::string_view nameA, std::string_view nameB) {
    std::string out;
    auto row = [&](const std::string& what, const std::string& x, const std::string& y) {
        char buf[256];
        std::snprintf(buf, sizeof buf, "%-28s %20s %20s\n", what.c_str(), x.c_str(), y.c_str());
        out += buf;
    };
    auto pct = [](std::optional<double> v) { return v ? num(*v * 100, 1) + " %" : "-"; };
    auto mbps = [](std::optional<double> v) { return v ? num(*v / 1e6, 1) + " Mb/s" : "-"; };
    row("", text::printable(nameA, 20), text::printable(nameB, 20));
    row("length", num(a.seconds, 1) + " s", num(b.seconds, 1) + " s");
    std::map<int, bool> cpus;
    for (const auto& c : a.cores)
        cpus[c.cpu] = true;
    for (const auto& c : b.cores)
        cpus[c.cpu] = true;
    auto coreValue = [](const RecordingSummary& s, int cpu, bool peak) -> std::optional<double> {
        const auto* c = s.core(cpu);
        if (!c)
            return std::nullopt;
        return peak ? c->peak : c->mean;
    };
    for (const auto& [cpu, _] : cpus) {
        row("cpu" + std::to_string(cpu) + " busy, peak", pct(coreValue(a, cpu, true)),
            pct(coreValue(b, cpu, true)));
        row("cpu" + std::to_string(cpu) + " busy, mean", pct(coreValue(a, cpu, false)),
            pct(coreValue(b, cpu, false)));
    }
    std::map<std::string, bool> ifaces;
    for (const auto& i : a.interfaces)
        ifaces[i.name] = true;
    for (const auto& i : b.interfaces)
        ifaces[i.name] = true;
    auto ifValue = [](const RecordingSummary& s, const std::string& n,
                      bool rx) -> std::optional<double> {
        const auto* i = s.interface(n);
        if (!i)
            return std::nullopt;
        return rx ? i->rxMean : i->txMean;
    };
    for (const auto& [name, _] : ifaces) {
        const auto shown = text::printable(name, 15);
        row(shown + " rx, mean", mbps(ifValue(a, name, true)), mbps(ifValue(b, name, true)));
        row(shown + " tx, mean", mbps(ifValue(a, name, false)), mbps(ifValue(b, name, false)));
    }
    if (a.downMean || b.downMean) {
        row("load generator down, mean", mbps(a.downMean), mbps(b.downMean));
        row("load generator up, mean", mbps(a.upMean), mbps(b.upMean));
    }
    auto lat = [](const RecordingSummary& s, int what) -> std::string {
        if (!s.latency)
            return "-";
        if (what == 0)
            return num(s.latency->idleMs, 1) + " ms";
        if (what == 1)
            return num(s.latency->loadedMs, 1) + " ms";
        return s.latency->grade;
    };
    row("latency idle (median)", lat(a, 0), lat(b, 0));
    row("latency loaded (median)", lat(a, 1), lat(b, 1));
    row("bufferbloat grade", lat(a, 2), lat(b, 2));
    return out;
}

} // namespace coresteer

// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/live/recording.h"
#include "core/live/replay_index.h"

#include "core/base/text.h"
#include "core/collect/capture.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <limits>
#include <map>

namespace coresteer::live {

namespace {

constexpr std::string_view kMagic = "coresteer-recording 1";

using text::fixed;

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

std::string probeName(std::string_view name) {
    std::string out(name.substr(0, 63));
    for (char& c : out)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '_' && c != ':' &&
            c != '-')
            c = '_';
    return out.empty() ? std::string(kLanProbe) : out;
}

bool isProbeName(std::string_view name) {
    return !name.empty() && probeName(name) == name;
}

bool isLoadPhase(std::string_view phase) {
    return phase == "load" || phase == "download" || phase == "upload" || phase == "both";
}

void RecordingWriter::sample(double t, const SampleTexts& texts) {
    m_events += "@ " + fixed(clamp(t), 3) + '\n';
    m_events += m_encoder.encode(texts);
    ++m_ticks;
}

void RecordingWriter::gap(double t) {
    m_events += "G " + fixed(clamp(t), 3) + '\n';
}

void RecordingWriter::latency(double t, std::optional<double> ms, std::string_view probe) {
    t = clamp(t);
    if (m_tap.latency)
        m_tap.latency(t, ms, probeName(probe));
    m_events += "L " + fixed(t, 3) + ' ' +
                (ms && std::isfinite(*ms) && *ms >= 0 ? fixed(*ms, 3) : std::string("lost")) + ' ' +
                probeName(probe) + '\n';
}

void RecordingWriter::throughput(double t, double down, double up) {
    t = clamp(t);
    if (m_tap.throughput)
        m_tap.throughput(t, std::max(0.0, down), std::max(0.0, up));
    m_events += "W " + fixed(t, 3) + ' ' + fixed(std::max(0.0, down), 0) + ' ' +
                fixed(std::max(0.0, up), 0) + '\n';
}

void RecordingWriter::phase(double t, std::string_view name) {
    t = clamp(t);
    if (m_tap.phase)
        m_tap.phase(t, name);
    m_events += "P " + fixed(t, 3) + ' ' + oneLine(name) + '\n';
}

void RecordingWriter::trialStart(double t, int block, int candidate) {
    m_events += "M " + fixed(clamp(t), 3) + ' ' + std::to_string(std::max(0, block)) + ' ' +
                std::to_string(std::max(0, candidate)) + '\n';
}

void RecordingWriter::trialEnd(double t) {
    m_events += "M " + fixed(clamp(t), 3) + " end\n";
}

namespace {

std::string format(const RecordingInfo& info, std::string_view events, std::size_t ticks) {
    std::string out(kMagic);
    out += "\nlabel " + oneLine(info.label) + "\nstarted " + oneLine(info.started) + "\nhz " +
           std::to_string(info.hz) + "\ncapture " + std::to_string(info.capture.size()) + '\n' +
           info.capture + "\nlayout " + std::to_string(info.layout.size()) + '\n' + info.layout +
           '\n';
    if (!info.tune.empty())
        out += "tune " + std::to_string(info.tune.size()) + '\n' + info.tune + '\n';
    out += "events\n";
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
    // Whether the next line starts with `key` and a space.
    bool next(std::string_view key) const {
        return text::startsWith(m_text.substr(m_pos), std::string(key) + ' ');
    }

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
    std::string_view tune;
    if (h.next("tune")) {
        const auto t = h.block("tune", error);
        if (!t)
            return std::nullopt;
        tune = *t;
    }
    if (!h.field("events", error, true))
        return std::nullopt;
    r.info = {std::string(*label),   std::string(*started), static_cast<int>(*hzValue),
              std::string(*capture), std::string(*layout),  std::string(tune)};
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

} // namespace coresteer::live

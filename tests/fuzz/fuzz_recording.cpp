// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/live/recording.h"

#include <algorithm>
#include <cstdlib>
#include <vector>

namespace {

using namespace coresteer;
using namespace coresteer::live;

// The rates of a recording that reads, as every tick's files rebuilt whole and parsed whole
// give them: what Replay must give, which keeps its parse up to date line by line instead (the
// rates of a tick that read /proc/stat alone holding those before it, up to a gap).
std::vector<Rates> ratesParsedWhole(const Recording& r) {
    std::vector<Rates> out;
    SampleDecoder decoder;
    std::optional<Sample> last;
    std::optional<Rates> held;
    text::LineReader lines(r.events);
    std::string_view l;
    while (lines.next(l)) {
        if (l.front() == 'G') {
            last.reset();
            held.reset();
        }
        if (std::string_view("T+=-E").find(l.front()) == std::string_view::npos)
            continue;
        std::vector<SampleTexts> ticks;
        if (!decoder.feed(std::string(l) + '\n', ticks, nullptr))
            std::abort(); // it read
        if (ticks.empty())
            continue;
        Diagnostics d;
        auto s = parseSample(ticks.front(), d);
        if (!s)
            std::abort();
        std::optional<Rates> rates;
        if (last)
            rates = computeRates(*last, *s, held ? &*held : nullptr);
        if (rates)
            out.push_back(*rates);
        if (rates || !decoder.statOnly())
            held = std::move(rates); // Replay::noteTick
        last = std::move(s);
    }
    return out;
}

// Whether the times of the event lines never go back (a seek is then to the first event at
// its time or later; a file may have them in any order).
bool timesInOrder(const Recording& r) {
    double last = 0;
    text::LineReader lines(r.events);
    std::string_view l;
    while (lines.next(l)) {
        if (std::string_view("@GLWP").find(l.front()) == std::string_view::npos)
            continue;
        text::Tokenizer tok(l);
        std::string_view op, time;
        tok.next(op);
        tok.next(time);
        const double t = text::parseDouble(time).value_or(0);
        if (t < last)
            return false;
        last = t;
    }
    return true;
}

std::vector<ReplayEvent> play(Replay& replay) {
    std::vector<ReplayEvent> out;
    ReplayEvent e;
    while (replay.next(e))
        out.push_back(e);
    if (!replay.error().empty())
        std::abort(); // a recording that reads replays to its end
    return out;
}

} // namespace

// A recording from anyone: read, replayed, summarised and exported without a crash; a
// recording that reads always replays to its end, to the rates of its ticks parsed whole, and
// a seek anywhere gives what playing from the start gives.
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::string error;
    const auto r =
        readRecording(std::string_view(reinterpret_cast<const char*>(data), size), &error);
    if (!r)
        return 0;
    Replay replay(*r);
    const auto all = play(replay);
    std::vector<Rates> rates;
    for (const auto& e : all)
        if (e.kind == ReplayEvent::Kind::Rates)
            rates.push_back(e.rates);
    if (rates != ratesParsedWhole(*r))
        std::abort();
    if (!summarize(*r, &error) || !recordingCsv(*r, &error))
        std::abort();
    if (!timesInOrder(*r))
        return 0;
    std::vector<double> times = {0.0, r->duration / 2, r->duration, r->duration + 1};
    for (std::size_t i = 0; i < all.size(); i += 1 + all.size() / 4)
        times.push_back(all[i].t);
    Recording bare = *r; // without checkpoints: a seek reads from the start, parsing each tick
    bare.index.reset();
    for (const double t : times) {
        const auto first =
            std::find_if(all.begin(), all.end(), [t](const ReplayEvent& e) { return e.t >= t; });
        const std::vector<ReplayEvent> expected(first, all.end());
        Replay a(*r), b(bare);
        if (!a.seek(t) || !b.seek(t) || play(a) != expected || play(b) != expected)
            std::abort();
    }
    return 0;
}

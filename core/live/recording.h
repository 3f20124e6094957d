// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// A recording: one bufferbloat test, or any stretch of live sampling, in one file. It holds the
// snapshot the router gave when recording started (a capture, see capture.h), the layout in
// force then, and every tick of the sampler in the sampler's own delta records (stream.h), with
// the latency probes, a load generator's throughput and the test's phases on the same clock.
// It replays offline through the same decoder, parsers and rate math as a live router.
//
//   coresteer-recording 1
//   label <text>                     the router, as the window named it
//   started <ISO 8601 UTC>
//   hz <1..20>                       the sampling rate
//   capture <n>                      then n bytes of a capture and a newline (n may be 0)
//   layout <n>                       then n bytes of coresteer.layout/1 JSON and a newline
//   events
//   @ <t>                            the next tick's time: seconds since the start, this
//                                    machine's clock; then the tick, "T ..." to "E"
//   G <t>                            a gap: the router could not be read; no rate across it
//   L <t> <ms>|lost [<probe>]        a latency probe; <probe> names it ("lan" when absent:
//                                    the router's responsiveness from the LAN side)
//   W <t> <down b/s> <up b/s>        the load generator's throughput since its last report
//   P <t> <phase>                    the test's phase from t on: idle, load (a load of the
//                                    person's own), download, upload, both, done
//   M <t> <block> <candidate>|end    a tuner's trial of candidate <candidate> (0: the
//                                    baseline) in block <block> begins; "end": the trial
//                                    ended and the baseline is back
//   end <ticks>
//
// A tuner's run adds a section after the layout: "tune <n>", then n bytes of its result as JSON
// (its candidates, trials and verdict: core/measure/tune_json.h), and a newline.
//
// A recording is untrusted input like a router's answer: it is read strictly, with errors that
// name the line, and bounded in size.
#pragma once

#include "core/base/text.h"
#include "core/live/latency.h"
#include "core/live/sample.h"
#include "core/live/stream.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace coresteer::live {

// The probe to the router's own address on the LAN side: the router's responsiveness.
inline constexpr std::string_view kLanProbe = "lan";
// The probe from the router itself, over its SSH session, to a host past the WAN.
inline constexpr std::string_view kRouterProbe = "router";
// The demo's model of the round trip to a host past the WAN (demoload.h).
inline constexpr std::string_view kDemoProbe = "demo";
// A probe's name as a recording keeps it: letters, digits and ". _ : -", at most 63 bytes
// (host names and addresses fit; anything else becomes '_').
std::string probeName(std::string_view name);
bool isProbeName(std::string_view name);
// The phases under load, in the order a test runs them.
bool isLoadPhase(std::string_view phase);

struct RecordingInfo {
    std::string label;
    std::string started; // ISO 8601, UTC
    int hz = 10;
    std::string capture; // writeCapture() of the snapshot's files; empty when unknown
    std::string layout;  // the layout in force, as layout JSON; empty when unknown
    std::string tune;    // a tuner's result, as JSON; empty for any other recording
};

// What a recording's writer hands on as it writes, for a reader of the same events (the tuner
// measures each trial from them): the times are the recording's, as written.
struct RecordingTap {
    std::function<void(double t, std::optional<double> ms, std::string_view probe)> latency;
    std::function<void(double t, double downBitsPerSec, double upBitsPerSec)> throughput;
    std::function<void(double t, std::string_view phase)> phase;
};

class RecordingWriter {
public:
    explicit RecordingWriter(RecordingInfo info);

    // t: seconds since the recording started, on this machine's clock; never decreasing.
    void sample(double t, const SampleTexts& texts);
    void gap(double t);
    // `probe`: which probe (probeName() makes a name safe for the file).
    void latency(double t, std::optional<double> ms, std::string_view probe = kLanProbe);
    void throughput(double t, double downBitsPerSec, double upBitsPerSec);
    // "idle" (the baseline before the load), "load", or "done".
    void phase(double t, std::string_view name);
    // A tuner's trial of `candidate` in `block` begins; trialEnd(): the baseline is back.
    void trialStart(double t, int block, int candidate);
    void trialEnd(double t);
    // The tuner's result, written as the "tune" section (the file is made whole at text()).
    void setTune(std::string json) { m_info.tune = std::move(json); }
    void setTap(RecordingTap tap) { m_tap = std::move(tap); }

    std::size_t ticks() const { return m_ticks; }
    double duration() const { return m_last; }
    std::size_t bytes() const { return m_events.size(); }
    const RecordingInfo& info() const { return m_info; }
    // The whole file.
    std::string text() const;

private:
    double clamp(double t);
    RecordingInfo m_info;
    RecordingTap m_tap;
    SampleEncoder m_encoder;
    std::string m_events;
    std::size_t m_ticks = 0;
    double m_last = 0;
};

// Writes the recording to `path` whole or not at all (a temporary file renamed over it).
bool saveRecording(const RecordingWriter& w, const std::string& path, std::string* error);
// Now, as "2026-11-30T09:00:00Z".
std::string utcTimestamp();

// A replay's checkpoints (recording.cpp).
struct ReplayIndex;
struct ReplayCheckpoint;

struct Recording {
    static constexpr std::size_t kMaxBytes = 512u << 20;
    RecordingInfo info;
    std::string events;  // the event lines, checked
    int captureLine = 0; // the file's line where info.capture starts
    int firstEventLine = 0;
    std::size_t ticks = 0;
    double duration = 0;
    // Where a replay can start from, every few hundred kilobytes of events, made by
    // readRecording (which reads every event anyway) and shared by the recording's copies.
    // nullptr for a recording put together by hand: a seek then starts from the beginning.
    std::shared_ptr<const ReplayIndex> index;

    // The bytes it holds in memory (its text and its checkpoints), and its checkpoints.
    std::size_t memoryBytes() const;
    std::size_t checkpoints() const;
};

// The file again, as read.
std::string writeRecording(const Recording& r);

// nullopt with *error naming the line when the text is not a whole, well-formed recording
// (every tick is decoded and parsed, so a recording that reads here replays in full; its
// capture is read as readCapture() reads one).
std::optional<Recording> readRecording(std::string_view text, std::string* error);
std::optional<Recording> loadRecording(const std::string& path, std::string* error);

struct ReplayEvent {
    enum class Kind { Rates, Gap, Latency, Throughput, Phase, Trial };
    Kind kind = Kind::Rates;
    double t = 0;
    Rates rates;                     // Rates: since the tick before (none for the first tick)
    std::optional<double> latencyMs; // Latency: nullopt when the probe was lost
    std::string probe;               // Latency: which probe
    double downBitsPerSec = 0, upBitsPerSec = 0;
    std::string phase;
    int block = -1, candidate = -1; // Trial: which begins; -1 and -1: the trial ended
    bool operator==(const ReplayEvent&) const = default;
};

// The events of a recording in order, as the live views get them. A tick costs what changed
// in it: the decoder keeps each file's lines, only the lines of /proc/interrupts that changed
// are parsed again (the other files, a few lines each, whole when they changed), and the
// rates of the rows that did not change come from the rows themselves.
class Replay {
public:
    explicit Replay(const Recording& r);
    // False at the end, or at an error (then error() says which line).
    bool next(ReplayEvent& e);
    // Goes to time `t` (seconds since the start): next() then gives the events from the first,
    // in the file's order, whose time is `t` or later, exactly as playing from the start gives
    // them (the first tick's rates included). It starts from the recording's checkpoint before
    // `t`, or goes on from where it is when that is nearer, so a seek costs about the same
    // anywhere. False at an error.
    bool seek(double t);
    const std::string& error() const { return m_error; }
    // Ticks read so far (the first tick, and the first after a gap, give no rates).
    std::size_t ticks() const { return m_tickCount; }
    double lastTickTime() const { return m_lastTickTime; }
    // The test's phase the events read so far left it in ("" before any phase event): after a
    // seek, what a view that plays from the start would know.
    const std::string& phase() const { return m_phase; }

private:
    friend std::optional<Recording> readRecording(std::string_view text, std::string* error);
    bool fail(const std::string& why);
    // Reads on. With `e`: to the next event, which it fills. Without: to the end, an error, or
    // the first event line whose time is `until` or later, which is left unread; every event
    // still does what it does to the replay, only no rates are made, and with `decodeOnly` the
    // ticks' files are not parsed either (the sample is stale: parseAll() then). True when it
    // stopped at an event or at `until`.
    bool advance(ReplayEvent* e, double until, bool decodeOnly = false);
    // The tick that just ended: its files parsed again where they changed (only its uptime
    // with `decodeOnly`); `due` when it has rates, which fill `e` when asked for.
    bool tickEnded(double t, ReplayEvent* e, bool& due, bool decodeOnly);
    bool parseWhole(char source, Sample& s, Diagnostics& diag);
    void parseAll();
    bool updateRows(const std::vector<SampleDecoder::LineChange>& lines,
                    SampleBefore::Counts* replaced, Diagnostics& diag);
    bool simpleRow(std::size_t position, const IrqRow& row) const;
    // After each tick: the time of the last whole one, and m_held dropped when it has no rates.
    void noteTick(double t, bool rated);
    void replayWholeTick(double t);
    const ReplayCheckpoint* checkpointBefore(double t) const;
    // Starts again from a checkpoint, or from the beginning (nullptr).
    void restart(const ReplayCheckpoint* from);
    // Reads the whole recording, leaving checkpoints in `index` (readRecording).
    bool buildIndex(ReplayIndex& index);

    const Recording& m_rec;
    text::LineReader m_lines;
    SampleDecoder m_decoder;
    Sample m_sample;           // the files of the last tick, parsed
    bool m_haveSample = false; // a tick was read
    bool m_haveLast = false;   // the next tick's rates are from m_sample (not after a gap)
    bool m_stale = false;      // but its files (its uptime aside) are not parsed yet
    // The rates of the last tick, for the ticks after it that read /proc/stat alone to hold
    // (computeRates); empty when a whole tick or a gap went by without rates made.
    std::optional<Rates> m_held;
    // The decoder's lines of /proc/interrupts and the rows they made (npos: none); whether
    // the table can be kept up to date by those lines (it has its CPU header, and no file
    // came whole).
    // Rows whose count fields are the line's fields 2, 3, ... ("35:" first, nothing that
    // splits or joins tokens), so that new counts can be read from those fields alone; the
    // tick in which a row's counts were last kept for the rates.
    std::vector<std::size_t> m_rowOf;
    bool m_rowsByLine = false;
    std::vector<char> m_simple;
    std::vector<std::size_t> m_keptIn;
    double m_tickTime = -1, m_lastTickTime = 0;
    double m_wholeTickTime = -1; // the time of the last tick that read every file
    double m_latest;             // the latest time of an event line read so far
    double m_latestEvent;        // of an event given (or that would have been)
    std::size_t m_tickCount = 0;
    std::string m_phase;
    bool m_done = false;
    std::string m_error;
    ReplayIndex* m_building = nullptr;
};

// What a recording shows, for reports and for before/after comparisons. Shares are 0..1; the
// peaks are of one-second means, so one busy 100 ms tick is not a peak.
struct RecordingSummary {
    double seconds = 0;
    std::size_t ticks = 0, gaps = 0;
    struct Core {
        int cpu = 0;
        double peak = 0, mean = 0;             // busy
        double kernelPeak = 0, kernelMean = 0; // irq + softirq + system
    };
    std::vector<Core> cores;
    struct Interface {
        std::string name;
        double rxPeak = 0, rxMean = 0, txPeak = 0, txMean = 0; // bits per second
    };
    std::vector<Interface> interfaces;
    // From the load generator, when it ran: bits per second.
    std::optional<double> downPeak, downMean, upPeak, upMean;
    int probes = 0;
    // The grade of the probe that sees the most of the path: the demo's model, else the first
    // probe beyond the router there is (a host the person named, then the router's own), else
    // the LAN-side probe.
    std::optional<LatencyGrade> latency;
    std::string latencyProbe;
    // Each load phase the test ran (download, upload, both; "load" for a load of the person's
    // own), in the order it ran, with the load generator's mean throughput in it.
    struct Phase {
        std::string name;
        double seconds = 0;
        std::optional<double> downMean, upMean;
    };
    std::vector<Phase> phases;
    // Each probe, in the order it first answered or was lost: its grade over the whole load
    // and under each phase, each against the probe's own idle baseline.
    struct Probe {
        std::string name;
        int probes = 0;
        std::optional<LatencyGrade> latency;
        std::vector<std::pair<std::string, LatencyGrade>> byPhase;
    };
    std::vector<Probe> probeSummaries;

    const Core* core(int cpu) const;
    const Interface* interface(std::string_view name) const;
    const Probe* probe(std::string_view name) const;
};

std::optional<RecordingSummary> summarize(const Recording& r, std::string* error);

// One row per tick: time, each core's shares, each interface's Mb/s, the latency probe and the
// load generator's throughput that arrived with it, and the test's phase.
std::optional<std::string> recordingCsv(const Recording& r, std::string* error);

// Before and after, side by side, as a plain-text table.
std::string compareSummaries(const RecordingSummary& before, const RecordingSummary& after,
                             std::string_view beforeName, std::string_view afterName);

} // namespace coresteer::live

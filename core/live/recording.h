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
//   L <t> <ms>|lost                  a latency probe
//   W <t> <down b/s> <up b/s>        the load generator's throughput since its last report
//   P <t> idle|load|done             the test's phase from t on
//   end <ticks>
//
// A recording is untrusted input like a router's answer: it is read strictly, with errors that
// name the line, and bounded in size.
#pragma once

#include "core/live/latency.h"
#include "core/live/sample.h"
#include "core/live/stream.h"
#include "core/text.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace coresteer {

struct RecordingInfo {
    std::string label;
    std::string started; // ISO 8601, UTC
    int hz = 10;
    std::string capture; // writeCapture() of the snapshot's files; empty when unknown
    std::string layout;  // the layout in force, as layout JSON; empty when unknown
};

class RecordingWriter {
public:
    explicit RecordingWriter(RecordingInfo info);

    // t: seconds since the recording started, on this machine's clock; never decreasing.
    void sample(double t, const SampleTexts& texts);
    void gap(double t);
    void latency(double t, std::optional<double> ms);
    void throughput(double t, double downBitsPerSec, double upBitsPerSec);
    // "idle" (the baseline before the load), "load", or "done".
    void phase(double t, std::string_view name);

    std::size_t ticks() const { return m_ticks; }
    double duration() const { return m_last; }
    std::size_t bytes() const { return m_events.size(); }
    const RecordingInfo& info() const { return m_info; }
    // The whole file.
    std::string text() const;

private:
    double clamp(double t);
    RecordingInfo m_info;
    SampleEncoder m_encoder;
    std::string m_events;
    std::size_t m_ticks = 0;
    double m_last = 0;
};

// Writes the recording to `path` whole or not at all (a temporary file renamed over it).
bool saveRecording(const RecordingWriter& w, const std::string& path, std::string* error);
// Now, as "2026-11-30T09:00:00Z".
std::string utcTimestamp();

struct Recording {
    static constexpr std::size_t kMaxBytes = 512u << 20;
    RecordingInfo info;
    std::string events;  // the event lines, checked
    int captureLine = 0; // the file's line where info.capture starts
    int firstEventLine = 0;
    std::size_t ticks = 0;
    double duration = 0;
};

// The file again, as read.
std::string writeRecording(const Recording& r);

// nullopt with *error naming the line when the text is not a whole, well-formed recording
// (every tick is decoded and parsed, so a recording that reads here replays in full; its
// capture is read as readCapture() reads one).
std::optional<Recording> readRecording(std::string_view text, std::string* error);
std::optional<Recording> loadRecording(const std::string& path, std::string* error);

struct ReplayEvent {
    enum class Kind { Rates, Gap, Latency, Throughput, Phase };
    Kind kind = Kind::Rates;
    double t = 0;
    Rates rates;                     // Rates: since the tick before (none for the first tick)
    std::optional<double> latencyMs; // Latency: nullopt when the probe was lost
    double downBitsPerSec = 0, upBitsPerSec = 0;
    std::string phase;
};

// The events of a recording in order, as the live views get them.
class Replay {
public:
    explicit Replay(const Recording& r);
    // False at the end, or at an error (then error() says which line).
    bool next(ReplayEvent& e);
    const std::string& error() const { return m_error; }
    // Ticks read so far (the first tick, and the first after a gap, give no rates).
    std::size_t ticks() const { return m_tickCount; }
    double lastTickTime() const { return m_lastTickTime; }

private:
    bool fail(const std::string& why);
    const Recording& m_rec;
    text::LineReader m_lines;
    SampleDecoder m_decoder;
    std::vector<SampleTexts> m_ticks;
    std::optional<Sample> m_last;
    double m_tickTime = -1, m_lastTickTime = 0;
    std::size_t m_tickCount = 0;
    bool m_done = false;
    std::string m_error;
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
    std::optional<LatencyGrade> latency;

    const Core* core(int cpu) const;
    const Interface* interface(std::string_view name) const;
};

std::optional<RecordingSummary> summarize(const Recording& r, std::string* error);

// One row per tick: time, each core's shares, each interface's Mb/s, the latency probe and the
// load generator's throughput that arrived with it, and the test's phase.
std::optional<std::string> recordingCsv(const Recording& r, std::string* error);

// Before and after, side by side, as a plain-text table.
std::string compareSummaries(const RecordingSummary& before, const RecordingSummary& after,
                             std::string_view beforeName, std::string_view afterName);

} // namespace coresteer

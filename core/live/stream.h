// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The live sampler's wire: one awk process that stays running on the router for the whole
// session, and the decoder of what it prints.
//
// The client paces it: every line it writes to the awk's stdin is one tick. On each tick the
// awk re-reads /proc/uptime, /proc/stat (up to its intr line), /proc/softirqs (up to NET_RX),
// /proc/interrupts and /proc/net/dev, each whole with one getline, forks nothing, and prints
// only the files that changed since the last tick:
//
//   T <uptime>                   starts a tick that read every file
//   T - s                        starts a tick that read /proc/stat alone (asked by a tick line
//                                "s"): the other files' counters are as the last whole tick
//                                read them, at its uptime; and this tick read no uptime either:
//                                the client dates it (estimateUptime, sample.h)
//   T <uptime> s                 the same, dated: as a recording keeps such a tick
//   F<source> <n>                the file's text follows: exactly n bytes, whole lines
//   E                            ends the tick
//   X <file>                     the tick could not start: <file> is unreadable
//
// A file longer than the command's `wholeMax` is sent by its lines instead, after an empty F
// record; so is every file under mawk, and every tick of a recording (SampleEncoder):
//
//   +<key>\t<line>               a line seen for the first time (or whose shape changed)
//   =<key>\t<i>:<v> <i>:<v> ...  fields of a known line that changed (1-based; recordings)
//   -<key>                       a line that is gone (an IRQ freed, a CPU offline)
//
// The client asks for the other files about once a second (SshSource): /proc/stat is all the
// per-core load needs, and the others are most of what a tick costs the router. On the ticks
// between, the awk reads no uptime either: SshSource dates them (estimateUptime).
// Sources are s (stat), q (softirqs), i (interrupts) and n (net/dev); keys are the source, ':'
// and the line's first field. The decoder rebuilds each file's text and hands it to the
// snapshot parsers, so a router's bytes get the same checks here as anywhere else.
#pragma once

#include "core/live/line_store.h"
#include "core/live/sample.h"

#include <array>
#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace coresteer::live {

// The uptime of a tick that read /proc/stat alone, as the router's sampler sends it: none
// (SampleDecoder::uptime() is then this, until the client dates the tick).
inline constexpr std::string_view kNoUptime = "-";

// Files up to this many bytes go whole; longer ones by their lines.
inline constexpr std::size_t kSamplerWholeMax = 16384;

// The command that starts the sampler on the router (for `ssh host COMMAND`). `root` prefixes
// every path (fixture roots in tests; "/" on a router).
std::string makeSamplerCommand(const std::string& root, std::size_t wholeMax = kSamplerWholeMax);

// The same records made here from a sample's texts, as the awk makes them from the files: a
// recording stores the ticks of any source (a router's sampler, a local tree, the demo) in the
// sampler's own language and is read back by SampleDecoder. Only the lines the awk keeps are
// kept. Lines that went away are listed in key order (the awk's order is its hash order).
class SampleEncoder {
public:
    // The records of one tick, "T ..." to "E", each ending in a newline.
    std::string encode(const SampleTexts& t);

private:
    struct Line {
        std::string raw;
        std::vector<std::string> fields;
    };
    void update(const std::string& key, std::string_view line, std::string& out);
    void read(char source, std::string_view text, std::string& out);

    std::map<std::string, Line, std::less<>> m_lines;
    std::map<std::string, bool, std::less<>> m_seen;
};

class SampleDecoder {
public:
    static constexpr std::size_t kMaxLine = 1u << 16;
    static constexpr std::size_t kMaxKeys = 1u << 16;
    static constexpr std::size_t kMaxFile = 8u << 20;
    // The sources, in the order the files are read: /proc/stat, /proc/softirqs,
    // /proc/interrupts, /proc/net/dev.
    static constexpr std::string_view kSources = "sqin";

    // A line whose text changed: its position (for line()), and the fields (1-based) an update
    // set, from first to last; 0 and npos when the line came whole again.
    struct LineChange {
        std::size_t position = 0;
        std::size_t firstField = 0, lastField = std::string::npos;
    };
    // What the last tick changed in one source's file.
    struct Changes {
        bool changed = false;    // anything at all
        bool structural = false; // a line came or went, or the file came whole
        // Otherwise the lines whose text changed, in the order of the records; a line may be
        // there twice.
        std::vector<LineChange> lines;
    };

    // The cap on one tick: on its bytes from "T" to "E" as they arrive, and on the files the
    // decoder keeps to rebuild it. The collection spec reads /proc tables of up to 32 MiB
    // (bundle.cpp), a limit sized for 256 CPUs and 4096 IRQs, whose /proc/interrupts is about
    // 12 MB. By its lines, in the first tick, that file is nearly all of the largest tick a
    // router sends: the awk cuts the other three files to a few kilobytes. 16 MiB takes it with
    // a third to spare, and holds a router that never ends a tick to that.
    static constexpr std::size_t kMaxTickBytes = 16u << 20;
    // The client asks for one tick at a time: ticks that complete in one feed() beyond this
    // many were not asked for. Each holds a copy of the files.
    static constexpr std::size_t kMaxPendingTicks = 2;

    struct Limits {
        std::size_t tickBytes = kMaxTickBytes;
        std::size_t pendingTicks = kMaxPendingTicks;
    };

    // The whole of the decoder between two ticks, to start again from (a recording's
    // checkpoints). Copying it is cheap: the lines are shared until one changes.
    class State;

    SampleDecoder() = default;
    // Other caps than the above (the fuzz target's small ones reach them).
    explicit SampleDecoder(Limits limits) : m_limits(limits) {}
    explicit SampleDecoder(const State& state);

    // Feeds the awk's output; every tick that completes is appended to `ticks`. False with an
    // error naming the line of the stream when the output is not the sampler's, or when it
    // goes past a cap (then overflowed(), and the error names the cap).
    bool feed(std::string_view data, std::vector<SampleTexts>& ticks, std::string* error);
    // The same, for a reader that keeps its parse of the files up to date: a tick that
    // completes adds one to `ended` instead of being rebuilt as texts; changes() and text()
    // then say what it is. feedLine() takes one whole line, without its newline.
    bool feed(std::string_view data, std::size_t& ended, std::string* error);
    bool feedLine(std::string_view line, std::size_t& ended, std::string* error);
    // Bytes fed so far, the lines the files have now, and the bytes of lines made so far (see
    // LineStore::made()).
    std::uint64_t bytes() const { return m_bytes; }
    std::size_t lines() const { return m_keys; }
    std::uint64_t made() const;
    // The last failure was the sampler saying a file is unreadable (an X record): the sampler
    // itself is fine and can be asked again.
    bool unreadable() const { return m_unreadable; }
    // The last failure was a cap: the router sends more than a sampler does, and asking again
    // would bring the same flood.
    bool overflowed() const { return m_overflowed; }
    // What the decoder keeps to rebuild the files (their text, and a little for each line):
    // never more than the cap on one tick.
    std::size_t keptBytes() const { return m_kept; }

    // Between ticks: the last tick's uptime, what it changed in source kSources[k], and the
    // text of a source's file as the sampler read it. With `lineOf`, lineOf[n] is the position
    // of the text's line n + 1 (npos for the lines of a file that came whole).
    const std::string& uptime() const { return m_uptime; }
    // The last tick read /proc/stat alone; countersUptime() is then the uptime of the last tick
    // that read the other files ("?" when none has), and "" after a tick that read them all
    // (SampleTexts::countersUptime).
    bool statOnly() const { return m_statOnly; }
    std::string countersUptime() const;
    const Changes& changes(std::size_t k) const { return m_changes[k]; }
    std::string text(char source, std::vector<std::size_t>* lineOf = nullptr) const;
    // The text of the line at `position` of a source (without its newline).
    std::string_view line(char source, std::size_t position) const;
    State state() const;

private:
    // One source's file: what came whole, then its lines.
    struct Source {
        std::shared_ptr<const std::string> file;
        LineStore lines;
    };
    bool line(std::string_view l, std::vector<SampleTexts>* ticks, std::size_t* ended,
              std::string* error);
    bool feedAny(std::string_view data, std::vector<SampleTexts>* ticks, std::size_t* ended,
                 std::string* error);
    bool fileDone(std::string* error);
    // Counts `add` bytes into the tick, false past the cap.
    bool tickGrew(std::size_t add, std::string* error);
    // What is kept grew by `add` and shrank by `drop`; false past the cap.
    bool kept(std::size_t add, std::size_t drop, std::string* error);
    bool overflow(const std::string& why, std::string* error);
    Source& source(char c) { return m_sources[kSources.find(c)]; }
    const Source& source(char c) const { return m_sources[kSources.find(c)]; }
    Changes& changed(char c) { return m_changes[kSources.find(c)]; }

    Limits m_limits;
    std::string m_buf;
    std::string m_file;     // the F record being read
    std::size_t m_need = 0; // its bytes still to come
    char m_fileSource = 0;
    std::array<Source, 4> m_sources;
    std::array<Changes, 4> m_changes;
    std::size_t m_keys = 0; // lines in all sources
    std::string m_uptime;
    std::string m_countersUptime; // of the last tick that read every file
    bool m_statOnly = false;
    bool m_inTick = false;
    bool m_unreadable = false;
    bool m_overflowed = false;
    std::size_t m_tickBytes = 0, m_kept = 0;
    std::uint64_t m_lineNo = 0, m_bytes = 0;
    // Kept from one update record to the next: a line's fields, and its new text.
    std::vector<std::string_view> m_fieldViews;
    std::string m_text;
};

class SampleDecoder::State {
    friend class SampleDecoder;
    struct Source {
        std::shared_ptr<const std::string> file;
        LineStore::Frozen lines;
    };
    std::array<Source, 4> m_sources;
    std::string m_uptime, m_countersUptime;
    bool m_statOnly = false;
    std::uint64_t m_lineNo = 0, m_bytes = 0;
    std::size_t m_kept = 0;

public:
    // Heap bytes it holds, but for the lines and files it shares with `before` (an earlier
    // state of the same decoder) in the same places.
    std::size_t bytes(const State* before) const;
};

} // namespace coresteer::live

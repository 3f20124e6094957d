// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// Replay (core/live/replay.cpp): a busy router's recording replays with the same rates as
// parsing every tick whole, a seek gives what playing from the start gives, and odd rows read.
#include "core/collect/capture.h"
#include "core/collect/collect_local.h"
#include "core/live/demoload.h"
#include "core/live/loadgen.h"
#include "core/live/recording.h"
#include "core/live/source.h"
#include "core/model/snapshot.h"
#include "tests/support/board_expect.h"
#include "tests/unit/live/ten_seconds.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

using namespace coresteer;
using namespace coresteer::live;
namespace fs = std::filesystem;
using namespace coresteer::test;

namespace {

// A 4-CPU router with 400 IRQs at tick k of a long recording, with everything a replay has to
// follow: rows that fire every tick and rows that fire now and then, one whose counter goes
// back, one whose action is renamed, a row that goes away and comes back, a new row, CPU2
// offline for a while (one column fewer), a new interface.
SampleTexts busyRouter(int k) {
    const bool cpu2 = k < 420 || k >= 540;
    std::vector<int> cpus = {0, 1, 3};
    if (cpu2)
        cpus = {0, 1, 2, 3};
    SampleTexts t;
    t.uptime = std::to_string(3000 + k / 10) + "." + std::to_string(k % 10) + "0 1.00\n";
    const auto tick = static_cast<std::uint64_t>(k);
    auto load = [&](std::uint64_t base) {
        return CpuTicks{base + 7 * tick, base + 3 * tick, base / 2 + tick, base / 3 + 4 * tick,
                        base * 4 + 5 * tick};
    };
    t.stat = cpu("cpu ", load(400000));
    for (int c : cpus)
        t.stat += cpu("cpu" + std::to_string(c), load(100000 + static_cast<std::uint64_t>(c)));
    t.stat += "intr 0\n";
    std::string header = "   ";
    for (int c : cpus)
        header += "       CPU" + std::to_string(c);
    t.softirqs = header + "\n";
    for (const char* row : {"NET_TX:", "NET_RX:"}) {
        t.softirqs += row;
        for (int c : cpus)
            t.softirqs += " " + std::to_string(5000 + 13L * k + c);
        t.softirqs += "\n";
    }
    t.interrupts = header + "\n";
    char buf[64];
    for (int irq = 100; irq < 500; ++irq) {
        if (irq == 300 && k >= 300 && k < 360)
            continue;
        std::snprintf(buf, sizeof buf, "%4d: ", irq);
        t.interrupts += buf;
        for (int c : cpus) {
            long n = irq % 7 == c ? 10L * (k / (irq < 150 ? 1 : 37)) + irq : 0L;
            if (irq == 120 && k >= 900)
                n -= 5000; // the counter went back: no rate for it on that tick
            std::snprintf(buf, sizeof buf, "%10ld ", n);
            t.interrupts += buf;
        }
        t.interrupts += " GICv3 " + std::to_string(irq) + " Level eth" + std::to_string(irq % 3) +
                        (irq == 130 && k >= 660 ? "-renamed" : "") + "-rx-" + std::to_string(irq) +
                        "\n";
    }
    if (k >= 720)
        t.interrupts += "1000:" + std::string(cpus.size() * 11, ' ') + "  GICv3 1000 Edge new\n";
    t.netdev = "Inter-|   Receive\n face |bytes\n";
    for (int i = 0; i < (k >= 480 ? 3 : 2); ++i)
        t.netdev += "  eth" + std::to_string(i) + ": " + std::to_string(1000000L * k) + " " +
                    std::to_string(800L * k) + " 0 0 0 0 0 0 " + std::to_string(500000L * k) + " " +
                    std::to_string(400L * k) + " 0 0 0 0 0 0\n";
    return t;
}

constexpr int kBusyTicks = 1200;

// From tick 400 to 700 the router reads every file only on ticks 403, 413, 423, ... and
// /proc/stat alone on the others (as the live sampler does): the rates of those ticks hold the
// last IRQ, softirq and interface rates, across the gap at 600 and CPU2 going offline at 420.
bool statOnly(int k) {
    return k >= 400 && k < 700 && k % 10 != 3;
}

SampleTexts busyTick(int k) {
    auto t = busyRouter(k);
    if (!statOnly(k))
        return t;
    const auto whole = busyRouter(k - (k % 10 + 10 - 3) % 10);
    t.softirqs = whole.softirqs;
    t.interrupts = whole.interrupts;
    t.netdev = whole.netdev;
    t.countersUptime = whole.uptime.substr(0, whole.uptime.find(' '));
    return t;
}

// The recording of busyRouter, with latency probes, phases and a gap; and the rates the ticks
// give when every tick's files are rebuilt whole and parsed whole (what a replay did before it
// kept its parse up to date), by tick.
struct BusyRecording {
    std::string text;
    std::map<int, Rates> rates;
};

const BusyRecording& busyRecording() {
    static const BusyRecording r = [] {
        BusyRecording out;
        RecordingWriter w(info());
        SampleEncoder encoder;
        SampleDecoder decoder;
        std::optional<Sample> last;
        std::optional<Rates> held;
        for (int k = 0; k < kBusyTicks; ++k) {
            const double t = k * 0.1;
            if (k % 180 == 0)
                w.phase(t, k < 1080 ? "load" : "done");
            if (k == 600) {
                w.gap(t);
                last.reset();
                held.reset();
            }
            const auto texts = busyTick(k);
            w.sample(t, texts);
            if (k % 5 == 0)
                w.latency(t, 3.0 + k % 7);
            std::vector<SampleTexts> ticks;
            std::string why;
            EXPECT_TRUE(decoder.feed(encoder.encode(texts), ticks, &why)) << why;
            Diagnostics d;
            auto s = parseSample(ticks.back(), d);
            EXPECT_TRUE(s);
            EXPECT_EQ(s->countersUptime < 0, !statOnly(k)) << k;
            if (last)
                if (auto rates = computeRates(*last, *s, held ? &*held : nullptr)) {
                    held = rates;
                    out.rates[k] = std::move(*rates);
                }
            last = std::move(s);
        }
        out.text = w.text();
        return out;
    }();
    return r;
}

// The events a replay gives from where it is: all, or the first `most`.
std::vector<ReplayEvent> playFrom(Replay& replay, std::size_t most = SIZE_MAX) {
    std::vector<ReplayEvent> out;
    ReplayEvent e;
    while (out.size() < most && replay.next(e))
        out.push_back(e);
    EXPECT_TRUE(replay.error().empty()) << replay.error();
    return out;
}

} // namespace

TEST(Recording, ReplayKeepsItsParseUpToDateWithTheSameRatesAsParsingEveryTickWhole) {
    const auto& busy = busyRecording();
    std::string error;
    const auto r = readRecording(busy.text, &error);
    ASSERT_TRUE(r) << error;
    EXPECT_EQ(r->ticks, static_cast<std::size_t>(kBusyTicks));
    Replay replay(*r);
    std::size_t rates = 0, resets = 0;
    for (const auto& e : playFrom(replay)) {
        if (e.kind != ReplayEvent::Kind::Rates)
            continue;
        const int k = static_cast<int>(std::lround(e.t * 10));
        const auto it = busy.rates.find(k);
        ASSERT_NE(it, busy.rates.end()) << "tick " << k;
        EXPECT_TRUE(e.rates == it->second) << "tick " << k;
        resets += static_cast<std::size_t>(e.rates.resets);
        ++rates;
    }
    EXPECT_EQ(rates, busy.rates.size());
    EXPECT_GT(resets, 0u);
    // A tick of /proc/stat alone holds the IRQ, softirq and interface rates of the last whole
    // tick (413's, between 403 and 413), its core loads its own; none just after the gap,
    // until a whole tick (603) gives them again, over the second since the last (593).
    const auto& held = busy.rates.at(417);
    EXPECT_DOUBLE_EQ(held.start, 3041.6);
    EXPECT_DOUBLE_EQ(held.countersStart, 3040.3);
    EXPECT_DOUBLE_EQ(held.countersEnd, 3041.3);
    EXPECT_FALSE(held.cores.empty());
    EXPECT_EQ(held.irqs, busy.rates.at(413).irqs);
    EXPECT_EQ(held.interfaces, busy.rates.at(413).interfaces);
    ASSERT_TRUE(held.irq(100));
    EXPECT_GT(held.irq(100)->total, 0);
    EXPECT_TRUE(busy.rates.at(601).irqs.empty());
    EXPECT_FALSE(busy.rates.at(601).cores.empty());
    EXPECT_DOUBLE_EQ(busy.rates.at(603).countersStart, 3059.3);
    EXPECT_FALSE(busy.rates.at(603).irqs.empty());
}

TEST(Recording, SeekGivesExactlyWhatPlayingFromTheStartGives) {
    const auto& busy = busyRecording();
    std::string error;
    const auto r = readRecording(busy.text, &error);
    ASSERT_TRUE(r) << error;
    EXPECT_GT(r->checkpoints(), 3u); // the recording is more than a megabyte of events
    EXPECT_GT(r->memoryBytes(), r->events.size());
    Replay whole(*r);
    const auto all = playFrom(whole);
    ASSERT_GT(all.size(), 1200u);
    // What a seek to `t` must give: the events from the first at `t` or later (the first
    // `most` of them).
    auto from = [&](double t, std::size_t most = SIZE_MAX) {
        const auto first =
            std::find_if(all.begin(), all.end(), [t](const ReplayEvent& e) { return e.t >= t; });
        const auto n = std::min(static_cast<std::size_t>(all.end() - first), most);
        return std::vector<ReplayEvent>(first, first + static_cast<std::ptrdiff_t>(n));
    };
    Recording bare = *r; // no checkpoints: a seek starts from the beginning
    bare.index.reset();
    Replay reused(*r);
    ReplayEvent e;
    constexpr std::size_t kSome = 40;
    for (const double t : {0.0, 0.05, 12.34, 29.95, 30.0, 41.9, 51.0, 59.95, 60.0, 60.05, 71.9,
                           90.0, 103.3, 119.9, 120.0, 1e9, -1.0}) {
        Replay fresh(*r);
        ASSERT_TRUE(fresh.seek(t)) << fresh.error();
        EXPECT_TRUE(playFrom(fresh, kSome) == from(t, kSome)) << "seek to " << t;
        // From wherever another replay stands: back, forward, twice in a row.
        ASSERT_TRUE(reused.seek(t)) << reused.error();
        if (reused.next(e)) {
            EXPECT_TRUE(!from(t).empty() && e == from(t).front()) << "seek to " << t;
        }
        ASSERT_TRUE(reused.seek(t)) << reused.error();
        EXPECT_TRUE(playFrom(reused, kSome) == from(t, kSome)) << "seek to " << t;
    }
    // To the end, from a checkpoint and without one.
    for (const double t : {29.95, 90.0}) {
        Replay fresh(*r), slow(bare);
        ASSERT_TRUE(fresh.seek(t) && slow.seek(t));
        EXPECT_TRUE(playFrom(fresh) == from(t)) << "seek to " << t;
        EXPECT_TRUE(playFrom(slow) == from(t)) << "seek to " << t << " without checkpoints";
    }
}

namespace {

// IRQ 33's perCpu at each tick of a recording of a 2-CPU router: the first tick sends `first`
// for its line, each tick after it `records[k]` (one tick a second, a busy CPU0).
std::vector<std::vector<double>> irq33Rates(const std::string& first,
                                            const std::vector<std::string>& records) {
    std::string events = "@ 0.000\nT 100.00\n+s:cpu0\tcpu0 1 0 1 10 0 0 0 0 0 0\n"
                         "+i:H\t CPU0 CPU1\n+i:33:\t" +
                         first + "\nE\n";
    for (std::size_t k = 1; k <= records.size(); ++k)
        events += "@ " + std::to_string(k) + ".000\nT " + std::to_string(100 + k) +
                  ".00\n=s:cpu0\t5:" + std::to_string(10 + 100 * k) + "\n" + records[k - 1] + "E\n";
    const auto text = "coresteer-recording 1\nlabel x\nstarted 2026-11-30T00:00:00Z\nhz 10\n"
                      "capture 0\n\nlayout 0\n\nevents\n" +
                      events + "end " + std::to_string(records.size() + 1) + "\n";
    std::string error;
    const auto r = readRecording(text, &error);
    EXPECT_TRUE(r) << error;
    std::vector<std::vector<double>> out;
    if (!r)
        return out;
    Replay replay(*r);
    for (const auto& e : playFrom(replay)) {
        EXPECT_EQ(e.rates.resets, 0);
        if (const auto* irq = e.rates.irq(33))
            out.push_back(irq->perCpu);
    }
    return out;
}

} // namespace

// A row whose first count touches its label ("33:0 5 ..."): its fields are not its counts one
// for one, so an update of its fields is read as the whole line.
TEST(Recording, ReplayReadsARowWhoseFirstCountTouchesItsLabel) {
    EXPECT_EQ(irq33Rates("33:0 5 GICv3 33 Level eth0",
                         {"=i:33:\t2:6\n", "=i:33:\t2:9\n", "=i:33:\t2:14\n"}),
              (std::vector<std::vector<double>>{{0, 1}, {0, 3}, {0, 5}}));
}

// A line updated by its fields and sent whole again in the same tick, either way round: the
// row is what the line says at the end of the tick.
TEST(Recording, ReplayReadsALineChangedTwiceInATickAsItEnds) {
    // Counts (0, 5), then (1, 6), (2, 8) ("33:2 8 12 ...": its fields are no longer its counts
    // one for one), (4, 15).
    EXPECT_EQ(irq33Rates("33: 0 5 GICv3 33 Level eth0",
                         {"=i:33:\t3:9\n+i:33:\t33: 1 6 GICv3 33 Level eth0\n",
                          "+i:33:\t33:2 8 9 GICv3 33 Level eth0\n=i:33:\t3:12\n",
                          "=i:33:\t2:3\n+i:33:\t33: 4 15 GICv3 33 Level eth0\n"}),
              (std::vector<std::vector<double>>{{1, 1}, {1, 2}, {2, 7}}));
}

// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// Recordings (core/live/recording.h): what is written reads back and replays to the same rates
// as live; a broken file is refused with its line; the demo's model records and replays.
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

#include <tuple>

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

TEST(Recording, WritesReadsAndReplaysToTheSameRatesAsLive) {
    const auto w = tenSeconds();
    const auto text = w.text();
    std::string error;
    const auto r = readRecording(text, &error);
    ASSERT_TRUE(r) << error;
    EXPECT_EQ(r->info.label, "root@r6s");
    EXPECT_EQ(r->info.started, "2026-11-30T09:00:00Z");
    EXPECT_EQ(r->info.hz, 10);
    EXPECT_EQ(r->info.capture, info().capture);
    EXPECT_EQ(r->info.layout, info().layout);
    EXPECT_EQ(r->ticks, 101u);
    EXPECT_DOUBLE_EQ(r->duration, 10.0);
    EXPECT_EQ(writeRecording(*r), text); // what was read writes back the same

    Replay replay(*r);
    ReplayEvent e;
    int rates = 0, latency = 0, lost = 0, throughput = 0;
    std::vector<std::string> phases;
    while (replay.next(e)) {
        switch (e.kind) {
        case ReplayEvent::Kind::Rates: {
            ++rates;
            // Live: the same two samples through computeRates.
            const auto* c0 = e.rates.core(0);
            const auto* c1 = e.rates.core(1);
            ASSERT_TRUE(c0 && c1);
            EXPECT_NEAR(c0->softirq, 1.0, 1e-9);
            EXPECT_NEAR(c1->user, 0.25, 1e-9);
            EXPECT_NEAR(e.rates.seconds(), 0.1, 1e-6);
            ASSERT_TRUE(e.rates.irq(45));
            EXPECT_NEAR(e.rates.irq(45)->perCpu[0], 20000, 1e-6);
            ASSERT_EQ(e.rates.interfaces.size(), 1u);
            EXPECT_NEAR(e.rates.interfaces[0].rxBitsPerSec, 10e6, 1e3);
            break;
        }
        case ReplayEvent::Kind::Latency:
            ++latency;
            lost += e.latencyMs ? 0 : 1;
            break;
        case ReplayEvent::Kind::Throughput:
            ++throughput;
            EXPECT_DOUBLE_EQ(e.downBitsPerSec, 900e6);
            EXPECT_DOUBLE_EQ(e.upBitsPerSec, 40e6);
            break;
        case ReplayEvent::Kind::Phase:
            phases.push_back(e.phase);
            break;
        case ReplayEvent::Kind::Gap:
            ADD_FAILURE() << "no gap was recorded";
            break;
        case ReplayEvent::Kind::Trial:
            ADD_FAILURE() << "no trial was recorded";
        }
    }
    EXPECT_TRUE(replay.error().empty()) << replay.error();
    EXPECT_EQ(rates, 100); // the first tick has no rate
    EXPECT_EQ(latency, 101);
    EXPECT_EQ(lost, 7); // i = 35, 45, ..., 95
    EXPECT_EQ(throughput, 10);
    EXPECT_EQ(phases, (std::vector<std::string>{"idle", "load", "done"}));
    // Only what changed is stored: far less than the files themselves.
    const auto full = texts(1, {}, {}, 0, 0);
    const auto fullBytes = full.uptime.size() + full.stat.size() + full.softirqs.size() +
                           full.interrupts.size() + full.netdev.size();
    std::printf("recording: %zu ticks in %zu bytes of events (%zu bytes a tick; the files are "
                "%zu)\n",
                r->ticks, w.bytes(), w.bytes() / r->ticks, fullBytes);
    EXPECT_LT(w.bytes() / r->ticks, fullBytes / 2);
}

TEST(Recording, AGapBreaksTheRatesAndAnIrqThatGoesAwayIsRemoved) {
    RecordingWriter w(info());
    w.sample(0, texts(100, {0, 0, 0, 0, 0}, {0, 0, 0, 0, 0}, 0, 0));
    w.sample(1, texts(101, {100, 0, 0, 0, 0}, {0, 0, 0, 0, 100}, 50, 0, false));
    w.gap(1.5);
    // After the gap the router rebooted: its clock and counters start again.
    w.sample(20, texts(5, {10, 0, 0, 0, 0}, {0, 0, 0, 0, 10}, 0, 0));
    w.sample(21, texts(6, {10, 0, 0, 0, 100}, {0, 100, 0, 0, 10}, 0, 0));
    std::string error;
    const auto r = readRecording(w.text(), &error);
    ASSERT_TRUE(r) << error;
    Replay replay(*r);
    ReplayEvent e;
    std::vector<ReplayEvent::Kind> kinds;
    std::vector<double> cpu0Busy;
    while (replay.next(e)) {
        kinds.push_back(e.kind);
        if (e.kind == ReplayEvent::Kind::Rates) {
            cpu0Busy.push_back(e.rates.core(0)->busy());
            // Before the gap IRQ 45 went away; after it, both ticks have it again.
            EXPECT_EQ(e.rates.irq(45) != nullptr, cpu0Busy.size() == 2);
        }
    }
    EXPECT_TRUE(replay.error().empty()) << replay.error();
    EXPECT_EQ(kinds,
              (std::vector<ReplayEvent::Kind>{ReplayEvent::Kind::Rates, ReplayEvent::Kind::Gap,
                                              ReplayEvent::Kind::Rates}));
    EXPECT_EQ(cpu0Busy, (std::vector<double>{1.0, 0.0}));
}

TEST(Recording, ABrokenFileIsRefusedNamingItsLine) {
    const auto good = tenSeconds().text();
    std::string error;
    auto fails = [&](const std::string& text, const std::string& expected) {
        error.clear();
        EXPECT_FALSE(readRecording(text, &error)) << expected;
        EXPECT_NE(error.find(expected), std::string::npos) << "error: " << error;
    };
    fails("", "not a coresteer recording");
    fails("coresteer-recording 2\n", "not a coresteer recording");
    fails(good.substr(0, good.size() / 2), "no 'end' line");
    auto replaced = [&](const std::string& from, const std::string& to) {
        auto t = good;
        const auto at = t.find(from);
        EXPECT_NE(at, std::string::npos) << from;
        return t.replace(at, from.size(), to);
    };
    fails(replaced("hz 10\n", "hz 50\n"), "recording line 4: hz must be 1 to 20");
    fails(replaced("capture " + std::to_string(info().capture.size()) + "\n", "capture 9999999\n"),
          "recording line 5: 'capture' gives a size");
    fails(replaced("end 101\n", "end 100\n"), "'end' says 100 ticks, the file has 101");
    fails(replaced("coresteer-capture 1 ", "coresteer-capture 9 "),
          "recording line 6: not a coresteer capture");
    // The events start on line 17: the capture block takes lines 6 to 13 (its text ends in a
    // newline, and the block's own newline follows), the layout 15.
    const auto events = good.find("}\nevents\n") + 9; // after the layout block
    auto at = [&](const std::string& insert) {
        auto t = good;
        return t.insert(events, insert);
    };
    fails(at("Q 1.0\n"), "recording line 17: bad event 'Q 1.0'");
    fails(at("L x 3\n"), "recording line 17: bad time 'x'");
    fails(at("L 1.0 -3\n"), "recording line 17: bad latency '-3'");
    fails(at("P 1.0 idle extra\n"), "recording line 17: unexpected 'extra'");
    fails(at("P 1.0 sideways\n"), "recording line 17: bad event 'P 1.0 sideways'");
    fails(at("L 1.0 3 a$(reboot)\n"), "recording line 17: bad probe name 'a$(reboot)'");
    fails(at("L 1.0 3 lan extra\n"), "recording line 17: unexpected 'extra'");
    fails(at("T 5\n"), "recording line 17: a tick without its '@' time");
    fails(at("@ 0\n@ 0\n"), "recording line 18: a tick time with no tick after it");
    fails(at("@ 0\nT 5\n=s:cpu9\t1:2\n"), "recording line 19: an update of an unknown line");
    fails(at("@ 0\nT 5\n+s:cpu0\tcpu0 x\nE\n"),
          "recording line 20: a tick that does not parse: proc/stat");
    fails(replaced("\nend 101", "\n@ 10.1\nend 102"), "the last tick is cut short");
    fails(at("M 1.0 x 2\n"), "recording line 17: bad trial 'M 1.0 x 2'");
    fails(at("M 1.0 1\n"), "recording line 17: bad trial 'M 1.0 1'");
    fails(at("M 1.0 1 99999\n"), "recording line 17: bad trial");
    fails(at("M 1.0 end 3\n"), "recording line 17: unexpected '3'");
    fails(replaced("}\nevents\n", "}\ntune 999\n{}\nevents\n"), "'tune' gives a size");
}

// A tuner's run: each trial's start (block, candidate) and end on the recording's clock, and
// its result as the "tune" section, which reads back byte for byte; a recording without one
// has none.
TEST(Recording, TheTunersTrialsAndResultReadBack) {
    RecordingWriter w(info());
    w.sample(0, texts(100, {0, 0, 0, 0, 0}, {0, 0, 0, 0, 0}, 0, 0));
    w.trialStart(0.5, 0, 2);
    w.phase(0.5, "idle");
    w.sample(1, texts(101, {1, 0, 0, 0, 0}, {0, 0, 0, 0, 0}, 0, 0));
    w.trialEnd(1.5);
    w.trialStart(1.6, 0, 0);
    w.trialEnd(1.9);
    const std::string tune = R"({"schema":"coresteer.tune/1","candidates":[]})";
    w.setTune(tune);
    std::string error;
    const auto r = readRecording(w.text(), &error);
    ASSERT_TRUE(r) << error;
    EXPECT_EQ(r->info.tune, tune);
    EXPECT_EQ(writeRecording(*r), w.text());
    Replay replay(*r);
    ReplayEvent e;
    std::vector<std::tuple<double, int, int>> trials;
    while (replay.next(e))
        if (e.kind == ReplayEvent::Kind::Trial)
            trials.emplace_back(e.t, e.block, e.candidate);
    EXPECT_TRUE(replay.error().empty()) << replay.error();
    EXPECT_EQ(trials, (std::vector<std::tuple<double, int, int>>{
                          {0.5, 0, 2}, {1.5, -1, -1}, {1.6, 0, 0}, {1.9, -1, -1}}));
    // The summary reads past the marks.
    EXPECT_TRUE(summarize(*r, &error)) << error;
    EXPECT_TRUE(readRecording(tenSeconds().text(), &error)->info.tune.empty());
}

// Any source's ticks, re-encoded here, decode to the same files as the sampler's own records:
// the demo model's load over a minute at 10 Hz, recorded and replayed.
TEST(Recording, TheDemoModelRecordedThroughTheLocalSourceReplaysItsLoad) {
    const auto dir = fs::path(CORESTEER_TEST_TMP) / "recording-demo";
    fs::remove_all(dir);
    fs::create_directories(dir);
    fs::copy(test::boardDir("nanopi-r6s-friendlywrt"), dir,
             fs::copy_options::recursive | fs::copy_options::copy_symlinks);
    std::string error;
    const auto bundle = collectLocal(dir);
    const auto snap = buildSnapshot(bundle);
    auto demo = DemoLoad::create(dir.string(), snap, &error);
    ASSERT_TRUE(demo) << error;
    auto source = localSampleSource(dir.string());
    RecordingInfo i;
    i.label = "demo";
    i.capture = writeCapture(bundle);
    RecordingWriter w(i);
    std::vector<Sample> samples;
    for (int k = 0; k < 600; ++k) {
        ASSERT_TRUE(demo->step(0.1, &error)) << error;
        auto s = source->next(&error);
        ASSERT_TRUE(s) << error;
        w.sample(k * 0.1, source->lastTexts());
        samples.push_back(std::move(*s));
    }
    const auto r = readRecording(w.text(), &error);
    ASSERT_TRUE(r) << error;
    Replay replay(*r);
    ReplayEvent e;
    std::size_t k = 1;
    while (replay.next(e)) {
        ASSERT_EQ(e.kind, ReplayEvent::Kind::Rates);
        const auto live = computeRates(samples[k - 1], samples[k]);
        ASSERT_TRUE(live);
        ASSERT_EQ(e.rates.cores.size(), live->cores.size());
        for (std::size_t c = 0; c < live->cores.size(); ++c)
            EXPECT_DOUBLE_EQ(e.rates.cores[c].busy(), live->cores[c].busy());
        ASSERT_EQ(e.rates.interfaces.size(), live->interfaces.size());
        for (std::size_t n = 0; n < live->interfaces.size(); ++n)
            EXPECT_DOUBLE_EQ(e.rates.interfaces[n].rxBitsPerSec, live->interfaces[n].rxBitsPerSec);
        for (const auto& irq : live->irqs) {
            ASSERT_TRUE(e.rates.irq(irq.irq)) << irq.irq;
            EXPECT_EQ(e.rates.irq(irq.irq)->perCpu, irq.perCpu);
        }
        ++k;
    }
    EXPECT_TRUE(replay.error().empty()) << replay.error();
    EXPECT_EQ(k, samples.size());
    // The capture in the recording is the snapshot's own files.
    const auto back = readCapture(r->info.capture, &error);
    ASSERT_TRUE(back) << error;
    EXPECT_EQ(buildSnapshot(*back).interfaces.size(), snap.interfaces.size());
    std::printf("demo: 60 s at 10 Hz of an 8-core router recorded in %zu bytes of events "
                "(%zu a tick), %zu bytes in all\n",
                w.bytes(), w.bytes() / 600, w.text().size());
    const auto s = summarize(*r, &error);
    ASSERT_TRUE(s);
    // The default layout: the LITTLE core that takes the NIC IRQs is the bottleneck.
    double hottest = 0;
    for (const auto& core : s->cores)
        hottest = std::max(hottest, core.peak);
    EXPECT_GT(hottest, 0.9);
}

// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// What a recording says in numbers: its summary, its CSV, two compared side by side.
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

TEST(Recording, SummaryGivesPeaksOfOneSecondMeansThroughputAndTheGrade) {
    std::string error;
    const auto r = readRecording(tenSeconds().text(), &error);
    ASSERT_TRUE(r) << error;
    const auto s = summarize(*r, &error);
    ASSERT_TRUE(s) << error;
    EXPECT_EQ(s->ticks, 100u);
    EXPECT_DOUBLE_EQ(s->seconds, 10.0);
    ASSERT_EQ(s->cores.size(), 2u);
    EXPECT_NEAR(s->core(0)->peak, 1.0, 1e-9);
    EXPECT_NEAR(s->core(0)->mean, 1.0, 1e-9);
    EXPECT_NEAR(s->core(0)->kernelMean, 1.0, 1e-9);
    EXPECT_NEAR(s->core(1)->mean, 0.25, 1e-9);
    EXPECT_NEAR(s->core(1)->kernelMean, 0.0, 1e-9);
    ASSERT_TRUE(s->interface("eth0"));
    EXPECT_NEAR(s->interface("eth0")->rxMean, 10e6, 1e3);
    ASSERT_TRUE(s->downMean && s->upMean);
    EXPECT_NEAR(*s->downMean, 900e6, 1);
    EXPECT_NEAR(*s->upMean, 40e6, 1);
    EXPECT_EQ(s->probes, 101);
    ASSERT_TRUE(s->latency);
    EXPECT_DOUBLE_EQ(s->latency->idleMs, 10.0);
    EXPECT_DOUBLE_EQ(s->latency->loadedMs, 50.0);
    EXPECT_EQ(s->latency->grade, "B"); // +40 ms
    EXPECT_EQ(s->latency->lost, 7);
    EXPECT_DOUBLE_EQ(s->latency->p95LoadedMs, 50.0);
    EXPECT_DOUBLE_EQ(s->latency->p95IncreaseMs, 40.0);

    // A peak is of one-second means: one busy tick in an idle second is not a peak of 100 %.
    RecordingWriter w(info());
    for (int i = 0; i <= 20; ++i) {
        const auto k = static_cast<std::uint64_t>(i) * 10;
        const std::uint64_t busy = i >= 5 ? 10 : 0; // one busy tick, at i = 5
        w.sample(i * 0.1, texts(i * 0.1 + 1, {busy, 0, 0, 0, k - busy}, {0, 0, 0, 0, k}, 0, 0));
    }
    const auto spike = readRecording(w.text(), &error);
    ASSERT_TRUE(spike) << error;
    const auto ss = summarize(*spike, &error);
    ASSERT_TRUE(ss);
    EXPECT_NEAR(ss->core(0)->peak, 0.1, 1e-9);
    EXPECT_NEAR(ss->core(0)->mean, 0.05, 1e-9);
    EXPECT_FALSE(ss->latency);
    EXPECT_FALSE(ss->downMean);
}

TEST(Recording, CsvHasOneRowPerTickWithEveryCoreAndInterface) {
    std::string error;
    const auto r = readRecording(tenSeconds().text(), &error);
    ASSERT_TRUE(r) << error;
    const auto csv = recordingCsv(*r, &error);
    ASSERT_TRUE(csv) << error;
    std::vector<std::string> lines;
    std::istringstream in(*csv);
    for (std::string l; std::getline(in, l);)
        lines.push_back(l);
    ASSERT_EQ(lines.size(), 101u); // the header and 100 rates
    EXPECT_EQ(lines[0],
              "t_s,uptime_s,cpu0_busy_pct,cpu0_user_pct,cpu0_system_pct,cpu0_irq_pct,"
              "cpu0_softirq_pct,cpu1_busy_pct,cpu1_user_pct,cpu1_system_pct,cpu1_irq_pct,"
              "cpu1_softirq_pct,\"eth0_rx_mbps\",\"eth0_tx_mbps\",latency_ms,down_mbps,up_mbps,"
              "phase");
    // t = 1.0: CPU0 all softirq, CPU1 a quarter user, the probe of that tick.
    EXPECT_EQ(lines[10], "1.000,501.00,100.0,0.0,0.0,0.0,100.0,25.0,25.0,0.0,0.0,0.0,10.000,0.000,"
                         "10.000,,,idle");
    // The load generator's report written after that tick comes with the next.
    EXPECT_EQ(lines[11], "1.100,501.10,100.0,0.0,0.0,0.0,100.0,25.0,25.0,0.0,0.0,0.0,10.000,0.000,"
                         "10.000,900.000,40.000,idle");
    EXPECT_NE(lines[36].find(",lost,"), std::string::npos) << lines[36];
    EXPECT_NE(lines[40].find(",load"), std::string::npos) << lines[40];
}

// A test in phases with three probes: each probe is graded against its own idle baseline,
// over the whole load and per phase, the headline is the probe beyond the router, and each
// phase has the load generator's throughput. Probe names are kept as the file's own token.
TEST(Recording, EachProbeIsGradedPerPhaseAndTheHeadlineIsBeyondTheRouter) {
    RecordingWriter w(info());
    w.phase(0, "idle");
    // Per phase: the beyond probe's and the router's latency, down and up Mb/s.
    struct Step {
        const char* phase;
        double beyond, router, down, up;
    };
    const Step steps[] = {{"idle", 20, 15, 0, 0},
                          {"download", 80, 70, 40, 0},
                          {"upload", 40, 30, 0, 10},
                          {"both", 220, 200, 30, 8}};
    double t = 0;
    int tick = 0;
    for (const auto& s : steps) {
        if (std::string(s.phase) != "idle")
            w.phase(t, s.phase);
        for (int i = 0; i < 30; ++i, t += 0.1, ++tick) {
            const auto k = static_cast<std::uint64_t>(tick) * 20;
            w.sample(t, texts(500 + t, {0, 0, 0, k, 0}, {k, 0, 0, 0, 0}, k, k * 1000));
            w.latency(t, 1.0); // the router's own address, LAN side: never bloats here
            w.latency(t, s.router, kRouterProbe);
            w.latency(t, i == 7 ? std::nullopt : std::optional(s.beyond), "one.one.example");
            if (s.down + s.up > 0 && i % 5 == 4)
                w.throughput(t, s.down * 1e6, s.up * 1e6);
        }
    }
    w.latency(t, 5000, "bad name;$(x)"); // made safe by the writer, graded as its own probe
    w.phase(t, "done");
    std::string error;
    const auto rec = readRecording(w.text(), &error);
    ASSERT_TRUE(rec) << error;
    const auto s = summarize(*rec, &error);
    ASSERT_TRUE(s) << error;
    ASSERT_TRUE(s->latency);
    EXPECT_EQ(s->latencyProbe, "one.one.example");
    EXPECT_DOUBLE_EQ(s->latency->idleMs, 20);
    EXPECT_EQ(s->latency->lost, 3);
    std::vector<std::string> names;
    for (const auto& p : s->probeSummaries)
        names.push_back(p.name);
    EXPECT_EQ(names,
              (std::vector<std::string>{"lan", "router", "one.one.example", "bad_name___x_"}));
    const auto* lan = s->probe("lan");
    ASSERT_TRUE(lan && lan->latency);
    EXPECT_EQ(lan->latency->grade, "A+");
    auto phase = [](const RecordingSummary::Probe& p, const std::string& name) {
        for (const auto& [n, g] : p.byPhase)
            if (n == name)
                return std::optional(g);
        return std::optional<LatencyGrade>();
    };
    const auto* router = s->probe("router");
    ASSERT_TRUE(router);
    ASSERT_EQ(router->byPhase.size(), 3u);
    EXPECT_EQ(router->byPhase[0].first, "download");
    EXPECT_EQ(router->byPhase[2].first, "both");
    EXPECT_DOUBLE_EQ(phase(*router, "download")->increaseMs, 55);
    EXPECT_EQ(phase(*router, "download")->grade, "B");
    EXPECT_DOUBLE_EQ(phase(*router, "upload")->increaseMs, 15);
    EXPECT_EQ(phase(*router, "upload")->grade, "A");
    EXPECT_DOUBLE_EQ(phase(*router, "both")->increaseMs, 185);
    EXPECT_EQ(phase(*router, "both")->grade, "C");
    const auto* beyond = s->probe("one.one.example");
    ASSERT_TRUE(beyond);
    EXPECT_EQ(phase(*beyond, "both")->grade, "D");
    EXPECT_EQ(phase(*beyond, "download")->lost, 1);
    ASSERT_EQ(s->phases.size(), 3u);
    EXPECT_EQ(s->phases[0].name, "download");
    EXPECT_NEAR(s->phases[0].seconds, 3.0, 1e-9);
    ASSERT_TRUE(s->phases[0].downMean);
    EXPECT_NEAR(*s->phases[0].downMean, 40e6, 1);
    EXPECT_NEAR(*s->phases[1].upMean, 10e6, 1);
    EXPECT_NEAR(*s->phases[2].downMean, 30e6, 1);
    EXPECT_NEAR(*s->phases[2].upMean, 8e6, 1);
    // The CSV has a column per probe; the comparison a row per probe and phase.
    const auto csv = recordingCsv(*rec, &error);
    ASSERT_TRUE(csv) << error;
    const auto header = csv->substr(0, csv->find('\n'));
    EXPECT_NE(header.find(",latency_ms,\"latency_router_ms\",\"latency_one.one.example_ms\","),
              std::string::npos)
        << header;
    const auto cmp = compareSummaries(*s, *s, "a", "b");
    EXPECT_NE(cmp.find("grade router, both"), std::string::npos) << cmp;
    EXPECT_NE(cmp.find("C (+185.0 ms)"), std::string::npos) << cmp;
}

TEST(Recording, CompareShowsBeforeAndAfterSideBySide) {
    std::string error;
    const auto before = readRecording(tenSeconds().text(), &error);
    ASSERT_TRUE(before) << error;
    const auto a = summarize(*before, &error);
    auto b = *a;
    b.cores[0].peak = 0.6;
    b.cores[0].mean = 0.55;
    b.latency->loadedMs = 12;
    b.latency->grade = "A";
    const auto text = compareSummaries(*a, b, "before.csrec", "after.csrec");
    EXPECT_NE(text.find("before.csrec"), std::string::npos) << text;
    EXPECT_NE(text.find("cpu0 busy, peak                           100.0 %               60.0 %"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("load generator down, mean              900.0 Mb/s           900.0 Mb/s"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("bufferbloat grade                               B                    A"),
              std::string::npos)
        << text;
}

// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// One trial's measures from its events: throughput over the steady part of each phase, the
// latency increase over the block's pooled idle round trips (median and p90) per probe, the
// headline probe, and the cores' shares under load.
#include "core/live/recording.h"
#include "core/measure/trial.h"

#include <gtest/gtest.h>

using namespace coresteer;
using namespace coresteer::measure;

namespace {

live::Rates coreRates(double busy0, double busy1) {
    live::Rates r;
    live::CoreLoad a, b;
    a.cpu = 0;
    a.idle = 1 - busy0;
    a.softirq = busy0 / 2;
    b.cpu = 1;
    b.idle = 1 - busy1;
    b.softirq = busy1 / 2;
    r.cores = {a, b};
    return r;
}

} // namespace

TEST(Trial, SteadyThroughputAndTheIncreaseOverTheBlocksIdle) {
    TrialLog log;
    log.from = 10;
    log.phase(10, "idle");
    for (int i = 0; i < 10; ++i)
        log.latency(10 + 0.1 * i, 20.0 + (i % 2), "8.8.8.8");
    log.latency(10.5, 1.0, "lan");
    log.rates(coreRates(0.9, 0.9)); // idle: not counted
    log.phase(11, "download");
    log.throughput(11.3, 10e6, 0); // the ramp: left out
    log.throughput(12.5, 100e6, 1e6);
    log.throughput(13.0, 110e6, 1e6);
    for (int i = 0; i < 20; ++i)
        log.latency(11.1 + 0.1 * i, 50.0 + i, "8.8.8.8");
    log.latency(12.0, std::nullopt, "8.8.8.8");
    log.rates(coreRates(0.2, 1.0));
    log.rates(coreRates(0.4, 0.8));
    log.phase(13.1, "upload");
    log.throughput(14.5, 1e6, 40e6);
    log.latency(14.5, 30.0, "8.8.8.8");
    log.phase(15.1, "done");
    log.end(15.2);
    log.to = 15.2;

    // The block's other trial idled at 22 ms: the pooled idle median is 21.5.
    TrialLog other;
    other.phase(0, "idle");
    for (int i = 0; i < 10; ++i)
        other.latency(0.1 * i, 22.0, "8.8.8.8");
    const auto idle = blockIdle({&log, &other});
    ASSERT_EQ(idle.at("8.8.8.8").size(), 20u);

    const auto r = TrialResult::measure(log, idle);
    EXPECT_EQ(r.start, 10);
    EXPECT_EQ(r.end, 15.2);
    ASSERT_TRUE(r.measures.downloadBps);
    EXPECT_DOUBLE_EQ(*r.measures.downloadBps, 105e6);
    ASSERT_TRUE(r.measures.uploadBps);
    EXPECT_DOUBLE_EQ(*r.measures.uploadBps, 40e6);
    EXPECT_EQ(r.headlineProbe, "8.8.8.8");
    // Under download, after the ramp (30 % of the 2.1 s phase: from 11.63 s): 56..69 ms over
    // the 21.5 ms idle median, and the probe lost at 12.0 s, which counts as an increase of
    // kLostProbeMs, worse than any: the median is the 8th of the 15 (63 ms), the p90 the 14th.
    ASSERT_TRUE(r.measures.downloadLatencyMs);
    EXPECT_DOUBLE_EQ(*r.measures.downloadLatencyMs, 63.0 - 21.5);
    ASSERT_EQ(r.probes.size(), 2u);
    EXPECT_EQ(r.probes[0].name, "8.8.8.8");
    EXPECT_DOUBLE_EQ(*r.probes[0].downP90, 69.0 - 21.5);
    EXPECT_EQ(r.probes[0].lost, 1);
    // The p90 measure is the mean of the directions' (the upload's: its one probe, 8.5 ms).
    ASSERT_TRUE(r.measures.latencyP90Ms);
    EXPECT_DOUBLE_EQ(*r.measures.latencyP90Ms, (69.0 - 21.5 + 30.0 - 21.5) / 2);
    EXPECT_DOUBLE_EQ(*r.measures.uploadLatencyMs, 30.0 - 21.5);
    // The lan probe answered only while idle: no increase.
    EXPECT_FALSE(r.probes[1].downMedian);
    // The cores under load only: CPU1 the busiest, at 90 %.
    ASSERT_EQ(r.busy.size(), 2u);
    EXPECT_DOUBLE_EQ(r.busy[0], 0.3);
    EXPECT_EQ(r.busiestCore, 1);
    EXPECT_DOUBLE_EQ(r.busiestShare, 0.9);
    EXPECT_DOUBLE_EQ(*r.measures.busiestShare, 0.9); // the headroom objective's measure
    EXPECT_DOUBLE_EQ(r.softirq[1], 0.45);
}

TEST(Trial, BothStandsForEachDirectionWithoutItsOwnPhase) {
    TrialLog log;
    log.phase(0, "idle");
    log.latency(0.5, 10, "router");
    log.phase(1, "both");
    log.throughput(3, 70e6, 30e6);
    log.latency(3, 30, "router");
    log.end(4);
    const auto r = TrialResult::measure(log, blockIdle({&log}));
    EXPECT_DOUBLE_EQ(*r.measures.downloadBps, 70e6);
    EXPECT_DOUBLE_EQ(*r.measures.uploadBps, 30e6);
    EXPECT_DOUBLE_EQ(*r.measures.downloadLatencyMs, 20);
    EXPECT_DOUBLE_EQ(*r.measures.uploadLatencyMs, 20);
    EXPECT_EQ(r.headlineProbe, "router");
}

TEST(Trial, TheHeadlineProbeSeesMostOfThePath) {
    EXPECT_EQ(headlineProbe({"lan", "router", "demo"}), "demo");
    EXPECT_EQ(headlineProbe({"lan", "router", "1.1.1.1"}), "1.1.1.1");
    EXPECT_EQ(headlineProbe({"lan", "router"}), "router");
    EXPECT_EQ(headlineProbe({"lan"}), "lan");
    EXPECT_EQ(headlineProbe({}), "");
    EXPECT_DOUBLE_EQ(percentile({5, 1, 4, 2, 3, 6, 7, 8, 9, 10}, 0.9), 9);
    EXPECT_DOUBLE_EQ(percentile({}, 0.9), 0);
}

// A layout that drops probes must not look better for it: a trial whose probes under load are
// mostly lost has a latency increase of kLostProbeMs, not the few that came back.
TEST(Trial, LostProbesCountAgainstTheTrial) {
    TrialLog log;
    log.phase(0, "idle");
    for (int i = 0; i < 5; ++i)
        log.latency(0.1 * i, 10.0, "8.8.8.8");
    log.phase(1, "download");
    for (int i = 0; i < 20; ++i)
        log.latency(1.5 + 0.1 * i, i % 4 == 0 ? std::optional<double>(12.0) : std::nullopt,
                    "8.8.8.8");
    log.phase(4, "done");
    log.end(4);
    const auto r = TrialResult::measure(log, blockIdle({&log}));
    ASSERT_TRUE(r.measures.downloadLatencyMs);
    EXPECT_DOUBLE_EQ(*r.measures.downloadLatencyMs, kLostProbeMs);
    EXPECT_EQ(r.probes[0].lost, 15);
}

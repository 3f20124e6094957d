// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The ring of samples the live view keeps (core/live/history.h).
#include "core/collect/collect_local.h"
#include "core/live/bottleneck.h"
#include "core/live/history.h"
#include "core/live/latency.h"
#include "core/live/sample.h"
#include "core/live/source.h"
#include "core/live/stream.h"
#include "tests/support/board_expect.h"
#include "tests/unit/live/live_samples.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <arpa/inet.h>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace coresteer;
using namespace coresteer::live;
namespace fs = std::filesystem;
using coresteer::test::slurp;
using namespace coresteer::test;

TEST(LiveHistory, KeepsTheLastSamplesInAFixedRingWithGaps) {
    History h(3, 2, {45});
    auto rates = [](double t, double busy0, double irq45) {
        Rates r;
        r.start = t - 0.1;
        r.end = t;
        CoreLoad a;
        a.cpu = 0;
        a.softirq = busy0;
        a.idle = 1 - busy0;
        CoreLoad b;
        b.cpu = 1;
        r.cores = {a, b};
        r.irqs = {{45, {irq45, 0}, irq45}};
        return r;
    };
    h.push(rates(1.0, 0.5, 100));
    h.push(rates(2.0, 1.0, 200));
    h.pushGap(2.5);
    h.push(rates(3.0, 0.25, 300));
    ASSERT_EQ(h.size(), 3u);
    EXPECT_DOUBLE_EQ(h.time(0), 2.0); // the oldest went
    EXPECT_TRUE(h.isGap(1));
    EXPECT_FALSE(h.isGap(2));
    EXPECT_NEAR(h.core(2, 0).busy(), 0.25, 1e-4);
    EXPECT_NEAR(h.core(2, 0).share(h.core(2, 0).softirq), 0.25, 1e-4);
    EXPECT_FLOAT_EQ(h.irqRate(2, 0), 300.0f);
    const auto st = h.stats(0);
    EXPECT_NEAR(st.peak, 1.0, 1e-4);
    EXPECT_NEAR(st.mean, 0.625, 1e-4); // the gap is left out
    // An hour at 10 Hz of 256 cores fits the 200 MB the live view may use.
    History big(36000, 256);
    EXPECT_LT(big.bytes(), 200u << 20);
}

// What the Live tab's "Samples as CSV" writes: one row a sample, the gap as a row of times.
TEST(LiveHistory, WritesTheSamplesKeptAsCsv) {
    History h(4, 2, {45, 46});
    Rates r;
    r.start = 100.0;
    r.end = 100.1;
    CoreLoad a;
    a.cpu = 0;
    a.user = 0.1;
    a.system = 0.05;
    a.irq = 0.05;
    a.softirq = 0.3;
    a.idle = 0.5;
    CoreLoad b;
    b.cpu = 1;
    r.cores = {a, b};
    r.irqs = {{45, {1500, 0}, 1500}};
    h.push(r);
    h.pushGap(100.2);
    r.end = 100.3;
    h.push(r);
    const auto csv = historyCsv(h);
    std::vector<std::string> rows;
    for (std::size_t at = 0, nl; (nl = csv.find('\n', at)) != std::string::npos; at = nl + 1)
        rows.push_back(csv.substr(at, nl - at));
    ASSERT_EQ(rows.size(), 4u) << csv;
    EXPECT_EQ(rows[0], "t_s,uptime_s,cpu0_busy_pct,cpu0_user_pct,cpu0_system_pct,cpu0_irq_pct,"
                       "cpu0_softirq_pct,cpu1_busy_pct,cpu1_user_pct,cpu1_system_pct,cpu1_irq_pct,"
                       "cpu1_softirq_pct,irq45_per_s,irq46_per_s");
    EXPECT_EQ(rows[1], "0.000,100.10,50.0,10.0,5.0,5.0,30.0,0.0,0.0,0.0,0.0,0.0,1500.0,0.0");
    EXPECT_EQ(rows[2], "0.100,100.20,,,,,,,,,,,,");
    EXPECT_EQ(rows[3], "0.200,100.30,50.0,10.0,5.0,5.0,30.0,0.0,0.0,0.0,0.0,0.0,1500.0,0.0");
    // Every row has the header's columns.
    for (const auto& row : rows)
        EXPECT_EQ(std::count(row.begin(), row.end(), ','), 13) << row;
}

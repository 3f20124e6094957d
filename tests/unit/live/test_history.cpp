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

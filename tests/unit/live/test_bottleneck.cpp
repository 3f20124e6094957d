// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// What the live view names as the bottleneck (core/live/bottleneck.h).
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

TEST(LiveBottleneck, NamesTheHotLittleCoreWhatRunsThereAndTheMove) {
    const auto snap = buildSnapshot(collectLocal(test::boardDir("nanopi-r6s-friendlywrt")));
    Rates r;
    r.start = 0;
    r.end = 1;
    for (int c = 0; c < 8; ++c) {
        CoreLoad l;
        l.cpu = c;
        const double k = c == 3 ? 0.98 : c < 3 ? 0.3 : 0.05;
        l.softirq = k * 0.7;
        l.irq = k * 0.3;
        l.idle = 1 - k;
        r.cores.push_back(l);
    }
    IrqRate eth2{173, std::vector<double>(8, 0.0), 12000};
    eth2.perCpu[3] = 12000;
    r.irqs.push_back(eth2);
    const auto found = findBottlenecks(r, snap);
    ASSERT_EQ(found.size(), 1u);
    const auto& b = found.front();
    EXPECT_EQ(b.cpu, 3);
    ASSERT_FALSE(b.idleCores.empty());
    EXPECT_GE(b.idleCores.front(), 4); // a big core first
    ASSERT_FALSE(b.onIt.empty());
    EXPECT_NE(b.onIt.front().find("IRQ 173 eth2-0"), std::string::npos) << b.onIt.front();
    EXPECT_NE(std::find_if(b.onIt.begin(), b.onIt.end(),
                           [](const std::string& s) { return s.find("rx-0 RPS") != s.npos; }),
              b.onIt.end());
    EXPECT_NE(b.suggestion.find("move IRQ 173"), std::string::npos) << b.suggestion;

    // A hot big core whose only idle peers are LITTLE ones is not a layout problem.
    for (auto& l : r.cores) {
        const double k = l.cpu >= 4 ? 0.97 : 0.1;
        l.softirq = k;
        l.irq = 0;
        l.idle = 1 - k;
    }
    EXPECT_TRUE(findBottlenecks(r, snap).empty());
}

// With flow offloading on, the live view says that its load is less than the traffic, and why.
TEST(Bottleneck, FlowOffloadingLowersWhatTheLoadCanShow) {
    auto snap = buildSnapshot(collectLocal(test::boardDir("nanopi-r6s-openwrt")));
    EXPECT_EQ(loadExpectation(snap), "");
    snap.system.services.offloading = {true, false, "/etc/config/firewall:12"};
    const auto software = loadExpectation(snap);
    EXPECT_NE(software.find("Software flow offloading is on (/etc/config/firewall:12)"),
              std::string::npos)
        << software;
    EXPECT_NE(software.find("most of the CPU path"), std::string::npos);
    snap.system.services.offloading.hardware = true;
    EXPECT_NE(loadExpectation(snap).find("Hardware flow offloading is on"), std::string::npos);
    EXPECT_NE(loadExpectation(snap).find("bypass the CPU"), std::string::npos);
}

// The detector reads the last second, not one tick: at 10 Hz a tick holds ten jiffies of a
// core, so a core at 85 % in kernel work shows 100 % and 70 % in turn. One tick would name it a
// bottleneck half of the time; the second's mean does not, and names a core that stays above.
TEST(Bottleneck, TheLastSecondsMeanNotOneTickNamesTheBottleneck) {
    auto tick = [](double start, double kernel0) {
        Rates r;
        r.start = start;
        r.end = start + 0.1;
        CoreLoad c0;
        c0.cpu = 0;
        c0.softirq = kernel0;
        c0.idle = 1 - kernel0;
        CoreLoad c1;
        c1.cpu = 1;
        c1.idle = 0.95;
        c1.user = 0.05;
        r.cores = {c0, c1};
        return r;
    };
    Snapshot snap; // two cores of one class
    RecentLoad recent;
    EXPECT_FALSE(recent.mean());
    int singleTick = 0;
    for (int i = 0; i < 20; ++i) {
        const auto r = tick(i * 0.1, i % 2 ? 0.7 : 1.0);
        singleTick += !findBottlenecks(r, snap).empty();
        recent.add(r);
    }
    EXPECT_EQ(singleTick, 10);
    const auto mean = recent.mean();
    ASSERT_TRUE(mean);
    EXPECT_NEAR(mean->core(0)->kernel(), 0.85, 1e-9);
    EXPECT_NEAR(mean->core(0)->busy(), 0.85, 1e-9);
    EXPECT_NEAR(mean->seconds(), 1.0, 1e-9); // the window: the last second
    EXPECT_TRUE(findBottlenecks(*mean, snap).empty());
    for (int i = 20; i < 30; ++i)
        recent.add(tick(i * 0.1, i % 2 ? 0.9 : 1.0));
    const auto hot = findBottlenecks(*recent.mean(), snap);
    ASSERT_EQ(hot.size(), 1u);
    EXPECT_EQ(hot[0].cpu, 0);
    EXPECT_NEAR(hot[0].kernel, 0.95, 1e-9);
}

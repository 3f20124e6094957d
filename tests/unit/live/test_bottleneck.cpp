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

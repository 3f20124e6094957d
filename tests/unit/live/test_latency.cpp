// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// Latency probes and their grade (core/live/latency.h).
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

TEST(Latency, GradesTheIncreaseUnderLoadLikeTheCommonTests) {
    EXPECT_STREQ(bufferbloatGrade(0), "A+");
    EXPECT_STREQ(bufferbloatGrade(4.9), "A+");
    EXPECT_STREQ(bufferbloatGrade(5), "A");
    EXPECT_STREQ(bufferbloatGrade(29.9), "A");
    EXPECT_STREQ(bufferbloatGrade(30), "B");
    EXPECT_STREQ(bufferbloatGrade(60), "C");
    EXPECT_STREQ(bufferbloatGrade(199), "C");
    EXPECT_STREQ(bufferbloatGrade(200), "D");
    EXPECT_STREQ(bufferbloatGrade(400), "F");
    const auto g =
        gradeLatency({10.0, 11.0, 12.0, std::nullopt}, {50.0, 80.0, std::nullopt, 70.0, 60.0});
    ASSERT_TRUE(g);
    EXPECT_DOUBLE_EQ(g->idleMs, 11.0);
    EXPECT_DOUBLE_EQ(g->loadedMs, 65.0);
    EXPECT_DOUBLE_EQ(g->increaseMs, 54.0);
    // Of the four answers under load (50, 60, 70, 80), the 95th percentile by nearest rank is
    // the 4th: 80, 69 ms over the idle median.
    EXPECT_DOUBLE_EQ(g->p95LoadedMs, 80.0);
    EXPECT_DOUBLE_EQ(g->p95IncreaseMs, 69.0);
    EXPECT_EQ(g->grade, "B");
    EXPECT_EQ(g->lost, 1);
    EXPECT_FALSE(gradeLatency({}, {1.0}));
}

TEST(Latency, TcpConnectTimeToALoopbackListenerAndARefusal) {
    test::LoopbackListener l;
    ASSERT_GT(l.port, 0);
    std::string error;
    const auto ms = tcpConnectMs("127.0.0.1", l.port, 1000, &error);
    ASSERT_TRUE(ms) << error;
    EXPECT_GE(*ms, 0.0);
    EXPECT_LT(*ms, 1000.0);
    l.close();
    // Nothing listens there now: refused, with a message naming the address.
    EXPECT_FALSE(tcpConnectMs("127.0.0.1", l.port, 1000, &error));
    EXPECT_NE(error.find("127.0.0.1:" + std::to_string(l.port)), std::string::npos) << error;
}

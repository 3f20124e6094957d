// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// Rates between two samples (core/live/sample.h) and the pace of the ticks.
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
#include <cmath>
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

TEST(LiveRates, CoreSharesFromProcStatDeltas) {
    const auto r = computeRates(sample(10.0, kStat0), sample(11.0, kStat1));
    ASSERT_TRUE(r);
    EXPECT_DOUBLE_EQ(r->seconds(), 1.0);
    ASSERT_EQ(r->cores.size(), 2u);
    EXPECT_DOUBLE_EQ(r->core(0)->softirq, 1.0);
    EXPECT_DOUBLE_EQ(r->core(0)->busy(), 1.0);
    EXPECT_DOUBLE_EQ(r->core(1)->user, 0.5);
    EXPECT_DOUBLE_EQ(r->core(1)->irq, 0.25);
    EXPECT_DOUBLE_EQ(r->core(1)->idle, 0.25);
    EXPECT_DOUBLE_EQ(r->core(1)->kernel(), 0.25);
}

TEST(LiveRates, IrqSoftirqAndInterfaceRatesUseTheRoutersClock) {
    const std::string irq0 = "           CPU0       CPU1\n"
                             " 45:       1000          0   GICv3 100 Level     eth0\n"
                             " 46:          0          0   GICv3 101 Level     eth1\n";
    const std::string irq1 = "           CPU0       CPU1\n"
                             " 45:       1500        100   GICv3 100 Level     eth0\n"
                             " 46:          0          0   GICv3 101 Level     eth1\n";
    const std::string sq0 = "                    CPU0       CPU1\n"
                            "      NET_TX:         10         20\n"
                            "      NET_RX:        100        200\n";
    const std::string sq1 = "                    CPU0       CPU1\n"
                            "      NET_TX:         10         70\n"
                            "      NET_RX:       1100        200\n";
    const std::string nd0 = "Inter-|   Receive\n face |bytes\n"
                            "  eth0: 1000 10 0 0 0 0 0 0 2000 20 0 0 0 0 0 0\n";
    const std::string nd1 = "Inter-|   Receive\n face |bytes\n"
                            "  eth0: 1250001000 1000010 0 0 0 0 0 0 2000 20 0 0 0 0 0 0\n";
    // 0.5 s of router time.
    const auto r =
        computeRates(sample(20.0, kStat0, irq0, sq0, nd0), sample(20.5, kStat1, irq1, sq1, nd1));
    ASSERT_TRUE(r);
    ASSERT_TRUE(r->irq(45));
    EXPECT_DOUBLE_EQ(r->irq(45)->perCpu[0], 1000.0);
    EXPECT_DOUBLE_EQ(r->irq(45)->perCpu[1], 200.0);
    EXPECT_DOUBLE_EQ(r->irq(45)->total, 1200.0);
    EXPECT_DOUBLE_EQ(r->irq(46)->total, 0.0);
    EXPECT_DOUBLE_EQ(r->netRx[0], 2000.0);
    EXPECT_DOUBLE_EQ(r->netTx[1], 100.0);
    ASSERT_EQ(r->interfaces.size(), 1u);
    EXPECT_DOUBLE_EQ(r->interfaces[0].rxBitsPerSec, 20e9);
    EXPECT_DOUBLE_EQ(r->interfaces[0].rxPacketsPerSec, 2e6);
    EXPECT_EQ(r->resets, 0);
}

TEST(LiveRates, ResetCountersOfflineCpusAndAStoppedClockGiveNoBogusRates) {
    // The router rebooted (uptime went back): no rates at all.
    EXPECT_FALSE(computeRates(sample(500.0, kStat1), sample(3.0, kStat0)));
    EXPECT_FALSE(computeRates(sample(5.0, kStat0), sample(5.0, kStat1)));
    // cpu1 went offline, and an IRQ counter went backwards (a re-registered IRQ).
    const std::string a = "           CPU0       CPU1\n 45:  900 0 GICv3 1 Level eth0\n";
    const std::string b = "           CPU0\n 45:  100 GICv3 1 Level eth0\n";
    const auto r = computeRates(sample(1.0, kStat0, a), sample(2.0,
                                                               "cpu  0 0 0 0 0 0 0 0 0 0\n"
                                                               "cpu0 100 0 100 900 0 0 0 0 0 0\n",
                                                               b));
    ASSERT_TRUE(r);
    ASSERT_EQ(r->cores.size(), 1u);
    EXPECT_EQ(r->cores[0].cpu, 0);
    EXPECT_FALSE(r->irq(45));
    EXPECT_EQ(r->resets, 1);
}

// Ticks that read /proc/stat alone (their other counters read at an earlier uptime): core
// loads between the two ticks, IRQ rates between the times the counters were read, held on
// the ticks between from the rates before; none where nothing was read yet or nothing held.
TEST(LiveRates, TicksOfStatAloneHoldTheCounterRatesOfTheLastWholeTick) {
    const std::string irq0 = "           CPU0       CPU1\n 45:  1000  0  GICv3 100 Level eth0\n";
    const std::string irq1 = "           CPU0       CPU1\n 45:  3000  0  GICv3 100 Level eth0\n";
    auto statOnly = [](Sample s, double countersUptime) {
        s.countersUptime = countersUptime;
        return s;
    };
    const auto w0 = sample(10.0, kStat0, irq0);
    const auto s1 = statOnly(sample(10.1, kStat1, irq0), 10.0);
    const auto s2 = statOnly(sample(10.2, kStat1, irq0), 10.0);
    const auto w1 = sample(12.0, kStat0, irq1);
    const auto s3 = statOnly(sample(12.5, kStat1, irq1), 12.0);
    EXPECT_DOUBLE_EQ(s1.countersAt(), 10.0);
    EXPECT_DOUBLE_EQ(w1.countersAt(), 12.0);

    const auto r1 = computeRates(w0, s1);
    ASSERT_TRUE(r1);
    EXPECT_DOUBLE_EQ(r1->core(0)->softirq, 1.0); // the tick's own core loads
    EXPECT_FALSE(r1->irq(45));
    EXPECT_EQ(r1->countersEnd, 0);
    // Between the whole ticks: 2000 in the two seconds since the counters were read at 10.0,
    // though the tick before read /proc/stat alone at 10.2.
    const auto r2 = computeRates(s2, w1, &*r1);
    ASSERT_TRUE(r2);
    EXPECT_DOUBLE_EQ(r2->seconds(), 1.8);
    EXPECT_DOUBLE_EQ(r2->countersStart, 10.0);
    EXPECT_DOUBLE_EQ(r2->countersEnd, 12.0);
    ASSERT_TRUE(r2->irq(45));
    EXPECT_DOUBLE_EQ(r2->irq(45)->perCpu[0], 1000.0);
    // Held on the next tick of stat alone; not from rates that end elsewhere.
    const auto r3 = computeRates(w1, s3, &*r2);
    ASSERT_TRUE(r3);
    EXPECT_DOUBLE_EQ(r3->start, 12.0);
    EXPECT_DOUBLE_EQ(r3->countersEnd, 12.0);
    ASSERT_TRUE(r3->irq(45));
    EXPECT_DOUBLE_EQ(r3->irq(45)->perCpu[0], 1000.0);
    EXPECT_FALSE(computeRates(w1, s3, &*r1)->irq(45));
    EXPECT_FALSE(computeRates(w1, s3)->irq(45));
    // Counters no tick has read yet (NaN): core loads only.
    const auto r4 = computeRates(statOnly(sample(1.0, kStat0), std::nan("")),
                                 statOnly(sample(2.0, kStat1, irq1), std::nan("")), &*r2);
    ASSERT_TRUE(r4);
    EXPECT_EQ(r4->cores.size(), 2u);
    EXPECT_FALSE(r4->irq(45));
    EXPECT_TRUE(std::isnan(parseCountersUptime("?")));
    EXPECT_TRUE(std::isnan(parseCountersUptime("12x")));
    // What a hostile router could put there: no time at all.
    for (const char* bad :
         {"$(reboot)", "1e400", "nan", "inf", "-1", "1.0\xe2\x80\xa8", "\xff\xfe", "'; rm -rf /'"})
        EXPECT_TRUE(std::isnan(parseCountersUptime(bad))) << bad;
    EXPECT_TRUE(std::isnan(parseCountersUptime(std::string(100000, '9'))));
    EXPECT_DOUBLE_EQ(parseCountersUptime("12.5"), 12.5);
    EXPECT_LT(parseCountersUptime(""), 0);
}

// The pace of a monitor: on schedule while it keeps up, including a tick late by less than a
// period; after a stall, one long interval and no burst of the ticks missed.
TEST(LivePace, TicksMissedInAStallAreSkippedNotCaughtUp) {
    using namespace std::chrono_literals;
    const std::chrono::steady_clock::time_point t0{};
    EXPECT_EQ(nextTick(t0, t0 + 30ms, 100ms), t0 + 100ms);
    EXPECT_EQ(nextTick(t0, t0 + 150ms, 100ms), t0 + 100ms); // late: the next one is due now
    EXPECT_EQ(nextTick(t0, t0 + 200ms, 100ms), t0 + 100ms);
    EXPECT_EQ(nextTick(t0, t0 + 1300ms, 100ms), t0 + 1300ms); // stalled: no burst of 12
    // Paced through a one-second stall, to 2.5 s: 16 ticks where 25 were due.
    auto due = t0;
    int ticks = 0;
    for (auto now = t0; due < t0 + 2500ms; ++ticks) {
        due = nextTick(due, now, 100ms);
        now = due == t0 + 500ms ? due + 1000ms : due; // stopped for 1 s after the 5th tick
    }
    EXPECT_EQ(ticks, 16);
}

TEST(LiveSample, BadUptimeOrStatIsAnErrorNamingTheFile) {
    Diagnostics d;
    EXPECT_FALSE(parseSample({"abc\n", kStat0, {}, {}, {}}, d));
    ASSERT_FALSE(d.entries().empty());
    EXPECT_NE(d.entries().front().toString().find("proc/uptime"), std::string::npos);
    Diagnostics d2;
    EXPECT_FALSE(parseSample({"1.0 2.0\n", "intr 1 2 3\n", {}, {}, {}}, d2));
    ASSERT_FALSE(d2.entries().empty());
    EXPECT_NE(d2.entries().front().toString().find("proc/stat"), std::string::npos);
}

// A tick of /proc/stat alone has no uptime (the router's sampler reads none then): it is dated
// by how far the CPUs' times moved since the last tick that read one, in USER_HZ (100 a
// second), over the CPUs in both, and never before the tick ahead of it.
TEST(LiveRates, ATickWithoutItsUptimeIsDatedByHowFarTheCpusTimesMoved) {
    auto stat = [](const std::string& text) {
        Diagnostics d;
        auto s = parseProcStat(text, d);
        EXPECT_FALSE(d.hasErrors()) << text;
        return s;
    };
    const auto then = stat("cpu  30 0 30 140 0 0 0 0 0 0\n"
                           "cpu0 10 0 10 80 0 0 0 0 0 0\ncpu1 20 0 20 60 0 0 0 0 0 0\n");
    // cpu0 moved 12 ticks (busy and idle), cpu1 8: 10 on average, a tenth of a second.
    const auto now = stat("cpu  36 0 32 154 0 0 0 0 0 0\n"
                          "cpu0 14 0 11 87 0 0 0 0 0 0\ncpu1 22 0 21 65 0 0 0 0 0 0\n");
    ASSERT_TRUE(estimateUptime(100, then, now, 100, 2));
    EXPECT_DOUBLE_EQ(*estimateUptime(100, then, now, 100, 2), 100.1);
    // Never before the tick ahead of it (a tickless kernel's idle CPU may report nothing).
    EXPECT_DOUBLE_EQ(*estimateUptime(100, then, then, 100.05, 2), 100.051);
    // A CPU that came online since, or went offline, is left out; so is one that went back.
    const auto hotplug = stat("cpu  0 0 0 0 0 0 0 0 0 0\n"
                              "cpu0 14 0 11 87 0 0 0 0 0 0\ncpu2 1 0 1 1 0 0 0 0 0 0\n");
    EXPECT_DOUBLE_EQ(*estimateUptime(100, then, hotplug, 100, 2), 100.12);
    const auto back = stat("cpu  0 0 0 0 0 0 0 0 0 0\n"
                           "cpu0 14 0 11 87 0 0 0 0 0 0\ncpu1 1 0 1 1 0 0 0 0 0 0\n");
    EXPECT_DOUBLE_EQ(*estimateUptime(100, then, back, 100, 2), 100.12);
    // No CPU in both, every CPU back, or more time than this machine saw: no date.
    EXPECT_FALSE(estimateUptime(100, then, stat("cpu7 1 0 1 1 0 0 0 0 0 0\n"), 100, 2));
    EXPECT_FALSE(estimateUptime(100, now, then, 100, 2));
    const auto hostile = stat("cpu  0 0 0 0 0 0 0 0 0 0\n"
                              "cpu0 18446744073709551615 0 0 0 0 0 0 0 0 0\n"
                              "cpu1 9999999999999 0 0 0 0 0 0 0 0 0\n");
    EXPECT_FALSE(estimateUptime(100, then, hostile, 100, 2));
    EXPECT_FALSE(estimateUptime(100, then, now, 100, 0.05));

    // This machine's own kernel: the date is the uptime it would have read, to within the
    // rounding of its counters (10 ms each) and a timer tick or two.
    auto read = [](const char* file) {
        std::ifstream in(file);
        return std::string(std::istreambuf_iterator<char>(in), {});
    };
    Diagnostics d;
    const auto up0 = parseUptime(read("/proc/uptime"), d);
    const auto stat0 = stat(read("/proc/stat"));
    ::usleep(300 * 1000);
    const auto stat1 = stat(read("/proc/stat"));
    const auto up1 = parseUptime(read("/proc/uptime"), d);
    ASSERT_TRUE(up0 && up1);
    const auto dated = estimateUptime(*up0, stat0, stat1, *up0, 10);
    ASSERT_TRUE(dated);
    EXPECT_NEAR(*dated, *up1, 0.05) << "from " << *up0;
}

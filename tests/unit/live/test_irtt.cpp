// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// irtt as a latency probe (core/live/irtt.h): its targets and arguments, and its per-packet lines
// as irtt 0.9 prints them, read as the round trip and each way's delay.
#include "core/live/irtt.h"

#include <gtest/gtest.h>

using namespace coresteer::live;

TEST(Irtt, TargetsArgumentsAndProbeNames) {
    IrttTarget t;
    std::string error;
    ASSERT_TRUE(parseIrttTarget("irtt.example.net", t, &error)) << error;
    EXPECT_EQ(t.host, "irtt.example.net");
    EXPECT_EQ(t.port, 2112);
    ASSERT_TRUE(parseIrttTarget("[2001:db8::1]:3000", t, &error)) << error;
    EXPECT_EQ(t.host, "2001:db8::1");
    EXPECT_EQ(t.port, 3000);
    EXPECT_EQ(irttArguments(t, 40), (std::vector<std::string>{"client", "-i", "100ms", "-d", "40s",
                                                              "--", "[2001:db8::1]:3000"}));
    EXPECT_EQ(irttProbe(t), "irtt:2001:db8::1");
    EXPECT_EQ(irttUpProbe(t), "irtt-up:2001:db8::1");
    EXPECT_EQ(irttDownProbe(t), "irtt-down:2001:db8::1");
    for (const char* bad : {"", "-d1s", "a b", "host:0", "$(reboot)"}) {
        EXPECT_FALSE(parseIrttTarget(bad, t, &error)) << bad;
        EXPECT_NE(error.find("irtt server '"), std::string::npos) << error;
    }
}

TEST(Irtt, DurationsAsGoPrintsThem) {
    EXPECT_DOUBLE_EQ(*parseGoDurationMs("1.39ms"), 1.39);
    EXPECT_NEAR(*parseGoDurationMs("273\xc2\xb5s"), 0.273, 1e-12);
    EXPECT_NEAR(*parseGoDurationMs("97.6us"), 0.0976, 1e-12);
    EXPECT_NEAR(*parseGoDurationMs("950ns"), 0.00095, 1e-12);
    EXPECT_DOUBLE_EQ(*parseGoDurationMs("2.5s"), 2500);
    EXPECT_DOUBLE_EQ(*parseGoDurationMs("-3ms"), -3);
    for (const char* bad : {"", "ms", "1.2", "n/a", "1m2s", "3 ms", "1e999ms"})
        EXPECT_FALSE(parseGoDurationMs(bad)) << bad;
}

// The lines irtt prints, in pieces: the round trip, each way shifted once so that the first
// reply's halves are half its trip, a gap counted lost, and what is not a reply skipped.
TEST(Irtt, RepliesSplitIntoEachWayAndGapsAreLost) {
    IrttReader r;
    const std::string text =
        "[Connecting] connecting to 127.0.0.1:2113\n"
        "[127.0.0.1:2113] [Connected] connection established\n"
        "seq=0 rtt=10ms rd=1004ms sd=-994ms ipdv=n/a\n" // clocks 999 ms apart
        "seq=1 rtt=30.5ms rd=1024.5ms sd=-994ms ipdv=20.5ms\n"
        "seq=4 rtt=12ms rd=1005ms sd=-993ms ipdv=1ms\n"
        "seq=3 rtt=11ms rd=1005ms sd=-994ms ipdv=1ms\n" // late: counted already
        "seq=x rtt=1ms\nrtt=1ms seq=9\n"
        "                        Min    Mean  Median     Max  Stddev\n";
    std::vector<IrttReader::Reply> got;
    for (std::size_t i = 0; i < text.size(); i += 7)
        for (const auto& reply : r.feed(std::string_view(text).substr(i, 7)))
            got.push_back(reply);
    ASSERT_EQ(got.size(), 5u);
    EXPECT_DOUBLE_EQ(*got[0].rttMs, 10);
    EXPECT_DOUBLE_EQ(*got[0].upMs, 5);
    EXPECT_DOUBLE_EQ(*got[0].downMs, 5);
    EXPECT_DOUBLE_EQ(*got[1].rttMs, 30.5);
    EXPECT_DOUBLE_EQ(*got[1].upMs, 5);      // the upload's way did not grow
    EXPECT_DOUBLE_EQ(*got[1].downMs, 25.5); // the download's did
    EXPECT_FALSE(got[2].rttMs);
    EXPECT_FALSE(got[3].rttMs);
    EXPECT_DOUBLE_EQ(*got[4].rttMs, 12);
    EXPECT_DOUBLE_EQ(*got[4].upMs, 6);

    // A line without end is bounded, and a jump of a million counts kMaxGap lost.
    IrttReader big;
    EXPECT_TRUE(big.feed(std::string(10000, 'a')).empty());
    EXPECT_EQ(big.feed("\nseq=1 rtt=1ms rd=1ms sd=1ms\nseq=1000001 rtt=1ms rd=1ms sd=1ms\n").size(),
              2 + IrttReader::kMaxGap);
}

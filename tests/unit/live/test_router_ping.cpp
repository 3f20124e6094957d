// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The router's own ping: its command (quoted, refused for what is not a host), and its output
// read as it arrives, from BusyBox's ping and iputils', with hostile lines.
#include "core/live/router_ping.h"

#include "core/base/shell.h"

#include "tests/support/board_expect.h"

#include <gtest/gtest.h>

#include <cstdio>

using namespace coresteer::live;

namespace {

std::string show(const std::vector<std::optional<double>>& v) {
    std::string out;
    for (const auto& x : v)
        out += (x ? std::to_string(static_cast<int>(*x * 1000)) : std::string("lost")) + ' ';
    return out;
}

} // namespace

TEST(RouterPing, TheCommandQuotesItsHostAndRefusesWhatIsNotOne) {
    EXPECT_EQ(routerPingCommand("9.9.9.9"),
              "ping -i 0.2 '9.9.9.9' 2>/dev/null || exec ping '9.9.9.9' 2>/dev/null");
    for (const char* bad : {"", "-c1", "a;reboot", "$(id)", "a b", "x'y", "a\nb"})
        EXPECT_EQ(routerPingCommand(bad), "") << bad;
}

TEST(RouterPing, ReadsBusyBoxAndIputilsAndCountsWhatWasLost) {
    PingReader busybox;
    auto got = busybox.feed("PING 127.0.0.1 (127.0.0.1): 56 data bytes\n"
                            "64 bytes from 127.0.0.1: seq=0 ttl=64 time=0.065 ms\n64 bytes fr");
    EXPECT_EQ(show(got), "65 ");
    got = busybox.feed("om 127.0.0.1: seq=1 ttl=64 time=12.500 ms\n"
                       "64 bytes from 127.0.0.1: seq=4 ttl=64 time=1.000 ms\n"
                       "64 bytes from 127.0.0.1: seq=4 ttl=64 time=1.000 ms (DUP!)\n"
                       "64 bytes from 127.0.0.1: seq=2 ttl=64 time=900.000 ms\n");
    EXPECT_EQ(show(got), "12500 lost lost 1000 ") << "a duplicate and a late reply are not new";
    PingReader iputils;
    got = iputils.feed("PING 127.0.0.1 (127.0.0.1) 56(84) bytes of data.\n"
                       "64 bytes from 127.0.0.1: icmp_seq=1 ttl=64 time=0.045 ms\n"
                       "From 10.0.0.1 icmp_seq=2 Destination Host Unreachable\n"
                       "64 bytes from 127.0.0.1: icmp_seq=3 ttl=64 time=0.054 ms\n");
    EXPECT_EQ(show(got), "45 lost 54 ");
}

TEST(RouterPing, HostileOutputIsBounded) {
    PingReader r;
    EXPECT_EQ(show(r.feed("64 bytes: seq=1 time=1 ms\n")), "1000 ");
    // A jump of the sequence counts at most kMaxGap lost; garbage, negative and huge times,
    // terminal escapes and endless lines are passed over.
    const auto got = r.feed("64 bytes: seq=18446744073709551615 time=2 ms\n"
                            "64 bytes: seq=x time=2 ms\n\x1b[2J seq=99999999999999999999 time=1\n"
                            "64 bytes: xseq=5 time=3 ms\n");
    EXPECT_EQ(got.size(), PingReader::kMaxGap + 1);
    EXPECT_FALSE(got.front());
    EXPECT_EQ(got.back(), 2.0);
    EXPECT_TRUE(r.feed(std::string(100000, 'a')).empty());
    EXPECT_TRUE(r.feed("64 bytes: seq=5 time=-1 ms\n").empty());
}

// The command as a router runs it, under BusyBox ash with BusyBox's ping, against 127.0.0.1.
TEST(RouterPing, BusyBoxPingUnderAshIsRead) {
    // A function, so that BusyBox's ping answers to the name whatever the PATH holds.
    const auto cmd =
        "timeout 1.3 busybox ash -c " +
        coresteer::shellQuote("ping() { busybox ping \"$@\"; }; " + routerPingCommand("127.0.0.1"));
    const auto out = coresteer::test::capture(cmd);
    PingReader r;
    const auto got = r.feed(out);
    std::printf("BusyBox ping under ash, 1.3 s: %zu replies\n", got.size());
    EXPECT_GE(got.size(), 5u) << out;
    for (const auto& ms : got) {
        ASSERT_TRUE(ms) << out;
        EXPECT_LT(*ms, 50.0);
    }
}

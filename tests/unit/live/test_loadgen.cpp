// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The load generator's iperf3 reports (core/live/loadgen.h).
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

// iperf3's interval reports, as iperf3 3.12 prints them, read as throughput each way.
TEST(LoadGenerator, ReadsIperf3IntervalReportsEachWay) {
    LoadSpec both;
    std::string error;
    ASSERT_TRUE(parseLoadServer("127.0.0.1:5299", both, &error)) << error;
    EXPECT_EQ(both.server, "127.0.0.1");
    EXPECT_EQ(both.port, 5299);
    both.streams = 2;
    both.direction = LoadSpec::Direction::Both;
    const auto args = iperfArguments(both);
    EXPECT_EQ(args, (std::vector<std::string>{"--client", "127.0.0.1", "--port", "5299",
                                              "--parallel", "2", "--time", "3600", "--interval",
                                              "0.5", "--forceflush", "--bidir"}));
    IperfReader r(both);
    const std::string out =
        "Connecting to host 127.0.0.1, port 5299\n"
        "[  5] local 127.0.0.1 port 53034 connected to 127.0.0.1 port 5299\n"
        "[ ID][Role] Interval           Transfer     Bitrate         Retr  Cwnd\n"
        "[  5][TX-C]   0.00-0.50   sec   339 MBytes  5.68 Gbits/sec    1    767 KBytes       \n"
        "[  7][TX-C]   0.00-0.50   sec   340 MBytes  5.70 Gbits/sec    1    767 KBytes       \n"
        "[SUM][TX-C]   0.00-0.50   sec   678 MBytes  11.4 Gbits/sec    2             \n"
        "[  9][RX-C]   0.00-0.50   sec   114 MBytes  1.92 Gbits/sec                  \n"
        "[SUM][RX-C]   0.00-0.50   sec   222 MBytes  3.73 Gbits/sec                  \n"
        "- - - - - - - - - - - - - - - - - - - - - - - - -\n"
        "[SUM][TX-C]   0.50-1.00   sec   560 MBytes  9.38 Gbits/sec    1             \n"
        "[SUM][RX-C]   0.50-1.00   sec   270 MB";
    auto reports = r.feed(out);
    ASSERT_EQ(reports.size(), 1u);
    EXPECT_DOUBLE_EQ(reports[0].end, 0.5);
    EXPECT_DOUBLE_EQ(reports[0].upBitsPerSec, 11.4e9);
    EXPECT_DOUBLE_EQ(reports[0].downBitsPerSec, 3.73e9);
    reports = r.feed("ytes  4.52 Gbits/sec                  \n"
                     "[SUM][TX-C]   0.00-10.00  sec  5.2 GBytes  4.5 Gbits/sec  9   sender\n");
    ASSERT_EQ(reports.size(), 1u);
    EXPECT_DOUBLE_EQ(reports[0].end, 1.0);
    EXPECT_DOUBLE_EQ(reports[0].downBitsPerSec, 4.52e9);

    // One stream, download: the stream's own lines.
    LoadSpec one;
    ASSERT_TRUE(parseLoadServer("[::1]:5201", one, &error)) << error;
    EXPECT_EQ(one.server, "::1");
    one.streams = 1;
    EXPECT_EQ(iperfArguments(one).back(), "--reverse");
    IperfReader d(one);
    reports = d.feed("[  5]   0.00-0.50   sec  56.2 MBytes   943 Mbits/sec                  \n");
    ASSERT_EQ(reports.size(), 1u);
    EXPECT_DOUBLE_EQ(reports[0].downBitsPerSec, 943e6);
    EXPECT_DOUBLE_EQ(reports[0].upBitsPerSec, 0);

    // What cannot be a server is refused before anything runs.
    for (const char* bad :
         {"", "-oProxyCommand=x", "host;reboot", "a b", "host:0", "host:99999", "[::1", "$(id)"}) {
        LoadSpec s;
        EXPECT_FALSE(parseLoadServer(bad, s, &error)) << bad;
    }
}

// A load target as the settings keep it: an iperf3 server, or the URLs of HTTP(S) load.
TEST(LoadGenerator, ATargetIsAnIperf3ServerOrTheUrlsOfHttpLoad) {
    std::string error;
    LoadSpec s;
    ASSERT_TRUE(parseLoadTarget(" speed.example.net:5202 ", s, &error)) << error;
    EXPECT_EQ(s.server, "speed.example.net");
    EXPECT_EQ(s.port, 5202);
    EXPECT_FALSE(s.isHttp());
    EXPECT_TRUE(s.canRun(LoadSpec::Direction::Both));

    ASSERT_TRUE(parseLoadTarget("https://cdn.example.net/1GB.bin", s, &error)) << error;
    EXPECT_TRUE(s.isHttp());
    EXPECT_EQ(s.urls, std::vector<std::string>{"https://cdn.example.net/1GB.bin"});
    EXPECT_EQ(s.postUrl, "");
    EXPECT_TRUE(s.canRun(LoadSpec::Direction::Download));
    EXPECT_FALSE(s.canRun(LoadSpec::Direction::Upload));
    EXPECT_FALSE(s.canRun(LoadSpec::Direction::Sequence));

    const std::string several = "http://[::1]:8080/down?bytes=1e9  https://b.example/1G\t"
                                "POST http://[::1]:8080/up";
    ASSERT_TRUE(parseLoadTarget(several, s, &error)) << error;
    EXPECT_EQ(s.urls, (std::vector<std::string>{"http://[::1]:8080/down?bytes=1e9",
                                                "https://b.example/1G"}));
    EXPECT_EQ(s.postUrl, "http://[::1]:8080/up");
    EXPECT_TRUE(s.canRun(LoadSpec::Direction::Sequence));
    EXPECT_EQ(loadTargetText(s),
              "http://[::1]:8080/down?bytes=1e9 https://b.example/1G POST http://[::1]:8080/up");
    LoadSpec again;
    ASSERT_TRUE(parseLoadTarget(loadTargetText(s), again, &error));
    EXPECT_EQ(again.urls, s.urls);
    EXPECT_EQ(again.postUrl, s.postUrl);
    s.server = "::1";
    s.port = 5202;
    s.urls.clear();
    EXPECT_EQ(loadTargetText(s), "[::1]:5202");

    // What is not a URL to load is refused, and said with the text (printable) and why.
    const std::pair<std::string, std::string> bad[] = {
        {"ftp://example.net/file", "load generator server"},
        {"https://user:secret@example.net/f", "without one"},
        {"https://", "no host"},
        {"https:///path", "no host"},
        {"https://a.example/x not-a-url", "not an http:// or https:// URL"},
        {"https://a.example/x POST", "POST needs the URL that takes the uploads"},
        {"https://a.example/\xe2\x80\xa8x", "bytes beyond ASCII must be %-encoded"},
        {"https://a.example/\xff\xfe", "bytes beyond ASCII must be %-encoded"},
        {"https://a.example/\nrm", "control characters"},
        {"https://a.example/x POST https://b.example/ https://c.example/", "not two"},
        {"POST https://b.example/", "load generator server"},
        {"https://a.example/1 https://a.example/2 https://a.example/3 https://a.example/4 "
         "https://a.example/5 https://a.example/6 https://a.example/7 https://a.example/8 "
         "https://a.example/9",
         "at most 8 URLs"},
        {"https://a.example/\x1b[31m", "'https://a.example/\\x1b[31m'"},
        {"https://a.example/" + std::string(2100, 'a'), "longer than 2048"},
    };
    for (const auto& [text, why] : bad) {
        LoadSpec t;
        EXPECT_FALSE(parseLoadTarget(text, t, &error)) << text;
        EXPECT_NE(error.find(why), std::string::npos) << text << " -> " << error;
    }
}

// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/kernel/procstat.h"

#include <gtest/gtest.h>

using namespace coresteer;

TEST(ProcStat, FieldCountsAcrossKernels) {
    Diagnostics d;
    const auto st = parseProcStat("cpu  100 2 30 4000 5 6 7 8 9 10\n"
                                  "cpu0 50 1 15 2000 2 3 3 4 4 5\n"
                                  "cpu1 50 1 15 2000 3 3 4\n" // 2.6.11: 7 fields
                                  "cpu3 1 2 3 4 5 6 7 8\n"    // 8 fields, cpu2 offline
                                  "intr 12345 0 0 1\n"
                                  "ctxt 987654\n"
                                  "btime 1700000000\n"
                                  "processes 4242\n"
                                  "softirq 1 2 3 4 5 6 7 8 9 10 11\n",
                                  d);
    EXPECT_TRUE(d.empty());
    ASSERT_TRUE(st.all.has_value());
    EXPECT_EQ(st.all->fields, 10);
    EXPECT_EQ(st.all->get(CpuTimes::GuestNice), 10u);
    EXPECT_EQ(st.all->total(), 100u + 2 + 30 + 4000 + 5 + 6 + 7 + 8);
    ASSERT_EQ(st.cpus.size(), 3u);
    EXPECT_EQ(st.cpus[1].cpu, 1);
    EXPECT_EQ(st.cpus[1].fields, 7);
    EXPECT_EQ(st.cpus[1].get(CpuTimes::Steal), 0u);
    EXPECT_EQ(st.cpus[1].get(CpuTimes::SoftIrq), 4u);
    EXPECT_EQ(st.cpu(3)->fields, 8);
    EXPECT_EQ(st.cpu(2), nullptr);
    EXPECT_EQ(st.contextSwitches, 987654u);
    EXPECT_EQ(st.bootTime, 1700000000u);
    EXPECT_EQ(st.processes, 4242u);
}

TEST(ProcStat, BadLinesAreWarnedAndSkipped) {
    Diagnostics d;
    const auto st = parseProcStat("cpu  1 2 3 4 5 6 7\n"
                                  "cpu0 1 2 x 4\n"
                                  "cpu1 1 2\n"
                                  "cpuZ 1 2 3 4\n"
                                  "cpu99999 1 2 3 4\n"
                                  "cpu2 1 2 3 4 5 6 7 8 9 10 11 12\n"
                                  "cpu2 1 2 3 4\n",
                                  d);
    ASSERT_EQ(st.cpus.size(), 1u);
    EXPECT_EQ(st.cpus[0].cpu, 2);
    EXPECT_EQ(st.cpus[0].fields, 10);
    std::vector<int> lines;
    for (const auto& e : d.entries())
        lines.push_back(e.line);
    EXPECT_EQ(lines, (std::vector<int>{2, 3, 4, 5, 7}));
}

TEST(ProcStat, EmptyWarns) {
    Diagnostics d;
    parseProcStat("", d);
    EXPECT_FALSE(d.empty());
}

TEST(Softirqs, NetRxAndTxPerCpu) {
    Diagnostics d;
    const auto t =
        parseSoftirqs("                    CPU0       CPU1       CPU2       CPU3       \n"
                      "          HI:          1          0          0          0\n"
                      "       TIMER:    1234567    2345678    3456789    4567890\n"
                      "      NET_TX:        100        200        300        400\n"
                      "      NET_RX:   98765432          5          6          7\n"
                      "       BLOCK:          0          0\n",
                      d);
    EXPECT_EQ(t.cpus, (std::vector<int>{0, 1, 2, 3}));
    ASSERT_NE(t.find("NET_RX"), nullptr);
    EXPECT_EQ(t.find("NET_RX")->counts[0], 98765432u);
    EXPECT_EQ(t.find("NET_TX")->counts[3], 400u);
    EXPECT_EQ(t.find("BLOCK")->counts, (std::vector<std::uint64_t>{0, 0, 0, 0}));
    ASSERT_EQ(d.entries().size(), 1u); // the short BLOCK row
    EXPECT_EQ(d.entries()[0].line, 6);
}

TEST(NetDev, StandardAndOldFormats) {
    Diagnostics d;
    const auto v = parseNetDev(
        "Inter-|   Receive                                                |  Transmit\n"
        " face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs "
        "drop fifo colls carrier compressed\n"
        "    lo:  123456     789    0    0    0     0          0         0   123456     789    0  "
        "  0    0     0       0          0\n"
        "  eth0:1000 10 1 2 3 4 5 6 2000 20 7 8 9 10 11 12\n"
        "broken: 1 2 3\n",
        d);
    ASSERT_EQ(v.size(), 3u);
    EXPECT_EQ(v[0].name, "lo");
    EXPECT_EQ(v[1].name, "eth0");
    EXPECT_EQ(v[1].get(NetDevCounters::RxBytes), 1000u);
    EXPECT_EQ(v[1].get(NetDevCounters::TxDrop), 8u);
    EXPECT_EQ(v[1].get(NetDevCounters::TxCompressed), 12u);
    ASSERT_EQ(d.entries().size(), 1u);
    EXPECT_EQ(d.entries()[0].line, 5);
}

TEST(CpuHeader, Parsing) {
    std::vector<int> cpus;
    std::string err;
    EXPECT_TRUE(parseCpuHeader("CPU0 CPU1 CPU7", cpus, err));
    EXPECT_EQ(cpus, (std::vector<int>{0, 1, 7}));
    EXPECT_FALSE(parseCpuHeader("CPU1 CPU0", cpus, err));
    EXPECT_FALSE(parseCpuHeader("CPU0 GPU1", cpus, err));
    EXPECT_FALSE(parseCpuHeader("CPU9000", cpus, err));
    EXPECT_FALSE(parseCpuHeader("   ", cpus, err));
}

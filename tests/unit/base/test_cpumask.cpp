// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/base/cpumask.h"

#include <gtest/gtest.h>

using coresteer::CpuMask;

namespace {

CpuMask hex(const std::string& s) {
    std::string err;
    auto m = CpuMask::fromHex(s, &err);
    EXPECT_TRUE(m.has_value()) << s << ": " << err;
    return m.value_or(CpuMask{});
}

} // namespace

class HexRoundTrip : public ::testing::TestWithParam<std::string> {};

TEST_P(HexRoundTrip, PrintsBackExactly) {
    EXPECT_EQ(hex(GetParam()).toHex(), GetParam());
}

INSTANTIATE_TEST_SUITE_P(KernelFormats, HexRoundTrip,
                         ::testing::Values("1", "3", "f", "3f", "ff", "c0", "30", "00", "fe",
                                           "ffffffff", "ff,ffffffff", "0,00000001",
                                           "ffffffff,ffffffff", "ffffffff,ffffffff,ffffffff",
                                           "00000000,00000000,00000000,80000000",
                                           "00000000,00000000,00000000,00000000,00000000,00000000,"
                                           "00000000,00000001"));

TEST(CpuMask, HexBitsAndWidth) {
    const auto m = hex("c0");
    EXPECT_EQ(m.width(), 8);
    EXPECT_EQ(m.cpus(), (std::vector<int>{6, 7}));
    EXPECT_EQ(m.toList(), "6-7");
    const auto wide = hex("ff,ffffffff");
    EXPECT_EQ(wide.width(), 40);
    EXPECT_EQ(wide.count(), 40);
    EXPECT_EQ(wide.toList(), "0-39");
    const auto high = hex("80000000,00000000,00000000");
    EXPECT_EQ(high.cpus(), (std::vector<int>{95}));
    EXPECT_EQ(high.width(), 96);
}

TEST(CpuMask, HexAcceptsNewlinePrefixAndUpperCase) {
    EXPECT_EQ(hex("0xFF\n").toList(), "0-7");
    EXPECT_EQ(hex("  3f  ").toList(), "0-5");
}

TEST(CpuMask, HexPrintsAtAnyWidth) {
    const auto m = CpuMask::fromCpus({0, 5});
    EXPECT_EQ(m.toHex(2), "21"); // never narrower than the highest CPU
    EXPECT_EQ(m.toHex(6), "21");
    EXPECT_EQ(m.toHex(8), "21");
    EXPECT_EQ(m.toHex(12), "021");
    EXPECT_EQ(m.toHex(64), "00000000,00000021");
    EXPECT_EQ(m.toHex(33), "0,00000021");
    EXPECT_EQ(CpuMask(4).toHex(), "0");
    EXPECT_EQ(CpuMask().toHex(), "0");
}

TEST(CpuMask, HexRejectsGarbage) {
    for (const char* bad :
         {"", "xyz", "ff,", ",ff", "ff,,ff", "123456789,00000000", "g0", "-1", "ff ff", "0x"}) {
        std::string err;
        EXPECT_FALSE(CpuMask::fromHex(bad, &err).has_value()) << bad;
        EXPECT_FALSE(err.empty()) << bad;
    }
}

TEST(CpuMask, HexRejectsMoreThanTheKernelMaximum) {
    std::string s = "1";
    for (int i = 0; i < 256; ++i)
        s += ",00000000";
    std::string err;
    EXPECT_FALSE(CpuMask::fromHex(s, &err).has_value());
    EXPECT_NE(err.find("8192"), std::string::npos);
    // A 2 MB run of digits is refused without allocating for it.
    EXPECT_FALSE(CpuMask::fromHex(std::string(2 << 20, 'f')).has_value());
}

TEST(CpuMask, ListFormat) {
    auto l = [](const std::string& s) {
        std::string err;
        auto m = CpuMask::fromList(s, &err);
        EXPECT_TRUE(m.has_value()) << s << ": " << err;
        return m.value_or(CpuMask{});
    };
    EXPECT_EQ(l("0-3,6").cpus(), (std::vector<int>{0, 1, 2, 3, 6}));
    EXPECT_EQ(l("0-3,6").toList(), "0-3,6");
    EXPECT_EQ(l("5").toList(), "5");
    EXPECT_TRUE(l("").none());
    EXPECT_TRUE(l("\n").none());
    EXPECT_EQ(l("0-15:2/4").toList(), "0-1,4-5,8-9,12-13");
    EXPECT_EQ(l("0-7\n").toHex(), "ff");
    EXPECT_EQ(l("8191").highest(), 8191);
    for (const char* bad :
         {"3-1", "a", "0-", "-3", "8192", "1,,2", "0-7:0/4", "0-7:5/4", "0-7:1"}) {
        std::string err;
        EXPECT_FALSE(CpuMask::fromList(bad, &err).has_value()) << bad;
        EXPECT_FALSE(err.empty()) << bad;
    }
}

TEST(CpuMask, ListRoundTripsThroughHex) {
    for (const char* s : {"0", "0-7", "1,3,5,7", "4-7", "0-2,4,6-63", "0-95", "64-127"}) {
        const auto m = CpuMask::fromList(s).value();
        EXPECT_EQ(CpuMask::fromHex(m.toHex()).value().toList(), s);
    }
}

TEST(CpuMask, SetOperations) {
    const auto a = CpuMask::fromList("0-3").value();
    const auto b = CpuMask::fromList("2-5").value();
    EXPECT_EQ((a | b).toList(), "0-5");
    EXPECT_EQ((a & b).toList(), "2-3");
    EXPECT_EQ(a.minus(b).toList(), "0-1");
    EXPECT_TRUE(CpuMask::fromList("1-2").value().isSubsetOf(a));
    EXPECT_FALSE(b.isSubsetOf(a));
    EXPECT_EQ(hex("0f"), hex("f")); // equality ignores width
    EXPECT_NE(hex("0f"), hex("1f"));
}

TEST(CpuMask, ChecksAgainstOnlineCpus) {
    const auto online = CpuMask::fromList("0-3").value();
    const auto wanted = hex("30");
    EXPECT_EQ(wanted.minus(online).toList(), "4-5");
}

TEST(CpuMask, IgnoresCpusOutsideTheKernelRange) {
    CpuMask m;
    m.set(-1);
    m.set(CpuMask::kMaxCpus);
    EXPECT_TRUE(m.none());
    EXPECT_FALSE(m.test(-5));
    EXPECT_FALSE(m.test(100000));
    EXPECT_EQ(CpuMask::firstN(6).toHex(), "3f");
}

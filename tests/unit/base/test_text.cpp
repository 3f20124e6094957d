// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/base/text.h"

#include <gtest/gtest.h>

using namespace coresteer;

// Every count and number a router sends goes through these: the whole range, and nothing past it.
TEST(Text, ParseU64TakesTheWholeRangeAndNothingMore) {
    EXPECT_EQ(text::parseU64("0"), 0u);
    EXPECT_EQ(text::parseU64("007"), 7u);
    EXPECT_EQ(text::parseU64("4294967296"), 4294967296u);
    EXPECT_EQ(text::parseU64("18446744073709551615"), 18446744073709551615u);
    EXPECT_EQ(text::parseU64("18446744073709551616"), std::nullopt);  // 2^64
    EXPECT_EQ(text::parseU64("18446744073709551620"), std::nullopt);  // overflows in the add
    EXPECT_EQ(text::parseU64("99999999999999999999"), std::nullopt);  // overflows in the multiply
    EXPECT_EQ(text::parseU64("000000000000000000001"), std::nullopt); // longer than 20 digits
    for (const char* bad : {"", "-1", "+1", " 1", "1 ", "1x", "0x10", "1.5"})
        EXPECT_EQ(text::parseU64(bad), std::nullopt) << bad;
}

TEST(Text, ParseI64TakesBothEnds) {
    EXPECT_EQ(text::parseI64("-9223372036854775808"), INT64_MIN);
    EXPECT_EQ(text::parseI64("9223372036854775807"), INT64_MAX);
    EXPECT_EQ(text::parseI64("9223372036854775808"), std::nullopt);
    EXPECT_EQ(text::parseI64("-9223372036854775809"), std::nullopt);
    EXPECT_EQ(text::parseI64("-0"), 0);
}

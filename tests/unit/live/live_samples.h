// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// Samples for the live tests: two /proc/stat texts a second apart, and a Sample parsed from texts.
#pragma once

#include "core/live/sample.h"

#include <gtest/gtest.h>

#include <string>

namespace coresteer::test {

using namespace coresteer::live;

inline Sample sample(double uptime, const std::string& stat, const std::string& interrupts = {},
                     const std::string& softirqs = {}, const std::string& netdev = {}) {
    Diagnostics d;
    auto s =
        parseSample({std::to_string(uptime) + " 100.0\n", stat, softirqs, interrupts, netdev}, d);
    EXPECT_TRUE(s) << (d.entries().empty() ? "" : d.entries().front().toString());
    return s ? *s : Sample{};
}

inline const char* kStat0 = "cpu  0 0 0 0 0 0 0 0 0 0\n"
                            "cpu0 100 0 100 800 0 0 0 0 0 0\n"
                            "cpu1 100 0 100 800 0 0 0 0 0 0\n";
// One second later at USER_HZ 100: cpu0 all softirq; cpu1 half user, a quarter irq.
inline const char* kStat1 = "cpu  0 0 0 0 0 0 0 0 0 0\n"
                            "cpu0 100 0 100 800 0 0 100 0 0 0\n"
                            "cpu1 150 0 100 825 0 25 0 0 0 0\n";

} // namespace coresteer::test

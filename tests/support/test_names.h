// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// Names of tests as file names and as gtest's parameter names.
#pragma once

#include <gtest/gtest.h>

#include <cctype>
#include <string>

namespace coresteer::test {

// The running test's name as a file name ("Boards/3" gives "Boards_3"), after its suite's name
// and a dot when `withSuite`: one folder per test, since ctest runs tests in parallel.
inline std::string currentTestFileName(bool withSuite = false) {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    std::string name =
        withSuite ? std::string(info->test_suite_name()) + "." + info->name() : info->name();
    for (auto& c : name)
        if (c == '/')
            c = '_';
    return name;
}

// A parameter's text as gtest takes it for a test's name: every character but a letter or a
// digit as '_' ("/bin/busybox ash" gives "_bin_busybox_ash").
inline std::string paramTestName(std::string text) {
    for (auto& c : text)
        if (!std::isalnum(static_cast<unsigned char>(c)))
            c = '_';
    return text;
}

} // namespace coresteer::test

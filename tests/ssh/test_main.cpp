// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The SSH tests' main(): the test servers start once for all of them.
#include "tests/ssh/ssh_fixture.h"

#include <csignal>

using namespace coresteer::test;

int main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    ::testing::AddGlobalTestEnvironment(new Servers(kDir));
    std::signal(SIGPIPE, SIG_IGN);
    return RUN_ALL_TESTS();
}

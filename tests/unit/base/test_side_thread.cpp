// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/base/side_thread.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>

#include <sched.h>

using coresteer::SideThread;

namespace {

int allowedCpus() {
    cpu_set_t set;
    CPU_ZERO(&set);
    return sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 1;
}

} // namespace

// The kernel would often queue the new thread behind its busy parent; the side thread starts
// on another CPU while the caller keeps its own busy. (The caller may itself move to another CPU
// between its check and the start, on a loaded machine: a round or two in twenty may show that.)
TEST(SideThread, RunsBesideABusyCallerOnAnotherCpu) {
    constexpr int kRounds = 20;
    int besideTheCaller = 0, ran = 0;
    for (int round = 0; round < kRounds; ++round) {
        std::atomic<int> workCpu{-1};
        SideThread t;
        const int here = sched_getcpu();
        ASSERT_TRUE(t.start([&] { workCpu = sched_getcpu(); }));
        // Busy, without yielding, until the work has run (or 2 s have passed).
        const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(2);
        int callerCpu = here;
        while (workCpu < 0 && std::chrono::steady_clock::now() < until)
            callerCpu = sched_getcpu();
        t.join();
        ran += workCpu >= 0;
        besideTheCaller += workCpu >= 0 && workCpu != here && workCpu != callerCpu;
    }
    EXPECT_EQ(ran, kRounds) << "the side thread waited for the busy caller";
    if (allowedCpus() >= 2) {
        EXPECT_GE(besideTheCaller, kRounds - 2) << "rounds on another CPU than the caller's";
    }
}

TEST(SideThread, JoinRethrowsWhatTheWorkThrew) {
    SideThread t;
    ASSERT_TRUE(t.start([] { throw std::runtime_error("out of rows"); }));
    try {
        t.join();
        FAIL() << "join did not rethrow";
    } catch (const std::runtime_error& e) {
        EXPECT_STREQ(e.what(), "out of rows");
    }
    // Joined once: again is nothing, and the thread may run other work.
    t.join();
    int ran = 0;
    ASSERT_TRUE(t.start([&] { ran = 1; }));
    t.join();
    EXPECT_EQ(ran, 1);
}

TEST(SideThread, DestroyedUnjoinedWaitsForTheWork) {
    std::atomic<bool> done{false};
    {
        SideThread t;
        ASSERT_TRUE(t.start([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
            done = true;
        }));
    }
    EXPECT_TRUE(done.load());
}

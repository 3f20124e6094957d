// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// Fidelity: the sampler's per-core busy share at 10 Hz, averaged over a window, against
// `mpstat -P ALL` (Debian sysstat) over the same window, under a load this test makes (CPU0 busy
// about 60% of the time, in 6 ms bursts). They agree within 2 percentage points per core. Runs
// alone (RUN_SERIAL), so that the load is the test's own.
#include "core/live/source.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <map>
#include <sched.h>
#include <sstream>
#include <thread>

using namespace coresteer;
using namespace coresteer::live;
using Clock = std::chrono::steady_clock;

TEST(Fidelity, SamplerAgreesWithMpstatWithinTwoPoints) {
    std::atomic<bool> stop{false};
    std::thread load([&] {
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET(0, &set);
        ::sched_setaffinity(0, sizeof set, &set);
        while (!stop.load()) {
            const auto until = Clock::now() + std::chrono::milliseconds(6);
            while (Clock::now() < until) {
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(4));
        }
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(500));

    auto src = localSampleSource("/");
    std::string error;
    FILE* mp = ::popen("LC_ALL=C S_TIME_FORMAT=ISO mpstat -P ALL 4 1", "r");
    ASSERT_TRUE(mp);
    // The sampler at 10 Hz until mpstat has printed (it reads /proc/stat at its start and end).
    auto prev = src->next(&error);
    ASSERT_TRUE(prev) << error;
    std::map<int, double> busySeconds;
    double seconds = 0;
    std::string out;
    std::thread reader([&] {
        char buf[4096];
        std::size_t n;
        while ((n = std::fread(buf, 1, sizeof buf, mp)) > 0)
            out.append(buf, n);
    });
    const auto deadline = Clock::now() + std::chrono::seconds(4);
    auto next = Clock::now();
    while (Clock::now() < deadline) {
        next += std::chrono::milliseconds(100);
        std::this_thread::sleep_until(next);
        auto cur = src->next(&error);
        ASSERT_TRUE(cur) << error;
        if (const auto r = computeRates(*prev, *cur)) {
            for (const auto& c : r->cores)
                busySeconds[c.cpu] += c.busy() * r->seconds();
            seconds += r->seconds();
        }
        prev = std::move(cur);
    }
    reader.join();
    ::pclose(mp);
    stop = true;
    load.join();

    // "Average:  CPU  %usr %nice %sys %iowait %irq %soft %steal %guest %gnice %idle"
    std::map<int, double> mpBusy;
    std::istringstream in(out);
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream f(line);
        std::string tag, cpu;
        f >> tag >> cpu;
        if (tag != "Average:" || cpu == "CPU" || cpu == "all")
            continue;
        std::vector<double> v;
        double x;
        while (f >> x)
            v.push_back(x);
        ASSERT_EQ(v.size(), 10u) << line;
        mpBusy[std::stoi(cpu)] = 100.0 - v[9] - v[3]; // neither idle nor waiting for I/O
    }
    ASSERT_FALSE(mpBusy.empty()) << out;
    ASSERT_GT(seconds, 3.5);
    for (const auto& [cpu, busy] : mpBusy) {
        ASSERT_TRUE(busySeconds.count(cpu)) << cpu;
        const double ours = busySeconds[cpu] / seconds * 100;
        std::printf("CPU%d busy: sampler %.1f%%, mpstat %.1f%%\n", cpu, ours, busy);
        EXPECT_NEAR(ours, busy, 2.0) << "CPU" << cpu;
    }
    EXPECT_GT(busySeconds[0] / seconds, 0.4); // the load showed
}

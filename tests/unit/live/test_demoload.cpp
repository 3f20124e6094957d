// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The demo router's load model: the real sampler reads what it writes, the default R6S layout
// saturates a LITTLE core short of cake's shaped 1300 Mb/s and the queue before it grows the
// latency, and moving receive work to the big cores (as Recommend does) carries the full rate
// with cake's own small queue, all in a private copy of the fixture.
#include "core/collect/collect_local.h"
#include "core/live/demoload.h"
#include "core/live/source.h"
#include "tests/support/board_expect.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <vector>

using namespace coresteer;
using namespace coresteer::live;
namespace fs = std::filesystem;

namespace {

struct Run {
    double downMbps = 0, latencyMs = 0, peak = 0;
    Rates rates;
};

// Steps the model into its download phase, then samples one second of it.
Run downloadSecond(DemoLoad& load, SampleSource& src) {
    std::string error;
    for (int i = 0; i < 200 && load.phase() != "download"; ++i)
        EXPECT_TRUE(load.step(0.5, &error)) << error;
    EXPECT_TRUE(load.step(0.1, &error)) << error;
    const auto a = src.next(&error);
    EXPECT_TRUE(load.step(1.0, &error)) << error;
    const auto b = src.next(&error);
    EXPECT_TRUE(a && b) << error;
    Run r;
    r.downMbps = load.downMbps();
    r.latencyMs = load.latencyMs();
    r.peak = load.peakDemand();
    if (a && b)
        if (const auto rates = computeRates(*a, *b))
            r.rates = *rates;
    return r;
}

} // namespace

TEST(DemoLoad, DefaultLayoutSaturatesALittleCoreAndRecommendedMovesTheWork) {
    const auto root = fs::path(CORESTEER_TEST_TMP) / "demoload" / "root";
    fs::remove_all(root);
    fs::create_directories(root.parent_path());
    fs::copy(test::boardDir("nanopi-r6s-friendlywrt"), root,
             fs::copy_options::recursive | fs::copy_options::copy_symlinks);
    const auto snap = buildSnapshot(collectLocal(root));
    std::string error;
    auto load = DemoLoad::create(root.string(), snap, &error);
    ASSERT_TRUE(load) << error;
    auto src = localSampleSource(root.string());

    const auto before = downloadSecond(*load, *src);
    ASSERT_EQ(before.rates.cores.size(), 8u);
    // eth1's IRQ and its packet steering both sit on LITTLE CPU2 by default.
    double hottest = 0;
    int hot = -1;
    for (const auto& c : before.rates.cores)
        if (c.busy() > hottest) {
            hottest = c.busy();
            hot = c.cpu;
        }
    EXPECT_GT(hottest, 0.97);
    EXPECT_LT(hot, 4) << "the hot core should be a LITTLE one";
    EXPECT_GT(before.downMbps, 700);
    EXPECT_LT(before.downMbps, 1250); // short of what cake lets through
    EXPECT_GT(before.peak, 1.0);
    // The queue before the saturated core: its 4096 packets at about 100 000 a second.
    EXPECT_GT(before.latencyMs, DemoLoad::Profile{}.baseRttMs + 30);
    EXPECT_LT(before.latencyMs, DemoLoad::Profile{}.baseRttMs + 60);
    ASSERT_TRUE(before.rates.irq(141));
    EXPECT_GT(before.rates.irq(141)->perCpu[2], 1000);

    // Receive packet steering of eth1 and eth2 onto the big cores, IRQs left where they are.
    std::ofstream(root / "sys/class/net/eth1/queues/rx-0/rps_cpus") << "30\n";
    std::ofstream(root / "sys/class/net/eth2/queues/rx-0/rps_cpus") << "c0\n";
    const auto after = downloadSecond(*load, *src);
    std::printf("demo model: %.0f Mb/s download with the default layout (CPU%d at %.0f%%, "
                "%.1f ms), %.0f Mb/s with RPS on the big cores (%.1f ms, busiest core at %.0f%%)\n",
                before.downMbps, hot, hottest * 100, before.latencyMs, after.downMbps,
                after.latencyMs, after.peak * 100);
    EXPECT_GT(after.downMbps, 1300 * 0.95); // all that cake lets through
    EXPECT_LT(after.peak, 0.9);
    EXPECT_LT(after.latencyMs, DemoLoad::Profile{}.baseRttMs + 8); // cake's own queue
    double bigSoftirq = 0;
    for (int c = 4; c < 8; ++c)
        if (const auto* l = after.rates.core(c))
            bigSoftirq = std::max(bigSoftirq, l->softirq);
    EXPECT_GT(bigSoftirq, 0.2); // the stack now runs on a big core

    // An IRQ moved by apply is taken where its new mask says, and shows as effective.
    std::ofstream(root / "proc/irq/141/smp_affinity") << "02\n";
    const auto moved = downloadSecond(*load, *src);
    ASSERT_TRUE(moved.rates.irq(141));
    EXPECT_GT(moved.rates.irq(141)->perCpu[1], 1000);
    EXPECT_EQ(moved.rates.irq(141)->perCpu[2], 0);
    std::ifstream eff(root / "proc/irq/141/effective_affinity");
    std::string e;
    eff >> e;
    EXPECT_EQ(e, "02");

    // And the tree still reads as the same router, without new warnings.
    const auto again = buildSnapshot(collectLocal(root));
    EXPECT_EQ(again.irqs.size(), snap.irqs.size());
    EXPECT_EQ(again.diagnostics.entries().size(), snap.diagnostics.entries().size());
    for (const auto& n : snap.interfaces) {
        const auto* o = again.interface(n.name);
        ASSERT_TRUE(o) << n.name;
        EXPECT_EQ(o->irqs, n.irqs) << n.name;
    }
}

// A test started on the demo: its baseline idle, then download, upload and both for the phase
// length asked, then a rest; the modelled latency is the base round trip while idle and grows
// under load on the default layout, whose LITTLE core saturates.
TEST(DemoLoad, ATestRunsItsPhasesFromIdle) {
    const auto root = fs::path(CORESTEER_TEST_TMP) / "demoload-test" / "root";
    fs::remove_all(root);
    fs::create_directories(root.parent_path());
    fs::copy(test::boardDir("nanopi-r6s-friendlywrt"), root,
             fs::copy_options::recursive | fs::copy_options::copy_symlinks);
    std::string error;
    auto load = DemoLoad::create(root.string(), buildSnapshot(collectLocal(root)), &error);
    ASSERT_TRUE(load) << error;
    load->startTest(3, 2);
    std::vector<std::string> phases;
    std::map<std::string, double> worst;
    for (int i = 0; i < 130; ++i) { // 13 s at 10 Hz
        ASSERT_TRUE(load->step(0.1, &error)) << error;
        const auto ph = load->phase();
        if (phases.empty() || phases.back() != ph)
            phases.push_back(ph);
        worst[ph] = std::max(worst[ph], load->latencyMs());
        if (i == 25) { // the end of the baseline: the queue has drained
            EXPECT_LT(load->latencyMs(), DemoLoad::Profile{}.baseRttMs + 1);
        }
    }
    EXPECT_EQ(phases, (std::vector<std::string>{"idle", "download", "upload", "download and upload",
                                                "idle"}));
    EXPECT_GT(worst["download"], DemoLoad::Profile{}.baseRttMs + 30);
}

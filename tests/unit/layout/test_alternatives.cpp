// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The planner's alternatives: the shapes a measurement on the router chooses between, each
// named, explained, applicable, and different from the others.
#include "core/collect/collect_local.h"
#include "core/layout/planner.h"
#include "core/layout/resolve.h"
#include "tests/support/board_expect.h"

#include <gtest/gtest.h>

#include <set>

using namespace coresteer;
using namespace coresteer::layout;

namespace {

Snapshot boardSnapshot(const std::string& name) {
    return buildSnapshot(collectLocal(test::boardDir(name)));
}

std::vector<std::string> names(const std::vector<PlanAlternative>& alts) {
    std::vector<std::string> n;
    for (const auto& a : alts)
        n.push_back(a.name);
    return n;
}

// Every alternative resolves on its router without a skipped target, explains itself, and
// writes something the others do not.
void expectDistinctAndApplicable(const std::string& b, const std::vector<PlanAlternative>& alts) {
    const auto snap = boardSnapshot(b);
    for (std::size_t i = 0; i < alts.size(); ++i) {
        const auto& a = alts[i];
        EXPECT_FALSE(a.name.empty()) << b;
        EXPECT_GT(a.why.size(), 20u) << b << ": " << a.name;
        EXPECT_FALSE(a.layout.irqs.empty()) << b << ": " << a.name;
        EXPECT_FALSE(a.layout.notes.empty()) << b << ": " << a.name;
        for (const auto& t : a.layout.irqs)
            EXPECT_FALSE(t.why.empty()) << b << ": " << a.name;
        const auto r = resolve(a.layout, snap);
        EXPECT_TRUE(r.skipped.empty())
            << b << ": " << a.name << ": " << (r.skipped.empty() ? "" : r.skipped[0].reason);
        for (std::size_t j = 0; j < i; ++j)
            EXPECT_FALSE(sameTargets(a.layout, alts[j].layout))
                << b << ": " << a.name << " is " << alts[j].name;
    }
}

} // namespace

TEST(Alternatives, TwoClassesOfCore) {
    const auto snap = boardSnapshot("nanopi-r6s-friendlywrt");
    const auto alts = planAlternatives(snap);
    EXPECT_EQ(names(alts), (std::vector<std::string>{"IRQs on LITTLE, packet work on big",
                                                     "Everything on big", "RPS over all cores"}));
    EXPECT_TRUE(sameTargets(alts[0].layout, plan(snap))); // the recommendation comes first
    expectDistinctAndApplicable("nanopi-r6s-friendlywrt", alts);
    // Everything on big: no NIC interrupt, RPS or XPS on a LITTLE core.
    const auto big = snap.topology.classes.back().cpus;
    const auto& all = alts[1].layout;
    for (const auto& t : all.irqs)
        EXPECT_TRUE(t.cpus.isSubsetOf(big)) << t.irq.display() << " " << t.cpus.toList();
    for (const auto& t : all.rx)
        EXPECT_TRUE(!t.rpsCpus || t.rpsCpus->isSubsetOf(big)) << t.interface;
    // RPS over all cores: the recommendation's IRQs, RPS on every online CPU.
    for (const auto& t : alts[2].layout.rx)
        EXPECT_EQ(t.rpsCpus, snap.topology.online) << t.interface;
    EXPECT_EQ(alts[2].layout.irqs.size(), alts[0].layout.irqs.size());
}

TEST(Alternatives, UniformCores) {
    for (const std::string b : {"mt7621-router", "ipq4019-acrh17", "x86-n100-i226"}) {
        const auto alts = planAlternatives(boardSnapshot(b));
        const auto n = names(alts);
        const std::set<std::string> have(n.begin(), n.end());
        EXPECT_EQ(n.front(), "Recommended") << b;
        EXPECT_TRUE(have.count("IRQ per core, no RPS") || have.count("RPS over all cores")) << b;
        EXPECT_GE(alts.size(), 3u) << b;
        EXPECT_LE(alts.size(), 8u) << b;
        expectDistinctAndApplicable(b, alts);
        for (const auto& a : alts)
            if (a.name == "IRQ per core, no RPS")
                for (const auto& t : a.layout.rx)
                    EXPECT_TRUE(t.rpsCpus && t.rpsCpus->none()) << b << " " << t.interface;
    }
}

TEST(Alternatives, AtMostMax) {
    EXPECT_EQ(planAlternatives(boardSnapshot("nanopi-r6s-friendlywrt"), {}, 2).size(), 2u);
    EXPECT_EQ(planAlternatives(boardSnapshot("mt7621-router"), {}, 1).size(), 1u);
}

// The lab router: two uniform cores, one of them slower than the other under load (nothing in
// sysfs says so). Among the alternatives is the layout that measured best there: every NIC's
// interrupts on CPU0 and their packet work on CPU1.
TEST(Alternatives, TheLabOffersInterruptsOnOneCorePacketWorkOnTheOther) {
    const auto snap = boardSnapshot("x86-virtio-lab");
    const auto alts = planAlternatives(snap);
    expectDistinctAndApplicable("x86-virtio-lab", alts);
    const PlanAlternative* together = nullptr;
    for (const auto& a : alts)
        if (a.name == "IRQs on CPU0, packet work on the others")
            together = &a;
    ASSERT_NE(together, nullptr);
    for (const auto& t : together->layout.irqs)
        EXPECT_EQ(t.cpus.toList(), "0") << t.irq.display();
    for (const auto& t : together->layout.rx)
        EXPECT_EQ(t.rpsCpus->toList(), "1") << t.interface;
}

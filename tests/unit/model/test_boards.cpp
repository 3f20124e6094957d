// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// Every board fixture: the snapshot shows what the board's EXPECT file says.
#include "core/collect/collect_local.h"
#include "core/model/snapshot.h"
#include "core/model/snapshot_json.h"
#include "core/model/snapshot_text.h"
#include "tests/support/board_expect.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace coresteer;
using coresteer::test::boardDir;
using coresteer::test::boardNames;
using coresteer::test::readExpect;

class Board : public ::testing::TestWithParam<std::string> {
protected:
    Snapshot snap() { return buildSnapshot(collectLocal(boardDir(GetParam()))); }
};

TEST_P(Board, ExpectFileIsComplete) {
    const auto x = readExpect(GetParam());
    EXPECT_TRUE(x.unknown.empty()) << "unknown EXPECT lines, first: " << x.unknown.front();
    EXPECT_GT(x.cpus, 0);
    EXPECT_FALSE(x.classes.empty());
    EXPECT_FALSE(x.nics.empty());
    EXPECT_FALSE(x.board.empty());
    EXPECT_FALSE(x.irqbalance.empty());
}

TEST_P(Board, SnapshotIsCleanAndComplete) {
    const auto s = snap();
    std::string diags;
    for (const auto& d : s.diagnostics.entries())
        diags += d.toString() + "\n";
    EXPECT_EQ(s.completeness(), 0) << diags;
    EXPECT_FALSE(s.interrupts.rows.empty());
    EXPECT_FALSE(s.stat.cpus.empty());
    EXPECT_FALSE(s.softirqs.rows.empty());
    EXPECT_FALSE(s.netdev.empty());
}

TEST_P(Board, CoresAndClasses) {
    const auto x = readExpect(GetParam());
    const auto s = snap();
    EXPECT_EQ(s.topology.online.count(), x.cpus);
    std::map<std::string, std::string> got;
    for (const auto& c : s.topology.classes)
        got[c.name] = c.cpus.toList();
    EXPECT_EQ(got, x.classes);
    EXPECT_EQ(static_cast<int>(s.interrupts.cpus.size()), x.cpus);
}

TEST_P(Board, EveryNicIrqIsAttributedToItsInterface) {
    const auto x = readExpect(GetParam());
    const auto s = snap();
    for (const auto& [ifname, irqs] : x.nics) {
        const auto* nif = s.interface(ifname);
        ASSERT_NE(nif, nullptr) << ifname;
        for (auto irq : irqs) {
            const auto* info = s.irq(irq);
            ASSERT_NE(info, nullptr) << "IRQ " << irq << " of " << ifname;
            EXPECT_NE(std::find(nif->irqs.begin(), nif->irqs.end(), irq), nif->irqs.end())
                << "IRQ " << irq << " not attributed to " << ifname;
            // Uniprocessor kernels (CONFIG_SMP=n) have no smp_affinity files at all.
            if (s.topology.possible.count() > 1)
                EXPECT_TRUE(info->smpAffinity.has_value())
                    << "IRQ " << irq << " has no smp_affinity";
            else
                EXPECT_FALSE(info->smpAffinity.has_value()) << "IRQ " << irq;
        }
    }
    for (const auto& [irq, ifnames] : x.shared) {
        const auto* info = s.irq(irq);
        ASSERT_NE(info, nullptr) << "IRQ " << irq;
        auto want = ifnames;
        std::sort(want.begin(), want.end());
        auto got = info->interfaces;
        std::sort(got.begin(), got.end());
        EXPECT_EQ(got, want) << "IRQ " << irq;
    }
    // And no IRQ is claimed by an interface the EXPECT file does not name for it.
    for (const auto& info : s.irqs)
        for (const auto& ifname : info.interfaces) {
            const auto it = x.nics.find(ifname);
            const bool named = it != x.nics.end() && std::find(it->second.begin(), it->second.end(),
                                                               info.irq) != it->second.end();
            EXPECT_TRUE(named) << "IRQ " << info.irq << " attributed to " << ifname
                               << " but EXPECT does not say so";
        }
}

TEST_P(Board, SystemFacts) {
    const auto x = readExpect(GetParam());
    const auto s = snap();
    EXPECT_EQ(s.system.boardName, x.board);
    EXPECT_EQ(s.system.openwrtRelease, x.openwrt);
    ASSERT_TRUE(s.system.irqbalanceRunning.has_value());
    EXPECT_EQ(*s.system.irqbalanceRunning ? "yes" : "no", x.irqbalance);
    EXPECT_FALSE(s.system.hostname.empty());
    EXPECT_FALSE(s.system.kernel.empty());
}

TEST_P(Board, MasksRoundTripThroughTheReportAndJson) {
    const auto s = snap();
    const auto j = toJson(s);
    EXPECT_EQ(j["schema"], kSnapshotSchema);
    EXPECT_EQ(j["interfaces"].size(), s.interfaces.size());
    // Every mask file's text comes back unchanged in the JSON.
    const auto root = boardDir(GetParam());
    for (const auto& irq : j["irqs"]) {
        if (irq["smp_affinity"].is_null())
            continue;
        std::ifstream f(root / "proc/irq" / std::to_string(irq["irq"].get<int>()) / "smp_affinity");
        std::string text;
        std::getline(f, text);
        EXPECT_EQ(irq["smp_affinity"]["hex"].get<std::string>(), text);
    }
    EXPECT_NE(toText(s).find("CPUs:"), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(Fixtures, Board, ::testing::ValuesIn(boardNames()), [](const auto& p) {
    std::string n = p.param;
    std::replace(n.begin(), n.end(), '-', '_');
    return n;
});

TEST(Boards, AllSeedBoardsArePresent) {
    const auto names = boardNames();
    for (const char* b :
         {"nanopi-r6s-friendlywrt", "nanopi-r6s-openwrt", "nanopi-r4s", "nanopi-m4", "bpi-r4",
          "ipq4019-acrh17", "mt7621-router", "bcm4708-router", "archer-c7-v2", "x86-server-96"})
        EXPECT_NE(std::find(names.begin(), names.end(), b), names.end()) << b;
}

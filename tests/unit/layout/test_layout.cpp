// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// Layouts: JSON files read strictly, and resolved against board snapshots into exact writes.
#include "core/collect/collect_local.h"
#include "core/layout/layout_json.h"
#include "core/layout/resolve.h"
#include "tests/support/board_expect.h"

#include <gtest/gtest.h>

using namespace coresteer;
using namespace coresteer::layout;

namespace {

Snapshot board(const std::string& name) {
    return buildSnapshot(collectLocal(test::boardDir(name)));
}

CpuMask cpus(const char* list) {
    return CpuMask::fromList(list).value();
}

Layout sample() {
    Layout l;
    l.irqs.push_back({{"eth1", 0}, cpus("2"), "eth1's interrupts on a LITTLE core"});
    l.irqs.push_back({{"15100000.ethernet", 3}, cpus("3"), ""});
    l.rx.push_back({"eth1", 0, cpus("6-7"), 4096, "packet steering on big cores"});
    l.rx.push_back({"eth2", 0, CpuMask{}, std::nullopt, "RPS off"});
    l.tx.push_back({"eth1", 0, cpus("4-5"), ""});
    l.rpsSockFlowEntries = 32768;
    l.notes.push_back("a note");
    return l;
}

std::string layoutError(const std::string& text) {
    std::string err;
    EXPECT_FALSE(parseLayout(text, &err).has_value()) << text;
    return err;
}

} // namespace

TEST(LayoutJson, RoundTrips) {
    const auto l = sample();
    const auto text = toJson(l).dump(2);
    std::string err;
    const auto back = parseLayout(text, &err);
    ASSERT_TRUE(back.has_value()) << err;
    EXPECT_EQ(toJson(*back), toJson(l));
    EXPECT_EQ(back->irqs[1].irq.index, 3);
    EXPECT_EQ(back->rx[0].rpsCpus->toList(), "6-7");
    EXPECT_TRUE(back->rx[1].rpsCpus->none());
    EXPECT_FALSE(back->rx[1].rpsFlowCnt.has_value());
}

TEST(LayoutJson, StrictErrorsNameTheKey) {
    EXPECT_NE(layoutError(R"({"schema":"coresteer.layout/1","irq":[]})").find("irq: unknown key"),
              std::string::npos);
    EXPECT_NE(layoutError(R"({"schema":"coresteer.layout/1","irqs":[{"action":"eth0","cpus":3}]})")
                  .find("irqs[0].cpus: expected a string"),
              std::string::npos);
    EXPECT_NE(
        layoutError(R"({"schema":"coresteer.layout/1","irqs":[{"action":"eth0","cpus":"9-2"}]})")
            .find("irqs[0].cpus: expected a CPU list"),
        std::string::npos);
    EXPECT_NE(layoutError(R"({"schema":"coresteer.layout/6"})").find("newer coresteer"),
              std::string::npos);
    EXPECT_NE(layoutError(R"({"schema":"coresteer.preset/1"})").find("not a coresteer.layout file"),
              std::string::npos);
    EXPECT_NE(layoutError(R"({"irqs":[]})").find("schema: missing"), std::string::npos);
    EXPECT_NE(
        layoutError(
            R"({"schema":"coresteer.layout/1","rx_queues":[{"interface":"eth0","queue":-1}]})")
            .find("rx_queues[0].queue: out of range"),
        std::string::npos);
    EXPECT_NE(layoutError(R"({"schema":"coresteer.layout/1","irqs":[{"cpus":"1"}]})")
                  .find("irqs[0].action: missing"),
              std::string::npos);
    EXPECT_NE(layoutError("{\"schema\": ").find("not valid JSON at byte"), std::string::npos);
    EXPECT_NE(layoutError("[]").find("expected an object"), std::string::npos);
}

TEST(PresetJson, RoundTripsAndChecksItsOwnSchema) {
    Preset p{"R6S option 1", "friendlyarm,nanopi-r6s", "source: ...", sample()};
    std::string err;
    const auto back = parsePreset(toJson(p).dump(), &err);
    ASSERT_TRUE(back.has_value()) << err;
    EXPECT_EQ(back->name, p.name);
    EXPECT_EQ(back->board, p.board);
    EXPECT_EQ(toJson(back->layout), toJson(p.layout));
    EXPECT_FALSE(parsePreset(
        R"({"schema":"coresteer.preset/1","name":"x","board":"b","layout":{"schema":"x"}})", &err));
    EXPECT_NE(err.find("layout.schema: unknown key"), std::string::npos) << err;
    EXPECT_FALSE(parsePreset(R"({"schema":"coresteer.preset/1","name":"x","board":"b"})", &err));
    EXPECT_NE(err.find("layout: missing"), std::string::npos) << err;
}

TEST(Resolve, R6sWritesExactFilesWithTheKernelsWidth) {
    const auto snap = board("nanopi-r6s-openwrt");
    const auto r = resolve(sample(), snap);
    ASSERT_GE(r.writes.size(), 4u);
    const auto& irq = r.writes[0];
    EXPECT_EQ(irq.path, "proc/irq/96/smp_affinity");
    EXPECT_EQ(irq.value, "04");
    EXPECT_EQ(irq.current, "40");
    EXPECT_EQ(irq.target, "IRQ 96 (eth1)");
    EXPECT_TRUE(irq.changes());
    EXPECT_EQ(r.writes[1].path, "sys/class/net/eth1/queues/rx-0/rps_cpus");
    EXPECT_EQ(r.writes[1].value, "c0");
    EXPECT_EQ(r.writes[2].path, "sys/class/net/eth1/queues/rx-0/rps_flow_cnt");
    EXPECT_EQ(r.writes[3].path, "sys/class/net/eth2/queues/rx-0/rps_cpus");
    EXPECT_EQ(r.writes[3].value, "00");
    // No 15100000.ethernet here; eth1 has one tx queue without xps_cpus (single queue).
    ASSERT_EQ(r.skipped.size(), 2u);
    EXPECT_EQ(r.skipped[0].target, "IRQ 15100000.ethernet #3");
}

TEST(Resolve, SharedFrameEngineIrqsByRank) {
    const auto snap = board("bpi-r4");
    std::vector<std::uint32_t> irqs;
    for (int i = 0; i < 5; ++i)
        irqs.push_back(findIrq(snap, {"15100000.ethernet", i}).value_or(0));
    EXPECT_EQ(irqs, (std::vector<std::uint32_t>{109, 110, 111, 112, 114}));
    EXPECT_FALSE(findIrq(snap, {"15100000.ethernet", 5}).has_value());
    EXPECT_EQ(selectorOf(snap, 114)->index, 4);
    EXPECT_EQ(resolve(sample(), snap).writes.front().target, "IRQ 112 (eth0, eth1, eth2)");
}

TEST(Resolve, WhatCannotApplySaysWhy) {
    const auto snap = board("bpi-r4"); // 4 CPUs
    Layout l;
    l.irqs.push_back({{"15100000.ethernet", 0}, cpus("6"), ""});
    l.irqs.push_back({{"15100000.ethernet", 1}, CpuMask{}, ""});
    l.irqs.push_back({{"no-such-irq", 0}, cpus("1"), ""});
    l.rx.push_back({"eth9", 0, cpus("1"), std::nullopt, ""});
    l.rx.push_back({"eth1", 7, cpus("1"), std::nullopt, ""});
    const auto r = resolve(l, snap);
    EXPECT_TRUE(r.writes.empty());
    ASSERT_EQ(r.skipped.size(), 5u);
    EXPECT_NE(r.skipped[0].reason.find("CPU 6 does not exist"), std::string::npos);
    EXPECT_EQ(r.skipped[1].reason, "needs at least one CPU");
    EXPECT_EQ(r.skipped[2].reason, "no IRQ with this name here");
    EXPECT_EQ(r.skipped[3].reason, "no such interface here");
    EXPECT_EQ(r.skipped[4].reason, "no such queue here");
}

TEST(Resolve, CurrentLayoutChangesNothing) {
    for (const auto& b : test::boardNames()) {
        const auto snap = board(b);
        Layout all;
        for (const auto& info : snap.irqs)
            if (!info.interfaces.empty())
                if (auto sel = selectorOf(snap, info.irq))
                    all.irqs.push_back({*sel, CpuMask::firstN(1), ""});
        for (const auto& nif : snap.interfaces) {
            for (const auto& q : nif.rx)
                all.rx.push_back({nif.name, q.index, CpuMask{}, std::nullopt, ""});
            for (const auto& q : nif.tx)
                if (q.xpsCpus)
                    all.tx.push_back({nif.name, q.index, CpuMask::firstN(1), ""});
        }
        const auto cur = currentLayout(snap, all);
        const auto r = resolve(cur, snap);
        EXPECT_EQ(r.changeCount(), 0u) << b;
        if (snap.topology.possible.count() > 1) {
            EXPECT_GT(r.writes.size(), 0u) << b;
        }
    }
}

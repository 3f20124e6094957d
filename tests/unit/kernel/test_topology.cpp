// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/kernel/topology.h"

#include <gtest/gtest.h>

using namespace coresteer;

namespace {

Topology make(int n) {
    Topology t;
    t.maskWidth = n;
    for (int i = 0; i < n; ++i) {
        CpuInfo c;
        c.id = i;
        t.cpus.push_back(c);
        t.online.set(i);
        t.possible.set(i);
    }
    return t;
}

std::vector<std::pair<std::string, std::string>> classes(const Topology& t) {
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& c : t.classes)
        out.emplace_back(c.name, c.cpus.toList());
    return out;
}

} // namespace

TEST(Topology, Rk3588ByCapacity) {
    auto t = make(8);
    for (int i = 0; i < 8; ++i)
        t.cpus[static_cast<std::size_t>(i)].capacity = i < 4 ? 530 : (i < 6 ? 1024 : 1017);
    classifyCores(t);
    EXPECT_EQ(t.basis, ClassBasis::CpuCapacity);
    EXPECT_EQ(classes(t), (decltype(classes(t)){{"LITTLE", "0-3"}, {"big", "4-7"}}));
    EXPECT_EQ(t.classOf(5)->name, "big");
}

TEST(Topology, FrequencyWhenNoCapacity) {
    auto t = make(6);
    for (int i = 0; i < 6; ++i)
        t.cpus[static_cast<std::size_t>(i)].maxFreqKHz = i < 4 ? 1416000 : 1800000;
    t.cpus[0].capacity = 485; // only some CPUs have it: not a basis
    classifyCores(t);
    EXPECT_EQ(t.basis, ClassBasis::MaxFrequency);
    EXPECT_EQ(classes(t), (decltype(classes(t)){{"LITTLE", "0-3"}, {"big", "4-5"}}));
}

TEST(Topology, ThreeTiers) {
    auto t = make(8);
    const std::uint32_t caps[] = {325, 325, 325, 325, 870, 870, 870, 1024};
    for (int i = 0; i < 8; ++i)
        t.cpus[static_cast<std::size_t>(i)].capacity = caps[i];
    classifyCores(t);
    EXPECT_EQ(classes(t),
              (decltype(classes(t)){{"LITTLE", "0-3"}, {"big", "4-6"}, {"prime", "7"}}));
}

TEST(Topology, CpuPartWhenSysfsIsSilent) {
    auto t = make(6);
    for (int i = 0; i < 6; ++i)
        t.cpus[static_cast<std::size_t>(i)].uarchRank =
            armCoreRank(0x41, i < 4 ? 0xd03u : 0xd08u); // A53 + A72
    classifyCores(t);
    EXPECT_EQ(t.basis, ClassBasis::CpuPart);
    EXPECT_EQ(classes(t), (decltype(classes(t)){{"LITTLE", "0-3"}, {"big", "4-5"}}));
    EXPECT_EQ(armCoreName(0x41, 0xd0b), "Cortex-A76");
    EXPECT_EQ(armCoreName(0x41, 0x123), "");
}

TEST(Topology, UniformFallbackForVmsAndMips) {
    auto t = make(4);
    classifyCores(t);
    EXPECT_EQ(t.basis, ClassBasis::None);
    EXPECT_EQ(classes(t), (decltype(classes(t)){{"uniform", "0-3"}}));
}

TEST(Topology, SmallFrequencyDifferencesStayOneClass) {
    auto t = make(4);
    const std::uint32_t f[] = {4600000, 4800000, 4600000, 4700000}; // favoured cores
    for (int i = 0; i < 4; ++i)
        t.cpus[static_cast<std::size_t>(i)].maxFreqKHz = f[i];
    classifyCores(t);
    EXPECT_EQ(classes(t), (decltype(classes(t)){{"uniform", "0-3"}}));
}

TEST(Topology, OfflineCpusHaveNoClass) {
    auto t = make(4);
    t.cpus[3].online = false;
    t.online.set(3, false);
    classifyCores(t);
    EXPECT_EQ(t.classOf(3), nullptr);
    EXPECT_EQ(classes(t), (decltype(classes(t)){{"uniform", "0-2"}}));
}

// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// Parses every public /proc capture in ../shared/fixtures-raw and checks the IRQs its notes name.
#include "core/kernel/interrupts.h"
#include "core/kernel/procstat.h"
#include "tests/support/board_expect.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

using namespace coresteer;
namespace fs = std::filesystem;
using coresteer::test::slurp;

namespace {

struct Named {
    std::uint32_t irq;
    const char* action;
    const char* chip;
    std::int64_t hwirq; // -1: not printed
};

struct Capture {
    const char* file;
    int cpus;    // columns
    int hint;    // for captures without a header
    int nicRows; // rows whose first action is ethN... or mlx5_...
    std::vector<Named> named;
};

const std::vector<Capture>& captures() {
    static const std::vector<Capture> c = {
        {"linksys-wrt32x-armada385/proc_interrupts.txt",
         2,
         0,
         2,
         {{36, "eth1", "MPIC", 8},
          {37, "eth0", "MPIC", 12},
          {49, "mwlwifi", "GIC-0", 61},
          {47, "gpio-keys", "f1018100.gpio", 24}}},
        {"mt7986-glinet-gl-mt6000/proc_interrupts.txt",
         4,
         0,
         0,
         {{120, "15100000.ethernet", "GICv3", 229},
          {121, "15100000.ethernet", "GICv3", 230},
          {81, "mt7530", "mt-eint", 66},
          {133, "mt7915e", "GICv3", 245},
          {124, "mt7530-0:00", "mt7530", 0}}},
        {"nanopi-r4s/proc_interrupts.txt",
         6,
         0,
         2,
         {{35, "eth0", "GICv3", 44},
          {87, "eth1", "ITS-MSI", 524288},
          {26, "arm-pmu", "GICv3-23", 0}}},
        {"nanopi-r4s/proc_interrupts_grep_eth_later.txt",
         6,
         6,
         2,
         {{35, "eth0", "GICv3", 44}, {87, "eth1", "ITS-MSI", 524288}}},
        {"nanopi-r6s/proc_interrupts_grep_eth.txt",
         8,
         8,
         4,
         {{58, "eth0", "GICv3", 266},
          {59, "eth0", "GICv3", 265},
          {96, "eth1", "ITS-MSI", 428343296},
          {97, "eth2", "ITS-MSI", 570949632}}},
        {"netgear-r7800-ipq8065/proc_interrupts.txt",
         2,
         0,
         2,
         {{30, "eth0", "GIC-0", 255},
          {31, "eth1", "GIC-0", 258},
          {46, "ath10k_pci", "PCI-MSI", 524288},
          {47, "ath10k_pci", "PCI-MSI", 134742016},
          {34, "mmci-pl18x (cmd)", "GIC-0", 136}}},
        {"raspberrypi-4/proc_interrupts.txt",
         4,
         0,
         2,
         {{31, "eth0", "GICv2", 189},
          {32, "eth0", "GICv2", 190},
          {39, "xhci_hcd", "BRCM STB PCIe MSI", 524288},
          {25, "mmc1", "GICv2", 158}}},
        {"server-2xE5-2640-ixgbe-igb-32cpu/proc_interrupts.txt", 32, 0, 150, {}},
        {"x86-2socket-8cpu-igb-softirqs/proc_interrupts.txt", 8, 0, 16, {}},
        {"x86-igb-e3-1240-2x82576-8cpu/proc_interrupts.txt", 8, 0, 24, {}},
        {"x86-igb-i5-6400-2xI350-4cpu/proc_interrupts.txt", 4, 0, 20, {}},
        {"x86-mlx5-q6700-4cpu/proc_interrupts.txt",
         4,
         0,
         16,
         {{17, "eth1", "IO-APIC", -1}, {27, "mlx5_pages_eq@pci:0000:01:00.0", "PCI-MSI", -1}}},
        {"x86-r8125-vendor-driver-2cpu/proc_interrupts_grep_rss_off.txt",
         2,
         0,
         8,
         {{27, "eth0-0", "PCI-MSI", 262144},
          {43, "eth0-16", "PCI-MSI", 262160},
          {80, "eth1-21", "PCI-MSI", 278549}}},
        {"x86-r8125-vendor-driver-2cpu/proc_interrupts_grep_rss_on.txt",
         2,
         0,
         8,
         {{65, "eth1-1", "PCI-MSI", 3424257}}},
    };
    return c;
}

} // namespace

class RawCapture : public ::testing::TestWithParam<Capture> {};

TEST_P(RawCapture, ParsesAndFindsTheIrqsItsNotesName) {
    const auto& c = GetParam();
    const auto path = fs::path(CORESTEER_SHARED_RAW) / c.file;
    ASSERT_TRUE(fs::exists(path)) << path;
    Diagnostics d;
    const auto t = parseInterrupts(slurp(path), d, c.file, c.hint);
    EXPECT_FALSE(d.hasErrors());
    for (const auto& e : d.entries())
        EXPECT_NE(e.message.find("no CPU header"), std::string::npos) << e.toString();
    EXPECT_EQ(static_cast<int>(t.cpus.size()), c.cpus);
    int nic = 0;
    for (const auto& r : t.rows) {
        EXPECT_EQ(r.counts.size(), t.cpus.size());
        if (r.irq && !r.actions.empty() &&
            (r.actions[0].rfind("eth", 0) == 0 || r.actions[0].rfind("mlx5_", 0) == 0))
            ++nic;
        if (r.irq) {
            EXPECT_FALSE(r.chip.empty()) << c.file << ":" << r.line;
        }
    }
    EXPECT_EQ(nic, c.nicRows);
    for (const auto& n : c.named) {
        const auto* r = t.findIrq(n.irq);
        ASSERT_NE(r, nullptr) << "IRQ " << n.irq;
        ASSERT_FALSE(r->actions.empty()) << "IRQ " << n.irq;
        EXPECT_EQ(r->actions[0], n.action);
        EXPECT_EQ(r->chip, n.chip);
        if (n.hwirq >= 0)
            EXPECT_EQ(r->hwirq, static_cast<std::uint64_t>(n.hwirq)) << "IRQ " << n.irq;
        else
            EXPECT_FALSE(r->hwirq.has_value()) << "IRQ " << n.irq;
    }
}

INSTANTIATE_TEST_SUITE_P(Shared, RawCapture, ::testing::ValuesIn(captures()), [](const auto& p) {
    std::string n = p.param.file;
    for (auto& ch : n)
        if (!isalnum(static_cast<unsigned char>(ch)))
            ch = '_';
    return n;
});

TEST(RawCaptures, EveryCaptureInTheFolderIsCovered) {
    std::set<std::string> listed;
    for (const auto& c : captures())
        listed.insert(c.file);
    for (const auto& e : fs::recursive_directory_iterator(CORESTEER_SHARED_RAW)) {
        const auto name = e.path().filename().string();
        if (name.rfind("proc_interrupts", 0) != 0)
            continue;
        const auto rel = fs::relative(e.path(), CORESTEER_SHARED_RAW).string();
        EXPECT_TRUE(listed.count(rel)) << rel << " is not checked by this test";
    }
}

TEST(RawCaptures, SoftirqsCapture) {
    const auto path =
        fs::path(CORESTEER_SHARED_RAW) / "x86-2socket-8cpu-igb-softirqs/proc_softirqs.txt";
    ASSERT_TRUE(fs::exists(path));
    Diagnostics d;
    const auto t = parseSoftirqs(slurp(path), d);
    EXPECT_TRUE(d.empty());
    EXPECT_EQ(t.cpus.size(), 8u);
    ASSERT_NE(t.find("NET_RX"), nullptr);
    ASSERT_NE(t.find("NET_TX"), nullptr);
    ASSERT_NE(t.find("TIMER"), nullptr);
    EXPECT_EQ(t.find("TIMER")->counts[0], 582128879u);
}

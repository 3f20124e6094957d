// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The root reader over hand-made trees: partial roots, unreadable and hostile files.
#include "core/collect/bundle.h"
#include "core/collect/collect_local.h"
#include "core/model/snapshot.h"
#include "core/model/snapshot_json.h"
#include "tests/support/board_expect.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <tuple>

using namespace coresteer;
namespace fs = std::filesystem;

namespace {

class TempRoot : public ::testing::Test {
protected:
    void SetUp() override {
        const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
        m_root = fs::path(CORESTEER_TEST_TMP) /
                 (std::string(info->test_suite_name()) + "." + info->name());
        fs::remove_all(m_root);
        fs::create_directories(m_root);
    }
    void TearDown() override {
        if (!HasFailure())
            fs::remove_all(m_root);
    }
    void write(const std::string& rel, const std::string& content) {
        const auto p = m_root / rel;
        fs::create_directories(p.parent_path());
        std::ofstream(p, std::ios::binary) << content;
    }
    void link(const std::string& rel, const std::string& target) {
        const auto p = m_root / rel;
        fs::create_directories(p.parent_path());
        fs::create_symlink(target, p);
    }
    Snapshot snapshot() { return buildSnapshot(collectLocal(m_root)); }
    static bool mentions(const Snapshot& s, const std::string& file, const std::string& text = "") {
        for (const auto& d : s.diagnostics.entries())
            if (d.file == file && d.message.find(text) != std::string::npos)
                return true;
        return false;
    }
    fs::path m_root;
};

const char* kInterrupts = "           CPU0       CPU1\n"
                          " 30:        100        200     GIC-0 255 Level     eth0\n"
                          " 31:          0          0   PCI-MSI 524288 Edge      eth1\n"
                          "Err:          0\n";

} // namespace

TEST_F(TempRoot, EmptyRootIsUnusable) {
    const auto s = snapshot();
    EXPECT_EQ(s.completeness(), 2);
    EXPECT_TRUE(mentions(s, "proc/interrupts", "missing"));
    EXPECT_TRUE(mentions(s, "proc/stat", "missing"));
}

TEST_F(TempRoot, OnlyInterruptsGivesAPartialSnapshot) {
    write("proc/interrupts", kInterrupts);
    const auto s = snapshot();
    EXPECT_EQ(s.completeness(), 1);
    EXPECT_EQ(s.topology.online.toList(), "0-1"); // from the header
    EXPECT_TRUE(mentions(s, "sys/devices/system/cpu/online", "missing"));
    EXPECT_TRUE(mentions(s, "proc/softirqs", "missing"));
    ASSERT_NE(s.irq(30), nullptr);
    EXPECT_FALSE(s.irq(30)->smpAffinity.has_value());
}

TEST_F(TempRoot, InterfacesQueuesAndAttribution) {
    write("proc/interrupts", kInterrupts);
    write("proc/stat", "cpu 1 2 3 4 5 6 7\ncpu0 1 2 3 4 5 6 7\ncpu1 1 2 3 4 5 6 7\n");
    write("sys/devices/system/cpu/online", "0-1\n");
    write("proc/irq/30/smp_affinity", "2\n");
    write("proc/irq/30/effective_affinity", "2\n");
    write("proc/irq/31/smp_affinity", "3\n");
    write("sys/devices/platform/soc/37000000.ethernet/placeholder", "");
    write("sys/devices/pci0000:00/0000:01:00.0/msi_irqs/31", "msi\n");
    link("sys/class/net/eth0/device", "../../../devices/platform/soc/37000000.ethernet");
    link("sys/devices/platform/soc/37000000.ethernet/driver",
         "../../../../bus/platform/drivers/stmmaceth");
    link("sys/class/net/eth1/device", "../../../devices/pci0000:00/0000:01:00.0");
    link("sys/devices/pci0000:00/0000:01:00.0/driver", "../../../bus/pci/drivers/r8169");
    write("sys/class/net/eth0/queues/rx-0/rps_cpus", "3\n");
    write("sys/class/net/eth0/queues/rx-0/rps_flow_cnt", "4096\n");
    write("sys/class/net/eth0/queues/tx-0/xps_cpus", "1\n");
    write("sys/class/net/eth1/queues/rx-0/rps_cpus", "zz\n");
    write("sys/class/net/lo/ifindex", "1\n");
    write("sys/class/net/eth1/threaded", "1\n");
    const auto s = snapshot();
    const auto* eth0 = s.interface("eth0");
    ASSERT_NE(eth0, nullptr);
    EXPECT_EQ(eth0->driver, "stmmaceth");
    EXPECT_EQ(eth0->busDevice, "37000000.ethernet");
    EXPECT_EQ(eth0->irqs, std::vector<std::uint32_t>{30});
    ASSERT_EQ(eth0->rx.size(), 1u);
    EXPECT_EQ(eth0->rx[0].rpsCpus->toHex(), "3");
    EXPECT_EQ(eth0->rx[0].rpsFlowCnt, 4096u);
    EXPECT_EQ(eth0->tx[0].xpsCpus->toList(), "0");
    EXPECT_EQ(s.irq(30)->smpAffinity->toList(), "1");
    EXPECT_EQ(s.irq(30)->attribution, Attribution::ActionName);
    const auto* eth1 = s.interface("eth1");
    ASSERT_NE(eth1, nullptr);
    EXPECT_EQ(eth1->driver, "r8169");
    EXPECT_EQ(eth1->irqs, std::vector<std::uint32_t>{31});
    EXPECT_EQ(s.irq(31)->attribution, Attribution::MsiIrqs);
    EXPECT_EQ(eth1->threadedNapi, true);
    EXPECT_FALSE(eth1->rx[0].rpsCpus.has_value());
    EXPECT_TRUE(mentions(s, "sys/class/net/eth1/queues/rx-0/rps_cpus", "hex"));
    EXPECT_TRUE(s.interface("lo")->isVirtual());
}

TEST_F(TempRoot, OversizedFileIsRefusedWithoutReadingItAll) {
    // 50 MB of plausible rows: larger than the 32 MiB limit for /proc tables.
    fs::create_directories(m_root / "proc");
    {
        std::ofstream f(m_root / "proc/interrupts", std::ios::binary);
        f << "           CPU0\n";
        const std::string row = "  1:          1   GICv3  1 Level     spam\n";
        for (std::size_t written = 0; written < (50u << 20); written += row.size())
            f << row;
    }
    const auto bundle = collectLocal(m_root);
    const auto* e = bundle.get("proc/interrupts");
    ASSERT_NE(e, nullptr);
    EXPECT_EQ(e->kind, BundleEntry::Kind::TooLarge);
    EXPECT_LT(bundle.totalBytes(), 1u << 20);
    const auto s = buildSnapshot(bundle);
    EXPECT_TRUE(mentions(s, "proc/interrupts", "larger than"));
    EXPECT_EQ(s.completeness(), 2);
}

TEST_F(TempRoot, BinaryAndAbsurdValues) {
    write("proc/interrupts", std::string("\x7f"
                                         "ELF\x02\x01\x01\0\0\0 garbage \xff\xfe",
                                         20));
    write("proc/stat", "cpu 1 2 3 4\ncpu0 18446744073709551616 1 1 1\n");
    write("sys/devices/system/cpu/online", "0-99999999\n");
    write("sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq", "-5\n");
    write("proc/sys/kernel/hostname", std::string("evil\0host\x1b[31m", 14));
    const auto s = snapshot();
    EXPECT_EQ(s.completeness(), 2);
    EXPECT_TRUE(mentions(s, "sys/devices/system/cpu/online", "8192"));
    EXPECT_TRUE(mentions(s, "proc/stat"));
    EXPECT_EQ(s.system.hostname.find('\x1b'), std::string::npos);
}

TEST_F(TempRoot, UnreadableFileIsAWarningNotAFailure) {
    write("proc/interrupts", kInterrupts);
    write("sys/devices/system/cpu/online", "0-1\n");
    // A directory where a file is expected cannot be read as a file (EISDIR), even as root,
    // which file permissions would not stop.
    fs::create_directories(m_root / "proc/softirqs");
    const auto s = snapshot();
    EXPECT_TRUE(mentions(s, "proc/softirqs", "cannot read"));
    EXPECT_EQ(s.completeness(), 1);
}

TEST(Bundle, MatchComponent) {
    EXPECT_TRUE(matchComponent("*", "eth0"));
    EXPECT_FALSE(matchComponent("*", ".hidden"));
    EXPECT_FALSE(matchComponent("*", ".."));
    EXPECT_TRUE(matchComponent("#", "123"));
    EXPECT_FALSE(matchComponent("#", "12a"));
    EXPECT_TRUE(matchComponent("cpu#", "cpu12"));
    EXPECT_FALSE(matchComponent("cpu#", "cpufreq"));
    EXPECT_FALSE(matchComponent("cpu#", "cpu"));
    EXPECT_TRUE(matchComponent("rx-#", "rx-0"));
    EXPECT_FALSE(matchComponent("rx-#", "tx-0"));
    EXPECT_TRUE(matchComponent("online", "online"));
}

TEST(Bundle, BoundsEntriesAndBytes) {
    FileBundle b;
    std::string big(1 << 20, 'x');
    int added = 0;
    while (b.add("f" + std::to_string(added), {BundleEntry::Kind::File, big}))
        ++added;
    EXPECT_TRUE(b.truncated());
    EXPECT_LE(b.totalBytes(), FileBundle::kMaxTotalBytes);
    EXPECT_EQ(added, 255);
}

TEST_F(TempRoot, NonUtf8NamesStillGiveValidJson) {
    // Found by fuzz_snapshot: a 0xff byte in an IRQ action name made the JSON serializer throw.
    write("proc/interrupts", "           CPU0\n  5:  1  GIC 1 Level  eth\xff\xfe"
                             "0\n");
    write("sys/class/net/eth\xff/mtu", "1500\n");
    const auto text = toJsonText(snapshot());
    const auto j = nlohmann::json::parse(text);
    EXPECT_EQ(j["irqs"][0]["actions"][0], "eth\xef\xbf\xbd\xef\xbf\xbd"
                                          "0");
}

namespace {

// A bundle of hand-made entries: {path, kind, data}.
FileBundle
bundleOf(std::initializer_list<std::tuple<std::string, BundleEntry::Kind, std::string>> es) {
    FileBundle b;
    for (const auto& [path, kind, data] : es)
        b.add(path, {kind, data});
    return b;
}

} // namespace

TEST(Snapshot, EveryWayAnActionNamesAnInterface) {
    using K = BundleEntry::Kind;
    const auto s = buildSnapshot(bundleOf({
        {"proc/interrupts", K::File,
         "           CPU0\n"
         " 40:          1   PCI-MSI 1 Edge      eth1\n"
         " 41:          1   PCI-MSI 2 Edge      eth10-TxRx-3\n"
         " 42:          1   PCI-MSI 3 Edge      eth1-rx-0\n"
         " 43:          1   PCI-MSI 4 Edge      ice-wan-TxRx-0\n"
         " 44:          1     GICv3 5 Level     15100000.ethernet\n"
         " 45:          1   PCI-MSI 6 Edge      mlx5_comp3@pci:0000:06:00.0\n"
         " 46:          1   PCI-MSI 7 Edge      ahci[0000:00:1f.2]\n"
         " 47:          1     GICv3 8 Level     edma_eth_rx3\n"
         " 48:          1     GICv3 9 Level     mtk_soc_eth\n"
         " 49:          1     GICv3 10 Level    lan1\n"
         " 50:          1   PCI-MSI 11 Edge     eth1, eth10\n"
         " 51:          1   PCI-MSI 12 Edge     eth1@foo\n"
         " 52:          1   PCI-MSI 13 Edge     eth\n"},
        {"proc/stat", K::File, "cpu 1 2 3 4\ncpu0 1 2 3 4\n"},
        {"sys/devices/system/cpu/online", K::File, "0\n"},
        {"sys/class/net", K::Dir, "br-lan\nedma0\neth1\neth10\nlan1\nmlx\nmt0\nsata\nwan\n"},
        {"sys/class/net/eth1/device", K::Link, "../../../0000:01:00.0"},
        {"sys/class/net/eth1/device/driver", K::Link, "../../../bus/pci/drivers/igb"},
        {"sys/class/net/eth1/ifindex", K::File, "2\n"},
        {"sys/class/net/eth10/device", K::Link, "../../../0000:0a:00.0"},
        {"sys/class/net/eth10/device/driver", K::Link, "../../../bus/pci/drivers/igb"},
        {"sys/class/net/lan1/device", K::Link, "../../../mdio_bus/switch0"},
        {"sys/class/net/lan1/ifindex", K::File, "5\n"},
        {"sys/class/net/lan1/iflink", K::File, "2\n"},
        {"sys/class/net/wan/device", K::Link, "../../../0000:05:00.0"},
        {"sys/class/net/wan/device/driver", K::Link, "../../../bus/pci/drivers/ice"},
        {"sys/class/net/mt0/device", K::Link, "../../../15100000.ethernet"},
        {"sys/class/net/mt0/device/driver", K::Link, "../../../drivers/mtk_soc_eth"},
        {"sys/class/net/mlx/device", K::Link, "../../../0000:06:00.0"},
        {"sys/class/net/mlx/device/driver", K::Link, "../../../drivers/mlx5_core"},
        {"sys/class/net/sata/device", K::Link, "../../../0000:00:1f.2"},
        {"sys/class/net/edma0/device", K::Link, "../../../c080000.edma"},
        {"sys/class/net/edma0/device/driver", K::Link, "../../../drivers/ess-edma"},
    }));
    auto expect = [&](std::uint32_t irq, std::vector<std::string> ifs, Attribution how) {
        const auto* i = s.irq(irq);
        ASSERT_NE(i, nullptr) << irq;
        EXPECT_EQ(i->interfaces, ifs) << irq;
        if (!ifs.empty()) {
            EXPECT_EQ(i->attribution, how) << irq;
        }
    };
    using A = Attribution;
    expect(40, {"eth1"}, A::ActionName);
    expect(41, {"eth10"}, A::ActionName);
    EXPECT_EQ(s.irq(41)->role, IrqRole::RxTx);
    EXPECT_EQ(s.irq(41)->queue, 3);
    expect(42, {"eth1"}, A::ActionName);
    expect(43, {"wan"}, A::ActionName);
    expect(44, {"mt0"}, A::BusDevice);
    expect(45, {"mlx"}, A::BusDevice);
    EXPECT_EQ(s.irq(45)->queue, 3);
    expect(46, {"sata"}, A::BusDevice);
    expect(47, {"edma0"}, A::DriverName);
    expect(48, {"mt0"}, A::DriverName);
    expect(49, {}, A::ActionName); // a DSA port takes no IRQ: its conduit does
    expect(50, {"eth1", "eth10"}, A::ActionName);
    expect(51, {"eth1"}, A::ActionName);
    expect(52, {}, A::ActionName);
    EXPECT_EQ(s.interface("lan1")->conduit, "eth1");
    EXPECT_EQ(s.interface("eth1")->irqs, (std::vector<std::uint32_t>{40, 42, 50, 51}));
    EXPECT_EQ(s.interface("eth10")->irqs, (std::vector<std::uint32_t>{41, 50}));
    EXPECT_EQ(s.interface("mt0")->irqs, (std::vector<std::uint32_t>{44, 48}));
    EXPECT_TRUE(s.interface("br-lan")->irqs.empty());
}

TEST(Snapshot, LooksUpIrqsAndInterfacesByIndexAndWithout) {
    const auto board = buildSnapshot(collectLocal(coresteer::test::boardDir("x86-server-96")));
    ASSERT_GT(board.irqs.size(), 100u);
    for (const auto& i : board.irqs)
        EXPECT_EQ(board.irq(i.irq), &i);
    for (const auto& n : board.interfaces)
        EXPECT_EQ(board.interface(n.name), &n);
    EXPECT_EQ(board.irq(999999), nullptr);
    EXPECT_EQ(board.interface("no-such-if"), nullptr);
    // A copy finds its own.
    const Snapshot copy = board;
    EXPECT_EQ(copy.irq(board.irqs.back().irq), &copy.irqs.back());
    EXPECT_EQ(copy.interface(board.interfaces.back().name), &copy.interfaces.back());

    // Made by hand: searched until reindexed, and searched again once changed.
    Snapshot s;
    s.irqs.resize(3);
    s.irqs[0].irq = 7;
    s.irqs[1].irq = 9;
    s.irqs[2].irq = 7; // the first of a number is the one
    s.interfaces.resize(1);
    s.interfaces[0].name = "eth0";
    EXPECT_EQ(s.irq(9), &s.irqs[1]);
    EXPECT_EQ(s.irq(7), &s.irqs[0]);
    s.reindex();
    EXPECT_EQ(s.irq(7), &s.irqs[0]);
    EXPECT_EQ(s.interface("eth0"), &s.interfaces[0]);
    s.irqs.push_back({});
    s.irqs.back().irq = 11;
    s.interfaces.push_back({});
    s.interfaces.back().name = "eth1";
    EXPECT_EQ(s.irq(11), &s.irqs.back());
    EXPECT_EQ(s.interface("eth1"), &s.interfaces.back());
}

// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/base/text.h"
#include "core/kernel/interrupts.h"
#include "core/kernel/interrupts_fixed.h"
#include "tests/support/board_expect.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

using namespace coresteer;

namespace {

InterruptTable parse(const std::string& text, Diagnostics* out = nullptr, int hint = 0) {
    Diagnostics d;
    auto t = parseInterrupts(text, d, "proc/interrupts", hint);
    if (out)
        *out = d;
    return t;
}

} // namespace

TEST(Interrupts, ArmGicV3AndItsMsi) {
    const auto t = parse(
        "           CPU0       CPU1       CPU2       CPU3       CPU4       CPU5\n"
        " 26:          0          0          0          0          0          0  GICv3-23   0 "
        "Level     arm-pmu\n"
        " 35:          0          0          0          0  165575364          0     GICv3  44 "
        "Level     eth0\n"
        " 87:          0          0          0          0          0 1156859750   ITS-MSI 524288 "
        "Edge      eth1\n"
        "IPI0:   7085496   10371429    7027071    6124604     310818     114897       "
        "Rescheduling interrupts\n"
        "Err:          0\n");
    ASSERT_EQ(t.cpus, (std::vector<int>{0, 1, 2, 3, 4, 5}));
    ASSERT_EQ(t.rows.size(), 5u);
    const auto* pmu = t.findIrq(26);
    ASSERT_NE(pmu, nullptr);
    EXPECT_EQ(pmu->chip, "GICv3-23");
    EXPECT_EQ(pmu->hwirq, 0u);
    const auto* eth0 = t.findIrq(35);
    ASSERT_NE(eth0, nullptr);
    EXPECT_EQ(eth0->chip, "GICv3");
    EXPECT_EQ(eth0->hwirq, 44u);
    EXPECT_EQ(eth0->trigger, "Level");
    EXPECT_EQ(eth0->actions, std::vector<std::string>{"eth0"});
    EXPECT_EQ(eth0->counts[4], 165575364u);
    EXPECT_EQ(eth0->total(), 165575364u);
    const auto* eth1 = t.findIrq(87);
    ASSERT_NE(eth1, nullptr);
    EXPECT_EQ(eth1->chip, "ITS-MSI");
    EXPECT_EQ(eth1->hwirq, 524288u);
    EXPECT_EQ(eth1->trigger, "Edge");
    EXPECT_EQ(eth1->counts[5], 1156859750u);
    const auto* ipi = t.findLabel("IPI0");
    ASSERT_NE(ipi, nullptr);
    EXPECT_FALSE(ipi->irq.has_value());
    EXPECT_EQ(ipi->description, "Rescheduling interrupts");
    EXPECT_EQ(ipi->counts[1], 10371429u);
    const auto* err = t.findLabel("Err");
    ASSERT_NE(err, nullptr);
    EXPECT_EQ(err->countColumns, 1);
    EXPECT_EQ(err->counts.size(), 6u);
}

TEST(Interrupts, GicV2ChipWithSpacesAndActionLists) {
    const auto t =
        parse("           CPU0       CPU1       CPU2       CPU3\n"
              " 17:       1705          0          0          0     GICv2 114 Level     "
              "DMA IRQ\n"
              " 25:      19817          0     938869          0     GICv2 158 Level     "
              "mmc1, mmc0\n"
              " 39:   30845207          0          0          0  BRCM STB PCIe MSI 524288 "
              "Edge      xhci_hcd\n"
              " 34:      31042       2157          0          0     GIC-0 136 Level     "
              "mmci-pl18x (cmd)\n");
    EXPECT_EQ(t.findIrq(17)->actions, std::vector<std::string>{"DMA IRQ"});
    EXPECT_EQ(t.findIrq(25)->actions, (std::vector<std::string>{"mmc1", "mmc0"}));
    EXPECT_EQ(t.findIrq(39)->chip, "BRCM STB PCIe MSI");
    EXPECT_EQ(t.findIrq(39)->hwirq, 524288u);
    EXPECT_EQ(t.findIrq(34)->actions, std::vector<std::string>{"mmci-pl18x (cmd)"});
}

TEST(Interrupts, SharedFrameEngineActionList) {
    const auto t = parse("           CPU0       CPU1       CPU2       CPU3\n"
                         "120:        694    3183777          0          0     GICv3 229 Level     "
                         "15100000.ethernet, 15100000.ethernet\n");
    EXPECT_EQ(t.findIrq(120)->actions,
              (std::vector<std::string>{"15100000.ethernet", "15100000.ethernet"}));
}

TEST(Interrupts, X86ModernAndOldChipColumns) {
    const auto t =
        parse("            CPU0       CPU1       CPU2       CPU3       \n"
              "   0:         41          0          0          0   IO-APIC   2-edge      timer\n"
              "  28:          0      12345          0          0  IR-PCI-MSI 524288-edge      "
              "eth0-TxRx-0\n"
              "  29:          0          0          0          0  IR-PCI-MSIX-0000:00:14.3    "
              "0-edge      "
              "iwlwifi:default_queue\n"
              "  91:          5          0          0          0  IR-PCI-MSI-edge      eth0\n"
              "   9:          0          0          0          0   IO-APIC-fasteoi   acpi\n"
              " NMI:          1          2          3          4   Non-maskable interrupts\n"
              " LOC:   12345678   23456789   34567890   45678901   Local timer interrupts\n"
              " ERR:          0\n"
              " MIS:          0\n");
    EXPECT_EQ(t.findIrq(0)->chip, "IO-APIC");
    EXPECT_EQ(t.findIrq(0)->hwirq, 2u);
    EXPECT_EQ(t.findIrq(0)->trigger, "edge");
    const auto* q = t.findIrq(28);
    EXPECT_EQ(q->chip, "IR-PCI-MSI");
    EXPECT_EQ(q->hwirq, 524288u);
    EXPECT_EQ(q->actions, std::vector<std::string>{"eth0-TxRx-0"});
    EXPECT_EQ(t.findIrq(29)->chip, "IR-PCI-MSIX-0000:00:14.3");
    EXPECT_EQ(t.findIrq(29)->hwirq, 0u);
    const auto* old = t.findIrq(91);
    EXPECT_EQ(old->chip, "IR-PCI-MSI");
    EXPECT_EQ(old->trigger, "edge");
    EXPECT_FALSE(old->hwirq.has_value());
    EXPECT_EQ(old->actions, std::vector<std::string>{"eth0"});
    EXPECT_EQ(t.findIrq(9)->chip, "IO-APIC");
    EXPECT_EQ(t.findIrq(9)->trigger, "fasteoi");
    EXPECT_EQ(t.findLabel("NMI")->description, "Non-maskable interrupts");
    EXPECT_EQ(t.findLabel("LOC")->counts[3], 45678901u);
    EXPECT_EQ(t.findLabel("MIS")->countColumns, 1);
}

TEST(Interrupts, MipsWithoutTrigger) {
    // ath79: one CPU, no GENERIC_IRQ_SHOW_LEVEL.
    const auto t = parse("           CPU0\n"
                         "  2:   12345678      MIPS   2  ath9k\n"
                         "  4:   87654321      MIPS   4  eth0\n"
                         "  7:  999999999      MIPS   7  timer\n"
                         " 13:         10  qca956x-misc-intc   3  ehci_hcd:usb1\n"
                         "ERR:          0\n");
    ASSERT_EQ(t.cpus, std::vector<int>{0});
    EXPECT_EQ(t.findIrq(2)->chip, "MIPS");
    EXPECT_EQ(t.findIrq(2)->hwirq, 2u);
    EXPECT_EQ(t.findIrq(2)->actions, std::vector<std::string>{"ath9k"});
    EXPECT_EQ(t.findIrq(4)->actions, std::vector<std::string>{"eth0"});
    EXPECT_EQ(t.findIrq(13)->chip, "qca956x-misc-intc");
    EXPECT_EQ(t.findIrq(7)->counts[0], 999999999u);
}

TEST(Interrupts, Mt7621MipsGic) {
    const auto t =
        parse("           CPU0       CPU1       CPU2       CPU3       \n"
              " 21:   23114434          0          0          0  MIPS GIC  10  "
              "1e100000.ethernet\n"
              " 24:    1087311          0          0          0  MIPS GIC  11  mt7603e\n");
    EXPECT_EQ(t.findIrq(21)->chip, "MIPS GIC");
    EXPECT_EQ(t.findIrq(21)->hwirq, 10u);
    EXPECT_EQ(t.findIrq(21)->actions, std::vector<std::string>{"1e100000.ethernet"});
}

TEST(Interrupts, RowsWithFewerCountsThanCpus) {
    Diagnostics d;
    const auto t = parse("           CPU0       CPU1       CPU2       CPU3\n"
                         " 40:        123         45     GICv3  99 Level     short\n"
                         "Err:          0\n",
                         &d);
    const auto* r = t.findIrq(40);
    ASSERT_NE(r, nullptr);
    EXPECT_EQ(r->countColumns, 2);
    EXPECT_EQ(r->counts, (coresteer::IrqCounts{123, 45, 0, 0}));
    EXPECT_EQ(r->chip, "GICv3");
    EXPECT_EQ(r->actions, std::vector<std::string>{"short"});
}

TEST(Interrupts, OfflineCpuColumnsFollowTheHeader) {
    const auto t = parse("           CPU0       CPU2       CPU3\n"
                         " 50:          1          2          3     GICv3  10 Level     x\n");
    EXPECT_EQ(t.cpus, (std::vector<int>{0, 2, 3}));
    EXPECT_EQ(t.columnOf(2), 1);
    EXPECT_EQ(t.columnOf(1), -1);
    EXPECT_EQ(t.findIrq(50)->counts[1], 2u);
}

TEST(Interrupts, NoTrailingNewlineAndNoActions) {
    const auto t = parse("           CPU0       CPU1\n"
                         "  0:        189          0\n"
                         " 30:   29055904    1445708     GIC-0 255 Level     eth0");
    EXPECT_TRUE(t.findIrq(0)->actions.empty());
    EXPECT_EQ(t.findIrq(30)->actions, std::vector<std::string>{"eth0"});
    EXPECT_EQ(t.findIrq(30)->counts[1], 1445708u);
}

TEST(Interrupts, HeaderlessGrepCaptureUsesTheHint) {
    Diagnostics d;
    const std::string grep =
        " 58:         11   18169896          0          0          0  837686533  "
        "        0          0     GICv3 266 Level     eth0\n";
    auto t = parse(grep, &d, 8);
    EXPECT_EQ(t.cpus.size(), 8u);
    EXPECT_EQ(t.findIrq(58)->counts[5], 837686533u);
    EXPECT_EQ(t.findIrq(58)->hwirq, 266u);
    ASSERT_FALSE(d.empty());
    EXPECT_NE(d.entries()[0].message.find("no CPU header"), std::string::npos);
    // Without a hint the leading counts decide.
    t = parse(grep);
    EXPECT_EQ(t.cpus.size(), 8u);
}

TEST(Interrupts, OneCpuAndManyCpus) {
    std::string text = "      ";
    const int n = 256;
    for (int c = 0; c < n; ++c) {
        std::string col = "CPU" + std::to_string(c);
        text += std::string(11 - col.size(), ' ') + col;
    }
    text += "\n";
    for (int irq = 0; irq < 40; ++irq) {
        text += std::to_string(1000 + irq) + ":";
        for (int c = 0; c < n; ++c)
            text += " " + std::string(9, ' ') + std::to_string((irq + c) % 10);
        text += "  IR-PCI-MSI 1048576-edge      eth9-TxRx-" + std::to_string(irq) + "\n";
    }
    const auto t = parse(text);
    ASSERT_EQ(t.cpus.size(), 256u);
    ASSERT_EQ(t.rows.size(), 40u);
    EXPECT_EQ(t.findIrq(1039)->counts[255], (39u + 255u) % 10);
    EXPECT_EQ(t.findIrq(1039)->actions, std::vector<std::string>{"eth9-TxRx-39"});
}

TEST(Interrupts, GarbageGivesDiagnosticsWithLineNumbers) {
    Diagnostics d;
    const auto t = parse("           CPU0       CPU1\n"
                         " 30:   1 2     GIC-0 255 Level     eth0\n"
                         "this is not an interrupt line\n"
                         "\x01\x02\xff: 1 2\n"
                         " 31:   99999999999999999999999 0 GIC-0 1 Level x\n"
                         " 30:   5 6     GIC-0 255 Level     again\n",
                         &d);
    EXPECT_EQ(t.findIrq(30)->actions, std::vector<std::string>{"eth0"}); // first kept
    std::vector<int> lines;
    for (const auto& e : d.entries()) {
        EXPECT_EQ(e.file, "proc/interrupts");
        lines.push_back(e.line);
    }
    EXPECT_EQ(lines, (std::vector<int>{3, 4, 5, 6}));
    EXPECT_TRUE(d.hasErrors()); // the overflowing count
}

TEST(Interrupts, LabelsAndHwirqsAtTheEdgesOfTheirRanges) {
    Diagnostics d;
    const auto t = parse("           CPU0\n"
                         " 4294967295:   1  GIC-0 18446744073709551615 Level  top\n"
                         " 4294967296:   1  GIC-0 1 Level  over\n"
                         " 7:   1  GIC-0 18446744073709551616 Level  wide\n"
                         " 8:   1  IR-PCI-MSI 9999999999999999999-edge  nineteen\n"
                         " 9:   1  IR-PCI-MSI 123456789012345678901-edge  twentyone\n"
                         " 10:  1  MIPS GIC 00000000000000000042 mips\n"
                         " 35abc: 1  Named\n",
                         &d);
    const auto* top = t.findIrq(4294967295u);
    ASSERT_NE(top, nullptr);
    EXPECT_EQ(top->hwirq, 18446744073709551615ull);
    EXPECT_EQ(top->chip, "GIC-0");
    // IRQ numbers are 32-bit: the row is refused with the line named.
    ASSERT_EQ(d.entries().size(), 1u);
    EXPECT_EQ(d.entries()[0].line, 3);
    EXPECT_NE(d.entries()[0].message.find("IRQ number out of range: 4294967296"),
              std::string::npos);
    // A number over 2^64-1 is no hwirq: it stays a word of the chip's name.
    const auto* wide = t.findIrq(7);
    ASSERT_NE(wide, nullptr);
    EXPECT_FALSE(wide->hwirq);
    EXPECT_EQ(wide->chip, "GIC-0 18446744073709551616");
    EXPECT_EQ(wide->trigger, "Level");
    EXPECT_EQ(t.findIrq(8)->hwirq, 9999999999999999999ull);
    EXPECT_EQ(t.findIrq(8)->trigger, "edge");
    EXPECT_FALSE(t.findIrq(9)->hwirq);
    EXPECT_EQ(t.findIrq(10)->chip, "MIPS GIC");
    EXPECT_EQ(t.findIrq(10)->hwirq, 42u);
    EXPECT_EQ(t.findIrq(10)->actions, std::vector<std::string>{"mips"});
    const auto* named = t.findLabel("35abc");
    ASSERT_NE(named, nullptr);
    EXPECT_FALSE(named->irq);
    EXPECT_EQ(named->description, "Named");
}

TEST(Interrupts, BadHeaderIsAnError) {
    Diagnostics d;
    const auto t = parse("           CPU0       CPUx\n 1: 1 2 GIC 1 Level a\n", &d);
    EXPECT_TRUE(t.rows.empty());
    ASSERT_TRUE(d.hasErrors());
    EXPECT_EQ(d.entries()[0].line, 1);
}

TEST(Interrupts, EmptyInput) {
    Diagnostics d;
    EXPECT_TRUE(parse("", &d).rows.empty());
    EXPECT_FALSE(d.empty());
}

TEST(Interrupts, RandomBytesNeverCrash) {
    std::mt19937 rng(42);
    for (int i = 0; i < 200; ++i) {
        std::string s(static_cast<std::size_t>(rng() % 4096), '\0');
        for (auto& c : s)
            c = static_cast<char>(" 0123456789:\nCPUabc,-"[rng() % 22]);
        Diagnostics d;
        const auto t = parseInterrupts(s, d);
        for (const auto& r : t.rows)
            EXPECT_EQ(r.counts.size(), t.cpus.size());
    }
}

namespace {

// Read in two halves at once (every table of two lines or more, each way of reading the counts,
// with and without a row limit), a table is the one reading on gives, to its diagnostics and
// what they count.
void expectHalvesAgree(std::string_view text, int hint = 0, std::size_t maxRows = 1u << 20) {
    using detail::FixedCounts;
    for (const auto how : {FixedCounts::None, FixedCounts::Words, FixedCounts::Avx2}) {
        if (!detail::fixedCountsAvailable(how))
            continue;
        Diagnostics ref, d;
        const auto expected = detail::parseInterrupts(text, ref, "proc/interrupts", hint, how,
                                                      std::size_t(-1), maxRows);
        const auto t =
            detail::parseInterrupts(text, d, "proc/interrupts", hint, how, 1, maxRows, 0);
        EXPECT_TRUE(t == expected) << "in halves, counts read as " << static_cast<int>(how);
        EXPECT_EQ(d.entries(), ref.entries());
        EXPECT_EQ(d.suppressed(), ref.suppressed());
        EXPECT_EQ(d.hasErrors(), ref.hasErrors());
        for (std::size_t i = 0; i < t.rows.size() && i < expected.rows.size(); ++i)
            ASSERT_EQ(t.rows[i].line, expected.rows[i].line) << i;
    }
}

// Every way of reading the counts this CPU has, each giving the table and the messages of the
// token reader.
void expectEveryWayAgrees(std::string_view text, int hint = 0) {
    using detail::FixedCounts;
    Diagnostics ref;
    const auto expected =
        detail::parseInterrupts(text, ref, "proc/interrupts", hint, FixedCounts::None);
    for (const auto how : {FixedCounts::Words, FixedCounts::Avx2}) {
        if (!detail::fixedCountsAvailable(how))
            continue;
        Diagnostics d;
        const auto t = detail::parseInterrupts(text, d, "proc/interrupts", hint, how);
        EXPECT_TRUE(t == expected) << "counts read as " << static_cast<int>(how) << ":\n" << text;
        EXPECT_EQ(d.entries(), ref.entries());
    }
    expectHalvesAgree(text, hint);
}

std::string readText(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

} // namespace

TEST(Interrupts, FixedWidthCountsReadAsTheTokenReaderReadsThem) {
    namespace fs = std::filesystem;
    int files = 0;
    for (const char* dir : {CORESTEER_FIXTURES, CORESTEER_DEMO_DIR})
        for (const auto& e : fs::recursive_directory_iterator(dir)) {
            if (e.path().filename() != "interrupts" && e.path().filename() != "proc_interrupts.txt")
                continue;
            expectEveryWayAgrees(readText(e.path()));
            ++files;
        }
    EXPECT_GT(files, 5);
    // The kernel's widths, and the layouts next to them that must go the slow way: wider
    // counts, tabs, a count that ends the text, fewer counts than columns, a digit run that
    // runs into the chip, counts past 2^64.
    expectEveryWayAgrees("           CPU0       CPU1       CPU2       CPU3\n"
                         "  1:          0          1         22 4294967295   GICv3  27 Level t\n"
                         "  2:  123456789012          1          2          3   GICv3  28 Edge x\n"
                         "  3:          0\t         1          2          3   GICv3  29 Level y\n"
                         "  4:          7          8\n"
                         "  5:          7          8          9         10\n"
                         "  6:          7          8          9         10GICv3 30 Level z\n"
                         "  7:          7 99999999999999999999999          9  10 GICv3 31 Edge\n"
                         "  8:          1          2          3          4  \n"
                         "  9:          1          2          3          4\r\n"
                         " 10:         -1          2          3          4  GICv3 32 Edge a\n"
                         "NMI:          1          2          3          4   Non-maskable\n"
                         "ERR:          0\n"
                         " 12:          1          2          3          4  GICv3 33 Edge dup\n"
                         " 12:          5          6          7          8  GICv3 34 Edge dup\n"
                         "\t13:          1          2          3          4  GICv3 35 Edge tab\n" +
                         std::string(40, ' ') +
                         "14:          1          2          3          4  GICv3 36 Edge far\n"
                         "12345678901234567:          1          2          3          4\n"
                         " 15:\n"
                         " 11:          1          2          3          4");
    // Random counts of every width between blanks of every width, with a tail and without.
    std::mt19937 rng(7);
    for (int round = 0; round < 200; ++round) {
        const int cpus = 1 + static_cast<int>(rng() % 9);
        std::string text = "   ";
        for (int c = 0; c < cpus; ++c)
            text += "       CPU" + std::to_string(c);
        text += '\n';
        for (int irq = 0; irq < 20; ++irq) {
            text += std::to_string(irq) + ":";
            for (int c = 0; c < cpus; ++c) {
                const auto digits = 1 + rng() % 12;
                std::string n;
                for (std::size_t i = 0; i < digits; ++i)
                    n += static_cast<char>('0' + rng() % 10);
                const auto width = rng() % 4 ? 10 : rng() % 14;
                text += std::string(1 + (rng() % 8 ? 0 : rng() % 3), rng() % 50 ? ' ' : '\t');
                if (n.size() < width)
                    text += std::string(width - n.size(), ' ');
                text += n;
            }
            if (rng() % 4)
                text += "  GICv3 " + std::to_string(irq) + " Level eth" + std::to_string(irq);
            text += rng() % 20 ? "\n" : " \n";
        }
        expectEveryWayAgrees(text);
        expectEveryWayAgrees(text.substr(0, rng() % text.size()));
    }
}

// The index by IRQ number: sparse and extreme numbers, the first of two rows with one number,
// and rows changed by hand, before and after reindex().
TEST(Interrupts, FindIrqAnswersForEveryNumberAndKeepsTheFirst) {
    InterruptTable t;
    const std::vector<std::uint32_t> numbers = {0, 1, 17, 65536, 524288, 1u << 31, 4294967295u};
    for (const auto n : numbers)
        for (int twice = 0; twice < 2; ++twice) {
            IrqRow r;
            r.irq = n;
            r.label = std::to_string(n) + (twice ? "b" : "a");
            t.rows.push_back(r);
            t.reindexOne(t.rows.size() - 1);
        }
    for (int i = 0; i < 5000; ++i) { // grows the index many times over
        IrqRow r;
        r.irq = 1000000u + 977u * static_cast<std::uint32_t>(i);
        r.label = "x";
        t.rows.push_back(r);
        t.reindexOne(t.rows.size() - 1);
    }
    for (const auto n : numbers) {
        ASSERT_NE(t.findIrq(n), nullptr) << n;
        EXPECT_EQ(t.findIrq(n)->label, std::to_string(n) + "a");
    }
    EXPECT_EQ(t.findIrq(1000000u + 977u * 4999u)->irq, 1000000u + 977u * 4999u);
    EXPECT_EQ(t.findIrq(2), nullptr);
    EXPECT_EQ(t.findIrq(1000001u), nullptr);
    // Rows dropped by hand: a stale index never reads past them, and reindex() catches up.
    t.rows.resize(6); // 0, 0, 1, 1, 17, 17
    EXPECT_EQ(t.findIrq(65536), nullptr);
    EXPECT_EQ(t.findIrq(1000000u), nullptr);
    t.reindex();
    EXPECT_EQ(t.findIrq(17)->label, "17a");
    EXPECT_EQ(t.findIrq(65536), nullptr);
    InterruptTable empty;
    EXPECT_EQ(empty.findIrq(0), nullptr);
}

TEST(Interrupts, OneRowReadsAsInTheWholeTable) {
    const std::string text =
        readText(coresteer::test::boardDir("x86-server-96") / "proc" / "interrupts");
    Diagnostics d;
    const auto t = parseInterrupts(text, d);
    ASSERT_GT(t.rows.size(), 100u);
    std::vector<std::string_view> lines;
    text::LineReader reader(text);
    std::string_view l;
    while (reader.next(l))
        lines.push_back(l);
    for (const auto& row : t.rows) {
        Diagnostics rd;
        const auto r = parseInterruptRow(lines[static_cast<std::size_t>(row.line - 1)],
                                         t.cpus.size(), rd, "proc/interrupts", row.line);
        ASSERT_TRUE(r.has_value()) << row.label;
        EXPECT_TRUE(*r == row) << row.label;
    }
    Diagnostics rd;
    EXPECT_FALSE(parseInterruptRow("  ", 4, rd, "proc/interrupts", 1));
    EXPECT_FALSE(parseInterruptRow("no label here", 4, rd, "proc/interrupts", 2));
    EXPECT_FALSE(parseInterruptRow("99999999999: 1 2", 4, rd, "proc/interrupts", 3));
    EXPECT_EQ(rd.entries().size(), 2u); // the blank line is no news
}

// The rows of a table share blocks of counts: a copy of a row, or of the whole table, that is
// written to never changes the rows it came from, and counts outlive the table they were read in.
TEST(Interrupts, SharedCountsAreCopiedOnWrite) {
    std::string text = "      CPU0 CPU1 CPU2\n";
    for (int irq = 0; irq < 300; ++irq)
        text += std::to_string(irq) + ": " + std::to_string(irq) + " " + std::to_string(irq + 1) +
                " " + std::to_string(irq + 2) + " GICv3 " + std::to_string(irq) + " Level eth0\n";
    IrqCounts kept;
    InterruptTable copy;
    {
        const auto t = parse(text);
        ASSERT_EQ(t.rows.size(), 300u);
        copy = t;
        kept = t.findIrq(7)->counts;
        ASSERT_EQ(kept, (IrqCounts{7, 8, 9}));

        auto row = *t.findIrq(42);
        row.counts.set(1, 1000);
        EXPECT_EQ(row.counts, (IrqCounts{42, 1000, 44}));
        EXPECT_EQ(t.findIrq(42)->counts, (IrqCounts{42, 43, 44})); // the table's row is unchanged
        EXPECT_EQ(t.findIrq(43)->counts, (IrqCounts{43, 44, 45})); // and so is its neighbour

        copy.rows[10].counts.mutableData()[0] = 5;
        EXPECT_EQ(t.rows[10].counts[0], 10u);
        EXPECT_EQ(copy.rows[11].counts[0], 11u);
    }
    // The table is gone; what was taken from it is still there.
    EXPECT_EQ(kept, (IrqCounts{7, 8, 9}));
    EXPECT_EQ(copy.rows[10].counts, (IrqCounts{5, 11, 12}));
    EXPECT_EQ(copy.findIrq(299)->counts, (IrqCounts{299, 300, 301}));
    kept.assign(2, 4);
    EXPECT_EQ(kept, (IrqCounts{4, 4}));
    EXPECT_EQ(IrqCounts(3, 1), (IrqCounts{1, 1, 1}));
    EXPECT_TRUE(IrqCounts().empty());
}

// More rows than the first line leads the parser to expect (a short first row, then long ones),
// and more counts than one block holds (2 100 rows of 1 024 CPUs): every row has its own.
TEST(Interrupts, RowsBeyondTheExpectedAndBeyondOneBlock) {
    constexpr int kCpus = 1024, kRows = 2100;
    std::string text;
    for (int c = 0; c < kCpus; ++c)
        text += " CPU" + std::to_string(c);
    text += "\n0: 1\n";
    std::string zeros;
    for (int c = 2; c < kCpus; ++c)
        zeros += " 0";
    for (int irq = 1; irq < kRows; ++irq)
        text += std::to_string(irq) + ": " + std::to_string(irq) + zeros + " " +
                std::to_string(2 * irq) + "  MSI " + std::to_string(irq) + " Edge q" +
                std::to_string(irq) + "\n";
    Diagnostics d;
    const auto t = parse(text, &d);
    ASSERT_EQ(t.rows.size(), std::size_t{kRows}) << (d.empty() ? "" : d.entries()[0].toString());
    EXPECT_EQ(t.rows[0].counts[0], 1u);
    EXPECT_EQ(t.rows[0].counts[kCpus - 1], 0u);
    for (std::uint32_t irq = 1; irq < kRows; ++irq) {
        const auto& c = t.findIrq(irq)->counts;
        ASSERT_EQ(c.size(), std::size_t{kCpus});
        ASSERT_EQ(c[0], irq) << irq;
        ASSERT_EQ(c[1], 0u) << irq;
        ASSERT_EQ(c[kCpus - 1], 2ull * irq) << irq;
    }
}

// The second half of a large table is read on a thread of its own and merged: an IRQ listed in
// both halves is kept once (the first), every diagnostic keeps its line and its place, the
// diagnostics past the listed 200 are still counted (errors among them), and a row limit that
// falls in the second half ends the table where reading on ends it.
TEST(Interrupts, TwoHalvesReadAsReadingOn) {
    std::string text = "           CPU0       CPU1\n";
    for (int i = 0; i < 600; ++i) {
        const int irq = i < 300 ? i : i - 300; // the second half repeats the first
        char line[160];
        std::snprintf(line, sizeof line, "%4d: %10d %10d   GICv3 %d Level eth%d\n", irq, i, 2 * i,
                      irq, i);
        text += line;
        if (i % 3 == 0)
            text += "garbage without a label\n";
        if (i % 7 == 0)
            text += std::to_string(5000 + i) + ": 99999999999999999999999 1 GICv3 1 Edge x\n";
        if (i % 11 == 0)
            text += "\n";
    }
    text += "NMI:          1          2   Non-maskable interrupts\n";
    expectHalvesAgree(text);
    for (const std::size_t limit :
         {1, 2, 150, 299, 300, 301, 330, 350, 360, 370, 380, 386, 387, 388})
        expectHalvesAgree(text, 0, limit);

    Diagnostics d;
    const auto t = detail::parseInterrupts(text, d, "proc/interrupts", 0, detail::bestFixedCounts(),
                                           1, InterruptTable::kMaxRows, 0);
    EXPECT_EQ(t.rows.size(), 300u + 86u + 1u); // 300 IRQs, 86 wide ones, NMI
    EXPECT_GT(d.suppressed(), 0u);
    EXPECT_TRUE(d.hasErrors());

    // Every fixture and the demo's tables, in halves.
    namespace fs = std::filesystem;
    for (const char* dir : {CORESTEER_FIXTURES, CORESTEER_DEMO_DIR})
        for (const auto& e : fs::recursive_directory_iterator(dir))
            if (e.path().filename() == "interrupts")
                expectHalvesAgree(readText(e.path()));
}

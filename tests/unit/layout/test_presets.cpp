// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// Built-in presets (resources/presets): each file parses, is made for a fixture board, applies
// every target on that board, and writes exactly the masks its source published.
//
// The table below restates the published values from docs/preset-sources.md in the sources' own
// terms: hex masks as the scripts write them, and IRQs found the way each script finds them in
// /proc/interrupts (not through the preset's selectors), so a wrong action name or rank in a
// preset shows up as a write to the wrong IRQ.
#include "core/collect/collect_local.h"
#include "core/layout/layout_json.h"
#include "core/layout/resolve.h"
#include "tests/support/board_expect.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

using namespace coresteer;
using namespace coresteer::layout;

namespace {

std::filesystem::path presetsDir() {
    return CORESTEER_PRESETS_DIR;
}

std::string readText(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::vector<std::string> presetFiles() {
    std::vector<std::string> out;
    for (const auto& e : std::filesystem::directory_iterator(presetsDir()))
        if (e.is_regular_file() && e.path().extension() == ".json")
            out.push_back(e.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
}

Preset loadPreset(const std::string& file) {
    std::string err;
    auto p = parsePreset(readText(presetsDir() / file), &err);
    EXPECT_TRUE(p.has_value()) << file << ": " << err;
    return p.value_or(Preset{});
}

// How a source names an IRQ.
enum class Find {
    LineEnding, // set_interface_core NAME: the first /proc/interrupts line ending in NAME
    Grep,       // grep NAME /proc/interrupts: the nth matching line (1-based)
    Hwirq,      // smp-mt76.sh: the line whose hwirq column is NAME
};

enum class Kind { Irq, Rps, FlowCnt, Xps, SockFlow };

struct Row {
    Kind kind;
    Find find = Find::LineEnding;
    std::string name; // IRQ name/pattern/hwirq, or the interface
    int n = 0;        // grep match number, or the queue index
    std::string published;
};

Row irqEnding(const std::string& name, const std::string& hex) {
    return {Kind::Irq, Find::LineEnding, name, 0, hex};
}
Row irqGrep(const std::string& pattern, int nth, const std::string& hex) {
    return {Kind::Irq, Find::Grep, pattern, nth, hex};
}
Row irqHwirq(const std::string& hwirq, const std::string& hex) {
    return {Kind::Irq, Find::Hwirq, hwirq, 0, hex};
}
Row rps(const std::string& ifname, int queue, const std::string& hex) {
    return {Kind::Rps, Find::LineEnding, ifname, queue, hex};
}
Row flowCnt(const std::string& ifname, int queue, const std::string& value) {
    return {Kind::FlowCnt, Find::LineEnding, ifname, queue, value};
}
Row xps(const std::string& ifname, int queue, const std::string& hex) {
    return {Kind::Xps, Find::LineEnding, ifname, queue, hex};
}
Row sockFlow(const std::string& value) {
    return {Kind::SockFlow, Find::LineEnding, "", 0, value};
}

struct Published {
    std::string file;    // in resources/presets
    std::string fixture; // tests/fixtures/boards/<fixture>
    std::vector<Row> rows;
    // Patterns the source names that the fixture does not have (the preset says why in its note).
    std::vector<std::string> absent = {};
};

void add(std::vector<Row>& rows, std::initializer_list<Row> more) {
    rows.insert(rows.end(), more.begin(), more.end());
}

// StarWhiz R6S options: IRQ masks of eth0 / eth1-* / eth2-*, then rps and xps of rx-0/tx-0.
std::vector<Row> r6s(const std::string& irq0, const std::string& irq1, const std::string& irq2,
                     const std::vector<std::string>& rpsMasks,
                     const std::vector<std::string>& xpsMasks) {
    std::vector<Row> rows{irqEnding("eth0", irq0)};
    for (const char* v : {"-0", "-16", "-18"})
        rows.push_back(irqEnding(std::string("eth1") + v, irq1));
    for (const char* v : {"-0", "-16", "-18"})
        rows.push_back(irqEnding(std::string("eth2") + v, irq2));
    const char* ifs[] = {"eth0", "eth1", "eth2"};
    for (int i = 0; i < 3; ++i) {
        rows.push_back(rps(ifs[i], 0, rpsMasks[static_cast<std::size_t>(i)]));
        rows.push_back(xps(ifs[i], 0, xpsMasks[static_cast<std::size_t>(i)]));
    }
    return rows;
}

std::vector<Row> ipq4019Forwarding() {
    std::vector<Row> rows;
    // set_mask_interleave_reverse eth_tx 4 2 4: groups of four, CPU2 then CPU1.
    const char* tx[] = {"4", "4", "4", "4", "2", "2", "2", "2",
                        "4", "4", "4", "4", "2", "2", "2", "2"};
    for (int i = 0; i < 16; ++i)
        rows.push_back(irqGrep("eth_tx", i + 1, tx[i]));
    // set_mask_interleave_reverse eth_rx 4 2 1.
    add(rows, {irqGrep("eth_rx", 1, "4"), irqGrep("eth_rx", 2, "2"), irqGrep("eth_rx", 3, "4"),
               irqGrep("eth_rx", 4, "2")});
    // set_mask_interleave bam_dma 2 3 1.
    add(rows, {irqGrep("bam_dma", 1, "2"), irqGrep("bam_dma", 2, "4"), irqGrep("bam_dma", 3, "8")});
    add(rows, {irqGrep("ath10k_ahb", 1, "8")});
    // The script's "qcom-pcie-msi" -> 8 (wifi_core); that line does not exist on this kernel, the
    // preset gives the PCIe radio's own MSI the same mask.
    add(rows, {irqGrep("ath10k_pci", 1, "8")});
    add(rows, {irqGrep("usb", 1, "1"), irqGrep("usb", 2, "1")});
    // assign_interface_round eth* 2 2 / wlan* 8 1, rps_flow_cnt 256.
    for (const char* eth : {"eth0", "eth1"})
        for (int q = 0; q < 4; ++q)
            add(rows, {rps(eth, q, q % 2 ? "4" : "2"), flowCnt(eth, q, "256"),
                       xps(eth, q, q % 2 ? "4" : "2")});
    for (const char* wlan : {"wlan0", "wlan1"}) {
        add(rows, {rps(wlan, 0, "8"), flowCnt(wlan, 0, "256")});
        for (int q = 0; q < 4; ++q)
            rows.push_back(xps(wlan, q, "8"));
    }
    rows.push_back(sockFlow("1024"));
    return rows;
}

const char* kBpiEthIfs[] = {"eth0", "eth1", "eth2", "lan1", "lan2", "lan3", "wan"};

std::vector<Row> mt7988NoWifi() {
    std::vector<Row> rows{irqHwirq("221", "1"), irqHwirq("229", "1"), irqHwirq("222", "2"),
                          irqHwirq("223", "4"), irqHwirq("224", "8")};
    for (const char* i : kBpiEthIfs)
        rows.push_back(rps(i, 0, "f"));
    return rows;
}

std::vector<Row> mt7988Wifi() {
    std::vector<Row> rows{irqHwirq("221", "4"), irqHwirq("222", "4"), irqHwirq("229", "4"),
                          irqHwirq("223", "8"), irqHwirq("224", "8")};
    for (const char* i : kBpiEthIfs)
        rows.push_back(rps(i, 0, "0")); // DEFAULT_RPS
    for (const char* i : {"phy0-ap0", "phy1-ap0", "phy2-ap0"})
        rows.push_back(rps(i, 0, "3"));
    return rows;
}

const std::vector<Published>& published() {
    static const std::vector<Published> table{
        {"nanopi-r6s-option1.json", "nanopi-r6s-friendlywrt",
         r6s("1", "2", "4", {"c0", "c0", "c0"}, {"30", "30", "30"})},
        {"nanopi-r6s-option2a.json", "nanopi-r6s-friendlywrt",
         r6s("1", "4", "8", {"2", "10", "40"}, {"2", "20", "80"})},
        {"nanopi-r6s-option2b.json", "nanopi-r6s-friendlywrt",
         r6s("1", "4", "8", {"2", "10", "c0"}, {"2", "20", "80"})},
        {"nanopi-r4s-starwhiz.json",
         "nanopi-r4s",
         {irqEnding("eth0", "4"), irqEnding("eth1", "8"), rps("eth0", 0, "10"),
          rps("eth1", 0, "20")}},
        {"ipq4019-acrh17-forwarding.json",
         "ipq4019-acrh17",
         ipq4019Forwarding(),
         {"qcom-pcie-msi"}},
        {"bpi-r4-mt7988-no-wifi.json", "bpi-r4", mt7988NoWifi()},
        {"bpi-r4-mt7988-wifi.json", "bpi-r4", mt7988Wifi()},
    };
    return table;
}

std::vector<std::string> lines(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line))
        out.push_back(line);
    return out;
}

std::vector<std::string> fields(std::string line) {
    for (auto& c : line)
        if (c == ':')
            c = ' ';
    std::istringstream in(line);
    std::vector<std::string> out;
    std::string f;
    while (in >> f)
        out.push_back(f);
    return out;
}

bool numeric(const std::string& s) {
    return !s.empty() && s.find_first_not_of("0123456789") == std::string::npos;
}

// The IRQ number the source's own lookup finds in the fixture's /proc/interrupts, or "".
std::string sourceIrq(const std::string& interrupts, const Row& row) {
    const auto all = lines(interrupts);
    if (all.empty())
        return "";
    const auto ncpu = fields(all[0]).size();
    int matches = 0;
    for (std::size_t i = 1; i < all.size(); ++i) {
        auto line = all[i];
        const auto f = fields(line);
        if (f.empty() || !numeric(f[0]))
            continue;
        while (!line.empty() && (line.back() == ' ' || line.back() == '\r'))
            line.pop_back();
        bool hit = false;
        switch (row.find) {
        case Find::LineEnding:
            hit = line.size() >= row.name.size() &&
                  line.compare(line.size() - row.name.size(), row.name.size(), row.name) == 0;
            break;
        case Find::Grep:
            hit = line.find(row.name) != std::string::npos && ++matches == row.n;
            break;
        case Find::Hwirq:
            hit = f.size() > ncpu + 2 && f[ncpu + 2] == row.name;
            break;
        }
        if (hit)
            return f[0];
    }
    return "";
}

// A published hex mask as the kernel prints it for `cpus` CPUs (one group: up to 32 CPUs).
std::string kernelHex(const std::string& published, int cpus) {
    const auto digits = static_cast<std::size_t>((cpus + 3) / 4);
    return published.size() >= digits ? published
                                      : std::string(digits - published.size(), '0') + published;
}

std::string queueDir(const Row& row, const char* dir) {
    return "sys/class/net/" + row.name + "/queues/" + dir + "-" + std::to_string(row.n) + "/";
}

std::string describe(const Row& row) {
    switch (row.kind) {
    case Kind::Irq:
        return "IRQ " + row.name + (row.find == Find::Grep ? " #" + std::to_string(row.n) : "");
    case Kind::SockFlow:
        return "rps_sock_flow_entries";
    default:
        return row.name + " queue " + std::to_string(row.n);
    }
}

} // namespace

TEST(Presets, EveryFileParsesAndAppliesCompletelyOnItsFixtureBoard) {
    const auto files = presetFiles();
    ASSERT_FALSE(files.empty()) << presetsDir();
    for (const auto& file : files) {
        SCOPED_TRACE(file);
        std::string err;
        const auto p = parsePreset(readText(presetsDir() / file), &err);
        ASSERT_TRUE(p.has_value()) << err;
        EXPECT_FALSE(p->name.empty());
        EXPECT_FALSE(p->note.empty());
        EXPECT_FALSE(p->layout.empty());
        for (const auto& t : p->layout.irqs)
            EXPECT_FALSE(t.why.empty()) << t.irq.display();
        for (const auto& t : p->layout.rx)
            EXPECT_FALSE(t.why.empty()) << t.interface << " rx-" << t.queue;
        for (const auto& t : p->layout.tx)
            EXPECT_FALSE(t.why.empty()) << t.interface << " tx-" << t.queue;

        int boards = 0;
        for (const auto& b : test::boardNames()) {
            if (test::readExpect(b).board != p->board)
                continue;
            ++boards;
            const auto r = resolve(p->layout, buildSnapshot(collectLocal(test::boardDir(b))));
            for (const auto& s : r.skipped)
                ADD_FAILURE() << b << ": " << s.target << " skipped: " << s.reason;
            EXPECT_GT(r.writes.size(), 0u) << b;
        }
        EXPECT_GT(boards, 0) << "no fixture board reports board " << p->board;
    }
}

TEST(Presets, EveryFileIsInThePublishedTable) {
    std::set<std::string> inTable;
    for (const auto& pub : published())
        inTable.insert(pub.file);
    const auto files = presetFiles();
    EXPECT_EQ(std::set<std::string>(files.begin(), files.end()), inTable);
}

TEST(Presets, WriteExactlyThePublishedMasks) {
    for (const auto& pub : published()) {
        SCOPED_TRACE(pub.file);
        const auto p = loadPreset(pub.file);
        const auto expect = test::readExpect(pub.fixture);
        ASSERT_EQ(p.board, expect.board) << pub.fixture;
        ASSERT_GT(expect.cpus, 0);
        ASSERT_LE(expect.cpus, 32);
        const auto root = test::boardDir(pub.fixture);
        const auto interrupts = readText(root / "proc/interrupts");

        for (const auto& pattern : pub.absent)
            EXPECT_EQ(sourceIrq(interrupts, {Kind::Irq, Find::Grep, pattern, 1, ""}), "")
                << pattern << " is on the fixture: the preset should name it";

        // path -> value, as the published lines would write them on this fixture.
        std::map<std::string, std::string> want;
        for (const auto& row : pub.rows) {
            std::string path, value = row.published;
            switch (row.kind) {
            case Kind::Irq: {
                const auto irq = sourceIrq(interrupts, row);
                ASSERT_FALSE(irq.empty()) << describe(row) << " not in the fixture";
                path = "proc/irq/" + irq + "/smp_affinity";
                value = kernelHex(row.published, expect.cpus);
                break;
            }
            case Kind::Rps:
                path = queueDir(row, "rx") + "rps_cpus";
                value = kernelHex(row.published, expect.cpus);
                break;
            case Kind::FlowCnt:
                path = queueDir(row, "rx") + "rps_flow_cnt";
                break;
            case Kind::Xps:
                path = queueDir(row, "tx") + "xps_cpus";
                value = kernelHex(row.published, expect.cpus);
                break;
            case Kind::SockFlow:
                path = "proc/sys/net/core/rps_sock_flow_entries";
                break;
            }
            EXPECT_TRUE(want.emplace(path, value).second) << "two table rows write " << path;
        }

        const auto r = resolve(p.layout, buildSnapshot(collectLocal(root)));
        EXPECT_TRUE(r.skipped.empty());
        std::map<std::string, std::string> got;
        for (const auto& w : r.writes)
            EXPECT_TRUE(got.emplace(w.path, w.value).second) << "written twice: " << w.path;
        for (const auto& [path, value] : want) {
            const auto it = got.find(path);
            if (it == got.end())
                ADD_FAILURE() << "published write missing: " << path << " = " << value;
            else
                EXPECT_EQ(it->second, value) << path;
        }
        for (const auto& [path, value] : got)
            EXPECT_TRUE(want.count(path)) << "not published: " << path << " = " << value;
    }
}

TEST(Presets, R6sScriptsChangeOnlyTheFirstEth0Irq) {
    // set_interface_core takes the first /proc/interrupts line ending in "eth0" (IRQ 63); the
    // published readback shows IRQ 64 (also "eth0") untouched at ff.
    for (const char* file :
         {"nanopi-r6s-option1.json", "nanopi-r6s-option2a.json", "nanopi-r6s-option2b.json"}) {
        SCOPED_TRACE(file);
        const auto r =
            resolve(loadPreset(file).layout,
                    buildSnapshot(collectLocal(test::boardDir("nanopi-r6s-friendlywrt"))));
        int eth0 = 0;
        for (const auto& w : r.writes) {
            EXPECT_NE(w.path, "proc/irq/64/smp_affinity");
            if (w.path == "proc/irq/63/smp_affinity") {
                ++eth0;
                EXPECT_EQ(w.value, "01");
            }
        }
        EXPECT_EQ(eth0, 1);
    }
}

TEST(Presets, NoneForNanoPiM4) {
    // Nothing was published for the NanoPi M4 (docs/preset-sources.md section 5).
    const auto m4 = test::readExpect("nanopi-m4").board;
    ASSERT_FALSE(m4.empty());
    for (const auto& file : presetFiles())
        EXPECT_NE(loadPreset(file).board, m4) << file;
}

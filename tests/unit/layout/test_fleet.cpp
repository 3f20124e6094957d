// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// `export ansible` against hostile names and wide layouts, checked by the tools that read the
// playbook: PyYAML, `ansible-playbook --syntax-check --list-hosts`, and `ansible-playbook` itself
// with a local connection into fixture copies (never this machine's /proc or /sys).
#include "core/base/sha256.h"
#include "core/base/utf8.h"
#include "core/collect/collect_local.h"
#include "core/layout/apply.h"
#include "core/layout/fleet.h"
#include "core/layout/layout_json.h"
#include "tests/support/board_expect.h"
#include "tests/support/cpufreq_policy.h"
#include "tests/unit/layout/router_copy.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <thread>

using namespace coresteer;
using namespace coresteer::layout;
namespace fs = std::filesystem;
using coresteer::test::slurp;
using namespace coresteer::test;

namespace {

fs::path testDir(const std::string& name) {
    const auto d = fs::path(CORESTEER_TEST_TMP) / "fleet" / name;
    fs::remove_all(d);
    fs::create_directories(d);
    return d;
}

fs::path boardCopy(const fs::path& dir, const std::string& board) {
    const auto root = dir / "root";
    fs::create_directories(dir);
    fs::copy(test::boardDir(board), root,
             fs::copy_options::recursive | fs::copy_options::copy_symlinks);
    std::ofstream(root / "etc/sysupgrade.conf") << "/etc/mine.conf\n";
    return root;
}

std::string quote(const std::string& s) {
    std::string q = "'";
    for (char c : s)
        q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

int sh(const std::string& cmd, std::string* out, const fs::path& dir) {
    const auto log = dir / "cmd.out";
    const int st = std::system((cmd + " > " + quote(log.string()) + " 2>&1").c_str());
    *out = slurp(log);
    return WEXITSTATUS(st);
}

// ansible-playbook with its own home in `dir`: nothing of the user's ~/.ansible is read or
// written.
std::string ansible(const fs::path& dir, const std::string& args) {
    fs::create_directories(dir / "home");
    return "env HOME=" + quote((dir / "home").string()) +
           " ANSIBLE_LOCAL_TEMP=" + quote((dir / "home/tmp").string()) +
           " ANSIBLE_NOCOLOR=1 ANSIBLE_RETRY_FILES_ENABLED=0 ansible-playbook " + args;
}

// What a hostile preset may hold in its names and notes: each character that ends a line in
// YAML 1.1 or 1.2, every C0 and C1 control, and bytes that are not UTF-8.
std::vector<std::pair<std::string, std::string>> hostileCharacters() {
    std::vector<std::pair<std::string, std::string>> v = {
        {"LF", "\n"},           {"CR", "\r"},           {"CRLF", "\r\n"}, {"NEL", "\xc2\x85"},
        {"LS", "\xe2\x80\xa8"}, {"PS", "\xe2\x80\xa9"}, {"DEL", "\x7f"},  {"raw 0x85", "\x85"},
        {"cut LS", "\xe2\x80"}, {"BOM", "\xef\xbb\xbf"}};
    for (int c = 1; c < 0x20; ++c)
        v.push_back({"C0 " + std::to_string(c), std::string(1, static_cast<char>(c))});
    for (int c = 0x80; c < 0xa0; ++c) {
        std::string u = {static_cast<char>(0xc2), static_cast<char>(c)};
        v.push_back({"C1 " + std::to_string(c), u});
    }
    return v;
}

Preset hostilePreset(const std::string& ch) {
    const std::string play = ch + "- hosts: localhost" + ch + "  tasks:" + ch +
                             "    - raw: touch /nonexistent/PWNED" + ch;
    Preset p;
    p.name = "R6S" + play;
    p.board = "friendlyarm,nanopi-r6s" + play;
    p.note = "note" + play;
    p.layout.notes = {"notes" + play};
    p.layout.irqs.push_back({{"eth0" + play, 0}, *CpuMask::fromList("1"), "why" + play});
    p.layout.irqs.push_back({{"eth1", 0}, *CpuMask::fromList("2"), "why" + play});
    p.layout.rx.push_back({"eth0", 0, *CpuMask::fromList("4-5"), std::nullopt, "why" + play});
    p.layout.rx.push_back({"e" + ch + "x", 0, *CpuMask::fromList("4"), std::nullopt, "w"});
    return p;
}

} // namespace

// No byte of a name, a note or a reason can add a play: the playbook has exactly the one play,
// for the one group, as PyYAML and Ansible read it.
TEST(FleetExport, HostileTextNeverAddsAPlay) {
    const auto dir = testDir("hostile-yaml");
    std::ofstream(dir / "hosts.ini") << "[routers]\nr1 ansible_connection=local\n"
                                        "r2 ansible_connection=local\n"
                                        "[others]\nlocalhost ansible_connection=local\n";
    std::vector<std::string> playbooks;
    for (const auto& [what, ch] : hostileCharacters()) {
        SCOPED_TRACE(what);
        std::string error;
        const auto y = makeAnsiblePlaybook(hostilePreset(ch), {}, &error);
        ASSERT_TRUE(y) << error;
        const auto file = dir / ("p" + std::to_string(playbooks.size()) + ".yml");
        std::ofstream(file, std::ios::binary) << *y;
        playbooks.push_back(file.string());
        // Only printable ASCII and newlines: nothing a YAML reader can take for a line break.
        for (unsigned char c : *y)
            ASSERT_TRUE(c == '\n' || (c >= 0x20 && c < 0x7f)) << static_cast<int>(c);
    }
    // PyYAML (Debian's, which Ansible uses): one play per file, hosts "routers".
    std::ofstream(dir / "count.py")
        << "import sys, yaml\n"
           "yaml.SafeLoader.add_constructor('!unsafe', lambda l, n: l.construct_scalar(n))\n"
           "for f in sys.argv[1:]:\n"
           "    d = yaml.safe_load(open(f, encoding='utf-8'))\n"
           "    print(len(d), ','.join(str(p.get('hosts')) for p in d))\n";
    std::string args, out;
    for (const auto& p : playbooks)
        args += " " + quote(p);
    ASSERT_EQ(sh("/usr/bin/python3 " + quote((dir / "count.py").string()) + args, &out, dir), 0)
        << out;
    std::string expected;
    for (std::size_t i = 0; i < playbooks.size(); ++i)
        expected += "1 routers\n";
    EXPECT_EQ(out, expected);
    // Ansible: every playbook passes its syntax check, and lists one play of the group's two
    // hosts.
    const auto inventory = " -i " + quote((dir / "hosts.ini").string());
    ASSERT_EQ(sh(ansible(dir, "--syntax-check" + inventory + args), &out, dir), 0) << out;
    ASSERT_EQ(sh(ansible(dir, "--list-hosts" + inventory + args), &out, dir), 0) << out;
    auto count = [&](const std::string& what) {
        std::size_t n = 0;
        for (auto at = out.find(what); at != std::string::npos; at = out.find(what, at + 1))
            ++n;
        return n;
    };
    EXPECT_EQ(count("\n  play #1 (routers): "), playbooks.size()) << out;
    EXPECT_EQ(count("play #2"), 0u) << out;
    EXPECT_EQ(count("    pattern: ['routers']\n    hosts (2):\n"), playbooks.size()) << out;
    EXPECT_EQ(count("\n      localhost\n"), 0u) << out;
}

namespace {

// A layout as wide as a big router's: 300 IRQs with real long names and hostile ones, 300 receive
// queues, and names with quotes, dollars and line separators.
Preset widePreset(const std::string& board, const fs::path& trace = "/nonexistent/PWNED") {
    Preset p;
    const std::string touch = "touch " + trace.string();
    p.name = "wide \xe2\x80\xa8 layout";
    p.board = board;
    const std::string names[] = {"xhci-hcd:usb1",      "ice-enp152s0f0np0-TxRx-",
                                 "mlx5_comp",          "eth0'$(" + touch + ")`" + touch + "`\"",
                                 "eth1\xe2\x80\xa8-x", "\xc3\xa9th"};
    for (int i = 0; i < 300; ++i)
        p.layout.irqs.push_back({{std::string(names[i % 6]) + std::to_string(i), i % 3},
                                 *CpuMask::fromList(std::to_string(i % 4)),
                                 "why"});
    for (int i = 0; i < 300; ++i)
        p.layout.rx.push_back({i % 2 ? "eth0" : "eth1", i / 2,
                               *CpuMask::fromList(std::to_string(i % 4)), 256, "why"});
    return p;
}

std::map<std::string, std::string> persistedFiles(const fs::path& root) {
    std::map<std::string, std::string> m;
    for (const char* f : {"etc/hotplug.d/net/95-coresteer", "etc/coresteer/layout.json",
                          "usr/libexec/platform/packet-steering.sh", "etc/sysupgrade.conf"})
        if (fs::exists(root / f))
            m[f] = slurp(root / f);
    return m;
}

} // namespace

// 300 IRQs and 300 queues with long and hostile names reach the router byte for byte: the files
// the playbook installs are exactly those its persist script installs when run by hand, and the
// layout reads back.
TEST(FleetExport, WideLayoutsArriveByteForByte) {
    const auto dir = testDir("wide");
    const std::string board = "nanopi-r6s-friendlywrt";
    const auto viaAnsible = boardCopy(dir / "ansible", board);
    const auto byHand = boardCopy(dir / "hand", board);
    const auto snap = buildSnapshot(collectLocal(viaAnsible));
    const auto preset = widePreset(snap.system.boardName, dir / "PWNED");
    std::string error;
    const auto f = makeFleetScripts(preset, {}, &error);
    ASSERT_TRUE(f) << error;
    EXPECT_TRUE(f->skipped.empty());
    const auto y = makeAnsiblePlaybook(preset, {}, &error);
    ASSERT_TRUE(y) << error;
    std::ofstream(dir / "wide.yml", std::ios::binary) << *y;
    std::ofstream(dir / "hosts.ini")
        << "[routers]\nr1 ansible_connection=local coresteer_root=" << quote(viaAnsible.string())
        << " coresteer_revert_after=30\n";
    std::string out;
    ASSERT_EQ(sh(ansible(dir, "-i " + quote((dir / "hosts.ini").string()) + " " +
                                  quote((dir / "wide.yml").string())),
                 &out, dir),
              0)
        << out;
    EXPECT_NE(out.find("failed=0"), std::string::npos) << out;
    // The same persist script, by hand.
    std::ofstream(dir / "persist.sh", std::ios::binary) << f->persist;
    ASSERT_EQ(sh("CORESTEER_ROOT=" + quote(byHand.string()) + " /bin/sh " +
                     quote((dir / "persist.sh").string()),
                 &out, dir),
              0)
        << out;
    const auto installed = persistedFiles(viaAnsible);
    EXPECT_EQ(installed, persistedFiles(byHand));
    ASSERT_EQ(installed.count("etc/coresteer/layout.json"), 1u);
    const auto layout = parseLayout(installed.at("etc/coresteer/layout.json"), &error);
    ASSERT_TRUE(layout) << error;
    EXPECT_EQ(layout->irqs.size(), 300u);
    EXPECT_EQ(layout->rx.size(), 300u);
    for (std::size_t i = 0; i < layout->irqs.size(); ++i)
        EXPECT_EQ(layout->irqs[i].irq.action, f->layout.irqs[i].irq.action);
    EXPECT_FALSE(fs::exists(dir / "PWNED"));
    EXPECT_FALSE(fs::exists(viaAnsible / "tmp/coresteer/pending")); // confirmed
}

// A script that arrives damaged is never run: the play fails at the checksum and the router is
// left as it was.
TEST(FleetExport, ADamagedScriptFailsThePlayBeforeAnythingRuns) {
    const auto dir = testDir("damaged");
    const auto root = boardCopy(dir, "nanopi-r6s-friendlywrt");
    const auto snap = buildSnapshot(collectLocal(root));
    const auto preset = widePreset(snap.system.boardName);
    std::string error;
    auto y = makeAnsiblePlaybook(preset, {}, &error);
    ASSERT_TRUE(y) << error;
    // One byte of the second piece of persist.sh changes on the way.
    auto at = y->find("file: persist.sh");
    at = y->find("file: persist.sh", at + 1);
    ASSERT_NE(at, std::string::npos);
    at = y->find("state_", at);
    ASSERT_NE(at, std::string::npos);
    (*y)[at] = 'S';
    std::ofstream(dir / "damaged.yml", std::ios::binary) << *y;
    std::ofstream(dir / "hosts.ini")
        << "[routers]\nr1 ansible_connection=local coresteer_root=" << quote(root.string()) << "\n";
    const auto before = persistedFiles(root);
    std::string out;
    EXPECT_NE(sh(ansible(dir, "-i " + quote((dir / "hosts.ini").string()) + " " +
                                  quote((dir / "damaged.yml").string())),
                 &out, dir),
              0);
    EXPECT_NE(out.find("persist.sh did not arrive whole"), std::string::npos) << out;
    EXPECT_NE(out.find("failed=1"), std::string::npos) << out;
    EXPECT_EQ(persistedFiles(root), before);
    EXPECT_FALSE(fs::exists(root / "tmp/coresteer"));
}

// Every piece, once Ansible has quoted it into its command, fits dropbear's 9000 bytes, and the
// pieces of each script join into the script itself.
TEST(FleetExport, PiecesFitDropbearAndJoinIntoTheScripts) {
    const auto dir = testDir("pieces");
    const auto p = widePreset("friendlyarm,nanopi-r6s");
    std::string error;
    const auto f = makeFleetScripts(p, {}, &error);
    ASSERT_TRUE(f) << error;
    const auto y = makeAnsiblePlaybook(p, {}, &error);
    ASSERT_TRUE(y) << error;
    std::ofstream(dir / "p.yml", std::ios::binary) << *y;
    std::ofstream(dir / "pieces.py")
        << "import hashlib, re, shlex, sys, yaml\n"
           "yaml.SafeLoader.add_constructor('!unsafe', lambda l, n: l.construct_scalar(n))\n"
           "d = yaml.safe_load(open(sys.argv[1], encoding='utf-8'))\n"
           "files = {}\n"
           "for item in d[0]['vars']['coresteer_scripts']:\n"
           "    cmd = \"printf '%s' \" + shlex.quote(item['text']) + \" >> \" + '/tmp/x' * 10\n"
           "    assert len(cmd.encode()) < 9000, len(cmd.encode())\n"
           "    files[item['file']] = files.get(item['file'], '') + item['text']\n"
           "check = [t for t in d[0]['tasks'][1]['block'] if 'whole' in t['name']][0]['raw']\n"
           "sums = dict(re.findall(r'sha256sum (\\S+)\\); \\[ \"\\$1\" = ([0-9a-f]{64})', check))\n"
           "for name in sorted(files):\n"
           "    got = hashlib.sha256(files[name].encode()).hexdigest()\n"
           "    print(name, 'whole' if sums.get(name) == got else 'differs', "
           "len(files[name].encode()))\n";
    std::string out;
    ASSERT_EQ(sh("/usr/bin/python3 " + quote((dir / "pieces.py").string()) + " " +
                     quote((dir / "p.yml").string()),
                 &out, dir),
              0)
        << out;
    // The scripts of another call differ only in their random tokens: same lengths.
    EXPECT_EQ(out, "apply.sh whole " + std::to_string(f->apply.size()) + "\nconfirm.sh whole " +
                       std::to_string(f->confirm.size()) + "\npersist.sh whole " +
                       std::to_string(f->persist.size()) + "\n");
}

// The checksums the playbook checks are what sha256sum prints, at every length around the
// block boundaries.
TEST(Sha256, AgreesWithSha256sum) {
    const auto dir = testDir("sha256");
    std::string data;
    for (std::size_t n = 0; n <= 200; ++n) {
        std::ofstream(dir / "in", std::ios::binary | std::ios::trunc) << data;
        std::string out;
        ASSERT_EQ(sh("sha256sum < " + quote((dir / "in").string()), &out, dir), 0);
        EXPECT_EQ(out.substr(0, 64), sha256Hex(data)) << n;
        data += static_cast<char>(n * 7 + 1);
    }
}

// The fleet's scripts run as Ansible's raw task runs them, on copies of every board fixture.
namespace {
class FleetBoard : public ::testing::TestWithParam<std::string> {};
} // namespace

// The fleet's scripts (what `coresteer-cli export ansible` puts in a playbook) resolve the layout
// on the router itself: for every seed board, the plan and every preset made for it end up in
// force exactly as apply would leave them, a second run changes nothing, an unconfirmed apply
// reverts by itself, and persist installs what the router needs, once.
TEST_P(FleetBoard, AppliesConfirmsAndPersistsOnceWithoutASnapshot) {
    const auto board = GetParam();
    const auto layouts = layoutsFor(Router(board, "-probe").snapshot());
    for (const auto& [name, layout] : layouts) {
        SCOPED_TRACE(name);
        Router r(board, "-" + name);
        const bool openwrt = readyForPersist(r);
        const auto snap = r.snapshot();
        Preset preset;
        preset.name = name;
        preset.board = snap.system.boardName;
        preset.layout = layout;
        std::string error;
        const auto f = makeFleetScripts(preset, {}, &error);
        if (layout.empty()) {
            ASSERT_FALSE(f);
            continue;
        }
        ASSERT_TRUE(f) << error;
        EXPECT_TRUE(f->skipped.empty());
        // The layout less what cannot run under a fixture root (NAPI threads, coalescing).
        Layout wanted = layout;
        wanted.interfaces.clear();
        const auto original = treeOf(r.root);
        const auto before = pending(wanted, r);
        std::string out;

        // Reverted (as the timer does, FleetTimer below): everything comes back.
        ASSERT_EQ(r.fleet(f->apply, "", &out), 0) << r.err();
        if (before == 0) {
            EXPECT_EQ(out, "coresteer: unchanged\n");
        } else {
            EXPECT_EQ(out.rfind("coresteer: changed ", 0), 0u) << out;
            EXPECT_EQ(pending(wanted, r), 0u) << r.err();
            EXPECT_EQ(
                r.fleet(makeSettleScript(kRootFromEnvironment, PendingAction::Revert), "", &out), 0)
                << r.err();
            EXPECT_EQ(pending(wanted, r), before);
        }
        // Confirmed: it stays, and a second run has nothing to do.
        ASSERT_EQ(r.fleet(f->apply, "", &out), 0) << r.err();
        if (before > 0) {
            EXPECT_EQ(r.fleet(f->confirm, "", &out), 0) << r.err();
            EXPECT_EQ(out, "settled\n");
        }
        EXPECT_EQ(pending(wanted, r), 0u);
        ASSERT_EQ(r.fleet(f->apply, "", &out), 0) << r.err();
        EXPECT_EQ(out, "coresteer: unchanged\n");
        EXPECT_FALSE(fs::exists(r.root / "tmp/coresteer/pending"));
        EXPECT_NE(r.fleet(f->confirm, "", &out), 0); // nothing waits

        // Persist: the files of this router's flavor, once.
        ASSERT_EQ(r.fleet(f->persist, "", &out), 0) << r.err();
        EXPECT_NE(out.find("coresteer: changed\n"), std::string::npos) << out;
        const auto script = openwrt ? hotplugPath() : std::string("etc/coresteer/apply.sh");
        EXPECT_NE(out.find("coresteer: wrote /" + script + "\n"), std::string::npos) << out;
        const auto persisted = treeOf(r.root);
        ASSERT_EQ(r.fleet(f->persist, "", &out), 0) << r.err();
        EXPECT_EQ(out, "coresteer: unchanged\n");
        EXPECT_EQ(treeOf(r.root), persisted);
        if (openwrt)
            EXPECT_EQ(slurp(r.root / "etc/sysupgrade.conf"),
                      std::string(kSysupgradeConf) + "/" + hotplugPath() + "\n/etc/coresteer/\n");
        else
            EXPECT_TRUE(fs::is_symlink(
                r.root / "etc/systemd/system/multi-user.target.wants/coresteer-apply.service"));
        // What persist installed brings the layout back after a reboot (the original values).
        Router fresh(board, "-" + name + "-boot");
        fs::create_directories((fresh.root / script).parent_path());
        fs::copy(r.root / script, fresh.root / script, fs::copy_options::overwrite_existing);
        EXPECT_EQ(fresh.hotplug(script, "", "add"), 0) << fresh.err();
        EXPECT_EQ(pending(wanted, fresh), 0u) << fresh.err();
        // And unpersist takes it all away again.
        ASSERT_TRUE(r.run(makeUnpersistScript(r.root.string()), &error)) << error;
        auto now = treeOf(r.root);
        for (auto* t : {&now}) {
            t->erase("tmp/coresteer/revert.data");
        }
        EXPECT_FALSE(r.executedAnything());
        EXPECT_EQ(now.count(script), 0u);
        (void)original;
    }
}

INSTANTIATE_TEST_SUITE_P(Boards, FleetBoard, ::testing::ValuesIn(test::boardNames()),
                         boardTestName);

TEST(Fleet, RefusesAnotherBoardUnlessTold) {
    Router r("nanopi-r4s");
    Preset p;
    p.name = "R6S";
    p.board = "friendlyelec,nanopi-r6s";
    p.layout.rx.push_back({"eth0", 0, *CpuMask::fromList("4-5"), std::nullopt, ""});
    std::string error, out;
    const auto f = makeFleetScripts(p, {}, &error);
    ASSERT_TRUE(f) << error;
    const auto original = treeOf(r.root);
    for (const auto* s : {&f->apply, &f->persist}) {
        EXPECT_EQ(r.fleet(*s, "", &out), 5);
        EXPECT_NE(r.err().find("this router's board is friendlyarm,nanopi-r4s, the preset's is "
                               "friendlyelec,nanopi-r6s"),
                  std::string::npos)
            << r.err();
    }
    EXPECT_EQ(treeOf(r.root), original);
    ASSERT_EQ(r.fleet(f->apply, "CORESTEER_ANY_BOARD=1 CORESTEER_REVERT_AFTER=30", &out), 0)
        << r.err();
    EXPECT_EQ(out.rfind("coresteer: changed 1 ", 0), 0u) << out;
    EXPECT_EQ(firstLine(r.root / "sys/class/net/eth0/queues/rx-0/rps_cpus"), "30");
    // The vendor part of the board name is not the board: FriendlyWrt's R6S takes OpenWrt's.
    Router r6s("nanopi-r6s-openwrt");
    p.board = "friendlyelec,nanopi-r6s";
    EXPECT_EQ(r6s.fleet(f->apply, "", &out), 0) << r6s.err();
}

// The fleet's apply arms the router's own timer, after the old values are kept in full, and
// the router checks the time it is given (Ansible passes coresteer_revert_after unchecked).
TEST(Fleet, UnconfirmedApplyRevertsByTheRoutersTimer) {
    Router r("nanopi-r6s-friendlywrt");
    // The LITTLE cores' clock held low: the plan sets their governor, which goes and comes
    // back with the rest.
    test::writeCpufreqPolicy(r.root, "powersave", "powersave performance schedutil");
    const auto snap = r.snapshot();
    Preset p;
    p.name = "plan";
    p.board = snap.system.boardName;
    p.layout = plan(snap);
    ASSERT_EQ(p.layout.governors.size(), 1u);
    Layout wanted = p.layout;
    wanted.interfaces.clear();
    std::string error, out;
    const auto f = makeFleetScripts(p, {}, &error);
    ASSERT_TRUE(f) << error;
    const auto before = pending(wanted, r);
    ASSERT_GT(before, 0u);
    for (const char* bad : {"0", "4", "86401", "-5", "1e3", "60s"}) {
        SCOPED_TRACE(bad);
        EXPECT_EQ(r.fleet(f->apply, std::string("CORESTEER_REVERT_AFTER=") + bad, &out), 2);
        EXPECT_NE(r.err().find("the revert time must be 5 to 86400 seconds"), std::string::npos)
            << r.err();
        EXPECT_EQ(pending(wanted, r), before);
    }
    ASSERT_EQ(r.fleet(f->apply, "CORESTEER_REVERT_AFTER=5", &out), 0) << r.err();
    EXPECT_EQ(pending(wanted, r), 0u);
    EXPECT_EQ(firstLine(r.root / "sys/devices/system/cpu/cpufreq/policy0/scaling_governor"),
              "schedutil");
    // revert.data holds every old value before the timer is armed.
    const auto data = slurp(r.root / "tmp/coresteer/revert.data");
    EXPECT_EQ(static_cast<std::size_t>(std::count(data.begin(), data.end(), '\n')), before);
    // The job claims `pending`, restores, then drops its claim.
    for (int i = 0; i < 150 && (fs::exists(r.root / "tmp/coresteer/pending") ||
                                fs::exists(r.root / "tmp/coresteer/claimed"));
         ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    EXPECT_EQ(pending(wanted, r), before);
    EXPECT_EQ(firstLine(r.root / "sys/devices/system/cpu/cpufreq/policy0/scaling_governor"),
              "powersave");
}

TEST(Fleet, PlaybookNamesItsGroupAndLeavesOutWhatItCannotCarry) {
    Preset p;
    p.name = "odd \"names\"";
    p.board = "x";
    p.layout.rx.push_back({"eth0", 0, *CpuMask::fromList("1"), std::nullopt, ""});
    p.layout.rx.push_back({std::string(40, 'y'), 0, *CpuMask::fromList("1"), std::nullopt, ""});
    p.layout.irqs.push_back({{"bad\naction", 0}, *CpuMask::fromList("2"), ""});
    FleetOptions o;
    o.group = "edge_routers";
    std::string error;
    const auto y = makeAnsiblePlaybook(p, o, &error);
    ASSERT_TRUE(y) << error;
    EXPECT_NE(y->find("\n  hosts: edge_routers\n"), std::string::npos);
    EXPECT_NE(y->find("- name: \"coresteer: odd \\\"names\\\"\"\n"), std::string::npos) << *y;
    EXPECT_NE(y->find("#   \"interface yyyy"), std::string::npos) << *y;
    EXPECT_NE(y->find("#   \"IRQ bad\\\\naction\": "), std::string::npos) << *y;
    EXPECT_EQ(y->find("bad\naction"), std::string::npos);
    // The pieces of each script, as YAML (Ansible's PyYAML) reads them, are the script byte for
    // byte: a line that starts with spaces, a quote, a brace and a tab included.
    p.layout.rx.push_back({"we'ird{{x}}", 0, *CpuMask::fromList("1"), std::nullopt, ""});
    p.layout.notes.push_back("  starts with spaces, {% raw %} and a\ttab");
    const auto f = makeFleetScripts(p, {}, &error);
    const auto yaml = makeAnsiblePlaybook(p, {}, &error);
    ASSERT_TRUE(f && yaml) << error;
    Router r("nanopi-r4s");
    r.script("play.yml", *yaml);
    const auto apply = r.script("apply.sh", f->apply), persist = r.script("persist.sh", f->persist);
    const auto check = r.script("check.py", R"(import re, sys, yaml
class L(yaml.SafeLoader): pass
L.add_constructor('!unsafe', lambda l, n: l.construct_scalar(n))
play = yaml.load(open(sys.argv[1]), Loader=L)[0]
got = {}
for c in play['vars']['coresteer_scripts']:
    got[c['file']] = got.get(c['file'], '') + c['text']
same = lambda a, b: re.sub('@@ps[0-9a-f]+', '', a) == re.sub('@@ps[0-9a-f]+', '', b)  # tokens
ok = same(got['apply.sh'], open(sys.argv[2]).read()) and same(got['persist.sh'], open(sys.argv[3]).read())
print(len(play['vars']['coresteer_scripts']), 'pieces', 'same' if ok else 'DIFFERENT')
)");
    std::string out;
    EXPECT_EQ(r.ash("-c \"python3 " + check + " " + r.script("play.yml", *yaml) + " " + apply +
                        " " + persist + "\"",
                    "", &out),
              0)
        << r.err();
    EXPECT_NE(out.find(" pieces same\n"), std::string::npos) << out << r.err();
    for (const char* g : {"", "1st", "a-b", "a b", "x;y"}) {
        o.group = g;
        EXPECT_FALSE(makeAnsiblePlaybook(p, o, &error)) << g;
        EXPECT_NE(error.find("not an inventory group name"), std::string::npos);
    }
    Preset none;
    none.layout.rx.push_back({"../x", 0, *CpuMask::fromList("1"), std::nullopt, ""});
    EXPECT_FALSE(makeFleetScripts(none, {}, &error));
    EXPECT_NE(error.find("nothing of this preset"), std::string::npos);
}

// IRQs that share an action name are told apart by hwirq, not by IRQ number: on the R6S,
// eth0's IRQ 59 (hwirq 265) is "eth0 #0" and IRQ 58 (hwirq 266) is "eth0 #1".

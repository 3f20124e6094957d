// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The collector script, run by real shells (dash, BusyBox ash, bash) over every board fixture,
// gives exactly the bundle that the local collector reads.
#include "core/collect/collect_local.h"
#include "core/collect/collect_remote.h"
#include "core/model/snapshot.h"
#include "core/model/snapshot_json.h"
#include "tests/support/board_expect.h"
#include "tests/support/test_names.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

using namespace coresteer;
namespace fs = std::filesystem;

namespace {

std::string runScript(const std::string& shell, const std::string& script) {
    // One folder per test: ctest runs the tests of this file in parallel.
    const auto dir = fs::path(CORESTEER_TEST_TMP) / "script" / test::currentTestFileName(true);
    fs::create_directories(dir);
    const auto in = dir / "collect.sh", out = dir / "collect.out";
    std::ofstream(in, std::ios::binary) << script;
    const std::string cmd =
        shell + " -s < '" + in.string() + "' > '" + out.string() + "' 2>/dev/null";
    EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
    std::ifstream f(out, std::ios::binary);
    std::ostringstream s;
    s << f.rdbuf();
    return s.str();
}

std::vector<std::string> shells() {
    std::vector<std::string> v;
    for (const char* s : {"/bin/dash", "/bin/busybox ash", "/bin/bash"}) {
        const std::string bin = std::string(s).substr(0, std::string(s).find(' '));
        if (fs::exists(bin))
            v.emplace_back(s);
    }
    return v;
}

std::string diff(const FileBundle& a, const FileBundle& b) {
    std::string d;
    for (const auto& [path, e] : a.entries()) {
        const auto* o = b.get(path);
        if (!o)
            d += "only local: " + path + "\n";
        else if (!(*o == e))
            d += "differs: " + path + "\n";
    }
    for (const auto& [path, e] : b.entries())
        if (!a.get(path))
            d += "only script: " + path + "\n";
    return d.substr(0, 3000);
}

} // namespace

TEST(CollectScript, ShellsAreInstalled) {
    // dash and bash come with Debian; busybox-static is installed by test.sh.
    EXPECT_EQ(shells().size(), 3u);
}

class ScriptOnBoard : public ::testing::TestWithParam<std::tuple<std::string, std::string>> {};

TEST_P(ScriptOnBoard, GivesTheLocalBundle) {
    const auto& [shell, board] = GetParam();
    const auto root = (test::boardDir(board)).string();
    const auto cs = makeCollectScript(root);
    const auto output = runScript(shell, cs.script);
    FileBundle remote;
    std::string error;
    ASSERT_TRUE(parseCollectOutput(output, cs.token, remote, &error)) << error;
    const auto local = collectLocal(root);
    EXPECT_EQ(diff(local, remote), "");
    remote.origin = local.origin;
    EXPECT_EQ(toJson(buildSnapshot(remote)), toJson(buildSnapshot(local)));
}

INSTANTIATE_TEST_SUITE_P(AllShells, ScriptOnBoard,
                         ::testing::Combine(::testing::ValuesIn(shells()),
                                            ::testing::ValuesIn(test::boardNames())),
                         [](const auto& p) {
                             return test::paramTestName(std::get<0>(p.param) + "_" +
                                                        std::get<1>(p.param));
                         });

TEST(CollectScript, ReadlinkRunsForLinksOnly) {
    // A fork and exec costs a slow router more than the rest of an entry (4 ms each here): the
    // collector asks readlink only about paths that are links, and every link it reports came
    // from one readlink. A readlink on PATH logs each call and runs the real one.
    const auto bin = fs::path(CORESTEER_TEST_TMP) / "readlink-log";
    fs::remove_all(bin);
    fs::create_directories(bin);
    const auto log = bin / "calls";
    const auto real = fs::exists("/usr/bin/readlink") ? "/usr/bin/readlink" : "/bin/readlink";
    std::ofstream(bin / "readlink") << "#!/bin/sh\nprintf '%s\\n' \"$1\" >> '" << log.string()
                                    << "'\nexec " << real << " \"$@\"\n";
    fs::permissions(bin / "readlink", fs::perms::owner_all);
    for (const auto& board : test::boardNames()) {
        // dash and bash find readlink on PATH (BusyBox ash may run its own applet instead).
        for (const std::string shell : {"/bin/dash", "/bin/bash"}) {
            fs::remove(log);
            const auto root = test::boardDir(board).string();
            const auto cs = makeCollectScript(root);
            const auto output =
                runScript("env PATH='" + bin.string() + ":/usr/bin:/bin' " + shell, cs.script);
            FileBundle remote;
            std::string error;
            ASSERT_TRUE(parseCollectOutput(output, cs.token, remote, &error)) << error;
            std::size_t links = 0;
            for (const auto& [path, e] : remote.entries())
                links += e.kind == BundleEntry::Kind::Link;
            std::ifstream in(log);
            std::string line;
            std::size_t calls = 0;
            while (std::getline(in, line)) {
                ++calls;
                EXPECT_TRUE(fs::is_symlink(line)) << board << ", " << shell << ": " << line;
            }
            EXPECT_EQ(calls, links) << board << ", " << shell;
        }
    }
}

TEST(CollectScript, HostileNamesStayData) {
    // Interface and file names that would run code if they ever reached the shell as code.
    const auto root = fs::path(CORESTEER_TEST_TMP) / "hostile";
    fs::remove_all(root);
    const std::vector<std::string> names = {"$(touch PWNED1)",
                                            "`touch PWNED2`",
                                            "a;touch PWNED3",
                                            "q'uote\"s",
                                            "sp ace",
                                            std::string(200, 'x'),
                                            "-n",
                                            "*",
                                            "new\nline"};
    for (const auto& n : names) {
        fs::create_directories(root / "sys/class/net" / n / "queues/rx-0");
        std::ofstream(root / "sys/class/net" / n / "queues/rx-0/rps_cpus") << "f\n";
        std::ofstream(root / "sys/class/net" / n / "mtu") << "1500\n";
        // A link whose own name and target are hostile: tested with [ -L ], read by readlink.
        fs::create_symlink("../../devices/" + n + "/$(touch PWNED4)",
                           root / "sys/class/net" / n / "device");
    }
    fs::create_directories(root / "proc");
    std::ofstream(root / "proc/interrupts") << "           CPU0\n  1:  5  GIC 1 Level  $(reboot)\n";
    const auto cs = makeCollectScript(root.string());
    for (const auto& shell : shells()) {
        const auto cwd = fs::current_path();
        fs::current_path(root);
        const auto output = runScript(shell, cs.script);
        fs::current_path(cwd);
        FileBundle remote;
        std::string error;
        ASSERT_TRUE(parseCollectOutput(output, cs.token, remote, &error)) << shell << ": " << error;
        for (int i = 1; i <= 4; ++i)
            EXPECT_FALSE(fs::exists(root / ("PWNED" + std::to_string(i)))) << shell;
        EXPECT_EQ(diff(collectLocal(root), remote), "") << shell;
        ASSERT_NE(remote.file("sys/class/net/$(touch PWNED1)/mtu"), nullptr) << shell;
        EXPECT_EQ(*remote.file("sys/class/net/`touch PWNED2`/queues/rx-0/rps_cpus"), "f\n");
        EXPECT_EQ(remote.get("sys/class/net/new\nline/mtu"), nullptr); // not a kernel name
        ASSERT_NE(remote.link("sys/class/net/a;touch PWNED3/device"), nullptr) << shell;
        EXPECT_EQ(*remote.link("sys/class/net/a;touch PWNED3/device"),
                  "../../devices/a;touch PWNED3/$(touch PWNED4)");
    }
}

TEST(CollectScript, RootPrefixIsQuoted) {
    const auto root = fs::path(CORESTEER_TEST_TMP) / "it's $(touch PWNED) dir";
    fs::create_directories(root / "proc");
    std::ofstream(root / "proc/interrupts") << "           CPU0\n  1:  5  GIC 1 Level  x\n";
    const auto cs = makeCollectScript(root.string() + "/");
    const auto output = runScript("/bin/sh", cs.script);
    FileBundle b;
    std::string error;
    ASSERT_TRUE(parseCollectOutput(output, cs.token, b, &error)) << error;
    ASSERT_NE(b.file("proc/interrupts"), nullptr);
    EXPECT_FALSE(fs::exists(fs::current_path() / "PWNED"));
}

TEST(CollectScript, CutOrForgedOutputIsRejected) {
    const auto root = (test::boardDir("nanopi-r4s")).string();
    const auto cs = makeCollectScript(root);
    const auto output = runScript("/bin/sh", cs.script);
    std::string error;
    for (std::size_t cut : {std::size_t{0}, output.size() / 3, output.size() - 3}) {
        FileBundle b;
        EXPECT_FALSE(parseCollectOutput(output.substr(0, cut), cs.token, b, &error)) << cut;
        EXPECT_NE(error.find("cut short"), std::string::npos) << error;
    }
    FileBundle b;
    EXPECT_FALSE(parseCollectOutput(output, "@@cs0000", b, &error)); // another run's token
    const std::string forged =
        cs.token + " F ../../etc/shadow\nroot:x\n\n" + cs.token + " E\n" + cs.token + " DONE\n";
    FileBundle f;
    EXPECT_FALSE(parseCollectOutput(forged, cs.token, f, &error));
    EXPECT_NE(error.find("unexpected path"), std::string::npos);
}

TEST(CollectScript, TokensDiffer) {
    EXPECT_NE(makeCollectScript("/").token, makeCollectScript("/").token);
    EXPECT_GE(makeCollectScript("/").token.size(), 32u);
}

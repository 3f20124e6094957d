// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// coresteer-cli snapshot: exit codes, JSON, and the real binary on this machine's own root.
#include "cli/cli.h"
#include "core/collect/capture.h"
#include "core/live/recording.h"
#include "tests/support/board_expect.h"
#include "tests/support/cpufreq_policy.h"
#include "tests/support/loopback_port.h"
#include "tests/support/web_server.h"
#include "tests/unit/live/ten_seconds.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <arpa/inet.h>
#include <array>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <netinet/in.h>
#include <sstream>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace coresteer;
using namespace coresteer::live;
namespace fs = std::filesystem;

namespace {

struct Result {
    int code;
    std::string out, err;
};

Result cli(std::vector<std::string> args) {
    std::ostringstream out, err;
    const int code = runCli(args, out, err);
    return {code, out.str(), err.str()};
}

// Runs the built binary; stdout only.
Result binary(const std::string& args) {
    const std::string cmd = std::string(CORESTEER_CLI) + " " + args + " 2>/dev/null";
    FILE* p = ::popen(cmd.c_str(), "r");
    std::string out;
    std::array<char, 65536> buf{};
    std::size_t n;
    while ((n = std::fread(buf.data(), 1, buf.size(), p)) > 0)
        out.append(buf.data(), n);
    const int status = ::pclose(p);
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out, {}};
}

} // namespace

TEST(Cli, UsageErrorsExitTwo) {
    EXPECT_EQ(cli({}).code, 2);
    EXPECT_EQ(cli({"frobnicate"}).code, 2);
    EXPECT_EQ(cli({"snapshot"}).code, 2);
    EXPECT_EQ(cli({"snapshot", "--root"}).code, 2);
    const auto r = cli({"snapshot", "--root", "/nonexistent/dir"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("not a directory"), std::string::npos);
    EXPECT_TRUE(r.out.empty());
    EXPECT_EQ(cli({"--help"}).code, 0);
    EXPECT_NE(cli({"--version"}).out.find("coresteer-cli"), std::string::npos);
    // Several routers: only apply takes them.
    const auto many = cli({"snapshot", "ssh://a", "ssh://b"});
    EXPECT_EQ(many.code, 2);
    EXPECT_NE(many.err.find("only apply takes several targets"), std::string::npos) << many.err;
    EXPECT_NE(cli({"diff", "--root", "/", "--inventory", "x", "l.json"})
                  .err.find("argument was not expected: --inventory"),
              std::string::npos);
    EXPECT_NE(cli({"frobnicate"}).err.find("unknown command 'frobnicate'"), std::string::npos);
    EXPECT_NE(cli({"monitor", "--root", "/", "--rate", "30"}).err.find("--rate: Value 30 not in"),
              std::string::npos);
    EXPECT_NE(cli({"apply", "--root", "/", "--no-confirm", "--no-revert", "l.json"})
                  .err.find("--no-confirm excludes --no-revert"),
              std::string::npos);
    const auto both =
        cli({"persist", "--root", "/", "--irqbalance-ban", "--disable-irqbalance", "l.json"});
    EXPECT_EQ(both.code, 2);
    EXPECT_NE(both.err.find("--disable-irqbalance excludes --irqbalance-ban"), std::string::npos)
        << both.err;
    EXPECT_NE(cli({"snapshot", "--help"}).out.find("Usage: coresteer-cli snapshot"),
              std::string::npos);
    EXPECT_EQ(cli({"--version"}).out.rfind("coresteer-cli 0.", 0), 0u);
    EXPECT_NE(cli({"apply", "ssh://a", "l.json", "--parallel", "0"}).err.find("1 to 64"),
              std::string::npos);
    EXPECT_NE(cli({"apply", "ssh://a", "l.json", "--inventory-group", "g"})
                  .err.find("--inventory-group needs --inventory"),
              std::string::npos);
    const auto inv = cli({"apply", "--inventory", "/nonexistent/hosts", "l.json"});
    EXPECT_EQ(inv.code, 2);
    EXPECT_NE(inv.err.find("l.json: cannot read"), std::string::npos) << inv.err;
    // export ansible
    EXPECT_NE(cli({"export"}).err.find("A subcommand is required"), std::string::npos);
    EXPECT_NE(cli({"export", "ansible"}).err.find("--preset is required"), std::string::npos);
    EXPECT_NE(cli({"export", "ansible", "--preset", "/nonexistent.json"}).err.find("cannot read"),
              std::string::npos);
}

// --verbose says what happens, by category, on stderr; without it nothing of the kind.
TEST(Cli, VerboseLogsByCategory) {
    const auto root = (test::boardDir("bpi-r4")).string();
    const auto quiet = cli({"snapshot", "--root", root});
    EXPECT_EQ(quiet.err.find("[coresteer."), std::string::npos) << quiet.err;
    for (const auto& args : {std::vector<std::string>{"snapshot", "--root", root, "--verbose"},
                             std::vector<std::string>{"--verbose", "snapshot", "--root", root}}) {
        const auto loud = cli(args);
        EXPECT_EQ(loud.code, 0);
        EXPECT_EQ(loud.out, quiet.out);
        EXPECT_NE(loud.err.find("coresteer-cli: [coresteer.collect] " + root + ": read "),
                  std::string::npos)
            << loud.err;
    }
    // And off again for the next command in this process.
    EXPECT_EQ(cli({"snapshot", "--root", root}).err.find("[coresteer."), std::string::npos);
}

// The preset's own board, its group, and what the playbook carries; and to a file, whole.
TEST(Cli, ExportAnsibleWritesAPlaybook) {
    const auto preset = std::string(CORESTEER_PRESETS_DIR) + "/nanopi-r4s-starwhiz.json";
    const auto r = cli({"export", "ansible", "--preset", preset, "--inventory-group", "r4s"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.out.rfind("---\n# Generated by coresteer", 0), 0u);
    EXPECT_NE(r.out.find("\n  hosts: r4s\n"), std::string::npos);
    EXPECT_NE(r.out.find("BOARD='friendlyarm,nanopi-r4s'"), std::string::npos);
    const auto file = fs::path(CORESTEER_TEST_TMP) / "export.yml";
    fs::create_directories(file.parent_path());
    const auto w = cli(
        {"export", "ansible", "--preset", preset, "--inventory-group", "r4s", "-o", file.string()});
    ASSERT_EQ(w.code, 0) << w.err;
    EXPECT_TRUE(w.out.empty());
    EXPECT_EQ(test::slurp(file).size(), r.out.size());
    EXPECT_FALSE(fs::exists(file.string() + ".part"));
    // A link planted at a name beside the file is never written through.
    const auto victim = file.parent_path() / "victim";
    std::ofstream(victim, std::ios::trunc) << "precious\n";
    fs::remove(file);
    fs::create_symlink(victim, file.string() + ".part");
    ASSERT_EQ(cli({"export", "ansible", "--preset", preset, "-o", file.string()}).code, 0);
    EXPECT_EQ(test::slurp(victim), "precious\n");
    EXPECT_FALSE(fs::is_symlink(file));
    EXPECT_EQ(test::slurp(file).rfind("---\n", 0), 0u);
    fs::remove(file.string() + ".part");
    EXPECT_NE(cli({"export", "ansible", "--preset", preset, "--inventory-group", "a-b"})
                  .err.find("not an inventory group name"),
              std::string::npos);
    // irqbalance: banned where a router has it, or stopped; not both.
    const auto ban = cli({"export", "ansible", "--preset", preset, "--irqbalance-ban"});
    ASSERT_EQ(ban.code, 0) << ban.err;
    EXPECT_NE(ban.out.find("# Persist bans the layout's IRQs in irqbalance where a router has it"),
              std::string::npos);
    EXPECT_EQ(r.out.find("irqbalance where a router has it"), std::string::npos);
    const auto both =
        cli({"export", "ansible", "--preset", preset, "--irqbalance-ban", "--disable-irqbalance"});
    EXPECT_NE(both.code, 0);
    EXPECT_NE(both.err.find("excludes"), std::string::npos) << both.err;
}

TEST(Cli, EveryBoardGivesACompleteJsonSnapshot) {
    for (const auto& b : test::boardNames()) {
        const auto root = (test::boardDir(b)).string();
        const auto r = cli({"snapshot", "--root", root, "--json"});
        EXPECT_EQ(r.code, 0) << b << "\n" << r.err;
        const auto j = nlohmann::json::parse(r.out);
        EXPECT_EQ(j["schema"], "coresteer.snapshot/1");
        EXPECT_EQ(j["origin"], root);
        EXPECT_TRUE(j["diagnostics"].empty()) << b;
        const auto x = test::readExpect(b);
        EXPECT_EQ(static_cast<int>(j["topology"]["cpus"].size()) >= x.cpus, true) << b;
        // The same command twice prints the same document.
        EXPECT_EQ(cli({"snapshot", "--root", root, "--json"}).out, r.out) << b;
    }
}

TEST(Cli, TextReportNamesInterfacesAndMasks) {
    const auto root = (test::boardDir("nanopi-r6s-openwrt")).string();
    const auto r = cli({"snapshot", "--root=" + root});
    EXPECT_EQ(r.code, 0) << r.err;
    for (const char* s : {"LITTLE", "big", "eth1", "IRQ 96", "smp_affinity 40 (6)", "rps_cpus"})
        EXPECT_NE(r.out.find(s), std::string::npos) << s << "\n" << r.out;
}

TEST(Cli, PartialRootExitsOneWithWarningsOnStderr) {
    const auto r = cli({"snapshot", "--root", (test::boardDir("..") / "partial").string()});
    EXPECT_EQ(r.code, 1) << r.out;
    EXPECT_NE(r.err.find("proc/softirqs: warning: missing"), std::string::npos) << r.err;
}

TEST(Cli, ThisMachineReadOnly) {
    const auto r = binary("snapshot --root / --json");
    EXPECT_TRUE(r.code == 0 || r.code == 1) << r.code;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_GE(j["topology"]["cpus"].size(), 1u);
    EXPECT_FALSE(j["irqs"].empty());
    EXPECT_FALSE(j["system"]["kernel"].get<std::string>().empty());
}

TEST(Cli, PlanJsonIsALayoutThatDiffAccepts) {
    const auto root = (test::boardDir("nanopi-r6s-friendlywrt")).string();
    const auto plan = cli({"plan", "--root", root, "--json"});
    ASSERT_EQ(plan.code, 0) << plan.err;
    const auto dir = std::filesystem::path(CORESTEER_TEST_TMP) / "cli-plan";
    std::filesystem::create_directories(dir);
    const auto file = (dir / "layout.json").string();
    std::ofstream(file) << plan.out;
    const auto diff = cli({"diff", "--root", root, file, "--json"});
    ASSERT_EQ(diff.code, 0) << diff.err;
    const auto j = nlohmann::json::parse(diff.out);
    EXPECT_TRUE(j["not_applicable"].empty());
    EXPECT_FALSE(j["changes"].empty());
    bool eth1Irq = false;
    for (const auto& c : j["changes"])
        eth1Irq = eth1Irq || (c["target"] == "IRQ 141 (eth1)" && c["value"] == "04");
    EXPECT_TRUE(eth1Irq) << diff.out;
    // The text forms explain themselves.
    const auto text = cli({"plan", "--root", root});
    EXPECT_NE(text.out.find("receive processing (RPS) on big CPU4"), std::string::npos) << text.out;
    // A layout for another board: what does not apply is listed, and the exit code says so.
    const auto other = cli({"diff", "--root", (test::boardDir("bpi-r4")).string(), file});
    EXPECT_EQ(other.code, 1);
    EXPECT_NE(other.out.find("cannot apply: no IRQ with this name here"), std::string::npos)
        << other.out;
    const auto bad = cli({"diff", "--root", root, "/nonexistent.json"});
    EXPECT_EQ(bad.code, 2);
}

// plan --governor: which governor a slow cpufreq policy under the network work gets, or none.
TEST(Cli, PlanGovernorChoosesWhatASlowPolicyGets) {
    const auto root = test::boardWithCpufreqPolicy(
        test::boardDir("bpi-r4"), std::filesystem::path(CORESTEER_TEST_TMP) / "cli-governor",
        "powersave", "powersave performance schedutil");
    auto governors = [&](const std::vector<std::string>& extra) {
        std::vector<std::string> args{"plan", "--root", root.string(), "--json"};
        args.insert(args.end(), extra.begin(), extra.end());
        const auto r = cli(args);
        EXPECT_EQ(r.code, 0) << r.err;
        const auto j = nlohmann::json::parse(r.out);
        std::string out;
        for (const auto& g : j.value("cpufreq", nlohmann::json::array()))
            out += std::to_string(g["policy"].get<int>()) + ":" + g["governor"].get<std::string>();
        return out;
    };
    EXPECT_EQ(governors({}), "0:schedutil");
    EXPECT_EQ(governors({"--governor", "performance"}), "0:performance");
    EXPECT_EQ(governors({"--governor", "keep"}), "");
    EXPECT_EQ(cli({"plan", "--root", root.string(), "--governor", "ondemand"}).code, 2);
    const auto text = cli({"plan", "--root", root.string()});
    EXPECT_NE(text.out.find("cpufreq policy0 governor: sys/devices/system/cpu/cpufreq/policy0/"
                            "scaling_governor powersave -> schedutil"),
              std::string::npos)
        << text.out;
}

TEST(Cli, PresetSaveAndLoadAcrossBoards) {
    const auto dir = std::filesystem::path(CORESTEER_TEST_TMP) / "cli-preset";
    std::filesystem::create_directories(dir);
    const auto file = (dir / "r4s.json").string();
    const auto r4s = (test::boardDir("nanopi-r4s")).string();
    const auto save = cli({"preset", "save", "--root", r4s, file});
    ASSERT_EQ(save.code, 0) << save.err;
    EXPECT_NE(save.out.find("Saved 2 IRQs"), std::string::npos) << save.out;
    // On the board it was saved from, nothing changes and everything applies.
    const auto same = cli({"preset", "load", file, "--root", r4s});
    EXPECT_EQ(same.code, 0) << same.err;
    EXPECT_NE(same.out.find("0 of 8 values change"), std::string::npos) << same.out;
    // On another board: it says so, and lists what does not apply.
    const auto other = cli({"preset", "load", file, "--root", (test::boardDir("bpi-r4")).string()});
    EXPECT_EQ(other.code, 1);
    EXPECT_NE(other.out.find("made on friendlyarm,nanopi-r4s; this is bananapi,bpi-r4"),
              std::string::npos)
        << other.out;
    EXPECT_NE(other.out.find("cannot apply"), std::string::npos);
    // Built-in presets are accepted wherever a layout is.
    const auto builtin = cli({"diff", "--root", (test::boardDir("nanopi-r6s-friendlywrt")).string(),
                              std::string(CORESTEER_PRESETS_DIR) + "/nanopi-r6s-option1.json"});
    EXPECT_EQ(builtin.code, 0) << builtin.out << builtin.err;
    EXPECT_EQ(cli({"preset", "save", "--root", r4s}).code, 2);
    EXPECT_EQ(cli({"preset", "frobnicate"}).code, 2);
}

// monitor on this machine: one JSON object per sample with every online CPU, CSV rows with the
// documented header, and usage errors for out-of-range rates and durations.
TEST(Cli, MonitorStreamsSamplesOfThisMachine) {
    const auto j = binary("monitor --root / --rate 10 --duration 1 --json");
    ASSERT_EQ(j.code, 0);
    std::istringstream lines(j.out);
    std::string line;
    int samples = 0;
    while (std::getline(lines, line)) {
        const auto s = nlohmann::json::parse(line);
        EXPECT_GT(s["seconds"].get<double>(), 0.0);
        EXPECT_FALSE(s["cores"].empty());
        for (const auto& c : s["cores"]) {
            EXPECT_GE(c["busy"].get<double>(), 0.0);
            EXPECT_LE(c["busy"].get<double>(), 1.0 + 1e-9);
        }
        ++samples;
    }
    EXPECT_GE(samples, 5);
    EXPECT_LE(samples, 10);
    const auto csv = binary("monitor --root / --rate 5 --duration 0.5 --csv");
    ASSERT_EQ(csv.code, 0);
    EXPECT_EQ(csv.out.rfind("uptime,metric,target,cpu,value\n", 0), 0u);
    EXPECT_NE(csv.out.find(",busy,,0,"), std::string::npos);
    EXPECT_EQ(cli({"monitor", "--root", "/", "--rate", "0"}).code, 2);
    EXPECT_EQ(cli({"monitor", "--root", "/", "--rate", "2.5"}).code, 2);
    EXPECT_EQ(cli({"monitor", "--root", "/", "--duration", "-1"}).code, 2);
    EXPECT_EQ(cli({"monitor", "--root", "/", "--csv", "--json"}).code, 2);
    // A tree without /proc/uptime is an error that names it.
    const auto bad =
        cli({"monitor", "--root", (test::boardDir("bpi-r4")).string(), "--duration", "0.2"});
    EXPECT_EQ(bad.code, 2);
    EXPECT_NE(bad.err.find("proc/uptime"), std::string::npos) << bad.err;
}

// The grade in the summary's JSON: the idle and loaded medians, the increase, the 95th
// percentile under load and its increase, as scripts compare layouts by them.
TEST(Cli, RecordingSummaryGivesTheGradeAndItsPercentile) {
    const auto dir = fs::path(CORESTEER_TEST_TMP) / "cli-grade";
    fs::remove_all(dir);
    fs::create_directories(dir);
    const auto file = (dir / "ten-seconds.csrec").string();
    std::ofstream(file, std::ios::binary) << test::tenSeconds().text();
    const auto s = cli({"recording", "summary", "--json", file});
    ASSERT_EQ(s.code, 0) << s.err;
    const auto j = nlohmann::json::parse(s.out)["latency"];
    EXPECT_DOUBLE_EQ(j["idle_ms"].get<double>(), 10.0);
    EXPECT_DOUBLE_EQ(j["loaded_ms"].get<double>(), 50.0);
    EXPECT_DOUBLE_EQ(j["increase_ms"].get<double>(), 40.0);
    EXPECT_DOUBLE_EQ(j["p95_loaded_ms"].get<double>(), 50.0);
    EXPECT_DOUBLE_EQ(j["p95_increase_ms"].get<double>(), 40.0);
    EXPECT_EQ(j["grade"], "B");
    const auto text = cli({"recording", "summary", file});
    EXPECT_NE(text.out.find("95th percentile 50.0 ms, +40.0 ms"), std::string::npos) << text.out;
}

// monitor --record writes a recording that the recording verbs read: a summary, CSV rows and a
// side-by-side comparison.
TEST(Cli, MonitorRecordsAndTheRecordingVerbsReadIt) {
    const auto dir = fs::path(CORESTEER_TEST_TMP) / "cli-recording";
    fs::remove_all(dir);
    fs::create_directories(dir);
    const auto file = (dir / "this-machine.csrec").string();
    const auto m = binary("monitor --root / --rate 10 --duration 1 --json --record " + file);
    ASSERT_EQ(m.code, 0) << m.err;
    const auto s = binary("recording summary --json " + file);
    ASSERT_EQ(s.code, 0) << s.err;
    const auto j = nlohmann::json::parse(s.out);
    EXPECT_EQ(j["label"], "/");
    EXPECT_EQ(j["hz"], 10);
    EXPECT_GE(j["ticks"].get<int>(), 5);
    EXPECT_FALSE(j["cores"].empty());
    for (const auto& c : j["cores"]) {
        EXPECT_GE(c["busy_mean"].get<double>(), 0.0);
        EXPECT_LE(c["busy_peak"].get<double>(), 1.0 + 1e-9);
    }
    const auto csv = binary("recording csv " + file);
    ASSERT_EQ(csv.code, 0) << csv.err;
    EXPECT_EQ(csv.out.rfind("t_s,uptime_s,cpu0_busy_pct,", 0), 0u) << csv.out.substr(0, 200);
    EXPECT_EQ(std::count(csv.out.begin(), csv.out.end(), '\n'), j["ticks"].get<int>() + 1);
    const auto cmp = binary("recording compare " + file + " " + file);
    ASSERT_EQ(cmp.code, 0) << cmp.err;
    EXPECT_NE(cmp.out.find("this-machine.csrec"), std::string::npos) << cmp.out;
    EXPECT_NE(cmp.out.find("cpu0 busy, mean"), std::string::npos) << cmp.out;
    // The recording holds this machine's snapshot.
    std::string error;
    const auto rec = loadRecording(file, &error);
    ASSERT_TRUE(rec) << error;
    EXPECT_TRUE(readCapture(rec->info.capture, &error)) << error;
    EXPECT_NE(rec->info.layout.find("coresteer.layout/1"), std::string::npos);
    // Not a recording: an error naming the file.
    const auto bad = cli({"recording", "summary", (dir / "nothing").string()});
    EXPECT_EQ(bad.code, 2);
    EXPECT_NE(bad.err.find("nothing: cannot be read"), std::string::npos) << bad.err;
    std::ofstream(dir / "text") << "hello\n";
    const auto notOne = cli({"recording", "csv", (dir / "text").string()});
    EXPECT_EQ(notOne.code, 2);
    EXPECT_NE(notOne.err.find("text: not a coresteer recording"), std::string::npos) << notOne.err;
    EXPECT_EQ(cli({"recording", "compare", file}).code, 2);
    EXPECT_EQ(cli({"recording", "play", file}).code, 2);
}

// Names a router controls reach the user's terminal escaped: an escape sequence in an IRQ name
// or the hostname cannot retitle, clear or recolour it. JSON keeps its own escapes and the
// names whole.
TEST(Cli, TextOutputCannotDriveTheTerminal) {
    const auto dir = fs::path(CORESTEER_TEST_TMP) / "terminal";
    fs::remove_all(dir);
    fs::create_directories(dir);
    const auto root = dir / "root";
    fs::copy(test::boardDir("bpi-r4"), root,
             fs::copy_options::recursive | fs::copy_options::copy_symlinks);
    const std::string evil = "\x1b]0;pwned\x07\x1b[2J\xc2\x9b"
                             "31m\x7f";
    auto interrupts = test::slurp(root / "proc/interrupts");
    const auto at = interrupts.find("Level     ttyS0");
    ASSERT_NE(at, std::string::npos);
    interrupts.insert(at + 15, evil);
    std::ofstream(root / "proc/interrupts", std::ios::trunc) << interrupts;
    std::ofstream(root / "proc/sys/kernel/hostname", std::ios::trunc) << "r" << evil << "\n";
    for (const auto& verb : {"snapshot", "plan", "capture"}) {
        SCOPED_TRACE(verb);
        std::vector<std::string> args = {verb, "--root", root.string()};
        if (std::string(verb) == "capture")
            args.push_back((dir / "c.cap").string());
        const auto r = cli(args);
        for (const auto* s : {&r.out, &r.err}) {
            EXPECT_EQ(s->find('\x1b'), std::string::npos) << *s;
            EXPECT_EQ(s->find('\x07'), std::string::npos) << *s;
            EXPECT_EQ(s->find("\xc2\x9b"), std::string::npos) << *s;
            EXPECT_EQ(s->find('\x7f'), std::string::npos) << *s;
        }
        if (std::string(verb) == "snapshot") {
            EXPECT_NE(r.out.find("r\\x1b]0;pwned\\x07\\x1b[2J\\xc2\\x9b31m\\x7f\n"),
                      std::string::npos)
                << r.out;
        }
    }
    // A shared preset's board and name, shown by diff and preset load.
    const auto preset = dir / "evil.json";
    std::ofstream(preset) << "{\"schema\": \"coresteer.preset/1\", \"name\": \"n\\u001b[2J\", "
                             "\"board\": \"b\\u001b]0;x\\u0007\\u009b\", \"note\": \"x\", "
                             "\"layout\": {\"rx_queues\": [{\"interface\": \"eth0\", \"queue\": 0, "
                             "\"rps_cpus\": \"1\"}]}}\n";
    for (const auto& args :
         {std::vector<std::string>{"diff", "--root", root.string(), preset.string()},
          std::vector<std::string>{"preset", "load", preset.string(), "--root", root.string()}}) {
        const auto r = cli(args);
        EXPECT_EQ(r.code, 0) << r.err;
        EXPECT_NE(r.out.find("made on b\\x1b]0;x\\x07\\xc2\\x9b;"), std::string::npos) << r.out;
        EXPECT_EQ((r.out + r.err).find('\x1b'), std::string::npos);
        EXPECT_EQ((r.out + r.err).find('\x07'), std::string::npos);
    }
    // The binary too, through its real stdout.
    const auto b = binary("snapshot --root '" + root.string() + "'");
    EXPECT_EQ(b.out.find('\x1b'), std::string::npos);
    EXPECT_NE(b.out.find("\\x1b]0;pwned"), std::string::npos);
    // JSON: valid, the name whole.
    const auto j = cli({"snapshot", "--root", root.string(), "--json"});
    const auto doc = nlohmann::json::parse(j.out);
    EXPECT_EQ(doc.dump().find('\x1b'), std::string::npos);
    EXPECT_NE(j.out.find("ttyS0\\u001b]0;pwned"), std::string::npos);
}

// The demo router as a TARGET: the GUI's demo, laid out in a directory of the CLI's own (gone
// when it ends), its model's counters moving. `monitor demo --bufferbloat` runs the model's
// test (idle, download, upload, both) and grades the latency the model gives, per phase.
TEST(Cli, TheDemoIsATargetAndRunsItsBufferbloatTest) {
    const auto dir = fs::path(CORESTEER_TEST_TMP) / "cli-demo";
    fs::remove_all(dir);
    fs::create_directories(dir);
    const auto snap = cli({"snapshot", "demo"});
    ASSERT_EQ(snap.code, 0) << snap.err;
    EXPECT_NE(snap.out.find("eth2"), std::string::npos) << snap.out.substr(0, 400);
    const auto file = (dir / "demo.csrec").string();
    const auto m = cli(
        {"monitor", "demo", "--bufferbloat", "--phase-seconds", "1", "--record", file, "--json"});
    ASSERT_EQ(m.code, 0) << m.err;
    EXPECT_NE(m.err.find("latency: "), std::string::npos) << m.err;
    EXPECT_NE(m.err.find("(probe demo)"), std::string::npos) << m.err;
    const auto s = cli({"recording", "summary", "--json", file});
    ASSERT_EQ(s.code, 0) << s.err;
    const auto j = nlohmann::json::parse(s.out);
    EXPECT_EQ(j["label"], "demo");
    EXPECT_EQ(j["latency"]["probe"], "demo");
    // The default layout saturates a LITTLE core: the queue before it adds tens of ms.
    EXPECT_GT(j["latency"]["increase_ms"].get<double>(), 25.0) << j["latency"].dump();
    const auto& phases = j["by_probe"]["demo"]["phases"];
    for (const char* p : {"download", "upload", "both"}) {
        ASSERT_TRUE(phases.contains(p)) << phases.dump();
        EXPECT_TRUE(phases[p].contains("p95_increase_ms"));
    }
    ASSERT_EQ(j["phases"].size(), 3u) << j["phases"].dump();
    EXPECT_EQ(j["phases"][0]["name"], "download");
    // Nothing of the demo's copy is left behind.
    const char* tmp = std::getenv("TMPDIR");
    for (const auto& e : fs::directory_iterator(tmp && *tmp ? tmp : "/tmp"))
        EXPECT_EQ(e.path().filename().string().rfind("coresteer-demo-", 0), std::string::npos)
            << e.path();
}

// A bufferbloat test headless against real parts: an iperf3 server on 127.0.0.1 (the load's
// far end) and 127.0.0.1 as the host probed beyond the router, by ICMP echo; each phase has its
// throughput, each probe its grade per phase. What it needs is checked before anything runs.
TEST(Cli, BufferbloatRunsIperf3InPhasesAndProbesBeyondTheRouter) {
    const auto dir = fs::path(CORESTEER_TEST_TMP) / "cli-bufferbloat";
    fs::remove_all(dir);
    fs::create_directories(dir);
    const auto file = (dir / "test.csrec").string();
    // Refused before anything is contacted.
    auto refused = [&](std::vector<std::string> args, const std::string& why) {
        const auto r = cli(args);
        EXPECT_EQ(r.code, 2) << why;
        EXPECT_NE(r.err.find(why), std::string::npos) << r.err;
    };
    refused({"monitor", "--root", "/", "--bufferbloat"}, "needs --record FILE");
    refused({"monitor", "--root", "/", "--bufferbloat", "--record", file, "--load",
             "ftp://127.0.0.1/big"},
            "--load takes iperf3://HOST[:PORT] (an iperf3 server beyond the router) or an "
            "http:// or https:// URL, not 'ftp://127.0.0.1/big'");
    refused({"monitor", "--root", "/", "--bufferbloat", "--record", file, "--load",
             "iperf3://127.0.0.1", "--post-url", "http://127.0.0.1/up"},
            "--post-url and --ca-file go with an HTTP(S) --load");
    refused({"monitor", "--root", "/", "--bufferbloat", "--record", file, "--load",
             "iperf3://127.0.0.1", "--load", "http://127.0.0.1/big"},
            "takes one iperf3:// --load, or http(s) URLs, not both");
    refused({"monitor", "--root", "/", "--bufferbloat", "--record", file, "--load",
             "http://127.0.0.1/big", "--post-url", "http://u:p@127.0.0.1/up"},
            "--post-url: load URL 'http://u:p@127.0.0.1/up': a user or password");
    refused({"monitor", "--root", "/", "--bufferbloat", "--record", file, "--probe", "-c1"},
            "--probe takes a host name or address, not '-c1'");
    refused({"monitor", "--root", "/", "--probe", "127.0.0.1"}, "go with --bufferbloat");
    refused({"monitor", "--root", "/", "--bufferbloat", "--record", file, "--load",
             "iperf3://127.0.0.1", "--congestion", "cubic;reboot"},
            "--congestion takes a congestion control's name, not 'cubic;reboot'");
    EXPECT_FALSE(fs::exists(file));

    const int port = coresteer::test::freeLoopbackPort();
    ASSERT_GT(port, 0);
    const auto pidFile = (dir / "iperf3.pid").string();
    ASSERT_EQ(std::system(("iperf3 --server --bind 127.0.0.1 --port " + std::to_string(port) +
                           " --daemon --pidfile " + pidFile)
                              .c_str()),
              0)
        << "iperf3 is not installed";
    ::usleep(300000);
    const auto r = cli({"monitor", "--root", "/", "--bufferbloat", "--load",
                        "iperf3://127.0.0.1:" + std::to_string(port), "--probe", "127.0.0.1",
                        "--phase-seconds", "2", "--record", file, "--json"});
    std::ifstream pid(pidFile);
    long long p = 0;
    pid >> p;
    if (p > 0)
        ::kill(static_cast<pid_t>(p), SIGTERM);
    ASSERT_EQ(r.code, 0) << r.err;
    const auto s = cli({"recording", "summary", "--json", file});
    ASSERT_EQ(s.code, 0) << s.err;
    const auto j = nlohmann::json::parse(s.out);
    ASSERT_EQ(j["phases"].size(), 3u) << j["phases"].dump();
    const char* names[] = {"download", "upload", "both"};
    for (std::size_t i = 0; i < 3; ++i) {
        const auto& ph = j["phases"][i];
        EXPECT_EQ(ph["name"], names[i]);
        EXPECT_NEAR(ph["seconds"].get<double>(), 2.0, 0.5) << ph.dump();
        ASSERT_TRUE(ph.contains("down_bps_mean")) << "no iperf3 report in " << ph.dump();
    }
    EXPECT_GT(j["phases"][0]["down_bps_mean"].get<double>(), 10e6);
    EXPECT_GT(j["phases"][1]["up_bps_mean"].get<double>(), 10e6);
    EXPECT_GT(j["phases"][2]["down_bps_mean"].get<double>(), 10e6);
    EXPECT_GT(j["phases"][2]["up_bps_mean"].get<double>(), 10e6);
    EXPECT_EQ(j["latency"]["probe"], "127.0.0.1");
    const auto& beyond = j["by_probe"]["127.0.0.1"];
    EXPECT_GT(beyond["probes"].get<int>(), 50);
    for (const char* name : names)
        EXPECT_TRUE(beyond["phases"].contains(name)) << beyond.dump();
    EXPECT_LT(beyond["idle_ms"].get<double>(), 3.0); // loopback
}

// HTTP(S) load headless, as the web's tests make it, against a real web server on 127.0.0.1
// with a certificate of its own CA (--ca-file): downloads and POST uploads in the three phases;
// without --post-url, one download phase and the end; a URL that does not serve is said.
TEST(Cli, BufferbloatLoadsOverHttpsWithoutAnIperf3Server) {
    const auto dir = fs::path(CORESTEER_TEST_TMP) / "cli-bufferbloat-http";
    fs::remove_all(dir);
    coresteer::test::WebServer web(dir / "tls", true);
    ASSERT_TRUE(web.running());
    const auto file = (dir / "test.csrec").string();
    auto summary = [&] {
        const auto s = cli({"recording", "summary", "--json", file});
        EXPECT_EQ(s.code, 0) << s.err;
        return nlohmann::json::parse(s.out);
    };
    auto r = cli({"monitor", "--root", "/", "--bufferbloat", "--load", web.url("/bytes/4000000"),
                  "--load", web.url("/redirect/3000000"), "--post-url", web.url("/sink"),
                  "--ca-file", web.caFile(), "--phase-seconds", "1.5", "--record", file, "--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    auto j = summary();
    ASSERT_EQ(j["phases"].size(), 3u) << j["phases"].dump();
    EXPECT_GT(j["phases"][0]["down_bps_mean"].get<double>(), 10e6) << j["phases"].dump();
    EXPECT_GT(j["phases"][1]["up_bps_mean"].get<double>(), 10e6) << j["phases"].dump();
    EXPECT_GT(j["phases"][2]["down_bps_mean"].get<double>(), 10e6) << j["phases"].dump();
    EXPECT_GT(j["phases"][2]["up_bps_mean"].get<double>(), 10e6) << j["phases"].dump();

    fs::remove(file);
    r = cli({"monitor", "--root", "/", "--bufferbloat", "--load", web.url("/bytes/4000000"),
             "--ca-file", web.caFile(), "--phase-seconds", "1.5", "--record", file, "--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    j = summary();
    ASSERT_EQ(j["phases"].size(), 1u) << j["phases"].dump();
    EXPECT_EQ(j["phases"][0]["name"], "download");
    EXPECT_NEAR(j["phases"][0]["seconds"].get<double>(), 1.5, 0.5) << j["phases"].dump();

    // Its certificate is checked: without its CA the load stops, and says why (within a phase
    // long enough for the handshake to fail on a machine busy with other tests).
    fs::remove(file);
    r = cli({"monitor", "--root", "/", "--bufferbloat", "--load", web.url("/bytes/4000000"),
             "--phase-seconds", "4", "--record", file});
    EXPECT_NE(r.err.find("the HTTP load stopped: " + web.url("/bytes/4000000") + ": "),
              std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("certificate"), std::string::npos) << r.err;
}

// irtt against a real `irtt server` on 127.0.0.1: the round trip and each way's delay are three
// probes of the recording, each graded; a server that is not one is refused before anything runs.
TEST(Cli, BufferbloatProbesAnIrttServerEachWay) {
    const auto dir = fs::path(CORESTEER_TEST_TMP) / "cli-bufferbloat-irtt";
    fs::remove_all(dir);
    fs::create_directories(dir);
    const auto file = (dir / "test.csrec").string();
    auto bad = cli(
        {"monitor", "--root", "/", "--bufferbloat", "--record", file, "--irtt", "-o/etc/passwd"});
    EXPECT_EQ(bad.code, 2);
    EXPECT_NE(bad.err.find("--irtt: irtt server '-o/etc/passwd'"), std::string::npos) << bad.err;
    bad = cli({"monitor", "--root", "/", "--irtt", "127.0.0.1"});
    EXPECT_NE(bad.err.find("go with --bufferbloat"), std::string::npos) << bad.err;

    const int port = coresteer::test::freeLoopbackPort();
    ASSERT_GT(port, 0);
    const auto server = "127.0.0.1:" + std::to_string(port);
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
        const int null = ::open("/dev/null", O_WRONLY);
        ::dup2(null, 1);
        ::execlp("irtt", "irtt", "server", "-b", server.c_str(), static_cast<char*>(nullptr));
        ::_exit(127);
    }
    ::usleep(400000);
    const auto r = cli({"monitor", "--root", "/", "--bufferbloat", "--irtt", server, "--duration",
                        "4", "--record", file, "--json"});
    ::kill(pid, SIGTERM);
    int status = 0;
    ::waitpid(pid, &status, 0);
    ASSERT_FALSE(WIFEXITED(status) && WEXITSTATUS(status) == 127) << "irtt is not installed";
    ASSERT_EQ(r.code, 0) << r.err;
    const auto s = cli({"recording", "summary", "--json", file});
    ASSERT_EQ(s.code, 0) << s.err;
    const auto j = nlohmann::json::parse(s.out);
    for (const char* probe : {"irtt:127.0.0.1", "irtt-up:127.0.0.1", "irtt-down:127.0.0.1"}) {
        ASSERT_TRUE(j["by_probe"].contains(probe)) << j["by_probe"].dump();
        const auto& p = j["by_probe"][probe];
        EXPECT_GT(p["probes"].get<int>(), 20) << probe << " " << p.dump();
        EXPECT_LT(p["idle_ms"].get<double>(), 5.0) << probe << " " << p.dump(); // loopback
    }
    EXPECT_EQ(j["latency"]["probe"], "irtt:127.0.0.1");
}

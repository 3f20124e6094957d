// coresteer-cli snapshot: exit codes, JSON, and the real binary on this machine's own root.
#include "board_expect.h"
#include "core/capture.h"
#include "core/cli.h"
#include "core/live/recording.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/wait.h>

using namespace coresteer;
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
}

TEST(Cli, EveryBoardGivesACompleteJsonSnapshot) {
    for (const auto& b : test::boardNames()) {
        const auto root = (test::boardsDir() / b).string();
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
    const auto root = (test::boardsDir() / "nanopi-r6s-openwrt").string();
    const auto r = cli({"snapshot", "--root=" + root});
    EXPECT_EQ(r.code, 0) << r.err;
    for (const char* s : {"LITTLE", "big", "eth1", "IRQ 96", "smp_affinity 40 (6)", "rps_cpus"})
        EXPECT_NE(r.out.find(s), std::string::npos) << s << "\n" << r.out;
}

TEST(Cli, PartialRootExitsOneWithWarningsOnStderr) {
    const auto r = cli({"snapshot", "--root", (test::boardsDir() / ".." / "partial").string()});
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
    const auto root = (test::boardsDir() / "nanopi-r6s-friendlywrt").string();
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
    const auto other = cli({"diff", "--root", (test::boardsDir() / "bpi-r4").string(), file});
    EXPECT_EQ(other.code, 1);
    EXPECT_NE(other.out.find("cannot apply: no IRQ with this name here"), std::string::npos)
        << other.out;
    const auto bad = cli({"diff", "--root", root, "/nonexistent.json"});
    EXPECT_EQ(bad.code, 2);
}

TEST(Cli, PresetSaveAndLoadAcrossBoards) {
    const auto dir = std::filesystem::path(CORESTEER_TEST_TMP) / "cli-preset";
    std::filesystem::create_directories(dir);
    const auto file = (dir / "r4s.json").string();
    const auto r4s = (test::boardsDir() / "nanopi-r4s").string();
    const auto save = cli({"preset", "save", "--root", r4s, file});
    ASSERT_EQ(save.code, 0) << save.err;
    EXPECT_NE(save.out.find("Saved 2 IRQs"), std::string::npos) << save.out;
    // On the board it was saved from, nothing changes and everything applies.
    const auto same = cli({"preset", "load", file, "--root", r4s});
    EXPECT_EQ(same.code, 0) << same.err;
    EXPECT_NE(same.out.find("0 of 8 values change"), std::string::npos) << same.out;
    // On another board: it says so, and lists what does not apply.
    const auto other =
        cli({"preset", "load", file, "--root", (test::boardsDir() / "bpi-r4").string()});
    EXPECT_EQ(other.code, 1);
    EXPECT_NE(other.out.find("made on friendlyarm,nanopi-r4s; this is bananapi,bpi-r4"),
              std::string::npos)
        << other.out;
    EXPECT_NE(other.out.find("cannot apply"), std::string::npos);
    // Built-in presets are accepted wherever a layout is.
    const auto builtin =
        cli({"diff", "--root", (test::boardsDir() / "nanopi-r6s-friendlywrt").string(),
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
        cli({"monitor", "--root", (test::boardsDir() / "bpi-r4").string(), "--duration", "0.2"});
    EXPECT_EQ(bad.code, 2);
    EXPECT_NE(bad.err.find("proc/uptime"), std::string::npos) << bad.err;
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

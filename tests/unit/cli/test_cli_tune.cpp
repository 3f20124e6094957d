// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// coresteer-cli tune: what it needs is checked before anything is contacted, and on the demo
// router (whose model forwards by the layout it holds, with noise) it names the published R6S
// layout the winner over FriendlyWrt's default, tells a placebo from noise, leaves
// the demo on its baseline, and keeps the whole run in one recording that `recording summary`
// reads back.
#include "cli/cli.h"

#include "tests/support/loopback_port.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <unistd.h>

using namespace coresteer;
namespace fs = std::filesystem;

namespace {

struct TuneRun {
    int code;
    std::string out, err;
};

TuneRun tuneCli(std::vector<std::string> args) {
    std::ostringstream out, err;
    const int code = runCli(args, out, err);
    return {code, out.str(), err.str()};
}

} // namespace

TEST(CliTune, WhatItNeedsIsCheckedFirst) {
    const auto dir = fs::path(CORESTEER_TEST_TMP) / "cli-tune-usage";
    fs::remove_all(dir);
    fs::create_directories(dir);
    const auto file = (dir / "t.csrec").string();
    auto refused = [&](std::vector<std::string> args, const std::string& why) {
        const auto r = tuneCli(args);
        EXPECT_EQ(r.code, 2) << why;
        EXPECT_NE(r.err.find(why), std::string::npos) << r.err;
    };
    refused({"tune", "demo"}, "--record is required");
    refused({"tune", "demo", "--record", file, "--phases", "download,sideways"},
            "--phases takes download, upload and both, separated by commas, not 'sideways'");
    refused({"tune", "demo", "--record", file, "--phases", "upload,upload"},
            "--phases names 'upload' twice");
    refused({"tune", "demo", "--record", file, "--objective", "speed"}, "--objective");
    refused({"tune", "demo", "--record", file, "--margin", "-1"}, "--margin");
    // A budget that cannot reach the plan's first look, before anything is applied.
    refused({"tune", "demo", "--record", file, "--budget", "30"},
            "cannot reach the first look: give it at least");
    refused({"tune", "demo", "--record", file, "--idle-seconds", "0.5"}, "--idle-seconds");
    refused({"tune", "demo", "--record", file, "--load", "http://127.0.0.1/big", "--phases",
             "download,upload"},
            "an HTTP(S) --load uploads only to a --post-url");
    refused({"tune", "demo", "--record", file, "--candidate", (dir / "none.json").string()},
            "none.json: cannot read");
    // A file that never ends is not read to its end.
    refused({"tune", "demo", "--record", file, "--candidate", "/dev/zero"},
            "/dev/zero: too large for a layout (over 1 MiB)");
    // Where the run is to be kept must be writable, before anything is contacted.
    refused({"tune", "demo", "--record", (dir / "no-such-dir" / "t.csrec").string()},
            "no-such-dir/t.csrec: cannot be written");
    refused({"tune", "demo", "--record", dir.string()}, "cannot be written");
    // irqbalance running on the router: named, and nothing is applied unless told.
    const auto busy = tuneCli({"tune", "--root", CORESTEER_FIXTURES "/boards/bpi-r4", "--record",
                               file, "--load", "iperf3://127.0.0.1:9"});
    EXPECT_EQ(busy.code, 2);
    EXPECT_NE(busy.err.find("irqbalance is running"), std::string::npos) << busy.err;
    EXPECT_NE(busy.err.find("not tuned: nothing was applied"), std::string::npos) << busy.err;
    // A router that is not the demo needs a load through it.
    refused({"tune", "--root", CORESTEER_FIXTURES "/boards/x86-virtio-lab", "--record", file},
            "tune needs a load through the router");
    EXPECT_FALSE(fs::exists(file));
}

TEST(CliTune, TheDemoNamesThePublishedLayoutAndTellsAPlaceboFromNoise) {
    const auto dir = fs::path(CORESTEER_TEST_TMP) / "cli-tune-demo";
    fs::remove_all(dir);
    fs::create_directories(dir);
    // The demo's own layout, as a file: a candidate equal to the baseline, which is left out;
    // and a placebo, the same with the idle eth1-16 and eth2-16 vectors on CPU4 and CPU5.
    const auto same = (dir / "same.json").string();
    const auto saved = tuneCli({"preset", "save", "demo", same});
    ASSERT_EQ(saved.code, 0) << saved.err;
    auto preset = nlohmann::json::parse(std::ifstream(same));
    int moved = 0;
    for (auto& irq : preset["layout"]["irqs"])
        if (irq["action"] == "eth1-16" || irq["action"] == "eth2-16") {
            irq["cpus"] = irq["action"] == "eth1-16" ? "4" : "5";
            ++moved;
        }
    ASSERT_EQ(moved, 2) << preset.dump(1);
    preset["name"] = "placebo";
    const auto placebo = (dir / "placebo.json").string();
    std::ofstream(placebo) << preset.dump(1);
    const auto file = (dir / "tune.csrec").string();
    const auto r = tuneCli({"tune",
                            "demo",
                            "--no-plan",
                            "--candidate",
                            CORESTEER_PRESETS_DIR "/nanopi-r6s-option1.json",
                            "--candidate",
                            same,
                            "--candidate",
                            placebo,
                            "--phases",
                            "download",
                            "--phase-seconds",
                            "1",
                            "--idle-seconds",
                            "1",
                            "--budget",
                            "200",
                            "--record",
                            file,
                            "--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    // Progress on stderr: the blocks and the trials.
    EXPECT_NE(r.err.find("block 1 of at most 18, trial 1 of 4"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("the plan: 9 to 18 blocks of 4 trials"), std::string::npos) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    ASSERT_EQ(j["candidates"].size(), 3u) << j.dump(1).substr(0, 2000);
    EXPECT_EQ(j["candidates"][0]["source"], "current");
    EXPECT_EQ(j["candidates"][1]["name"], "R6S option 1");
    EXPECT_EQ(j["candidates"][1]["source"], "file");
    EXPECT_EQ(j["candidates"][2]["name"], "placebo"); // named by its file's name
    EXPECT_EQ(j["candidates"][2]["source"], "file");
    EXPECT_NE(r.err.find("left out, it changes nothing on this router (it is the baseline"),
              std::string::npos)
        << r.err;
    EXPECT_EQ(j["winner"], "R6S option 1") << j["verdict"];
    EXPECT_TRUE(j["decided"].get<bool>());
    EXPECT_EQ(j["stopped"], "decided");
    EXPECT_GE(j["blocks"].get<int>(), 9);
    EXPECT_TRUE(j["baseline_restored"].get<bool>());
    EXPECT_TRUE(j["kept"].is_null());
    // The winner's download gain: its interval clear of the margin, in Mbit/s and percent.
    const auto& gain = j["candidates"][1]["gain_vs_baseline"]["download"]["bps"];
    EXPECT_GT(gain["ci95"][0].get<double>(), gain["margin"].get<double>()) << gain.dump();
    EXPECT_GT(gain["gain_pct"].get<double>(), 5.0) << gain.dump();
    EXPECT_LT(gain["ci95"][0].get<double>(), gain["ci95"][1].get<double>()); // the noise shows
    // Its latency under load is far lower: the LITTLE core no longer saturates.
    EXPECT_GT(j["candidates"][1]["gain_vs_baseline"]["download"]["latency_increase_ms"]["mean"]
                  .get<double>(),
              10.0);
    EXPECT_NE(j["verdict"].get<std::string>().find("Also beyond the margin: latency increase"),
              std::string::npos)
        << j["verdict"];
    // The placebo does not win: its gain is noise.
    EXPECT_FALSE(j["candidates"][2]["qualifies"].get<bool>());
    const auto& aa = j["candidates"][2]["gain_vs_baseline"]["download"]["bps"];
    EXPECT_LT(std::abs(aa["mean"].get<double>()), std::abs(gain["mean"].get<double>()) / 4)
        << aa.dump();
    for (const auto& c : j["candidates"])
        for (const auto& t : c["trials"]) {
            EXPECT_TRUE(t["download"]["bps"].is_number()) << t.dump();
            EXPECT_EQ(t["cores"].size(), 8u);
            EXPECT_TRUE(t["busiest_core"].is_number());
        }
    // One recording: its summary carries the tune's result, and prints its table.
    const auto s = tuneCli({"recording", "summary", "--json", file});
    ASSERT_EQ(s.code, 0) << s.err;
    const auto sj = nlohmann::json::parse(s.out);
    EXPECT_EQ(sj["tune"]["winner"], "R6S option 1");
    EXPECT_EQ(sj["tune"]["candidates"].size(), 3u);
    const auto text = tuneCli({"recording", "summary", file});
    ASSERT_EQ(text.code, 0) << text.err;
    EXPECT_NE(text.out.find("R6S option 1 wins"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("Current layout (baseline)"), std::string::npos) << text.out;
}

// A load whose server is not there: found in the 2 s before the first apply, "not measured",
// exit 2, and the recording kept.
TEST(CliTune, ALoadThatDoesNotRunIsNotMeasured) {
    const auto dir = fs::path(CORESTEER_TEST_TMP) / "cli-tune-dead";
    fs::remove_all(dir);
    fs::create_directories(dir);
    const auto file = (dir / "t.csrec").string();
    // A port nothing listens on: bound and closed at once.
    const int port = test::freeLoopbackPort();
    ASSERT_GT(port, 0);
    const auto r = tuneCli({"tune", "demo", "--no-plan", "--candidate",
                            CORESTEER_PRESETS_DIR "/nanopi-r6s-option1.json", "--load",
                            "iperf3://127.0.0.1:" + std::to_string(port), "--phases", "download",
                            "--phase-seconds", "1", "--idle-seconds", "1", "--budget", "600",
                            "--record", file, "--json"});
    EXPECT_EQ(r.code, 2) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["stopped"], "not-measured") << j["stop_reason"];
    EXPECT_NE(j["verdict"].get<std::string>().find("Not measured: the load did not run"),
              std::string::npos)
        << j["verdict"];
    EXPECT_EQ(j["verdict"].get<std::string>().find("\\n"), std::string::npos) << j["verdict"];
    EXPECT_TRUE(j["winner"].is_null());
    for (const auto& c : j["candidates"])
        EXPECT_TRUE(c["trials"].empty());
    EXPECT_TRUE(fs::exists(file));
}

// The recording is written as the run goes: the real binary, killed (SIGKILL) after its first
// whole block, leaves a recording whose summary reads the blocks it ran and says the run did
// not end.
TEST(CliTune, ARunKilledKeepsTheBlocksItRan) {
    const auto dir = fs::path(CORESTEER_TEST_TMP) / "cli-tune-killed";
    fs::remove_all(dir);
    fs::create_directories(dir);
    const auto file = (dir / "t.csrec").string();
    const auto pid = (dir / "pid").string();
    // Its private copy of the demo goes in this test's directory: a process killed so cannot
    // remove it, and other tests check that none is left in the temporary directory.
    const std::string cmd = "TMPDIR=\"" + dir.string() + "\" sh -c 'echo $$ > \"" + pid +
                            "\"; exec \"" CORESTEER_CLI
                            "\" tune demo --no-plan --candidate \"" CORESTEER_PRESETS_DIR
                            "/nanopi-r6s-option1.json\" --phases download --phase-seconds 1 "
                            "--idle-seconds 1 --budget 600 --record \"" +
                            file + "\"' > /dev/null 2> \"" + (dir / "err").string() + "\" &";
    ASSERT_EQ(std::system(cmd.c_str()), 0);
    // A block is 3 trials of about 2.5 s: the first checkpoint comes within a minute.
    for (int i = 0; i < 600 && !fs::exists(file); ++i)
        ::usleep(100000);
    ASSERT_TRUE(fs::exists(file)) << "no recording after 60 s";
    std::string text;
    std::ifstream(pid) >> text;
    ASSERT_FALSE(text.empty());
    ASSERT_EQ(::kill(std::stoi(text), SIGKILL), 0);
    for (int i = 0; i < 100 && ::kill(std::stoi(text), 0) == 0; ++i)
        ::usleep(20000); // until it is gone (std::system's shell reaps it)
    for (const auto& e : fs::directory_iterator(dir))
        if (e.path().filename().string().rfind("coresteer-demo-", 0) == 0)
            fs::remove_all(e.path());
    const auto s = tuneCli({"recording", "summary", "--json", file});
    ASSERT_EQ(s.code, 0) << s.err;
    const auto j = nlohmann::json::parse(s.out);
    EXPECT_EQ(j["tune"]["stopped"], "running") << j["tune"].dump().substr(0, 1000);
    EXPECT_GE(j["tune"]["blocks"].get<int>(), 1);
    EXPECT_TRUE(j["tune"]["winner"].is_null());
    for (const auto& c : j["tune"]["candidates"])
        EXPECT_FALSE(c["trials"].empty()) << c.dump().substr(0, 500);
    const auto t = tuneCli({"recording", "summary", file});
    ASSERT_EQ(t.code, 0) << t.err;
    EXPECT_NE(t.out.find("This run did not end: its result was written after block "),
              std::string::npos)
        << t.out;
}

// A candidate file's names that this router lacks come back in the note that names them:
// printable on the terminal, one line, cut short, whatever bytes they hold.
TEST(CliTune, WhatDoesNotApplyIsNamedPrintably) {
    const auto dir = fs::path(CORESTEER_TEST_TMP) / "cli-tune-hostile";
    fs::remove_all(dir);
    fs::create_directories(dir);
    nlohmann::json irq = {{"action", "x\"$(reboot)'\n\u2028`id`" + std::string(5000, 'A')},
                          {"cpus", "1"}};
    nlohmann::json placebo = {{"action", "eth1-16"}, {"cpus", "4"}};
    const auto file = (dir / "hostile.json").string();
    std::ofstream(file)
        << nlohmann::json{{"schema", "coresteer.layout/1"}, {"irqs", {placebo, irq}}}.dump();
    // The budget cannot reach the first look: refused after the candidates are gathered.
    const auto r = tuneCli({"tune", "demo", "--no-plan", "--candidate", file, "--record",
                            (dir / "t.csrec").string(), "--budget", "30"});
    EXPECT_EQ(r.code, 2) << r.err;
    std::istringstream lines(r.err);
    std::string line, note;
    while (std::getline(lines, line))
        if (line.find("does not apply on this router") != std::string::npos)
            note = line;
    ASSERT_FALSE(note.empty()) << r.err;
    EXPECT_NE(note.find("$(reboot)"), std::string::npos) << note; // shown, as data
    EXPECT_EQ(note.find("\xe2\x80\xa8"), std::string::npos) << note;
    EXPECT_LT(note.size(), 400u);
    EXPECT_EQ(r.err.find("'\n"), std::string::npos) << r.err; // no line broken by the name
}

// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The tuner's runner on a router of its own: a copy of the lab board under the build tree, run
// with this machine's /bin/sh (the same apply, revert and settle scripts as over SSH), and a
// model of the load whose throughput depends on the mask the copy holds at that moment, as a
// router's forwarding does. Each trial applies with the revert armed and reverts; the router
// ends on its baseline; a refused candidate is left out; a cancel restores the baseline; a
// pending apply keeps the tuner from starting; everything lands in one recording.
#include "core/base/json_text.h"
#include "core/collect/collect_local.h"
#include "core/layout/apply.h"
#include "core/layout/resolve.h"
#include "core/live/recording.h"
#include "core/measure/tune_json.h"
#include "core/measure/tuner.h"
#include "tests/support/board_expect.h"

#include <gtest/gtest.h>

#include <sstream>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

using namespace coresteer;
using namespace coresteer::measure;
namespace fs = std::filesystem;

namespace {

constexpr const char* kIrq = "proc/irq/31/smp_affinity"; // virtio1-input.0: eth1's receive

std::string readMask(const fs::path& root) {
    std::ifstream in(root / kIrq);
    std::string s;
    std::getline(in, s);
    return s;
}

// The lab board, copied for one test.
struct TunerRouter {
    fs::path root;
    Snapshot snap;
    std::unique_ptr<Router> router;
    explicit TunerRouter(const std::string& name) {
        root = fs::path(CORESTEER_TEST_TMP) / ("tuner-" + name);
        fs::remove_all(root);
        test::copyBoard("x86-virtio-lab", root);
        // The sampler's clock; a fixture is a still picture and has none.
        std::ofstream(root / "proc/uptime") << "5000.00 9000.00\n";
        snap = buildSnapshot(collectLocal(root.string()));
        router = Router::local(root.string());
        std::string error;
        EXPECT_TRUE(router->open(&error)) << error;
    }
};

Candidate irqOn(const std::string& name, const std::string& cpus) {
    Candidate c;
    c.name = name;
    c.source = Candidate::Source::File;
    c.why = "eth1's receive interrupt on CPU " + cpus;
    layout::IrqTarget t;
    t.irq = {"virtio1-input.0", 0};
    t.cpus = *CpuMask::fromList(cpus);
    t.why = c.why;
    c.layout.irqs.push_back(t);
    return c;
}

// The baseline (what the router has now) and one candidate.
std::vector<Candidate> baselineAnd(const TunerRouter& r, Candidate c) {
    return {{"Current layout", Candidate::Source::Current, "", "", layout::currentLayout(r.snap)},
            std::move(c)};
}

// A load whose throughput is the router's: 300 Mb/s with eth1's receive interrupt on CPU1 alone,
// 150 on CPU0 alone, 200 on both (the baseline), with a few percent of noise; the round trip
// grows more on the slower layouts.
struct ModelLoad {
    fs::path root;
    std::chrono::steady_clock::time_point start;
    double idle = 0, phase = 0;
    std::uint64_t rng = 12345;
    std::atomic<bool> dead{false}; // the load moves nothing (a server that is gone)
    double noise() {
        rng = rng * 6364136223846793005ull + 1442695040888963407ull;
        return static_cast<double>(rng >> 11) / static_cast<double>(1ull << 53);
    }
    void hook(TuneHooks& h) {
        h.startModel = [this](double i, double p, const std::vector<std::string>&) {
            start = std::chrono::steady_clock::now();
            idle = i;
            phase = p;
        };
        h.model = [this] {
            const double t =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            LoadTest::Spec::ModelState s;
            const auto mask = readMask(root);
            s.phase = t < idle ? "idle" : t < idle + phase ? "download" : "idle";
            const bool loaded = s.phase == "download";
            const double bps = mask == "2" ? 300e6 : mask == "1" ? 150e6 : 200e6;
            s.downBitsPerSec = loaded && !dead ? bps * (0.97 + 0.06 * noise()) : 0;
            s.latencyMs = 5 + noise() + (loaded ? 3 + 12 * (300e6 - bps) / 100e6 : 0);
            return s;
        };
    }
};

TuneSpec quickSpec() {
    TuneSpec s;
    s.test.phases = {live::LoadSpec::Direction::Download};
    s.test.phaseSeconds = 1;
    s.idleSeconds = 0.5;
    s.rate = 10;
    s.revertMargin = 20;
    s.seed = 7;
    s.budgetSeconds = 300;
    return s;
}

// The lab board with its baseline and one candidate (eth1's receive interrupt on CPU1) under
// the model's load, whose hooks a test adds to before run().
struct ModelRun {
    TunerRouter r;
    std::vector<Candidate> cands;
    ModelLoad model;
    TuneHooks hooks;
    explicit ModelRun(const std::string& name)
        : r(name),
          cands(baselineAnd(r, irqOn("receive on CPU1", "1"))), model{r.root, {}, 0, 0, 1} {
        model.hook(hooks);
    }
    TuneResult run() {
        live::RecordingWriter rec({"tuner", "2026-12-07T00:00:00Z", 10, {}, {}, {}});
        return runTune(*r.router, r.snap, cands, quickSpec(), rec, hooks);
    }
};

int trialMarks(const std::string& recordingText, int* ends) {
    std::string error;
    const auto rec = live::readRecording(recordingText, &error);
    EXPECT_TRUE(rec) << error;
    if (!rec)
        return 0;
    live::Replay replay(*rec);
    live::ReplayEvent e;
    int starts = 0;
    *ends = 0;
    while (replay.next(e))
        if (e.kind == live::ReplayEvent::Kind::Trial)
            ++(e.candidate >= 0 ? starts : *ends);
    EXPECT_TRUE(replay.error().empty()) << replay.error();
    return starts;
}

} // namespace

TEST(Tuner, FindsTheLayoutThatForwardsMoreAndLeavesTheBaseline) {
    TunerRouter r("wins");
    const auto before = readMask(r.root);
    ASSERT_EQ(before, "3");
    std::vector<Candidate> cands = {
        {"Current layout", Candidate::Source::Current, "", "", layout::currentLayout(r.snap)},
        irqOn("receive on CPU1", "1"),
        irqOn("receive on CPU0", "0")};
    ModelLoad model{r.root, {}, 0, 0, 1};
    TuneHooks hooks;
    model.hook(hooks);
    std::vector<std::string> seen; // the masks each trial ran under
    hooks.trial = [&](double, int, int c) {
        if (c >= 0)
            seen.push_back(std::to_string(c));
    };
    live::RecordingWriter rec({"tuner", "2026-12-07T00:00:00Z", 10, {}, {}, {}});
    const auto res = runTune(*r.router, r.snap, cands, quickSpec(), rec, hooks);
    EXPECT_EQ(res.stop, TuneResult::Stop::Decided) << res.stopText << " " << res.verdict.text;
    ASSERT_TRUE(res.verdict.winner) << res.verdict.text;
    EXPECT_EQ(*res.verdict.winner, 1) << res.verdict.text;
    // A gain of half the baseline on a few percent of noise: decided at the plan's first look.
    const int blocks = res.plan.fewest();
    EXPECT_EQ(res.blocks, blocks);
    EXPECT_TRUE(res.verdict.decided);
    EXPECT_EQ(res.verdict.text.rfind("receive on CPU1 wins: throughput +", 0), 0u)
        << res.verdict.text;
    EXPECT_NE(res.stopText.find("settled after " + std::to_string(blocks) +
                                " blocks, at the "
                                "plan's look 1 of 4"),
              std::string::npos)
        << res.stopText;
    EXPECT_TRUE(res.baselineRestored);
    EXPECT_EQ(readMask(r.root), before); // every trial reverted
    EXPECT_EQ(res.readBack, "Read back at the end: the router is on its baseline.");
    // Every block ran each candidate once and the baseline twice.
    ASSERT_EQ(res.trials.size(), static_cast<std::size_t>(blocks) * 4);
    for (int b = 0; b < blocks; ++b) {
        int counts[3] = {0, 0, 0};
        for (const auto& t : res.trials)
            if (t.block == b)
                ++counts[t.candidate];
        EXPECT_EQ(counts[0], 2);
        EXPECT_EQ(counts[1], 1);
        EXPECT_EQ(counts[2], 1);
    }
    // Measured as the model says: the trials of candidate 1 near 300 Mb/s, the baseline's 200
    // and candidate 2's 150, and the latency increase over the block's idle baseline about 3,
    // 15 and 21 ms.
    for (const auto& t : res.trials) {
        ASSERT_TRUE(t.measures.downloadBps) << t.block << " " << t.candidate;
        const double expected[] = {200e6, 300e6, 150e6};
        EXPECT_NEAR(*t.measures.downloadBps, expected[t.candidate], 12e6);
        ASSERT_TRUE(t.measures.downloadLatencyMs);
        const double increase[] = {15, 3, 21};
        EXPECT_NEAR(*t.measures.downloadLatencyMs, increase[t.candidate], 1.5);
        EXPECT_EQ(t.headlineProbe, "demo");
        EXPECT_FALSE(t.measures.uploadBps); // no upload phase ran
        EXPECT_LT(t.start, t.end);
    }
    // The JSON carries it all: the gain with its interval and in percent.
    const auto j = tuneJson(res, Objective::Throughput);
    EXPECT_EQ(j["schema"], "coresteer.tune/2");
    EXPECT_EQ(j["winner"], "receive on CPU1");
    EXPECT_EQ(j["leader"], "receive on CPU1");
    EXPECT_EQ(j["outcome"], "winner");
    EXPECT_TRUE(j["decided"].get<bool>());
    EXPECT_EQ(j["plan"]["looks"][0], blocks);
    EXPECT_EQ(j["candidates"].size(), 3u);
    EXPECT_EQ(j["candidates"][0]["source"], "current");
    EXPECT_FALSE(j["candidates"][0].contains("gain_vs_baseline"));
    const auto& g = j["candidates"][1]["gain_vs_baseline"]["download"]["bps"];
    EXPECT_GT(g["ci95"][0].get<double>(), g["margin"].get<double>());
    EXPECT_NEAR(g["mean"].get<double>(), 100e6, 15e6);
    EXPECT_NEAR(g["gain_pct"].get<double>(), 50, 8);
    EXPECT_LT(g["ci95_pct"][0].get<double>(), g["gain_pct"].get<double>());
    EXPECT_NEAR(j["candidates"][1]["gain_vs_baseline"]["throughput"]["mean"].get<double>(), 0.5,
                0.08);
    EXPECT_EQ(j["candidates"][1]["trials"].size(), static_cast<std::size_t>(blocks));
    EXPECT_EQ(j["candidates"][0]["trials"].size(), 2u * blocks);
    // Receive on CPU0 alone forwards less: its interval lies below zero, and it does not win.
    EXPECT_LT(j["candidates"][2]["gain_vs_baseline"]["download"]["bps"]["ci95"][1].get<double>(),
              0.0);
    EXPECT_FALSE(j["candidates"][2]["qualifies"].get<bool>());
    EXPECT_TRUE(j["candidates"][1]["gain_vs_baseline"]["upload"]["bps"].is_null());
    // One recording: every trial's start and end, and the result as its tune section.
    rec.setTune(jsonText(j, -1));
    int ends = 0;
    EXPECT_EQ(trialMarks(rec.text(), &ends), blocks * 4);
    EXPECT_EQ(ends, blocks * 4);
    std::string error;
    const auto back = live::readRecording(rec.text(), &error);
    ASSERT_TRUE(back) << error;
    EXPECT_EQ(nlohmann::json::parse(back->info.tune), j);
    const auto text = tuneText(j, &error);
    ASSERT_TRUE(text) << error;
    EXPECT_NE(text->find("receive on CPU1 wins"), std::string::npos) << *text;
    EXPECT_NE(text->find("Current layout (baseline)"), std::string::npos) << *text;
}

TEST(Tuner, ACandidateTheRouterRefusesIsLeftOutAndTheRestGoOn) {
    TunerRouter r("refused");
    // IRQ 32's affinity cannot be written: a directory stands where the file was.
    fs::remove(r.root / "proc/irq/32/smp_affinity");
    fs::create_directory(r.root / "proc/irq/32/smp_affinity");
    r.snap = buildSnapshot(collectLocal(r.root.string())); // as the router is now
    auto bad = irqOn("unwritable", "1");
    bad.layout.irqs.front().irq = {"virtio1-output.0", 0};
    std::vector<Candidate> cands = {
        {"Current layout", Candidate::Source::Current, "", "", layout::currentLayout(r.snap)},
        bad,
        irqOn("receive on CPU1", "1")};
    ModelLoad model{r.root, {}, 0, 0, 1};
    TuneHooks hooks;
    model.hook(hooks);
    std::vector<std::string> said;
    hooks.progress = [&](const TuneProgress& p) {
        if (!p.message.empty())
            said.push_back(p.message);
    };
    // Two blocks are enough to see it: cancelled after them.
    std::atomic<bool> cancel{false};
    hooks.cancel = &cancel;
    hooks.verdict = [&](const Verdict& v, int blocks) {
        EXPECT_FALSE(v.decided); // never between looks
        if (blocks == 2)
            cancel = true;
    };
    // After each undecided block, the run so far: for a recording written as it goes.
    std::vector<TuneResult> checkpoints;
    hooks.checkpoint = [&](const TuneResult& sofar) { checkpoints.push_back(sofar); };
    live::RecordingWriter rec({"tuner", "2026-12-07T00:00:00Z", 10, {}, {}, {}});
    const auto res = runTune(*r.router, r.snap, cands, quickSpec(), rec, hooks);
    EXPECT_EQ(res.stop, TuneResult::Stop::Cancelled) << res.stopText;
    ASSERT_EQ(checkpoints.size(), 2u);
    for (int b = 0; b < 2; ++b) {
        const auto& c = checkpoints[static_cast<std::size_t>(b)];
        EXPECT_EQ(c.stop, TuneResult::Stop::Running);
        EXPECT_EQ(c.blocks, b + 1);
        EXPECT_EQ(c.trials.size(), static_cast<std::size_t>(3 * (b + 1))); // baseline twice
        EXPECT_FALSE(c.verdict.winner);
        EXPECT_NE(c.stopText.find("This run did not end"), std::string::npos) << c.stopText;
        EXPECT_EQ(tuneJson(c, Objective::Throughput)["stopped"], "running");
    }
    EXPECT_FALSE(res.verdict.winner);
    ASSERT_EQ(res.leftOut.size(), 3u);
    EXPECT_NE(res.leftOut[1].find("the router refused it"), std::string::npos) << res.leftOut[1];
    EXPECT_TRUE(res.leftOut[2].empty());
    int ofBad = 0, ofGood = 0;
    for (const auto& t : res.trials) {
        ofBad += t.candidate == 1;
        ofGood += t.candidate == 2;
    }
    EXPECT_EQ(ofBad, 0);
    EXPECT_EQ(ofGood, 2);
    ASSERT_FALSE(said.empty());
    EXPECT_NE(said.front().find("unwritable is left out"), std::string::npos) << said.front();
    EXPECT_EQ(readMask(r.root), "3");
    const auto j = tuneJson(res, Objective::Throughput);
    EXPECT_TRUE(j["candidates"][1]["left_out"].is_string());
    EXPECT_TRUE(j["candidates"][2]["left_out"].is_null());
}

TEST(Tuner, CancelRestoresTheBaselineAtOnce) {
    TunerRouter r("cancel");
    const auto cands = baselineAnd(r, irqOn("receive on CPU1", "1"));
    ModelLoad model{r.root, {}, 0, 0, 1};
    TuneHooks hooks;
    model.hook(hooks);
    std::atomic<bool> cancel{false};
    hooks.cancel = &cancel;
    // Cancelled while candidate 1 is in force, in the middle of its load.
    std::atomic<bool> sawApplied{false};
    std::thread canceller;
    hooks.trial = [&](double, int, int c) {
        if (c == 1 && !canceller.joinable())
            canceller = std::thread([&] {
                std::this_thread::sleep_for(std::chrono::milliseconds(700));
                sawApplied = readMask(r.root) == "2";
                cancel = true;
            });
    };
    live::RecordingWriter rec({"tuner", "2026-12-07T00:00:00Z", 10, {}, {}, {}});
    const auto res = runTune(*r.router, r.snap, cands, quickSpec(), rec, hooks);
    ASSERT_TRUE(canceller.joinable());
    canceller.join();
    EXPECT_TRUE(sawApplied);
    EXPECT_EQ(res.stop, TuneResult::Stop::Cancelled) << res.stopText;
    EXPECT_NE(res.stopText.find("back on its baseline"), std::string::npos);
    EXPECT_TRUE(res.baselineRestored);
    EXPECT_EQ(readMask(r.root), "3");
    EXPECT_FALSE(res.verdict.winner);
    // Nothing is left pending on the router.
    std::string error;
    const auto check = r.router->run(layout::makePendingCheckScript(r.root.string()), &error);
    ASSERT_TRUE(check) << error;
    EXPECT_EQ(check->exitStatus, 0) << check->err;
}

TEST(Tuner, DoesNotStartWhileAnotherApplyIsPending) {
    TunerRouter r("pending");
    const auto other = irqOn("someone else's", "0");
    layout::ApplyOptions o;
    o.revertAfterSeconds = 600;
    std::string error;
    const auto report = r.router->apply(layout::resolve(other.layout, r.snap), o, &error);
    ASSERT_TRUE(report && report->revertArmed) << error;
    const auto cands = baselineAnd(r, irqOn("receive on CPU1", "1"));
    live::RecordingWriter rec({"tuner", "2026-12-07T00:00:00Z", 10, {}, {}, {}});
    const auto res = runTune(*r.router, r.snap, cands, quickSpec(), rec, {});
    EXPECT_EQ(res.stop, TuneResult::Stop::Failed);
    EXPECT_NE(res.stopText.find("A tune does not start while another apply is pending"),
              std::string::npos)
        << res.stopText;
    EXPECT_TRUE(res.trials.empty());
    EXPECT_EQ(readMask(r.root), "1"); // the other apply's value, untouched
    EXPECT_TRUE(r.router->settle(layout::PendingAction::Revert, &error)) << error;
    EXPECT_EQ(readMask(r.root), "3");
}

TEST(TuneJson, TextFromAHostileDocumentIsPrintableOrRefused) {
    std::string error;
    EXPECT_FALSE(tuneText(nlohmann::json::parse(R"({"schema": "x"})"), &error));
    EXPECT_NE(error.find("coresteer.tune/2"), std::string::npos);
    EXPECT_FALSE(tuneText(nlohmann::json::array(), &error));
    const auto doc = nlohmann::json::parse(R"({"schema": "coresteer.tune/2",
        "candidates": [{"name": "\u001b]0;pwned\u0007", "source": "current",
                        "download": {"bps": {"median": "x", "ci95": [1]}}},
                       7, {"name": 3, "gain_vs_baseline": {"throughput":
                        {"mean": 1e308, "ci95": [null, 2]}, "download": {"bps":
                        {"mean": 1e308, "gain_pct": "x"}}}}],
        "verdict": "\u001b[2J", "plan": {"looks": ["x", 1e300, -1]}, "tied": [3, "\u001b"],
        "blocks": "six", "objective": "\u001b[31m"})");
    const auto t = tuneText(doc, &error);
    ASSERT_TRUE(t) << error;
    EXPECT_EQ(t->find('\x1b'), std::string::npos);
    EXPECT_EQ(t->find('\x07'), std::string::npos);
    // A name from a shared preset file: a line break, U+2028, shell and a great length stay on
    // the candidate's one row, without the separator, and cut short.
    nlohmann::json named = nlohmann::json::parse(R"({"schema": "coresteer.tune/2",
        "candidates": [{"name": "a\nFAKE ROW\u2028$(reboot)'\"", "source": "file"}]})");
    named["candidates"].push_back({{"name", std::string(10000, 'x')}, {"source", "file"}});
    const auto n = tuneText(named, &error);
    ASSERT_TRUE(n) << error;
    EXPECT_EQ(n->find("\nFAKE ROW"), std::string::npos) << *n;
    EXPECT_EQ(n->find("\xe2\x80\xa8"), std::string::npos) << *n;
    EXPECT_EQ(n->find(std::string(200, 'x')), std::string::npos);
    std::istringstream lines(*n);
    for (std::string line; std::getline(lines, line);)
        EXPECT_LT(line.size(), 400u) << line.substr(0, 80);
    // What the router's masks read back as (its interface names are the router's bytes) and a
    // tie's names: on their own lines, printable, cut short.
    nlohmann::json back = nlohmann::json::parse(R"({"schema": "coresteer.tune/2",
        "candidates": [], "tied": ["a\nFAKE ROW", 7]})");
    back["read_back"] =
        std::string("IRQ 5 (\xff\xfe\x1b[2J) is 2\nFAKE ROW $(reboot) ") + std::string(5000, 'y');
    const auto b = tuneText(back, &error);
    ASSERT_TRUE(b) << error;
    EXPECT_EQ(b->find("\nFAKE ROW"), std::string::npos) << *b;
    EXPECT_EQ(b->find('\x1b'), std::string::npos) << *b;
    EXPECT_EQ(b->find("\xff"), std::string::npos) << *b;
    EXPECT_EQ(b->find(std::string(1000, 'y')), std::string::npos);
}

// A tune recorded by the version before (coresteer.tune/1) still reads: its verdict alone.
TEST(TuneJson, AnEarlierVersionsTunePrintsItsVerdict) {
    std::string error;
    const auto t = tuneText(nlohmann::json::parse(R"({"schema": "coresteer.tune/1",
        "candidates": [], "verdict": "No real difference: keep what you have.",
        "stop_reason": "The verdict was settled after 6 blocks."})"),
                            &error);
    ASSERT_TRUE(t) << error;
    EXPECT_NE(t->find("earlier version"), std::string::npos) << *t;
    EXPECT_NE(t->find("No real difference"), std::string::npos) << *t;
}

TEST(Tuner, ABudgetThatCannotReachTheFirstLookIsRefusedBeforeAnyTrial) {
    TunerRouter r("budget-short");
    const auto cands = baselineAnd(r, irqOn("receive on CPU1", "1"));
    auto spec = quickSpec();
    spec.budgetSeconds = 20;
    const auto estimate = estimateTune(spec, 2);
    EXPECT_FALSE(estimate.fits);
    EXPECT_NE(estimate.text.find("cannot reach the first look"), std::string::npos)
        << estimate.text;
    live::RecordingWriter rec({"tuner", "2026-12-07T00:00:00Z", 10, {}, {}, {}});
    bool applied = false;
    TuneHooks hooks;
    hooks.trial = [&](double, int, int) { applied = true; };
    const auto res = runTune(*r.router, r.snap, cands, spec, rec, hooks);
    EXPECT_EQ(res.stop, TuneResult::Stop::Failed);
    EXPECT_NE(res.stopText.find("cannot reach the first look: give it at least"), std::string::npos)
        << res.stopText;
    EXPECT_FALSE(applied);
    EXPECT_TRUE(res.trials.empty());
    EXPECT_EQ(readMask(r.root), "3");
}

// A run its budget stops before a look decides names no winner: its leader, and how long the
// rest of the plan would take. The candidate changes nothing the load can see (eth1's
// transmit interrupt, which the model ignores): the verdict cannot settle early.
TEST(Tuner, ARunTheBudgetStopsNamesTheLeaderAndNoWinner) {
    TunerRouter r("budget-open");
    auto placebo = irqOn("transmit on CPU0", "0");
    placebo.layout.irqs.front().irq = {"virtio1-output.0", 0};
    std::vector<Candidate> cands = {
        {"Current layout", Candidate::Source::Current, "", "", layout::currentLayout(r.snap)},
        placebo};
    ModelLoad model{r.root, {}, 0, 0, 1};
    TuneHooks hooks;
    model.hook(hooks);
    auto spec = quickSpec();
    spec.marginPct = 0; // so that "it gains less than the margin" cannot settle it either
    const auto estimate = estimateTune(spec, 2);
    spec.budgetSeconds = estimate.fewestSeconds + 1;
    live::RecordingWriter rec({"tuner", "2026-12-07T00:00:00Z", 10, {}, {}, {}});
    const auto res = runTune(*r.router, r.snap, cands, spec, rec, hooks);
    ASSERT_EQ(res.stop, TuneResult::Stop::Budget) << res.stopText << " " << res.verdict.text;
    EXPECT_LT(res.blocks, res.plan.most());
    EXPECT_FALSE(res.verdict.winner);
    EXPECT_FALSE(res.verdict.decided);
    EXPECT_NE(res.stopText.find("would settle it"), std::string::npos) << res.stopText;
    const auto j = tuneJson(res, Objective::Throughput);
    EXPECT_TRUE(j["winner"].is_null());
    EXPECT_EQ(j["outcome"], "open");
    EXPECT_EQ(j["stopped"], "budget");
    EXPECT_EQ(readMask(r.root), "3");
}

// A load that does not run is found before any candidate is applied: the run is not measured,
// never "no difference".
TEST(Tuner, ADeadLoadIsNotMeasuredAndNothingIsApplied) {
    TunerRouter r("dead-load");
    const auto cands = baselineAnd(r, irqOn("receive on CPU1", "1"));
    ModelLoad model{r.root, {}, 0, 0, 1};
    model.dead = true;
    TuneHooks hooks;
    model.hook(hooks);
    bool tried = false;
    hooks.trial = [&](double, int, int) { tried = true; };
    live::RecordingWriter rec({"tuner", "2026-12-07T00:00:00Z", 10, {}, {}, {}});
    const auto res = runTune(*r.router, r.snap, cands, quickSpec(), rec, hooks);
    EXPECT_EQ(res.stop, TuneResult::Stop::NotMeasured) << res.stopText;
    EXPECT_EQ(res.stopText,
              "Not measured: the load did not run before the first trial (the load gave no "
              "download throughput); no candidate was applied.");
    EXPECT_FALSE(tried);
    EXPECT_TRUE(res.trials.empty());
    EXPECT_FALSE(res.verdict.winner);
    EXPECT_EQ(res.verdict.text, res.stopText);
    EXPECT_EQ(readMask(r.root), "3");
    const auto j = tuneJson(res, Objective::Throughput);
    EXPECT_EQ(j["stopped"], "not-measured");
    EXPECT_TRUE(j["winner"].is_null());
}

// A load that dies during the run ends it as not measured, with the trials before it kept, and
// the router back on its baseline.
TEST(Tuner, ALoadThatDiesMidRunEndsItNotMeasured) {
    ModelRun t("dying-load");
    int started = 0;
    t.hooks.trial = [&](double, int, int c) {
        if (c >= 0 && ++started == 5)
            t.model.dead = true; // the server goes away in the second block
    };
    const auto res = t.run();
    EXPECT_EQ(res.stop, TuneResult::Stop::NotMeasured) << res.stopText;
    EXPECT_NE(res.stopText.find("Not measured: the load failed in block 2"), std::string::npos)
        << res.stopText;
    EXPECT_EQ(res.blocks, 1);
    EXPECT_FALSE(res.verdict.winner);
    EXPECT_TRUE(res.baselineRestored);
    EXPECT_EQ(readMask(t.r.root), "3");
}

// A mask changed behind the tuner's back mid-run (another client, irqbalance) is found when the
// block ends: the run stops there, not judged, and says what moved.
TEST(Tuner, AMaskChangedMidRunStopsItNotJudged) {
    ModelRun t("disturbed");
    int started = 0;
    t.hooks.trial = [&](double, int, int c) {
        if (c >= 0 && ++started == 2)
            std::ofstream(t.r.root / "proc/irq/34/smp_affinity") << "2\n";
    };
    bool judged = false;
    t.hooks.verdict = [&](const Verdict&, int) { judged = true; };
    const auto res = t.run();
    EXPECT_EQ(res.stop, TuneResult::Stop::Disturbed) << res.stopText;
    EXPECT_EQ(res.blocks, 1);
    EXPECT_FALSE(judged);
    EXPECT_FALSE(res.verdict.decided);
    EXPECT_FALSE(res.verdict.winner);
    EXPECT_NE(res.stopText.find("Not judged: the router's baseline changed during the run (IRQ 34"),
              std::string::npos)
        << res.stopText;
    EXPECT_NE(res.stopText.find("read back after block 1"), std::string::npos) << res.stopText;
    EXPECT_EQ(res.verdict.text, res.stopText);
    const auto j = tuneJson(res, Objective::Throughput);
    EXPECT_EQ(j["stopped"], "disturbed");
    EXPECT_TRUE(j["winner"].is_null());
    EXPECT_EQ(readMask(t.r.root), "3"); // its own candidate, reverted
}

// Something else changes a mask during the run (another client, irqbalance): the masks read
// back at the end differ from the baseline, and the result says so.
TEST(Tuner, AMaskChangedBehindItsBackIsFoundAtTheEnd) {
    ModelRun t("changed");
    std::atomic<bool> cancel{false};
    t.hooks.cancel = &cancel;
    int started = 0;
    t.hooks.trial = [&](double, int, int c) {
        if (c < 0)
            return;
        if (++started == 2)
            std::ofstream(t.r.root / "proc/irq/34/smp_affinity") << "2\n";
        if (started == 3)
            cancel = true;
    };
    const auto res = t.run();
    EXPECT_EQ(res.stop, TuneResult::Stop::Cancelled) << res.stopText;
    EXPECT_FALSE(res.baselineRestored);
    EXPECT_NE(res.readBack.find("the router differs from its baseline: IRQ 34"), std::string::npos)
        << res.readBack;
    EXPECT_NE(res.readBack.find("is 2, not 3"), std::string::npos) << res.readBack;
    EXPECT_EQ(readMask(t.r.root), "3"); // its own candidate, reverted
}

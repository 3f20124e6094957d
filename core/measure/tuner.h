// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The tuner: tries candidate layouts under load on the router itself and keeps the one that
// wins, by the experiment of design.h and the statistics of stats.h.
//
// A trial applies a candidate with the automatic revert armed (for longer than the trial and a
// margin, so that a lost connection leaves the router restoring its baseline by itself), runs
// the load test (loadtest.h: a short idle spell, then the load's phases) while the sampler
// records every core, then reverts to the baseline at once. The baseline's own trials apply
// nothing. A candidate the kernel refuses (or that reads back otherwise) is reverted, said and
// left out. The plan (design.h, makePlan) fixes the looks before the first trial; the run
// refuses a budget that cannot reach its first look, stops when the verdict is decided at a
// look (the last look always decides), when the next block would overrun the time budget (the
// verdict then stays open: a leader, no winner), on cancel (the baseline is restored at once),
// or when the router cannot be reached (its revert timer then restores the baseline).
// Everything goes into one recording: the samples, the probes, the phases, each trial's start
// and end (RecordingWriter::trialStart), and the result (tune_json.h).
//
// runTune() runs on the caller's thread (the CLI's, or a GUI worker's) and blocks until the end;
// `cancel` may be set from any thread.
#pragma once

#include "core/live/recording.h"
#include "core/measure/candidates.h"
#include "core/measure/design.h"
#include "core/measure/loadtest.h"
#include "core/measure/trial.h"
#include "core/router/router.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace coresteer::measure {

struct TuneSpec {
    // The load and its phases, the phase length and the probes; the tuner sets the rest.
    LoadTest::Spec test;
    double budgetSeconds = 1800;
    Objective objective = Objective::Throughput;
    // The margin (design.h, JudgeSpec): the smallest gain worth a change, in percent of the
    // baseline, and the latency a guard lets a winner lose at most.
    double marginPct = 3;
    double latencyMarginMs = 5;
    double idleSeconds = 2; // each trial's idle spell, after the candidate is applied
    int rate = 10;          // samples a second
    int revertMargin = 20;  // seconds the revert timer runs beyond the trial's length
    std::uint64_t seed = 0; // the blocks' order and the bootstrap's; 0: from the clock
};

struct TuneProgress {
    int block = 0, blocks = 0;         // this block (from 0) and the plan's most
    int trial = 0, trialsPerBlock = 0; // this trial in its block (from 0)
    int candidate = 0;                 // its index
    std::string name;                  // its name
    double elapsed = 0, left = 0;      // seconds: so far, and of the budget
    std::string message;               // what happened, for a person; empty: a new trial
};

struct TuneResult;
struct TuneHooks {
    // The demo: the model's step before each sample (false with *error stops the run), its
    // test started with each trial, and its state for the load test.
    std::function<bool(std::string*)> beforeTick;
    std::function<void(double idleSeconds, double phaseSeconds,
                       const std::vector<std::string>& phases)>
        startModel;
    std::function<LoadTest::Spec::ModelState()> model;
    std::function<void(const TuneProgress&)> progress;
    // Each sample's rates (the GUI's charts keep running), and each trial's start and end
    // (candidate -1: the trial ended), on the recording's clock.
    std::function<void(double t, const live::Rates&)> rates;
    std::function<void(double t, int block, int candidate)> trial;
    // Each trial's measures as it ends, and the verdict after each whole block (the GUI's
    // table and plot fill as the run goes).
    std::function<void(const TrialResult&)> trialDone;
    std::function<void(const Verdict&, int blocks)> verdict;
    // The result so far after each whole block that did not decide (stop Running), for a
    // recording written as the run goes.
    std::function<void(const TuneResult&)> checkpoint;
    const std::atomic<bool>* cancel = nullptr;
};

struct TuneResult {
    std::vector<Candidate> candidates; // [0] the baseline
    std::vector<std::string> leftOut;  // per candidate: why it was left out ("" : it ran)
    std::vector<TrialResult> trials;   // every trial of a whole block, in the order they ran
    Verdict verdict;
    Plan plan;
    double marginPct = 3, latencyMarginMs = 5;
    int blocks = 0; // whole blocks run
    // NotMeasured: the load did not run (before the first apply, or in a trial). Disturbed:
    // the router's masks, read back after a block, were no longer the baseline. Running: a
    // checkpoint's, the run had not ended (TuneHooks::checkpoint).
    enum class Stop {
        Decided,
        Budget,
        Cancelled,
        ConnectionLost,
        Failed,
        NotMeasured,
        Disturbed,
        Running
    };
    Stop stop = Stop::Decided;
    std::string stopText;    // why the run ended, a sentence
    double blockSeconds = 0; // a block's length: measured (the mean), or the estimate
    // Whether the router is on its baseline at the end: false after a lost connection, when
    // its revert timer is to restore it (`revertWithin` seconds at most).
    bool baselineRestored = true;
    int revertWithin = 0;
    // The router's masks read back at the end and compared with the baseline: what was found,
    // a sentence (empty after a lost connection). A difference clears baselineRestored.
    std::string readBack;
    double seconds = 0;
    std::uint64_t seed = 0;
};
const char* toString(TuneResult::Stop s);

// The length of one trial: the idle spell and the phases, in seconds.
double trialSeconds(const TuneSpec& spec);

// What a run of `candidates` candidates (the baseline among them) needs, known before it
// starts: its plan, a block's length (each trial with an allowance for its apply and revert),
// and whether the budget reaches the first look and the last.
struct TuneEstimate {
    Plan plan;
    int trialsPerBlock = 0;
    double blockSeconds = 0;
    double fewestSeconds = 0, mostSeconds = 0;
    int blocksInBudget = 0;
    bool fits = false;    // the budget reaches the first look
    bool fitsAll = false; // ... and the last
    std::string text;     // for a person: the trials, the time, and what the budget allows
};
TuneEstimate estimateTune(const TuneSpec& spec, int candidates);

TuneResult runTune(Router& router, const Snapshot& snap, std::vector<Candidate> candidates,
                   const TuneSpec& spec, live::RecordingWriter& rec, const TuneHooks& hooks);

} // namespace coresteer::measure

// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// Inside the tuner (tuner.h): one run's state, shared by tuner.cpp (the blocks and the trials)
// and tuner_load.cpp (the load of each trial, the preflight, and what a failed load means).
#pragma once

#include "core/live/source.h"
#include "core/measure/tuner.h"

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace coresteer::measure::detail {

using Clock = std::chrono::steady_clock;

// The phases as the demo's model names them.
std::vector<std::string> modelPhases(const TuneSpec& spec);
int phaseCount(const TuneSpec& spec);

// One run of the tuner: its state, so that the trial loop reads as the design does.
class Run {
public:
    Run(Router& router, const Snapshot& snap, const TuneSpec& spec, live::RecordingWriter& rec,
        const TuneHooks& hooks, TuneResult& result)
        : m_router(router), m_snap(snap), m_spec(spec), m_rec(rec), m_hooks(hooks),
          m_result(result), m_start(Clock::now()),
          m_clockStart(Clock::now() - std::chrono::duration_cast<Clock::duration>(
                                          std::chrono::duration<double>(rec.duration()))) {}

    void go();

private:
    double now() const {
        return std::chrono::duration<double>(Clock::now() - m_clockStart).count();
    }
    double elapsed() const { return std::chrono::duration<double>(Clock::now() - m_start).count(); }
    bool cancelled() const { return m_hooks.cancel && m_hooks.cancel->load(); }
    void say(const Slot& s, int trial, int perBlock, const std::string& message);
    // Runs one trial; false when the run must stop (m_result.stop says why).
    bool trial(const Slot& s, TrialLog& log, int index, int perBlock);
    // Runs the load test of one trial under `spec` (the run's, or the preflight's); false when
    // the run must stop. A load generator's failure is kept in m_loadProblem.
    bool loadTest(TrialLog& log, const Candidate& c, const TuneSpec& spec);
    // The load for 2 s on the baseline before the first apply: false (the run not measured, or
    // stopped) when it does not run.
    bool preflight();
    // Why a trial's load did not measure what it was to (a generator's failure, a direction
    // with no throughput), or nothing.
    std::optional<std::string> loadFailed(const TrialResult& r, const TuneSpec& spec) const;
    void notMeasured(const std::string& why);
    // The router's masks read back against the baseline: what differs, for a person ("" when
    // nothing does); nullopt with *error when they cannot be read.
    std::optional<std::string> baselineDiffers(std::string* error);
    // The router's masks at the end, against the baseline (TuneResult::readBack).
    void readBack();
    void lost(const std::string& what);
    void judgeNow();

    Router& m_router;
    const Snapshot& m_snap;
    const TuneSpec& m_spec;
    live::RecordingWriter& m_rec;
    const TuneHooks& m_hooks;
    TuneResult& m_result;
    Clock::time_point m_start, m_clockStart;
    std::unique_ptr<live::SampleSource> m_source;
    std::optional<live::Sample> m_prev;
    std::optional<live::Rates> m_held;
    bool m_applied = false;    // a candidate's revert is armed on the router now
    TrialLog* m_log = nullptr; // the trial the recording's events go to
    bool m_saidProblems = false;
    std::string m_loadProblem; // the first failure a load generator reported in this trial
    std::vector<CandidateTrials> m_trials;
    std::vector<std::optional<TrialMeasures>> m_repeats;
};

} // namespace coresteer::measure::detail

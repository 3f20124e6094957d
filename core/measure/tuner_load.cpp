// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The load of the tuner's trials: each trial's load test while the router is sampled, the
// preflight that checks the load runs before anything is applied, and a failed load, which ends
// the run as not measured rather than as "no difference".
#include "core/measure/tuner_run.h"

#include "core/base/text.h"

#include <algorithm>
#include <thread>

namespace coresteer::measure::detail {

using live::LoadSpec;

std::vector<std::string> modelPhases(const TuneSpec& spec) {
    std::vector<std::string> out;
    for (auto d : spec.test.phases)
        out.push_back(d == LoadSpec::Direction::Download ? "download"
                      : d == LoadSpec::Direction::Upload ? "upload"
                                                         : "download and upload");
    if (out.empty())
        out = {"download", "upload", "download and upload"};
    return out;
}

int phaseCount(const TuneSpec& spec) {
    if (!spec.test.phases.empty())
        return static_cast<int>(spec.test.phases.size());
    if (spec.test.load && spec.test.load->direction != LoadSpec::Direction::Sequence)
        return 1;
    return 3;
}

void Run::say(const Slot& s, int trial, int perBlock, const std::string& message) {
    if (!m_hooks.progress)
        return;
    TuneProgress p;
    p.block = s.block;
    p.blocks = m_result.plan.most();
    p.trial = trial;
    p.trialsPerBlock = perBlock;
    p.candidate = s.candidate;
    p.name = m_result.candidates[static_cast<std::size_t>(s.candidate)].name;
    p.elapsed = elapsed();
    p.left = std::max(0.0, m_spec.budgetSeconds - p.elapsed);
    p.message = message;
    m_hooks.progress(p);
}

void Run::lost(const std::string& what) {
    m_result.stop = TuneResult::Stop::ConnectionLost;
    if (m_applied) {
        m_result.baselineRestored = false;
        m_result.stopText = what + ". The router restores its baseline by itself within " +
                            std::to_string(m_result.revertWithin) + " s (its revert timer).";
    } else {
        m_result.stopText = what + ". No candidate was in force: the router is on its baseline.";
    }
}

bool Run::loadTest(TrialLog& log, const Candidate& c, const TuneSpec& run) {
    m_loadProblem.clear();
    LoadTest::Spec spec = run.test;
    spec.idleSeconds = run.idleSeconds;
    spec.startTime = now();
    spec.duration = trialSeconds(run);
    if (m_hooks.model) {
        if (m_hooks.startModel)
            m_hooks.startModel(run.idleSeconds, run.test.phaseSeconds, modelPhases(run));
        spec.model = m_hooks.model;
    }
    m_rec.phase(spec.startTime, "idle");
    std::vector<std::string> problems;
    LoadTest test(spec, &problems);
    const bool said = m_saidProblems;
    m_saidProblems = true;
    // The probes that cannot run are said once, at the first trial: every trial opens the same.
    if (m_hooks.progress && !said)
        for (const auto& p : problems) {
            TuneProgress pr;
            pr.message = p;
            m_hooks.progress(pr);
        }
    const auto period = std::chrono::microseconds(1000000 / std::clamp(m_spec.rate, 1, 20));
    auto next = Clock::now();
    int failures = 0;
    std::string error;
    while (true) {
        next += period;
        if (next < Clock::now())
            next = Clock::now();
        std::this_thread::sleep_until(next);
        if (cancelled())
            break;
        if (m_hooks.beforeTick && !m_hooks.beforeTick(&error)) {
            test.finish(now(), m_rec);
            m_result.stop = TuneResult::Stop::Failed;
            m_result.stopText = "The demo's model stopped: " + error;
            return false;
        }
        auto cur = m_source->next(&error);
        const double t = now();
        // A trial that overruns (a router slow to answer) ends 5 s before its revert timer
        // would fire under it.
        if (m_result.revertWithin > 0 && t - spec.startTime > m_result.revertWithin - 5) {
            m_loadProblem = "the trial overran its length, and was ended before its revert timer";
            break;
        }
        if (!cur) {
            m_rec.gap(t);
            m_prev.reset();
            if (++failures >= 3) {
                test.finish(t, m_rec);
                lost("The router stopped answering during a trial of " + c.name + " (" + error +
                     ")");
                return false;
            }
            continue;
        }
        failures = 0;
        m_rec.sample(t, m_source->lastTexts());
        if (m_prev)
            if (auto r = live::computeRates(*m_prev, *cur, m_held ? &*m_held : nullptr)) {
                log.rates(*r);
                if (m_hooks.rates)
                    m_hooks.rates(t, *r);
                m_held = std::move(r);
            }
        m_prev = std::move(cur);
        std::string problem;
        const bool more = test.tick(t, m_rec, &problem);
        if (!problem.empty()) {
            problem = text::printable(text::trim(problem), 300);
            if (m_loadProblem.empty())
                m_loadProblem = problem;
            if (m_hooks.progress) {
                TuneProgress p;
                p.message = problem;
                m_hooks.progress(p);
            }
        }
        if (!more)
            break;
    }
    test.finish(now(), m_rec);
    return true;
}

std::optional<std::string> Run::loadFailed(const TrialResult& r, const TuneSpec& spec) const {
    if (!m_loadProblem.empty())
        return m_loadProblem;
    bool down = spec.test.phases.empty(), up = spec.test.phases.empty();
    for (auto d : spec.test.phases) {
        down = down || d != LoadSpec::Direction::Upload;
        up = up || d != LoadSpec::Direction::Download;
    }
    if (down && !(r.measures.downloadBps && *r.measures.downloadBps > 0))
        return std::string("the load gave no download throughput");
    if (up && !(r.measures.uploadBps && *r.measures.uploadBps > 0))
        return std::string("the load gave no upload throughput");
    return std::nullopt;
}

void Run::notMeasured(const std::string& why) {
    m_result.stop = TuneResult::Stop::NotMeasured;
    m_result.stopText = "Not measured: " + why + ".";
}

bool Run::preflight() {
    // The load's first phase for 2 s after a second of idle, on the baseline: the server
    // answers, and the load moves data each way it is to.
    TuneSpec s = m_spec;
    s.idleSeconds = 1;
    s.test.phaseSeconds = 2;
    if (s.test.phases.size() > 1)
        s.test.phases.resize(1);
    if (s.test.phases.empty())
        s.test.phases = {LoadSpec::Direction::Download};
    TrialLog log;
    m_log = &log;
    log.from = now();
    const bool ok = loadTest(log, m_result.candidates.front(), s);
    log.end(now());
    log.to = now();
    m_log = nullptr;
    if (!ok)
        return false;
    if (cancelled()) {
        m_result.stop = TuneResult::Stop::Cancelled;
        m_result.stopText = "Cancelled before the first trial: the router is on its baseline.";
        return false;
    }
    const auto r = TrialResult::measure(log, blockIdle({&log}));
    if (const auto why = loadFailed(r, s)) {
        notMeasured("the load did not run before the first trial (" + *why +
                    "); no candidate was applied");
        return false;
    }
    return true;
}

} // namespace coresteer::measure::detail

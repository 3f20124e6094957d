// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/measure/tuner.h"

#include "core/base/text.h"
#include "core/layout/resolve.h"
#include "core/live/source.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>
#include <thread>

namespace coresteer::measure {

using live::LoadSpec;
using Clock = std::chrono::steady_clock;

const char* toString(TuneResult::Stop s) {
    switch (s) {
    case TuneResult::Stop::Decided:
        return "decided";
    case TuneResult::Stop::Budget:
        return "budget";
    case TuneResult::Stop::Cancelled:
        return "cancelled";
    case TuneResult::Stop::ConnectionLost:
        return "connection-lost";
    case TuneResult::Stop::Failed:
        return "failed";
    }
    return "?";
}

namespace {

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

// Whether an apply did exactly what the candidate says; otherwise why not.
std::string refusal(const layout::ApplyReport& report) {
    using S = layout::TargetResult::Status;
    for (const auto& r : report.results)
        if (r.status == S::Refused || r.status == S::Failed || r.status == S::AppliedDifferently)
            return r.write.target + ": " + layout::toString(r.status) +
                   (r.error.empty() ? std::string() : " (" + r.error + ")");
    if (report.rolledBack)
        return "the apply failed and was rolled back";
    return {};
}

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
    bool loadTest(TrialLog& log, const Candidate& c);
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
    std::vector<CandidateTrials> m_trials;
    std::vector<std::optional<TrialMeasures>> m_repeats;
};

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

bool Run::loadTest(TrialLog& log, const Candidate& c) {
    LoadTest::Spec spec = m_spec.test;
    spec.idleSeconds = m_spec.idleSeconds;
    spec.startTime = now();
    spec.duration = trialSeconds(m_spec);
    if (m_hooks.model) {
        if (m_hooks.startModel)
            m_hooks.startModel(m_spec.idleSeconds, m_spec.test.phaseSeconds, modelPhases(m_spec));
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
        if (!problem.empty() && m_hooks.progress) {
            TuneProgress p;
            p.message = problem;
            m_hooks.progress(p);
        }
        if (!more)
            break;
    }
    test.finish(now(), m_rec);
    return true;
}

bool Run::trial(const Slot& s, TrialLog& log, int index, int perBlock) {
    const auto& c = m_result.candidates[static_cast<std::size_t>(s.candidate)];
    say(s, index, perBlock, {});
    m_log = &log;
    const double t0 = now();
    log.from = t0;
    m_rec.trialStart(t0, s.block, s.candidate);
    if (m_hooks.trial)
        m_hooks.trial(t0, s.block, s.candidate);
    const auto endTrial = [&] {
        const double t = now();
        log.end(t);
        log.to = t;
        m_log = nullptr;
        m_rec.trialEnd(t);
        if (m_hooks.trial)
            m_hooks.trial(t, s.block, -1);
    };
    const auto resolution = layout::resolve(c.layout, m_snap);
    if (s.candidate != 0 && !layout::changedWrites(resolution).empty()) {
        layout::ApplyOptions options;
        options.revertAfterSeconds = m_result.revertWithin;
        const auto writes = layout::changedWrites(resolution);
        const auto script = layout::makeApplyScript(writes, m_router.root(), options);
        std::string error;
        const auto ran = m_router.run(script.script, &error);
        if (!ran) {
            endTrial();
            // The script could not run or answer: the router may hold the candidate, with the
            // revert armed, or nothing at all.
            m_applied = true;
            lost("The router could not be reached to apply " + c.name + " (" + error + ")");
            return false;
        }
        // The router ran the script and said no before writing anything (a value it cannot
        // read, an unsafe state): the candidate cannot run here.
        const auto report =
            layout::applyResult(ran->exitStatus, ran->out, ran->err, script, writes, &error);
        if (!report) {
            endTrial();
            m_result.leftOut[static_cast<std::size_t>(s.candidate)] =
                "the router refused it: " + error;
            say(s, index, perBlock, c.name + " is left out: the router refused it: " + error);
            return true;
        }
        m_applied = report->revertArmed;
        if (const auto why = refusal(*report); !why.empty()) {
            if (m_applied && !m_router.settle(layout::PendingAction::Revert, &error)) {
                endTrial();
                lost("The router could not be reached to revert " + c.name + " (" + error + ")");
                return false;
            }
            m_applied = false;
            endTrial();
            m_result.leftOut[static_cast<std::size_t>(s.candidate)] =
                "the router refused it: " + why;
            say(s, index, perBlock, c.name + " is left out: the router refused it: " + why);
            return true;
        }
    }
    const bool ok = loadTest(log, c);
    if (!ok) {
        endTrial();
        return false;
    }
    if (m_applied) {
        std::string error;
        if (!m_router.settle(layout::PendingAction::Revert, &error)) {
            endTrial();
            lost("The router could not be reached to revert " + c.name + " (" + error + ")");
            return false;
        }
        m_applied = false;
    }
    endTrial();
    if (cancelled()) {
        m_result.stop = TuneResult::Stop::Cancelled;
        m_result.stopText = "Cancelled: the router is back on its baseline.";
        return false;
    }
    return true;
}

void Run::judgeNow() {
    std::vector<std::string> names;
    std::vector<int> changes;
    std::vector<bool> leftOut;
    for (std::size_t c = 0; c < m_result.candidates.size(); ++c) {
        names.push_back(m_result.candidates[c].name);
        changes.push_back(static_cast<int>(
            layout::changedWrites(layout::resolve(m_result.candidates[c].layout, m_snap)).size()));
        leftOut.push_back(!m_result.leftOut[c].empty());
    }
    JudgeSpec js;
    js.objective = m_spec.objective;
    js.plan = m_result.plan;
    js.marginPct = m_spec.marginPct;
    js.latencyMarginMs = m_spec.latencyMarginMs;
    js.seed = m_result.seed;
    m_result.verdict = judge(m_trials, m_repeats, m_result.blocks, js, names, changes, leftOut);
}

void Run::go() {
    m_rec.setTap({[this](double t, std::optional<double> ms, std::string_view probe) {
                      if (m_log)
                          m_log->latency(t, ms, probe);
                  },
                  [this](double t, double down, double up) {
                      if (m_log)
                          m_log->throughput(t, down, up);
                  },
                  [this](double t, std::string_view phase) {
                      if (m_log)
                          m_log->phase(t, phase);
                  }});
    const auto n = static_cast<int>(m_result.candidates.size());
    m_result.leftOut.assign(m_result.candidates.size(), {});
    m_result.revertWithin = std::clamp(
        static_cast<int>(std::ceil(trialSeconds(m_spec))) + m_spec.revertMargin, 5, 86400);
    m_trials.assign(m_result.candidates.size(), {});
    m_source = m_router.isRemote() ? live::sshSampleSource(*m_router.session(), m_router.root())
                                   : live::localSampleSource(m_router.root());
    std::mt19937_64 rng(m_result.seed);
    const int most = m_result.plan.most();
    bool stopped = false;
    double blockSeconds = 0; // the blocks' mean length, to see whether the next one fits
    for (int b = 0; b < most && !stopped; ++b) {
        if (b > 0 && m_spec.budgetSeconds > 0 && elapsed() + blockSeconds > m_spec.budgetSeconds) {
            m_result.stop = TuneResult::Stop::Budget;
            break;
        }
        const double blockStart = elapsed();
        auto order = blockOrder(b, n, rng);
        int perBlock = 0;
        for (const auto& s : order)
            perBlock += m_result.leftOut[static_cast<std::size_t>(s.candidate)].empty() ? 1 : 0;
        std::vector<TrialLog> logs(order.size());
        int index = 0;
        for (std::size_t i = 0; i < order.size() && !stopped; ++i) {
            if (!m_result.leftOut[static_cast<std::size_t>(order[i].candidate)].empty())
                continue;
            if (cancelled()) {
                m_result.stop = TuneResult::Stop::Cancelled;
                m_result.stopText = "Cancelled: the router is back on its baseline.";
                stopped = true;
                break;
            }
            stopped = !trial(order[i], logs[i], index++, perBlock);
            if (!stopped && m_hooks.trialDone) {
                // Measured at once against the block's idle spells so far, for the plot; the
                // block's end measures it again against all of them.
                std::vector<const TrialLog*> sofar;
                for (std::size_t j = 0; j <= i; ++j)
                    sofar.push_back(&logs[j]);
                auto r = TrialResult::measure(logs[i], blockIdle(sofar));
                r.block = b;
                r.candidate = order[i].candidate;
                r.repeat = order[i].repeat;
                m_hooks.trialDone(r);
            }
        }
        if (stopped)
            break; // a block cut short is in the recording, not in the statistics
        // The block's trials, against its pooled idle baseline.
        std::vector<const TrialLog*> ptrs;
        for (const auto& l : logs)
            ptrs.push_back(&l);
        const auto idle = blockIdle(ptrs);
        for (auto& t : m_trials)
            t.byBlock.resize(static_cast<std::size_t>(b) + 1);
        m_repeats.resize(static_cast<std::size_t>(b) + 1);
        for (std::size_t i = 0; i < order.size(); ++i) {
            const auto c = static_cast<std::size_t>(order[i].candidate);
            if (!m_result.leftOut[c].empty())
                continue;
            auto r = TrialResult::measure(logs[i], idle);
            r.block = b;
            r.candidate = order[i].candidate;
            r.repeat = order[i].repeat;
            if (order[i].repeat)
                m_repeats[static_cast<std::size_t>(b)] = r.measures;
            else
                m_trials[c].byBlock[static_cast<std::size_t>(b)] = r.measures;
            m_result.trials.push_back(std::move(r));
        }
        m_result.blocks = b + 1;
        blockSeconds = (blockSeconds * b + (elapsed() - blockStart)) / (b + 1);
        m_result.blockSeconds = blockSeconds;
        judgeNow();
        if (m_hooks.verdict)
            m_hooks.verdict(m_result.verdict, m_result.blocks);
        if (m_result.verdict.decided) {
            m_result.stop = TuneResult::Stop::Decided;
            stopped = true;
        }
    }
    // A revert still armed (a cancel between apply and revert) is settled now.
    if (m_applied && m_result.stop != TuneResult::Stop::ConnectionLost) {
        std::string error;
        if (m_router.settle(layout::PendingAction::Revert, &error))
            m_applied = false;
        else
            lost("The router could not be reached to revert (" + error + ")");
    }
    judgeNow();
    auto& v = m_result.verdict;
    const auto minutes = [](double sec) {
        const int m = std::max(1, static_cast<int>(std::lround(sec / 60)));
        return std::to_string(m) + (m == 1 ? " minute" : " minutes");
    };
    const int more = std::max(0, m_result.plan.most() - m_result.blocks);
    const std::string settle = " About " + minutes(more * std::max(1.0, blockSeconds)) + " more (" +
                               std::to_string(more) + " more block" + (more == 1 ? "" : "s") +
                               ", the plan's last look) would settle it.";
    switch (m_result.stop) {
    case TuneResult::Stop::Decided:
        m_result.stopText = "The verdict was settled after " + std::to_string(m_result.blocks) +
                            " blocks, at the plan's look " + std::to_string(v.look + 1) + " of " +
                            std::to_string(m_result.plan.looks.size()) + ".";
        break;
    case TuneResult::Stop::Budget:
        m_result.stopText = "Stopped by the time budget (" +
                            std::to_string(static_cast<int>(m_spec.budgetSeconds)) + " s) after " +
                            std::to_string(m_result.blocks) + " blocks." + settle;
        break;
    case TuneResult::Stop::Cancelled:
    case TuneResult::Stop::ConnectionLost:
    case TuneResult::Stop::Failed:
        break;
    }
    if (m_result.stop != TuneResult::Stop::Decided && v.decided) {
        // A verdict is reached only by a run that ends at a look it decides.
        v.decided = false;
        v.winner.reset();
        v.tied.clear();
        v.outcome = Verdict::Outcome::Open;
    }
    m_result.seconds = elapsed();
}

} // namespace

double trialSeconds(const TuneSpec& spec) {
    return spec.idleSeconds + phaseCount(spec) * std::max(1.0, spec.test.phaseSeconds) + 0.5;
}

TuneEstimate estimateTune(const TuneSpec& spec, int candidates) {
    TuneEstimate e;
    const int k = std::max(1, candidates - 1);
    e.plan = makePlan(k);
    e.trialsPerBlock = k + 2;
    // Each candidate's trial applies and reverts: a second over SSH is a fair allowance.
    constexpr double applyAllowance = 1.5;
    e.blockSeconds = e.trialsPerBlock * trialSeconds(spec) + k * applyAllowance;
    e.fewestSeconds = e.plan.fewest() * e.blockSeconds;
    e.mostSeconds = e.plan.most() * e.blockSeconds;
    e.blocksInBudget = static_cast<int>(spec.budgetSeconds / e.blockSeconds);
    e.fits = e.blocksInBudget >= e.plan.fewest();
    e.fitsAll = e.blocksInBudget >= e.plan.most();
    const auto minutes = [](double sec) {
        const int m = std::max(1, static_cast<int>(std::ceil(sec / 60)));
        return std::to_string(m) + " min";
    };
    e.text = std::to_string(e.plan.fewest()) + " to " + std::to_string(e.plan.most()) +
             " blocks of " + std::to_string(e.trialsPerBlock) + " trials of about " +
             std::to_string(static_cast<int>(std::lround(trialSeconds(spec)))) +
             " s: " + minutes(e.fewestSeconds) + " to " + minutes(e.mostSeconds) + ". ";
    if (!e.fits)
        e.text += "The budget of " + minutes(spec.budgetSeconds) +
                  " cannot reach the first look: give it at least " + minutes(e.fewestSeconds) +
                  ".";
    else if (!e.fitsAll)
        e.text += "The budget of " + minutes(spec.budgetSeconds) + " fits " +
                  std::to_string(e.blocksInBudget) +
                  " blocks: a run that needs more ends "
                  "unsettled; " +
                  minutes(e.mostSeconds) + " would fit the whole plan.";
    else
        e.text += "The budget of " + minutes(spec.budgetSeconds) + " fits the whole plan.";
    return e;
}

TuneResult runTune(Router& router, const Snapshot& snap, std::vector<Candidate> candidates,
                   const TuneSpec& spec, live::RecordingWriter& rec, const TuneHooks& hooks) {
    TuneResult result;
    result.candidates = std::move(candidates);
    result.seed =
        spec.seed ? spec.seed : static_cast<std::uint64_t>(Clock::now().time_since_epoch().count());
    if (result.candidates.empty()) {
        result.stop = TuneResult::Stop::Failed;
        result.stopText = "No candidates: not even the baseline.";
        return result;
    }
    // A tune does not start while another apply waits for its confirm: its revert would
    // restore what was there before it, under the tuner's trials.
    std::string error;
    const auto check = router.run(layout::makePendingCheckScript(router.root()), &error);
    if (!check || check->exitStatus != 0) {
        result.stop = TuneResult::Stop::Failed;
        result.stopText =
            !check ? "The router could not be asked whether an apply is pending: " + error
            : check->exitStatus == 4 ? "A tune does not start while another apply is pending: " +
                                           std::string(text::trim(check->err)) + "."
                                     : "The router's state directory is not safe: " +
                                           std::string(text::trim(check->err));
        return result;
    }
    // The plan, fixed before the first trial; a budget that cannot reach its first look is
    // refused, before anything is applied.
    const auto estimate = estimateTune(spec, static_cast<int>(result.candidates.size()));
    result.plan = estimate.plan;
    result.marginPct = spec.marginPct;
    result.latencyMarginMs = spec.latencyMarginMs;
    result.blockSeconds = estimate.blockSeconds;
    if (!estimate.fits) {
        result.stop = TuneResult::Stop::Failed;
        result.stopText = "The plan needs " + estimate.text;
        return result;
    }
    Run run(router, snap, spec, rec, hooks, result);
    run.go();
    rec.setTap({});
    return result;
}

} // namespace coresteer::measure

// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/measure/tuner.h"

#include "core/base/text.h"
#include "core/layout/resolve.h"
#include "core/measure/tuner_run.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>

namespace coresteer::measure {

using detail::Clock;
using detail::Run;
using live::LoadSpec;

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
    case TuneResult::Stop::NotMeasured:
        return "not-measured";
    case TuneResult::Stop::Running:
        return "running";
    case TuneResult::Stop::Disturbed:
        return "disturbed";
    }
    return "?";
}

namespace {

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

} // namespace

namespace detail {

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
    const bool ok = loadTest(log, c, m_spec);
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

std::optional<std::string> Run::baselineDiffers(std::string* error) {
    const auto bundle = m_router.collect(error);
    if (!bundle)
        return std::nullopt;
    const auto differs = layout::changedWrites(
        layout::resolve(m_result.candidates.front().layout, buildSnapshot(*bundle)));
    std::string what;
    for (std::size_t i = 0; i < differs.size() && i < 3; ++i)
        what += (i ? "; " : "") + differs[i].target + " is " + differs[i].current + ", not " +
                differs[i].value;
    if (differs.size() > 3)
        what += " (" + std::to_string(differs.size() - 3) + " more)";
    return text::printable(what, 400);
}

void Run::readBack() {
    if (m_result.stop == TuneResult::Stop::ConnectionLost)
        return; // the router's revert timer has it
    std::string error;
    const auto differs = baselineDiffers(&error);
    if (!differs) {
        m_result.readBack = "The router's masks could not be read back: " + error + ".";
        return;
    }
    if (differs->empty()) {
        m_result.readBack = "Read back at the end: the router is on its baseline.";
        return;
    }
    m_result.baselineRestored = false;
    m_result.readBack = "Read back at the end, the router differs from its baseline: " + *differs +
                        ". Something else changed it (another client, irqbalance, the "
                        "firmware's steering).";
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
    // The load must run before any candidate is applied.
    bool stopped = !preflight();
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
            if (stopped)
                break;
            if (!m_result.leftOut[static_cast<std::size_t>(order[i].candidate)].empty())
                continue; // refused by the router: no load ran
            // Measured at once against the block's idle spells so far (for the plot, and to
            // see that the load ran); the block's end measures it again against all of them.
            std::vector<const TrialLog*> sofar;
            for (std::size_t j = 0; j <= i; ++j)
                sofar.push_back(&logs[j]);
            auto r = TrialResult::measure(logs[i], blockIdle(sofar));
            r.block = b;
            r.candidate = order[i].candidate;
            r.repeat = order[i].repeat;
            if (const auto why = loadFailed(r, m_spec)) {
                notMeasured("the load failed in block " + std::to_string(b + 1) +
                            ", in the trial "
                            "of " +
                            m_result.candidates[static_cast<std::size_t>(r.candidate)].name + " (" +
                            *why + "); the blocks before it are in the recording");
                stopped = true;
                break;
            }
            if (m_hooks.trialDone)
                m_hooks.trialDone(r);
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
        // After every block, before any verdict: the baseline must still be the router's.
        // Something else that moved masks under the trials (another client, irqbalance, the
        // firmware's steering on a network reload) leaves nothing to judge.
        {
            std::string error;
            const auto differs = baselineDiffers(&error);
            if (!differs) {
                lost("The router's masks could not be read back after block " +
                     std::to_string(m_result.blocks) + " (" + error + ")");
                break;
            }
            if (!differs->empty()) {
                m_result.stop = TuneResult::Stop::Disturbed;
                m_result.stopText =
                    "Not judged: the router's baseline changed during the run (" + *differs +
                    "), read back after block " + std::to_string(m_result.blocks) +
                    ". Something else sets masks on it (another client, irqbalance, the "
                    "firmware's steering on a network reload); the blocks are in the recording.";
                break;
            }
        }
        judgeNow();
        if (m_hooks.verdict)
            m_hooks.verdict(m_result.verdict, m_result.blocks);
        if (m_result.verdict.decided) {
            m_result.stop = TuneResult::Stop::Decided;
            stopped = true;
        } else if (m_hooks.checkpoint) {
            // The run so far, for a recording that outlives a kill: the baseline is in force
            // between blocks, and the next checkpoint or the end writes over this one.
            TuneResult sofar = m_result;
            sofar.stop = TuneResult::Stop::Running;
            sofar.seconds = elapsed();
            sofar.stopText = "This run did not end: its result was written after block " +
                             std::to_string(m_result.blocks) + " of at most " +
                             std::to_string(most) +
                             ", and nothing after it (the run was killed, or this machine or "
                             "its connection stopped). A trial in force then was undone by the "
                             "router's revert timer.";
            m_hooks.checkpoint(sofar);
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
    readBack();
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
    case TuneResult::Stop::NotMeasured:
    case TuneResult::Stop::Disturbed:
        // Whatever the blocks before it said, a run whose load failed, or whose baseline moved
        // under it, measured nothing to judge: never "no difference".
        v.text = m_result.stopText;
        break;
    case TuneResult::Stop::Cancelled:
    case TuneResult::Stop::ConnectionLost:
    case TuneResult::Stop::Failed:
    case TuneResult::Stop::Running:
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

} // namespace detail

double trialSeconds(const TuneSpec& spec) {
    return spec.idleSeconds + detail::phaseCount(spec) * std::max(1.0, spec.test.phaseSeconds) +
           0.5;
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

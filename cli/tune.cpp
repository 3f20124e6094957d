// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// tune: finds the best layout for the router by experiment (core/measure/tuner.h), with the
// load test of monitor --bufferbloat, into one recording.
#include "cli/verbs.h"

#include "core/base/json_text.h"
#include "core/base/text.h"
#include "core/collect/capture.h"
#include "core/layout/apply.h"
#include "core/layout/resolve.h"
#include "core/live/demoload.h"
#include "core/live/recording.h"
#include "core/measure/tune_conflicts.h"
#include "core/measure/tune_json.h"
#include "core/measure/tuner.h"

#include <chrono>
#include <filesystem>
#include <sstream>

namespace coresteer::cli {

using namespace coresteer::live;
using namespace coresteer::measure;

namespace {

// "download,upload,both" into the load's phases; false with *error.
bool parsePhases(const std::string& text, std::vector<LoadSpec::Direction>& out,
                 std::string* error) {
    out.clear();
    std::stringstream in(text);
    std::string word;
    while (std::getline(in, word, ',')) {
        word = std::string(text::trim(word));
        LoadSpec::Direction d;
        if (word == "download")
            d = LoadSpec::Direction::Download;
        else if (word == "upload")
            d = LoadSpec::Direction::Upload;
        else if (word == "both")
            d = LoadSpec::Direction::Both;
        else {
            *error = "--phases takes download, upload and both, separated by commas, not '" +
                     text::printable(word, 20) + "'";
            return false;
        }
        if (std::find(out.begin(), out.end(), d) != out.end()) {
            *error = "--phases names '" + word + "' twice";
            return false;
        }
        out.push_back(d);
    }
    if (out.empty()) {
        *error = "--phases needs at least one of download, upload and both";
        return false;
    }
    return true;
}

// "block 2 of 6, trial 3 of 5: Everything on big (4 min 10 s left)"
std::string progressLine(const TuneProgress& p) {
    if (!p.message.empty())
        return p.message;
    const int left = static_cast<int>(p.left);
    return "block " + std::to_string(p.block + 1) + " of at most " + std::to_string(p.blocks) +
           ", trial " + std::to_string(p.trial + 1) + " of " + std::to_string(p.trialsPerBlock) +
           ": " + p.name + " (" + std::to_string(left / 60) + " min " + std::to_string(left % 60) +
           " s of the budget left)";
}

} // namespace

int tuneCommand(const Options& o, std::ostream& out, std::ostream& err) {
    if (const int rc = noArguments(o, err))
        return rc;
    if (o.record.empty())
        return usageError(err, "tune needs --record FILE: the whole run is kept in one recording");
    // Where the run will be kept, before anything is contacted: a run is not lost at its end.
    if (std::string why; !text::canWriteFileAtomic(o.record, &why)) {
        err << "coresteer-cli: --record " << text::printable(why, 300) << "\n";
        return 2;
    }
    TuneSpec spec;
    bool downloadOnly = false;
    if (const int rc = loadTestSpec(o, spec.test, downloadOnly, err))
        return rc;
    std::string why;
    if (!parsePhases(o.phases, spec.test.phases, &why))
        return usageError(err, why);
    if (spec.test.load)
        for (auto d : spec.test.phases)
            if (!spec.test.load->canRun(d))
                return usageError(err, "an HTTP(S) --load uploads only to a --post-url: "
                                       "without one, --phases download");
    spec.test.phaseSeconds = o.tunePhaseSeconds;
    spec.idleSeconds = o.idleSeconds;
    spec.budgetSeconds = o.budget;
    spec.objective = objectiveFromString(o.objective).value_or(Objective::Throughput);
    spec.marginPct = o.margin;
    spec.latencyMarginMs = o.latencyMargin;
    spec.rate = 10;
    if (const char* seed = std::getenv("CORESTEER_TUNE_SEED"))
        spec.seed = text::parseU64(seed).value_or(0);

    // The person's own candidates, read before anything is contacted.
    CandidateOptions co;
    co.plan = !o.noPlan;
    co.presets = !o.noPlan;
    for (const auto& f : o.candidates) {
        std::optional<layout::Preset> preset;
        const auto l = readLayoutFile(f, err, &preset);
        if (!l)
            return 2;
        Candidate c;
        c.name = preset ? preset->name : std::filesystem::path(f).filename().string();
        c.source = Candidate::Source::File;
        c.why = preset ? preset->note : "From " + f + ".";
        c.layout = *l;
        co.extra.push_back(std::move(c));
    }

    auto r = openTarget(o, err);
    if (!r)
        return 2;
    const std::string where = r->demo ? std::string("demo") : (*r)->where();
    std::string error;
    const auto bundle = (*r)->collect(&error);
    if (!bundle) {
        err << "coresteer-cli: " << where << ": " << error << "\n";
        return 2;
    }
    const Snapshot snap = buildSnapshot(*bundle);
    if (snap.completeness() == 2) {
        err << "coresteer-cli: " << where << ": the snapshot has no CPUs or no IRQs to lay out\n";
        return 2;
    }
    // What else moves masks on the router: said; irqbalance running refuses the run.
    bool refused = false;
    for (const auto& c : tuneConflicts(snap)) {
        err << "coresteer-cli: " << where << ": " << text::printable(c.title, 200) << ": "
            << text::printable(c.effect, 300) << " " << text::printable(c.remedy, 300) << "\n";
        refused = refused || (c.refuses && !o.allowConflicts);
    }
    if (refused) {
        err << "coresteer-cli: " << where << ": not tuned: nothing was applied\n";
        return 2;
    }
    std::vector<std::string> notes;
    auto candidates = gatherCandidates(snap, co, &notes);
    for (const auto& n : notes)
        err << "coresteer-cli: " << text::printable(n, 200) << "\n";
    if (candidates.size() < 2) {
        err << "coresteer-cli: nothing to compare: no candidate changes anything on " << where
            << " (add one with --candidate FILE)\n";
        return 2;
    }

    TuneHooks hooks;
    std::unique_ptr<DemoLoad> demo;
    auto lastStep = std::chrono::steady_clock::now();
    if (r->demo) {
        demo = DemoLoad::create((*r)->root(), snap, &error);
        if (!demo) {
            err << "coresteer-cli: demo: " << error << "\n";
            return 2;
        }
        if (!spec.test.load) {
            hooks.startModel = [&demo](double idle, double phase,
                                       const std::vector<std::string>& phases) {
                demo->startTest(idle, phase, phases);
            };
            hooks.model = [&demo] {
                return LoadTest::Spec::ModelState{demo->latencyMs(), demo->phase(),
                                                  demo->downMbps() * 1e6, demo->upMbps() * 1e6};
            };
        }
        hooks.beforeTick = [&demo, &lastStep](std::string* e) {
            const auto n = std::chrono::steady_clock::now();
            const double dt = std::chrono::duration<double>(n - lastStep).count();
            lastStep = n;
            return demo->step(std::min(dt, 2.0), e);
        };
    } else if (!spec.test.load) {
        return usageError(err, "tune needs a load through the router: --load iperf3://HOST or "
                               "--load URL (the demo's model is its own load)");
    }
    if ((*r)->isRemote() && (*r)->session()) {
        spec.test.lanHost = (*r)->session()->resolvedHost();
        spec.test.lanPort = (*r)->session()->resolvedPort();
        spec.test.session = (*r)->session();
    }
    // The plan is known now: a budget that cannot reach its first look is refused before
    // anything is applied.
    const auto estimate = estimateTune(spec, static_cast<int>(candidates.size()));
    if (!estimate.fits) {
        err << "coresteer-cli: " << where << ": the plan needs " << estimate.text << "\n";
        return 2;
    }
    err << "coresteer-cli: tuning " << where << ": " << candidates.size()
        << " candidates (the baseline among them); the plan: " << estimate.text << "\n";
    for (std::size_t i = 0; i < candidates.size(); ++i)
        err << "  " << i << ". " << text::printable(candidates[i].name, 60) << " ("
            << toString(candidates[i].source)
            << "): " << text::printable(candidates[i].changes, 160) << "\n";

    RecordingWriter rec(RecordingInfo{where,
                                      utcTimestamp(),
                                      spec.rate,
                                      writeCapture(*bundle),
                                      jsonText(layout::toJson(candidates.front().layout)),
                                      {}});
    hooks.progress = [&err](const TuneProgress& p) {
        err << "coresteer-cli: " << text::printable(progressLine(p), 300) << "\n" << std::flush;
    };
    Interruptible interruptible(
        "\ncoresteer-cli: interrupted: restoring the baseline...\n",
        "coresteer-cli: still restoring the baseline: wait for it, it takes seconds\n");
    hooks.cancel = &Interruptible::flag();
    // The recording is written after each block that did not decide, so that a run killed or
    // cut off keeps its blocks (its result says it did not end); the end writes over it.
    bool checkpointFailed = false;
    hooks.checkpoint = [&](const TuneResult& sofar) {
        rec.setTune(jsonText(tuneJson(sofar, spec.objective), -1));
        std::string e;
        if (!saveRecording(rec, o.record, &e) && !checkpointFailed) {
            checkpointFailed = true;
            err << "coresteer-cli: " << text::printable(e, 300) << " (tried again at the end)\n";
        }
    };
    const auto result = runTune(*r->router, snap, std::move(candidates), spec, rec, hooks);
    const auto doc = tuneJson(result, spec.objective);
    rec.setTune(jsonText(doc, -1));
    if (!saveRecording(rec, o.record, &error)) {
        err << "coresteer-cli: " << error << "\n";
        return 2;
    }
    if (result.stop == TuneResult::Stop::Failed && result.trials.empty()) {
        err << "coresteer-cli: " << where << ": " << result.stopText << "\n";
        return 2;
    }
    err << "coresteer-cli: " << text::printable(result.stopText, 300) << "\n";

    // --keep-winner: the winner goes on with the revert armed, for a confirm.
    std::string kept;
    if (o.keepWinner && result.verdict.winner && result.baselineRestored &&
        result.stop != TuneResult::Stop::Cancelled) {
        const auto& w = result.candidates[static_cast<std::size_t>(*result.verdict.winner)];
        layout::ApplyOptions ao;
        ao.revertAfterSeconds = o.revertAfter;
        const auto report = (*r)->apply(layout::resolve(w.layout, snap), ao, &error);
        if (!report || report->rolledBack) {
            err << "coresteer-cli: the winner could not be kept: "
                << (report ? std::string("the apply was rolled back") : error) << "\n";
        } else {
            kept = w.name;
            err << "coresteer-cli: " << text::printable(w.name, 60)
                << " is in force; it reverts in " << o.revertAfter
                << " s unless you run `coresteer-cli confirm` on the router\n";
        }
    }
    if (o.json) {
        auto j = doc;
        j["kept"] = kept.empty() ? nlohmann::json(nullptr) : nlohmann::json(kept);
        j["recording"] = o.record;
        out << jsonText(j) << "\n";
    } else if (const auto t = tuneText(doc, &error)) {
        out << *t;
    }
    using Stop = TuneResult::Stop;
    return result.stop == Stop::Cancelled ? 1
           : result.stop == Stop::ConnectionLost || result.stop == Stop::Failed ||
                   result.stop == Stop::NotMeasured || result.stop == Stop::Disturbed
               ? 2
               : 0;
}

} // namespace coresteer::cli

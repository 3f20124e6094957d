// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The tuner's candidates: the baseline first, then the person's own, the planner's and the
// board's presets; each named, saying what it changes, none writing what another writes; and
// the built-in presets as core reads them.
#include "core/collect/collect_local.h"
#include "core/layout/builtin_presets.h"
#include "core/layout/planner.h"
#include "core/layout/resolve.h"
#include "core/measure/candidates.h"
#include "core/measure/tune_conflicts.h"
#include "tests/support/board_expect.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>

using namespace coresteer;
using namespace coresteer::measure;

namespace {

Snapshot candidateBoard(const std::string& name) {
    return buildSnapshot(collectLocal(test::boardDir(name)));
}

} // namespace

TEST(BuiltinPresets, EveryFileReadsAndMatchesItsBoard) {
    std::size_t files = 0;
    for (const auto& e : std::filesystem::directory_iterator(CORESTEER_PRESETS_DIR))
        files += e.path().extension() == ".json" ? 1 : 0;
    ASSERT_EQ(layout::builtinPresets().size(), files) << "a preset file is not embedded, or "
                                                         "does not read";
    const auto r6s = layout::builtinPresetsFor("friendlyelec,nanopi-r6s");
    ASSERT_EQ(r6s.size(), 3u);
    EXPECT_EQ(r6s[0].preset.name, "R6S option 1");
    EXPECT_TRUE(layout::builtinPresetsFor("").empty());
    EXPECT_TRUE(layout::builtinPresetsFor("no,such-board").empty());
}

TEST(Candidates, BaselineFirstThenThePlannersAndTheBoardsPresets) {
    const auto snap = candidateBoard("nanopi-r6s-friendlywrt");
    std::vector<std::string> notes;
    const auto c = gatherCandidates(snap, {}, &notes);
    ASSERT_GE(c.size(), 4u);
    EXPECT_LE(c.size(), kMaxCandidates);
    EXPECT_EQ(c[0].source, Candidate::Source::Current);
    EXPECT_EQ(c[0].changes, "changes nothing");
    EXPECT_TRUE(layout::sameTargets(c[0].layout, layout::currentLayout(snap)));
    EXPECT_EQ(c[1].source, Candidate::Source::Plan);
    std::set<std::string> names;
    bool preset = false, alternative = false;
    for (std::size_t i = 0; i < c.size(); ++i) {
        EXPECT_TRUE(names.insert(c[i].name).second) << c[i].name;
        EXPECT_FALSE(c[i].why.empty()) << c[i].name;
        preset = preset || c[i].source == Candidate::Source::Preset;
        alternative = alternative || c[i].source == Candidate::Source::Alternative;
        if (i == 0)
            continue;
        // Each changes something, and not what another one changes.
        EXPECT_NE(c[i].changes, "changes nothing") << c[i].name;
        EXPECT_NE(c[i].changes.find("->"), std::string::npos) << c[i].changes;
        for (std::size_t j = 1; j < i; ++j)
            EXPECT_FALSE(layout::sameTargets(c[i].layout, c[j].layout))
                << c[i].name << " and " << c[j].name;
    }
    EXPECT_TRUE(alternative);
    EXPECT_TRUE(preset);
    // Only this board's presets are among them.
    std::set<std::string> own;
    for (const auto& p : layout::builtinPresetsFor(snap.system.boardName))
        own.insert(p.preset.name);
    for (const auto& x : c)
        if (x.source == Candidate::Source::Preset)
            EXPECT_TRUE(own.count(x.name)) << x.name;
}

TEST(Candidates, ThePersonsOwnComeFirstAndOneEqualToTheBaselineIsLeftOut) {
    const auto snap = candidateBoard("x86-virtio-lab");
    CandidateOptions o;
    Candidate same;
    same.name = "same.json";
    same.source = Candidate::Source::File;
    same.layout = layout::currentLayout(snap);
    // A placebo: the baseline with one IRQ on another CPU.
    Candidate placebo = same;
    placebo.name = "placebo.json";
    ASSERT_FALSE(placebo.layout.irqs.empty());
    auto& moved = placebo.layout.irqs.front().cpus;
    moved = CpuMask::fromCpus({moved.test(1) ? 0 : 1});
    o.extra = {same, placebo, placebo};
    std::vector<std::string> notes;
    auto c = gatherCandidates(snap, o, &notes);
    ASSERT_GE(c.size(), 3u);
    EXPECT_EQ(c[1].name, "placebo.json");
    EXPECT_NE(c[1].changes, "changes nothing");
    EXPECT_EQ(c[2].source, Candidate::Source::Plan);
    for (const auto& x : c)
        EXPECT_NE(x.name, "same.json"); // the baseline under another name does not run
    // Each left out is said: the copy of the baseline with what shows the noise instead, the
    // second placebo as writing what the first writes.
    ASSERT_GE(notes.size(), 2u);
    EXPECT_NE(notes[0].find("same.json: left out, it changes nothing on this router (it is the "
                            "baseline; to see the noise, try a change that should not matter"),
              std::string::npos)
        << notes[0];
    EXPECT_NE(notes[1].find("placebo.json: left out, it writes what placebo.json writes"),
              std::string::npos)
        << notes[1];
    // Without the planner and the presets: the baseline alone, or it and the placebo.
    o.plan = false;
    o.presets = false;
    o.extra = {same};
    EXPECT_EQ(gatherCandidates(snap, o, nullptr).size(), 1u);
    o.extra = {placebo};
    EXPECT_EQ(gatherCandidates(snap, o, nullptr).size(), 2u);
}

TEST(Candidates, AtMostTheCapWithANoteForEachLeftOut) {
    const auto snap = candidateBoard("nanopi-r6s-friendlywrt");
    CandidateOptions o;
    o.max = 3;
    std::vector<std::string> notes;
    const auto c = gatherCandidates(snap, o, &notes);
    ASSERT_EQ(c.size(), 3u);
    bool said = false;
    for (const auto& n : notes)
        said = said || n.find("left out, at most 3 candidates") != std::string::npos;
    EXPECT_TRUE(said);
    EXPECT_EQ(describeChanges(c[0].layout, snap), "changes nothing");
}

// What else moves masks, as it bears on a tune: irqbalance running refuses the run (it would
// move IRQs under the trials); a board without it has nothing that refuses.
TEST(TuneConflicts, IrqbalanceRunningRefusesTheRun) {
    const auto withIt = tuneConflicts(candidateBoard("bpi-r4"));
    const auto it = std::find_if(withIt.begin(), withIt.end(), [](const TuneConflict& c) {
        return c.kind == Conflict::Kind::Irqbalance;
    });
    ASSERT_NE(it, withIt.end());
    EXPECT_TRUE(it->refuses);
    EXPECT_NE(it->effect.find("every 10 s"), std::string::npos) << it->effect;
    EXPECT_NE(it->remedy.find("--allow-conflicts"), std::string::npos) << it->remedy;
    for (const auto& c : tuneConflicts(candidateBoard("x86-virtio-lab")))
        EXPECT_FALSE(c.refuses) << c.title;
}

// A person's file made for another router: what does not apply here is named, and the rest is
// tried.
TEST(Candidates, WhatDoesNotApplyHereIsNamed) {
    const auto snap = candidateBoard("x86-virtio-lab");
    Candidate c;
    c.name = "other-router.json";
    c.source = Candidate::Source::File;
    c.layout = layout::currentLayout(snap);
    ASSERT_FALSE(c.layout.irqs.empty());
    auto& moved = c.layout.irqs.front().cpus;
    moved = CpuMask::fromCpus({moved.test(1) ? 0 : 1});
    layout::IrqTarget missing;
    missing.irq = {"eth9-rx-0", 0};
    missing.cpus = CpuMask::fromCpus({1});
    c.layout.irqs.push_back(missing);
    const auto note = notOnThisRouter(c, snap);
    EXPECT_EQ(note.rfind("other-router.json: 1 entry does not apply on this router", 0), 0u)
        << note;
    EXPECT_NE(note.find("eth9-rx-0"), std::string::npos) << note;
    CandidateOptions o;
    o.plan = o.presets = false;
    o.extra = {c};
    std::vector<std::string> notes;
    EXPECT_EQ(gatherCandidates(snap, o, &notes).size(), 2u); // tried all the same
    ASSERT_EQ(notes.size(), 1u);
    EXPECT_EQ(notes[0], note);
    c.layout = layout::currentLayout(snap);
    EXPECT_TRUE(notOnThisRouter(c, snap).empty());
}

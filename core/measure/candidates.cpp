// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/measure/candidates.h"

#include "core/layout/apply.h"
#include "core/layout/builtin_presets.h"
#include "core/layout/planner.h"
#include "core/layout/resolve.h"

#include <algorithm>

namespace coresteer::measure {

const char* toString(Candidate::Source s) {
    switch (s) {
    case Candidate::Source::Current:
        return "current";
    case Candidate::Source::Plan:
        return "plan";
    case Candidate::Source::Alternative:
        return "alternative";
    case Candidate::Source::Preset:
        return "preset";
    case Candidate::Source::File:
        return "file";
    case Candidate::Source::Edit:
        return "edit";
    }
    return "?";
}

std::optional<Candidate::Source> sourceFromString(const std::string& s) {
    for (auto v :
         {Candidate::Source::Current, Candidate::Source::Plan, Candidate::Source::Alternative,
          Candidate::Source::Preset, Candidate::Source::File, Candidate::Source::Edit})
        if (s == toString(v))
            return v;
    return std::nullopt;
}

std::string describeChanges(const layout::Layout& l, const Snapshot& snap) {
    const auto writes = layout::changedWrites(layout::resolve(l, snap));
    if (writes.empty())
        return "changes nothing";
    std::string out;
    const std::size_t shown = std::min<std::size_t>(writes.size(), 3);
    for (std::size_t i = 0; i < shown; ++i) {
        if (i)
            out += "; ";
        out += writes[i].target + " " + (writes[i].current.empty() ? "?" : writes[i].current) +
               " -> " + writes[i].value;
    }
    if (writes.size() > shown)
        out += " (" + std::to_string(writes.size() - shown) + " more)";
    return out;
}

namespace {

// What a candidate does to this router: its changed writes, in a canonical order.
std::vector<std::pair<std::string, std::string>> effect(const std::vector<layout::Write>& writes) {
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& w : writes)
        out.emplace_back(w.path, w.value);
    std::sort(out.begin(), out.end());
    return out;
}

} // namespace

std::optional<std::string> whyLeftOut(const Candidate& c, const std::vector<Candidate>& have,
                                      const Snapshot& snap, bool own) {
    // One that changes nothing would run the baseline a third time in every block under
    // another name: the person's own too, with a word on what shows the noise instead.
    const auto writes = layout::changedWrites(layout::resolve(c.layout, snap));
    if (writes.empty())
        return std::string("it changes nothing on this router") +
               (own ? " (it is the baseline; to see the noise, try a change that should not "
                      "matter, such as an idle NIC's IRQ on another core)"
                    : "");
    const auto key = effect(writes);
    for (std::size_t i = 1; i < have.size(); ++i)
        if (layout::sameTargets(have[i].layout, c.layout) ||
            effect(layout::changedWrites(layout::resolve(have[i].layout, snap))) == key)
            return "it writes what " + have[i].name + " writes";
    return std::nullopt;
}

std::string notOnThisRouter(const Candidate& c, const Snapshot& snap) {
    const auto skipped = layout::resolve(c.layout, snap).skipped;
    if (skipped.empty())
        return {};
    std::string out = c.name + ": " + std::to_string(skipped.size()) +
                      (skipped.size() == 1 ? " entry does" : " entries do") +
                      " not apply on this router, and the trials go without: ";
    const std::size_t shown = std::min<std::size_t>(skipped.size(), 3);
    for (std::size_t i = 0; i < shown; ++i)
        out += (i ? "; " : "") + skipped[i].target + " (" + skipped[i].reason + ")";
    if (skipped.size() > shown)
        out += " (" + std::to_string(skipped.size() - shown) + " more)";
    return out;
}

std::vector<Candidate> gatherCandidates(const Snapshot& snap, const CandidateOptions& options,
                                        std::vector<std::string>* notes) {
    std::vector<Candidate> out;
    auto note = [&](const std::string& n) {
        if (notes)
            notes->push_back(n);
    };
    Candidate base;
    base.name = "Current layout";
    base.source = Candidate::Source::Current;
    base.why = "The router's layout before the tune: every candidate is compared with it, and "
               "it runs twice in every block to measure the noise.";
    base.layout = layout::currentLayout(snap);
    base.changes = "changes nothing";
    out.push_back(std::move(base));

    // A candidate is added when there is room and it writes something new.
    auto add = [&](Candidate c, bool own) {
        if (out.size() >= options.max) {
            note(c.name + ": left out, at most " + std::to_string(options.max) +
                 " candidates (the baseline among them)");
            return;
        }
        if (auto why = whyLeftOut(c, out, snap, own)) {
            note(c.name + ": left out, " + *why);
            return;
        }
        if (const auto dropped = notOnThisRouter(c, snap); !dropped.empty())
            note(dropped);
        c.changes = describeChanges(c.layout, snap);
        out.push_back(std::move(c));
    };
    for (const auto& e : options.extra)
        add(e, true);
    if (options.plan) {
        bool first = true;
        for (auto& a : layout::planAlternatives(snap)) {
            Candidate c;
            c.name = a.name;
            c.source = first ? Candidate::Source::Plan : Candidate::Source::Alternative;
            c.why = a.why;
            c.layout = std::move(a.layout);
            add(std::move(c), false);
            first = false;
        }
    }
    if (options.presets)
        for (const auto& p : layout::builtinPresetsFor(snap.system.boardName)) {
            Candidate c;
            c.name = p.preset.name;
            c.source = Candidate::Source::Preset;
            c.why = p.preset.note;
            c.layout = p.preset.layout;
            add(std::move(c), false);
        }
    return out;
}

} // namespace coresteer::measure

// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The verbs that read: snapshot, plan, diff, capture, preset save and load.
#include "cli/verbs.h"

#include "cli/inventory.h"
#include "cli/terminal_prompter.h"
#include "core/base/json_text.h"
#include "core/base/log.h"
#include "core/base/text.h"
#include "core/base/utf8.h"
#include "core/collect/capture.h"
#include "core/layout/apply.h"
#include "core/layout/fleet.h"
#include "core/layout/layout_json.h"
#include "core/layout/persist.h"
#include "core/layout/planner.h"
#include "core/layout/resolve.h"
#include "core/live/recording.h"
#include "core/live/source.h"
#include "core/model/snapshot_json.h"
#include "core/model/snapshot_text.h"
#include "core/router/router.h"

#include <CLI/CLI.hpp>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <ostream>
#include <sstream>
#include <thread>
#include <tuple>

namespace coresteer::cli {

using namespace coresteer::layout;

namespace fs = std::filesystem;

int snapshotCommand(const Options& o, std::ostream& out, std::ostream& err) {
    if (const int rc = noArguments(o, err))
        return rc;
    const auto a = acquire(o, err);
    if (!a)
        return 2;
    if (o.json)
        out << toJsonText(a->snap) << "\n";
    else
        out << toText(a->snap);
    printDiagnostics(*a, err);
    return a->snap.completeness();
}

std::string layoutText(const Layout& l, const Snapshot& snap) {
    std::ostringstream s;
    for (const auto& n : l.notes)
        s << n << "\n";
    if (!l.notes.empty())
        s << "\n";
    const auto r = resolve(l, snap);
    for (const auto& w : r.writes) {
        s << "  " << w.target << ": " << w.path << " " << (w.current.empty() ? "?" : w.current)
          << " -> " << w.value << (w.changes() ? "" : "  (unchanged)") << "\n";
        if (!w.why.empty())
            s << "      " << w.why << "\n";
    }
    for (const auto& k : r.skipped)
        s << "  " << k.target << ": cannot apply: " << k.reason << "\n";
    return s.str();
}

int planCommand(const Options& o, std::ostream& out, std::ostream& err) {
    if (const int rc = noArguments(o, err))
        return rc;
    PlanGoal goal;
    goal.governor = o.governor == "keep" ? std::string() : o.governor;
    // One connection: the snapshot, then the load.
    Opened opened;
    const auto a = acquireUsable(o, err, &opened);
    if (!a)
        return 2;
    if (o.measure > 0) {
        goal.load = measureLoad(*opened.router, o.measure, err);
        if (!goal.load)
            return 2;
    }
    const auto l = plan(a->snap, goal);
    if (o.json)
        out << jsonText(toJson(l)) << "\n";
    else
        out << "Proposed layout for " << a->where << "\n\n" << layoutText(l, a->snap);
    return 0;
}

int diffCommand(const Options& o, std::ostream& out, std::ostream& err) {
    if (o.positional.size() != 1)
        return usageError(err, "diff needs TARGET and one LAYOUT file");
    std::optional<Preset> preset;
    const auto layout = readLayoutFile(o.positional.front(), err, &preset);
    if (!layout)
        return 2;
    const auto a = acquire(o, err);
    if (!a)
        return 2;
    printDiagnostics(*a, err);
    const auto r = resolve(*layout, a->snap);
    if (o.json) {
        nlohmann::json j;
        j["changes"] = nlohmann::json::array();
        for (const auto& w : r.writes)
            j["changes"].push_back({{"target", w.target},
                                    {"path", w.path},
                                    {"current", w.current},
                                    {"value", w.value},
                                    {"changes", w.changes()}});
        j["not_applicable"] = nlohmann::json::array();
        for (const auto& k : r.skipped)
            j["not_applicable"].push_back({{"target", k.target}, {"reason", k.reason}});
        out << jsonText(j) << "\n";
    } else {
        if (preset && preset->board != a->snap.system.boardName)
            out << "This preset was made on " << preset->board << "; this is "
                << (a->snap.system.boardName.empty() ? "an unknown board"
                                                     : a->snap.system.boardName)
                << ".\n";
        out << r.changeCount() << " of " << r.writes.size() << " values change on " << a->where
            << "\n\n"
            << layoutText(*layout, a->snap);
    }
    return r.skipped.empty() ? 0 : 1;
}

int captureCommand(const Options& o, std::ostream& out, std::ostream& err) {
    if (o.positional.size() != 1)
        return usageError(err, "capture needs TARGET and one FILE");
    auto r = openTarget(o, err);
    if (!r)
        return 2;
    std::string error;
    const auto bundle = (*r)->collect(&error);
    if (!bundle) {
        err << "coresteer-cli: " << error << "\n";
        return 2;
    }
    const auto& file = o.positional.front();
    if (!text::writeFileAtomic(file, writeCapture(*bundle), &error)) {
        err << "coresteer-cli: " << error << "\n";
        return 2;
    }
    if (o.json)
        out << jsonText({{"file", file},
                         {"entries", bundle->entries().size()},
                         {"bytes", bundle->totalBytes()}})
            << "\n";
    else
        out << "Saved " << bundle->entries().size() << " entries (" << bundle->totalBytes()
            << " bytes) from " << (*r)->where() << " to " << file << "\n";
    return 0;
}

int presetCommand(const std::string& what, Options o, std::ostream& out, std::ostream& err) {
    int code = 2;
    if (!finishTargets(o, 1, err, code, what == "load"))
        return code;
    if (o.positional.size() != 1 || o.targets.size() > 1)
        return usageError(err, "preset " + what + " needs TARGET and one FILE");
    if (what == "load")
        return diffCommand(o, out, err);
    const auto a = acquireUsable(o, err);
    if (!a)
        return 2;
    Preset p;
    p.board = a->snap.system.boardName;
    p.name = (p.board.empty() ? std::string("router") : p.board) + " as found";
    p.note = "Saved by coresteer-cli from " + a->where + " (" +
             (a->snap.system.model.empty() ? p.board : a->snap.system.model) + ").";
    p.layout = currentLayout(a->snap);
    std::string error;
    if (!text::writeFileAtomic(o.positional.front(), jsonText(toJson(p)) + "\n", &error)) {
        err << "coresteer-cli: " << error << "\n";
        return 2;
    }
    if (o.json)
        out << jsonText({{"file", o.positional.front()},
                         {"board", p.board},
                         {"irqs", p.layout.irqs.size()},
                         {"rx_queues", p.layout.rx.size()},
                         {"tx_queues", p.layout.tx.size()},
                         {"interfaces", p.layout.interfaces.size()}})
            << "\n";
    else
        out << "Saved " << p.layout.irqs.size() << " IRQs, " << p.layout.rx.size()
            << " receive and " << p.layout.tx.size() << " transmit queues to "
            << o.positional.front() << "\n";
    return 0;
}

} // namespace coresteer::cli

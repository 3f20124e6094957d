// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The verbs that change a router now: apply, confirm, revert.
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

// What one apply did, for the report of one router or the line of one in many.
struct ApplyOutcome {
    int code = 2;
    nlohmann::json json;
    std::size_t written = 0, refused = 0, notApplicable = 0;
    bool confirmed = false, pending = false, rolledBack = false, armed = false;
};

// Applies `layout` to the target of `o`; what goes wrong is printed on err.
ApplyOutcome applyTo(const Options& o, const Layout& layout, std::ostream& err) {
    ApplyOutcome oc;
    const auto a = acquire(o, err);
    if (!a)
        return oc;
    const auto r = resolve(layout, a->snap);
    auto ex = openTarget(o, err);
    if (!ex)
        return oc;
    std::string error;
    const auto rep = (*ex)->apply(r, {o.revertAfter, !o.noRevert}, &error);
    if (!rep) {
        err << "coresteer-cli: " << error << "\n";
        return oc;
    }
    if (rep->revertArmed && !o.noConfirm && !rep->rolledBack) {
        // A new connection proves the router is still reachable after the change.
        auto again = openTarget(o, err);
        oc.confirmed = again && (*again)->settle(PendingAction::Confirm, &error);
        if (!oc.confirmed)
            err << "coresteer-cli: could not confirm (" << error
                << "); the router restores its old values in " << o.revertAfter << " s\n";
    }
    bool allApplied = r.skipped.empty() && !rep->rolledBack;
    auto& j = oc.json;
    j["results"] = nlohmann::json::array();
    for (const auto& t : rep->results) {
        const bool ok = t.status == TargetResult::Status::Applied ||
                        t.status == TargetResult::Status::AppliedPending;
        allApplied = allApplied && ok;
        oc.written += ok ? 1 : 0;
        oc.refused += ok ? 0 : 1;
        j["results"].push_back({{"target", t.write.target},
                                {"path", t.write.path},
                                {"value", t.write.value},
                                {"before", t.write.current},
                                {"status", toString(t.status)},
                                {"read_back", t.readBack},
                                {"effective", t.effective},
                                {"error", t.error}});
    }
    j["not_applicable"] = nlohmann::json::array();
    for (const auto& k : r.skipped)
        j["not_applicable"].push_back({{"target", k.target}, {"reason", k.reason}});
    oc.notApplicable = r.skipped.size();
    oc.rolledBack = rep->rolledBack;
    oc.armed = rep->revertArmed;
    oc.pending = rep->revertArmed && !oc.confirmed;
    j["rolled_back"] = rep->rolledBack;
    j["revert_pending"] = oc.pending;
    j["confirmed"] = oc.confirmed;
    j["_report"] = nlohmann::json::array(); // the text lines, removed before printing
    for (const auto& t : rep->results)
        j["_report"].push_back("  " + t.write.target + ": " + t.write.current + " -> " +
                               t.write.value + ": " + toString(t.status) +
                               (t.error.empty() ? "" : " (" + t.error + ")") +
                               (t.status == TargetResult::Status::AppliedPending
                                    ? " (effective now " + t.effective + ")"
                                    : ""));
    for (const auto& k : r.skipped)
        j["_report"].push_back("  " + k.target + ": cannot apply: " + k.reason);
    oc.code = rep->rolledBack ? 2 : allApplied ? 0 : 1;
    return oc;
}

// One line for one router of many.
std::string outcomeLine(const ApplyOutcome& oc, int revertAfter) {
    if (oc.json.is_null())
        return "failed";
    if (oc.rolledBack)
        return "a write failed: every value was restored";
    std::string l = oc.written + oc.refused == 0
                        ? "nothing to change"
                        : "applied " + std::to_string(oc.written) + " of " +
                              std::to_string(oc.written + oc.refused);
    if (oc.refused)
        l += ", " + std::to_string(oc.refused) + " refused by the kernel";
    if (oc.notApplicable)
        l += ", " + std::to_string(oc.notApplicable) + " not applicable";
    if (oc.written + oc.refused == 0)
        return l; // nothing was written: nothing to confirm either
    if (oc.confirmed)
        l += ", confirmed";
    else if (oc.pending)
        l += ", reverts in " + std::to_string(revertAfter) + " s unless confirmed";
    return l;
}

// The routers of a multi-router apply: the TARGETs, then the inventory's hosts.
struct Host {
    std::string name;
    Options options;
};

std::optional<std::vector<Host>> applyHosts(const Options& o, std::ostream& err) {
    std::vector<Host> hosts;
    for (const auto& t : o.targets) {
        Host h{t, o};
        h.options.target = t;
        hosts.push_back(std::move(h));
    }
    if (!o.inventory.empty()) {
        std::ifstream in(o.inventory, std::ios::binary);
        if (!in) {
            err << "coresteer-cli: " << o.inventory << ": cannot read\n";
            return std::nullopt;
        }
        std::ostringstream text;
        text << in.rdbuf();
        std::string error;
        const auto inv = readInventory(text.str(), o.inventoryGroup, o.inventory, &error);
        if (!inv) {
            err << "coresteer-cli: " << error << "\n";
            return std::nullopt;
        }
        for (const auto& ih : *inv) {
            Host h{ih.name, o};
            h.options.target = ih.target;
            if (!ih.root.empty())
                h.options.root = ih.root;
            if (!ih.identity.empty())
                h.options.identity = ih.identity;
            hosts.push_back(std::move(h));
        }
    }
    return hosts;
}

int applyManyCommand(const Options& o, const Layout& layout, std::ostream& out, std::ostream& err) {
    const auto hosts = applyHosts(o, err);
    if (!hosts)
        return 2;
    std::vector<ApplyOutcome> outcomes(hosts->size());
    std::vector<std::string> errors(hosts->size());
    std::mutex printing;
    std::atomic<std::size_t> next{0};
    std::size_t width = 0;
    for (const auto& h : *hosts)
        width = std::max(width, h.name.size());
    auto worker = [&] {
        for (std::size_t i; (i = next++) < hosts->size();) {
            std::ostringstream e;
            log::debug(log::fleet, (*hosts)[i].name, ": applying to ", (*hosts)[i].options.target,
                       (*hosts)[i].options.root.empty() ? "" : " under ", (*hosts)[i].options.root);
            outcomes[i] = applyTo((*hosts)[i].options, layout, e);
            log::debug(log::fleet, (*hosts)[i].name, ": exit ", outcomes[i].code);
            errors[i] = e.str();
            if (o.json)
                continue;
            std::string line = outcomeLine(outcomes[i], o.revertAfter);
            if (outcomes[i].json.is_null() || outcomes[i].rolledBack) {
                // The last message says why.
                auto why = text::trim(errors[i]);
                if (const auto nl = why.rfind('\n'); nl != std::string_view::npos)
                    why = why.substr(nl + 1);
                if (text::startsWith(why, "coresteer-cli: "))
                    why = why.substr(15);
                if (!why.empty())
                    line += ": " + std::string(why);
            }
            const std::lock_guard lock(printing);
            out << (*hosts)[i].name << std::string(width - (*hosts)[i].name.size(), ' ') << "  "
                << line << "\n"
                << std::flush;
        }
    };
    std::vector<std::thread> pool;
    const auto n = std::min<std::size_t>(static_cast<std::size_t>(o.parallel), hosts->size());
    for (std::size_t i = 0; i < n; ++i)
        pool.emplace_back(worker);
    for (auto& t : pool)
        t.join();
    int code = 0;
    auto j = nlohmann::json::array();
    for (std::size_t i = 0; i < hosts->size(); ++i) {
        code = std::max(code, outcomes[i].code);
        if (!o.json)
            continue;
        auto h = outcomes[i].json.is_null() ? nlohmann::json::object() : outcomes[i].json;
        h.erase("_report");
        h["host"] = (*hosts)[i].name;
        h["exit"] = outcomes[i].code;
        if (outcomes[i].code == 2)
            h["error"] = std::string(text::trim(errors[i]));
        j.push_back(h);
    }
    if (o.json)
        out << jsonText({{"hosts", j}}) << "\n";
    return code;
}

int applyCommand(const Options& o, std::ostream& out, std::ostream& err) {
    if (o.positional.size() != 1)
        return usageError(err, "apply needs TARGET and one LAYOUT file");
    const auto layout = readLayoutFile(o.positional.front(), err);
    if (!layout)
        return 2;
    if (o.targets.size() > 1 || !o.inventory.empty())
        return applyManyCommand(o, *layout, out, err);
    auto oc = applyTo(o, *layout, err);
    if (oc.json.is_null())
        return 2;
    const auto report = oc.json["_report"];
    oc.json.erase("_report");
    if (o.json) {
        out << jsonText(oc.json) << "\n";
    } else {
        for (const auto& l : report)
            out << l.get<std::string>() << "\n";
        if (oc.rolledBack)
            out << "A write failed: every value was restored.\n";
        else if (oc.confirmed)
            out << "Applied and confirmed.\n";
        else if (oc.armed)
            out << "Applied. Confirm within " << o.revertAfter
                << " s (coresteer-cli confirm), or the router restores its old values by itself.\n";
        else
            out << "Applied, without a revert.\n";
    }
    return oc.code;
}

int settleCommand(const Options& o, PendingAction action, std::ostream& out, std::ostream& err) {
    if (const int rc = noArguments(o, err))
        return rc;
    auto ex = openTarget(o, err);
    if (!ex)
        return 2;
    std::string error;
    const bool ok = (*ex)->settle(action, &error);
    const char* verb = action == PendingAction::Confirm ? "confirmed" : "reverted";
    if (o.json) {
        nlohmann::json j{{"action", action == PendingAction::Confirm ? "confirm" : "revert"},
                         {verb, ok}};
        if (!ok)
            j["error"] = error;
        out << jsonText(j) << "\n";
    } else if (ok) {
        out << (action == PendingAction::Confirm ? "Confirmed.\n" : "Reverted.\n");
    }
    if (!ok) {
        err << "coresteer-cli: " << error << "\n";
        return 1;
    }
    return 0;
}

int confirmCommand(const Options& o, std::ostream& out, std::ostream& err) {
    return settleCommand(o, PendingAction::Confirm, out, err);
}
int revertCommand(const Options& o, std::ostream& out, std::ostream& err) {
    return settleCommand(o, PendingAction::Revert, out, err);
}

} // namespace coresteer::cli

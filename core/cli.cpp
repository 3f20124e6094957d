#include "core/cli.h"

#include "core/capture.h"
#include "core/inventory.h"
#include "core/json_text.h"
#include "core/layout/apply.h"
#include "core/layout/fleet.h"
#include "core/layout/layout_json.h"
#include "core/layout/persist.h"
#include "core/layout/planner.h"
#include "core/layout/resolve.h"
#include "core/live/recording.h"
#include "core/live/source.h"
#include "core/log.h"
#include "core/router.h"
#include "core/snapshot_json.h"
#include "core/snapshot_text.h"
#include "core/ssh/terminal_prompter.h"
#include "core/text.h"
#include "core/utf8.h"

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

namespace coresteer {

namespace fs = std::filesystem;

namespace {

constexpr const char* kDescription =
    R"(coresteer-cli: read, plan, apply and watch a Linux router's interrupt and packet steering.

TARGET is --root DIR (a /proc and /sys tree on this machine; "/" for this machine itself) or
ssh://[user@]host[:port] or an ssh_config alias (a router; --root DIR is then a directory on
the router, default /). `coresteer-cli COMMAND --help` describes a command; `man coresteer-cli`
describes them all.
)";

constexpr const char* kExitCodes =
    R"(exit codes: 0 ok, 1 partial (see the warnings; for diff: targets that cannot apply; for
            confirm and revert: nothing was pending), 2 unusable input, bad usage or a
            connection error)";

int usageError(std::ostream& err, const std::string& msg) {
    err << "coresteer-cli: " << msg << "\nRun 'coresteer-cli --help' for the commands.\n";
    return 2;
}

struct Options {
    std::string root, target, knownHosts, identity, sshConfig;
    bool json = false, acceptNew = false, noConfirm = false, noRevert = false;
    bool noSteeringOverride = false, disableIrqbalance = false, csv = false;
    int revertAfter = 60, rate = 10;
    double duration = 10;
    std::string record;
    std::vector<std::string> positional; // after the target
    // apply only: several routers, from the command line and an inventory file.
    std::vector<std::string> targets; // every TARGET given (target is the first)
    std::string inventory, inventoryGroup;
    int parallel = 4;
};

// Parses the target options shared by every verb; false after printing a usage error.
// Sorts the words after the verb: ssh:// words are targets; of the bare words, those beyond what
// the verb takes (`positionals`) are targets too (ssh_config aliases), first or, with
// `targetsLast`, last ("preset load FILE alias"). False after printing a usage error.
bool finishTargets(Options& o, std::size_t positionals, std::ostream& err, int& code,
                   bool targetsLast = false) {
    std::vector<std::string> bare;
    for (auto& w : o.positional)
        (w.rfind("ssh://", 0) == 0 ? o.targets : bare).push_back(std::move(w));
    o.positional = std::move(bare);
    const auto aliases = static_cast<std::ptrdiff_t>(
        o.positional.size() > positionals ? o.positional.size() - positionals : 0);
    const auto from = targetsLast ? o.positional.end() - aliases : o.positional.begin();
    o.targets.insert(o.targets.end(), from, from + aliases);
    o.positional.erase(from, from + aliases);
    if (!o.targets.empty())
        o.target = o.targets.front();
    if (!o.inventoryGroup.empty() && o.inventory.empty()) {
        code = usageError(err, "--inventory-group needs --inventory");
        return false;
    }
    if (o.target.empty() && o.root.empty() && o.inventory.empty()) {
        code = usageError(err, "no TARGET: give --root DIR or an SSH target");
        return false;
    }
    return true;
}

// A router with the prompter its SSH session asks (the prompter must outlive the router).
struct Opened {
    std::unique_ptr<ssh::TerminalPrompter> prompter;
    std::unique_ptr<Router> router;
    Router* operator->() const { return router.get(); }
};

// Opens the target: connects over SSH, or checks the local root. nullopt after printing why.
std::optional<Opened> openTarget(const Options& o, std::ostream& err) {
    Opened r;
    if (o.target.empty()) {
        r.router = Router::local(o.root);
    } else {
        std::string error;
        auto t = ssh::parseTarget(o.target, &error);
        if (!t) {
            err << "coresteer-cli: " << error << "\n";
            return std::nullopt;
        }
        t->knownHostsFile = o.knownHosts;
        t->acceptNewHopKeys = o.acceptNew;
        t->identityFile = o.identity;
        t->configFile = o.sshConfig;
        r.prompter = std::make_unique<ssh::TerminalPrompter>(err, o.acceptNew);
        r.router = Router::remote(*t, *r.prompter, o.root.empty() ? "/" : o.root);
    }
    std::string error;
    if (!r->open(&error)) {
        err << "coresteer-cli: " << error << "\n";
        return std::nullopt;
    }
    return r;
}

struct Acquired {
    Snapshot snap;
    std::string where;
};

// Reads the snapshot of the target; nullopt after printing the error.
std::optional<Acquired> acquire(const Options& o, std::ostream& err) {
    auto r = openTarget(o, err);
    if (!r)
        return std::nullopt;
    std::string error;
    const auto bundle = (*r)->collect(&error);
    if (!bundle) {
        err << "coresteer-cli: " << error << "\n";
        return std::nullopt;
    }
    return Acquired{buildSnapshot(*bundle), r->router->isRemote() ? bundle->origin : o.root};
}

void printDiagnostics(const Acquired& a, std::ostream& err) {
    for (const auto& d : a.snap.diagnostics.entries())
        err << a.where << (a.where.back() == '/' ? "" : "/") << d.toString() << "\n";
    if (a.snap.completeness() == 2)
        err << "coresteer-cli: " << a.where << ": no usable interrupt or CPU data\n";
}

// The snapshot, with its warnings printed; nullopt when it is unusable (no IRQs or CPUs).
std::optional<Acquired> acquireUsable(const Options& o, std::ostream& err) {
    auto a = acquire(o, err);
    if (!a)
        return std::nullopt;
    printDiagnostics(*a, err);
    if (a->snap.completeness() == 2)
        return std::nullopt;
    return a;
}

int snapshotCommand(const Options& o, std::ostream& out, std::ostream& err) {
    if (!o.positional.empty())
        return usageError(err, "unexpected argument '" + o.positional.front() + "'");
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
    if (!o.positional.empty())
        return usageError(err, "unexpected argument '" + o.positional.front() + "'");
    const auto a = acquireUsable(o, err);
    if (!a)
        return 2;
    const auto l = plan(a->snap);
    if (o.json)
        out << jsonText(toJson(l)) << "\n";
    else
        out << "Proposed layout for " << a->where << "\n\n" << layoutText(l, a->snap);
    return 0;
}

// A layout file, or a preset file (whose layout is used).
std::optional<Layout> readLayoutFile(const std::string& path, std::ostream& err,
                                     std::optional<Preset>* preset = nullptr) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        err << "coresteer-cli: " << path << ": cannot read\n";
        return std::nullopt;
    }
    std::ostringstream text;
    text << in.rdbuf();
    std::string error;
    if (text.str().find("coresteer.preset/") != std::string::npos) {
        auto p = parsePreset(text.str(), &error);
        if (!p) {
            err << "coresteer-cli: " << path << ": " << error << "\n";
            return std::nullopt;
        }
        if (preset)
            *preset = *p;
        return p->layout;
    }
    auto layout = parseLayout(text.str(), &error);
    if (!layout)
        err << "coresteer-cli: " << path << ": " << error << "\n";
    return layout;
}

// The LAYOUT argument and the target's snapshot; nullopt after printing the error.
std::optional<std::pair<Layout, Acquired>> layoutAndTarget(const Options& o, std::ostream& err) {
    auto layout = readLayoutFile(o.positional.front(), err);
    if (!layout)
        return std::nullopt;
    auto a = acquire(o, err);
    if (!a)
        return std::nullopt;
    return std::pair<Layout, Acquired>{std::move(*layout), std::move(*a)};
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
    if (!o.positional.empty())
        return usageError(err, "unexpected argument '" + o.positional.front() + "'");
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

nlohmann::json conflictsJson(const std::vector<Conflict>& cs) {
    auto a = nlohmann::json::array();
    for (const auto& c : cs)
        a.push_back({{"kind", toString(c.kind)},
                     {"blocking", c.blocking},
                     {"title", c.title},
                     {"detail", c.detail},
                     {"suggestion", c.suggestion}});
    return a;
}

nlohmann::json persistJson(const PersistReport& rep) {
    return {{"written", rep.written},
            {"removed", rep.removed},
            {"sysupgrade_added", rep.sysupgradeAdded},
            {"sysupgrade_restored", rep.sysupgradeRestored},
            {"messages", rep.messages}};
}

int persistCommand(const Options& o, std::ostream& out, std::ostream& err) {
    if (o.positional.size() != 1)
        return usageError(err, "persist needs TARGET and one LAYOUT file");
    const auto in = layoutAndTarget(o, err);
    if (!in)
        return 2;
    const auto& a = in->second;
    PersistOptions po;
    po.packetSteeringOverride = !o.noSteeringOverride;
    po.disableIrqbalance = o.disableIrqbalance;
    std::string error;
    const auto plan = planPersist(in->first, a.snap, po, &error);
    if (!plan) {
        err << "coresteer-cli: " << a.where << ": " << error << "\n";
        return 2;
    }
    // What is still in the way after what persist does about it.
    std::vector<Conflict> remaining;
    for (const auto& c : plan->conflicts) {
        const bool handled =
            (c.kind == Conflict::Kind::PacketSteeringService && po.packetSteeringOverride) ||
            (c.kind == Conflict::Kind::Irqbalance && plan->disableIrqbalance);
        if (c.blocking && !handled)
            remaining.push_back(c);
    }
    auto ex = openTarget(o, err);
    if (!ex)
        return 2;
    const auto rep = (*ex)->persist(makePersistScript(*plan, (*ex)->root()), &error);
    if (!rep) {
        err << "coresteer-cli: " << error << "\n";
        return 2;
    }
    if (o.json) {
        auto j = persistJson(*rep);
        j["flavor"] = toString(plan->flavor);
        j["conflicts"] = conflictsJson(plan->conflicts);
        j["unresolved_conflicts"] = conflictsJson(remaining);
        j["actions"] = plan->actions;
        j["not_applicable"] = nlohmann::json::array();
        for (const auto& k : plan->skipped)
            j["not_applicable"].push_back({{"target", k.target}, {"reason", k.reason}});
        out << jsonText(j) << "\n";
    } else {
        out << "Persisted " << plan->layout.irqs.size() << " IRQs, " << plan->layout.rx.size()
            << " receive and " << plan->layout.tx.size() << " transmit queues ("
            << toString(plan->flavor) << ")\n";
        for (const auto& f : rep->written)
            out << "  wrote " << f << "\n";
        for (const auto& l : rep->sysupgradeAdded)
            out << "  /etc/sysupgrade.conf keeps " << l << "\n";
        for (const auto& k : plan->skipped)
            out << "  " << k.target << ": not persisted: " << k.reason << "\n";
        for (const auto& s : plan->actions)
            out << s << "\n";
        for (const auto& m : rep->messages)
            out << "  router: " << m << "\n";
        for (const auto& c : plan->conflicts)
            out << (c.blocking ? "Conflict: " : "Note: ") << c.title << ". " << c.detail
                << "\n  -> " << c.suggestion << "\n";
    }
    return remaining.empty() && plan->skipped.empty() ? 0 : 1;
}

int unpersistCommand(const Options& o, std::ostream& out, std::ostream& err) {
    if (!o.positional.empty())
        return usageError(err, "unexpected argument '" + o.positional.front() + "'");
    auto ex = openTarget(o, err);
    if (!ex)
        return 2;
    std::string error;
    const auto rep = (*ex)->persist(makeUnpersistScript((*ex)->root()), &error);
    if (!rep) {
        err << "coresteer-cli: " << error << "\n";
        return 2;
    }
    if (o.json) {
        out << jsonText(persistJson(*rep)) << "\n";
    } else {
        if (rep->removed.empty())
            out << "Nothing of coresteer's was persisted there.\n";
        for (const auto& f : rep->removed)
            out << "  removed " << f << "\n";
        if (rep->sysupgradeRestored)
            out << "  /etc/sysupgrade.conf is as it was before persist\n";
        for (const auto& m : rep->messages)
            out << "  router: " << m << "\n";
    }
    return 0;
}

std::atomic<bool> g_interrupted{false};
extern "C" void onInterrupt(int) {
    g_interrupted.store(true);
}

// One sample's rates as text, CSV rows or a JSON line.
void printRates(const Options& o, const Rates& r, const Snapshot& snap, std::ostream& out) {
    char t[32];
    std::snprintf(t, sizeof t, "%.2f", r.end);
    if (o.csv) {
        auto row = [&](const char* metric, const std::string& target, int cpu, double v) {
            out << t << ',' << metric << ',' << target << ',';
            if (cpu >= 0)
                out << cpu;
            out << ',' << v << '\n';
        };
        for (const auto& c : r.cores) {
            row("busy", "", c.cpu, c.busy());
            row("user", "", c.cpu, c.user);
            row("system", "", c.cpu, c.system);
            row("irq", "", c.cpu, c.irq);
            row("softirq", "", c.cpu, c.softirq);
        }
        for (std::size_t c = 0; c < r.netRx.size(); ++c)
            if (r.netRx[c] > 0)
                row("net_rx_softirqs", "", static_cast<int>(c), r.netRx[c]);
        for (const auto& i : r.irqs)
            for (std::size_t c = 0; c < i.perCpu.size(); ++c)
                if (i.perCpu[c] > 0)
                    row("irq_rate", std::to_string(i.irq), static_cast<int>(c), i.perCpu[c]);
        for (const auto& n : r.interfaces) {
            row("rx_bps", n.name, -1, n.rxBitsPerSec);
            row("tx_bps", n.name, -1, n.txBitsPerSec);
        }
        out.flush();
        return;
    }
    if (o.json) {
        nlohmann::json j;
        j["uptime"] = r.end;
        j["seconds"] = r.seconds();
        j["cores"] = nlohmann::json::array();
        for (const auto& c : r.cores)
            j["cores"].push_back({{"cpu", c.cpu},
                                  {"busy", c.busy()},
                                  {"user", c.user},
                                  {"system", c.system},
                                  {"irq", c.irq},
                                  {"softirq", c.softirq},
                                  {"iowait", c.iowait}});
        j["irqs"] = nlohmann::json::array();
        for (const auto& i : r.irqs)
            if (i.total > 0)
                j["irqs"].push_back({{"irq", i.irq}, {"total", i.total}, {"per_cpu", i.perCpu}});
        j["interfaces"] = nlohmann::json::array();
        for (const auto& n : r.interfaces)
            j["interfaces"].push_back({{"name", n.name},
                                       {"rx_bps", n.rxBitsPerSec},
                                       {"tx_bps", n.txBitsPerSec},
                                       {"rx_pps", n.rxPacketsPerSec},
                                       {"tx_pps", n.txPacketsPerSec}});
        out << jsonText(j, -1) << std::endl;
        return;
    }
    out << t << " s ";
    for (const auto& c : r.cores)
        out << " cpu" << c.cpu << ' ' << static_cast<int>(c.busy() * 100 + 0.5) << '%';
    const IrqRate* top = nullptr;
    for (const auto& i : r.irqs)
        if (!top || i.total > top->total)
            top = &i;
    if (top && top->total > 0) {
        const auto* row = snap.interrupts.findIrq(top->irq);
        out << "  | IRQ " << top->irq << ' '
            << (row && !row->actions.empty() ? text::printable(row->actions.front(), 24) : "")
            << ' ' << static_cast<long long>(top->total) << "/s";
    }
    for (const auto& n : r.interfaces)
        if (n.rxBitsPerSec + n.txBitsPerSec >= 1e6)
            out << "  | " << text::printable(n.name, 16) << ' '
                << static_cast<long long>(n.rxBitsPerSec / 1e6) << '/'
                << static_cast<long long>(n.txBitsPerSec / 1e6) << " Mb/s";
    out << std::endl;
}

int monitorCommand(const Options& o, std::ostream& out, std::ostream& err) {
    if (!o.positional.empty())
        return usageError(err, "unexpected argument '" + o.positional.front() + "'");
    auto r = openTarget(o, err);
    if (!r)
        return 2;
    std::string error;
    // The snapshot names the IRQs in the text output, and starts a recording.
    Snapshot snap;
    std::unique_ptr<RecordingWriter> recording;
    if ((!o.csv && !o.json) || !o.record.empty()) {
        const auto b = (*r)->collect(&error);
        if (b)
            snap = buildSnapshot(*b);
        else if (!o.record.empty()) {
            err << "coresteer-cli: " << (*r)->where() << ": " << error << "\n";
            return 2;
        }
        if (!o.record.empty())
            recording = std::make_unique<RecordingWriter>(
                RecordingInfo{(*r)->where(), utcTimestamp(), o.rate, writeCapture(*b),
                              jsonText(toJson(currentLayout(snap)))});
    }
    auto src = (*r)->isRemote() ? sshSampleSource(*(*r)->session(), (*r)->root())
                                : localSampleSource((*r)->root());
    auto prev = src->next(&error);
    if (!prev) {
        err << "coresteer-cli: " << (*r)->where() << ": " << error << "\n";
        return 2;
    }
    const auto clockStart = std::chrono::steady_clock::now();
    auto seconds = [&] {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - clockStart).count();
    };
    if (recording)
        recording->sample(0, src->lastTexts());
    if (o.csv)
        out << "uptime,metric,target,cpu,value\n";
    g_interrupted = false;
    const auto oldInt = std::signal(SIGINT, onInterrupt);
    const auto oldTerm = std::signal(SIGTERM, onInterrupt);
    const auto period = std::chrono::microseconds(1000000 / o.rate);
    const auto start = std::chrono::steady_clock::now();
    auto next = start;
    int failures = 0, samples = 0;
    while (!g_interrupted.load()) {
        next = nextTick(next, std::chrono::steady_clock::now(), period);
        if (o.duration > 0 && next - start > std::chrono::duration<double>(o.duration))
            break;
        std::this_thread::sleep_until(next);
        auto cur = src->next(&error);
        if (!cur) {
            err << "coresteer-cli: " << (*r)->where() << ": " << error << "\n";
            if (recording)
                recording->gap(seconds());
            if (++failures >= 3)
                break;
            continue;
        }
        failures = 0;
        if (recording)
            recording->sample(seconds(), src->lastTexts());
        if (const auto rates = computeRates(*prev, *cur)) {
            printRates(o, *rates, snap, out);
            ++samples;
        }
        prev = std::move(cur);
    }
    std::signal(SIGINT, oldInt);
    std::signal(SIGTERM, oldTerm);
    if (!o.csv && !o.json)
        err << samples << " samples, " << src->bytesIn() << " bytes from the router\n";
    if (recording && !saveRecording(*recording, o.record, &error)) {
        err << "coresteer-cli: " << error << "\n";
        return 2;
    }
    return failures >= 3 ? 2 : 0;
}

int recordingCommand(const std::string& what, const std::vector<std::string>& files, bool json,
                     std::ostream& out, std::ostream& err) {
    if (files.size() != (what == "compare" ? 2u : 1u))
        return usageError(err, "recording needs summary FILE, csv FILE or compare BEFORE AFTER");
    std::vector<Recording> recs;
    std::vector<RecordingSummary> sums;
    for (const auto& f : files) {
        std::string error;
        auto rec = loadRecording(f, &error);
        std::optional<RecordingSummary> sum;
        if (rec && what != "csv")
            sum = summarize(*rec, &error);
        if (!rec || (what != "csv" && !sum)) {
            err << "coresteer-cli: " << error << "\n";
            return 2;
        }
        recs.push_back(std::move(*rec));
        if (sum)
            sums.push_back(std::move(*sum));
    }
    if (what == "csv") {
        std::string error;
        const auto csv = recordingCsv(recs[0], &error);
        if (!csv) {
            err << "coresteer-cli: " << files[0] << ": " << error << "\n";
            return 2;
        }
        out << *csv;
        return 0;
    }
    if (what == "compare") {
        out << compareSummaries(sums[0], sums[1], fs::path(files[0]).filename().string(),
                                fs::path(files[1]).filename().string());
        return 0;
    }
    const auto& s = sums[0];
    const auto& info = recs[0].info;
    if (json) {
        nlohmann::json j = {{"label", info.label},
                            {"started", info.started},
                            {"hz", info.hz},
                            {"seconds", s.seconds},
                            {"ticks", s.ticks},
                            {"gaps", s.gaps},
                            {"probes", s.probes},
                            {"cores", nlohmann::json::array()},
                            {"interfaces", nlohmann::json::array()}};
        for (const auto& c : s.cores)
            j["cores"].push_back({{"cpu", c.cpu},
                                  {"busy_peak", c.peak},
                                  {"busy_mean", c.mean},
                                  {"kernel_peak", c.kernelPeak},
                                  {"kernel_mean", c.kernelMean}});
        for (const auto& n : s.interfaces)
            j["interfaces"].push_back({{"name", n.name},
                                       {"rx_bps_peak", n.rxPeak},
                                       {"rx_bps_mean", n.rxMean},
                                       {"tx_bps_peak", n.txPeak},
                                       {"tx_bps_mean", n.txMean}});
        if (s.downMean)
            j["load_generator"] = {{"down_bps_mean", *s.downMean},
                                   {"down_bps_peak", *s.downPeak},
                                   {"up_bps_mean", *s.upMean},
                                   {"up_bps_peak", *s.upPeak}};
        if (s.latency)
            j["latency"] = {{"idle_ms", s.latency->idleMs},
                            {"loaded_ms", s.latency->loadedMs},
                            {"increase_ms", s.latency->increaseMs},
                            {"grade", s.latency->grade},
                            {"lost", s.latency->lost}};
        out << jsonText(j) << "\n";
        return 0;
    }
    out << text::printable(info.label, 80) << ", " << text::printable(info.started, 40) << ": "
        << s.ticks << " samples over " << static_cast<long long>(s.seconds) << " s at " << info.hz
        << " Hz";
    if (s.gaps)
        out << ", " << s.gaps << " gaps";
    out << "\n";
    char line[160];
    for (const auto& c : s.cores) {
        std::snprintf(line, sizeof line,
                      "cpu%-4d busy peak %5.1f %%  mean %5.1f %%   irq+softirq+system peak %5.1f "
                      "%%  mean %5.1f %%\n",
                      c.cpu, c.peak * 100, c.mean * 100, c.kernelPeak * 100, c.kernelMean * 100);
        out << line;
    }
    for (const auto& n : s.interfaces) {
        std::snprintf(line, sizeof line,
                      "%-12s rx peak %8.1f  mean %8.1f Mb/s   tx peak %8.1f  mean %8.1f Mb/s\n",
                      text::printable(n.name, 12).c_str(), n.rxPeak / 1e6, n.rxMean / 1e6,
                      n.txPeak / 1e6, n.txMean / 1e6);
        out << line;
    }
    if (s.downMean) {
        std::snprintf(line, sizeof line,
                      "load generator: down mean %.1f Mb/s (peak %.1f), up mean %.1f Mb/s (peak "
                      "%.1f)\n",
                      *s.downMean / 1e6, *s.downPeak / 1e6, *s.upMean / 1e6, *s.upPeak / 1e6);
        out << line;
    }
    if (s.latency) {
        std::snprintf(line, sizeof line,
                      "latency: idle %.1f ms, loaded %.1f ms (+%.1f ms), %d lost: grade %s\n",
                      s.latency->idleMs, s.latency->loadedMs, s.latency->increaseMs,
                      s.latency->lost, s.latency->grade.c_str());
        out << line;
    } else {
        out << "latency: not graded (" << s.probes << " probes)\n";
    }
    return 0;
}

int exportCommand(const std::string& presetFile, const std::string& output, const FleetOptions& fo,
                  std::ostream& out, std::ostream& err) {
    if (presetFile.empty())
        return usageError(err, "export ansible needs --preset FILE");
    std::optional<Preset> preset;
    const auto layout = readLayoutFile(presetFile, err, &preset);
    if (!layout)
        return 2;
    if (!preset) {
        preset = Preset{};
        preset->name = fs::path(presetFile).stem().string();
        preset->layout = *layout;
    }
    std::string error;
    const auto fleet = makeFleetScripts(*preset, fo, &error);
    const auto playbook = fleet ? makeAnsiblePlaybook(*preset, fo, &error) : std::nullopt;
    if (!playbook) {
        err << "coresteer-cli: " << presetFile << ": " << error << "\n";
        return 2;
    }
    for (const auto& k : fleet->skipped)
        err << "coresteer-cli: " << presetFile << ": " << k.target << ": left out: " << k.reason
            << "\n";
    if (output.empty()) {
        out << *playbook;
    } else if (!text::writeFileAtomic(output, *playbook, &error)) {
        err << "coresteer-cli: " << error << "\n";
        return 2;
    } else {
        err << "Wrote " << output << ": " << fleet->layout.irqs.size() << " IRQs, "
            << fleet->layout.rx.size() << " receive and " << fleet->layout.tx.size()
            << " transmit queues for the hosts of '" << fo.group << "'\n";
    }
    return fleet->skipped.empty() ? 0 : 1;
}

int confirmCommand(const Options& o, std::ostream& out, std::ostream& err) {
    return settleCommand(o, PendingAction::Confirm, out, err);
}
int revertCommand(const Options& o, std::ostream& out, std::ostream& err) {
    return settleCommand(o, PendingAction::Revert, out, err);
}

} // namespace

int runCli(const std::vector<std::string>& args, std::ostream& plainOut, std::ostream& plainErr) {
    // What a person reads passes through terminalSafe: names and messages from a router or a
    // file cannot drive the user's terminal. JSON goes out as it is (its escapes are its own).
    utf8::TerminalSafeStream err(plainErr), textOut(plainOut);
    std::ostream* outp = &textOut;
    std::ostream& out = textOut;
    CLI::App app{kDescription, "coresteer-cli"};
    app.footer(kExitCodes);
    app.set_help_flag("-h,--help", "this text, or a command's");
    app.set_version_flag("--version", "coresteer-cli " CORESTEER_VERSION, "the version");
    app.require_subcommand(1, 1);
    app.get_formatter()->column_width(34);
    bool verbose = false;
    app.add_flag("-v,--verbose", verbose,
                 "say what happens: coresteer.ssh, .collect, .apply, .persist, .live, .fleet");
    app.fallthrough(); // --verbose after the command too

    Options o;
    // The options every command that works on a router takes, and its words.
    auto target = [&](CLI::App* c, const std::string& words, bool json = true) {
        c->add_option("--root", o.root, "a /proc and /sys tree here; over SSH one on the router")
            ->type_name("DIR");
        c->add_option("--known-hosts", o.knownHosts,
                      "another known_hosts file, for the router and every ProxyJump host")
            ->type_name("FILE");
        c->add_option("-i,--identity", o.identity, "a private key to try")->type_name("FILE");
        c->add_option("-F,--ssh-config", o.sshConfig, "another ssh_config file (none: none)")
            ->type_name("FILE");
        c->add_flag("--accept-new-host-key", o.acceptNew,
                    "trust a host key seen for the first time, a jump host's too (never a "
                    "changed one)");
        if (json)
            c->add_flag("--json", o.json, "answer in JSON");
        c->add_option("arguments", o.positional, words)->type_name("");
    };
    struct Verb {
        const char* name;
        const char* help;
        const char* detail;
        const char* words;
        std::size_t positionals;
        int (*run)(const Options&, std::ostream&, std::ostream&);
    };
    const Verb verbs[] = {
        {"snapshot", "the CPU, IRQ and queue layout, in one SSH command", "", "TARGET", 0,
         &snapshotCommand},
        {"capture", "save what a snapshot reads into one FILE (for a bug report)",
         "The app opens a capture read-only (Router > Open capture).", "TARGET FILE", 1,
         &captureCommand},
        {"plan", "a proposed layout with a reason for every choice",
         "--json prints a layout file that diff, apply and persist take as it is.", "TARGET", 0,
         &planCommand},
        {"diff", "what LAYOUT would change on TARGET", "LAYOUT is a layout or a preset file.",
         "TARGET LAYOUT", 1, &diffCommand},
        {"apply", "write LAYOUT now, with an automatic revert unless confirmed",
         "The old values are kept first, and a revert job on the router restores them after\n"
         "--revert-after seconds unless confirmed; apply confirms by itself over a new connection\n"
         "unless --no-confirm. Several TARGETs, or --inventory: N routers at a time, one line per\n"
         "router. Exit 0 all applied, 1 some targets refused or not applicable, 2 nothing\n"
         "written (the worst of the routers').",
         "TARGET... LAYOUT", 1, &applyCommand},
        {"confirm", "keep what the last apply wrote (cancels the revert)", "", "TARGET", 0,
         &confirmCommand},
        {"revert", "restore what the last apply replaced, now", "", "TARGET", 0, &revertCommand},
        {"persist", "make LAYOUT come back at every boot and interface event",
         "OpenWrt gets /etc/hotplug.d/net/95-coresteer (kept by /etc/sysupgrade.conf), other\n"
         "Linux a systemd unit and a udev rule. The running values do not change (apply does\n"
         "that). Exit 1 when a conflict remains (packet steering, irqbalance).",
         "TARGET LAYOUT", 1, &persistCommand},
        {"unpersist", "remove everything persist wrote", "", "TARGET", 0, &unpersistCommand},
        {"monitor", "live per-core load, IRQ rates and throughput",
         "Over one SSH channel; --csv prints \"uptime,metric,target,cpu,value\" rows, --json one\n"
         "object per sample.",
         "TARGET", 0, &monitorCommand},
    };
    const Verb* chosen = nullptr;
    for (const auto& v : verbs) {
        auto* c = app.add_subcommand(v.name, v.help);
        if (*v.detail)
            c->footer(v.detail);
        target(c, v.words);
        c->callback([&chosen, &v] { chosen = &v; });
        const std::string name = v.name;
        if (name == "apply") {
            c->add_option("--revert-after", o.revertAfter,
                          "seconds until the router restores the old values (60)")
                ->check(CLI::Range(5, 86400))
                ->type_name("S");
            auto* noConfirm =
                c->add_flag("--no-confirm", o.noConfirm, "leave the confirm to `confirm`");
            c->add_flag("--no-revert", o.noRevert, "arm no revert job")->excludes(noConfirm);
            c->add_option("--inventory", o.inventory, "the routers of an Ansible INI inventory")
                ->type_name("FILE");
            c->add_option("--inventory-group", o.inventoryGroup, "only the hosts of this group")
                ->type_name("G");
            c->add_option("--parallel", o.parallel, "routers at a time (default 4)")
                ->check(CLI::Range(1, 64))
                ->type_name("N");
        } else if (name == "persist") {
            c->add_flag("--no-packet-steering-override", o.noSteeringOverride,
                        "leave OpenWrt's packet steering service as it is");
            c->add_flag("--disable-irqbalance", o.disableIrqbalance,
                        "stop and disable irqbalance (unpersist enables it again)");
        } else if (name == "monitor") {
            c->add_option("--rate", o.rate, "samples a second, 1 to 20 (default 10)")
                ->check(CLI::Range(1, 20))
                ->type_name("HZ");
            c->add_option("--duration", o.duration, "seconds (default 10; 0 until interrupted)")
                ->check(CLI::Range(0.0, 7.0 * 86400))
                ->type_name("S");
            auto* csv = c->add_flag("--csv", o.csv, "\"uptime,metric,target,cpu,value\" rows");
            c->get_option("--json")->excludes(csv);
            c->add_option("--record", o.record,
                          "save the snapshot, the layout in force and every sample in FILE, a "
                          "recording the app replays")
                ->type_name("FILE");
        }
    }

    // preset save TARGET FILE | preset load FILE TARGET
    auto* preset = app.add_subcommand("preset", "save a layout as a preset; what one would change");
    preset->require_subcommand(1, 1);
    std::string presetVerb;
    for (const char* what : {"save", "load"}) {
        auto* c = preset->add_subcommand(what, std::string(what) == "save"
                                                   ? "save TARGET's current layout as a preset file"
                                                   : "what a preset would change on TARGET");
        target(c, std::string(what) == "save" ? "TARGET FILE" : "FILE TARGET");
        c->callback([&presetVerb, what] { presetVerb = what; });
    }

    // recording summary FILE | csv FILE | compare BEFORE AFTER
    auto* recording = app.add_subcommand("recording", "read recordings (monitor --record)");
    recording->require_subcommand(1, 1);
    std::string recordingVerb;
    std::vector<std::string> files;
    bool recordingJson = false;
    for (const auto& [what, help, words] :
         {std::tuple{"summary", "per-core peak and mean load, throughput and the bufferbloat grade",
                     "FILE"},
          std::tuple{"csv", "one CSV row per sample", "FILE"},
          std::tuple{"compare", "two recordings side by side", "BEFORE AFTER"}}) {
        auto* c = recording->add_subcommand(what, help);
        c->add_option("files", files, words)->required();
        if (std::string(what) == "summary")
            c->add_flag("--json", recordingJson, "answer in JSON");
        c->callback([&recordingVerb, w = what] { recordingVerb = w; });
    }

    // export ansible --preset FILE
    auto* exp = app.add_subcommand("export", "hand a layout to another tool");
    exp->require_subcommand(1, 1);
    auto* ansible = exp->add_subcommand("ansible", "an Ansible playbook for a fleet of routers");
    ansible->footer(
        "Raw tasks only (the routers need no Python): the playbook applies FILE with the\n"
        "automatic revert, confirms it and persists it on every host of the group, resolved on\n"
        "each router. A second run changes nothing. Host variables: coresteer_root,\n"
        "coresteer_revert_after, coresteer_any_board, coresteer_persist.");
    std::string presetFile, output;
    FleetOptions fo;
    bool exportAnsible = false;
    ansible->add_option("--preset,--layout", presetFile, "a preset or layout file")
        ->required()
        ->type_name("FILE");
    ansible->add_option("--inventory-group", fo.group, "the hosts (default routers)")
        ->type_name("G");
    ansible->add_option("-o,--output", output, "write the playbook to FILE, not to stdout")
        ->type_name("FILE");
    bool noOverride = false;
    ansible->add_flag("--no-packet-steering-override", noOverride,
                      "leave OpenWrt's packet steering service as it is");
    ansible->add_flag("--disable-irqbalance", fo.persist.disableIrqbalance,
                      "stop and disable irqbalance");
    ansible->callback([&exportAnsible] { exportAnsible = true; });

    if (!args.empty() && !args[0].empty() && args[0][0] != '-') {
        const auto subs =
            app.get_subcommands([&](CLI::App* c) { return c->get_name() == args[0]; });
        if (subs.empty())
            return usageError(err, "unknown command '" + args[0] + "'");
    }
    try {
        std::vector<std::string> reversed(args.rbegin(), args.rend());
        app.parse(reversed);
    } catch (const CLI::CallForHelp&) {
        out << app.help();
        return 0;
    } catch (const CLI::CallForVersion& e) {
        out << e.what() << "\n";
        return 0;
    } catch (const CLI::ParseError& e) {
        if (args.empty())
            return usageError(err, "no command");
        return usageError(err, e.what());
    }

    // --verbose: every category, on stderr, one line each (apply's workers write in parallel).
    struct Quiet {
        ~Quiet() {
            log::setSink(nullptr);
            for (auto* const* c = log::categories(); *c; ++c)
                (*c)->enabled = false;
        }
    } quiet;
    if (verbose) {
        auto lock = std::make_shared<std::mutex>();
        log::setSink([&err, lock](const log::Category& c, std::string_view m) {
            const std::lock_guard guard(*lock);
            err << "coresteer-cli: [" << c.name << "] " << m << "\n" << std::flush;
        });
        for (auto* const* c = log::categories(); *c; ++c)
            (*c)->enabled = true;
    }
    if (o.json || recordingJson) {
        textOut.flush();
        outp = &plainOut;
    }
    if (!presetVerb.empty())
        return presetCommand(presetVerb, o, *outp, err);
    if (!recordingVerb.empty())
        return recordingCommand(recordingVerb, files, recordingJson, *outp, err);
    if (exportAnsible) {
        fo.persist.packetSteeringOverride = !noOverride;
        return exportCommand(presetFile, output, fo, *outp, err);
    }
    if (!chosen)
        return usageError(err, "no command");
    int code = 2;
    if (!finishTargets(o, chosen->positionals, err, code))
        return code;
    if (chosen->run != &applyCommand && (o.targets.size() > 1 || !o.inventory.empty()))
        return usageError(err, "only apply takes several targets or an inventory");
    return chosen->run(o, *outp, err);
}

} // namespace coresteer

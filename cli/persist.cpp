// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The verbs that make a layout last, or take it away: persist, unpersist.
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

#include <algorithm>
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

namespace {

// A boot script's conflict that the plan takes care of: its init script disabled, or rc.local
// followed by the layout.
bool bootScriptHandled(const Conflict& c, const PersistPlan& plan) {
    if (c.service.empty())
        return plan.followRcLocal;
    return std::find(plan.bootScriptsOff.begin(), plan.bootScriptsOff.end(), c.service) !=
           plan.bootScriptsOff.end();
}

} // namespace

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
    po.banInIrqbalance = o.irqbalanceBan;
    po.overrideBootScripts = o.overrideBootScripts;
    std::string error;
    const auto plan = planPersist(in->first, a.snap, po, &error);
    if (!plan) {
        err << "coresteer-cli: " << a.where << ": " << error << "\n";
        return 2;
    }
    // What is still in the way after what persist does about it.
    std::vector<Conflict> remaining;
    for (const auto& c : plan->conflicts) {
        const bool handled = ((c.kind == Conflict::Kind::PacketSteeringService ||
                               c.kind == Conflict::Kind::PacketSteeringForeign) &&
                              po.packetSteeringOverride) ||
                             (c.kind == Conflict::Kind::Irqbalance &&
                              (plan->disableIrqbalance || !plan->banIrqs.empty())) ||
                             (c.kind == Conflict::Kind::BootScript && bootScriptHandled(c, *plan));
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
    if (rep->irqbalanceBanFailed) // the router said why (rep->messages)
        for (const auto& c : plan->conflicts)
            if (c.kind == Conflict::Kind::Irqbalance)
                remaining.push_back(c);
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
    if (const int rc = noArguments(o, err))
        return rc;
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

} // namespace coresteer::cli

// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/layout/persist.h"

#include "core/base/json_text.h"
#include "core/base/shell.h"
#include "core/base/text.h"
#include "core/layout/apply.h"
#include "core/layout/layout_json.h"
#include "core/layout/persist_detail.h"
#include "core/model/conflicts.h"
#include "core/router-scripts/router_scripts.h"

#include <algorithm>
#include <cstdio>
#include <set>

namespace coresteer::layout {

using namespace detail;

bool matchableIrqAction(const std::string& a) {
    return !a.empty() && a.size() <= 256 &&
           std::none_of(a.begin(), a.end(), [](unsigned char c) { return c < ' ' || c == 0x7f; }) &&
           a.front() != ' ' && a.back() != ' ' && a.back() != ',' &&
           a.find("  ") == std::string::npos && a.find(", ") == std::string::npos;
}

namespace {

std::vector<std::string> coveredInterfaces(const Layout& l, const Snapshot& snap) {
    std::set<std::string> s;
    const IrqNames names(snap);
    for (const auto& t : l.irqs)
        if (const auto irq = names.find(t.irq))
            if (const auto* info = snap.irq(*irq))
                for (const auto& n : info->interfaces)
                    if (validInterfaceName(n))
                        s.insert(n);
    for (const auto& n : queueInterfaces(l))
        s.insert(n);
    return {s.begin(), s.end()};
}

} // namespace

const char* toString(PersistPlan::Flavor f) {
    switch (f) {
    case PersistPlan::Flavor::OpenWrt:
        return "openwrt";
    case PersistPlan::Flavor::Systemd:
        return "systemd";
    case PersistPlan::Flavor::OpenRC:
        return "openrc";
    }
    return "?";
}

std::string persistedLayoutJson(const Layout& layout, bool compact) {
    if (!compact)
        return jsonText(toJson(layout)) + "\n";
    Layout l = layout;
    for (auto& t : l.irqs)
        t.why.clear();
    for (auto& t : l.rx)
        t.why.clear();
    for (auto& t : l.tx)
        t.why.clear();
    for (auto& t : l.interfaces)
        t.why.clear();
    for (auto& t : l.governors)
        t.why.clear();
    return jsonText(toJson(l), -1) + "\n";
}

std::vector<std::string> queueInterfaces(const Layout& l) {
    std::set<std::string> s;
    for (const auto& t : l.rx)
        s.insert(t.interface);
    for (const auto& t : l.tx)
        s.insert(t.interface);
    for (const auto& t : l.interfaces)
        s.insert(t.interface);
    return {s.begin(), s.end()};
}

RouterScriptContext routerScriptContext(const Layout& applicable, const Snapshot& snap) {
    RouterScriptContext c;
    c.maskWidth = std::max(snap.topology.maskWidth, 1);
    c.board = snap.system.boardName;
    c.covered = coveredInterfaces(applicable, snap);
    // A script before ours that pins masks at any add: every add applies the layout again.
    if (!hotplugScriptsBeforeOurs(snap).empty())
        c.covered.reset();
    for (const auto& nif : snap.interfaces) {
        for (const auto& t : nif.napi)
            if (t.device != nif.name && !t.device.empty()) {
                auto& devices = c.napiDevices[nif.name];
                if (std::find(devices.begin(), devices.end(), t.device) == devices.end())
                    devices.push_back(t.device);
            }
        if (!nif.txWorkers.empty())
            c.txWorkerRadios[nif.name] = nif.txWorkers.front().device;
    }
    for (const auto& name : queueInterfaces(applicable))
        if (const auto* nif = snap.interface(name); nif && nif->isPpp())
            c.ifupDevices.push_back(name);
    return c;
}

namespace {

// What persist does about the boot scripts that rewrite masks after the hotplug script.
void planBootScripts(PersistPlan& p, const Services& v) {
    for (const auto& s : v.maskScripts) {
        if (!s.enabled && !s.coresteerDisabled) // kept disabled by a persist before this one
            continue;
        if (s.service.empty()) {
            if (p.flavor == PersistPlan::Flavor::OpenWrt) {
                p.followRcLocal = true;
                p.actions.push_back("Adds one line at the end of /etc/rc.local that applies the "
                                    "layout again after its own writes (" +
                                    s.whereText() + "); unpersist takes it out.");
            } // systemd: coresteer-apply.service runs after rc-local.service
        } else if (p.flavor == PersistPlan::Flavor::OpenWrt && plainName(s.service) &&
                   s.service.front() != '.') {
            p.bootScriptsOff.push_back(s.service);
            p.actions.push_back("Disables " + s.path + " at boot (" + s.whereText() +
                                "); unpersist enables it again.");
        } else {
            p.actions.push_back("Leaves " + s.path + " as it is: disable it by hand.");
        }
    }
}

} // namespace

std::optional<PersistPlan> planPersist(const Layout& layout, const Snapshot& snap,
                                       const PersistOptions& options, std::string* error) {
    PersistPlan p;
    const auto& v = snap.system.services;
    // By what the router has, not by its name.
    if (snap.system.isOpenWrt() || v.hotplugCaller) {
        p.flavor = PersistPlan::Flavor::OpenWrt;
    } else if (v.systemd) {
        p.flavor = PersistPlan::Flavor::Systemd;
    } else if (v.openrc) {
        p.flavor = PersistPlan::Flavor::OpenRC;
        p.openrcLocal = v.openrcLocal;
        p.deviceManager = v.deviceManager;
        if (p.deviceManager == Services::DeviceManager::Mdev && !v.mdevConf)
            p.deviceManager = Services::DeviceManager::None; // no rules file to add to
    } else {
        if (error)
            *error = "this router has no way coresteer knows to run a script when an interface "
                     "appears: no /etc/hotplug.d with a hotplug caller (/sbin/hotplug-call or "
                     "procd), as OpenWrt and BusyBox firmwares have, no systemd (no "
                     "/run/systemd/system) and no OpenRC (no /run/openrc)";
        return std::nullopt;
    }
    // Keep the targets that resolve on this router now, each with its own check.
    const IrqNames names(snap);
    auto keep = [&](Layout one, auto push) {
        const auto r = resolve(one, snap, names);
        if (!r.skipped.empty()) {
            p.skipped.insert(p.skipped.end(), r.skipped.begin(), r.skipped.end());
            return;
        }
        push();
    };
    for (const auto& t : layout.irqs) {
        if (!matchableIrqAction(t.irq.action)) {
            p.skipped.push_back({"IRQ " + text::printable(t.irq.display(), 80),
                                 "this action name cannot be matched in /proc/interrupts"});
            continue;
        }
        Layout one;
        one.irqs.push_back(t);
        keep(one, [&] { p.layout.irqs.push_back(t); });
    }
    for (const auto& t : layout.rx) {
        Layout one;
        one.rx.push_back(t);
        keep(one, [&] { p.layout.rx.push_back(t); });
    }
    for (const auto& t : layout.tx) {
        Layout one;
        one.tx.push_back(t);
        keep(one, [&] { p.layout.tx.push_back(t); });
    }
    for (const auto& t : layout.interfaces) {
        Layout one;
        one.interfaces.push_back(t);
        keep(one, [&] { p.layout.interfaces.push_back(t); });
    }
    for (const auto& t : layout.governors) {
        Layout one;
        one.governors.push_back(t);
        keep(one, [&] { p.layout.governors.push_back(t); });
    }
    p.layout.rpsSockFlowEntries = layout.rpsSockFlowEntries;
    p.layout.notes = layout.notes;
    if (p.layout.empty()) {
        if (error)
            *error = "nothing of this layout applies on this router";
        return std::nullopt;
    }

    p.conflicts = detectConflicts(snap);
    // irqbalance: stopped, or left running with the layout's IRQs banned.
    const bool irqbalance =
        snap.system.irqbalanceRunning.value_or(false) || v.irqbalanceEnabled.value_or(false);
    PersistOptions effective = options;
    effective.banInIrqbalance = false;
    if (options.disableIrqbalance && irqbalance) {
        p.disableIrqbalance = true;
        p.actions.push_back("Stops and disables irqbalance; unpersist enables it again.");
    } else if (options.banInIrqbalance && !v.irqbalanceInstalled) {
        p.actions.push_back("Bans nothing in irqbalance: it is not installed here.");
    } else if (options.banInIrqbalance) {
        for (const auto& t : p.layout.irqs)
            if (const auto irq = names.find(t.irq))
                p.banIrqs.push_back(*irq);
        std::sort(p.banIrqs.begin(), p.banIrqs.end());
        p.banIrqs.erase(std::unique(p.banIrqs.begin(), p.banIrqs.end()), p.banIrqs.end());
        effective.banInIrqbalance = !p.banIrqs.empty();
        if (!p.banIrqs.empty())
            p.actions.push_back(
                "Bans the layout's " + std::to_string(p.banIrqs.size()) + " IRQs in irqbalance (" +
                (p.flavor == PersistPlan::Flavor::OpenWrt
                     ? std::string("list banirq in /etc/config/irqbalance")
                     : std::string("--banirq in a drop-in of irqbalance.service")) +
                "): it goes on balancing the others. The apply script bans the numbers these "
                "IRQs take after a reboot; unpersist lifts coresteer's bans.");
    }
    if (options.overrideBootScripts)
        planBootScripts(p, v);
    const bool service = v.packetSteeringService;
    const bool foreign = v.platformOverride && !v.platformOverrideOurs;
    const bool override =
        p.flavor == PersistPlan::Flavor::OpenWrt && service && options.packetSteeringOverride;
    addPersistFiles(p, routerScriptContext(p.layout, snap), effective, override);
    if (!snap.system.isOpenWrt() && !v.sysupgradeConf)
        p.sysupgradeLines.clear(); // no sysupgrade here: nothing to keep across one
    if (override && foreign)
        p.actions.push_back("Keeps the board's own /" + std::string(kOverridePath) + " as /" +
                            kBoardSteeringPath +
                            ": coresteer's runs it first, and unpersist puts it back.");
    if (p.flavor == PersistPlan::Flavor::OpenWrt && service && !options.packetSteeringOverride)
        p.actions.push_back("Leaves OpenWrt's packet steering as it is: it rewrites RPS and "
                            "XPS on the next network reload.");
    return p;
}

namespace {

// The start of persist's and unpersist's scripts: the root, the token, the marker, the data,
// then common.sh and persist-install.sh's functions.
std::string prelude(const std::string& root, const std::string& token, const std::string& want,
                    const PersistPlan* plan) {
    std::string ban, bootOff;
    const bool irqbalanceOff = plan && plan->disableIrqbalance;
    if (plan) {
        for (const auto irq : plan->banIrqs)
            ban += (ban.empty() ? "" : " ") + std::to_string(irq);
        if (plan->bansByRouterScript)
            ban = "auto";
        for (const auto& n : plan->bootScriptsOff)
            bootOff += (bootOff.empty() ? "" : " ") + n;
    }
    return rootAssignment(root) + "T='" + token + "'\nM=" + shellQuote(kPersistMarker) +
           "\nWANT=" + shellQuote(want) + "\nIRQBALANCE=" + (irqbalanceOff ? "off" : "on") +
           "\nBANIRQS='" + ban + "'\nBOOTOFF=" + shellQuote(bootOff) +
           "\nRCLOCAL=" + (plan && plan->followRcLocal ? "1" : "") +
           "\nMDEV=" + (plan && plan->mdevLine ? "1" : "") + "\n" +
           std::string(router_scripts::kCommonSh) + std::string(router_scripts::kStateDirSh) +
           std::string(router_scripts::kIrqbalanceBanSh) +
           std::string(router_scripts::kPersistInstallSh);
}

} // namespace

PersistScript makePersistScript(const PersistPlan& plan, const std::string& root,
                                bool onlyIfChanged) {
    PersistScript ps;
    ps.token = randomToken("@@ps");
    std::string want;
    for (const auto& l : plan.sysupgradeLines)
        want += l + "\n";
    std::string s = prelude(root, ps.token, want, &plan) + "umask 022\n";
    // 1. Every new file under a temporary name; nothing of the old state is touched yet.
    for (const auto& f : plan.files) {
        if (f.symlink) {
            s += "link " + shellQuote(f.path) + " " + shellQuote(f.content) + "\n";
        } else {
            char mode[8];
            std::snprintf(mode, sizeof mode, "%o", f.mode);
            s += "stage " + shellQuote(f.path) + " " + shellQuote(f.content) + " " + mode + "\n";
        }
    }
    if (onlyIfChanged)
        s += "if unchanged; then finish_unchanged; fi\n";
    // 2. The old persist goes (its sysupgrade.conf lines too), then the new files move in.
    s += "uninstall\nmkdir -p \"$R/etc/coresteer\" || fail 'cannot create /etc/coresteer'\n";
    if (!plan.sysupgradeLines.empty())
        s += "keep_sysupgrade\n";
    for (const auto& f : plan.files)
        if (f.path == kOverridePath)
            s += "board_aside\n";
    s += "move_in\n";
    if (plan.disableIrqbalance)
        s += "stop_irqbalance\n";
    if (!plan.bootScriptsOff.empty())
        s += "# shellcheck disable=SC2086 # the names\ndisable_boot $BOOTOFF\n";
    if (plan.followRcLocal)
        s += "after_rc_local\n";
    if (plan.mdevLine)
        s += "mdev_rule\n";
    if (!plan.banIrqs.empty())
        s += "# shellcheck disable=SC2086 # the numbers\n"
             "ban_irqs -x $BANIRQS || printf '%s N irqbalance\\n' \"$T\"\n";
    if (plan.flavor != PersistPlan::Flavor::OpenWrt)
        s += "reload_units udev\n";
    s += "printf '%s DONE\\n' \"$T\"\n";
    ps.script = s;
    return ps;
}

PersistScript makeUnpersistScript(const std::string& root) {
    PersistScript ps;
    ps.token = randomToken("@@ps");
    ps.script = prelude(root, ps.token, "", nullptr) +
                "uninstall\nreload_units\nprintf '%s DONE\\n' \"$T\"\n";
    return ps;
}

std::optional<PersistReport> parsePersistOutput(const std::string& out, const std::string& token,
                                                std::string* error) {
    PersistReport rep;
    bool done = false;
    text::LineReader lines(out);
    std::string_view line;
    while (lines.next(line)) {
        if (!text::startsWith(line, token + " "))
            continue;
        const auto rest = line.substr(token.size() + 1);
        const auto kind = rest.substr(0, rest.find(' '));
        const auto arg =
            rest.size() > kind.size() ? std::string(rest.substr(kind.size() + 1)) : std::string();
        if (kind == "DONE")
            done = true;
        else if (kind == "SAME")
            rep.unchanged = true;
        else if (kind == "W")
            rep.written.push_back(arg);
        else if (kind == "R")
            rep.removed.push_back(arg);
        else if (kind == "S")
            rep.sysupgradeAdded.push_back(arg);
        else if (kind == "U")
            rep.sysupgradeRestored = true;
        else if (kind == "N" && arg == "irqbalance")
            rep.irqbalanceBanFailed = true;
        else if (kind == "I")
            rep.messages.push_back(text::printable(arg, 300));
    }
    if (!done) {
        if (error)
            *error = "the router's answer is cut short";
        return std::nullopt;
    }
    return rep;
}

std::optional<PersistReport> persistResult(int exitStatus, const std::string& out,
                                           const std::string& err, const std::string& token,
                                           std::string* error) {
    if (exitStatus != 0) {
        if (error)
            *error = "the router script stopped (exit status " + std::to_string(exitStatus) +
                     "): " + text::printable(text::trim(err), 300);
        return std::nullopt;
    }
    return parsePersistOutput(out, token, error);
}

} // namespace coresteer::layout

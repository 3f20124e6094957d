// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The files of a persist, per flavor (OpenWrt, systemd, OpenRC), and the router apply script
// they run.
#include "core/base/shell.h"
#include "core/base/text.h"
#include "core/kernel/topology.h"
#include "core/layout/persist.h"
#include "core/layout/persist_detail.h"
#include "core/router-scripts/router_scripts.h"

#include <algorithm>
#include <cctype>
#include <set>

namespace coresteer::layout {

namespace detail {

std::string header(const std::string& boardName, const std::string& what) {
    const std::string board = boardName.empty() ? "this router" : boardName;
    std::string h = "# " + std::string(kPersistMarker) + " " CORESTEER_VERSION " for " +
                    text::printable(board, 80) + ". Do not edit: coresteer-cli unpersist\n" +
                    "# removes it, coresteer-cli persist replaces it. " + what + "\n";
    for (auto& c : h)
        if (c == '\r')
            c = ' ';
    return h;
}

bool plainName(const std::string& n) {
    return std::all_of(n.begin(), n.end(), [](unsigned char c) {
        return std::isalnum(c) || c == '_' || c == '.' || c == '-';
    });
}

} // namespace detail

using namespace detail;

namespace {

std::string systemdUnit(const std::string& board, bool perInterface) {
    std::string u = header(board, "Applies the layout of /etc/coresteer/layout.json.") + "[Unit]\n";
    if (perInterface) {
        u += "Description=coresteer: IRQ and queue layout for %I\n"
             "After=sys-subsystem-net-devices-%i.device\n\n"
             "[Service]\nType=oneshot\n"
             // Quoted: systemd splits Environment= at blanks after it expands %I.
             "Environment=\"ACTION=add\" \"INTERFACE=%I\" \"CORESTEER_FOREGROUND=1\"\n"
             "ExecStart=/bin/sh /etc/coresteer/apply.sh\n";
    } else {
        u += "Description=coresteer: IRQ and queue layout\n"
             // After rc.local, which may write masks of its own.
             "After=network.target rc-local.service\n\n"
             "[Service]\nType=oneshot\nRemainAfterExit=yes\n"
             "Environment=\"CORESTEER_FOREGROUND=1\"\n"
             "ExecStart=/bin/sh /etc/coresteer/apply.sh\n\n"
             "[Install]\nWantedBy=multi-user.target\n";
    }
    return u;
}

} // namespace

std::string makeRouterApplyScript(const Layout& l, const Snapshot& snap,
                                  const PersistOptions& options) {
    return makeRouterApplyScript(l, routerScriptContext(l, snap), options);
}

std::string makeRouterApplyScript(const Layout& l, const RouterScriptContext& context,
                                  const PersistOptions& options) {
    const int width = std::max(context.maskWidth, 1);
    std::string s = "#!/bin/sh\n" + header(context.board,
                                           "Re-applies the IRQ and queue layout\n# when a network "
                                           "interface appears (ACTION=add INTERFACE=...).");
    s += "R=${CORESTEER_ROOT:-}\nWAIT=" + std::to_string(std::max(0, options.waitSeconds)) + "\n";
    // The layout as data for router-apply.sh: names only ever live in quoted variables.
    std::string covered = "*";
    // A layout of governors alone covers no interface: any interface's event sets them.
    if (context.covered && !(context.covered->empty() && !l.governors.empty())) {
        covered.clear();
        for (const auto& n : *context.covered)
            if (n.find_first_of("\t\n\r") == std::string::npos)
                covered += n + "\n";
    }
    std::string queues, threads, irqs, cpufreq;
    // One record a line, fields apart by tabs: a name holding either separator would make
    // records of its own, so it is left out here, whatever the caller checked (no kernel name
    // has one, so nothing it could match is lost).
    auto line = [](std::initializer_list<std::string> fields) {
        std::string out;
        for (const auto& f : fields) {
            if (f.find_first_of("\t\n\r") != std::string::npos)
                return std::string();
            out += (out.empty() ? "" : "\t") + f;
        }
        return out + "\n";
    };
    for (const auto& t : l.rx) {
        const auto q = std::to_string(t.queue);
        if (t.rpsCpus)
            queues += line({t.interface, q, "rps", t.rpsCpus->toHex(width)});
        if (t.rpsFlowCnt)
            queues += line({t.interface, q, "flows", std::to_string(*t.rpsFlowCnt)});
    }
    for (const auto& t : l.tx)
        queues += line({t.interface, std::to_string(t.queue), "xps", t.xpsCpus.toHex(width)});
    std::set<std::string> napiDone;    // a driver's NAPI device serves several interfaces
    std::set<std::string> workersDone; // and a radio's TX worker all of the chip's bands
    // Channel counts and the RSS spread first (at boot the driver's table is its default, which
    // follows a new count), then threaded NAPI: switched on, its threads appear for the lines
    // after these.
    for (const auto& t : l.interfaces) {
        for (const auto& [kind, count] :
             {std::pair{"combined", t.channels.combined}, std::pair{"rx", t.channels.rx},
              std::pair{"tx", t.channels.tx}})
            if (count)
                threads +=
                    line({t.interface, std::string("channels-") + kind, std::to_string(*count)});
        if (t.rss)
            threads += line({t.interface, "rss", t.rss->toString()});
    }
    for (const auto& t : l.interfaces)
        if (t.threaded)
            threads += line({t.interface, "threaded", *t.threaded ? "1" : "0"});
    for (const auto& t : l.interfaces) {
        if (t.napiCpus) {
            const auto it = context.napiDevices.find(t.interface);
            const auto devices =
                it != context.napiDevices.end() ? it->second : std::vector{t.interface};
            for (const auto& d : devices)
                if (napiDone.insert(d).second)
                    threads += line({d, "napi", t.napiCpus->toHex(width)});
        }
        if (t.txWorkerCpus) {
            const auto it = context.txWorkerRadios.find(t.interface);
            const auto radio = it != context.txWorkerRadios.end() ? it->second
                               : validInterfaceName(t.interface) ? "@" + t.interface
                                                                 : std::string();
            if (!radio.empty() && workersDone.insert(radio).second)
                threads += line({radio, "worker", t.txWorkerCpus->toHex(width)});
        }
        if (t.rxUsecs)
            threads += line({t.interface, "usecs", std::to_string(*t.rxUsecs)});
        if (t.rxFrames)
            threads += line({t.interface, "frames", std::to_string(*t.rxFrames)});
    }
    for (const auto& t : l.governors)
        if (validGovernorName(t.governor) && t.policy >= 0)
            cpufreq += line({std::to_string(t.policy), t.governor});
    for (const auto& t : l.irqs)
        irqs += line({std::to_string(t.irq.index), t.cpus.toHex(width), t.irq.action});
    if (!irqs.empty())
        irqs.pop_back();
    s += "MARK=" + shellQuote(kPersistMarker) +
         "\nSTEERING=" + shellQuote(context.steeringOverride) + "\nBAN=" +
         (!options.banInIrqbalance    ? ""
          : options.banWhereInstalled ? "auto"
                                      : "1") +
         "\n";
    s += "COVERED=" + shellQuote(covered) + "\nSOCK_FLOW=" +
         shellQuote(l.rpsSockFlowEntries ? std::to_string(*l.rpsSockFlowEntries) : "") +
         "\nQUEUES=" + shellQuote(queues) + "\nTHREADS=" + shellQuote(threads) +
         "\nCPUFREQ=" + shellQuote(cpufreq) + "\nIRQS=" + shellQuote(irqs) +
         "\nFIND_IRQS=" + shellQuote(router_scripts::kFindIrqsAwk) +
         "\nRSS_SPEC=" + shellQuote(router_scripts::kRssSpecAwk) + "\n";
    s += router_scripts::kCommonSh;
    s += router_scripts::kStateDirSh;
    if (options.banInIrqbalance)
        s += router_scripts::kIrqbalanceBanSh;
    s += router_scripts::kRouterApplySh;
    return s;
}

// OpenWrt's platform packet-steering script as persist installs it, for the router apply
// script at `hook`.
std::string steeringOverride(const std::string& board, const std::string& hook) {
    return "#!/bin/sh\n" +
           header(board, "OpenWrt's platform packet steering: the firmware's own steering, then "
                         "the coresteer layout.") +
           "BOARD=" + shellQuote("/" + std::string(kBoardSteeringPath)) +
           "\nHOOK=" + shellQuote("/" + hook) + "\n" +
           std::string(router_scripts::kSteeringOverrideSh);
}

namespace {

// A udev rule that does `what` when a covered interface is added; none without a covered one.
void addUdevRule(PersistPlan& p, const RouterScriptContext& context, const std::string& comment,
                 const std::string& what) {
    std::string kernel = context.covered ? "" : "*";
    if (context.covered)
        for (const auto& n : *context.covered)
            if (plainName(n))
                kernel += (kernel.empty() ? "" : "|") + n;
    if (!kernel.empty())
        p.files.push_back({"etc/udev/rules.d/90-coresteer.rules",
                           header(context.board, comment) +
                               "ACTION==\"add\", SUBSYSTEM==\"net\", KERNEL==\"" + kernel + "\", " +
                               what + "\n",
                           0644});
}

// OpenRC: at boot through its local service, and for interfaces that appear later through the
// device manager's rules.
void addOpenrcFiles(PersistPlan& p, const RouterScriptContext& context) {
    p.files.push_back({"etc/local.d/coresteer.start",
                       "#!/bin/sh\n" +
                           header(context.board, "OpenRC's local service runs it at boot: the "
                                                 "layout on every interface.") +
                           "exec /bin/sh \"${CORESTEER_ROOT:-}/etc/coresteer/apply.sh\"\n",
                       0755});
    if (!p.openrcLocal) {
        p.files.push_back({"etc/runlevels/default/local", "/etc/init.d/local", 0777, true});
        p.files.push_back({std::string(kStateDir) + "/openrc-local",
                           std::string("# ") + kPersistMarker +
                               ": persist added OpenRC's local service to the default runlevel; "
                               "unpersist takes it out again.\n",
                           0644});
        p.actions.push_back("Adds OpenRC's local service to the default runlevel (it runs "
                            "/etc/local.d/*.start at boot); unpersist takes it out again.");
    }
    switch (p.deviceManager) {
    case Services::DeviceManager::Mdev:
        p.mdevLine = true;
        p.actions.push_back("Adds one rule line at the top of /etc/mdev.conf that runs the layout "
                            "when a network interface appears; unpersist takes it out.");
        break;
    case Services::DeviceManager::Udev:
        addUdevRule(p, context, "Applies the layout when an interface appears.",
                    "RUN+=\"/bin/sh /etc/coresteer/apply.sh\"");
        break;
    case Services::DeviceManager::None:
        p.actions.push_back("Found no mdev, mdevd or udev in a runlevel: the layout applies at "
                            "boot, and an interface that appears later gets it at the next boot.");
        break;
    }
}

} // namespace

namespace {

// /etc/hotplug.d/iface/95-coresteer: netifd runs it with ACTION=ifup, INTERFACE (the network
// interface, "wan") and DEVICE (its device, "pppoe-wan"); it runs the net hotplug script as an
// "add" of that device.
std::string ifupShim(const RouterScriptContext& context) {
    return "#!/bin/sh\n" +
           header(context.board, "the layout for devices that appear at ifup (PPP)") +
           "[ \"${ACTION:-}\" = ifup ] && [ -n \"${DEVICE:-}\" ] || exit 0\n"
           "ACTION=add INTERFACE=\"$DEVICE\" exec /bin/sh "
           "\"${CORESTEER_ROOT:-}/etc/hotplug.d/net/" +
           std::string(kHotplugName) + "\"\n";
}

} // namespace

void addPersistFiles(PersistPlan& p, const RouterScriptContext& context,
                     const PersistOptions& options, bool packetSteeringOverride) {
    const std::string hotplug = "etc/hotplug.d/net/" + std::string(kHotplugName);
    RouterScriptContext withSteering = context;
    if (p.flavor == PersistPlan::Flavor::OpenWrt && packetSteeringOverride)
        withSteering.steeringOverride = steeringOverride(context.board, hotplug);
    const auto script = makeRouterApplyScript(p.layout, withSteering, options);
    p.files.push_back({std::string(kStateDir) + "/layout.json",
                       persistedLayoutJson(p.layout, context.compactLayout), 0644});
    if (p.flavor == PersistPlan::Flavor::OpenWrt) {
        p.files.push_back({hotplug, script, 0755});
        // Not the platform script: sysupgrade keeps /etc only, and a newer image's own board
        // script must stay the board's; 95-coresteer puts coresteer's back at the first boot.
        p.sysupgradeLines = {"/" + hotplug, "/" + std::string(kStateDir) + "/"};
        if (!context.ifupDevices.empty()) {
            const std::string iface = "etc/hotplug.d/iface/" + std::string(kHotplugName);
            p.files.push_back({iface, ifupShim(context), 0755});
            p.sysupgradeLines.insert(p.sysupgradeLines.begin() + 1, "/" + iface);
            std::string names;
            for (const auto& d : context.ifupDevices)
                names += (names.empty() ? "" : ", ") + d;
            p.actions.push_back("Installs /" + iface + ": " + names +
                                " appears only when its interface comes up, and netifd's ifup "
                                "event then applies the layout to it.");
        }
        if (packetSteeringOverride) {
            p.files.push_back({kOverridePath, withSteering.steeringOverride, 0755});
            p.actions.push_back("Installs /" + std::string(kOverridePath) +
                                ": OpenWrt's packet steering service then runs the firmware's "
                                "own steering, and this layout after it, so the devices the "
                                "layout names keep it and the others keep the firmware's.");
        }
        return;
    }
    p.files.push_back({std::string(kStateDir) + "/apply.sh", script, 0755});
    if (p.flavor == PersistPlan::Flavor::OpenRC) {
        addOpenrcFiles(p, context);
        return;
    }
    p.files.push_back(
        {"etc/systemd/system/coresteer-apply.service", systemdUnit(context.board, false), 0644});
    p.files.push_back(
        {"etc/systemd/system/coresteer-apply@.service", systemdUnit(context.board, true), 0644});
    p.files.push_back({"etc/systemd/system/multi-user.target.wants/coresteer-apply.service",
                       "/etc/systemd/system/coresteer-apply.service", 0777, true});
    addUdevRule(p, context, "Starts coresteer-apply@<interface> when one appears.",
                "TAG+=\"systemd\", ENV{SYSTEMD_WANTS}+=\"coresteer-apply@%k.service\"");
}

} // namespace coresteer::layout

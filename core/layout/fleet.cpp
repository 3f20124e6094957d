// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/layout/fleet.h"

#include "core/base/sha256.h"
#include "core/base/shell.h"
#include "core/base/text.h"
#include "core/base/utf8.h"
#include "core/kernel/topology.h"
#include "core/layout/apply.h"
#include "core/layout/resolve.h"
#include "core/router-scripts/router_scripts.h"

#include <algorithm>
#include <cctype>

namespace coresteer::layout {

namespace {

// Bytes of script in one raw command: dropbear (OpenWrt's SSH server) takes commands of at most
// 9000 bytes, and the command has a few words around the script.
constexpr std::size_t kChunkBytes = 7000;

// The board check the apply and the persist script start with (after R is set).
std::string boardCheck(const Preset& preset) {
    return "BOARD=" + shellQuote(text::printable(preset.board, 128)) + "\n" +
           std::string(router_scripts::kBoardCheckSh);
}

// The interfaces whose events apply the layout: unknown (every one) as soon as the layout has
// IRQs, because without a snapshot nothing tells which interface an IRQ's action belongs to.
RouterScriptContext fleetContext(const Layout& l, const Preset& preset) {
    RouterScriptContext c;
    c.board = text::printable(preset.board, 128);
    c.compactLayout = true;
    c.maskWidth = 1; // each mask as wide as its highest CPU: the kernel takes short masks
    if (l.irqs.empty())
        c.covered = queueInterfaces(l);
    return c;
}

// The targets the scripts can carry: IRQ names awk can match, interface names a path can hold.
Layout carried(const Layout& in, std::vector<NotApplicable>& skipped) {
    Layout l;
    l.rpsSockFlowEntries = in.rpsSockFlowEntries;
    l.notes = in.notes;
    // A YAML document carries text, not bytes: a name that is not UTF-8 cannot travel in one.
    const char* notUtf8 = "not UTF-8: a playbook cannot carry it";
    for (const auto& t : in.irqs) {
        if (!matchableIrqAction(t.irq.action))
            skipped.push_back({"IRQ " + text::printable(t.irq.display(), 80),
                               "this action name cannot be matched in /proc/interrupts"});
        else if (!utf8::valid(t.irq.action))
            skipped.push_back({"IRQ " + text::printable(t.irq.display(), 80), notUtf8});
        else
            l.irqs.push_back(t);
    }
    auto ok = [&](const std::string& name) {
        if (!validInterfaceName(name))
            skipped.push_back(
                {"interface " + text::printable(name, 80), "not a valid interface name"});
        else if (!utf8::valid(name))
            skipped.push_back({"interface " + text::printable(name, 80), notUtf8});
        else
            return true;
        return false;
    };
    for (const auto& t : in.rx)
        if (ok(t.interface))
            l.rx.push_back(t);
    for (const auto& t : in.tx)
        if (ok(t.interface))
            l.tx.push_back(t);
    for (const auto& t : in.interfaces)
        if (ok(t.interface))
            l.interfaces.push_back(t);
    for (const auto& t : in.governors) {
        if (!validGovernorName(t.governor))
            skipped.push_back({"cpufreq policy" + std::to_string(t.policy),
                               "'" + text::printable(t.governor, 40) + "' is not a governor name"});
        else
            l.governors.push_back(t);
    }
    return l;
}

// One persist.h install script, its big contents (the router apply script, the layout) taken
// from $ROUTER and $LAYOUT, which every flavor shares.
// The install scripts' functions (persist.cpp's prelude), which every variant holds: the
// playbook carries them once, as PERSIST_FNS.
std::string persistFunctions() {
    return std::string(router_scripts::kCommonSh) + std::string(router_scripts::kStateDirSh) +
           std::string(router_scripts::kIrqbalanceBanSh) +
           std::string(router_scripts::kPersistInstallSh);
}

std::string persistVariant(const char* name, const PersistPlan& plan, const std::string& router,
                           const std::string& layoutJson) {
    auto script = makePersistScript(plan, kRootFromEnvironment, true);
    const auto fns = persistFunctions();
    if (const auto at = script.script.find(fns); at != std::string::npos)
        script.script.replace(at, fns.size(), "eval \"$PERSIST_FNS\"\n");
    auto replace = [&](const std::string& content, const char* var) {
        const auto quoted = shellQuote(content);
        for (auto at = script.script.find(quoted); at != std::string::npos;
             at = script.script.find(quoted, at))
            script.script.replace(at, quoted.size(), var);
    };
    replace(router, "\"$ROUTER\"");
    replace(layoutJson, "\"$LAYOUT\"");
    return std::string(name) + "_T='" + script.token + "'\n" + name +
           "_S=" + shellQuote(script.script) + "\n";
}

// Pieces of `text`, each small enough once quoted for one command of dropbear's (at most 9000
// bytes: OpenWrt's SSH server refuses longer ones), cut between code points. The playbook
// carries each byte for byte (a YAML double-quoted scalar, then Ansible's `quote`), so a piece
// may end anywhere in a line.
std::vector<std::string> chunks(const std::string& text) {
    std::vector<std::string> out;
    std::size_t start = 0, cost = 0;
    for (std::size_t i = 0; i < text.size();) {
        const auto at = i;
        utf8::next(text, i);
        // Python's shlex.quote, which Ansible's `quote` is, turns ' into '"'"'.
        const std::size_t c = text[at] == '\'' ? 5 : i - at;
        if (cost + c > kChunkBytes) {
            out.push_back(text.substr(start, at - start));
            start = at;
            cost = 0;
        }
        cost += c;
    }
    if (start < text.size())
        out.push_back(text.substr(start));
    return out;
}

// The task that checks every script on the router against the SHA-256 it was made with, before
// anything runs: a piece lost or changed on the way fails the play.
std::string checksumCommand(const std::vector<std::pair<std::string, std::string>>& sums) {
    std::string c = "cd {{ coresteer_dir.stdout | trim | quote }} && "
                    "{ command -v sha256sum >/dev/null || "
                    "{ echo 'coresteer: the router has no sha256sum to check the scripts'; exit 1; "
                    "}; }";
    for (const auto& [file, sum] : sums)
        c += " && { set -- $(sha256sum " + file + "); [ \"$1\" = " + sum +
             " ] || { echo 'coresteer: " + file +
             " did not arrive whole (SHA-256 differs): nothing was run'; exit 1; }; }";
    return c;
}

} // namespace

bool validInventoryGroup(const std::string& g) {
    return !g.empty() && g.size() <= 64 && !std::isdigit(static_cast<unsigned char>(g[0])) &&
           std::all_of(g.begin(), g.end(),
                       [](unsigned char c) { return std::isalnum(c) || c == '_'; });
}

std::optional<FleetScripts> makeFleetScripts(const Preset& preset, const FleetOptions& options,
                                             std::string* error) {
    FleetScripts f;
    f.layout = carried(preset.layout, f.skipped);
    if (f.layout.empty()) {
        if (error)
            *error = "nothing of this preset can be applied by a script";
        return std::nullopt;
    }
    const auto context = fleetContext(f.layout, preset);
    PersistOptions runtime = options.persist;
    runtime.waitSeconds = 0;
    // The apply may yet be reverted: irqbalance's configuration changes only with persist.
    runtime.banInIrqbalance = false;
    PersistOptions persistent = options.persist;
    persistent.banWhereInstalled = true;

    // apply: capture every old value the router apply script would change (a dry run), arm the
    // revert with them, then write. All under the revert state's lock.
    f.apply = revertStateScript(kRootFromEnvironment) + boardCheck(preset) +
              "ROUTER=" + shellQuote(makeRouterApplyScript(f.layout, context, runtime)) + "\n" +
              std::string(router_scripts::kFleetApplySh);

    f.confirm = makeSettleScript(kRootFromEnvironment, PendingAction::Confirm);

    // persist: one install script per flavor, chosen on the router.
    PersistPlan base;
    base.layout = f.layout;
    base.disableIrqbalance = options.persist.disableIrqbalance;
    base.bansByRouterScript = persistent.banInIrqbalance;
    const auto router = makeRouterApplyScript(f.layout, context, persistent);
    const auto layoutJson = persistedLayoutJson(f.layout, context.compactLayout);
    auto variant = [&](const char* name, PersistPlan::Flavor flavor, bool override) {
        PersistPlan p = base;
        p.flavor = flavor;
        addPersistFiles(p, context, persistent, override);
        return persistVariant(name, p, router, layoutJson);
    };
    std::string p = rootAssignment(kRootFromEnvironment) + boardCheck(preset) +
                    "M=" + shellQuote(kPersistMarker) + "\nROUTER=" + shellQuote(router) +
                    "\nLAYOUT=" + shellQuote(layoutJson) +
                    "\nBAN_NOW=" + (persistent.banInIrqbalance ? "1" : "") +
                    "\nPERSIST_FNS=" + shellQuote(persistFunctions()) + "\n";
    p += options.persist.packetSteeringOverride
             ? variant("OVERRIDE", PersistPlan::Flavor::OpenWrt, true)
             : std::string("OVERRIDE_T=\nOVERRIDE_S=\n");
    p += variant("OPENWRT", PersistPlan::Flavor::OpenWrt, false);
    p += variant("SYSTEMD", PersistPlan::Flavor::Systemd, false);
    // OpenRC: one per what the router has, which fleet-persist.sh finds as the snapshot would
    // (the owner's local service in a runlevel or not; mdev or mdevd with a plain mdev.conf,
    // udev, or neither).
    for (const bool local : {true, false})
        for (const auto& [dm, dmName] : {std::pair{Services::DeviceManager::Mdev, "MDEV"},
                                         std::pair{Services::DeviceManager::Udev, "UDEV"},
                                         std::pair{Services::DeviceManager::None, "NONE"}}) {
            PersistPlan o = base;
            o.flavor = PersistPlan::Flavor::OpenRC;
            o.openrcLocal = local;
            o.deviceManager = dm;
            addPersistFiles(o, context, persistent, false);
            p += persistVariant(
                (std::string("OPENRC_") + (local ? "LOCAL_" : "NOLOCAL_") + dmName).c_str(), o,
                router, layoutJson);
        }
    p += router_scripts::kFleetPersistSh;
    f.persist = p;
    return f;
}

std::optional<std::string> makeAnsiblePlaybook(const Preset& preset, const FleetOptions& options,
                                               std::string* error) {
    if (!validInventoryGroup(options.group)) {
        if (error)
            *error = "'" + text::printable(options.group, 80) +
                     "' is not an inventory group name (letters, digits and _)";
        return std::nullopt;
    }
    const auto f = makeFleetScripts(preset, options, error);
    if (!f)
        return std::nullopt;
    const std::string name = preset.name.empty() ? "layout" : preset.name.substr(0, 120);
    // Every scalar that comes from data is double-quoted with all but printable ASCII escaped,
    // comments included: no byte of a name can start a line of its own.
    using utf8::yamlQuoted;
    std::string y =
        "---\n# " + std::string(kPersistMarker) +
        " " CORESTEER_VERSION " (coresteer-cli export ansible): the preset\n# " + yamlQuoted(name) +
        (preset.board.empty() ? "" : " for " + yamlQuoted(preset.board.substr(0, 120))) + R"(.
#
# Applies the layout at runtime on every host of the group, with the automatic revert
# coresteer's own apply uses (the router restores its old values unless the next task confirms
# over a new command), then makes it persistent: /etc/hotplug.d/net/95-coresteer on OpenWrt, a
# systemd unit and a udev rule under systemd, OpenRC's local service and an mdev or udev rule
# under OpenRC. Every task is `raw`: routers need only a POSIX sh.
# The scripts go to a private temporary directory on the router in pieces (dropbear takes
# commands of at most 9000 bytes) and are removed at the end. A second run changes nothing and
# reports no change.
#
# Host or group variables:
#   coresteer_root          a directory prefix on the router instead of / (default "")
#   coresteer_revert_after  seconds before an unconfirmed apply reverts (default 60)
#   coresteer_any_board     true: apply on a board other than the preset's (default false)
#   coresteer_persist       false: apply at runtime only (default true)
)";
    if (options.persist.disableIrqbalance)
        y += "#\n# Persist stops and disables irqbalance (coresteer-cli unpersist enables it "
             "again).\n";
    else if (options.persist.banInIrqbalance)
        y += "#\n# Persist bans the layout's IRQs in irqbalance where a router has it, and the "
             "router bans\n# the numbers they take at every boot (coresteer-cli unpersist lifts "
             "the bans).\n";
    if (!f->skipped.empty()) {
        y += "#\n# Left out of this playbook:\n";
        for (const auto& k : f->skipped)
            y += "#   " + yamlQuoted(k.target.substr(0, 120)) + ": " + yamlQuoted(k.reason) + "\n";
    }
    y += "\n- name: " + yamlQuoted("coresteer: " + name) + "\n  hosts: " + options.group +
         "\n  gather_facts: false\n  vars:\n    coresteer_scripts:\n";
    const std::pair<const char*, const std::string*> scripts[] = {
        {"apply.sh", &f->apply}, {"confirm.sh", &f->confirm}, {"persist.sh", &f->persist}};
    std::vector<std::pair<std::string, std::string>> sums;
    for (const auto& [file, script] : scripts) {
        if (!utf8::valid(*script)) {
            if (error)
                *error = std::string("the playbook cannot carry ") + file + ": it is not UTF-8";
            return std::nullopt;
        }
        sums.emplace_back(file, sha256Hex(*script));
        // !unsafe keeps Ansible's templating away from the shell's braces.
        for (const auto& c : chunks(*script))
            y += "      - file: " + std::string(file) + "\n        text: !unsafe " + yamlQuoted(c) +
                 "\n";
    }
    const std::string dir = "{{ coresteer_dir.stdout | trim | quote }}";
    const std::string env =
        "CORESTEER_ROOT={{ coresteer_root | default('') | quote }}"
        " CORESTEER_ANY_BOARD={{ (coresteer_any_board | default(false) | bool) | ternary('1', "
        "'0') }}";
    y += R"(  tasks:
    - name: Make a private directory for the scripts
      raw: umask 077 && mktemp -d "${TMPDIR:-/tmp}/coresteer-fleet.XXXXXX"
      register: coresteer_dir
      changed_when: false

    - block:
        - name: Copy the scripts
          raw: printf '%s' {{ item.text | quote }} >> )" +
         dir + R"(/{{ item.file }}
          loop: "{{ coresteer_scripts }}"
          loop_control:
            label: "{{ item.file }}"
          changed_when: false

        - name: Check that every script arrived whole
          raw: )" +
         yamlQuoted(checksumCommand(sums)) + R"(
          changed_when: false

        - name: Apply the layout (the router reverts it unless the next task confirms)
          raw: >-
            )" +
         env + R"(
            CORESTEER_REVERT_AFTER={{ coresteer_revert_after | default(60) | int }}
            /bin/sh )" +
         dir + R"(/apply.sh
          register: coresteer_applied
          changed_when: "'coresteer: changed' in coresteer_applied.stdout"

        - name: Confirm the layout over a new command (cancels the revert)
          raw: )" +
         env + " /bin/sh " + dir + R"(/confirm.sh
          when: coresteer_applied is changed

        - name: Persist the layout across reboots and upgrades
          raw: )" +
         env + " /bin/sh " + dir + R"(/persist.sh
          register: coresteer_persisted
          changed_when: "'coresteer: changed' in coresteer_persisted.stdout"
          when: coresteer_persist | default(true) | bool

      always:
        - name: Remove the scripts
          raw: rm -rf )" +
         dir + R"(
          changed_when: false
)";
    return y;
}

} // namespace coresteer::layout

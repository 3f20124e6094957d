// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// Making a layout survive reboots, firmware upgrades and OpenWrt's own scripts.
//
// The router runs one generated POSIX sh script (the "router apply script") whenever a network
// interface appears. It finds each IRQ by its action name and rank, as the layout names it (the
// IRQ numbers of the next boot are not known yet), writes the masks, and waits in the
// background for vectors that drivers request only when the interface comes up. Where it is
// installed:
//
//   OpenWrt   /etc/hotplug.d/net/95-coresteer                the script (procd runs it on add)
//             /usr/libexec/platform/packet-steering.sh       23.05 on, with the steering
//                                                             service: the firmware's steering,
//                                                             then the layout (re-created by
//                                                             95-coresteer after an upgrade)
//             /usr/libexec/platform/packet-steering.board.sh the board's own, moved aside
//             /etc/coresteer/layout.json                     the layout, for reading back
//             /etc/sysupgrade.conf                           + the lines that keep all of these
//   systemd   /etc/coresteer/apply.sh                        the script
//             /etc/systemd/system/coresteer-apply.service    oneshot at boot, enabled
//             /etc/systemd/system/coresteer-apply@.service   per interface, started by udev
//             /etc/udev/rules.d/90-coresteer.rules           when a covered interface appears
//             /etc/coresteer/layout.json
//   OpenRC    /etc/coresteer/apply.sh                        the script
//             /etc/local.d/coresteer.start                   runs it at boot (OpenRC's local)
//             /etc/runlevels/default/local                   where no runlevel had local yet
//             /etc/coresteer/openrc-local                    (and the note that persist added it)
//             /etc/mdev.conf                                 + one rule line (mdev, mdevd), or
//             /etc/udev/rules.d/90-coresteer.rules           RUN+= (udev): late interfaces
//             /etc/coresteer/layout.json
//
// Every file carries kPersistMarker. One install script per persist writes every file to a
// temporary name first and renames it only when all were written; unpersist removes exactly
// what persist added and restores /etc/sysupgrade.conf byte for byte.
#pragma once

#include "core/layout/resolve.h"
#include "core/model/conflicts.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace coresteer::layout {

struct PersistOptions {
    // Install the platform override where OpenWrt's packet steering service exists (else its
    // packet-steering.uc rewrites RPS and XPS on every network reload).
    bool packetSteeringOverride = true;
    // Stop and disable irqbalance (re-enabled by unpersist). Only on the live root ("/").
    bool disableIrqbalance = false;
    // Or leave it running and ban the IRQs the layout pins in it (OpenWrt: "list banirq" in
    // /etc/config/irqbalance; systemd: a drop-in adding --banirq=N), so that it balances only
    // the others; the persisted apply script bans the numbers an IRQ takes at a later boot,
    // and unpersist lifts coresteer's bans.
    bool banInIrqbalance = false;
    // With banInIrqbalance, where the router's irqbalance configuration is found, and nothing
    // said where it is not (a fleet's script, made without knowing whether each router has it).
    bool banWhereInstalled = false;
    // Boot scripts that rewrite masks after the hotplug script (Services::maskScripts): OpenWrt's
    // init scripts are disabled (their /etc/rc.d links go; unpersist puts them back), and
    // /etc/rc.local gets one line at its end that applies the layout again.
    bool overrideBootScripts = false;
    // Seconds the router apply script keeps looking for IRQs and queues that are not there yet.
    int waitSeconds = 30;
};

struct PersistFile {
    std::string path;    // relative to the root: "etc/hotplug.d/net/95-coresteer"
    std::string content; // for a symlink: its target
    unsigned mode = 0644;
    bool symlink = false;
};

struct PersistPlan {
    enum class Flavor { OpenWrt, Systemd, OpenRC };
    Flavor flavor = Flavor::OpenWrt;
    // OpenRC: the local service is in a runlevel already; the device manager that runs a
    // script when an interface appears (persist adds a rule line to /etc/mdev.conf for mdev).
    bool openrcLocal = true;
    Services::DeviceManager deviceManager = Services::DeviceManager::None;
    bool mdevLine = false;
    Layout layout; // what applies on this router (the targets that resolve now)
    std::vector<NotApplicable> skipped;
    std::vector<PersistFile> files;
    std::vector<std::string> sysupgradeLines; // OpenWrt: what /etc/sysupgrade.conf must keep
    bool disableIrqbalance = false;
    std::vector<std::uint32_t> banIrqs; // the IRQs banned in irqbalance (banInIrqbalance)
    // A fleet's persist, made without a snapshot: the router apply script bans the IRQs it pins
    // (BAN=auto), and the install keeps coresteer's bans as they are.
    bool bansByRouterScript = false;
    std::vector<std::string> bootScriptsOff; // init scripts disabled (overrideBootScripts)
    bool followRcLocal = false;              // rc.local ends with the layout again
    std::vector<Conflict> conflicts;         // found on the router
    std::vector<std::string> actions;        // what persist does about them, one sentence each
};
const char* toString(PersistPlan::Flavor f);

// An IRQ action name the router scripts can find in /proc/interrupts as it is.
bool matchableIrqAction(const std::string& action);

// The plan, or nullopt with *error when this router has neither hotplug.d with a hotplug caller
// (OpenWrt, BusyBox firmwares), nor systemd, nor OpenRC, or nothing of the layout applies.
std::optional<PersistPlan> planPersist(const Layout& layout, const Snapshot& snap,
                                       const PersistOptions& options, std::string* error);

// What the router apply script needs to know of the router beyond the layout.
struct RouterScriptContext {
    int maskWidth = 1; // CPUs the kernel's masks cover (nr_cpu_ids); a wider mask prints wider
    std::string board; // for the header: "friendlyarm,nanopi-r6s", or "" for "this router"
    // The interfaces whose "add" event applies the layout; nullopt: every interface (a fleet
    // script, made without a snapshot, cannot tell which interface an IRQ's action belongs to).
    std::optional<std::vector<std::string>> covered;
    // /etc/coresteer/layout.json on one line and without the reasons (a fleet's scripts must
    // stay small: Ansible passes each as one argument).
    bool compactLayout = false;
    // OpenWrt's platform packet-steering script as persist installs it, or "" for none: the
    // router apply script puts it back in place at the first boot after a firmware upgrade
    // (sysupgrade keeps /etc, never /usr, and the new image may bring a board script of its
    // own, which then moves aside and runs first).
    std::string steeringOverride;
    // The NAPI devices whose threads do an interface's receive work, where that is not the
    // interface itself ("eth0" -> "mtk_eth": the driver's own NAPI device, napi/mtk_eth-N);
    // an interface not here pins napi/<interface>-N.
    std::map<std::string, std::vector<std::string>> napiDevices;
    // The radio whose mt76 TX worker ("mt76-tx phy0") serves an interface: one chip's worker is
    // named after its first radio and serves all of its bands. An interface not here names its
    // radio at boot (its phy80211).
    std::map<std::string, std::string> txWorkerRadios;
    // Interfaces of the layout that appear only when their network interface comes up (PPP:
    // pppd creates ppp0 and renames it pppoe-wan, so no "add" event names it): on OpenWrt,
    // /etc/hotplug.d/iface/95-coresteer applies the layout at their ifup.
    std::vector<std::string> ifupDevices;
};
// The /etc/coresteer/layout.json a persist writes.
std::string persistedLayoutJson(const Layout& layout, bool compact);
RouterScriptContext routerScriptContext(const Layout& applicable, const Snapshot& snap);
// The interfaces of a layout's queue and interface targets, sorted, each once.
std::vector<std::string> queueInterfaces(const Layout& layout);

// The files that persist a layout (already checked against the router) for one flavor:
// plan.files, plan.sysupgradeLines and plan.actions; `packetSteeringOverride`: install OpenWrt's
// platform override.
void addPersistFiles(PersistPlan& plan, const RouterScriptContext& context,
                     const PersistOptions& options, bool packetSteeringOverride);

// The script the router runs on hotplug and at boot. Environment: ACTION and INTERFACE as procd
// and udev set them (only "add" of a covered interface, or no INTERFACE at all, applies);
// CORESTEER_ROOT, a prefix for fixture roots; CORESTEER_FOREGROUND=1 waits in the foreground
// (systemd); CORESTEER_WAIT, seconds to wait for late IRQs and queues; CORESTEER_KEEP, a file
// that gets "path<TAB>old value" before each write (a revert file, as apply.h's). A value that
// is already as wanted is not written again.
std::string makeRouterApplyScript(const Layout& applicable, const RouterScriptContext& context,
                                  const PersistOptions& options);
std::string makeRouterApplyScript(const Layout& applicable, const Snapshot& snap,
                                  const PersistOptions& options);

struct PersistScript {
    std::string token;
    std::string script;
};
// `onlyIfChanged`: when every file is already installed as planned, the script changes nothing
// and reports `unchanged` (what a fleet tool's second run must see).
PersistScript makePersistScript(const PersistPlan& plan, const std::string& root,
                                bool onlyIfChanged = false);
PersistScript makeUnpersistScript(const std::string& root);

struct PersistReport {
    std::vector<std::string> written; // "/etc/hotplug.d/net/95-coresteer"
    std::vector<std::string> removed;
    std::vector<std::string> sysupgradeAdded;
    bool sysupgradeRestored = false;
    bool unchanged = false;            // onlyIfChanged, and everything was already in place
    std::vector<std::string> messages; // from commands the script ran (systemctl, init scripts)
    bool irqbalanceBanFailed = false;  // asked to ban IRQs in irqbalance, and could not
};
std::optional<PersistReport> parsePersistOutput(const std::string& out, const std::string& token,
                                                std::string* error);

// Judges a finished persist or unpersist run (core/router runs it).
std::optional<PersistReport> persistResult(int exitStatus, const std::string& out,
                                           const std::string& err, const std::string& token,
                                           std::string* error);

} // namespace coresteer::layout

// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// One preset for many routers, through the fleet tool the user already has: an Ansible playbook
// whose every task is `raw`, so a router needs nothing but a POSIX sh (OpenWrt has no Python).
//
// Without a snapshot of each router, the scripts resolve the layout on the router itself, as the
// persisted hotplug script does at every boot (IRQs by action name and rank, queues by
// interface and index). They are put together from the very scripts apply.h and persist.h make:
//
//   apply    runs persist.h's router apply script as a dry run (CORESTEER_DRY) that keeps every
//            old value it would change in the revert file (CORESTEER_KEEP), arms apply.h's
//            revert job with them, then runs it again for real: only values that differ are
//            written. Prints "coresteer: changed N" (N values written; the revert
//            stays armed) or "coresteer: unchanged" (the revert job is cancelled at once).
//   confirm  apply.h's settle script: cancels the revert.
//   persist  persist.h's install script for the flavor the router turns out to have (OpenWrt,
//            with the packet steering override where that service exists and no foreign
//            override is installed, or systemd), in its only-if-changed form. Prints
//            "coresteer: changed" with what it wrote, or "coresteer: unchanged".
//
// Each reads CORESTEER_ROOT (a directory prefix, for fixture roots); apply also reads
// CORESTEER_REVERT_AFTER (seconds, default 60). apply and persist refuse a router whose board is
// not the preset's (exit 5) unless CORESTEER_ANY_BOARD=1.
#pragma once

#include "core/layout/layout_json.h"
#include "core/layout/persist.h"

#include <string>
#include <vector>

namespace coresteer::layout {

struct FleetOptions {
    PersistOptions persist;
    std::string group = "routers"; // the inventory group the playbook targets
};

struct FleetScripts {
    std::string apply, confirm, persist;
    Layout layout; // the targets the scripts carry
    // Targets left out, and why (an IRQ name or interface name the scripts cannot carry).
    std::vector<NotApplicable> skipped;
};

// nullopt with *error when nothing of the preset can be carried.
std::optional<FleetScripts> makeFleetScripts(const Preset& preset, const FleetOptions& options,
                                             std::string* error);

// The playbook: YAML text, one play for options.group, three raw tasks.
std::optional<std::string> makeAnsiblePlaybook(const Preset& preset, const FleetOptions& options,
                                               std::string* error);

// A group name Ansible takes as it is (letters, digits, '_'; not starting with a digit).
bool validInventoryGroup(const std::string& group);

} // namespace coresteer::layout

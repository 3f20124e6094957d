// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// Other things on a router that set IRQ and queue masks, or undo them: OpenWrt's packet
// steering, the board's own hotplug scripts, irqbalance. Each comes with one suggested action.
#pragma once

#include "core/model/snapshot.h"

#include <string>
#include <vector>

namespace coresteer {

struct Conflict {
    enum class Kind {
        PacketSteeringService, // OpenWrt 23.05 on: rewrites RPS (XPS) on every network reload
        PacketSteeringForeign, // a platform override that is not coresteer's
        PacketSteeringHotplug, // OpenWrt before 23.05: an /etc/hotplug.d/net script
        BoardHotplug,          // the board's own affinity script (40-net-smp-affinity)
        Irqbalance,            // running or enabled: moves IRQs every 10 s
        FlowOffloading,        // forwarded flows bypass the CPU path and SQM (a note)
        BootScript,            // an init script or rc.local that writes masks after hotplug
    };
    Kind kind;
    // true when it undoes a persisted layout unless the suggestion is taken; false when it only
    // runs before coresteer's own script, which wins.
    bool blocking = false;
    std::string title;      // one line: what it is
    std::string detail;     // what it does to masks
    std::string suggestion; // the one thing to do about it
    // BootScript: the init script's name ("smp_affinity"), "" for /etc/rc.local.
    std::string service = {};
};
const char* toString(Conflict::Kind k);

// The name coresteer's hotplug script gets in /etc/hotplug.d/net: it sorts after the board's
// scripts, so its masks are the last ones written.
inline constexpr const char* kHotplugName = "95-coresteer";

std::vector<Conflict> detectConflicts(const Snapshot& snap);

// The scripts of /etc/hotplug.d/net that set masks before coresteer's own, at the add of any
// interface (a bridge's, a tunnel's, a PPP unit's too): OpenWrt's rockchip and FriendlyWrt's
// 40-net-smp-affinity pin every port's IRQ, the 20-smp-packet-steering of releases before
// 23.05 (while packet steering is on) sets every device's RPS and XPS. coresteer's script
// must then apply the layout again at every add, not only at those of its own interfaces.
std::vector<std::string> hotplugScriptsBeforeOurs(const Snapshot& snap);

} // namespace coresteer

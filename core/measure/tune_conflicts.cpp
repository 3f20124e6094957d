// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/measure/tune_conflicts.h"

namespace coresteer::measure {

std::vector<TuneConflict> tuneConflicts(const Snapshot& snap) {
    std::vector<TuneConflict> out;
    for (const auto& c : detectConflicts(snap)) {
        switch (c.kind) {
        case Conflict::Kind::Irqbalance:
            // Enabled at boot but not running moves nothing during the run.
            if (!snap.system.irqbalanceRunning.value_or(false))
                break;
            out.push_back(
                {c.kind, true, c.title,
                 "irqbalance moves IRQs between cores every 10 s: it would move them under the "
                 "trials, and the tune would compare its moves, not the layouts.",
                 "Stop it for the tune and start it again after (" +
                     std::string(snap.system.isOpenWrt() || !snap.system.services.systemd
                                     ? "/etc/init.d/irqbalance stop"
                                     : "systemctl stop irqbalance") +
                     "), or tune anyway with --allow-conflicts."});
            break;
        case Conflict::Kind::PacketSteeringService:
        case Conflict::Kind::PacketSteeringForeign:
        case Conflict::Kind::PacketSteeringHotplug:
        case Conflict::Kind::BoardHotplug:
            if (!c.blocking && c.kind == Conflict::Kind::PacketSteeringService)
                break; // the service is there but off: it changes nothing
            out.push_back({c.kind, false, c.title,
                           "It rewrites masks on a network reload or an interface event: one "
                           "during the run would change the baseline under the trials.",
                           "Change nothing in the network while the tune runs; the tune reads "
                           "the masks back after every block and stops if they changed."});
            break;
        case Conflict::Kind::FlowOffloading:
            out.push_back({c.kind, false, c.title,
                           "Established flows skip most of the CPU path: the load measures the "
                           "offloaded path, where the layout matters less and the router may "
                           "not be the limit.",
                           "Tune with offloading as you run the router; to tune the path SQM "
                           "shapes, turn it off first."});
            break;
        case Conflict::Kind::BootScript:
            break; // it runs at boot, not during the run
        }
    }
    return out;
}

} // namespace coresteer::measure

// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// RPS for PPP interfaces. A PPPoE WAN's packets are received twice: once on the device the
// session runs over (where its RPS, and the flow dissector's look through the PPPoE header,
// spread them), and again on pppoe-wan, where ppp_generic hands each decapsulated packet back
// to the kernel with netif_rx. That second pass (IP, the firewall, SQM's ingress shaping on
// pppoe-wan) runs on the CPU that pppoe-wan's own rps_cpus picks, and OpenWrt's packet steering
// never sets it (it steers only devices with a bus device and no lower device). A VLAN or a
// bridge is different: the kernel untags and bridges a packet in the same pass, so their own
// rps_cpus is never consulted.
#include "core/layout/planner.h"

#include <algorithm>

namespace coresteer::layout {

void planPppSteering(const Snapshot& snap, Layout& layout) {
    const int width = std::max(snap.topology.maskWidth, 1);
    for (const auto& nif : snap.interfaces) {
        if (!nif.isPpp() || nif.rx.empty())
            continue;
        if (std::any_of(layout.rx.begin(), layout.rx.end(),
                        [&](const RxQueueTarget& t) { return t.interface == nif.name; }))
            continue;
        // The device whose packet work to follow: the session's device, or where that is a VLAN
        // or a DSA port with no RPS in this layout, the device under it (eth1.2 -> eth1), whose
        // pass the untagging shares.
        CpuMask cpus(width);
        std::string from = nif.conduit;
        for (int depth = 0; depth < 8 && !from.empty(); ++depth) {
            for (const auto& t : layout.rx)
                if (t.interface == from && t.rpsCpus)
                    cpus = cpus | *t.rpsCpus;
            const auto* lower = snap.interface(from);
            if (!cpus.none() || !lower || lower->conduit.empty() || lower->conduit == from)
                break;
            from = lower->conduit;
        }
        if (cpus.none())
            from = nif.conduit;
        std::string why;
        const std::string pass =
            nif.name +
            "'s packets come back to the kernel decapsulated (ppp_generic's netif_rx), " +
            "and its own RPS spreads that second pass (IP, the firewall, SQM's ingress on " +
            nif.name + ")";
        if (!cpus.none()) {
            why = pass + " over the CPUs that take " + from + "'s packet work (" + cpus.toList() +
                  ")" + (from != nif.conduit ? ", the device under " + nif.conduit : "") +
                  ", instead of the one CPU that took each packet from " + nif.conduit + ".";
        } else {
            cpus = snap.topology.online;
            const std::string over =
                nif.conduit.empty() ? std::string("the device its session runs over") : nif.conduit;
            why = pass + " over every online CPU (" + cpus.toList() + "): this layout gives " +
                  over + " no RPS of its own to follow.";
        }
        if (cpus.none())
            continue;
        for (const auto& q : nif.rx)
            layout.rx.push_back({nif.name, q.index, cpus, std::nullopt, why});
    }
}

} // namespace coresteer::layout

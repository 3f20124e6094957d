// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/model/conflicts.h"

#include <algorithm>

namespace coresteer {

namespace {

bool enabledValue(const std::optional<std::string>& v) {
    return v && !v->empty() && *v != "0";
}

// A hotplug script that looks like it sets masks: OpenWrt's 20-smp-tune and
// 20-smp-packet-steering, boards' 40-net-smp-affinity, vendors' "*irq*" and "*rps*" scripts.
bool touchesMasks(const std::string& name) {
    for (const char* s : {"smp", "affinity", "irq", "rps", "steering"})
        if (name.find(s) != std::string::npos)
            return true;
    return false;
}

bool steeringHotplug(const std::string& name) {
    return name.find("steering") != std::string::npos || name.find("smp-tune") != std::string::npos;
}

// What the firmware's own steering script does, by the one it has.
std::string steeringDoes(const std::string& script) {
    if (script == "packet-steering.uc")
        return "this firmware's packet-steering.uc (OpenWrt 24.10 on) sets RPS, rps_flow_cnt and "
               "the CPUs of NAPI threads, and with packet_steering 0 clears RPS instead of "
               "stopping.";
    if (script == "packet-steering.sh")
        return "this firmware's packet-steering.sh (OpenWrt 23.05) spreads RPS and XPS over all "
               "CPUs.";
    return "OpenWrt 23.05's packet-steering.sh spreads RPS and XPS over all CPUs, 24.10's "
           "packet-steering.uc sets RPS, rps_flow_cnt and the CPUs of NAPI threads (and with "
           "packet_steering 0 clears RPS instead of stopping).";
}

} // namespace

std::vector<std::string> hotplugScriptsBeforeOurs(const Snapshot& snap) {
    const auto& v = snap.system.services;
    std::vector<std::string> out;
    for (const auto& name : v.netHotplug)
        if (name < std::string(kHotplugName) && touchesMasks(name) &&
            !(steeringHotplug(name) && !enabledValue(v.packetSteering)))
            out.push_back(name);
    return out;
}

const char* toString(Conflict::Kind k) {
    switch (k) {
    case Conflict::Kind::PacketSteeringService:
        return "packet_steering_service";
    case Conflict::Kind::PacketSteeringForeign:
        return "packet_steering_override";
    case Conflict::Kind::PacketSteeringHotplug:
        return "packet_steering_hotplug";
    case Conflict::Kind::BoardHotplug:
        return "board_hotplug";
    case Conflict::Kind::FlowOffloading:
        return "flow_offloading";
    case Conflict::Kind::BootScript:
        return "boot_script";
    case Conflict::Kind::Irqbalance:
        break;
    }
    return "irqbalance";
}

std::vector<Conflict> detectConflicts(const Snapshot& snap) {
    std::vector<Conflict> out;
    const auto& v = snap.system.services;
    const std::string steering = v.packetSteering
                                     ? "network.globals.packet_steering='" + *v.packetSteering + "'"
                                     : "network.globals.packet_steering unset";
    if (v.packetSteeringService && v.platformOverride && !v.platformOverrideOurs) {
        out.push_back(
            {Conflict::Kind::PacketSteeringForeign, true,
             "A platform packet-steering script is installed",
             "/usr/libexec/platform/packet-steering.sh replaces OpenWrt's packet steering on this "
             "board and runs at boot and on every network reload and interface event (" +
                 steering + "); it may rewrite RPS and XPS.",
             "Let persist keep it: it moves to /usr/libexec/platform/packet-steering.board.sh, "
             "coresteer's platform script runs it first and this layout after it, and unpersist "
             "puts it back (or turn packet steering off: uci set "
             "network.globals.packet_steering=0; uci commit network)."});
    } else if (v.packetSteeringService && !v.platformOverrideOurs &&
               v.steeringScript == "packet-steering.sh" && v.packetSteering.value_or("") != "1") {
        // 23.05's packet-steering.sh ends at once unless packet_steering is 1.
        out.push_back(
            {Conflict::Kind::PacketSteeringService, false, "OpenWrt packet steering service (off)",
             "/etc/init.d/packet_steering runs at boot and on every network and firewall "
             "reload and interface event (" +
                 steering +
                 "), and this firmware's packet-steering.sh (OpenWrt 23.05) changes nothing "
                 "unless packet_steering is 1.",
             "Keep it off; persist installs the supported override all the same, so that "
             "turning it on later runs the firmware's steering first and this layout after it."});
    } else if (v.packetSteeringService && !v.platformOverrideOurs) {
        out.push_back(
            {Conflict::Kind::PacketSteeringService, true, "OpenWrt packet steering service",
             "/etc/init.d/packet_steering runs at boot and on every network and firewall "
             "reload and interface event (" +
                 steering + "): " + steeringDoes(v.steeringScript),
             "Let persist install the supported override /usr/libexec/platform/"
             "packet-steering.sh: it runs the firmware's steering first and this layout after "
             "it, so the devices the layout does not name keep the firmware's steering (or turn "
             "packet steering off: uci set network.globals.packet_steering=0; uci commit "
             "network)."});
    }
    for (const auto& name : v.netHotplug) {
        if (name == kHotplugName || !touchesMasks(name))
            continue;
        const bool before = name < std::string(kHotplugName);
        const bool steeringScript = steeringHotplug(name);
        if (steeringScript && !enabledValue(v.packetSteering))
            continue; // OpenWrt's own script does nothing while packet steering is off
        Conflict c;
        c.kind =
            steeringScript ? Conflict::Kind::PacketSteeringHotplug : Conflict::Kind::BoardHotplug;
        c.blocking = !before;
        c.title = "/etc/hotplug.d/net/" + name;
        c.detail = steeringScript
                       ? "OpenWrt's packet steering sets RPS and XPS when an interface appears (" +
                             steering + ")."
                       : "The board's own script sets IRQ masks when an interface appears.";
        c.suggestion = before ? "Keep it: it runs before coresteer's " + std::string(kHotplugName) +
                                    " at every interface add, and a persisted layout is applied "
                                    "again after it at every add, whatever the interface, so "
                                    "coresteer's masks are the ones that stay."
                              : "Rename or remove it: it runs after coresteer's " +
                                    std::string(kHotplugName) + " and overwrites its masks.";
        out.push_back(std::move(c));
    }
    if (const auto& o = v.offloading; o.software) {
        const std::string what =
            o.hardware ? "Hardware flow offloading is on" : "Software flow offloading is on";
        out.push_back(
            {Conflict::Kind::FlowOffloading, false, what + " (" + o.where + ")",
             std::string("Forwarded flows of established connections bypass most of the CPU "
                         "path") +
                 (o.hardware ? " and the CPU itself (the NIC or SoC forwards them)" : "") +
                 ", and SQM (cake) with it: these masks matter less for them, a test shows less "
                 "CPU load than its traffic, and SQM does not shape them.",
             "Keep it where raw throughput counts; turn it off where SQM must shape every flow "
             "(OpenWrt: uci set firewall.@defaults[0].flow_offloading=0; uci commit firewall; "
             "/etc/init.d/firewall reload)."});
    }
    for (const auto& s : v.maskScripts) {
        if (!s.enabled)
            continue;
        const bool rcLocal = s.service.empty();
        const std::string when =
            rcLocal ? std::string("at the end of boot")
                    : "at boot" +
                          (s.start ? " (START=" + std::to_string(*s.start) + ")" : std::string());
        if (rcLocal && s.coresteerAfter) {
            out.push_back({Conflict::Kind::BootScript, false,
                           "/etc/rc.local writes masks, and coresteer's layout follows it",
                           "It runs " + when + ": " + s.whereText() +
                               "; coresteer's line at its end applies the layout again after it.",
                           "Nothing to do; unpersist takes coresteer's line out."});
            continue;
        }
        Conflict c{
            Conflict::Kind::BootScript, true, s.path + " rewrites masks " + when,
            "It runs " + when +
                ", after coresteer's hotplug script, and undoes the layout: " + s.whereText() + ".",
            rcLocal ? "Let persist apply the layout again after it (persist "
                      "--override-boot-scripts adds one line at its end, which unpersist "
                      "takes out), or remove those lines."
                    : "Let persist disable it (persist --override-boot-scripts; unpersist "
                      "enables it again), or disable it yourself: " +
                          s.path + " disable."};
        c.service = s.service;
        out.push_back(std::move(c));
    }
    const bool running = snap.system.irqbalanceRunning.value_or(false);
    const bool enabled = v.irqbalanceEnabled.value_or(false);
    if (running || enabled) {
        const std::string state = running && enabled ? "running and enabled"
                                  : running          ? "running"
                                                     : "enabled at boot";
        const auto& bans = v.irqbalance;
        if (!bans.coresteer.empty()) {
            // coresteer's persist banned its layout's IRQs: irqbalance balances the others.
            out.push_back({Conflict::Kind::Irqbalance, false,
                           "irqbalance is " + state + ", with the " +
                               std::to_string(bans.coresteer.size()) +
                               " IRQs of coresteer's layout banned",
                           "irqbalance leaves the IRQs of coresteer's layout where the layout "
                           "puts them and moves the others every 10 s.",
                           "Nothing to do; unpersist lifts the bans."});
        } else {
            const std::string how =
                snap.system.isOpenWrt() || !v.systemd
                    ? "/etc/init.d/irqbalance stop; /etc/init.d/irqbalance disable"
                    : "systemctl disable --now irqbalance";
            std::string leaves;
            const auto all = bans.all();
            for (std::size_t i = 0; i < all.size() && i < 8; ++i)
                leaves += (i ? ", " : "") + std::to_string(all[i]);
            if (all.size() > 8)
                leaves += " and " + std::to_string(all.size() - 8) + " more";
            out.push_back(
                {Conflict::Kind::Irqbalance, true, "irqbalance is " + state,
                 "irqbalance moves IRQs between cores every 10 s and undoes any layout" +
                     (leaves.empty() ? std::string(".")
                                     : " (it leaves alone only the IRQs banned in its "
                                       "configuration: " +
                                           leaves + ")."),
                 "Ban the layout's IRQs in it and let it balance the rest (persist "
                 "--irqbalance-ban), or stop and disable it (persist --disable-irqbalance, or " +
                     how + ")."});
        }
    }
    return out;
}

} // namespace coresteer

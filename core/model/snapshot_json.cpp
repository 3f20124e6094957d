// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/model/snapshot_json.h"

#include "core/base/json_text.h"
#include "core/model/conflicts.h"

namespace coresteer {

using nlohmann::json;

namespace {

json bootScriptsJson(const std::vector<Services::MaskScript>& scripts) {
    auto a = json::array();
    for (const auto& s : scripts) {
        auto writes = json::array();
        for (const auto& w : s.writes)
            writes.push_back({{"line", w.line}, {"what", w.what}});
        a.push_back({{"path", s.path},
                     {"start", s.start ? json(*s.start) : json(nullptr)},
                     {"enabled", s.enabled},
                     {"coresteer_after", s.coresteerAfter},
                     {"coresteer_disabled", s.coresteerDisabled},
                     {"writes", writes}});
    }
    return a;
}

template <typename T> json opt(const std::optional<T>& v) {
    return v ? json(*v) : json(nullptr);
}

json mask(const std::optional<CpuMask>& m) {
    if (!m)
        return nullptr;
    return json{{"hex", m->toHex()}, {"list", m->toList()}};
}

json counts(const IrqCounts& c) {
    return json(std::vector<std::uint64_t>(c.begin(), c.end()));
}

json coalescing(const std::optional<Coalescing>& c) {
    if (!c)
        return nullptr;
    return {{"adaptive_rx", opt(c->adaptiveRx)},
            {"rx_usecs", opt(c->rxUsecs)},
            {"rx_frames", opt(c->rxFrames)}};
}

json channels(const std::optional<Channels>& c) {
    if (!c)
        return nullptr;
    json j = json::object();
    for (const auto& [name, k] :
         {std::pair{"rx", &c->rx}, std::pair{"tx", &c->tx}, std::pair{"other", &c->other},
          std::pair{"combined", &c->combined}})
        if (k->max || k->current)
            j[name] = {{"max", opt(k->max)}, {"current", opt(k->current)}};
    return j;
}

json rss(const std::optional<RssTable>& t) {
    if (!t)
        return nullptr;
    const auto spread = RssSpread::of(t->table, t->rings);
    return {{"rings", t->rings},
            {"table", t->table},
            {"spread", spread ? json(spread->toString()) : json(nullptr)}};
}

json netCounters(const NetDevCounters& c) {
    using F = NetDevCounters;
    return json{{"rx_bytes", c.get(F::RxBytes)}, {"rx_packets", c.get(F::RxPackets)},
                {"rx_errors", c.get(F::RxErrs)}, {"rx_dropped", c.get(F::RxDrop)},
                {"tx_bytes", c.get(F::TxBytes)}, {"tx_packets", c.get(F::TxPackets)},
                {"tx_errors", c.get(F::TxErrs)}, {"tx_dropped", c.get(F::TxDrop)}};
}

} // namespace

json toJson(const Snapshot& snap) {
    json j;
    j["schema"] = kSnapshotSchema;
    j["origin"] = snap.origin;

    const auto& s = snap.system;
    j["system"] = {
        {"hostname", s.hostname},
        {"kernel", s.kernel},
        {"board", s.boardName},
        {"model", s.model},
        {"compatible", s.compatible},
        {"openwrt", s.isOpenWrt() ? json{{"release", s.openwrtRelease}, {"target", s.openwrtTarget}}
                                  : json(nullptr)},
        {"distribution", s.distribution},
        {"irqbalance_running", opt(s.irqbalanceRunning)},
    };
    const auto& v = s.services;
    j["services"] = {
        {"packet_steering", opt(v.packetSteering)},
        {"packet_steering_service", v.packetSteeringService},
        {"steering_script", v.steeringScript.empty() ? json(nullptr) : json(v.steeringScript)},
        {"platform_override", v.platformOverride},
        {"platform_override_ours", v.platformOverrideOurs},
        {"net_hotplug", v.netHotplug},
        {"irqbalance_enabled", opt(v.irqbalanceEnabled)},
        {"boot_scripts", bootScriptsJson(v.maskScripts)},
        {"irqbalance_banned",
         {{"owner", v.irqbalance.owner},
          {"coresteer", v.irqbalance.coresteer},
          {"cpus", v.irqbalance.bannedCpus}}},
        {"systemd", v.systemd},
        {"openrc", v.openrc ? json{{"local", v.openrcLocal},
                                   {"device_manager",
                                    v.deviceManager == Services::DeviceManager::Mdev   ? "mdev"
                                    : v.deviceManager == Services::DeviceManager::Udev ? "udev"
                                                                                       : "none"}}
                            : json(nullptr)},
        {"persisted", !v.persistedLayout.empty()},
        {"flow_offloading", v.offloading.software ? json{{"hardware", v.offloading.hardware},
                                                         {"where", v.offloading.where}}
                                                  : json(nullptr)},
    };
    j["conflicts"] = json::array();
    for (const auto& c : detectConflicts(snap))
        j["conflicts"].push_back({{"kind", toString(c.kind)},
                                  {"blocking", c.blocking},
                                  {"title", c.title},
                                  {"detail", c.detail},
                                  {"suggestion", c.suggestion}});

    const auto& t = snap.topology;
    json cpus = json::array();
    for (const auto& c : t.cpus) {
        const auto* cls = t.classOf(c.id);
        cpus.push_back({{"id", c.id},
                        {"online", c.online},
                        {"class", cls ? json(cls->name) : json(nullptr)},
                        {"max_freq_khz", opt(c.maxFreqKHz)},
                        {"capacity", opt(c.capacity)},
                        {"package", opt(c.packageId)},
                        {"core", opt(c.coreId)},
                        {"cluster", opt(c.clusterId)},
                        {"uarch", c.uarch}});
    }
    json classes = json::array();
    for (const auto& c : t.classes)
        classes.push_back({{"name", c.name}, {"rank", c.rank}, {"cpus", c.cpus.toList()}});
    json policies = json::array();
    for (const auto& p : t.policies) {
        const auto slow = p.slowBecause();
        policies.push_back({{"policy", p.id},
                            {"cpus", p.cpus.toList()},
                            {"governor", p.governor},
                            {"available_governors", p.available},
                            {"min_khz", opt(p.minKHz)},
                            {"max_khz", opt(p.maxKHz)},
                            {"cur_khz", opt(p.curKHz)},
                            {"hw_min_khz", opt(p.hwMinKHz)},
                            {"hw_max_khz", opt(p.hwMaxKHz)},
                            {"slow", slow.empty() ? json(nullptr) : json(slow)}});
    }
    j["topology"] = {{"cpus", cpus},
                     {"cpufreq", policies},
                     {"classes", classes},
                     {"class_basis", toString(t.basis)},
                     {"online", t.online.toList()},
                     {"possible", t.possible.toList()},
                     {"mask_width", t.maskWidth}};

    json ifs = json::array();
    for (const auto& n : snap.interfaces) {
        json rx = json::array(), tx = json::array();
        for (const auto& q : n.rx)
            rx.push_back({{"index", q.index},
                          {"rps_cpus", mask(q.rpsCpus)},
                          {"rps_flow_cnt", opt(q.rpsFlowCnt)}});
        for (const auto& q : n.tx)
            tx.push_back({{"index", q.index}, {"xps_cpus", mask(q.xpsCpus)}});
        const auto threads = [&](const std::vector<NapiThread>& list) {
            json out = json::array();
            for (const auto& th : list)
                out.push_back({{"pid", th.pid},
                               {"name", th.name},
                               {"device", th.device},
                               {"cpus_allowed", mask(th.cpusAllowed)}});
            return out;
        };
        json ctr = nullptr;
        for (const auto& c : snap.netdev)
            if (c.name == n.name)
                ctr = netCounters(c);
        ifs.push_back({{"name", n.name},
                       {"driver", n.driver},
                       {"bus_device", n.busDevice},
                       {"virtual", n.isVirtual()},
                       {"conduit", n.conduit},
                       {"type", opt(n.type)},
                       {"operstate", n.operstate},
                       {"mtu", opt(n.mtu)},
                       {"speed_mbps", opt(n.speedMbps)},
                       {"wireless", n.isWireless()},
                       {"ifindex", opt(n.ifindex)},
                       {"threaded_napi", opt(n.threadedNapi)},
                       {"coalescing", coalescing(n.coalescing)},
                       {"channels", channels(n.channels)},
                       {"rss", rss(n.rss)},
                       {"root_qdisc", n.rootQdisc.empty() ? json(nullptr) : json(n.rootQdisc)},
                       {"irqs", n.irqs},
                       {"rx_queues", rx},
                       {"tx_queues", tx},
                       {"wiphy", n.wiphy},
                       {"napi_threads", threads(n.napi)},
                       {"tx_workers", threads(n.txWorkers)},
                       {"irq_threads", threads(n.irqThreads)},
                       {"counters", ctr}});
    }
    j["interfaces"] = std::move(ifs);

    json irqs = json::array();
    for (const auto& i : snap.irqs) {
        const auto* row = snap.interrupts.findIrq(i.irq);
        if (!row)
            continue;
        irqs.push_back(
            {{"irq", i.irq},
             {"chip", row->chip},
             {"hwirq", opt(row->hwirq)},
             {"trigger", row->trigger},
             {"actions", row->actions},
             {"interfaces", i.interfaces},
             {"attribution", i.interfaces.empty() ? json(nullptr) : json(toString(i.attribution))},
             {"role", toString(i.role)},
             {"queue", opt(i.queue)},
             {"smp_affinity", mask(i.smpAffinity)},
             {"effective_affinity", mask(i.effectiveAffinity)},
             {"affinity_hint", mask(i.affinityHint)},
             {"counts", counts(row->counts)},
             {"total", row->total()}});
    }
    j["irqs"] = std::move(irqs);
    j["interrupt_columns"] = snap.interrupts.cpus;

    json other = json::object();
    for (const auto& row : snap.interrupts.rows)
        if (!row.irq)
            other[row.label] = {{"counts", counts(row.counts)}, {"description", row.description}};
    j["arch_interrupts"] = std::move(other);

    json soft = json::object();
    for (const auto& row : snap.softirqs.rows)
        soft[row.name] = row.counts;
    j["softirqs"] = {{"columns", snap.softirqs.cpus}, {"rows", soft}};

    json stat = json::array();
    for (const auto& c : snap.stat.cpus)
        stat.push_back({{"cpu", c.cpu}, {"ticks", c.ticks}, {"fields", c.fields}});
    j["cpu_times"] = std::move(stat);
    j["rps_sock_flow_entries"] = opt(snap.rpsSockFlowEntries);

    json diags = json::array();
    for (const auto& d : snap.diagnostics.entries())
        diags.push_back({{"severity", d.severity == Severity::Error ? "error" : "warning"},
                         {"file", d.file},
                         {"line", d.line},
                         {"message", d.message}});
    j["diagnostics"] = std::move(diags);
    j["diagnostics_suppressed"] = snap.diagnostics.suppressed();
    return j;
}

std::string toJsonText(const Snapshot& snap, int indent) {
    return jsonText(toJson(snap), indent);
}

} // namespace coresteer

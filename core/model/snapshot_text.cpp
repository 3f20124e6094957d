// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/model/snapshot_text.h"

#include "core/model/conflicts.h"

#include <algorithm>
#include <sstream>

namespace coresteer {

namespace {

std::string maskText(const std::optional<CpuMask>& m) {
    if (!m)
        return "-";
    const auto list = m->toList();
    return m->toHex() + " (" + (list.empty() ? "none" : list) + ")";
}

std::string pad(std::string s, std::size_t n) {
    if (s.size() < n)
        s.append(n - s.size(), ' ');
    return s;
}

} // namespace

std::string toText(const Snapshot& snap) {
    std::ostringstream o;
    const auto& s = snap.system;
    o << "coresteer snapshot of " << snap.origin << "\n\nSystem\n";
    o << "  hostname      " << (s.hostname.empty() ? "?" : s.hostname) << "\n";
    o << "  kernel        " << (s.kernel.empty() ? "?" : s.kernel) << "\n";
    if (!s.boardName.empty() || !s.model.empty())
        o << "  board         " << s.boardName << (s.model.empty() ? "" : "  (" + s.model + ")")
          << "\n";
    if (s.isOpenWrt())
        o << "  OpenWrt       " << s.openwrtRelease << "  " << s.openwrtTarget << "\n";
    else if (!s.distribution.empty())
        o << "  system        " << s.distribution << "\n";
    o << "  irqbalance    "
      << (!s.irqbalanceRunning ? "unknown"
          : *s.irqbalanceRunning
              ? (s.services.irqbalance.coresteer.empty() ? "RUNNING (it will undo manual masks)"
                                                         : "running, the layout's IRQs banned")
              : "not running")
      << "\n";
    if (!s.services.persistedLayout.empty())
        o << "  persisted     a coresteer layout (/etc/coresteer/layout.json)\n";
    const auto conflicts = detectConflicts(snap);
    if (!conflicts.empty())
        o << "\nOther things that set masks\n";
    for (const auto& c : conflicts)
        o << "  " << (c.blocking ? "CONFLICT " : "note     ") << c.title << ": " << c.detail
          << "\n           -> " << c.suggestion << "\n";

    const auto& t = snap.topology;
    o << "\nCPUs: " << t.online.count() << " online (" << t.online.toList() << "), classes by "
      << toString(t.basis) << "\n";
    for (const auto& c : t.classes)
        o << "  " << pad(c.name, 8) << " " << c.cpus.toList() << "\n";
    for (const auto& c : t.cpus) {
        const auto* cls = t.classOf(c.id);
        o << "  cpu" << pad(std::to_string(c.id), 4) << pad(cls ? cls->name : "offline", 9)
          << pad(c.uarch, 14);
        if (c.maxFreqKHz)
            o << pad(std::to_string(*c.maxFreqKHz / 1000) + " MHz", 10);
        if (c.capacity)
            o << "capacity " << pad(std::to_string(*c.capacity), 6);
        if (c.clusterId)
            o << "cluster " << *c.clusterId;
        o << "\n";
    }

    for (const auto& p : t.policies) {
        auto mhz = [](const std::optional<std::uint32_t>& k) {
            return k ? std::to_string(*k / 1000) : std::string("?");
        };
        o << "  policy" << pad(std::to_string(p.id), 4) << pad(p.cpus.toList(), 10)
          << pad(p.governor.empty() ? "?" : p.governor, 13) << mhz(p.minKHz) << "-" << mhz(p.maxKHz)
          << " MHz";
        if (p.curKHz)
            o << ", now " << mhz(p.curKHz);
        if (const auto slow = p.slowBecause(); !slow.empty())
            o << "  SLOW: " << slow;
        o << "\n";
    }

    o << "\nInterfaces (IRQ counts per CPU column: " <<
        [&] {
            std::string cols;
            for (int c : snap.interrupts.cpus)
                cols += (cols.empty() ? "" : " ") + std::to_string(c);
            return cols;
        }()
      << ")\n";
    for (const auto& n : snap.interfaces) {
        if (n.isVirtual() && n.irqs.empty() && n.rx.size() <= 1 && n.conduit.empty()) {
            o << "  " << n.name << "  (virtual)\n";
            continue;
        }
        o << "  " << n.name;
        if (!n.driver.empty())
            o << "  driver " << n.driver;
        if (!n.busDevice.empty())
            o << "  device " << n.busDevice;
        if (!n.conduit.empty())
            o << "  via " << n.conduit;
        if (!n.operstate.empty())
            o << "  " << n.operstate;
        if (n.threadedNapi)
            o << (*n.threadedNapi ? "  threaded NAPI" : "");
        if (!n.wiphy.empty())
            o << "  radio " << n.wiphy;
        if (const auto& c = n.coalescing) {
            if (c->adaptiveRx.value_or(false))
                o << "  adaptive RX coalescing";
            if (c->rxUsecs)
                o << "  rx-usecs " << *c->rxUsecs;
            if (c->rxFrames)
                o << "  rx-frames " << *c->rxFrames;
        }
        if (const auto& c = n.channels) {
            for (const auto& [name, k] : {std::pair{"combined", &c->combined},
                                          std::pair{"rx", &c->rx}, std::pair{"tx", &c->tx}})
                if (k->current)
                    o << "  " << name << " " << *k->current
                      << (k->max ? "/" + std::to_string(*k->max) : std::string());
        }
        if (const auto& rss = n.rss; rss && !rss->table.empty()) {
            const auto spread = RssSpread::of(rss->table, rss->rings);
            o << "  RSS " << (spread ? spread->toString() : std::string("custom")) << " over "
              << rss->table.size() << " entries";
        }
        if (!n.rootQdisc.empty())
            o << "  qdisc " << n.rootQdisc;
        o << "\n";
        for (auto irqNo : n.irqs) {
            const auto* i = snap.irq(irqNo);
            const auto* row = snap.interrupts.findIrq(irqNo);
            if (!i || !row)
                continue;
            std::string actions;
            for (const auto& a : row->actions)
                actions += (actions.empty() ? "" : ", ") + a;
            o << "    IRQ " << pad(std::to_string(irqNo), 5) << pad(actions, 18) << " "
              << pad(row->chip + (row->hwirq ? " " + std::to_string(*row->hwirq) : ""), 22)
              << " smp_affinity " << pad(maskText(i->smpAffinity), 16);
            if (i->effectiveAffinity)
                o << " effective " << maskText(i->effectiveAffinity);
            if (i->interfaces.size() > 1)
                o << "  shared";
            o << "\n      counts";
            for (auto c : row->counts)
                o << ' ' << c;
            o << "\n";
        }
        for (const auto& q : n.rx)
            o << "    rx-" << pad(std::to_string(q.index), 4) << " rps_cpus "
              << pad(maskText(q.rpsCpus), 18) << " rps_flow_cnt "
              << (q.rpsFlowCnt ? std::to_string(*q.rpsFlowCnt) : "-") << "\n";
        for (const auto& q : n.tx)
            o << "    tx-" << pad(std::to_string(q.index), 4) << " xps_cpus " << maskText(q.xpsCpus)
              << "\n";
        for (const auto* threads : {&n.napi, &n.txWorkers})
            for (const auto& th : *threads)
                o << "    " << pad(th.name, 16) << " pid " << pad(std::to_string(th.pid), 7)
                  << " cpus_allowed " << maskText(th.cpusAllowed) << "\n";
        for (const auto& th : n.irqThreads)
            o << "    " << pad(th.name, 16) << " pid " << pad(std::to_string(th.pid), 7)
              << " cpus_allowed " << maskText(th.cpusAllowed) << "  (follows IRQ " << th.device
              << ")\n";
    }
    if (snap.rpsSockFlowEntries)
        o << "  rps_sock_flow_entries " << *snap.rpsSockFlowEntries << "\n";

    if (!snap.diagnostics.empty()) {
        o << "\nWarnings\n";
        for (const auto& d : snap.diagnostics.entries())
            o << "  " << d.toString() << "\n";
        if (snap.diagnostics.suppressed())
            o << "  (" << snap.diagnostics.suppressed() << " more not shown)\n";
    }
    return o.str();
}

} // namespace coresteer

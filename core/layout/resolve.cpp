// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/layout/resolve.h"

#include "core/base/text.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace coresteer::layout {

namespace {

struct IrqOrder {
    std::uint64_t hwirq;
    std::uint32_t irq;
    bool operator<(const IrqOrder& o) const {
        return hwirq != o.hwirq ? hwirq < o.hwirq : irq < o.irq;
    }
};

// action name -> its IRQs in hwirq order.
std::map<std::string, std::vector<std::uint32_t>> irqsByAction(const Snapshot& snap) {
    std::map<std::string, std::vector<IrqOrder>> m;
    for (const auto& row : snap.interrupts.rows)
        if (row.irq && !row.actions.empty())
            m[row.actions.front()].push_back({row.hwirq.value_or(0), *row.irq});
    std::map<std::string, std::vector<std::uint32_t>> out;
    for (auto& [action, v] : m) {
        std::sort(v.begin(), v.end());
        for (const auto& o : v)
            out[action].push_back(o.irq);
    }
    return out;
}

std::string irqTarget(const Snapshot& snap, std::uint32_t irq) {
    std::string s = "IRQ " + std::to_string(irq);
    if (const auto* info = snap.irq(irq); info && !info->interfaces.empty()) {
        s += " (";
        for (std::size_t i = 0; i < info->interfaces.size(); ++i)
            s += (i ? ", " : "") + info->interfaces[i];
        s += ")";
    }
    return s;
}

// Why `mask` cannot be used on this router, or empty.
std::string maskProblem(const CpuMask& mask, const Topology& topo, bool mayBeEmpty) {
    if (mask.none())
        return mayBeEmpty ? "" : "needs at least one CPU";
    if (mask.highest() >= topo.maskWidth)
        return "CPU " + std::to_string(mask.highest()) + " does not exist here (" +
               std::to_string(topo.maskWidth) + " CPUs)";
    const auto offline = mask.minus(topo.online);
    if (!offline.none())
        return "CPU " + offline.toList() + " is offline";
    return "";
}

// Queue counts after a layout's new channel counts, per interface whose count changes:
// {rx: {queues, "2 combined channels"}, tx: {...}}.
using QueueCounts = std::map<std::string, std::pair<std::pair<std::uint32_t, std::string>,
                                                    std::pair<std::uint32_t, std::string>>>;

std::string notYet(const QueueCounts& after, const std::string& iface, int queue, bool rx) {
    const auto it = after.find(iface);
    if (it != after.end()) {
        const auto& [count, channels] = rx ? it->second.first : it->second.second;
        if (queue >= 0 && static_cast<std::uint32_t>(queue) < count)
            return "this queue comes with " + channels +
                   ": apply again after this one to set it (a persisted layout sets it at boot)";
    }
    return "no such queue here";
}

std::string driverOf(const NetInterface& nif) {
    return nif.driver.empty() ? std::string() : " (" + nif.driver + ")";
}

// Channel counts and RSS spreads (ethtool -L, -X): their writes first, a lower count after the
// spread that fits it and a higher one before the spread that uses it; and the queue counts they
// leave, for the queue and IRQ targets that follow.
QueueCounts queueCounts(const Layout& layout, const Snapshot& snap, Resolution& r) {
    QueueCounts out;
    for (const auto& t : layout.interfaces) {
        if ((!t.channels.any() && !t.rss) || !validInterfaceName(t.interface))
            continue; // the interface loop below names an invalid one
        const auto* nif = snap.interface(t.interface);
        if (!nif)
            continue;
        std::vector<Write> channelWrites;
        Channels now = nif->channels.value_or(Channels{});
        Channels next = now;
        const auto kinds = {std::tuple{"combined", &ChannelCounts::combined, &Channels::combined},
                            std::tuple{"rx", &ChannelCounts::rx, &Channels::rx},
                            std::tuple{"tx", &ChannelCounts::tx, &Channels::tx}};
        for (const auto& [name, want, has] : kinds) {
            if (!(t.channels.*want))
                continue;
            const auto value = *(t.channels.*want);
            const std::string target = t.interface + " " + name + " channels";
            const auto& count = now.*has;
            if (!nif->channels)
                r.skipped.push_back({target, "its channels were not read (no ethtool here)"});
            else if (!count.max)
                r.skipped.push_back({target, "its driver" + driverOf(*nif) + " has no " + name +
                                                 " channels (ethtool -l)"});
            else if (value > *count.max)
                r.skipped.push_back({target, "at most " + std::to_string(*count.max) +
                                                 " (ethtool -l's pre-set maximum)"});
            else {
                channelWrites.push_back(
                    {Write::Kind::Channels, target, "ethtool:" + t.interface + ":channels-" + name,
                     std::to_string(value), count.current ? std::to_string(*count.current) : "",
                     t.why});
                if (count.current != value)
                    (next.*has).current = value;
            }
        }
        const bool changed = !(next == now);
        const auto ringsNow = nif->rss ? nif->rss->rings : now.rxRings().value_or(0);
        const auto ringsAfter = changed ? next.rxRings().value_or(ringsNow) : ringsNow;
        std::optional<Write> rssWrite;
        if (t.rss) {
            const std::string target = t.interface + " RSS";
            const auto& table = nif->rss;
            const auto top =
                t.rss->equal ? t.rss->equal : static_cast<std::uint32_t>(t.rss->weights.size());
            if (!table)
                r.skipped.push_back({target, "its indirection table was not read (no ethtool "
                                             "here)"});
            else if (table->table.empty())
                r.skipped.push_back({target, "its driver" + driverOf(*nif) +
                                                 " has no RSS indirection table (ethtool -x)"});
            else if (top > ringsAfter)
                r.skipped.push_back({target, t.rss->toString() + " needs " + std::to_string(top) +
                                                 " receive rings; it has " +
                                                 std::to_string(ringsAfter)});
            else if (const auto want = t.rss->tableFor(table->table.size(), ringsAfter);
                     want.empty())
                r.skipped.push_back({target, "weights that sum above its " +
                                                 std::to_string(table->table.size()) +
                                                 " table entries, which ethtool refuses"});
            else if (const auto cur = RssSpread::of(table->table, table->rings); !cur)
                r.skipped.push_back({target, "its indirection table now is no spread that ethtool "
                                             "can set (default, equal N or weights), so a revert "
                                             "could not put it back"});
            else
                rssWrite = Write{Write::Kind::Rss, target, "ethtool:" + t.interface + ":rss",
                                 RssSpread::of(want, ringsAfter).value_or(*t.rss).toString(),
                                 // After a higher count, the spread is the driver's to say.
                                 changed && ringsAfter > ringsNow ? "" : cur->toString(), t.why};
        }
        const bool fewer = changed && ringsAfter < ringsNow;
        if (rssWrite && fewer)
            r.writes.push_back(*rssWrite);
        r.writes.insert(r.writes.end(), channelWrites.begin(), channelWrites.end());
        if (rssWrite && !fewer)
            r.writes.push_back(*rssWrite);
        if (changed) {
            const auto describe = [](const ChannelCounts& c, const Channels& n) {
                std::string s;
                for (const auto& [name, field, count] :
                     {std::tuple{"combined", c.combined, n.combined.current},
                      std::tuple{"rx", c.rx, n.rx.current}, std::tuple{"tx", c.tx, n.tx.current}})
                    if (field)
                        s += (s.empty() ? "" : ", ") + std::to_string(*count) + " " + name;
                return s + " channels";
            };
            const auto what = describe(t.channels, next);
            out[t.interface] = {
                {next.combined.current.value_or(0) + next.rx.current.value_or(0), what},
                {next.combined.current.value_or(0) + next.tx.current.value_or(0), what}};
        }
    }
    return out;
}

} // namespace

bool validInterfaceName(std::string_view n) {
    if (n.empty() || n.size() > 15 || n == "." || n == "..")
        return false;
    for (unsigned char c : n)
        if (c == '/' || c == ':' || c <= ' ' || c == 0x7f)
            return false;
    return true;
}

bool Write::changes() const {
    return current.empty() || !same(current, value);
}

bool Write::same(const std::string& a, const std::string& b) const {
    if (isNumber())
        return text::parseU64(text::trim(a)) == text::parseU64(text::trim(b));
    if (kind == Kind::Governor || kind == Kind::Rss)
        return text::trim(a) == text::trim(b);
    const auto ma = CpuMask::fromHex(a), mb = CpuMask::fromHex(b);
    return ma && mb && *ma == *mb;
}

std::size_t Resolution::changeCount() const {
    return static_cast<std::size_t>(
        std::count_if(writes.begin(), writes.end(), [](const Write& w) { return w.changes(); }));
}

IrqNames::IrqNames(const Snapshot& snap) : m_byAction(irqsByAction(snap)) {
    for (const auto& [action, irqs] : m_byAction)
        for (std::size_t i = 0; i < irqs.size(); ++i)
            m_byIrq.emplace(irqs[i], IrqSelector{action, static_cast<int>(i)});
}

std::optional<std::uint32_t> IrqNames::find(const IrqSelector& sel) const {
    const auto it = m_byAction.find(sel.action);
    if (it == m_byAction.end() || sel.index < 0 ||
        static_cast<std::size_t>(sel.index) >= it->second.size())
        return std::nullopt;
    return it->second[static_cast<std::size_t>(sel.index)];
}

std::optional<IrqSelector> IrqNames::selectorOf(std::uint32_t irq) const {
    const auto it = m_byIrq.find(irq);
    if (it == m_byIrq.end())
        return std::nullopt;
    return it->second;
}

std::optional<std::uint32_t> findIrq(const Snapshot& snap, const IrqSelector& sel) {
    return IrqNames(snap).find(sel);
}

std::optional<IrqSelector> selectorOf(const Snapshot& snap, std::uint32_t irq) {
    return IrqNames(snap).selectorOf(irq);
}

Resolution resolve(const Layout& layout, const Snapshot& snap) {
    return resolve(layout, snap, IrqNames(snap));
}

Resolution resolve(const Layout& layout, const Snapshot& snap, const IrqNames& names) {
    Resolution r;
    const auto& topo = snap.topology;
    const int width = std::max(topo.maskWidth, 1);
    const auto after = queueCounts(layout, snap, r);
    // A queue or an IRQ that a new channel count takes away, or that it brings.
    const auto changedQueue = [&](const std::string& iface, int queue, bool rx) -> std::string {
        const auto it = after.find(iface);
        if (it == after.end())
            return "";
        const auto& [count, channels] = rx ? it->second.first : it->second.second;
        if (queue < 0 || static_cast<std::uint32_t>(queue) < count)
            return "";
        return "goes away with " + channels + " (ethtool -L)";
    };
    for (const auto& t : layout.irqs) {
        const auto irq = names.find(t.irq);
        if (!irq) {
            r.skipped.push_back({"IRQ " + t.irq.display(), "no IRQ with this name here"});
            continue;
        }
        const auto target = irqTarget(snap, *irq);
        if (const auto* info = snap.irq(*irq); info && info->queue && info->interfaces.size() == 1)
            if (const auto gone = changedQueue(info->interfaces.front(), *info->queue, true);
                !gone.empty()) {
                r.skipped.push_back({target, "its queue " + gone});
                continue;
            }
        if (const auto p = maskProblem(t.cpus, topo, false); !p.empty()) {
            r.skipped.push_back({target, p});
            continue;
        }
        const auto* info = snap.irq(*irq);
        r.writes.push_back({Write::Kind::IrqAffinity, target,
                            "proc/irq/" + std::to_string(*irq) + "/smp_affinity",
                            t.cpus.toHex(width),
                            info && info->smpAffinity ? info->smpAffinity->toHex() : "", t.why});
    }
    for (const auto& t : layout.rx) {
        const std::string target = t.interface + " rx-" + std::to_string(t.queue);
        if (!validInterfaceName(t.interface)) {
            r.skipped.push_back({text::printable(target), "not a valid kernel interface name"});
            continue;
        }
        const auto* nif = snap.interface(t.interface);
        const RxQueue* q = nullptr;
        if (nif)
            for (const auto& cand : nif->rx)
                if (cand.index == t.queue)
                    q = &cand;
        if (const auto gone = changedQueue(t.interface, t.queue, true); !gone.empty()) {
            r.skipped.push_back({target, "this queue " + gone});
            continue;
        }
        if (!q) {
            r.skipped.push_back({target, nif ? notYet(after, t.interface, t.queue, true)
                                             : "no such interface here"});
            continue;
        }
        const std::string dir =
            "sys/class/net/" + t.interface + "/queues/rx-" + std::to_string(t.queue) + "/";
        if (t.rpsCpus) {
            if (const auto p = maskProblem(*t.rpsCpus, topo, true); !p.empty())
                r.skipped.push_back({target + " rps_cpus", p});
            else
                r.writes.push_back({Write::Kind::RpsCpus, target + " rps_cpus", dir + "rps_cpus",
                                    t.rpsCpus->toHex(width), q->rpsCpus ? q->rpsCpus->toHex() : "",
                                    t.why});
        }
        if (t.rpsFlowCnt)
            r.writes.push_back({Write::Kind::RpsFlowCnt, target + " rps_flow_cnt",
                                dir + "rps_flow_cnt", std::to_string(*t.rpsFlowCnt),
                                q->rpsFlowCnt ? std::to_string(*q->rpsFlowCnt) : "", t.why});
    }
    for (const auto& t : layout.tx) {
        const std::string target = t.interface + " tx-" + std::to_string(t.queue) + " xps_cpus";
        if (!validInterfaceName(t.interface)) {
            r.skipped.push_back({text::printable(target), "not a valid kernel interface name"});
            continue;
        }
        const auto* nif = snap.interface(t.interface);
        const TxQueue* q = nullptr;
        if (nif)
            for (const auto& cand : nif->tx)
                if (cand.index == t.queue)
                    q = &cand;
        if (const auto gone = changedQueue(t.interface, t.queue, false); !gone.empty()) {
            r.skipped.push_back({target, "this queue " + gone});
            continue;
        }
        if (!q) {
            r.skipped.push_back({target, nif ? notYet(after, t.interface, t.queue, false)
                                             : "no such interface here"});
            continue;
        }
        if (!q->xpsCpus) {
            r.skipped.push_back({target, "this queue has no xps_cpus (a single-queue device)"});
            continue;
        }
        if (const auto p = maskProblem(t.xpsCpus, topo, true); !p.empty()) {
            r.skipped.push_back({target, p});
            continue;
        }
        r.writes.push_back(
            {Write::Kind::XpsCpus, target,
             "sys/class/net/" + t.interface + "/queues/tx-" + std::to_string(t.queue) + "/xps_cpus",
             t.xpsCpus.toHex(width), q->xpsCpus->toHex(), t.why});
    }
    std::map<int, CpuMask> pinned; // thread PIDs written, and where
    for (const auto& t : layout.interfaces) {
        if (!validInterfaceName(t.interface)) {
            r.skipped.push_back(
                {text::printable(t.interface), "not a valid kernel interface name"});
            continue;
        }
        const auto* nif = snap.interface(t.interface);
        if (!nif) {
            r.skipped.push_back({t.interface, "no such interface here"});
            continue;
        }
        // Threads that serve several interfaces (a driver's or a radio's) are placed by the
        // first target that names them.
        const auto pin = [&](const std::vector<NapiThread>& threads, const CpuMask& cpus,
                             const std::string& what, const std::string& none) {
            if (threads.empty()) {
                r.skipped.push_back({t.interface + " " + what, none});
            } else if (const auto p = maskProblem(cpus, topo, false); !p.empty()) {
                r.skipped.push_back({t.interface + " " + what, p});
            } else {
                for (const auto& th : threads) {
                    const auto [earlier, first] = pinned.emplace(th.pid, cpus);
                    if (first)
                        r.writes.push_back({Write::Kind::NapiAffinity, t.interface + " " + th.name,
                                            "napi:" + std::to_string(th.pid), cpus.toHex(width),
                                            th.cpusAllowed ? th.cpusAllowed->toHex() : "", t.why});
                    else if (!(earlier->second == cpus))
                        r.skipped.push_back({t.interface + " " + th.name,
                                             "an earlier interface of this layout places it, on "
                                             "CPU " +
                                                 earlier->second.toList()});
                }
            }
        };
        if (t.threaded) {
            if (!nif->threadedNapi)
                r.skipped.push_back({t.interface + " threaded NAPI",
                                     "this kernel has no sys/class/net/" + t.interface +
                                         "/threaded (Linux 5.12 on, and not every device)"});
            else
                r.writes.push_back({Write::Kind::Threaded, t.interface + " threaded NAPI",
                                    "sys/class/net/" + t.interface + "/threaded",
                                    *t.threaded ? "1" : "0", *nif->threadedNapi ? "1" : "0",
                                    t.why});
        }
        // Switched on by this layout, the threads do not exist yet: the persisted script pins
        // them once they do, and an apply after this one does too.
        if (t.napiCpus && nif->napi.empty() && t.threaded.value_or(false) &&
            !nif->threadedNapi.value_or(true))
            r.skipped.push_back({t.interface + " NAPI threads",
                                 "threaded NAPI is switched on by this layout: its threads do not "
                                 "exist yet (apply again to place them; a persisted layout places "
                                 "them at boot)"});
        else if (t.napiCpus)
            pin(nif->napi, *t.napiCpus, "NAPI threads",
                "no napi/" + t.interface + "-* threads here (threaded NAPI is off or unknown)");
        if (t.txWorkerCpus)
            pin(nif->txWorkers, *t.txWorkerCpus, "TX worker",
                "no mt76-tx thread of its radio here" +
                    (nif->wiphy.empty() ? std::string(" (not a Wi-Fi interface of a radio)")
                                        : " (radio " + nif->wiphy + ")"));
        // Coalescing, where the snapshot read `ethtool -c`: not a parameter its driver lacks.
        auto coalesce = [&](Write::Kind kind, const char* param, std::optional<std::uint32_t> value,
                            std::optional<std::uint32_t> Coalescing::*field) {
            if (!value)
                return;
            const auto& c = nif->coalescing;
            if (c && !((*c).*field))
                r.skipped.push_back(
                    {t.interface + " " + param,
                     "its driver" +
                         (nif->driver.empty() ? std::string() : " (" + nif->driver + ")") +
                         " takes no " + param + " (ethtool -c: n/a)"});
            else
                r.writes.push_back({kind, t.interface + " " + param,
                                    "ethtool:" + t.interface + ":" + param, std::to_string(*value),
                                    c ? std::to_string(*((*c).*field)) : "", t.why});
        };
        coalesce(Write::Kind::RxUsecs, "rx-usecs", t.rxUsecs, &Coalescing::rxUsecs);
        coalesce(Write::Kind::RxFrames, "rx-frames", t.rxFrames, &Coalescing::rxFrames);
    }
    for (const auto& t : layout.governors) {
        const std::string name = "cpufreq policy" + std::to_string(t.policy);
        const auto& policies = snap.topology.policies;
        const auto p = std::find_if(policies.begin(), policies.end(),
                                    [&](const CpufreqPolicy& c) { return c.id == t.policy; });
        if (!validGovernorName(t.governor)) {
            r.skipped.push_back(
                {name, "'" + text::printable(t.governor, 40) + "' is not a governor name"});
        } else if (p == policies.end()) {
            r.skipped.push_back({name, "no such cpufreq policy here"});
        } else if (std::find(p->available.begin(), p->available.end(), t.governor) ==
                   p->available.end()) {
            std::string has;
            for (const auto& g : p->available)
                has += (has.empty() ? "" : " ") + g;
            r.skipped.push_back({name, "this kernel has no " + t.governor +
                                           " governor for it (it has: " +
                                           (has.empty() ? std::string("none listed") : has) + ")"});
        } else {
            r.writes.push_back({Write::Kind::Governor, name + " governor",
                                "sys/devices/system/cpu/cpufreq/policy" + std::to_string(t.policy) +
                                    "/scaling_governor",
                                t.governor, p->governor, t.why});
        }
    }
    if (layout.rpsSockFlowEntries)
        r.writes.push_back(
            {Write::Kind::RpsSockFlowEntries, "rps_sock_flow_entries",
             "proc/sys/net/core/rps_sock_flow_entries", std::to_string(*layout.rpsSockFlowEntries),
             snap.rpsSockFlowEntries ? std::to_string(*snap.rpsSockFlowEntries) : "", ""});
    return r;
}

Layout currentLayout(const Snapshot& snap, const Layout& layout) {
    Layout cur;
    const IrqNames names(snap);
    for (const auto& t : layout.irqs)
        if (const auto irq = names.find(t.irq))
            if (const auto* info = snap.irq(*irq); info && info->smpAffinity)
                cur.irqs.push_back({t.irq, *info->smpAffinity, "as it was"});
    for (const auto& t : layout.rx)
        if (const auto* nif = snap.interface(t.interface))
            for (const auto& q : nif->rx)
                if (q.index == t.queue)
                    cur.rx.push_back({t.interface, t.queue, t.rpsCpus ? q.rpsCpus : std::nullopt,
                                      t.rpsFlowCnt ? q.rpsFlowCnt : std::nullopt, "as it was"});
    for (const auto& t : layout.tx)
        if (const auto* nif = snap.interface(t.interface))
            for (const auto& q : nif->tx)
                if (q.index == t.queue && q.xpsCpus)
                    cur.tx.push_back({t.interface, t.queue, *q.xpsCpus, "as it was"});
    for (const auto& t : layout.interfaces) {
        const auto* nif = snap.interface(t.interface);
        if (!nif)
            continue;
        InterfaceTarget c;
        c.interface = t.interface;
        c.napiCpus = t.napiCpus ? nif->napiMask() : std::nullopt;
        c.txWorkerCpus = t.txWorkerCpus ? nif->txWorkerMask() : std::nullopt;
        c.threaded = t.threaded ? nif->threadedNapi : std::nullopt;
        if (nif->channels) {
            c.channels.combined =
                t.channels.combined ? nif->channels->combined.current : std::nullopt;
            c.channels.rx = t.channels.rx ? nif->channels->rx.current : std::nullopt;
            c.channels.tx = t.channels.tx ? nif->channels->tx.current : std::nullopt;
        }
        if (t.rss && nif->rss)
            c.rss = RssSpread::of(nif->rss->table, nif->rss->rings);
        c.why = "as it was";
        if (c.napiCpus || c.txWorkerCpus || c.threaded || c.channels.any() || c.rss)
            cur.interfaces.push_back(std::move(c));
    }
    for (const auto& t : layout.governors)
        for (const auto& p : snap.topology.policies)
            if (p.id == t.policy && !p.governor.empty())
                cur.governors.push_back({p.id, p.governor, "as it was"});
    if (layout.rpsSockFlowEntries && snap.rpsSockFlowEntries)
        cur.rpsSockFlowEntries = static_cast<std::uint32_t>(*snap.rpsSockFlowEntries);
    return cur;
}

Layout currentLayout(const Snapshot& snap) {
    Layout all;
    const IrqNames names(snap);
    for (const auto& info : snap.irqs)
        if (!info.interfaces.empty() && info.smpAffinity)
            if (const auto sel = names.selectorOf(info.irq))
                all.irqs.push_back({*sel, *info.smpAffinity, "as found"});
    for (const auto& nif : snap.interfaces) {
        if (nif.isVirtual() || !validInterfaceName(nif.name))
            continue;
        for (const auto& q : nif.rx)
            if (q.rpsCpus)
                all.rx.push_back({nif.name, q.index, q.rpsCpus, q.rpsFlowCnt, "as found"});
        for (const auto& q : nif.tx)
            if (q.xpsCpus)
                all.tx.push_back({nif.name, q.index, *q.xpsCpus, "as found"});
        InterfaceTarget c;
        c.interface = nif.name;
        c.napiCpus = nif.napiMask();
        c.txWorkerCpus = nif.txWorkerMask();
        // A multi-queue NIC's queue pairs and RSS spread, where ethtool showed them.
        if (nif.channels && nif.channels->combined.max > 1u)
            c.channels.combined = nif.channels->combined.current;
        if (nif.rss && !nif.rss->table.empty())
            c.rss = RssSpread::of(nif.rss->table, nif.rss->rings);
        c.why = "as found";
        if (c.napiCpus || c.txWorkerCpus || c.channels.any() || c.rss)
            all.interfaces.push_back(std::move(c));
    }
    if (snap.rpsSockFlowEntries)
        all.rpsSockFlowEntries = static_cast<std::uint32_t>(*snap.rpsSockFlowEntries);
    return all;
}

} // namespace coresteer::layout

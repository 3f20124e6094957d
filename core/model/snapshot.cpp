// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/model/snapshot.h"

#include "core/collect/bundle.h"
#include "core/model/snapshot_detail.h"

namespace coresteer {

const char* toString(Attribution a) {
    switch (a) {
    case Attribution::MsiIrqs:
        return "msi_irqs";
    case Attribution::ActionName:
        return "action name";
    case Attribution::BusDevice:
        return "bus device";
    case Attribution::DriverName:
        return "driver name";
    }
    return "?";
}

const char* toString(IrqRole r) {
    switch (r) {
    case IrqRole::RxTx:
        return "rxtx";
    case IrqRole::Rx:
        return "rx";
    case IrqRole::Tx:
        return "tx";
    case IrqRole::Control:
        return "control";
    case IrqRole::Unknown:
        break;
    }
    return "";
}

bool NetInterface::isWireless() const {
    static const char* const drivers[] = {
        "ath9k",       "ath10k_pci", "ath10k_ahb", "ath11k",  "ath11k_pci",   "ath12k_pci",
        "mt7603e",     "mt76x2e",    "mt7615e",    "mt7915e", "mt7921e",      "mt7996e",
        "mt798x-wmac", "brcmfmac",   "b43",        "mwlwifi", "mwifiex_pcie", "iwlwifi",
        "rtw88_pci",   "rtw89_pci",  "rt2800pci"};
    for (const char* d : drivers)
        if (driver == d)
            return true;
    if (name.rfind("wlan", 0) == 0)
        return true;
    // OpenWrt names Wi-Fi netdevs phyN-apM, phyN-staM, phyN-meshM.
    if (name.rfind("phy", 0) == 0) {
        const auto dash = name.find('-');
        return dash != std::string::npos && dash > 3;
    }
    return false;
}

const IrqInfo* Snapshot::irq(std::uint32_t n) const {
    if (m_indexed && m_indexedIrqs == irqs.size()) {
        const auto it = m_irqIndex.find(n);
        if (it == m_irqIndex.end())
            return nullptr;
        if (irqs[it->second].irq == n)
            return &irqs[it->second];
    }
    for (const auto& i : irqs)
        if (i.irq == n)
            return &i;
    return nullptr;
}

void Snapshot::reindex() {
    // The first of a number or name wins, as the searches find it.
    m_irqIndex.clear();
    m_irqIndex.reserve(irqs.size());
    for (std::size_t i = 0; i < irqs.size(); ++i)
        m_irqIndex.emplace(irqs[i].irq, i);
    m_interfaceIndex.clear();
    for (std::size_t i = 0; i < interfaces.size(); ++i)
        m_interfaceIndex.emplace(interfaces[i].name, i);
    m_indexedIrqs = irqs.size();
    m_indexedInterfaces = interfaces.size();
    m_indexed = true;
}

std::optional<CpuMask> commonMask(const std::vector<NapiThread>& threads) {
    std::optional<CpuMask> m;
    for (const auto& t : threads) {
        if (!t.cpusAllowed || (m && !(*m == *t.cpusAllowed)))
            return std::nullopt;
        m = t.cpusAllowed;
    }
    return m;
}

const NetInterface* Snapshot::interface(std::string_view name) const {
    if (m_indexed && m_indexedInterfaces == interfaces.size()) {
        const auto it = m_interfaceIndex.find(std::string(name));
        if (it == m_interfaceIndex.end())
            return nullptr;
        if (interfaces[it->second].name == name)
            return &interfaces[it->second];
    }
    for (const auto& i : interfaces)
        if (i.name == name)
            return &i;
    return nullptr;
}

int Snapshot::completeness() const {
    if (interrupts.rows.empty() || topology.cpus.empty())
        return 2;
    return diagnostics.empty() ? 0 : 1;
}

Snapshot buildSnapshot(const FileBundle& bundle) {
    Snapshot snap;
    snap.origin = bundle.origin;
    auto& diag = snap.diagnostics;
    BundleReader r(bundle, diag);

    for (const auto& pat : collectionSpec()) {
        if (!pat.expected)
            continue;
        const auto* e = bundle.get(pat.pattern);
        if (!e || e->kind == BundleEntry::Kind::Missing)
            diag.warn(pat.pattern, 0, "missing");
    }
    if (bundle.truncated())
        diag.error(bundle.origin, 0, "too many files or bytes; the snapshot is incomplete");

    if (auto t = r.text("proc/stat"))
        snap.stat = parseProcStat(*t, diag);
    if (auto t = r.text("proc/interrupts")) {
        const int hint = static_cast<int>(snap.stat.cpus.size());
        snap.interrupts = parseInterrupts(*t, diag, "proc/interrupts", hint);
    }
    if (auto t = r.text("proc/softirqs"))
        snap.softirqs = parseSoftirqs(*t, diag);
    if (auto t = r.text("proc/net/dev"))
        snap.netdev = parseNetDev(*t, diag);
    snap.rpsSockFlowEntries = r.number("proc/sys/net/core/rps_sock_flow_entries", 1ull << 32);

    snap.system = detail::readSystemInfo(r);
    snap.topology = detail::readTopology(r, snap.stat, snap.interrupts);
    detail::readNetwork(r, snap);
    snap.reindex();
    return snap;
}

} // namespace coresteer

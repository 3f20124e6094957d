// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// Interfaces, their queues, and which IRQs serve them.
#include "core/base/text.h"
#include "core/model/snapshot_detail.h"

#include <algorithm>
#include <array>
#include <set>
#include <unordered_map>

namespace coresteer::detail {

namespace {

constexpr std::size_t kMaxInterfaces = 4096;
constexpr std::size_t kMaxQueues = 4096;

// Action-name prefixes of drivers whose IRQ names carry neither the interface nor the device.
struct DriverAlias {
    std::string_view actionPrefix;
    std::string_view driverPart; // matches drivers whose name contains this
    bool numbered = false;       // only the prefix and a number ("ce0", "ce11")
};
constexpr std::array<DriverAlias, 10> kDriverAliases = {{
    // IPQ40xx essedma ("ess-edma", "ess_edma", "essedma"): edma_eth_tx0..15, edma_eth_rx0..7
    {"edma_eth_", "edma"},
    // IPQ807x qca-nss-dp over EDMA v1 (qualcommax): one engine for every port, its IRQs
    // edma_txcmpl, edma_rxfill, edma_rxdesc and edma_misc.
    {"edma_", "nss-dp"},
    // ath11k on AHB (the Wi-Fi of IPQ807x and IPQ60xx): its copy engines' IRQs "ce0".."ce11",
    // and its data path's rings by their names in ath11k's irq_name table
    // ("reo2host-destination-ring1", "wbm2host-tx-completions-ring2", "ppdu-end-interrupts-mac1",
    // and "reo2ost-exception" as the driver spells it).
    {"ce", "ath11k", true},
    {"reo2host-", "ath11k"},
    {"reo2ost-", "ath11k"},
    {"wbm2host-", "ath11k"},
    {"ppdu-end-interrupts-mac", "ath11k"},
    {"rxdma2host-", "ath11k"},
    {"host2rxdma-", "ath11k"},
    {"host2reo-", "ath11k"},
}};

// NAPI devices of a driver's own (an alloc_netdev_dummy() or init_dummy_netdev() device that
// holds the NAPI contexts of all of its interfaces), by the name the driver gives it, and the
// driver of the interfaces it serves. mtk_eth_soc names its "mtk_eth" (OpenWrt's
// 702-net-ethernet-mtk_eth_soc-enable-threaded-NAPI, 22.03 on), so its threads are
// "napi/mtk_eth-N".
struct NapiDevice {
    std::string_view device, driver;
};
constexpr std::array<NapiDevice, 1> kNapiDevices = {{
    {"mtk_eth", "mtk_soc_eth"},
}};

bool isSeparator(char c) {
    return c == '-' || c == '@' || c == ':';
}

bool namesInterface(std::string_view action, std::string_view ifname) {
    return text::startsWith(action, ifname) &&
           (action.size() == ifname.size() || isSeparator(action[ifname.size()]));
}

// "eth0", "eth0-TxRx-3", "eth1-16", or driver-prefixed "ice-eth0-TxRx-0".
bool actionNamesInterface(std::string_view action, const NetInterface& nif) {
    if (namesInterface(action, nif.name))
        return true;
    const std::string_view drv = nif.driver;
    return !drv.empty() && action.size() > drv.size() && text::startsWith(action, drv) &&
           action[drv.size()] == '-' && namesInterface(action.substr(drv.size() + 1), nif.name);
}

// "15100000.ethernet", "c080000.ethernet:txq0", "mlx5_comp3@pci:0000:01:00.0",
// "ahci[0000:00:1f.2]".
bool actionNamesDevice(std::string_view action, std::string_view dev) {
    if (dev.empty())
        return false;
    if (action == dev)
        return true;
    if (text::startsWith(action, dev) && isSeparator(action[dev.size()]))
        return true;
    const auto at = action.rfind('@');
    if (at != std::string_view::npos) {
        auto tail = action.substr(at + 1);
        if (text::startsWith(tail, "pci:"))
            tail.remove_prefix(4);
        if (tail == dev)
            return true;
    }
    const auto open = action.find('[');
    return open != std::string_view::npos && action.substr(open + 1) == std::string(dev) + "]";
}

bool actionNamesDriver(std::string_view action, std::string_view driver) {
    if (driver.empty())
        return false;
    if (action == driver)
        return true;
    for (const auto& a : kDriverAliases)
        if (driver.find(a.driverPart) != std::string_view::npos &&
            text::startsWith(action, a.actionPrefix) &&
            (!a.numbered || text::parseU64(action.substr(a.actionPrefix.size()))))
            return true;
    return false;
}

// Queue role and index from what follows the interface name: "-TxRx-3", "-rx-0", "-16", ...
void classifyAction(std::string_view action, IrqInfo& info) {
    auto endsWithIndex = [&](std::string_view marker, IrqRole role) {
        const auto p = action.rfind(marker);
        if (p == std::string_view::npos)
            return false;
        const auto num = text::parseU64(action.substr(p + marker.size()));
        if (!num || *num > 65535)
            return false;
        info.role = role;
        info.queue = static_cast<int>(*num);
        return true;
    };
    if (endsWithIndex("-TxRx-", IrqRole::RxTx) || endsWithIndex("-rxtx-", IrqRole::RxTx) ||
        endsWithIndex("-rx-", IrqRole::Rx) || endsWithIndex("-tx-", IrqRole::Tx) ||
        endsWithIndex(":rxq", IrqRole::Rx) || endsWithIndex(":txq", IrqRole::Tx) ||
        endsWithIndex("_eth_rx", IrqRole::Rx) || endsWithIndex("_eth_tx", IrqRole::Tx))
        return;
    // virtio-net: virtio1-input.0 and virtio1-output.0 are a queue pair's two vectors;
    // virtio1-config takes the device's configuration changes and serves no queue.
    if (text::startsWith(action, "virtio")) {
        if (endsWithIndex("-input.", IrqRole::Rx) || endsWithIndex("-output.", IrqRole::Tx))
            return;
        if (action.ends_with("-config")) {
            info.role = IrqRole::Control;
            return;
        }
    }
    // mlx5_comp3@pci:...: completion vectors serve rx and tx of one channel.
    if (text::startsWith(action, "mlx5_comp")) {
        const auto at = action.find('@');
        if (const auto n =
                text::parseU64(action.substr(9, at == std::string_view::npos ? at : at - 9))) {
            info.role = IrqRole::RxTx;
            info.queue = static_cast<int>(*n);
        }
        return;
    }
    // Realtek r8125 vendor driver: eth1-0, eth1-16, ...; a vector index, role unknown.
    const auto dash = action.rfind('-');
    if (dash != std::string_view::npos)
        if (const auto n = text::parseU64(action.substr(dash + 1)); n && *n <= 65535)
            info.queue = static_cast<int>(*n);
}

template <typename Queue> std::vector<Queue> sortedQueues(std::vector<Queue> q) {
    std::sort(q.begin(), q.end(), [](const Queue& a, const Queue& b) { return a.index < b.index; });
    return q;
}

// Interfaces by name, bus device and driver, so that naming an IRQ's actions costs a few
// lookups instead of a pass over every interface. The lookups find the candidates, every way
// an action can name one; actionNamesInterface, actionNamesDevice and actionNamesDriver decide.
// Only interfaces with a device of their own and no conduit can be named by an action.
class NameIndex {
public:
    explicit NameIndex(const std::vector<NetInterface>& interfaces) : m_ifs(interfaces) {
        for (std::size_t i = 0; i < interfaces.size(); ++i) {
            const auto& nif = interfaces[i];
            m_all[nif.name].push_back(i);
            if (nif.isVirtual() || !nif.conduit.empty())
                continue;
            m_name[nif.name].push_back(i);
            m_device[nif.busDevice].push_back(i);
            if (nif.driver.empty())
                continue;
            m_driver[nif.driver].push_back(i);
            for (std::size_t a = 0; a < kDriverAliases.size(); ++a)
                if (nif.driver.find(kDriverAliases[a].driverPart) != std::string::npos)
                    m_alias[a].push_back(i);
        }
    }

    // Every interface of that name (one, unless the root listed a name twice).
    const std::vector<std::size_t>& named(std::string_view name) const { return find(m_all, name); }

    void byName(std::string_view action, std::vector<std::size_t>& out) const {
        auto keep = [&](std::string_view key) {
            for (const auto i : find(m_name, key))
                if (actionNamesInterface(action, m_ifs[i]))
                    out.push_back(i);
        };
        // The name itself, or the name and a separator; or after a driver's name and '-'.
        forEachPrefix(action, keep);
        for (auto dash = action.find('-'); dash != std::string_view::npos;
             dash = action.find('-', dash + 1))
            if (m_driver.count(action.substr(0, dash)))
                forEachPrefix(action.substr(dash + 1), keep);
    }

    void byDevice(std::string_view action, std::vector<std::size_t>& out) const {
        auto keep = [&](std::string_view key) {
            for (const auto i : find(m_device, key))
                if (actionNamesDevice(action, m_ifs[i].busDevice))
                    out.push_back(i);
        };
        // The device, the device and a separator, what follows the last '@' (without
        // "pci:"), or what is inside "[...]" at the end.
        forEachPrefix(action, keep);
        if (const auto at = action.rfind('@'); at != std::string_view::npos) {
            auto tail = action.substr(at + 1);
            keep(text::startsWith(tail, "pci:") ? tail.substr(4) : tail);
        }
        const auto open = action.find('[');
        if (open != std::string_view::npos && action.back() == ']')
            keep(action.substr(open + 1, action.size() - open - 2));
    }

    void byDriver(std::string_view action, std::vector<std::size_t>& out) const {
        std::vector<std::size_t> candidates = find(m_driver, action);
        for (std::size_t a = 0; a < kDriverAliases.size(); ++a)
            if (text::startsWith(action, kDriverAliases[a].actionPrefix))
                candidates.insert(candidates.end(), m_alias[a].begin(), m_alias[a].end());
        for (const auto i : candidates)
            if (actionNamesDriver(action, m_ifs[i].driver))
                out.push_back(i);
    }

    // The names of these interfaces, sorted and each once.
    std::vector<std::string> sortedNames(const std::vector<std::size_t>& found) const {
        std::vector<std::string> out;
        for (const auto i : found)
            out.push_back(m_ifs[i].name);
        std::sort(out.begin(), out.end());
        out.erase(std::unique(out.begin(), out.end()), out.end());
        return out;
    }

private:
    using Map = std::unordered_map<std::string_view, std::vector<std::size_t>>;

    const std::vector<std::size_t>& find(const Map& m, std::string_view key) const {
        const auto it = m.find(key);
        return it == m.end() ? m_none : it->second;
    }
    // `s` itself, and every prefix of it that a separator follows.
    template <typename Fn> static void forEachPrefix(std::string_view s, Fn&& fn) {
        for (std::size_t i = 1; i < s.size(); ++i)
            if (isSeparator(s[i]))
                fn(s.substr(0, i));
        fn(s);
    }

    const std::vector<NetInterface>& m_ifs;
    Map m_all, m_name, m_device, m_driver;
    std::array<std::vector<std::size_t>, kDriverAliases.size()> m_alias;
    std::vector<std::size_t> m_none;
};

// The interfaces of radio `phy` (mt76 names its NAPI device and its TX worker after it): those
// whose phy80211 is `phy`, and the other radios' interfaces on the same bus device (one mt76
// chip, with one NAPI device and one TX worker, drives all of its bands: phy0 and phy1 of an
// MT7915 card are one PCI device).
void radioInterfaces(std::string_view phy, const std::vector<NetInterface>& interfaces,
                     std::vector<std::size_t>& out) {
    out.clear();
    std::set<std::string_view> buses;
    for (std::size_t i = 0; i < interfaces.size(); ++i)
        if (!phy.empty() && interfaces[i].wiphy == phy) {
            out.push_back(i);
            if (!interfaces[i].busDevice.empty())
                buses.insert(interfaces[i].busDevice);
        }
    for (std::size_t i = 0; i < interfaces.size(); ++i)
        if (!interfaces[i].wiphy.empty() && interfaces[i].wiphy != phy &&
            buses.count(interfaces[i].busDevice))
            out.push_back(i);
    std::sort(out.begin(), out.end());
}

// The interfaces whose receive work a NAPI thread of `device` does: the interface of that name
// (`named`), every interface of the driver that owns a NAPI device of that name, or every
// interface of the radio of that name (radioInterfaces).
void napiInterfaces(std::string_view device, const std::vector<NetInterface>& interfaces,
                    const std::vector<std::size_t>& named, std::vector<std::size_t>& out) {
    out = named;
    if (!out.empty())
        return;
    for (const auto& d : kNapiDevices)
        if (d.device == device)
            for (std::size_t i = 0; i < interfaces.size(); ++i)
                if (interfaces[i].driver == d.driver && interfaces[i].conduit.empty())
                    out.push_back(i);
    if (out.empty())
        radioInterfaces(device, interfaces, out);
}

} // namespace

void readNetwork(BundleReader& r, Snapshot& snap) {
    auto& diag = r.diag();
    const auto& bundle = r.bundle();

    // IRQ affinities, for every numbered row of /proc/interrupts: the files under proc/irq/
    // are found in one pass over that part of the bundle, not looked up one by one. A
    // directory is the row whose label it is ("35"; a label like "035" names its own).
    std::unordered_map<std::uint32_t, std::size_t> byNumber; // rows labelled as the kernel does
    std::unordered_map<std::string_view, std::size_t> byOddLabel;
    std::vector<std::size_t> slot(snap.interrupts.rows.size(), 0);
    byNumber.reserve(snap.interrupts.rows.size());
    std::size_t numbered = 0;
    for (std::size_t i = 0; i < snap.interrupts.rows.size(); ++i) {
        const auto& row = snap.interrupts.rows[i];
        if (!row.irq)
            continue;
        slot[i] = numbered;
        if (row.label == std::to_string(*row.irq))
            byNumber.emplace(*row.irq, numbered);
        else
            byOddLabel.emplace(row.label, numbered);
        ++numbered;
    }
    auto rowOfDirectory = [&](std::string_view name) -> std::optional<std::size_t> {
        const auto n = name.size() > 1 && name[0] == '0' ? std::nullopt : text::parseU64(name);
        if (n && *n <= 0xffffffffu) {
            if (const auto it = byNumber.find(static_cast<std::uint32_t>(*n)); it != byNumber.end())
                return it->second;
        }
        if (const auto it = byOddLabel.find(name); it != byOddLabel.end())
            return it->second;
        return std::nullopt;
    };
    constexpr std::array<std::string_view, 3> kIrqFiles = {"smp_affinity", "effective_affinity",
                                                           "affinity_hint"};
    using Found = const std::pair<const std::string, BundleEntry>*;
    std::vector<std::array<Found, kIrqFiles.size()>> irqFiles(numbered);
    const std::string_view irqDir = "proc/irq/";
    for (auto it = bundle.entries().lower_bound(irqDir);
         it != bundle.entries().end() && text::startsWith(it->first, irqDir); ++it) {
        const auto rest = std::string_view(it->first).substr(irqDir.size());
        const auto slash = rest.find('/');
        if (slash == std::string_view::npos)
            continue;
        const auto file = std::find(kIrqFiles.begin(), kIrqFiles.end(), rest.substr(slash + 1));
        if (file == kIrqFiles.end())
            continue;
        if (const auto k = rowOfDirectory(rest.substr(0, slash)))
            irqFiles[*k][static_cast<std::size_t>(file - kIrqFiles.begin())] = &*it;
    }
    snap.irqs.reserve(numbered);
    for (std::size_t i = 0; i < snap.interrupts.rows.size(); ++i) {
        const auto& row = snap.interrupts.rows[i];
        if (!row.irq)
            continue;
        IrqInfo info;
        info.irq = *row.irq;
        const auto& files = irqFiles[slot[i]];
        auto mask = [&](std::size_t f) {
            return files[f] ? r.hexMask(files[f]->first, &files[f]->second) : std::nullopt;
        };
        info.smpAffinity = mask(0);
        info.effectiveAffinity = mask(1);
        info.affinityHint = mask(2);
        snap.irqs.push_back(std::move(info));
    }
    std::unordered_map<std::uint32_t, std::size_t> irqIndex;
    irqIndex.reserve(snap.irqs.size());
    for (std::size_t i = 0; i < snap.irqs.size(); ++i)
        irqIndex.emplace(snap.irqs[i].irq, i);

    // Interfaces.
    auto names = bundle.list("sys/class/net");
    if (names.size() > kMaxInterfaces) {
        diag.warn("sys/class/net", 0,
                  "more than " + std::to_string(kMaxInterfaces) +
                      " interfaces; the rest is ignored");
        names.resize(kMaxInterfaces);
    }
    if (names.empty() && !bundle.get("sys/class/net"))
        diag.warn("sys/class/net", 0, "missing; no interfaces known");
    for (const auto& name : names) {
        NetInterface nif;
        nif.name = name;
        const std::string dir = "sys/class/net/" + name + "/";
        if (const auto* target = bundle.link(dir + "device")) {
            nif.devicePath = *target;
            nif.busDevice = baseName(*target);
            nif.driver = r.linkName(dir + "device/driver").value_or("");
        }
        if (auto v = r.number(dir + "ifindex", 1u << 30))
            nif.ifindex = static_cast<int>(*v);
        if (auto v = r.number(dir + "iflink", 1u << 30))
            nif.iflink = static_cast<int>(*v);
        if (auto v = r.number(dir + "type", 0xffff))
            nif.type = static_cast<int>(*v);
        if (auto v = r.number(dir + "mtu", 1u << 20))
            nif.mtu = static_cast<int>(*v);
        nif.operstate = text::printable(r.line(dir + "operstate").value_or(""), 16);
        // Reading speed fails (EINVAL) while the link is down: that is no news, so no warning.
        if (const auto* sp = bundle.file(dir + "speed"))
            if (const auto v = text::parseU64(text::trim(*sp)); v && *v > 0 && *v <= 1'000'000)
                nif.speedMbps = static_cast<int>(*v);
        if (auto v = r.number(dir + "threaded", 1))
            nif.threadedNapi = *v == 1;
        nif.coalescing = readCoalescing(r, name);
        nif.channels = readChannels(r, name);
        nif.rss = readRssTable(r, name);
        // A radio's name is what its kernel threads carry ("mt76-tx phy0"): one that no thread
        // name could hold is no radio of coresteer's.
        if (auto phy = r.linkName(dir + "phy80211")) {
            if (phy->size() <= 15 && text::printable(*phy) == *phy &&
                phy->find(' ') == std::string::npos)
                nif.wiphy = std::move(*phy);
            else
                diag.warn(dir + "phy80211", 0,
                          "a radio name no kernel thread can carry: '" + text::printable(*phy, 40) +
                              "'");
        }

        auto queues = bundle.list(dir + "queues");
        if (queues.size() > 2 * kMaxQueues) {
            diag.warn(dir + "queues", 0, "too many queues; the rest is ignored");
            queues.resize(2 * kMaxQueues);
        }
        for (const auto& q : queues) {
            const std::string qdir = dir + "queues/" + q + "/";
            if (matchComponent("rx-#", q)) {
                RxQueue rq;
                rq.index = static_cast<int>(text::parseU64(q.substr(3)).value_or(0) & 0xffff);
                rq.rpsCpus = r.hexMask(qdir + "rps_cpus");
                rq.rpsFlowCnt = r.number(qdir + "rps_flow_cnt", 1ull << 32);
                nif.rx.push_back(std::move(rq));
            } else if (matchComponent("tx-#", q)) {
                TxQueue tq;
                tq.index = static_cast<int>(text::parseU64(q.substr(3)).value_or(0) & 0xffff);
                tq.xpsCpus = r.hexMask(qdir + "xps_cpus");
                nif.tx.push_back(std::move(tq));
            }
        }
        nif.rx = sortedQueues(std::move(nif.rx));
        nif.tx = sortedQueues(std::move(nif.tx));

        // MSI vectors listed by the bus device are the surest attribution.
        for (const auto& v : bundle.list(dir + "device/msi_irqs")) {
            const auto n = text::parseU64(v);
            if (!n || *n > 0xffffffffu) {
                diag.warn(dir + "device/msi_irqs", 0, "odd entry '" + text::printable(v) + "'");
                continue;
            }
            const auto it = irqIndex.find(static_cast<std::uint32_t>(*n));
            if (it == irqIndex.end())
                continue; // allocated but not requested: not in /proc/interrupts
            auto& info = snap.irqs[it->second];
            info.interfaces.push_back(name);
            info.attribution = Attribution::MsiIrqs;
        }
        snap.interfaces.push_back(std::move(nif));
    }

    // DSA user ports and VLANs point at their conduit through iflink (the last interface with
    // that ifindex, should a broken root list two).
    std::unordered_map<int, std::size_t> byIfindex;
    for (std::size_t i = 0; i < snap.interfaces.size(); ++i)
        if (snap.interfaces[i].ifindex)
            byIfindex[*snap.interfaces[i].ifindex] = i;
    for (auto& nif : snap.interfaces) {
        if (!nif.iflink || !nif.ifindex || *nif.iflink == *nif.ifindex)
            continue;
        if (const auto it = byIfindex.find(*nif.iflink); it != byIfindex.end())
            nif.conduit = snap.interfaces[it->second].name;
    }

    readPppoeSessions(r, snap);
    readRootQdiscs(r, snap);

    // Name matching for IRQs that no MSI list claimed.
    const NameIndex index(snap.interfaces);
    std::vector<std::size_t> byName, byDevice, byDriver;
    for (const auto& row : snap.interrupts.rows) {
        if (!row.irq)
            continue;
        auto& info = snap.irqs[irqIndex[*row.irq]];
        if (info.interfaces.empty()) {
            byName.clear();
            byDevice.clear();
            byDriver.clear();
            for (const auto& action : row.actions)
                index.byName(action, byName);
            if (byName.empty())
                for (const auto& action : row.actions)
                    index.byDevice(action, byDevice);
            if (byName.empty() && byDevice.empty())
                for (const auto& action : row.actions)
                    index.byDriver(action, byDriver);
            const auto& chosen = !byName.empty() ? byName : !byDevice.empty() ? byDevice : byDriver;
            info.interfaces = index.sortedNames(chosen);
            info.attribution = !byName.empty()     ? Attribution::ActionName
                               : !byDevice.empty() ? Attribution::BusDevice
                                                   : Attribution::DriverName;
        }
        if (!info.interfaces.empty() && !row.actions.empty()) {
            std::string_view a = row.actions.front();
            // Classify on the part after the interface or device name.
            classifyAction(a, info);
        }
        for (const auto& n : info.interfaces)
            for (const auto i : index.named(n))
                snap.interfaces[i].irqs.push_back(info.irq);
    }
    for (auto& nif : snap.interfaces)
        std::sort(nif.irqs.begin(), nif.irqs.end());

    // The kernel threads that do network work (NapiThread): "napi/<device>-<napi id>" (the
    // name is cut at 15 bytes), where the device is the interface, a driver's own NAPI device or
    // a radio (napiInterfaces); mt76's "mt76-tx <radio>"; "irq/<IRQ>-<name>" of the IRQs of
    // interfaces. Only kernel threads (their parent is kthreadd, PID 2): any process may take
    // such a name.
    std::vector<std::size_t> owners;
    for (const auto& pid : bundle.list("proc")) {
        const auto n = text::parseU64(pid);
        const auto* comm = n && *n <= 0x7fffffff ? bundle.file("proc/" + pid + "/comm") : nullptr;
        if (!comm)
            continue;
        const auto name = std::string(text::trim(*comm));
        std::string device;
        std::vector<NapiThread> NetInterface::*list = nullptr;
        if (text::startsWith(name, "napi/")) {
            const auto dash = name.rfind('-');
            if (dash == std::string::npos || dash <= 5)
                continue;
            device = name.substr(5, dash - 5);
            napiInterfaces(device, snap.interfaces, index.named(device), owners);
            list = &NetInterface::napi;
        } else if (text::startsWith(name, "mt76-tx ")) {
            device = name.substr(8);
            radioInterfaces(device, snap.interfaces, owners);
            list = &NetInterface::txWorkers;
        } else if (text::startsWith(name, "irq/")) {
            const auto dash = name.find('-');
            const auto irq =
                dash == std::string::npos ? std::nullopt : text::parseU64(name.substr(4, dash - 4));
            const auto it = irq ? irqIndex.find(static_cast<std::uint32_t>(*irq)) : irqIndex.end();
            if (!irq || *irq > 0xffffffffu || it == irqIndex.end())
                continue;
            device = std::to_string(*irq);
            owners.clear();
            for (const auto& ifname : snap.irqs[it->second].interfaces)
                for (const auto i : index.named(ifname))
                    owners.push_back(i);
            list = &NetInterface::irqThreads;
        } else {
            continue;
        }
        if (owners.empty())
            continue;
        NapiThread t;
        t.pid = static_cast<int>(*n);
        t.name = name;
        t.device = device;
        bool kernelThread = false;
        const auto status = r.text("proc/" + pid + "/status");
        if (!status)
            continue;
        text::LineReader lines(*status);
        std::string_view line;
        while (lines.next(line)) {
            if (text::startsWith(line, "Cpus_allowed:"))
                t.cpusAllowed = CpuMask::fromHex(text::trim(line.substr(13)));
            else if (text::startsWith(line, "PPid:"))
                kernelThread = text::parseU64(text::trim(line.substr(5))) == 2u;
        }
        if (!kernelThread) {
            diag.warn("proc/" + pid + "/status", 0,
                      "'" + text::printable(name, 40) +
                          "' is not a kernel thread (its parent is not kthreadd): not "
                          "taken for a network thread");
            continue;
        }
        if (!t.cpusAllowed)
            diag.warn("proc/" + pid + "/status", 0, "no readable Cpus_allowed line");
        for (const auto i : owners)
            (snap.interfaces[i].*list).push_back(t);
    }
    const auto byPid = [](const NapiThread& a, const NapiThread& b) { return a.pid < b.pid; };
    for (auto& nif : snap.interfaces)
        for (auto* threads : {&nif.napi, &nif.txWorkers, &nif.irqThreads})
            std::sort(threads->begin(), threads->end(), byPid);
}

} // namespace coresteer::detail

// Interfaces, their queues, and which IRQs serve them.
#include "core/snapshot_detail.h"
#include "core/text.h"

#include <algorithm>
#include <array>
#include <set>

namespace coresteer::detail {

namespace {

constexpr std::size_t kMaxInterfaces = 4096;
constexpr std::size_t kMaxQueues = 4096;

// Action-name prefixes of drivers whose IRQ names carry neither the interface nor the device.
struct DriverAlias {
    std::string_view actionPrefix;
    std::string_view driverPart; // matches drivers whose name contains this
};
constexpr std::array<DriverAlias, 1> kDriverAliases = {{
    // IPQ40xx essedma ("ess-edma", "ess_edma", "essedma"): edma_eth_tx0..15, edma_eth_rx0..7
    {"edma_eth_", "edma"},
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
            text::startsWith(action, a.actionPrefix))
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

} // namespace

void readNetwork(BundleReader& r, Snapshot& snap) {
    auto& diag = r.diag();
    const auto& bundle = r.bundle();

    // IRQ affinities, for every numbered row of /proc/interrupts.
    for (const auto& row : snap.interrupts.rows) {
        if (!row.irq)
            continue;
        IrqInfo info;
        info.irq = *row.irq;
        const std::string dir = "proc/irq/" + row.label + "/";
        info.smpAffinity = r.hexMask(dir + "smp_affinity");
        info.effectiveAffinity = r.hexMask(dir + "effective_affinity");
        info.affinityHint = r.hexMask(dir + "affinity_hint");
        snap.irqs.push_back(std::move(info));
    }
    std::map<std::uint32_t, std::size_t> irqIndex;
    for (std::size_t i = 0; i < snap.irqs.size(); ++i)
        irqIndex[snap.irqs[i].irq] = i;

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
        if (auto v = r.number(dir + "mtu", 1u << 20))
            nif.mtu = static_cast<int>(*v);
        nif.operstate = text::printable(r.line(dir + "operstate").value_or(""), 16);
        // Reading speed fails (EINVAL) while the link is down: that is no news, so no warning.
        if (const auto* sp = bundle.file(dir + "speed"))
            if (const auto v = text::parseU64(text::trim(*sp)); v && *v > 0 && *v <= 1'000'000)
                nif.speedMbps = static_cast<int>(*v);
        if (auto v = r.number(dir + "threaded", 1))
            nif.threadedNapi = *v == 1;

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

    // DSA user ports and VLANs point at their conduit through iflink.
    for (auto& nif : snap.interfaces) {
        if (!nif.iflink || !nif.ifindex || *nif.iflink == *nif.ifindex)
            continue;
        for (const auto& other : snap.interfaces)
            if (other.ifindex == nif.iflink)
                nif.conduit = other.name;
    }

    // Name matching for IRQs that no MSI list claimed.
    for (const auto& row : snap.interrupts.rows) {
        if (!row.irq)
            continue;
        auto& info = snap.irqs[irqIndex[*row.irq]];
        const bool claimedByMsi = !info.interfaces.empty();
        std::set<std::string> byName, byDevice, byDriver;
        for (const auto& action : row.actions) {
            for (const auto& nif : snap.interfaces) {
                if (nif.isVirtual() || !nif.conduit.empty())
                    continue;
                if (actionNamesInterface(action, nif))
                    byName.insert(nif.name);
                else if (actionNamesDevice(action, nif.busDevice))
                    byDevice.insert(nif.name);
                else if (actionNamesDriver(action, nif.driver))
                    byDriver.insert(nif.name);
            }
        }
        if (!claimedByMsi) {
            const auto& chosen = !byName.empty() ? byName : !byDevice.empty() ? byDevice : byDriver;
            info.interfaces.assign(chosen.begin(), chosen.end());
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
            for (auto& nif : snap.interfaces)
                if (nif.name == n)
                    nif.irqs.push_back(info.irq);
    }
    for (auto& nif : snap.interfaces)
        std::sort(nif.irqs.begin(), nif.irqs.end());

    // Threaded NAPI: kthreads named "napi/<interface>-<napi id>" (the name is cut at 15 bytes).
    // Only kernel threads (their parent is kthreadd, PID 2): any process may take such a name.
    for (const auto& pid : bundle.list("proc")) {
        const auto n = text::parseU64(pid);
        const auto* comm = n && *n <= 0x7fffffff ? bundle.file("proc/" + pid + "/comm") : nullptr;
        if (!comm || !text::startsWith(*comm, "napi/"))
            continue;
        const auto name = std::string(text::trim(*comm));
        const auto dash = name.rfind('-');
        if (dash == std::string::npos || dash <= 5)
            continue;
        const auto ifname = name.substr(5, dash - 5);
        for (auto& nif : snap.interfaces) {
            if (nif.name != ifname)
                continue;
            NapiThread t;
            t.pid = static_cast<int>(*n);
            t.name = name;
            bool kernelThread = false;
            if (const auto status = r.text("proc/" + pid + "/status")) {
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
                                  "taken for a NAPI thread");
                    continue;
                }
                if (!t.cpusAllowed)
                    diag.warn("proc/" + pid + "/status", 0, "no readable Cpus_allowed line");
            } else {
                continue;
            }
            nif.napi.push_back(std::move(t));
        }
    }
    for (auto& nif : snap.interfaces)
        std::sort(nif.napi.begin(), nif.napi.end(),
                  [](const NapiThread& a, const NapiThread& b) { return a.pid < b.pid; });
}

} // namespace coresteer::detail

// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// Snapshot: everything coresteer knows about one router at one moment, as plain values.
#pragma once

#include "core/base/cpumask.h"
#include "core/base/diagnostics.h"
#include "core/collect/boot_scripts.h"
#include "core/collect/bundle.h"
#include "core/kernel/interrupts.h"
#include "core/kernel/procstat.h"
#include "core/kernel/topology.h"
#include "core/model/rss.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace coresteer {

class FileBundle;

// Other things on the router that set or undo IRQ and queue masks, and coresteer's own
// persisted files (marked with kPersistMarker, boot_scripts.h). Read from /etc, /usr/libexec
// and /run; see core/layout/persist.h.

struct Services {
    // network.globals.packet_steering as configured in /etc/config/network; nullopt when unset.
    std::optional<std::string> packetSteering;
    // OpenWrt 23.05 on: /etc/init.d/packet_steering runs the platform script (or the
    // firmware's packet-steering.sh, from 24.10 packet-steering.uc) at boot, on every network
    // and firewall reload and on every interface event.
    bool packetSteeringService = false;
    // The firmware's own steering script in /usr/libexec/network: "packet-steering.uc" (24.10
    // on: steers unless packet_steering is 0, and clears RPS then), "packet-steering.sh" (23.05:
    // steers only while packet_steering is 1), "" when neither is there.
    std::string steeringScript;
    // /usr/libexec/platform/packet-steering.sh exists; ours when coresteer wrote it.
    bool platformOverride = false, platformOverrideOurs = false;
    std::vector<std::string> netHotplug;   // names in /etc/hotplug.d/net, sorted
    std::optional<bool> irqbalanceEnabled; // rc.d link, UCI option or systemd wants link
    bool irqbalanceInstalled = false;
    // The IRQs irqbalance leaves alone: banned by the owner (OpenWrt: "list banirq" in
    // /etc/config/irqbalance; elsewhere --banirq or -i in IRQBALANCE_ARGS of
    // /etc/default/irqbalance; and what the running daemon was started with), and by
    // coresteer's persist (/etc/coresteer/irqbalance.banned). Sorted, each once.
    struct IrqbalanceBans {
        std::vector<std::uint32_t> owner, coresteer;
        std::string bannedCpus; // banned_cpulist, IRQBALANCE_BANNED_CPULIST, as written
        std::vector<std::uint32_t> all() const;
    } irqbalance;
    bool systemd = false; // /run/systemd/system exists: systemd is PID 1
    // /etc/hotplug.d and something that runs it on device events (/sbin/hotplug-call, or
    // procd): OpenWrt, and Buildroot and vendor BusyBox firmwares built the same way.
    bool hotplugCaller = false;
    // OpenRC runs the services (/run/openrc exists: Alpine and other OpenRC systems). Its `local`
    // service runs /etc/local.d/*.start at boot where a runlevel holds it
    // (/etc/runlevels/<level>/local); late interfaces reach a script through the device
    // manager's rules: mdev's or mdevd's /etc/mdev.conf, or udev's /etc/udev/rules.d.
    bool openrc = false;
    // The local service in a runlevel of the owner's (/etc/runlevels/{sysinit,boot,default}/local;
    // not the link that coresteer's persist added, which /etc/coresteer/openrc-local notes).
    bool openrcLocal = false;
    enum class DeviceManager { None, Mdev, Udev };
    DeviceManager deviceManager = DeviceManager::None; // from the sysinit and boot runlevels
    bool mdevConf = false;                             // /etc/mdev.conf is a plain file
    bool sysupgradeConf = false;                       // /etc/sysupgrade.conf exists
    // Boot scripts that write masks after coresteer's hotplug script has run: init scripts
    // (qualcommax's smp_affinity, ImmortalWrt's autocore, vendors' own) and /etc/rc.local, each
    // with the lines that write. OpenWrt's packet_steering and irqbalance have their own fields.
    struct MaskScript {
        std::string path;         // "/etc/init.d/smp_affinity", "/etc/rc.local"
        std::string service;      // the init script's name; "" for rc.local
        std::optional<int> start; // START= of an init script
        bool enabled = false;     // an S?? link in /etc/rc.d (rc.local: always)
        // Its S?? and K?? links in /etc/rc.d ("S93smp_affinity"), as disabling removes them.
        std::vector<std::string> rcLinks;
        // rc.local: coresteer's line at its end applies the layout again after it.
        bool coresteerAfter = false;
        // An init script coresteer's persist disabled (/etc/coresteer/boot-links).
        bool coresteerDisabled = false;
        struct Write {
            int line = 0;
            std::string what; // "IRQ masks", "RPS", "XPS", "RPS flows", "thread CPUs", ...
        };
        std::vector<Write> writes;
        std::string whereText() const; // "/etc/init.d/smp_affinity:88 (IRQ masks), ..."
    };
    std::vector<MaskScript> maskScripts;
    std::string persistedLayout; // /etc/coresteer/layout.json, as text
    // Flow offloading: the forwarded flows of established connections bypass most of the CPU
    // path, and SQM (cake) with it. OpenWrt: the firewall's defaults (flow_offloading, and
    // flow_offloading_hw for the NIC's or the SoC's offload engine); elsewhere an nftables
    // flowtable in /etc/nftables.conf ("flags offload": in hardware). `where`: the file and
    // line that turn it on.
    struct Offloading {
        bool software = false, hardware = false;
        std::string where;
    } offloading;
};

struct SystemInfo {
    std::string hostname;
    std::string kernel;                    // osrelease
    std::string boardName;                 // /tmp/sysinfo/board_name, else the first DT compatible
    std::string model;                     // /tmp/sysinfo/model, else the DT model
    std::vector<std::string> compatible;   // device-tree compatible strings
    std::string openwrtRelease;            // DISTRIB_RELEASE, empty when not OpenWrt
    std::string openwrtTarget;             // DISTRIB_TARGET
    std::string distribution;              // DISTRIB_DESCRIPTION or os-release PRETTY_NAME
    std::optional<bool> irqbalanceRunning; // unknown when no process list was readable
    Services services;

    bool isOpenWrt() const { return !openwrtRelease.empty(); }
};

// How an IRQ was tied to an interface.
enum class Attribution { MsiIrqs, ActionName, BusDevice, DriverName };
const char* toString(Attribution a);

// What a NIC's vector serves: a queue (receive, transmit or both), or no queue at all
// (Control: virtio's configuration change, a link and error vector).
enum class IrqRole { Unknown, RxTx, Rx, Tx, Control };
const char* toString(IrqRole r);

struct IrqInfo {
    std::uint32_t irq = 0;
    std::optional<CpuMask> smpAffinity, effectiveAffinity, affinityHint;
    // Interfaces this IRQ serves (several when one frame engine serves many ports).
    std::vector<std::string> interfaces;
    Attribution attribution = Attribution::ActionName;
    IrqRole role = IrqRole::Unknown;
    std::optional<int> queue; // queue or vector index parsed from the action name
};

struct RxQueue {
    int index = 0;
    std::optional<CpuMask> rpsCpus;
    std::optional<std::uint64_t> rpsFlowCnt;
};

struct TxQueue {
    int index = 0;
    std::optional<CpuMask> xpsCpus;
};

// A kernel thread that does an interface's network work, on whichever CPUs it may run on:
//  - a threaded-NAPI thread ("napi/eth0-8193", "napi/mtk_eth-5", "napi/phy0-3"): the receive
//    work when /sys/class/net/<if>/threaded is 1 (mt76 makes its radio's own NAPI threaded);
//  - mt76's TX worker ("mt76-tx phy0"), which feeds the radio's transmit queues;
//  - a threaded IRQ's handler ("irq/35-eth0", on a threadirqs kernel), which the kernel moves
//    to the IRQ's own CPUs: pinning the IRQ pins it.
struct NapiThread {
    int pid = 0;
    std::string name;
    // Its device: the interface ("eth0"), a driver's own NAPI device that serves all of the
    // driver's interfaces ("mtk_eth"), or a radio ("phy0", for all of the radio's interfaces:
    // the thread is then in each of their lists). A threaded IRQ's: the IRQ number.
    std::string device;
    std::optional<CpuMask> cpusAllowed; // from /proc/<pid>/status
};

// The CPUs all of `threads` may use, when they agree; nullopt otherwise or without any.
std::optional<CpuMask> commonMask(const std::vector<NapiThread>& threads);

// Interrupt coalescing as `ethtool -c <if>` reports it (ethtool/<if>/coalesce in a bundle: run on
// the router, a capture of it in a fixture root). A parameter the driver does not take ("n/a")
// is absent.
struct Coalescing {
    std::optional<bool> adaptiveRx; // the driver picks rx-usecs itself (DIM)
    std::optional<std::uint32_t> rxUsecs, rxFrames;
    bool operator==(const Coalescing&) const = default;
};

// Channel (queue) counts as `ethtool -l <if>` reports them (ethtool/<if>/channels): the
// pre-set maximums and the current ones. A kind the driver does not have ("n/a") is absent.
struct Channels {
    struct Count {
        std::optional<std::uint32_t> max, current;
        bool operator==(const Count&) const = default;
    };
    Count rx, tx, other, combined;
    bool operator==(const Channels&) const = default;
    // The receive rings now: combined plus rx ones (nullopt when neither is known).
    std::optional<std::uint32_t> rxRings() const;
};

// The RSS indirection table as `ethtool -x <if>` reports it (ethtool/<if>/rxfh): entry i is the
// receive ring that flows hashing to i go to. Empty where the driver has none.
struct RssTable {
    std::uint32_t rings = 0; // "with N RX ring(s)"
    std::vector<std::uint32_t> table;
    bool operator==(const RssTable&) const = default;
};

struct NetInterface {
    std::string name;
    std::string driver;    // basename of device/driver
    std::string busDevice; // basename of device: "0002:21:00.0", "15100000.ethernet"
    std::string devicePath;
    std::optional<int> ifindex, iflink;
    // DSA user ports and VLANs: the interface iflink points to; a PPPoE session's interface
    // (pppoe-wan): the device its session runs over, from /proc/net/pppoe.
    std::string conduit;
    std::optional<int> type; // ARPHRD_* from sys/class/net/<if>/type: 1 Ethernet, 512 PPP
    std::string operstate;
    std::optional<int> mtu;
    std::optional<int> speedMbps; // link speed; unknown while the link is down
    std::optional<bool> threadedNapi;
    std::string wiphy; // a Wi-Fi interface's radio ("phy0", from its phy80211 link)
    // nullopt: not read (no ethtool on the router, or a capture without it); every part
    // absent: the driver takes no coalescing.
    std::optional<Coalescing> coalescing;
    // nullopt: not read; a Channels without a part: the driver reports no channels.
    std::optional<Channels> channels;
    // nullopt: not read; an empty table: the driver has no indirection table.
    std::optional<RssTable> rss;
    // The kind of its root qdisc ("mq", "cake", "fq_codel", "noqueue"), from `tc qdisc show`
    // (tc/qdisc) or else `ip link show` (ip/link); empty when unknown.
    std::string rootQdisc;
    std::vector<RxQueue> rx;
    std::vector<TxQueue> tx;
    std::vector<NapiThread> napi;       // by PID
    std::vector<NapiThread> txWorkers;  // mt76's "mt76-tx phyN" of its radio, by PID
    std::vector<NapiThread> irqThreads; // "irq/N-name" of its IRQs, by PID
    std::vector<std::uint32_t> irqs;    // sorted

    bool isVirtual() const { return busDevice.empty(); }
    // A PPP interface (pppoe-wan, pppoa-wan, pptp-vpn): its packets come back to the kernel
    // decapsulated (ppp_generic's netif_rx), so its own rps_cpus steers them a second time.
    bool isPpp() const { return type == 512; }
    // The CPUs its NAPI threads may use, when they all agree; nullopt otherwise or without any.
    std::optional<CpuMask> napiMask() const { return commonMask(napi); }
    std::optional<CpuMask> txWorkerMask() const { return commonMask(txWorkers); }
    // A Wi-Fi netdev (by driver, or by OpenWrt's and the kernel's naming).
    bool isWireless() const;
    // Its root qdisc has one child qdisc per TX queue (mq, cake_mq, mqprio, taprio): each queue
    // is then sent from on its own, without one lock for all of them.
    bool multiQueueQdisc() const;
};

struct Snapshot {
    std::string origin;
    SystemInfo system;
    Topology topology;
    InterruptTable interrupts;
    std::vector<IrqInfo> irqs; // every numbered IRQ of the table, in table order
    std::vector<NetInterface> interfaces;
    ProcStat stat;
    SoftirqTable softirqs;
    std::vector<NetDevCounters> netdev;
    std::optional<std::uint64_t> rpsSockFlowEntries;
    Diagnostics diagnostics;
    // The files it was built from, when the reader keeps them (the GUI does: a recording
    // starts with them).
    std::shared_ptr<const FileBundle> source;

    // By number and by name, through indexes that buildSnapshot builds. After `irqs` or
    // `interfaces` changed by hand, reindex(); until then (or without it) they search.
    const IrqInfo* irq(std::uint32_t n) const;
    const NetInterface* interface(std::string_view name) const;
    void reindex();
    // Exit-code style verdict: 0 complete, 1 partial (warnings), 2 unusable (no interrupts or
    // CPUs).
    int completeness() const;

private:
    // Positions in `irqs` and `interfaces`, and how many each had when indexed.
    std::unordered_map<std::uint32_t, std::size_t> m_irqIndex;
    std::unordered_map<std::string, std::size_t> m_interfaceIndex;
    std::size_t m_indexedIrqs = 0, m_indexedInterfaces = 0;
    bool m_indexed = false;
};

Snapshot buildSnapshot(const FileBundle& bundle);

} // namespace coresteer

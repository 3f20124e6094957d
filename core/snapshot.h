// Snapshot: everything coresteer knows about one router at one moment, as plain values.
#pragma once

#include "core/cpumask.h"
#include "core/diagnostics.h"
#include "core/interrupts.h"
#include "core/procstat.h"
#include "core/topology.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace coresteer {

class FileBundle;

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

    bool isOpenWrt() const { return !openwrtRelease.empty(); }
};

// How an IRQ was tied to an interface.
enum class Attribution { MsiIrqs, ActionName, BusDevice, DriverName };
const char* toString(Attribution a);

enum class IrqRole { Unknown, RxTx, Rx, Tx };
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

struct NetInterface {
    std::string name;
    std::string driver;    // basename of device/driver
    std::string busDevice; // basename of device: "0002:21:00.0", "15100000.ethernet"
    std::string devicePath;
    std::optional<int> ifindex, iflink;
    std::string conduit; // DSA user ports and VLANs: the interface iflink points to
    std::string operstate;
    std::optional<int> mtu;
    std::optional<int> speedMbps; // link speed; unknown while the link is down
    std::optional<bool> threadedNapi;
    std::vector<RxQueue> rx;
    std::vector<TxQueue> tx;
    std::vector<std::uint32_t> irqs; // sorted

    bool isVirtual() const { return busDevice.empty(); }
    // A Wi-Fi netdev (by driver, or by OpenWrt's and the kernel's naming).
    bool isWireless() const;
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

    const IrqInfo* irq(std::uint32_t n) const;
    const NetInterface* interface(std::string_view name) const;
    // Exit-code style verdict: 0 complete, 1 partial (warnings), 2 unusable (no interrupts or
    // CPUs).
    int completeness() const;
};

Snapshot buildSnapshot(const FileBundle& bundle);

} // namespace coresteer

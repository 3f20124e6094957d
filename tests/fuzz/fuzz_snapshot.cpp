// The whole root reader: a bundle of fuzzed files at the paths the collector reads, through
// buildSnapshot() and both printers.
#include "core/bundle.h"
#include "core/snapshot.h"
#include "core/snapshot_json.h"
#include "core/snapshot_text.h"

#include <fuzzer/FuzzedDataProvider.h>

using namespace coresteer;

namespace {

const char* const kPaths[] = {
    "proc/interrupts",
    "proc/stat",
    "proc/softirqs",
    "proc/net/dev",
    "proc/cpuinfo",
    "proc/sys/kernel/hostname",
    "proc/sys/kernel/osrelease",
    "proc/sys/net/core/rps_sock_flow_entries",
    "proc/irq/%/smp_affinity",
    "proc/irq/%/effective_affinity",
    "proc/irq/%/affinity_hint",
    "proc/%/comm",
    "sys/devices/system/cpu/online",
    "sys/devices/system/cpu/possible",
    "sys/devices/system/cpu/cpu%/cpu_capacity",
    "sys/devices/system/cpu/cpu%/cpufreq/cpuinfo_max_freq",
    "sys/devices/system/cpu/cpu%/topology/cluster_id",
    "sys/class/net/$/device",
    "sys/class/net/$/device/driver",
    "sys/class/net/$/device/msi_irqs",
    "sys/class/net/$/ifindex",
    "sys/class/net/$/iflink",
    "sys/class/net/$/threaded",
    "sys/class/net/$/queues",
    "sys/class/net/$/queues/rx-%/rps_cpus",
    "sys/class/net/$/queues/rx-%/rps_flow_cnt",
    "sys/class/net/$/queues/tx-%/xps_cpus",
    "sys/class/net",
    "proc",
    "tmp/sysinfo/board_name",
    "proc/device-tree/compatible",
    "etc/openwrt_release",
    "etc/os-release",
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    FuzzedDataProvider fdp(data, size);
    FileBundle bundle;
    bundle.origin = "fuzz";
    const int n = fdp.ConsumeIntegralInRange(0, 48);
    for (int i = 0; i < n && fdp.remaining_bytes() > 0; ++i) {
        std::string path = fdp.PickValueInArray(kPaths);
        const std::string number = std::to_string(fdp.ConsumeIntegralInRange(0, 300));
        const std::string name =
            fdp.ConsumeBool() ? "eth" + number : fdp.ConsumeRandomLengthString(12);
        // One pass each: the fuzzed name may itself contain '$' or '%'.
        for (auto p = path.find('%'); p != std::string::npos; p = path.find('%', p + number.size()))
            path.replace(p, 1, number);
        for (auto p = path.find('$'); p != std::string::npos; p = path.find('$', p + name.size()))
            path.replace(p, 1, name);
        const auto kind = fdp.PickValueInArray(
            {BundleEntry::Kind::File, BundleEntry::Kind::File, BundleEntry::Kind::File,
             BundleEntry::Kind::Link, BundleEntry::Kind::Dir, BundleEntry::Kind::Missing,
             BundleEntry::Kind::Unreadable, BundleEntry::Kind::TooLarge});
        bundle.add(path, {kind, fdp.ConsumeRandomLengthString(4096)});
    }
    const auto snap = buildSnapshot(bundle);
    (void)toJsonText(snap);
    (void)toText(snap);
    return 0;
}

// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The whole root reader: a bundle of fuzzed files at the paths the collector reads, through
// buildSnapshot() and both printers, and every JSON writer over what the router named: the
// snapshot, the plan, the current layout, the layout persisted on the router and a preset. Each
// document must parse as JSON, and a valid UTF-8 name must come back byte for byte.
#include "core/base/json_text.h"
#include "core/collect/bundle.h"
#include "core/layout/layout_json.h"
#include "core/layout/persist.h"
#include "core/layout/planner.h"
#include "core/layout/resolve.h"
#include "core/model/snapshot.h"
#include "core/model/snapshot_json.h"
#include "core/model/snapshot_text.h"

#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <cstdlib>

using namespace coresteer;
using namespace coresteer::layout;

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
    "proc/%/status",
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
    "sys/class/net/$/phy80211",
    "ethtool/$/coalesce",
    "ethtool/$/channels",
    "ethtool/$/rxfh",
    "tc/qdisc",
    "ip/link",
    "sys/class/net/$/type",
    "proc/net/pppoe",
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

// Whether `s` is UTF-8 as JSON takes it: no overlong forms, no surrogates, nothing past U+10FFFF.
bool isUtf8(std::string_view s) {
    for (std::size_t i = 0; i < s.size();) {
        const auto c = static_cast<unsigned char>(s[i]);
        const std::size_t n = c < 0x80                 ? 1
                              : c >= 0xc2 && c <= 0xdf ? 2
                              : c >= 0xe0 && c <= 0xef ? 3
                              : c >= 0xf0 && c <= 0xf4 ? 4
                                                       : 0;
        if (n == 0 || i + n > s.size())
            return false;
        unsigned cp = n == 1 ? c : c & (0x7f >> n);
        for (std::size_t k = 1; k < n; ++k) {
            const auto d = static_cast<unsigned char>(s[i + k]);
            if ((d & 0xc0) != 0x80)
                return false;
            cp = cp << 6 | (d & 0x3f);
        }
        if ((n == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
            (n == 4 && (cp < 0x10000 || cp > 0x10ffff)))
            return false;
        i += n;
    }
    return true;
}

nlohmann::json parsedOrAbort(const std::string& text) {
    try {
        return nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception&) {
        std::abort(); // a writer made something that is not JSON
    }
}

} // namespace

namespace {

Layout oneIrq(const IrqTarget& t) {
    Layout l;
    l.irqs.push_back(t);
    return l;
}

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
    parsedOrAbort(toJsonText(snap));
    (void)toText(snap);

    const auto planned = plan(snap);
    for (const auto& layout : {planned, currentLayout(snap)})
        parsedOrAbort(jsonText(toJson(layout)));
    // With a measured load of fuzzed rates: coalescing from whatever ethtool said.
    PlanGoal loaded;
    loaded.load.emplace();
    loaded.load->seconds = fdp.ConsumeFloatingPointInRange(0.0, 1e6);
    for (const auto& i : snap.irqs)
        loaded.load->irqs.push_back({i.irq, fdp.ConsumeFloatingPointInRange(0.0, 1e9),
                                     fdp.ConsumeIntegralInRange(-1, 300),
                                     fdp.ConsumeFloatingPointInRange(0.0, 1.0)});
    std::sort(loaded.load->irqs.begin(), loaded.load->irqs.end(),
              [](const IrqLoad& a, const IrqLoad& b) { return a.irq < b.irq; });
    for (const auto& nif : snap.interfaces)
        loaded.load->interfaces.push_back({nif.name, fdp.ConsumeFloatingPointInRange(0.0, 1e12)});
    const auto coalesced = plan(snap, loaded);
    parsedOrAbort(jsonText(toJson(coalesced)));
    (void)resolve(coalesced, snap);
    // Whatever table the router showed: its spread, when it has one, makes that table again, and
    // a layout of fuzzed counts and spreads resolves.
    Layout queues;
    for (const auto& nif : snap.interfaces) {
        if (nif.rss) {
            const auto spread = RssSpread::of(nif.rss->table, nif.rss->rings);
            if (spread && spread->tableFor(nif.rss->table.size(), nif.rss->rings) != nif.rss->table)
                std::abort();
        }
        InterfaceTarget t;
        t.interface = nif.name;
        t.channels.combined = fdp.ConsumeIntegralInRange<std::uint32_t>(1, 70);
        t.rss = RssSpread::parse(fdp.ConsumeRandomLengthString(24));
        queues.interfaces.push_back(t);
        queues.rx.push_back({nif.name, fdp.ConsumeIntegralInRange(0, 80), std::nullopt, 1u, ""});
    }
    (void)resolve(queues, snap);
    parsedOrAbort(jsonText(toJson(queues)));
    parsedOrAbort(persistedLayoutJson(planned, true));
    // The names the router gave, as a preset's fields: valid UTF-8 comes back as it was.
    Preset preset{snap.system.hostname, snap.system.boardName, {}, planned};
    for (const auto& [path, e] : bundle.entries())
        preset.note = e.data.substr(0, 256);
    const auto back = parsedOrAbort(jsonText(toJson(preset), -1));
    if (isUtf8(preset.note) && back.at("note").get<std::string>() != preset.note)
        std::abort();
    for (const auto& t : planned.irqs)
        if (isUtf8(t.irq.action) && parsedOrAbort(jsonText(toJson(oneIrq(t))))
                                            .at("irqs")
                                            .at(0)
                                            .at("action")
                                            .get<std::string>() != t.irq.action)
            std::abort();
    return 0;
}

// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/collect/bundle.h"

#include "core/base/text.h"
#include "core/collect/boot_scripts.h"

#include <algorithm>

namespace coresteer {

namespace {

// Configuration files hold secrets (PPPoE passwords and WireGuard keys in /etc/config/network,
// addresses and port forwards in the firewall's), and only a little of each matters here: the
// rest never enters a bundle, so no capture or recording carries it. A dropped line stays as an
// empty one, so that what is kept keeps its line number.

// The sections of UCI type `type` only (network: "globals", packet_steering; firewall:
// "defaults", flow offloading).
std::string uciSectionsOnly(std::string_view data, std::string_view type) {
    std::string out;
    bool keep = false;
    text::LineReader lines(data);
    std::string_view line;
    while (lines.next(line)) {
        const auto t = text::trim(line);
        if (text::startsWith(t, "config")) {
            text::Tokenizer tz(t);
            std::string_view kw, section;
            tz.next(kw);
            tz.next(section);
            if (section.size() >= 2 && (section.front() == '\'' || section.front() == '"') &&
                section.back() == section.front())
                section = section.substr(1, section.size() - 2);
            keep = kw == "config" && section == type;
        }
        if (keep)
            out += line;
        out += '\n';
    }
    return out;
}

// nftables: the flowtable blocks, and of each rule that adds flows to one only that it does
// (its addresses and ports stay behind).
std::string nftFlowtablesOnly(std::string_view data) {
    std::string out;
    bool inFlowtable = false;
    text::LineReader lines(data);
    std::string_view line;
    while (lines.next(line)) {
        const auto t = text::trim(line.substr(0, line.find('#')));
        if (text::startsWith(t, "flowtable "))
            inFlowtable = true;
        if (inFlowtable)
            out += line;
        else if (t.find("flow add @") != std::string_view::npos)
            out += "flow add @";
        else if (t.find("flow offload @") != std::string_view::npos)
            out += "flow offload @";
        if (inFlowtable && t == "}")
            inFlowtable = false;
        out += '\n';
    }
    return out;
}

} // namespace

bool FileBundle::add(std::string path, BundleEntry entry) {
    if (entry.kind == BundleEntry::Kind::File) {
        if (path == "etc/config/network")
            entry.data = uciSectionsOnly(entry.data, "globals");
        else if (path == "etc/config/firewall")
            entry.data = uciSectionsOnly(entry.data, "defaults");
        else if (path == "etc/nftables.conf")
            entry.data = nftFlowtablesOnly(entry.data);
        else if (path == "etc/rc.local" || text::startsWith(path, "etc/init.d/"))
            entry.data = bootScriptLinesOnly(entry.data);
    }
    if (m_truncated || m_entries.size() >= kMaxEntries ||
        m_bytes + entry.data.size() + path.size() > kMaxTotalBytes) {
        m_truncated = true;
        return false;
    }
    m_bytes += entry.data.size() + path.size();
    m_entries.insert_or_assign(std::move(path), std::move(entry));
    return true;
}

const BundleEntry* FileBundle::get(std::string_view path) const {
    const auto it = m_entries.find(path);
    return it == m_entries.end() ? nullptr : &it->second;
}

const std::string* FileBundle::file(std::string_view path) const {
    const auto* e = get(path);
    return e && e->kind == BundleEntry::Kind::File ? &e->data : nullptr;
}

const std::string* FileBundle::link(std::string_view path) const {
    const auto* e = get(path);
    return e && e->kind == BundleEntry::Kind::Link ? &e->data : nullptr;
}

std::vector<std::string> FileBundle::list(std::string_view path) const {
    std::vector<std::string> out;
    const auto* e = get(path);
    if (!e || e->kind != BundleEntry::Kind::Dir)
        return out;
    for (auto name : text::split(e->data, '\n'))
        if (!name.empty())
            out.emplace_back(name);
    return out;
}

bool matchComponent(std::string_view component, std::string_view name) {
    if (name.empty() || name == "." || name == ".." || name.find('/') != std::string_view::npos)
        return false;
    if (component.empty())
        return false;
    const char last = component.back();
    if (last != '*' && last != '#')
        return component == name;
    const auto prefix = component.substr(0, component.size() - 1);
    if (!text::startsWith(name, prefix))
        return false;
    const auto rest = name.substr(prefix.size());
    if (last == '*')
        return !(prefix.empty() && name.front() == '.') && (!prefix.empty() || !rest.empty());
    return !rest.empty() && std::all_of(rest.begin(), rest.end(), text::isDigit);
}

const std::vector<CollectPattern>& collectionSpec() {
    using K = BundleEntry::Kind;
    constexpr std::uint64_t big = 32ull << 20; // /proc tables: 256 CPUs x 4096 IRQs is ~12 MiB
    constexpr std::uint64_t attr = 64u << 10;  // sysfs attributes are at most a page or so
    static const std::vector<CollectPattern> spec = {
        {"proc/interrupts", K::File, big, true},
        {"proc/stat", K::File, big, true},
        {"proc/softirqs", K::File, big, true},
        {"proc/net/dev", K::File, big, true},
        {"proc/net/pppoe", K::File, attr, false}, // PPPoE sessions and their devices
        {"proc/cpuinfo", K::File, big, false},
        {"proc/sys/kernel/hostname", K::File, attr, true},
        {"proc/sys/kernel/osrelease", K::File, attr, true},
        {"proc/sys/net/core/rps_sock_flow_entries", K::File, attr, false},
        {"proc/irq/#/smp_affinity", K::File, attr, false},
        {"proc/irq/#/effective_affinity", K::File, attr, false},
        {"proc/irq/#/affinity_hint", K::File, attr, false},
        {"proc/#/comm", K::File, attr, false},
        // Network kernel threads (NapiThread): Cpus_allowed, and PPid to tell a kernel thread.
        {"proc/#/status", K::File, attr, false, "comm", {"napi/", "mt76-tx ", "irq/"}},
        {"proc/#/cmdline", K::File, attr, false, "comm", {"irqbalance"}}, // the IRQs it bans
        {"sys/devices/system/cpu/online", K::File, attr, true},
        {"sys/devices/system/cpu/possible", K::File, attr, false},
        {"sys/devices/system/cpu/present", K::File, attr, false},
        {"sys/devices/system/cpu/cpu#/online", K::File, attr, false},
        {"sys/devices/system/cpu/cpu#/cpu_capacity", K::File, attr, false},
        {"sys/devices/system/cpu/cpu#/cpufreq/cpuinfo_max_freq", K::File, attr, false},
        {"sys/devices/system/cpu/cpu#/topology/physical_package_id", K::File, attr, false},
        {"sys/devices/system/cpu/cpufreq/policy#/related_cpus", K::File, attr, false},
        {"sys/devices/system/cpu/cpufreq/policy#/scaling_governor", K::File, attr, false},
        {"sys/devices/system/cpu/cpufreq/policy#/scaling_available_governors", K::File, attr,
         false},
        {"sys/devices/system/cpu/cpufreq/policy#/scaling_min_freq", K::File, attr, false},
        {"sys/devices/system/cpu/cpufreq/policy#/scaling_max_freq", K::File, attr, false},
        {"sys/devices/system/cpu/cpufreq/policy#/scaling_cur_freq", K::File, attr, false},
        {"sys/devices/system/cpu/cpufreq/policy#/cpuinfo_min_freq", K::File, attr, false},
        {"sys/devices/system/cpu/cpufreq/policy#/cpuinfo_max_freq", K::File, attr, false},
        {"sys/devices/system/cpu/cpu#/topology/core_id", K::File, attr, false},
        {"sys/devices/system/cpu/cpu#/topology/cluster_id", K::File, attr, false},
        {"sys/class/net/*/device", K::Link, 0, false},
        {"sys/class/net/*/device/driver", K::Link, 0, false},
        {"sys/class/net/*/device/msi_irqs", K::Dir, 0, false},
        {"sys/class/net/*/ifindex", K::File, attr, false},
        {"sys/class/net/*/iflink", K::File, attr, false},
        {"sys/class/net/*/operstate", K::File, attr, false},
        {"sys/class/net/*/mtu", K::File, attr, false},
        {"sys/class/net/*/type", K::File, attr, false},
        {"sys/class/net/*/threaded", K::File, attr, false},
        {"sys/class/net/*/phy80211", K::Link, 0, false}, // a Wi-Fi interface's radio
        {"sys/class/net/*/speed", K::File, attr, false},
        {"sys/class/net/*/queues/rx-#/rps_cpus", K::File, attr, false},
        {"sys/class/net/*/queues/rx-#/rps_flow_cnt", K::File, attr, false},
        {"sys/class/net/*/queues/tx-#/xps_cpus", K::File, attr, false},
        // `ethtool -c`, `-l` and `-x <if>` of each device with a bus device, run by the
        // collector on the live root; under a fixture root, a capture of each.
        {"ethtool/*/coalesce", K::File, attr, false},
        {"ethtool/*/channels", K::File, attr, false},
        {"ethtool/*/rxfh", K::File, attr, false},
        // `tc qdisc show` (each interface's root qdisc), else `ip link show`: the same way.
        {"tc/qdisc", K::File, big, false},
        {"ip/link", K::File, big, false},
        {"tmp/sysinfo/board_name", K::File, attr, false},
        {"tmp/sysinfo/model", K::File, attr, false},
        {"proc/device-tree/compatible", K::File, attr, false},
        {"sys/class/dmi/id/sys_vendor", K::File, attr, false},
        {"sys/class/dmi/id/board_vendor", K::File, attr, false},
        {"sys/class/dmi/id/product_name", K::File, attr, false},
        {"sys/class/dmi/id/board_name", K::File, attr, false},
        {"proc/device-tree/model", K::File, attr, false},
        {"etc/openwrt_release", K::File, attr, false},
        {"etc/os-release", K::File, attr, false},
        // What else steers packets or moves IRQs, and what coresteer persisted (persist.h).
        {"etc/config/network", K::File, attr, false},
        {"etc/config/irqbalance", K::File, attr, false},
        {"etc/default/irqbalance", K::File, attr, false},
        {"lib/systemd/system/irqbalance.service", K::File, attr, false},
        {"usr/lib/systemd/system/irqbalance.service", K::File, attr, false},
        {"etc/config/firewall", K::File, attr, false},
        {"etc/nftables.conf", K::File, attr, false},
        {"etc/init.d", K::Dir, 0, false},
        {"etc/init.d/*", K::File, attr, false}, // boot scripts that write masks
        {"etc/rc.local", K::File, attr, false},
        {"etc/rc.d", K::Dir, 0, false},
        {"etc/hotplug.d", K::Dir, 0, false},
        {"etc/hotplug.d/net", K::Dir, 0, false},
        {"sbin", K::Dir, 0, false}, // what runs hotplug.d: hotplug-call, procd
        {"usr/libexec/platform/packet-steering.sh", K::File, attr, false},
        // The firmware's own steering: packet-steering.sh (23.05) or packet-steering.uc (24.10 on).
        {"usr/libexec/network", K::Dir, 0, false},
        {"run/systemd/system", K::Dir, 0, false},
        {"run/openrc", K::Dir, 0, false}, // OpenRC: its runlevels, local.d and device manager
        {"etc/runlevels/sysinit", K::Dir, 0, false},
        {"etc/runlevels/boot", K::Dir, 0, false},
        {"etc/runlevels/default", K::Dir, 0, false},
        {"etc/mdev.conf", K::File, attr, false},
        {"etc/systemd/system/multi-user.target.wants", K::Dir, 0, false},
        {"etc/sysupgrade.conf", K::File, attr, false},
        {"etc/coresteer/layout.json", K::File, 1u << 20, false},
        {"etc/coresteer/irqbalance.banned", K::File, attr, false},
        {"etc/coresteer/boot-links", K::File, attr, false},
        {"etc/coresteer/openrc-local", K::File, attr, false},
    };
    return spec;
}

std::string entryNameProblem(std::string_view name) {
    if (name.empty())
        return "an empty name";
    if (name == "." || name == "..")
        return "the name '" + std::string(name) + "'";
    if (name.find('\0') != std::string_view::npos)
        return "a name with a NUL byte";
    if (name.find('/') != std::string_view::npos)
        return "a name with a '/'";
    if (name.size() > kMaxNameBytes)
        return "a name longer than " + std::to_string(kMaxNameBytes) + " bytes";
    return {};
}

std::string entryPathProblem(std::string_view path) {
    if (path.empty())
        return "an empty path";
    if (path.front() == '/')
        return "an absolute path";
    if (path.size() > kMaxPathBytes)
        return "a path longer than " + std::to_string(kMaxPathBytes) + " bytes";
    for (auto name : text::split(path, '/'))
        if (auto p = entryNameProblem(name); !p.empty())
            return p + " in the path";
    return {};
}

std::string linkTargetProblem(std::string_view target) {
    if (target.empty())
        return "an empty link target";
    if (target.find('\0') != std::string_view::npos)
        return "a link target with a NUL byte";
    if (target.size() > kMaxPathBytes)
        return "a link target longer than " + std::to_string(kMaxPathBytes) + " bytes";
    return {};
}

} // namespace coresteer

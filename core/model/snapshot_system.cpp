// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/base/text.h"
#include "core/model/snapshot_detail.h"

#include <algorithm>

namespace coresteer::detail {

namespace {

std::optional<unsigned> parseHex(std::string_view s) {
    s = text::trim(s);
    if (s.substr(0, 2) == "0x" || s.substr(0, 2) == "0X")
        s.remove_prefix(2);
    if (s.empty() || s.size() > 7)
        return std::nullopt;
    unsigned v = 0;
    for (char c : s) {
        int d = c >= '0' && c <= '9'   ? c - '0'
                : c >= 'a' && c <= 'f' ? c - 'a' + 10
                : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                       : -1;
        if (d < 0)
            return std::nullopt;
        v = v * 16 + static_cast<unsigned>(d);
    }
    return v;
}

struct CpuInfoEntry {
    std::string name;
    int rank = 0;
};

// processor id -> core name, from /proc/cpuinfo (ARM "CPU part", x86 "model name", MIPS "cpu
// model").
std::map<int, CpuInfoEntry> parseCpuInfo(std::string_view data) {
    std::map<int, CpuInfoEntry> out;
    text::LineReader lines(data);
    std::string_view line;
    int current = -1;
    unsigned implementer = 0x41;
    std::string sharedModel; // MIPS prints "cpu model" once per processor, some ARM32 once
    while (lines.next(line)) {
        const auto colon = line.find(':');
        if (colon == std::string_view::npos)
            continue;
        const auto key = text::trim(line.substr(0, colon));
        const auto value = text::trim(line.substr(colon + 1));
        if (key == "processor") {
            const auto id = text::parseU64(value);
            current = id && *id < static_cast<std::uint64_t>(CpuMask::kMaxCpus)
                          ? static_cast<int>(*id)
                          : -1;
            if (current >= 0 && out.size() < static_cast<std::size_t>(CpuMask::kMaxCpus))
                out[current].name = sharedModel;
        } else if (key == "CPU implementer") {
            implementer = parseHex(value).value_or(0x41);
        } else if (key == "CPU part" && current >= 0 && out.count(current)) {
            if (const auto part = parseHex(value)) {
                const auto name = armCoreName(implementer, *part);
                if (!name.empty()) {
                    out[current].name = name;
                    out[current].rank = armCoreRank(implementer, *part);
                }
            }
        } else if (key == "model name" || key == "cpu model") {
            const std::string v = text::printable(value, 64);
            if (current >= 0 && out.count(current))
                out[current].name = v;
            else
                sharedModel = v;
        }
    }
    return out;
}

// x86 has no device tree: name the board from DMI as OpenWrt's 01_sysinfo does
// ("Supermicro SYS-620P-TRT" -> "supermicro-sys-620p-trt"), skipping firmware placeholders.
void dmiBoard(BundleReader& r, std::string& board, std::string& model) {
    auto first = [&](std::initializer_list<const char*> files) {
        for (const char* f : files) {
            auto v = r.line(std::string("sys/class/dmi/id/") + f).value_or("");
            if (!v.empty() && v != "empty" && v != "System manufacturer" &&
                v != "To be filled by O.E.M." && v != "System Product Name" &&
                v != "Default string")
                return text::printable(v, 64);
        }
        return std::string();
    };
    const auto vendor = first({"sys_vendor", "board_vendor"});
    const auto product = first({"product_name", "board_name"});
    if (vendor.empty() && product.empty())
        return;
    const std::string both = vendor.empty()    ? product
                             : product.empty() ? vendor
                                               : vendor + " " + product;
    if (model.empty())
        model = both;
    if (board.empty()) {
        for (char c : both) {
            const bool alnum = text::isDigit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
            if (alnum)
                board += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
            else if (!board.empty() && board.back() != '-')
                board += '-';
        }
        while (!board.empty() && board.back() == '-')
            board.pop_back();
    }
}

} // namespace

std::map<std::string, std::string> parseShellAssignments(std::string_view data, Diagnostics& diag,
                                                         const std::string& file) {
    std::map<std::string, std::string> out;
    text::LineReader lines(data);
    std::string_view line;
    while (lines.next(line) && out.size() < 256) {
        const auto t = text::trim(line);
        if (t.empty() || t[0] == '#')
            continue;
        const auto eq = t.find('=');
        if (eq == std::string_view::npos || eq == 0) {
            diag.warn(file, lines.lineNumber(), "expected KEY=value");
            continue;
        }
        auto value = t.substr(eq + 1);
        if (value.size() >= 2 && (value.front() == '\'' || value.front() == '"') &&
            value.back() == value.front())
            value = value.substr(1, value.size() - 2);
        out[std::string(t.substr(0, eq))] = text::printable(value, 200);
    }
    return out;
}

std::vector<std::string> uciValues(std::string_view data, std::string_view sectionType,
                                   std::string_view keyword, std::string_view name) {
    auto unquote = [](std::string_view v) {
        v = text::trim(v);
        if (v.size() >= 2 && (v.front() == '\'' || v.front() == '"') && v.back() == v.front())
            v = v.substr(1, v.size() - 2);
        return std::string(v);
    };
    std::vector<std::string> found;
    bool inSection = false;
    text::LineReader lines(data);
    std::string_view line;
    while (lines.next(line)) {
        text::Tokenizer tz(text::trim(line));
        std::string_view kw, key;
        if (!tz.next(kw))
            continue;
        if (kw == "config") {
            std::string_view type;
            tz.next(type);
            inSection = unquote(type) == sectionType;
        } else if (kw == keyword && inSection && tz.next(key) && unquote(key) == name) {
            found.push_back(unquote(tz.rest()));
        }
    }
    return found;
}

std::optional<std::string> uciOption(std::string_view data, std::string_view sectionType,
                                     std::string_view option) {
    auto all = uciValues(data, sectionType, "option", option);
    if (all.empty())
        return std::nullopt;
    return std::move(all.back()); // the last one wins, as in uci
}

namespace {

bool listed(const FileBundle& b, const std::string& dir, std::string_view name) {
    const auto names = b.list(dir);
    return std::find(names.begin(), names.end(), name) != names.end();
}

// Flow offloading from the firewall's defaults (OpenWrt) or an nftables flowtable.
Services::Offloading readOffloading(BundleReader& r) {
    Services::Offloading o;
    if (auto t = r.text("etc/config/firewall")) {
        o.software = uciOption(*t, "defaults", "flow_offloading") == "1";
        o.hardware = o.software && uciOption(*t, "defaults", "flow_offloading_hw") == "1";
        if (o.software) {
            // The line of the option that turns it on (the last one, as uci reads it).
            text::LineReader lines(*t);
            std::string_view line;
            while (lines.next(line))
                if (text::trim(line).find("flow_offloading") != std::string_view::npos &&
                    text::trim(line).find("flow_offloading_hw") == std::string_view::npos)
                    o.where = "/etc/config/firewall:" + std::to_string(lines.lineNumber());
            return o;
        }
    }
    if (auto t = r.text("etc/nftables.conf")) {
        text::LineReader lines(*t);
        std::string_view line;
        int at = 0;
        bool inFlowtable = false, used = false;
        while (lines.next(line)) {
            const auto s = text::trim(line.substr(0, line.find('#')));
            used = used || s.find("flow add @") != std::string_view::npos ||
                   s.find("flow offload @") != std::string_view::npos;
            if (text::startsWith(s, "flowtable ")) {
                inFlowtable = true;
                if (!at)
                    at = lines.lineNumber();
            } else if (inFlowtable && s.find("flags") != std::string_view::npos &&
                       s.find("offload") != std::string_view::npos) {
                o.hardware = true;
            } else if (s == "}") {
                inFlowtable = false;
            }
        }
        if (!used)
            o.hardware = false; // a flowtable that no rule adds flows to offloads nothing
        if (at && used) {
            o.software = true;
            o.where = "/etc/nftables.conf:" + std::to_string(at);
        }
    }
    return o;
}

Services readServices(BundleReader& r) {
    Services v;
    const auto& b = r.bundle();
    if (auto t = r.text("etc/config/network"))
        v.packetSteering = uciOption(*t, "globals", "packet_steering");
    v.packetSteeringService = listed(b, "etc/init.d", "packet_steering");
    for (const char* s : {"packet-steering.uc", "packet-steering.sh"})
        if (v.steeringScript.empty() && listed(b, "usr/libexec/network", s))
            v.steeringScript = s;
    if (auto t = r.text("usr/libexec/platform/packet-steering.sh")) {
        v.platformOverride = true;
        v.platformOverrideOurs = t->find(kPersistMarker) != std::string_view::npos;
    }
    v.netHotplug = b.list("etc/hotplug.d/net");
    if (const auto* d = b.get("etc/hotplug.d"); d && d->kind == BundleEntry::Kind::Dir)
        v.hotplugCaller = listed(b, "sbin", "hotplug-call") || listed(b, "sbin", "procd");
    v.offloading = readOffloading(r);
    v.irqbalanceInstalled = listed(b, "etc/init.d", "irqbalance");
    for (const auto& n : b.list("etc/rc.d"))
        if (n.size() > 3 && n[0] == 'S' && n.substr(3) == "irqbalance")
            v.irqbalanceEnabled = true;
    v.irqbalance = readIrqbalance(r);
    v.maskScripts = readMaskScripts(r);
    if (auto t = r.text("etc/config/irqbalance")) {
        v.irqbalanceInstalled = true;
        if (const auto e = uciOption(*t, "irqbalance", "enabled"); e && *e == "0")
            v.irqbalanceEnabled = false; // the init script does nothing while disabled
        else if (!v.irqbalanceEnabled)
            v.irqbalanceEnabled = false;
    }
    if (b.file("lib/systemd/system/irqbalance.service") ||
        b.file("usr/lib/systemd/system/irqbalance.service"))
        v.irqbalanceInstalled = true;
    if (listed(b, "etc/systemd/system/multi-user.target.wants", "irqbalance.service")) {
        v.irqbalanceInstalled = true;
        v.irqbalanceEnabled = true;
    }
    if (const auto* e = b.get("run/systemd/system"); e && e->kind == BundleEntry::Kind::Dir)
        v.systemd = true;
    if (const auto* e = b.get("run/openrc"); e && e->kind == BundleEntry::Kind::Dir)
        v.openrc = true;
    const bool localOurs = b.file("etc/coresteer/openrc-local") != nullptr;
    for (const char* level : {"sysinit", "boot", "default"}) {
        const std::string dir = std::string("etc/runlevels/") + level;
        if (listed(b, dir, "local") && !(localOurs && std::string_view(level) == "default"))
            v.openrcLocal = true;
        // Alpine's setup-devd enables one of mdev, mdevd (both read /etc/mdev.conf) or udev.
        if (listed(b, dir, "mdev") || listed(b, dir, "mdevd"))
            v.deviceManager = Services::DeviceManager::Mdev;
        else if (listed(b, dir, "udev") && v.deviceManager == Services::DeviceManager::None)
            v.deviceManager = Services::DeviceManager::Udev;
    }
    if (const auto* e = b.get("etc/mdev.conf"); e && e->kind == BundleEntry::Kind::File)
        v.mdevConf = true;
    if (const auto* e = b.get("etc/sysupgrade.conf"); e && e->kind == BundleEntry::Kind::File)
        v.sysupgradeConf = true;
    if (auto t = r.text("etc/coresteer/layout.json"))
        v.persistedLayout = std::string(*t);
    return v;
}

} // namespace

SystemInfo readSystemInfo(BundleReader& r) {
    SystemInfo s;
    auto& diag = r.diag();
    if (auto v = r.line("proc/sys/kernel/hostname"))
        s.hostname = text::printable(*v, 64);
    if (auto v = r.line("proc/sys/kernel/osrelease"))
        s.kernel = text::printable(*v, 128);
    if (auto dt = r.text("proc/device-tree/compatible")) {
        for (auto c : text::split(*dt, '\0'))
            if (!c.empty() && s.compatible.size() < 16)
                s.compatible.push_back(text::printable(c, 128));
    }
    if (auto v = r.line("tmp/sysinfo/board_name"); v && !v->empty())
        s.boardName = text::printable(*v, 128);
    else if (!s.compatible.empty())
        s.boardName = s.compatible.front();
    if (auto v = r.line("tmp/sysinfo/model"); v && !v->empty()) {
        s.model = text::printable(*v, 128);
    } else if (auto dt = r.text("proc/device-tree/model")) {
        s.model = text::printable(dt->substr(0, dt->find('\0')), 128);
    }
    dmiBoard(r, s.boardName, s.model);
    if (auto t = r.text("etc/openwrt_release")) {
        auto kv = parseShellAssignments(*t, diag, "etc/openwrt_release");
        s.openwrtRelease = kv["DISTRIB_RELEASE"];
        s.openwrtTarget = kv["DISTRIB_TARGET"];
        s.distribution = kv["DISTRIB_DESCRIPTION"];
        if (s.openwrtRelease.empty())
            diag.warn("etc/openwrt_release", 0, "no DISTRIB_RELEASE");
    }
    if (s.distribution.empty()) {
        if (auto t = r.text("etc/os-release")) {
            auto kv = parseShellAssignments(*t, diag, "etc/os-release");
            s.distribution = kv["PRETTY_NAME"];
        }
    }
    const auto procs = r.bundle().list("proc");
    bool sawComm = false;
    for (const auto& p : procs) {
        if (!std::all_of(p.begin(), p.end(), text::isDigit))
            continue;
        const auto* comm = r.bundle().file("proc/" + p + "/comm");
        if (!comm)
            continue;
        sawComm = true;
        if (text::trim(*comm) == "irqbalance") {
            s.irqbalanceRunning = true;
            break;
        }
    }
    if (sawComm && !s.irqbalanceRunning)
        s.irqbalanceRunning = false;
    s.services = readServices(r);
    return s;
}

Topology readTopology(BundleReader& r, const ProcStat& stat, const InterruptTable& irqs) {
    Topology t;
    auto& diag = r.diag();
    const std::string base = "sys/devices/system/cpu/";
    auto online = r.listMask(base + "online");
    if (!online) {
        CpuMask m;
        for (const auto& c : stat.cpus)
            m.set(c.cpu);
        if (m.none())
            for (int c : irqs.cpus)
                m.set(c);
        if (m.none())
            for (const auto& name : r.bundle().list("sys/devices/system/cpu"))
                if (matchComponent("cpu#", name))
                    m.set(static_cast<int>(text::parseU64(name.substr(3)).value_or(0)));
        if (!m.none())
            diag.warn(base + "online", 0,
                      "missing; online CPUs taken from " +
                          std::string(!stat.cpus.empty() ? "proc/stat" : "proc/interrupts"));
        online = m;
    }
    auto possible = r.listMask(base + "possible");
    if (!possible)
        possible = r.listMask(base + "present");
    if (!possible)
        possible = *online;
    t.online = *online;
    t.possible = *possible | *online;
    t.maskWidth = std::max(t.possible.highest() + 1, 1);
    t.online.setWidth(t.maskWidth);
    t.possible.setWidth(t.maskWidth);

    std::map<int, CpuInfoEntry> info;
    if (auto ci = r.text("proc/cpuinfo"))
        info = parseCpuInfo(*ci);

    for (int id : t.possible.cpus()) {
        CpuInfo c;
        c.id = id;
        c.online = t.online.test(id);
        const std::string dir = base + "cpu" + std::to_string(id) + "/";
        if (auto v = r.number(dir + "cpu_capacity", 1u << 20))
            c.capacity = static_cast<std::uint32_t>(*v);
        if (auto v = r.number(dir + "cpufreq/cpuinfo_max_freq", 100'000'000))
            c.maxFreqKHz = static_cast<std::uint32_t>(*v);
        auto id32 = [&](const std::string& f) -> std::optional<int> {
            const auto v = r.signedNumber(dir + "topology/" + f);
            if (!v || *v < 0 || *v >= 65535) // -1 and 65535 mean "not known"
                return std::nullopt;
            return static_cast<int>(*v);
        };
        c.packageId = id32("physical_package_id");
        c.coreId = id32("core_id");
        c.clusterId = id32("cluster_id");
        if (const auto it = info.find(id); it != info.end()) {
            c.uarch = it->second.name;
            c.uarchRank = it->second.rank;
        }
        t.cpus.push_back(std::move(c));
    }
    if (t.cpus.empty())
        diag.error(base + "online", 0, "no CPUs found");
    classifyCores(t);
    t.policies = readCpufreqPolicies(r, t.maskWidth);
    return t;
}

} // namespace coresteer::detail

// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// Internal pieces of buildSnapshot(), split by subject. Not part of the public API.
#pragma once

#include "core/collect/bundle_read.h"
#include "core/model/snapshot.h"

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace coresteer::detail {

SystemInfo readSystemInfo(BundleReader& r);
// The value of `option` in the sections of type `sectionType` of a UCI file ("globals",
// "packet_steering"); the last one wins, as in uci. nullopt when unset.
std::optional<std::string> uciOption(std::string_view data, std::string_view sectionType,
                                     std::string_view option);
// Every value of `keyword` ("option", "list") `name` in the sections of type `sectionType`.
std::vector<std::string> uciValues(std::string_view data, std::string_view sectionType,
                                   std::string_view keyword, std::string_view name);
// Init scripts and /etc/rc.local that write masks at boot (snapshot_scripts.cpp).
std::vector<Services::MaskScript> readMaskScripts(BundleReader& r);
// What irqbalance is told to leave alone (snapshot_irqbalance.cpp).
Services::IrqbalanceBans readIrqbalance(BundleReader& r);
// The cpufreq policies (snapshot_cpufreq.cpp), their CPU masks `width` wide.
std::vector<CpufreqPolicy> readCpufreqPolicies(BundleReader& r, int width);
Topology readTopology(BundleReader& r, const ProcStat& stat, const InterruptTable& irqs);
void readNetwork(BundleReader& r, Snapshot& snap);
// The device each PPPoE interface's session runs over, from /proc/net/pppoe, as its conduit
// (snapshot_upper.cpp).
void readPppoeSessions(BundleReader& r, Snapshot& snap);
// `ethtool -c` of one interface, from ethtool/<name>/coalesce (snapshot_coalesce.cpp).
std::optional<Coalescing> readCoalescing(BundleReader& r, const std::string& name);
// The same of the text itself; `file` names it in warnings.
Coalescing parseCoalescing(std::string_view text, Diagnostics& diag, const std::string& file);
// ethtool/<name>/<what> (a command's answer the collector framed, or a capture): nullopt where
// it was not read, T{} where ethtool said the driver has no such thing ("Operation not
// supported"), else what `parse` makes of its text.
template <typename T, typename Parse>
std::optional<T> readEthtool(BundleReader& r, const std::string& name, const char* what,
                             Parse parse) {
    const std::string path = "ethtool/" + name + "/" + what;
    const auto* e = r.bundle().get(path);
    if (!e)
        return std::nullopt;
    if (e->kind == BundleEntry::Kind::Unreadable &&
        e->data.find("Operation not supported") != std::string::npos)
        return T{};
    const auto t = r.text(path);
    if (!t)
        return std::nullopt;
    return parse(*t, r.diag(), path);
}
// `ethtool -l` and `ethtool -x` of one interface, from ethtool/<name>/channels and
// ethtool/<name>/rxfh (snapshot_rss.cpp).
std::optional<Channels> readChannels(BundleReader& r, const std::string& name);
std::optional<RssTable> readRssTable(BundleReader& r, const std::string& name);
Channels parseChannels(std::string_view text, Diagnostics& diag, const std::string& file);
RssTable parseRssTable(std::string_view text, Diagnostics& diag, const std::string& file);
// Each interface's root qdisc, from tc/qdisc (`tc qdisc show`) or ip/link (`ip link show`).
void readRootQdiscs(BundleReader& r, Snapshot& snap);

// KEY='value' lines as in /etc/openwrt_release and /etc/os-release.
std::map<std::string, std::string> parseShellAssignments(std::string_view data, Diagnostics& diag,
                                                         const std::string& file);

} // namespace coresteer::detail

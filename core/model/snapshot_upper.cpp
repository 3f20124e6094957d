// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// Upper devices that carry a router's traffic without a bus device of their own. A PPPoE WAN is
// the interface pppd names "pppoe-<interface>" (OpenWrt's ppp.sh: `ifname "${proto}-${config}"`),
// of type 512 (ARPHRD_PPP); its session runs over the device /proc/net/pppoe lists for it, one
// line a session: "Id Address Device" (the kernel's pppoe_seq_show: session id in hex, the peer's
// MAC, the device name).
#include "core/base/text.h"
#include "core/model/snapshot_detail.h"

#include <set>

namespace coresteer::detail {

void readPppoeSessions(BundleReader& r, Snapshot& snap) {
    const auto text = r.text("proc/net/pppoe");
    if (!text)
        return;
    std::set<std::string> devices;
    int lineNo = 0;
    for (const auto raw : text::split(*text, '\n')) {
        ++lineNo;
        const auto line = text::trim(raw);
        if (line.empty() || lineNo == 1)
            continue; // the header
        std::vector<std::string_view> fields;
        for (const auto f : text::split(line, ' '))
            if (!f.empty())
                fields.push_back(f);
        if (fields.size() != 3 || fields[1].size() != 17) {
            r.diag().warn("proc/net/pppoe", lineNo,
                          "not a session line ('" + text::printable(line, 60) + "')");
            continue;
        }
        if (!snap.interface(fields[2])) {
            r.diag().warn("proc/net/pppoe", lineNo,
                          "a session over '" + text::printable(fields[2], 40) +
                              "', which is no interface here");
            continue;
        }
        devices.insert(std::string(fields[2]));
    }
    // The kernel does not say which ppp unit a session is; with all of them over one device,
    // that device carries every PPPoE interface.
    if (devices.size() != 1)
        return;
    for (auto& nif : snap.interfaces)
        if (nif.isPpp() && text::startsWith(nif.name, "pppoe-") && nif.conduit.empty())
            nif.conduit = *devices.begin();
}

} // namespace coresteer::detail

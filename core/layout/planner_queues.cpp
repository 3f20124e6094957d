// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The planner's queue step: how many queues a multi-queue NIC runs (ethtool -L) and how its RSS
// indirection table spreads flows over them (ethtool -X). A NIC spreads received flows over
// its rings only as far as both allow: a driver that starts with fewer channels than it has
// (some start with one), or a table an owner narrowed, leaves cores without a queue of their
// own.
#include "core/layout/planner.h"
#include "core/layout/resolve.h"

#include <algorithm>
#include <set>

namespace coresteer::layout {

void planQueues(const Snapshot& snap, Layout& layout) {
    const auto online = static_cast<std::uint32_t>(snap.topology.online.count());
    for (const auto& nif : snap.interfaces) {
        if (nif.isVirtual() || !nif.channels || !validInterfaceName(nif.name))
            continue;
        const auto& combined = nif.channels->combined;
        std::uint32_t rings = nif.channels->rxRings().value_or(0);
        if (combined.max && combined.current && *combined.max > 1 && online > 1) {
            const auto want = std::min(*combined.max, online);
            if (*combined.current < want) {
                auto& t = targetFor(layout, nif.name);
                t.channels.combined = want;
                rings += want - *combined.current;
                t.why += std::string(t.why.empty() ? "" : " ") + nif.name + " runs " +
                         std::to_string(*combined.current) + " of its " +
                         std::to_string(*combined.max) + " queue pairs: " + std::to_string(want) +
                         " give each core a receive queue of its own to spread flows over "
                         "(ethtool -L). Their interrupts and masks are the new queues': "
                         "Recommend again once this is applied.";
            }
        }
        if (!nif.rss || nif.rss->table.empty() || rings < 2)
            continue;
        const std::set<std::uint32_t> used(nif.rss->table.begin(), nif.rss->table.end());
        const auto spread = RssSpread::of(nif.rss->table, nif.rss->rings);
        if (used.size() >= rings || (spread && spread->isDefault()))
            continue;
        auto& t = targetFor(layout, nif.name);
        t.rss = RssSpread{};
        t.why += std::string(t.why.empty() ? "" : " ") + nif.name +
                 "'s indirection table sends flows to " + std::to_string(used.size()) + " of its " +
                 std::to_string(rings) + " receive rings (" +
                 (spread ? spread->toString() : std::string("a table of its own")) +
                 "): its default spread uses every ring (ethtool -X default).";
    }
}

} // namespace coresteer::layout

// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// A layout against one router's snapshot: the exact files to write, with their current values,
// and what cannot apply there.
#pragma once

#include "core/layout/layout.h"
#include "core/model/snapshot.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace coresteer::layout {

struct Write {
    enum class Kind {
        IrqAffinity,
        RpsCpus,
        RpsFlowCnt,
        XpsCpus,
        RpsSockFlowEntries,
        NapiAffinity, // path "napi:<pid>": taskset -p on the live root only
        RxUsecs,      // path "ethtool:<if>:rx-usecs": ethtool -C on the live root only
        RxFrames,     // path "ethtool:<if>:rx-frames": the same
        Governor,     // sys/devices/system/cpu/cpufreq/policyN/scaling_governor: a name
        Threaded,     // sys/class/net/<if>/threaded: 1 or 0
        // "ethtool:<if>:channels-combined" (-rx, -tx): ethtool -L, on the live root only.
        Channels,
        // "ethtool:<if>:rss": ethtool -X with "default", "equal N" or "weight W0 W1 ...", in
        // the one form that gives the table (RssSpread::of), on the live root only.
        Rss,
    };
    Kind kind;
    std::string target; // "IRQ 96 (eth1)", "eth1 rx-0 rps_cpus"
    // Relative to the root: "proc/irq/96/smp_affinity"; or a command target (see Kind).
    std::string path;
    std::string value;   // text to write: "40", "4096"
    std::string current; // as read in the snapshot; empty when unknown
    std::string why;

    bool changes() const; // the current value is not the one to write
    // Two values of this target alike: masks as CPU sets, numbers as numbers, names as text.
    bool same(const std::string& a, const std::string& b) const;
    bool isNumber() const {
        return kind == Kind::RpsFlowCnt || kind == Kind::RpsSockFlowEntries ||
               kind == Kind::RxUsecs || kind == Kind::RxFrames || kind == Kind::Threaded ||
               kind == Kind::Channels;
    }
    bool isCommand() const {
        return kind == Kind::NapiAffinity || kind == Kind::RxUsecs || kind == Kind::RxFrames ||
               kind == Kind::Channels || kind == Kind::Rss;
    }
};

struct NotApplicable {
    std::string target;
    std::string reason;
};

struct Resolution {
    std::vector<Write> writes;
    std::vector<NotApplicable> skipped;

    std::size_t changeCount() const;
};

// IRQs by first action name, each name's IRQs in hwirq order: built once per snapshot, for
// code that looks up many selectors (resolve, the planner).
class IrqNames {
public:
    explicit IrqNames(const Snapshot& snap);
    std::optional<std::uint32_t> find(const IrqSelector& sel) const;
    std::optional<IrqSelector> selectorOf(std::uint32_t irq) const;

private:
    std::map<std::string, std::vector<std::uint32_t>> m_byAction;
    std::map<std::uint32_t, IrqSelector> m_byIrq;
};

// IRQ number of a selector on this snapshot, or nullopt.
std::optional<std::uint32_t> findIrq(const Snapshot& snap, const IrqSelector& sel);
// The selector that names `irq` on this snapshot (its first action name and rank).
std::optional<IrqSelector> selectorOf(const Snapshot& snap, std::uint32_t irq);

Resolution resolve(const Layout& layout, const Snapshot& snap);
// The same, with the snapshot's IRQ names already indexed (for many small layouts).
Resolution resolve(const Layout& layout, const Snapshot& snap, const IrqNames& names);

// A kernel interface name as dev_valid_name() accepts it: 1-15 bytes, no '/', ':' or white
// space, not "." or "..". Names that fail it are never written to.
bool validInterfaceName(std::string_view name);

// What the router has now, as a layout over the same targets as `layout` (for revert and diff).
Layout currentLayout(const Snapshot& snap, const Layout& layout);
// What the router has now for every network IRQ and queue (for `preset save`).
Layout currentLayout(const Snapshot& snap);

} // namespace coresteer::layout

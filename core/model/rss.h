// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// RssSpread: how a NIC's RSS indirection table spreads flows over its receive rings, in the
// forms `ethtool -X` takes. Read from a snapshot, written by a layout.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace coresteer {

// An RSS spread as ethtool sets one: `ethtool -X <if> default`, `equal N` (entry i to ring
// i % N) or `weight W0 W1 ...` (entries in contiguous runs, ring j's share W_j / sum).
struct RssSpread {
    std::uint32_t equal = 0;            // N of `equal N`; 0: not this form
    std::vector<std::uint32_t> weights; // `weight ...`; empty: not this form
    bool isDefault() const { return equal == 0 && weights.empty(); }
    bool operator==(const RssSpread&) const = default;
    // As ethtool's arguments: "default", "equal 4", "weight 1 1 2 2".
    std::string toString() const;
    // The same text back; nullopt for anything else (or out of range: N and weights up to
    // 65535, at most 4096 weights, a weight sum above 0).
    static std::optional<RssSpread> parse(std::string_view text);
    // The table ethtool writes for it over `size` entries; `rings` is the ring count that
    // `default` spreads over (i % rings). Empty for weights ethtool refuses (a sum of 0, or
    // above `size`).
    std::vector<std::uint32_t> tableFor(std::size_t size, std::uint32_t rings) const;
    // The spread that makes `table` (default where it is i % rings, else equal N, else weights
    // for its contiguous runs: the runs' lengths over the shortest one's, rounded, times 1 to
    // 64, else over their common divisor, else the lengths); nullopt where none of ethtool's
    // forms gives exactly this table, so no spread can put it back.
    static std::optional<RssSpread> of(const std::vector<std::uint32_t>& table,
                                       std::uint32_t rings);
};

} // namespace coresteer

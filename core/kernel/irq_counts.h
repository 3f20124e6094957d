// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The counts of one /proc/interrupts row, one per CPU column.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>

namespace coresteer {

// The rows of a parsed table keep their counts in a few blocks shared by the whole table: one
// allocation per block, not one per row (a 256-CPU table of 4 096 IRQs is 8 MB of counts, and
// 4 096 allocations of 2 KB cost the parse a sixth of its time). A copy shares its run as well;
// the first write to a run that is shared copies the run first (copy on write), so no row ever
// sees another's writes, and the counts stay valid for as long as a row holds them.
class IrqCounts {
public:
    using value_type = std::uint64_t;
    using const_iterator = const std::uint64_t*;
    using iterator = const_iterator; // read-only: write with set() or mutableData()

    IrqCounts() = default;
    IrqCounts(std::initializer_list<std::uint64_t> values);
    // `n` counts of `value`.
    explicit IrqCounts(std::size_t n, std::uint64_t value = 0);
    // `n` counts of `block` from `offset` on, shared with whoever else holds the block.
    IrqCounts(const std::shared_ptr<std::uint64_t[]>& block, std::size_t offset, std::size_t n);
    // `n` counts left uninitialised, for a parser that writes every one.
    static IrqCounts uninitialised(std::size_t n);

    std::size_t size() const { return m_size; }
    bool empty() const { return m_size == 0; }
    const std::uint64_t* data() const { return m_data.get(); }
    const_iterator begin() const { return data(); }
    const_iterator end() const { return data() + m_size; }
    std::uint64_t operator[](std::size_t i) const { return m_data.get()[i]; }

    // Writable counts: the run is copied first when anyone else holds it.
    std::uint64_t* mutableData();
    void set(std::size_t i, std::uint64_t value) { mutableData()[i] = value; }
    void assign(std::size_t n, std::uint64_t value);

    bool operator==(const IrqCounts& o) const {
        return std::equal(begin(), end(), o.begin(), o.end());
    }

private:
    std::shared_ptr<std::uint64_t> m_data; // shares ownership of its block, points at the run
    std::size_t m_size = 0;
};

} // namespace coresteer

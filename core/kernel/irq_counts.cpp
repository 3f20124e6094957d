// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/kernel/irq_counts.h"

namespace coresteer {

IrqCounts::IrqCounts(std::initializer_list<std::uint64_t> values)
    : IrqCounts(uninitialised(values.size())) {
    std::copy(values.begin(), values.end(), m_data.get());
}

IrqCounts::IrqCounts(std::size_t n, std::uint64_t value) : IrqCounts(uninitialised(n)) {
    std::fill_n(m_data.get(), n, value);
}

IrqCounts::IrqCounts(const std::shared_ptr<std::uint64_t[]>& block, std::size_t offset,
                     std::size_t n)
    : m_data(block, block.get() + offset), m_size(n) {}

IrqCounts IrqCounts::uninitialised(std::size_t n) {
    IrqCounts c;
    if (n) {
        std::shared_ptr<std::uint64_t[]> block = std::make_shared_for_overwrite<std::uint64_t[]>(n);
        c = IrqCounts(block, 0, n);
    }
    return c;
}

std::uint64_t* IrqCounts::mutableData() {
    if (m_data && m_data.use_count() > 1) {
        IrqCounts own = uninitialised(m_size);
        std::copy(begin(), end(), own.m_data.get());
        *this = std::move(own);
    }
    return m_data.get();
}

void IrqCounts::assign(std::size_t n, std::uint64_t value) {
    *this = IrqCounts(n, value);
}

} // namespace coresteer

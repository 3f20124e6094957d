// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The rows of /proc/interrupts, one at a time: what the table reader (interrupts_read.cpp) takes
// from the row reader (interrupts.cpp). Internal to the parser.
#pragma once

#include "core/base/diagnostics.h"
#include "core/kernel/interrupts.h"
#include "core/kernel/interrupts_fixed.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace coresteer::detail {

bool allDigits(std::string_view s);

// Runs of `ncol` counts for the rows of one table, from blocks the rows share (see IrqCounts):
// a block for as many rows as the table is expected to have, at most 16 MB, then more blocks
// as needed. A run is the parser's to write until the row is read.
class CountBlocks {
public:
    CountBlocks(std::size_t ncol, std::size_t expectedRows)
        : m_ncol(ncol),
          m_rowsPerBlock(std::clamp<std::size_t>(
              expectedRows, 1,
              std::max<std::size_t>(kBlockCounts / std::max<std::size_t>(ncol, 1), 1))) {}

    // Gives `counts` the next run and returns where to write it.
    std::uint64_t* next(IrqCounts& counts) {
        if (m_used == m_end) {
            m_block = std::make_shared_for_overwrite<std::uint64_t[]>(m_rowsPerBlock * m_ncol);
            m_used = 0;
            m_end = m_rowsPerBlock;
        }
        const std::size_t offset = m_used++ * m_ncol;
        counts = IrqCounts(m_block, offset, m_ncol);
        return m_block.get() + offset;
    }

    // Blocks of their own for rows read by another thread, for about half of the rows still
    // expected; this one keeps the other half of its block. The two never share a block, so
    // their rows never count references to the same one from two CPUs at once.
    CountBlocks upperHalf() {
        CountBlocks other(m_ncol, std::max<std::size_t>((m_end - m_used) / 2, 1));
        m_end = m_used + (m_end - m_used + 1) / 2;
        return other;
    }

private:
    static constexpr std::size_t kBlockCounts = std::size_t{1} << 21;
    std::size_t m_ncol;
    std::size_t m_rowsPerBlock;
    std::size_t m_used = 0, m_end = 0; // the runs of m_block still free
    std::shared_ptr<std::uint64_t[]> m_block;
};

// The label of a row ("35", "NMI", "IPI0") before its colon, or nullopt with a warning.
std::optional<std::string_view> rowLabel(std::string_view trimmed, Diagnostics& diag,
                                         const std::string& file, int lineNo);

// The row of `label` whose text after the colon is `body`, in a table of `ncol` columns; false
// (with a warning) when the IRQ number is out of range. The counts go to `counts` (row.counts'
// run, handed out by CountBlocks), or to counts of the row's own when it is null. The first
// `preRead` of them are there already (leadingCounts read them), ending at body[11 * preRead].
bool fillRow(std::string_view label, std::string_view body, std::size_t ncol, FixedCounts fixed,
             std::uint64_t* counts, std::size_t preRead, IrqRow& row, Diagnostics& diag,
             const std::string& file, int lineNo);

// The counts of the line that starts at data[start], read in bulk before the line's end is
// known (finding it first would cost a pass over the whole line): a label of label characters
// after at most 32 blanks, its colon, then counts as readFixedCounts reads them, into
// row.counts, a run of `blocks` (also in *counts). Returns how many it read (0 when the line does
// not start so; the line is then read the ordinary way) and in *end where they end. Counts never
// span lines: a field is a blank, blanks and digits, and white space, and a newline is none of
// these.
std::size_t leadingCounts(std::string_view data, std::size_t start, std::size_t ncol,
                          FixedCounts fixed, CountBlocks& blocks, IrqRow& row,
                          std::uint64_t*& counts, std::size_t& end);

} // namespace coresteer::detail

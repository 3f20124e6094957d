// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// Reading the count columns of /proc/interrupts in the layout the kernel prints them: a blank
// and ten columns per count, right-aligned (" %10u"; older kernels print "NN: " and "%10u ",
// which is the same bytes). Internal to the /proc/interrupts parser; tests and the fuzz target
// use it to check that every way of reading gives the table the token reader gives.
#pragma once

#include "core/kernel/interrupts.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace coresteer::detail {

enum class FixedCounts {
    None,  // no fast path: every count goes through the token reader
    Words, // one count at a time, in eight-byte words (any little-endian CPU)
    Avx2,  // two counts at a time in AVX2 registers (x86-64 CPUs that have AVX2)
};

// The fastest way this CPU has.
FixedCounts bestFixedCounts();
bool fixedCountsAvailable(FixedCounts how);

// Reads counts laid out as the kernel prints them from d[pos] on, at most `max` of them, into
// out[0..]: count k occupies d[pos + 11k .. pos + 11k + 10], blanks then at least one digit,
// and the byte after it is a blank. Stops at the first count that is laid out otherwise (a
// wider number, a tab, the chip name) or that would need a byte at or past `n`, and returns
// how many it read: the token reader reads exactly these values there and ends at
// pos + 11 * (the number returned).
std::size_t readFixedCounts(FixedCounts how, const char* d, std::size_t n, std::size_t pos,
                            std::uint64_t* out, std::size_t max);

// A table with at least this many bytes after its first row, of rows at least kParallelRowBytes
// long, is read in two halves at once, the second on a thread of its own (where the machine has
// two CPUs or more). Narrower rows are not worth it: their time goes to the work of each row,
// which the second half's merge does again (80 000 rows of 4 CPUs took 50 ms on one thread and
// 54 to 69 ms in two halves), not to their counts.
inline constexpr std::size_t kParallelFrom = std::size_t{4} << 20;
inline constexpr std::size_t kParallelRowBytes = 256;

// parseInterrupts with the counts read `how`, or the best way when this CPU has not that one
// (parseInterrupts itself takes the best), in two halves from `parallelFrom` bytes on where the
// first row is at least `parallelRowBytes` long (tests give 1 and 0 to have every table of two
// lines or more read so), keeping at most `maxRows` rows (tests give fewer than kMaxRows).
// readFixedCounts must be asked only what fixedCountsAvailable() says the CPU has.
InterruptTable parseInterrupts(std::string_view data, Diagnostics& diag, const std::string& file,
                               int cpuCountHint, FixedCounts how,
                               std::size_t parallelFrom = kParallelFrom,
                               std::size_t maxRows = InterruptTable::kMaxRows,
                               std::size_t parallelRowBytes = kParallelRowBytes);

} // namespace coresteer::detail

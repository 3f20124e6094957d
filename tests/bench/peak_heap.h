// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// Peak heap use of a piece of code, for benchmarks that state a memory target: a program that
// links peak_heap.cpp counts its live heap bytes (malloc_usable_size) while counting is on.
// Counting is off outside peakBytesDuring, so timed loops pay one predictable branch per
// allocation.
#pragma once

#include <cstddef>

namespace coresteer::bench {

void startCountingHeap();
std::size_t stopCountingHeap(); // the peak since startCountingHeap()

// Heap bytes allocated by `fn` at its peak, above what was live when it started.
template <class Fn> std::size_t peakBytesDuring(Fn&& fn) {
    startCountingHeap();
    fn();
    return stopCountingHeap();
}

} // namespace coresteer::bench

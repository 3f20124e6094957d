// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The counting global allocator of peak_heap.h: every operator new and delete of the program
// goes through it.
#include "tests/bench/peak_heap.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <new>

#include <malloc.h>

// ---------------------------------------------------------------------------------------------
// Counting global allocator: current and peak live heap bytes (malloc_usable_size).

namespace {

// Counting is on only around the untimed measurement parse, so the timed loops pay one
// predictable branch per allocation. Blocks allocated before counting started and freed
// during it only lower `g_liveBytes`; nothing counts blocks freed after it stopped.
std::atomic<bool> g_counting{false};
std::atomic<std::int64_t> g_liveBytes{0};
std::atomic<std::int64_t> g_peakBytes{0};

void noteAlloc(void* p) {
    if (!p || !g_counting.load(std::memory_order_relaxed))
        return;
    const auto n = static_cast<std::int64_t>(malloc_usable_size(p));
    const std::int64_t now = g_liveBytes.fetch_add(n, std::memory_order_relaxed) + n;
    std::int64_t peak = g_peakBytes.load(std::memory_order_relaxed);
    while (now > peak && !g_peakBytes.compare_exchange_weak(peak, now, std::memory_order_relaxed)) {
    }
}

void noteFree(void* p) {
    if (p && g_counting.load(std::memory_order_relaxed))
        g_liveBytes.fetch_sub(static_cast<std::int64_t>(malloc_usable_size(p)),
                              std::memory_order_relaxed);
}

void* countedMalloc(std::size_t n) noexcept {
    void* p = std::malloc(n ? n : 1);
    noteAlloc(p);
    return p;
}

void* countedAligned(std::size_t n, std::align_val_t al) noexcept {
    const std::size_t a = std::max(static_cast<std::size_t>(al), sizeof(void*));
    void* p = nullptr;
    if (posix_memalign(&p, a, n ? n : 1) != 0)
        return nullptr;
    noteAlloc(p);
    return p;
}

void countedFree(void* p) noexcept {
    noteFree(p);
    std::free(p);
}

void* throwingMalloc(std::size_t n) {
    if (void* p = countedMalloc(n))
        return p;
    throw std::bad_alloc();
}

void* throwingAligned(std::size_t n, std::align_val_t al) {
    if (void* p = countedAligned(n, al))
        return p;
    throw std::bad_alloc();
}

} // namespace

namespace coresteer::bench {

void startCountingHeap() {
    g_liveBytes.store(0, std::memory_order_relaxed);
    g_peakBytes.store(0, std::memory_order_relaxed);
    g_counting.store(true, std::memory_order_relaxed);
}

std::size_t stopCountingHeap() {
    g_counting.store(false, std::memory_order_relaxed);
    return static_cast<std::size_t>(g_peakBytes.load(std::memory_order_relaxed));
}

} // namespace coresteer::bench

void* operator new(std::size_t n) {
    return throwingMalloc(n);
}
void* operator new[](std::size_t n) {
    return throwingMalloc(n);
}
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
    return countedMalloc(n);
}
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept {
    return countedMalloc(n);
}
void* operator new(std::size_t n, std::align_val_t al) {
    return throwingAligned(n, al);
}
void* operator new[](std::size_t n, std::align_val_t al) {
    return throwingAligned(n, al);
}
void* operator new(std::size_t n, std::align_val_t al, const std::nothrow_t&) noexcept {
    return countedAligned(n, al);
}
void* operator new[](std::size_t n, std::align_val_t al, const std::nothrow_t&) noexcept {
    return countedAligned(n, al);
}
void operator delete(void* p) noexcept {
    countedFree(p);
}
void operator delete[](void* p) noexcept {
    countedFree(p);
}
void operator delete(void* p, std::size_t) noexcept {
    countedFree(p);
}
void operator delete[](void* p, std::size_t) noexcept {
    countedFree(p);
}
void operator delete(void* p, const std::nothrow_t&) noexcept {
    countedFree(p);
}
void operator delete[](void* p, const std::nothrow_t&) noexcept {
    countedFree(p);
}
void operator delete(void* p, std::align_val_t) noexcept {
    countedFree(p);
}
void operator delete[](void* p, std::align_val_t) noexcept {
    countedFree(p);
}
void operator delete(void* p, std::size_t, std::align_val_t) noexcept {
    countedFree(p);
}
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept {
    countedFree(p);
}
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept {
    countedFree(p);
}
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept {
    countedFree(p);
}

// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// Eight bytes at a time in a 64-bit word (SWAR) for the text parsers' hot loops. Bytes at lower
// addresses are the low bytes of the word, so these hold on little-endian machines only
// (kLittleEndian); callers keep a byte-wise path for the others.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>

namespace coresteer::swar {

inline constexpr bool kLittleEndian = std::endian::native == std::endian::little;
inline constexpr std::uint64_t kBytes01 = 0x0101010101010101ULL;
inline constexpr std::uint64_t kHigh = 0x80 * kBytes01;

inline std::uint64_t load8(const char* p) {
    std::uint64_t w;
    std::memcpy(&w, p, sizeof w);
    return w;
}

// The high bit of every byte of `x` that is not zero, exactly (no carry between bytes).
inline std::uint64_t nonZeroBytes(std::uint64_t x) {
    constexpr std::uint64_t k7f = 0x7f * kBytes01;
    return (((x & k7f) + k7f) | x) & kHigh;
}

// The high bit of every byte of `w` that is not an ASCII digit.
inline std::uint64_t nonDigitBytes(std::uint64_t w) {
    const std::uint64_t d = w ^ ('0' * kBytes01); // digits become 0..9
    return nonZeroBytes((d & (0xf0 * kBytes01)) |
                        (((d & (0x0f * kBytes01)) + 6 * kBytes01) & (0x10 * kBytes01)));
}

inline std::uint64_t digitBytes(std::uint64_t w) {
    return ~nonDigitBytes(w) & kHigh;
}

inline std::uint64_t blankBytes(std::uint64_t w) {
    return ~nonZeroBytes(w ^ (' ' * kBytes01)) & kHigh;
}

// How many bytes of `w`, from the first, are `c` (0..8).
inline unsigned leadingBytesEqual(std::uint64_t w, unsigned char c) {
    const std::uint64_t m = nonZeroBytes(w ^ (c * kBytes01));
    return m ? static_cast<unsigned>(std::countr_zero(m)) / 8 : 8;
}

// How many bytes of `w`, from the first, are ASCII digits (0..8).
inline unsigned leadingDigits(std::uint64_t w) {
    const std::uint64_t m = nonDigitBytes(w);
    return m ? static_cast<unsigned>(std::countr_zero(m)) / 8 : 8;
}

// The value of eight bytes of 0..9 each, the first byte the most significant.
inline std::uint64_t eightDigits(std::uint64_t v) {
    v = v * 10 + (v >> 8);
    constexpr std::uint64_t mask = 0x000000ff000000ffULL;
    constexpr std::uint64_t mul1 = 100 + (1000000ULL << 32);
    constexpr std::uint64_t mul2 = 1 + (10000ULL << 32);
    return ((v & mask) * mul1 + ((v >> 16) & mask) * mul2) >> 32;
}

// The value of the first `len` (1..8) bytes of `w`, all of which are ASCII digits.
inline std::uint64_t digitsValue(std::uint64_t w, unsigned len) {
    return eightDigits((w ^ ('0' * kBytes01)) << (8 * (8 - len))); // leading zeros in front
}

} // namespace coresteer::swar

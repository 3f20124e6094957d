// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/kernel/interrupts_fixed.h"

#include "core/base/swar.h"
#include "core/base/text.h"

#include <array>
#include <initializer_list>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define CORESTEER_AVX2_COUNTS 1
#include <immintrin.h>
#endif

namespace coresteer::detail {

namespace {

using namespace swar;

// One count in eight-byte words: bytes p .. p+7 and p+3 .. p+10 overlap, so every pair of
// neighbours in the field is inside one of them. No branch per byte.
bool wordCount(const char* d, std::size_t p, std::size_t n, std::uint64_t& value) {
    if (p + 12 > n)
        return false;
    const std::uint64_t a = load8(d + p);
    const std::uint64_t b = load8(d + p + 3);
    const std::uint64_t da = digitBytes(a), sa = blankBytes(a);
    const std::uint64_t db = digitBytes(b), sb = blankBytes(b);
    // Every byte a blank or a digit, the first a blank, the last a digit, no blank after a
    // digit, and white space after the field.
    const bool ok = ((da | sa) & (db | sb)) == kHigh && (sa & 0x80) && (db >> 63) &&
                    !(((da << 8) & sa) | ((db << 8) & sb)) && text::isSpace(d[p + 11]);
    // The blanks all lead, so they count as zeros (' ' & 0x0f is 0).
    value = ((a >> 8) & 0x0f) * 1'000'000'000ULL + ((a >> 16) & 0x0f) * 100'000'000ULL +
            eightDigits(b & (0x0f * kBytes01));
    return ok;
}

std::size_t readWords(const char* d, std::size_t n, std::size_t p, std::uint64_t* out,
                      std::size_t max) {
    std::size_t k = 0;
    while (k < max && wordCount(d, p, n, out[k])) {
        ++k;
        p += 11;
    }
    return k;
}

#ifdef CORESTEER_AVX2_COUNTS

// A 16-byte lane holds one field: byte 0 the blank before it, bytes 1..10 the count, byte 11
// the blank after it (bytes 12..15 belong to the next field and are left out).
//
// Its value, with the blanks as zeros: bytes & 0x0f give 0..9 (0 for a blank); pairs of digits
// (maddubs), then groups of three, four and three digits (madd), then the first seven (madd
// after packing to 16 bits) and the last three: value = r0 * 1000 + r1.
inline std::uint64_t laneValue(std::uint64_t r) {
    return (r & 0xffffffffu) * 1000 + (r >> 32);
}

struct Avx2Constants {
    __m256i blank, zero, nine, low, w1, w2, w3, thousand;
    __m256i blankAt, digitAt, field, inside;
};

// 0xff at the given bytes of both lanes, 0 elsewhere.
constexpr std::array<std::int8_t, 32> laneBytes(std::initializer_list<int> bytes) {
    std::array<std::int8_t, 32> b{};
    for (int i : bytes)
        b[static_cast<std::size_t>(i)] = b[static_cast<std::size_t>(i) + 16] = -1;
    return b;
}

__attribute__((target("avx2"))) Avx2Constants avx2Constants() {
    const auto blankAt = laneBytes({0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 11}); // may be a blank
    const auto digitAt = laneBytes({1, 2, 3, 4, 5, 6, 7, 8, 9, 10});    // may be a digit
    const auto field = laneBytes({0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
    return {_mm256_set1_epi8(' '),
            _mm256_set1_epi8('0'),
            _mm256_set1_epi8(9),
            _mm256_setr_epi8(15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 0, 0, 0, 0, 0, 15, 15, 15,
                             15, 15, 15, 15, 15, 15, 15, 15, 0, 0, 0, 0, 0),
            _mm256_setr_epi8(10, 1, 10, 1, 10, 1, 10, 1, 10, 1, 1, 0, 0, 0, 0, 0, 10, 1, 10, 1, 10,
                             1, 10, 1, 10, 1, 1, 0, 0, 0, 0, 0),
            _mm256_setr_epi16(100, 1, 100, 1, 10, 1, 0, 0, 100, 1, 100, 1, 10, 1, 0, 0),
            _mm256_setr_epi16(10000, 1, 1, 0, 0, 0, 0, 0, 10000, 1, 1, 0, 0, 0, 0, 0),
            _mm256_set1_epi64x(1000),
            _mm256_loadu_si256(reinterpret_cast<const __m256i*>(blankAt.data())),
            _mm256_loadu_si256(reinterpret_cast<const __m256i*>(digitAt.data())),
            _mm256_loadu_si256(reinterpret_cast<const __m256i*>(field.data())),
            _mm256_loadu_si256(reinterpret_cast<const __m256i*>(
                digitAt.data()))}; // a blank right after a digit: within bytes 1..10
}

// Non-zero when a lane is not a field: a byte of 0..11 that may not be what it is (byte 0 and
// byte 11 blanks, byte 10 a digit, the rest either), or a blank right after a digit.
__attribute__((target("avx2"))) inline __m256i laneBad(const Avx2Constants& c, __m256i v) {
    const __m256i t = _mm256_sub_epi8(v, c.zero);
    const __m256i blank = _mm256_cmpeq_epi8(v, c.blank);
    const __m256i digit = _mm256_cmpeq_epi8(_mm256_min_epu8(t, c.nine), t);
    const __m256i allowed =
        _mm256_or_si256(_mm256_and_si256(blank, c.blankAt), _mm256_and_si256(digit, c.digitAt));
    const __m256i blankAfterDigit =
        _mm256_and_si256(_mm256_and_si256(_mm256_slli_si256(digit, 1), blank), c.inside);
    return _mm256_or_si256(_mm256_andnot_si256(allowed, c.field), blankAfterDigit);
}

__attribute__((target("avx2"))) inline __m256i laneValues(const Avx2Constants& c, __m256i v) {
    const __m256i q =
        _mm256_madd_epi16(_mm256_maddubs_epi16(_mm256_and_si256(v, c.low), c.w1), c.w2);
    return _mm256_madd_epi16(_mm256_packus_epi32(q, q), c.w3);
}

// Each lane's value as a 64-bit number in its first half: r0 * 1000 + r1.
__attribute__((target("avx2"))) inline __m256i laneNumbers(const Avx2Constants& c, __m256i r) {
    return _mm256_add_epi64(_mm256_mul_epu32(r, c.thousand), _mm256_srli_epi64(r, 32));
}

__attribute__((target("avx2"))) inline __m256i loadLanes(const char* first, const char* second) {
    return _mm256_inserti128_si256(
        _mm256_castsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(first))),
        _mm_loadu_si128(reinterpret_cast<const __m128i*>(second)), 1);
}

__attribute__((target("avx2"))) std::size_t readAvx2(const char* d, std::size_t n, std::size_t p,
                                                     std::uint64_t* out, std::size_t max) {
    const Avx2Constants c = avx2Constants();
    std::size_t k = 0;
    // Four fields at once in two registers, each lane loaded 11 bytes after the one before.
    while (k + 4 <= max && p + 49 <= n) {
        const __m256i a = loadLanes(d + p, d + p + 11);
        const __m256i b = loadLanes(d + p + 22, d + p + 33);
        const __m256i bad = _mm256_or_si256(laneBad(c, a), laneBad(c, b));
        if (!_mm256_testz_si256(bad, bad))
            break;
        // [v0, 0, v1, 0] and [v2, 0, v3, 0] as 64-bit numbers, then stored as v0 v1 v2 v3.
        const __m256i va = laneNumbers(c, laneValues(c, a));
        const __m256i vb = laneNumbers(c, laneValues(c, b));
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + k),
                            _mm256_permute4x64_epi64(_mm256_unpacklo_epi64(va, vb), 0xd8));
        k += 4;
        p += 44;
    }
    // Then two at a time.
    while (k + 2 <= max && p + 27 <= n) {
        const __m256i v = loadLanes(d + p, d + p + 11);
        const __m256i bad = laneBad(c, v);
        const __m256i r = laneValues(c, v);
        if (!_mm_testz_si128(_mm256_castsi256_si128(bad), _mm256_castsi256_si128(bad)))
            return k;
        out[k++] = laneValue(static_cast<std::uint64_t>(_mm256_extract_epi64(r, 0)));
        p += 11;
        if (!_mm256_testz_si256(bad, bad))
            return k;
        out[k++] = laneValue(static_cast<std::uint64_t>(_mm256_extract_epi64(r, 2)));
        p += 11;
    }
    // The last one of a row, when its tail is long enough for a 16-byte load.
    if (k < max && p + 16 <= n) {
        const __m256i v =
            _mm256_castsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(d + p)));
        const __m128i bad = _mm256_castsi256_si128(laneBad(c, v));
        if (!_mm_testz_si128(bad, bad))
            return k;
        out[k++] = laneValue(static_cast<std::uint64_t>(_mm256_extract_epi64(laneValues(c, v), 0)));
        p += 11;
    }
    // Nearer the end than a 16-byte load reaches: in words.
    return k + readWords(d, n, p, out + k, max - k);
}

#endif

} // namespace

bool fixedCountsAvailable(FixedCounts how) {
    switch (how) {
    case FixedCounts::None:
        return true;
    case FixedCounts::Words:
        return swar::kLittleEndian;
    case FixedCounts::Avx2:
#ifdef CORESTEER_AVX2_COUNTS
        return __builtin_cpu_supports("avx2");
#else
        return false;
#endif
    }
    return false;
}

FixedCounts bestFixedCounts() {
    static const FixedCounts best = fixedCountsAvailable(FixedCounts::Avx2)    ? FixedCounts::Avx2
                                    : fixedCountsAvailable(FixedCounts::Words) ? FixedCounts::Words
                                                                               : FixedCounts::None;
    return best;
}

std::size_t readFixedCounts(FixedCounts how, const char* d, std::size_t n, std::size_t pos,
                            std::uint64_t* out, std::size_t max) {
    switch (how) {
    case FixedCounts::None:
        return 0;
    case FixedCounts::Words:
        return swar::kLittleEndian ? readWords(d, n, pos, out, max) : 0;
    case FixedCounts::Avx2:
#ifdef CORESTEER_AVX2_COUNTS
        return readAvx2(d, n, pos, out, max);
#else
        return 0;
#endif
    }
    return 0;
}

} // namespace coresteer::detail

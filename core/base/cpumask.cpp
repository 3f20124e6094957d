// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/base/cpumask.h"

#include "core/base/text.h"

#include <algorithm>
#include <bit>

namespace coresteer {

namespace {

int hexValue(char c) {
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

bool fail(std::string* error, std::string msg) {
    if (error)
        *error = std::move(msg);
    return false;
}

} // namespace

CpuMask::CpuMask(int width) {
    setWidth(width);
}

void CpuMask::setWidth(int width) {
    m_width = std::clamp(width, 0, kMaxCpus);
    const std::size_t words = static_cast<std::size_t>((m_width + 63) / 64);
    if (m_words.size() < words)
        m_words.resize(words, 0);
}

std::optional<CpuMask> CpuMask::fromHex(std::string_view text, std::string* error) {
    text = text::trim(text);
    if (text.substr(0, 2) == "0x" || text.substr(0, 2) == "0X")
        text.remove_prefix(2);
    if (text.empty()) {
        fail(error, "empty CPU mask");
        return std::nullopt;
    }
    const auto groups = text::split(text, ',');
    CpuMask m;
    int width = 0;
    for (std::size_t g = 0; g < groups.size(); ++g) {
        const auto grp = groups[g];
        if (grp.empty()) {
            fail(error, "empty group in CPU mask '" + text::printable(text) + "'");
            return std::nullopt;
        }
        if (groups.size() > 1 && grp.size() > 8) {
            fail(error,
                 "group longer than 8 hex digits in CPU mask '" + text::printable(text) + "'");
            return std::nullopt;
        }
        width += g == 0 ? static_cast<int>(grp.size()) * 4 : 32;
        if (width > kMaxCpus) {
            fail(error, "CPU mask wider than " + std::to_string(kMaxCpus) + " CPUs");
            return std::nullopt;
        }
    }
    m.setWidth(width);
    // Group g (0 = most significant) holds bits from 32 * (n - 1 - g) up.
    const std::size_t n = groups.size();
    for (std::size_t g = 0; g < n; ++g) {
        const auto grp = groups[g];
        const int base = 32 * static_cast<int>(n - 1 - g);
        for (std::size_t i = 0; i < grp.size(); ++i) {
            const int v = hexValue(grp[i]);
            if (v < 0) {
                fail(error, "not a hex CPU mask: '" + text::printable(text) + "'");
                return std::nullopt;
            }
            const int digitBase = base + 4 * static_cast<int>(grp.size() - 1 - i);
            for (int b = 0; b < 4; ++b)
                if (v & (1 << b))
                    m.set(digitBase + b);
        }
    }
    m.m_width = width; // set() may not shrink; keep the printed width
    return m;
}

std::optional<CpuMask> CpuMask::fromList(std::string_view text, std::string* error) {
    text = text::trim(text);
    CpuMask m;
    if (text.empty())
        return m; // the kernel prints an empty list for an empty mask
    for (auto part : text::split(text, ',')) {
        part = text::trim(part);
        // a, a-b, a-b:used/group
        std::string_view range = part, stride;
        if (const auto colon = part.find(':'); colon != std::string_view::npos) {
            range = part.substr(0, colon);
            stride = part.substr(colon + 1);
        }
        std::string_view lo = range, hi = range;
        if (const auto dash = range.find('-'); dash != std::string_view::npos) {
            lo = range.substr(0, dash);
            hi = range.substr(dash + 1);
        }
        const auto a = text::parseU64(lo), b = text::parseU64(hi);
        if (!a || !b || *a > *b) {
            fail(error, "bad CPU list entry '" + text::printable(part) + "'");
            return std::nullopt;
        }
        if (*b >= static_cast<std::uint64_t>(kMaxCpus)) {
            fail(error, "CPU " + std::to_string(*b) + " is beyond the kernel's limit of " +
                            std::to_string(kMaxCpus));
            return std::nullopt;
        }
        std::uint64_t used = 1, group = 1;
        if (!stride.empty()) {
            const auto slash = stride.find('/');
            const auto u = text::parseU64(stride.substr(0, slash));
            const auto g = slash == std::string_view::npos
                               ? std::nullopt
                               : text::parseU64(stride.substr(slash + 1));
            if (!u || !g || *u == 0 || *g == 0 || *u > *g) {
                fail(error, "bad CPU list stride '" + text::printable(part) + "'");
                return std::nullopt;
            }
            used = *u;
            group = *g;
        }
        for (std::uint64_t c = *a; c <= *b; ++c)
            if ((c - *a) % group < used)
                m.set(static_cast<int>(c));
    }
    return m;
}

CpuMask CpuMask::fromCpus(const std::vector<int>& cpus, int width) {
    CpuMask m(width);
    for (int c : cpus)
        m.set(c);
    return m;
}

CpuMask CpuMask::firstN(int n) {
    CpuMask m(n);
    for (int c = 0; c < n && c < kMaxCpus; ++c)
        m.set(c);
    return m;
}

bool CpuMask::test(int cpu) const {
    if (cpu < 0 || cpu >= kMaxCpus)
        return false;
    const auto w = static_cast<std::size_t>(cpu / 64);
    return w < m_words.size() && (m_words[w] >> (cpu % 64)) & 1u;
}

void CpuMask::set(int cpu, bool on) {
    if (cpu < 0 || cpu >= kMaxCpus)
        return;
    if (cpu >= m_width)
        setWidth(cpu + 1);
    const auto w = static_cast<std::size_t>(cpu / 64);
    const std::uint64_t bit = std::uint64_t{1} << (cpu % 64);
    if (on)
        m_words[w] |= bit;
    else
        m_words[w] &= ~bit;
}

int CpuMask::count() const {
    int n = 0;
    for (auto w : m_words)
        n += std::popcount(w);
    return n;
}

int CpuMask::highest() const {
    for (std::size_t w = m_words.size(); w-- > 0;)
        if (m_words[w])
            return static_cast<int>(w * 64) + 63 - std::countl_zero(m_words[w]);
    return -1;
}

std::vector<int> CpuMask::cpus() const {
    std::vector<int> out;
    for (std::size_t w = 0; w < m_words.size(); ++w) {
        auto bits = m_words[w];
        while (bits) {
            out.push_back(static_cast<int>(w * 64) + std::countr_zero(bits));
            bits &= bits - 1;
        }
    }
    return out;
}

std::string CpuMask::toHex() const {
    return toHex(m_width);
}

std::string CpuMask::toHex(int width) const {
    width = std::max({width, highest() + 1, 1});
    static const char* digits = "0123456789abcdef";
    const int groups = (width + 31) / 32;
    std::string out;
    for (int g = groups - 1; g >= 0; --g) {
        const int bitsInGroup = g == groups - 1 ? width - 32 * g : 32;
        const int nDigits = g == groups - 1 ? (bitsInGroup + 3) / 4 : 8;
        for (int d = nDigits - 1; d >= 0; --d) {
            int v = 0;
            for (int b = 0; b < 4; ++b)
                if (test(32 * g + 4 * d + b))
                    v |= 1 << b;
            out += digits[v];
        }
        if (g > 0)
            out += ',';
    }
    return out;
}

std::string CpuMask::toList() const {
    std::string out;
    const auto list = cpus();
    for (std::size_t i = 0; i < list.size();) {
        std::size_t j = i;
        while (j + 1 < list.size() && list[j + 1] == list[j] + 1)
            ++j;
        if (!out.empty())
            out += ',';
        out += std::to_string(list[i]);
        if (j > i) {
            out += '-';
            out += std::to_string(list[j]);
        }
        i = j + 1;
    }
    return out;
}

bool CpuMask::isSubsetOf(const CpuMask& other) const {
    return minus(other).none();
}

CpuMask CpuMask::operator|(const CpuMask& o) const {
    CpuMask r(std::max(m_width, o.m_width));
    r.m_words.resize(std::max(m_words.size(), o.m_words.size()), 0);
    for (std::size_t i = 0; i < r.m_words.size(); ++i)
        r.m_words[i] =
            (i < m_words.size() ? m_words[i] : 0) | (i < o.m_words.size() ? o.m_words[i] : 0);
    return r;
}

CpuMask CpuMask::operator&(const CpuMask& o) const {
    CpuMask r(std::max(m_width, o.m_width));
    for (std::size_t i = 0; i < r.m_words.size(); ++i)
        r.m_words[i] =
            (i < m_words.size() ? m_words[i] : 0) & (i < o.m_words.size() ? o.m_words[i] : 0);
    return r;
}

CpuMask CpuMask::minus(const CpuMask& o) const {
    CpuMask r = *this;
    for (std::size_t i = 0; i < r.m_words.size() && i < o.m_words.size(); ++i)
        r.m_words[i] &= ~o.m_words[i];
    return r;
}

bool CpuMask::operator==(const CpuMask& o) const {
    const std::size_t n = std::max(m_words.size(), o.m_words.size());
    for (std::size_t i = 0; i < n; ++i)
        if ((i < m_words.size() ? m_words[i] : 0) != (i < o.m_words.size() ? o.m_words[i] : 0))
            return false;
    return true;
}

} // namespace coresteer

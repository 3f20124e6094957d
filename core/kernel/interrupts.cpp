// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/kernel/interrupts.h"

#include "core/base/cpumask.h"
#include "core/base/swar.h"
#include "core/base/text.h"
#include "core/kernel/interrupts_fixed.h"
#include "core/kernel/interrupts_rows.h"
#include "core/kernel/procstat.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <memory>

namespace coresteer {

using text::Tokenizer;

std::uint64_t IrqRow::total() const {
    std::uint64_t t = 0;
    for (auto c : counts)
        t += c;
    return t;
}

std::size_t InterruptTable::slotOf(std::uint32_t irq) const {
    const std::size_t mask = m_slots.size() - 1;
    std::size_t i = (irq * 0x9E3779B1u) & mask; // Fibonacci hashing spreads runs of numbers
    // A slot that no longer names a row of this number (rows changed by hand and not
    // reindexed) is passed over, never read past the rows.
    while (m_slots[i] != 0) {
        const std::size_t r = m_slots[i] - 1;
        if (r < rows.size() && rows[r].irq == irq)
            break;
        i = (i + 1) & mask;
    }
    return i;
}

const IrqRow* InterruptTable::findIrq(std::uint32_t irq) const {
    if (m_slots.empty())
        return nullptr;
    const auto slot = m_slots[slotOf(irq)];
    return slot ? &rows[slot - 1] : nullptr;
}

const IrqRow* InterruptTable::findLabel(std::string_view label) const {
    for (const auto& r : rows)
        if (r.label == label)
            return &r;
    return nullptr;
}

int InterruptTable::columnOf(int cpu) const {
    for (std::size_t i = 0; i < cpus.size(); ++i)
        if (cpus[i] == cpu)
            return static_cast<int>(i);
    return -1;
}

void InterruptTable::reindex() {
    m_slots.clear();
    m_indexed = 0;
    growIndex(rows.size());
    for (std::size_t i = 0; i < rows.size(); ++i)
        reindexOne(i);
}

void InterruptTable::reserveIndex(std::size_t n) {
    if (2 * n > m_slots.size())
        growIndex(n);
}

void InterruptTable::growIndex(std::size_t n) {
    std::size_t size = 16;
    while (size < 2 * n)
        size *= 2;
    if (size <= m_slots.size())
        return;
    std::vector<std::uint32_t> old(size, 0);
    old.swap(m_slots);
    for (const auto slot : old)
        if (slot && slot - 1 < rows.size() && rows[slot - 1].irq)
            m_slots[slotOf(*rows[slot - 1].irq)] = slot;
}

void InterruptTable::reindexOne(std::size_t row) {
    if (row >= rows.size() || !rows[row].irq)
        return;
    if (2 * (m_indexed + 1) > m_slots.size())
        growIndex(m_indexed + 1);
    auto& slot = m_slots[slotOf(*rows[row].irq)];
    if (slot == 0) { // the first row of a number keeps it, as findIrq has always answered
        slot = static_cast<std::uint32_t>(row + 1);
        ++m_indexed;
    }
}

namespace detail {

bool allDigits(std::string_view s) {
    if (s.empty())
        return false;
    for (char c : s)
        if (!text::isDigit(c))
            return false;
    return true;
}

} // namespace detail

namespace {

bool isLabelChar(char c) {
    return text::isDigit(c) || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}

enum class CountToken { None, NotCount, Count, OutOfRange };

using namespace swar;

constexpr std::array<std::uint64_t, 8> kPow10 = {1,     10,     100,     1000,
                                                 10000, 100000, 1000000, 10000000};

// The next white-space separated token of `s` from `pos`, read as a count in one pass: what
// Tokenizer::next + allDigits + text::parseU64 give, without scanning each byte three times
// (this is most of the parse time on many-CPU tables). Count and OutOfRange (over 2^64-1;
// `value` is then 0) move `pos` past the token; None (only white space left) and NotCount (a
// token with a non-digit) leave it where it was. Forced inline: it runs once per count, and
// GCC does not inline it by itself.
[[gnu::always_inline]] inline CountToken nextCount(std::string_view s, std::size_t& pos,
                                                   std::uint64_t& value) {
    const std::size_t n = s.size();
    const char* const d = s.data();
    std::size_t p = pos;
    if constexpr (kLittleEndian) {
        // The kernel pads counts with blanks ("%10u "): skip them eight at a time.
        while (p + 8 <= n) {
            const unsigned k = leadingBytesEqual(load8(d + p), ' ');
            p += k;
            if (k < 8)
                break;
        }
    }
    while (p < n && text::isSpace(d[p]))
        ++p;
    if (p >= n)
        return CountToken::None;
    const std::size_t b = p;
    std::uint64_t v = 0;
    bool scalar = true;
    if constexpr (kLittleEndian) {
        if (p + 8 <= n) {
            const std::uint64_t w = load8(d + p);
            const unsigned len = leadingDigits(w);
            if (len == 0)
                return CountToken::NotCount;
            if (len < 8) {
                v = digitsValue(w, len);
                p += len;
                scalar = false;
            } else if (p + 16 <= n) {
                const std::uint64_t w2 = load8(d + p + 8);
                const unsigned len2 = leadingDigits(w2);
                if (len2 < 8) { // 8 to 15 digits: no overflow
                    v = digitsValue(w, 8) * kPow10[len2] + (len2 ? digitsValue(w2, len2) : 0);
                    p += 8 + len2;
                    scalar = false;
                }
            }
        }
    }
    if (scalar) {
        while (p < n && text::isDigit(d[p])) {
            v = v * 10 + static_cast<std::uint64_t>(d[p] - '0');
            ++p;
        }
    }
    if (p == b || (p < n && !text::isSpace(d[p])))
        return CountToken::NotCount;
    pos = p;
    if (p - b > 19) {
        // 20 digits and more may overflow: take the checked path.
        const auto exact = text::parseU64(s.substr(b, p - b));
        value = exact.value_or(0);
        return exact ? CountToken::Count : CountToken::OutOfRange;
    }
    value = v;
    return CountToken::Count;
}

// s == lit, and s starts with lit, with the length known when compiled: the compare is then a
// load or two, not a call to memcmp (these run a few times a row).
template <std::size_t N>
[[gnu::always_inline]] inline bool is(std::string_view s, const char (&lit)[N]) {
    return s.size() == N - 1 && std::memcmp(s.data(), lit, N - 1) == 0;
}
template <std::size_t N>
[[gnu::always_inline]] inline bool startsWithLit(std::string_view s, const char (&lit)[N]) {
    return s.size() >= N - 1 && std::memcmp(s.data(), lit, N - 1) == 0;
}

bool isFlowName(std::string_view s) {
    return is(s, "edge") || is(s, "fasteoi") || is(s, "level") || is(s, "simple") ||
           is(s, "percpu") || is(s, "percpu_devid") || is(s, "bad") || is(s, "XT-PIC");
}

// A decimal number in one pass (IRQ labels and hwirqs): up to 19 digits cannot overflow, 20 go
// through the checked parse. False when `s` is empty, holds a non-digit or is over 2^64-1. The
// value comes back in `v`, not in an optional: an optional read back whole right after its two
// parts were written stalls the load on every row.
[[gnu::always_inline]] inline bool shortNumber(std::string_view s, std::uint64_t& v) {
    if (s.empty() || s.size() > 19) {
        const auto exact = s.size() == 20 ? text::parseU64(s) : std::nullopt;
        v = exact.value_or(0);
        return exact.has_value();
    }
    v = 0;
    for (const char c : s) {
        if (!text::isDigit(c))
            return false;
        v = v * 10 + static_cast<std::uint64_t>(c - '0');
    }
    return true;
}

// The columns after the counts: chip, hwirq, trigger, then the actions.
void parseTail(std::string_view tail, IrqRow& row) {
    constexpr std::size_t kMaxHead = 8; // chip (up to 5 words) + hwirq + trigger
    // Where the first n tokens begin and end in `tail`; the rest is never read (so never set:
    // zeroing it costs more than reading the tokens).
    std::array<std::size_t, kMaxHead> from;
    std::array<std::size_t, kMaxHead> endPos;
    Tokenizer tz(tail);
    std::size_t n = 0;
    std::string_view t;
    while (n < kMaxHead && tz.next(t)) {
        endPos[n] = tz.position();
        from[n] = endPos[n] - t.size();
        ++n;
    }
    const auto tok = [&](std::size_t i) { return tail.substr(from[i], endPos[i] - from[i]); };
    if (n == 0)
        return;

    auto joinChip = [&](std::size_t end) {
        std::string chip;
        for (std::size_t i = 0; i < end; ++i) {
            if (i)
                chip += ' ';
            chip += tok(i);
        }
        return chip;
    };
    std::size_t actionsFrom = std::string_view::npos; // position in `tail`
    for (std::size_t i = 0; i < n && actionsFrom == std::string_view::npos; ++i) {
        const auto s = tok(i);
        const bool levelEdge = is(s, "Level") || is(s, "Edge") || startsWithLit(s, "Level-") ||
                               startsWithLit(s, "Edge-");
        if (levelEdge && i > 0) {
            // GENERIC_IRQ_SHOW_LEVEL: "<chip> <hwirq> Level"
            std::size_t chipEnd = i;
            std::uint64_t hwirq = 0;
            if (i >= 2 && shortNumber(tok(i - 1), hwirq)) {
                row.hwirq = hwirq;
                chipEnd = i - 1;
            }
            row.chip = joinChip(chipEnd);
            row.trigger = std::string(s.substr(0, s.find('-')));
            actionsFrom = endPos[i];
            break;
        }
        const auto dash = s.find('-');
        std::uint64_t hwirq = 0;
        if (i > 0 && dash != std::string_view::npos && shortNumber(s.substr(0, dash), hwirq) &&
            isFlowName(s.substr(dash + 1))) {
            // x86: "<chip> <hwirq>-edge"
            row.hwirq = hwirq;
            row.chip = joinChip(i);
            row.trigger = std::string(s.substr(dash + 1));
            actionsFrom = endPos[i];
            break;
        }
        if (i == 0 && dash != std::string_view::npos) {
            // Old x86 kernels: "<chip>-<flow>", e.g. "IR-PCI-MSI-edge", "IO-APIC-fasteoi".
            const auto last = s.rfind('-');
            if (last > 0 && isFlowName(s.substr(last + 1))) {
                row.chip = std::string(s.substr(0, last));
                row.trigger = std::string(s.substr(last + 1));
                actionsFrom = endPos[0];
                break;
            }
        }
    }
    if (actionsFrom == std::string_view::npos) {
        // No trigger shown (MIPS, some ARM32): "<chip> <hwirq> action" or "<chip> action",
        // where the chip may have spaces ("MIPS GIC").
        row.chip = std::string(tok(0));
        actionsFrom = endPos[0];
        for (std::size_t i = 1; i + 1 < n && i < 6; ++i) {
            if (std::uint64_t hwirq = 0; shortNumber(tok(i), hwirq)) {
                row.chip = joinChip(i);
                row.hwirq = hwirq;
                actionsFrom = endPos[i];
                break;
            }
        }
    }
    const auto actions = text::trim(tail.substr(std::min(actionsFrom, tail.size())));
    if (actions.empty())
        return;
    std::size_t b = 0;
    while (b <= actions.size()) {
        auto p = actions.find(", ", b);
        const auto part = text::trim(actions.substr(b, p == std::string_view::npos ? p : p - b));
        if (!part.empty())
            row.actions.emplace_back(part);
        if (p == std::string_view::npos)
            break;
        b = p + 2;
    }
}

} // namespace

namespace detail {

std::optional<std::string_view> rowLabel(std::string_view trimmed, Diagnostics& diag,
                                         const std::string& file, int lineNo) {
    const auto colon = trimmed.find(':');
    if (colon == std::string_view::npos || colon == 0 || colon > 16) {
        diag.warn(file, lineNo,
                  "skipped a line without an IRQ label: '" + text::printable(trimmed) + "'");
        return std::nullopt;
    }
    const auto label = trimmed.substr(0, colon);
    bool labelOk = true;
    for (char c : label)
        labelOk = labelOk && isLabelChar(c);
    if (!labelOk) {
        diag.warn(file, lineNo,
                  "skipped a line with a bad IRQ label '" + text::printable(label) + "'");
        return std::nullopt;
    }
    return label;
}

bool fillRow(std::string_view label, std::string_view body, std::size_t ncol,
             detail::FixedCounts fixed, std::uint64_t* counts, std::size_t preRead, IrqRow& row,
             Diagnostics& diag, const std::string& file, int lineNo) {
    row.line = lineNo;
    row.label = std::string(label);
    if (std::uint64_t v = 0; shortNumber(label, v)) { // a label has at most 16 characters
        if (v > 0xffffffffu) {
            diag.warn(file, lineNo, "IRQ number out of range: " + text::printable(label));
            return false;
        }
        row.irq = static_cast<std::uint32_t>(v);
    }
    if (!counts) { // a row on its own: counts of its own, uninitialised (all written below)
        row.counts = IrqCounts::uninitialised(ncol);
        counts = row.counts.mutableData();
    }
    std::size_t counted = preRead;
    std::size_t pos = 11 * preRead;
    std::size_t tailFrom = preRead ? pos : body.size();
    while (counted < ncol) {
        // Most counts are laid out as the kernel prints them: read those in bulk.
        if (const auto got = detail::readFixedCounts(fixed, body.data(), body.size(), pos,
                                                     counts + counted, ncol - counted)) {
            counted += got;
            pos += 11 * got;
            tailFrom = pos;
            continue;
        }
        const std::size_t before = pos;
        std::uint64_t v = 0;
        const auto kind = nextCount(body, pos, v);
        if (kind == CountToken::None)
            break;
        if (kind == CountToken::NotCount) {
            tailFrom = before;
            break;
        }
        if (kind == CountToken::OutOfRange)
            diag.error(file, lineNo, "count out of range in column " + std::to_string(counted + 1));
        counts[counted] = v;
        ++counted;
        tailFrom = pos;
    }
    std::fill(counts + counted, counts + ncol, 0); // short rows are padded
    row.countColumns = static_cast<int>(counted);
    const auto tail = body.substr(std::min(tailFrom, body.size()));
    if (row.irq) {
        if (counted == 0)
            diag.warn(file, lineNo, "IRQ " + row.label + " has no counts");
        parseTail(tail, row);
    } else {
        row.description = std::string(text::trim(tail));
    }
    return true;
}

std::size_t leadingCounts(std::string_view data, std::size_t start, std::size_t ncol,
                          detail::FixedCounts fixed, CountBlocks& blocks, IrqRow& row,
                          std::uint64_t*& counts, std::size_t& end) {
    const std::size_t n = data.size();
    const char* const d = data.data();
    std::size_t p = start;
    const std::size_t blanksEnd = std::min(n, start + 32);
    while (p < blanksEnd && d[p] == ' ')
        ++p;
    const std::size_t labelFrom = p;
    const std::size_t labelEnd = std::min(n, p + 16);
    while (p < labelEnd && isLabelChar(d[p]))
        ++p;
    if (p == labelFrom || p >= n || d[p] != ':')
        return 0;
    ++p;
    counts = blocks.next(row.counts); // fillRow writes what this does not
    const std::size_t k = detail::readFixedCounts(fixed, d, n, p, counts, ncol);
    end = p + 11 * k;
    return k;
}

} // namespace detail

std::optional<IrqRow> parseInterruptRow(std::string_view line, std::size_t columns,
                                        Diagnostics& diag, const std::string& file, int lineNo) {
    const auto trimmed = text::trim(line);
    if (trimmed.empty())
        return std::nullopt;
    const auto label = detail::rowLabel(trimmed, diag, file, lineNo);
    if (!label)
        return std::nullopt;
    IrqRow row;
    if (!detail::fillRow(*label, trimmed.substr(label->size() + 1), columns,
                         detail::bestFixedCounts(), nullptr, 0, row, diag, file, lineNo))
        return std::nullopt;
    return row;
}

} // namespace coresteer

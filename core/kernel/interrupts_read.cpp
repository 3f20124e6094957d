// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// /proc/interrupts as a table: the header, the rows (a large table in two halves at once), the
// row limit and IRQs listed twice.
#include "core/base/cpumask.h"
#include "core/base/side_thread.h"
#include "core/base/text.h"
#include "core/kernel/interrupts.h"
#include "core/kernel/interrupts_fixed.h"
#include "core/kernel/interrupts_rows.h"
#include "core/kernel/procstat.h"

#include <algorithm>
#include <limits>
#include <optional>
#include <thread>
#include <vector>

namespace coresteer {

using detail::allDigits;
using detail::CountBlocks;
using detail::fillRow;
using detail::leadingCounts;
using detail::rowLabel;
using text::Tokenizer;

namespace {

// Where the rows read from a run of lines go.
class RowSink {
public:
    virtual ~RowSink() = default;
    // Whether the row of a labelled line may be read; false ends the reading.
    virtual bool room(int lineNo) = 0;
    virtual void add(IrqRow&& row) = 0;
};

// Into the table: at most kMaxRows rows, each IRQ once.
class TableSink final : public RowSink {
public:
    TableSink(InterruptTable& table, std::size_t rowLimit, Diagnostics& diag,
              const std::string& file)
        : maxRows(rowLimit), m_table(table), m_diag(diag), m_file(file) {}

    bool room(int lineNo) override {
        if (m_table.rows.size() < maxRows)
            return true;
        m_diag.error(m_file, lineNo,
                     "more than " + std::to_string(maxRows) + " rows; the rest is ignored");
        full = true;
        return false;
    }
    std::size_t rowCount() const { return m_table.rows.size(); }
    std::size_t rowCapacity() const { return m_table.rows.capacity(); }
    void add(IrqRow&& row) override {
        if (row.irq && m_table.findIrq(*row.irq)) {
            m_diag.warn(m_file, row.line, "IRQ " + row.label + " listed twice; the first is kept");
            return;
        }
        m_table.rows.push_back(std::move(row));
        if (m_table.rows.back().irq)
            m_table.reindexOne(m_table.rows.size() - 1);
    }
    const std::size_t maxRows;
    bool full = false;

private:
    InterruptTable& m_table;
    Diagnostics& m_diag;
    const std::string& m_file;
};

// Into a list, for the second half of a large table read on a thread of its own: its rows and
// diagnostics, with line numbers counted from the half's first line, and how many labelled
// lines it had (rows or not), so that the merge knows whether the row limit came into it.
class ListSink final : public RowSink {
public:
    explicit ListSink(std::size_t expectedRows) { rows.reserve(expectedRows); }
    bool room(int) override {
        ++labelled;
        return true;
    }
    void add(IrqRow&& row) override { rows.push_back(std::move(row)); }
    std::vector<IrqRow> rows;
    std::size_t labelled = 0;
    Diagnostics diag;
};

// How the rows of one table are read.
struct RowShape {
    std::size_t ncol;
    detail::FixedCounts fixed;
    const std::string& file;
};

// The rows of `data` from lines' position on, the first line of each row's counts read in bulk
// (leadingCounts) where it can be.
void readRows(std::string_view data, text::LineReader& lines, const RowShape& shape,
              CountBlocks& blocks, RowSink& sink, Diagnostics& diag) {
    const bool bulk = shape.fixed != detail::FixedCounts::None;
    std::string_view line;
    while (true) {
        IrqRow row;
        std::uint64_t* counts = nullptr;
        std::size_t preRead = 0;
        if (bulk) {
            const std::size_t start = lines.position();
            std::size_t end = 0;
            preRead = leadingCounts(data, start, shape.ncol, shape.fixed, blocks, row, counts, end);
            if (preRead) {
                const auto nl = data.find('\n', end);
                const std::size_t stop = nl == std::string_view::npos ? data.size() : nl;
                line = data.substr(start, stop - start);
                lines.reset(nl == std::string_view::npos ? data.size() : nl + 1,
                            lines.lineNumber() + 1);
            }
        }
        if (!preRead && !lines.next(line))
            break;
        const int lineNo = lines.lineNumber();
        const auto trimmed = text::trim(line);
        if (trimmed.empty())
            continue;
        const auto label = rowLabel(trimmed, diag, shape.file, lineNo);
        if (!label)
            continue;
        if (!sink.room(lineNo))
            break;
        if (!counts)
            counts = blocks.next(row.counts);
        if (fillRow(*label, trimmed.substr(label->size() + 1), shape.ncol, shape.fixed, counts,
                    preRead, row, diag, shape.file, lineNo))
            sink.add(std::move(row));
    }
}

// Adds the rows and diagnostics of the second half, read apart, as reading on would have added
// them: line numbers moved on by the first half's lines, each row's diagnostics before it.
void mergeHalf(ListSink& half, int lineOffset, TableSink& table, Diagnostics& diag) {
    const auto& entries = half.diag.entries();
    std::size_t e = 0;
    const auto addUpTo = [&](int line) {
        for (; e < entries.size() && entries[e].line <= line; ++e) {
            Diagnostic d = entries[e];
            d.line += lineOffset;
            diag.add(std::move(d));
        }
    };
    for (auto& row : half.rows) {
        addUpTo(row.line);
        row.line += lineOffset;
        table.add(std::move(row));
    }
    addUpTo(std::numeric_limits<int>::max());
    diag.appendUnlisted(half.diag);
}

// Where the second half of data[from..] starts when it is worth a thread of its own: the start
// of the first line after its middle (npos when not).
std::size_t splitPoint(std::string_view data, std::size_t from, std::size_t parallelFrom) {
    if (data.size() - from < std::max<std::size_t>(parallelFrom, 2))
        return std::string_view::npos;
    const auto nl = data.find('\n', from + (data.size() - from) / 2);
    return nl == std::string_view::npos || nl + 1 >= data.size() ? std::string_view::npos : nl + 1;
}

// Reads the rows from lines' position on; a large table in two halves at once, the second on a
// thread of its own. The result is the same to the byte either way: the second half falls back
// to reading on when the row limit could fall in it.
void readAllRows(std::string_view data, text::LineReader& lines, const RowShape& shape,
                 CountBlocks& blocks, TableSink& table, Diagnostics& diag,
                 std::size_t parallelFrom) {
    const std::size_t split = splitPoint(data, lines.position(), parallelFrom);
    if (split == std::string_view::npos) {
        readRows(data, lines, shape, blocks, table, diag);
        return;
    }
    // About half of the rows still expected (the table has room reserved for them all).
    ListSink half((table.rowCapacity() - table.rowCount()) / 2 + 16);
    CountBlocks restBlocks = blocks.upperHalf();
    SideThread thread;
    const bool started = thread.start([&] {
        const std::string_view rest = data.substr(split);
        text::LineReader restLines(rest);
        readRows(rest, restLines, shape, restBlocks, half, half.diag);
    });
    if (!started) { // no thread to be had: read on
        readRows(data, lines, shape, blocks, table, diag);
        return;
    }
    const std::string_view first = data.substr(0, split);
    text::LineReader firstLines(first);
    firstLines.reset(lines.position(), lines.lineNumber());
    readRows(first, firstLines, shape, blocks, table, diag);
    thread.join();
    if (table.full) // the row limit ended the first half, and the rest is ignored
        return;
    const auto rows = table.rowCount();
    if (rows + half.labelled > table.maxRows) {
        lines.reset(split, firstLines.lineNumber());
        readRows(data, lines, shape, blocks, table, diag);
        return;
    }
    mergeHalf(half, firstLines.lineNumber(), table, diag);
}

} // namespace

namespace detail {

InterruptTable parseInterrupts(std::string_view data, Diagnostics& diag, const std::string& file,
                               int cpuCountHint, FixedCounts fixed, std::size_t parallelFrom,
                               std::size_t maxRows, std::size_t parallelRowBytes) {
    if (!fixedCountsAvailable(fixed)) // AVX2 asked of a CPU without it
        fixed = bestFixedCounts();
    InterruptTable table;
    TableSink sink(table, std::min(maxRows, InterruptTable::kMaxRows), diag, file);
    text::LineReader lines(data);
    std::string_view line;
    bool haveHeader = false;
    std::optional<CountBlocks> blocks; // once the columns and the rows to expect are known
    std::size_t firstRowBytes = 0;
    // The header, then lines up to the first row, one by one; then the rows (readAllRows).
    while (table.rows.empty() && lines.next(line)) {
        const int lineNo = lines.lineNumber();
        const auto trimmed = text::trim(line);
        if (trimmed.empty())
            continue;
        if (!haveHeader && text::startsWith(trimmed, "CPU")) {
            std::string error;
            haveHeader = parseCpuHeader(trimmed, table.cpus, error);
            if (!haveHeader) {
                diag.error(file, lineNo, error);
                return table;
            }
            continue;
        }
        const auto label = rowLabel(trimmed, diag, file, lineNo);
        if (!label)
            continue;
        const auto body = trimmed.substr(label->size() + 1);
        if (!haveHeader && table.cpus.empty()) {
            int n = cpuCountHint;
            if (n <= 0) {
                Tokenizer probe(body);
                std::string_view t;
                while (n < CpuMask::kMaxCpus && probe.next(t) && allDigits(t))
                    ++n;
            }
            n = std::min(std::max(n, 1), CpuMask::kMaxCpus);
            for (int c = 0; c < n; ++c)
                table.cpus.push_back(c);
            diag.warn(file, lineNo, "no CPU header line; assuming " + std::to_string(n) + " CPUs");
        }
        if (!blocks) {
            // Rows are mostly as long as the first: room for that many (and a few more), but
            // never more than one a line of 32 bytes could give.
            firstRowBytes = line.size();
            const std::size_t rest = data.size() - (lines.position() - line.size());
            const auto expectedRows = std::min(
                {rest / std::max<std::size_t>(line.size(), 1) + 16, rest / 32 + 16, sink.maxRows});
            table.rows.reserve(expectedRows);
            table.reserveIndex(expectedRows);
            blocks.emplace(table.cpus.size(), expectedRows);
        }
        IrqRow row;
        std::uint64_t* const counts = blocks->next(row.counts);
        if (fillRow(*label, body, table.cpus.size(), fixed, counts, 0, row, diag, file, lineNo))
            sink.add(std::move(row));
    }
    if (!table.rows.empty())
        readAllRows(data, lines, RowShape{table.cpus.size(), fixed, file}, *blocks, sink, diag,
                    firstRowBytes >= parallelRowBytes ? parallelFrom
                                                      : std::numeric_limits<std::size_t>::max());
    if (table.rows.empty() && !diag.hasErrors())
        diag.warn(file, 0, "no interrupts listed");
    return table;
}

} // namespace detail

InterruptTable parseInterrupts(std::string_view data, Diagnostics& diag, const std::string& file,
                               int cpuCountHint) {
    // Two halves at once only where two CPUs can take them.
    static const std::size_t parallelFrom = std::thread::hardware_concurrency() >= 2
                                                ? detail::kParallelFrom
                                                : std::numeric_limits<std::size_t>::max();
    return detail::parseInterrupts(data, diag, file, cpuCountHint, detail::bestFixedCounts(),
                                   parallelFrom);
}

} // namespace coresteer

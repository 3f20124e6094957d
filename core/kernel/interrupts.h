// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// /proc/interrupts: one row per IRQ (or per named arch counter such as NMI, LOC, IPI0, Err).
#pragma once

#include "core/base/diagnostics.h"
#include "core/kernel/irq_counts.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace coresteer {

struct IrqRow {
    std::string label;                // "35", "NMI", "IPI0", "Err"
    std::optional<std::uint32_t> irq; // set for numbered rows
    IrqCounts counts;                 // one per column of the table (short rows padded with 0)
    int countColumns = 0;             // how many counts the row really had
    std::string chip;                 // "GICv3", "IR-PCI-MSI", "BRCM STB PCIe MSI"
    std::optional<std::uint64_t> hwirq;
    std::string trigger;              // "Level", "Edge", "edge", "fasteoi" (empty when not shown)
    std::vector<std::string> actions; // handler names: "eth0", "15100000.ethernet"
    std::string description;          // named rows: "Rescheduling interrupts"
    int line = 0;                     // line number in the file

    std::uint64_t total() const;
    bool operator==(const IrqRow&) const = default;
};

class InterruptTable {
public:
    static constexpr std::size_t kMaxRows = 1u << 20;

    // CPU ids of the count columns, from the header ("CPU0 CPU2 CPU3" when CPU1 is offline).
    std::vector<int> cpus;
    std::vector<IrqRow> rows;

    const IrqRow* findIrq(std::uint32_t irq) const;
    const IrqRow* findLabel(std::string_view label) const;
    // Column index of a CPU id, or -1.
    int columnOf(int cpu) const;
    // Rebuilds the IRQ index after `rows` was changed by hand.
    void reindex();
    void reindexOne(std::size_t row);
    void reserveIndex(std::size_t n);
    // The same columns and rows (the index follows from the rows).
    bool operator==(const InterruptTable& o) const { return cpus == o.cpus && rows == o.rows; }

private:
    // Open addressing by IRQ number: row index + 1 per slot (0 is free), a power of two slots,
    // at most half of them used. No allocation per row.
    std::vector<std::uint32_t> m_slots;
    std::size_t m_indexed = 0;
    std::size_t slotOf(std::uint32_t irq) const;
    void growIndex(std::size_t rows);
};

// Parses /proc/interrupts. `file` names the file in messages. When the header line is
// missing (a `grep eth` capture), `cpuCountHint` > 0 gives the number of columns.
InterruptTable parseInterrupts(std::string_view data, Diagnostics& diag,
                               const std::string& file = "proc/interrupts", int cpuCountHint = 0);

// One line of a table that has its CPU header, as parseInterrupts reads it there: nullopt (with
// parseInterrupts' warning) when the line makes no row. Whether the row is a duplicate or one
// too many is the table's business. For readers that keep a table up to date line by line.
std::optional<IrqRow> parseInterruptRow(std::string_view line, std::size_t columns,
                                        Diagnostics& diag, const std::string& file, int lineNo);

} // namespace coresteer

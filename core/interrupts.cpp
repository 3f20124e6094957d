#include "core/interrupts.h"

#include "core/cpumask.h"
#include "core/procstat.h"
#include "core/text.h"

#include <array>

namespace coresteer {

using text::Tokenizer;

std::uint64_t IrqRow::total() const {
    std::uint64_t t = 0;
    for (auto c : counts)
        t += c;
    return t;
}

const IrqRow* InterruptTable::findIrq(std::uint32_t irq) const {
    const auto it = m_byIrq.find(irq);
    return it == m_byIrq.end() ? nullptr : &rows[it->second];
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
    m_byIrq.clear();
    m_byIrq.reserve(rows.size());
    for (std::size_t i = 0; i < rows.size(); ++i)
        if (rows[i].irq)
            m_byIrq.emplace(*rows[i].irq, i);
}

void InterruptTable::reindexOne(std::size_t row) {
    if (row < rows.size() && rows[row].irq)
        m_byIrq.emplace(*rows[row].irq, row);
}

namespace {

bool allDigits(std::string_view s) {
    if (s.empty())
        return false;
    for (char c : s)
        if (!text::isDigit(c))
            return false;
    return true;
}

bool isLabelChar(char c) {
    return text::isDigit(c) || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}

bool isFlowName(std::string_view s) {
    static constexpr std::array<std::string_view, 8> flows = {
        "edge", "fasteoi", "level", "simple", "percpu", "percpu_devid", "bad", "XT-PIC"};
    for (auto f : flows)
        if (s == f)
            return true;
    return false;
}

// The columns after the counts: chip, hwirq, trigger, then the actions.
void parseTail(std::string_view tail, IrqRow& row) {
    constexpr std::size_t kMaxHead = 8; // chip (up to 5 words) + hwirq + trigger
    std::array<std::string_view, kMaxHead> tok{};
    std::array<std::size_t, kMaxHead> endPos{};
    Tokenizer tz(tail);
    std::size_t n = 0;
    std::string_view t;
    while (n < kMaxHead && tz.next(t)) {
        tok[n] = t;
        endPos[n] = tz.position();
        ++n;
    }
    if (n == 0)
        return;

    auto joinChip = [&](std::size_t end) {
        std::string chip;
        for (std::size_t i = 0; i < end; ++i) {
            if (i)
                chip += ' ';
            chip += tok[i];
        }
        return chip;
    };
    std::size_t actionsFrom = std::string_view::npos; // position in `tail`
    for (std::size_t i = 0; i < n && actionsFrom == std::string_view::npos; ++i) {
        const auto s = tok[i];
        const bool levelEdge = s == "Level" || s == "Edge" || text::startsWith(s, "Level-") ||
                               text::startsWith(s, "Edge-");
        if (levelEdge && i > 0) {
            // GENERIC_IRQ_SHOW_LEVEL: "<chip> <hwirq> Level"
            std::size_t chipEnd = i;
            if (i >= 2 && allDigits(tok[i - 1])) {
                row.hwirq = text::parseU64(tok[i - 1]);
                chipEnd = i - 1;
            }
            row.chip = joinChip(chipEnd);
            row.trigger = std::string(s.substr(0, s.find('-')));
            actionsFrom = endPos[i];
            break;
        }
        const auto dash = s.find('-');
        if (i > 0 && dash != std::string_view::npos && allDigits(s.substr(0, dash)) &&
            isFlowName(s.substr(dash + 1))) {
            // x86: "<chip> <hwirq>-edge"
            row.hwirq = text::parseU64(s.substr(0, dash));
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
        // No trigger shown (MIPS, some ARM32): "<chip> <hwirq> action" or "<chip> action".
        row.chip = std::string(tok[0]);
        actionsFrom = endPos[0];
        if (n >= 3 && allDigits(tok[1])) {
            row.hwirq = text::parseU64(tok[1]);
            actionsFrom = endPos[1];
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

InterruptTable parseInterrupts(std::string_view data, Diagnostics& diag, const std::string& file,
                               int cpuCountHint) {
    InterruptTable table;
    text::LineReader lines(data);
    std::string_view line;
    bool haveHeader = false;
    while (lines.next(line)) {
        const int lineNo = lines.lineNumber();
        const auto trimmed = text::trim(line);
        if (trimmed.empty())
            continue;
        if (!haveHeader && table.rows.empty() && text::startsWith(trimmed, "CPU")) {
            std::string error;
            haveHeader = parseCpuHeader(trimmed, table.cpus, error);
            if (!haveHeader) {
                diag.error(file, lineNo, error);
                return table;
            }
            continue;
        }
        const auto colon = trimmed.find(':');
        if (colon == std::string_view::npos || colon == 0 || colon > 16) {
            diag.warn(file, lineNo,
                      "skipped a line without an IRQ label: '" + text::printable(trimmed) + "'");
            continue;
        }
        const auto label = trimmed.substr(0, colon);
        bool labelOk = true;
        for (char c : label)
            labelOk = labelOk && isLabelChar(c);
        if (!labelOk) {
            diag.warn(file, lineNo,
                      "skipped a line with a bad IRQ label '" + text::printable(label) + "'");
            continue;
        }
        if (table.rows.size() >= InterruptTable::kMaxRows) {
            diag.error(file, lineNo,
                       "more than " + std::to_string(InterruptTable::kMaxRows) +
                           " rows; the rest is ignored");
            break;
        }

        const auto body = trimmed.substr(colon + 1);
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

        IrqRow row;
        row.line = lineNo;
        row.label = std::string(label);
        if (allDigits(label)) {
            const auto v = text::parseU64(label);
            if (!v || *v > 0xffffffffu) {
                diag.warn(file, lineNo, "IRQ number out of range: " + text::printable(label));
                continue;
            }
            row.irq = static_cast<std::uint32_t>(*v);
        }
        const std::size_t ncol = table.cpus.size();
        row.counts.assign(ncol, 0);
        Tokenizer tz(body);
        std::string_view t;
        std::size_t tailFrom = body.size();
        int counted = 0;
        while (static_cast<std::size_t>(counted) < ncol) {
            const std::size_t before = tz.position();
            if (!tz.next(t))
                break;
            if (!allDigits(t)) {
                tailFrom = before;
                break;
            }
            const auto v = text::parseU64(t);
            if (!v)
                diag.error(file, lineNo,
                           "count out of range in column " + std::to_string(counted + 1));
            row.counts[static_cast<std::size_t>(counted)] = v.value_or(0);
            ++counted;
            tailFrom = tz.position();
        }
        row.countColumns = counted;
        const auto tail = body.substr(std::min(tailFrom, body.size()));
        if (row.irq) {
            if (counted == 0)
                diag.warn(file, lineNo, "IRQ " + row.label + " has no counts");
            parseTail(tail, row);
            if (table.findIrq(*row.irq)) {
                diag.warn(file, lineNo, "IRQ " + row.label + " listed twice; the first is kept");
                continue;
            }
        } else {
            row.description = std::string(text::trim(tail));
        }
        table.rows.push_back(std::move(row));
        if (table.rows.back().irq)
            table.reindexOne(table.rows.size() - 1);
    }
    if (table.rows.empty() && !diag.hasErrors())
        diag.warn(file, 0, "no interrupts listed");
    return table;
}

} // namespace coresteer

// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/kernel/procstat.h"

#include "core/base/cpumask.h"
#include "core/base/text.h"

namespace coresteer {

namespace {
constexpr std::size_t kMaxLines = 1u << 16;
}

std::uint64_t CpuTimes::total() const {
    std::uint64_t t = 0;
    for (int f = User; f <= Steal; ++f)
        t += ticks[static_cast<std::size_t>(f)];
    return t;
}

const CpuTimes* ProcStat::cpu(int id) const {
    for (const auto& c : cpus)
        if (c.cpu == id)
            return &c;
    return nullptr;
}

ProcStat parseProcStat(std::string_view data, Diagnostics& diag, const std::string& file) {
    ProcStat st;
    text::LineReader lines(data);
    std::string_view line;
    while (lines.next(line)) {
        const int lineNo = lines.lineNumber();
        if (static_cast<std::size_t>(lineNo) > kMaxLines) {
            diag.error(file, lineNo, "too many lines; the rest is ignored");
            break;
        }
        text::Tokenizer tz(line);
        std::string_view key;
        if (!tz.next(key))
            continue;
        if (text::startsWith(key, "cpu")) {
            CpuTimes ct;
            if (key.size() > 3) {
                const auto id = text::parseU64(key.substr(3));
                if (!id || *id >= static_cast<std::uint64_t>(CpuMask::kMaxCpus)) {
                    diag.warn(file, lineNo, "bad CPU line '" + text::printable(key) + "'");
                    continue;
                }
                ct.cpu = static_cast<int>(*id);
            }
            std::string_view t;
            bool ok = true;
            while (tz.next(t)) {
                const auto v = text::parseU64(t);
                if (!v) {
                    diag.warn(file, lineNo,
                              "bad counter '" + text::printable(t) + "' on the " +
                                  std::string(key) + " line");
                    ok = false;
                    break;
                }
                if (ct.fields < CpuTimes::Count)
                    ct.ticks[static_cast<std::size_t>(ct.fields)] = *v;
                ++ct.fields;
            }
            if (!ok)
                continue;
            if (ct.fields < 4) {
                diag.warn(file, lineNo,
                          "the " + std::string(key) + " line has only " +
                              std::to_string(ct.fields) + " fields");
                continue;
            }
            if (ct.fields > CpuTimes::Count)
                ct.fields = CpuTimes::Count;
            if (ct.cpu < 0) {
                st.all = ct;
            } else if (st.cpu(ct.cpu)) {
                diag.warn(file, lineNo, "CPU " + std::to_string(ct.cpu) + " listed twice");
            } else {
                st.cpus.push_back(ct);
            }
            continue;
        }
        std::string_view v;
        if (!tz.next(v))
            continue;
        const auto value = text::parseU64(v);
        if (key == "ctxt")
            st.contextSwitches = value;
        else if (key == "btime")
            st.bootTime = value;
        else if (key == "processes")
            st.processes = value;
    }
    if (st.cpus.empty() && !st.all)
        diag.warn(file, 0, "no cpu lines");
    return st;
}

bool parseCpuHeader(std::string_view line, std::vector<int>& cpus, std::string& error) {
    cpus.clear();
    text::Tokenizer tz(line);
    std::string_view t;
    while (tz.next(t)) {
        const auto id = text::startsWith(t, "CPU") ? text::parseU64(t.substr(3)) : std::nullopt;
        if (!id || *id >= static_cast<std::uint64_t>(CpuMask::kMaxCpus)) {
            error = "bad CPU column '" + text::printable(t) + "' in the header";
            cpus.clear();
            return false;
        }
        if (!cpus.empty() && static_cast<int>(*id) <= cpus.back()) {
            error = "CPU columns out of order in the header";
            cpus.clear();
            return false;
        }
        cpus.push_back(static_cast<int>(*id));
    }
    if (cpus.empty()) {
        error = "empty header";
        return false;
    }
    return true;
}

const SoftirqTable::Row* SoftirqTable::find(std::string_view name) const {
    for (const auto& r : rows)
        if (r.name == name)
            return &r;
    return nullptr;
}

SoftirqTable parseSoftirqs(std::string_view data, Diagnostics& diag, const std::string& file) {
    SoftirqTable table;
    text::LineReader lines(data);
    std::string_view line;
    while (lines.next(line)) {
        const int lineNo = lines.lineNumber();
        const auto trimmed = text::trim(line);
        if (trimmed.empty())
            continue;
        if (table.cpus.empty()) {
            std::string error;
            if (!parseCpuHeader(trimmed, table.cpus, error)) {
                diag.error(file, lineNo, error);
                return table;
            }
            continue;
        }
        if (static_cast<std::size_t>(lineNo) > kMaxLines) {
            diag.error(file, lineNo, "too many lines; the rest is ignored");
            break;
        }
        const auto colon = trimmed.find(':');
        if (colon == std::string_view::npos || colon == 0 || colon > 32) {
            diag.warn(file, lineNo, "skipped a line without a softirq name");
            continue;
        }
        SoftirqTable::Row row;
        row.name = std::string(trimmed.substr(0, colon));
        row.counts.assign(table.cpus.size(), 0);
        text::Tokenizer tz(trimmed.substr(colon + 1));
        std::string_view t;
        std::size_t i = 0;
        while (i < row.counts.size() && tz.next(t)) {
            const auto v = text::parseU64(t);
            if (!v) {
                diag.warn(file, lineNo, "bad count '" + text::printable(t) + "' for " + row.name);
                break;
            }
            row.counts[i++] = *v;
        }
        if (i < row.counts.size())
            diag.warn(file, lineNo,
                      row.name + " has " + std::to_string(i) + " of " +
                          std::to_string(row.counts.size()) + " columns");
        table.rows.push_back(std::move(row));
    }
    if (table.cpus.empty())
        diag.warn(file, 0, "no CPU header line");
    return table;
}

std::vector<NetDevCounters> parseNetDev(std::string_view data, Diagnostics& diag,
                                        const std::string& file) {
    std::vector<NetDevCounters> out;
    text::LineReader lines(data);
    std::string_view line;
    while (lines.next(line)) {
        const int lineNo = lines.lineNumber();
        const auto colon = line.find(':');
        if (colon == std::string_view::npos) {
            // the two header lines ("Inter-|   Receive ..." and " face |bytes ...")
            if (lineNo > 2 && !text::trim(line).empty())
                diag.warn(file, lineNo, "skipped a line without an interface name");
            continue;
        }
        if (lineNo > static_cast<int>(kMaxLines)) {
            diag.error(file, lineNo, "too many lines; the rest is ignored");
            break;
        }
        NetDevCounters c;
        c.name = std::string(text::trim(line.substr(0, colon)));
        if (c.name.empty() || c.name.find('|') != std::string::npos) {
            if (lineNo > 2)
                diag.warn(file, lineNo, "skipped a line with a bad interface name");
            continue;
        }
        text::Tokenizer tz(line.substr(colon + 1));
        std::string_view t;
        std::size_t i = 0;
        bool ok = true;
        while (i < NetDevCounters::Count && tz.next(t)) {
            const auto v = text::parseU64(t);
            if (!v) {
                ok = false;
                break;
            }
            c.values[i++] = *v;
        }
        if (!ok || i < NetDevCounters::Count) {
            diag.warn(file, lineNo,
                      "interface '" + text::printable(c.name) + "' has " + std::to_string(i) +
                          " of 16 counters");
            if (!ok)
                continue;
        }
        out.push_back(std::move(c));
    }
    return out;
}

} // namespace coresteer

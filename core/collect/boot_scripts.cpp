// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/collect/boot_scripts.h"

#include "core/base/text.h"

#include <array>
#include <utility>

namespace coresteer {

std::string maskWriteOf(std::string_view line) {
    line = text::trim(line);
    if (line.empty() || line.front() == '#')
        return {};
    std::string_view target; // where the file names that count are
    if (const auto gt = line.find('>'); gt != std::string_view::npos)
        target = line.substr(gt);
    else if (line.find("sysctl -w") != std::string_view::npos ||
             line.find("uci set") != std::string_view::npos ||
             (text::startsWith(line, "for ") && line.find(" in ") != std::string_view::npos))
        target = line;
    static constexpr std::array<std::pair<std::string_view, std::string_view>, 6> kFiles = {{
        {"smp_affinity", "IRQ masks"},
        {"rps_cpus", "RPS"},
        {"rps_flow_cnt", "RPS flows"},
        {"rps_sock_flow_entries", "RPS flows"},
        {"xps_cpus", "XPS"},
        {"packet_steering", "packet_steering"},
    }};
    for (const auto& [file, what] : kFiles)
        if (target.find(file) != std::string_view::npos)
            return std::string(what);
    if (text::startsWith(line, "taskset ") || line.find(" taskset ") != std::string_view::npos)
        return "thread CPUs";
    return {};
}

std::string bootScriptLinesOnly(std::string_view data) {
    std::string out;
    text::LineReader lines(data);
    std::string_view line;
    while (lines.next(line)) {
        if (text::startsWith(text::trim(line), "START=") ||
            line.find(kPersistMarker) != std::string_view::npos || !maskWriteOf(line).empty())
            out += line;
        out += '\n';
    }
    return out;
}

} // namespace coresteer

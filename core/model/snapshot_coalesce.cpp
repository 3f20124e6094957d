// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// Interrupt coalescing from `ethtool -c`. Its text is the tool's, not the kernel's: a key, a
// colon and a value per line ("rx-usecs:\t3"), "n/a" for a parameter the driver does not take
// (ethtool 5.x on, over netlink; older ones print 0 for it), and "Adaptive RX: on  TX: off".
#include "core/base/text.h"
#include "core/model/snapshot_detail.h"

namespace coresteer::detail {

namespace {

// "on" or "off"; nullopt for "n/a" and anything else.
std::optional<bool> onOff(std::string_view v) {
    if (v == "on")
        return true;
    if (v == "off")
        return false;
    return std::nullopt;
}

} // namespace

Coalescing parseCoalescing(std::string_view text, Diagnostics& diag, const std::string& file) {
    Coalescing c;
    int lineNo = 0;
    for (const auto rawLine : text::split(text, '\n')) {
        ++lineNo;
        const auto line = text::trim(rawLine);
        if (text::startsWith(line, "Adaptive RX:")) {
            auto rest = text::trim(line.substr(12));
            c.adaptiveRx = onOff(rest.substr(0, rest.find_first_of(" \t")));
            continue;
        }
        const auto colon = line.find(':');
        if (colon == std::string_view::npos)
            continue;
        const auto key = line.substr(0, colon);
        std::optional<std::uint32_t>* field = key == "rx-usecs"    ? &c.rxUsecs
                                              : key == "rx-frames" ? &c.rxFrames
                                                                   : nullptr;
        if (!field)
            continue;
        const auto value = text::trim(line.substr(colon + 1));
        if (value == "n/a")
            continue;
        const auto n = text::parseU64(value);
        if (!n || *n > 0xffffffffu) {
            diag.warn(file, lineNo,
                      std::string(key) + " is '" + text::printable(value, 40) +
                          "', not a number ethtool prints; left as unknown");
            continue;
        }
        *field = static_cast<std::uint32_t>(*n);
    }
    return c;
}

std::optional<Coalescing> readCoalescing(BundleReader& r, const std::string& name) {
    // ethtool's own refusal means the driver has no coalescing at all: an answer, not a failure.
    return readEthtool<Coalescing>(r, name, "coalesce", parseCoalescing);
}

} // namespace coresteer::detail

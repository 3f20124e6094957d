// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// Boot scripts that write masks after coresteer's hotplug script: which, where, and whether
// they run.
#include "core/base/text.h"
#include "core/model/snapshot_detail.h"

#include <algorithm>

namespace coresteer {

std::string Services::MaskScript::whereText() const {
    std::string s;
    for (const auto& w : writes)
        s += (s.empty() ? "" : ", ") + path + ":" + std::to_string(w.line) + " (" + w.what + ")";
    return s;
}

namespace detail {

namespace {

constexpr std::size_t kMaxWrites = 8;

void scan(std::string_view text, Services::MaskScript& s) {
    text::LineReader lines(text);
    std::string_view line;
    while (lines.next(line)) {
        const auto t = text::trim(line);
        if (s.service.size() && text::startsWith(t, "START=")) {
            if (const auto n = text::parseU64(t.substr(6)); n && *n <= 99)
                s.start = static_cast<int>(*n);
            continue;
        }
        auto what = maskWriteOf(line);
        if (!what.empty() && s.writes.size() < kMaxWrites)
            s.writes.push_back({lines.lineNumber(), std::move(what)});
    }
}

} // namespace

std::vector<Services::MaskScript> readMaskScripts(BundleReader& r) {
    std::vector<Services::MaskScript> out;
    const auto& b = r.bundle();
    const auto rcd = b.list("etc/rc.d");
    // The links coresteer's persist took away: "S93smp_affinity<TAB>../init.d/smp_affinity".
    std::vector<std::string> disabled;
    if (const auto* t = b.file("etc/coresteer/boot-links")) {
        text::LineReader lines(*t);
        std::string_view line;
        while (lines.next(line) && disabled.size() < 256) {
            const auto link = line.substr(0, line.find('\t'));
            if (link.size() > 3)
                disabled.emplace_back(link.substr(3));
        }
    }
    for (const auto& name : b.list("etc/init.d")) {
        // OpenWrt's packet steering and irqbalance are conflicts of their own.
        if (name == "packet_steering" || name == "irqbalance")
            continue;
        const auto* text = b.file("etc/init.d/" + name);
        if (!text || text->find(kPersistMarker) != std::string::npos)
            continue;
        Services::MaskScript s;
        s.path = "/etc/init.d/" + text::printable(name, 64);
        s.service = name;
        scan(*text, s);
        if (s.writes.empty())
            continue;
        for (const auto& link : rcd)
            if (link.size() == 3 + name.size() && (link[0] == 'S' || link[0] == 'K') &&
                link.substr(3) == name && text::isDigit(link[1]) && text::isDigit(link[2])) {
                s.rcLinks.push_back(link);
                s.enabled = s.enabled || link[0] == 'S';
            }
        s.coresteerDisabled = std::find(disabled.begin(), disabled.end(), name) != disabled.end();
        out.push_back(std::move(s));
    }
    if (const auto* text = b.file("etc/rc.local")) {
        Services::MaskScript s;
        s.path = "/etc/rc.local";
        s.enabled = true; // run by /etc/init.d/done (OpenWrt) or rc-local.service
        s.coresteerAfter = text->find(kPersistMarker) != std::string::npos;
        scan(*text, s);
        if (!s.writes.empty())
            out.push_back(std::move(s));
    }
    return out;
}

} // namespace detail

} // namespace coresteer

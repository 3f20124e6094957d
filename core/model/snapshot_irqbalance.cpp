// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// What irqbalance is told to leave alone: the IRQs banned by the owner and by coresteer.
#include "core/base/text.h"
#include "core/model/snapshot_detail.h"

#include <algorithm>

namespace coresteer {

std::vector<std::uint32_t> Services::IrqbalanceBans::all() const {
    std::vector<std::uint32_t> out = owner;
    out.insert(out.end(), coresteer.begin(), coresteer.end());
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

namespace detail {

namespace {

constexpr std::size_t kMaxBans = 4096;

void addIrq(std::vector<std::uint32_t>& out, std::string_view s) {
    const auto v = text::parseU64(text::trim(s));
    if (v && *v <= 0xffffffffu && out.size() < kMaxBans)
        out.push_back(static_cast<std::uint32_t>(*v));
}

// The IRQs that irqbalance's arguments ban: --banirq=N, --banirq N, -i N, -iN.
void bannedInArguments(const std::vector<std::string_view>& args, std::vector<std::uint32_t>& out) {
    for (std::size_t i = 0; i < args.size(); ++i) {
        const auto a = args[i];
        const bool next = i + 1 < args.size();
        if (text::startsWith(a, "--banirq="))
            addIrq(out, a.substr(9));
        else if ((a == "--banirq" || a == "-i") && next)
            addIrq(out, args[++i]);
        else if (a.size() > 2 && text::startsWith(a, "-i") && a[2] != '-')
            addIrq(out, a.substr(2));
    }
}

std::vector<std::string_view> words(std::string_view s) {
    std::vector<std::string_view> out;
    text::Tokenizer tz(s);
    std::string_view w;
    while (tz.next(w) && out.size() < kMaxBans)
        out.push_back(w);
    return out;
}

void sortUnique(std::vector<std::uint32_t>& v) {
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
}

} // namespace

Services::IrqbalanceBans readIrqbalance(BundleReader& r) {
    Services::IrqbalanceBans b;
    // OpenWrt's package: its init script gives irqbalance "-i N" for each "list banirq", and
    // banned_cpulist as IRQBALANCE_BANNED_CPULIST.
    if (auto t = r.text("etc/config/irqbalance")) {
        for (const auto& v : uciValues(*t, "irqbalance", "list", "banirq"))
            addIrq(b.owner, v);
        if (auto c = uciOption(*t, "irqbalance", "banned_cpulist"))
            b.bannedCpus = text::printable(*c, 200);
    }
    // Debian's and Fedora's units read IRQBALANCE_ARGS and IRQBALANCE_BANNED_CPULIST from here.
    if (auto t = r.text("etc/default/irqbalance")) {
        Diagnostics quiet; // a commented-out or odd line is the owner's business
        auto kv = parseShellAssignments(*t, quiet, "etc/default/irqbalance");
        bannedInArguments(words(kv["IRQBALANCE_ARGS"]), b.owner);
        if (b.bannedCpus.empty())
            b.bannedCpus = kv["IRQBALANCE_BANNED_CPULIST"];
    }
    // The daemon as it runs (its command line, NUL-separated), coresteer's drop-in included.
    for (const auto& p : r.bundle().list("proc")) {
        const auto* comm = r.bundle().file("proc/" + p + "/comm");
        const auto* cmdline = r.bundle().file("proc/" + p + "/cmdline");
        if (!comm || !cmdline || text::trim(*comm) != "irqbalance")
            continue;
        std::vector<std::string_view> args;
        for (auto a : text::split(*cmdline, '\0'))
            if (!a.empty() && args.size() < kMaxBans)
                args.push_back(a);
        bannedInArguments(args, b.owner);
    }
    if (auto t = r.text("etc/coresteer/irqbalance.banned")) {
        text::LineReader lines(*t);
        std::string_view line;
        while (lines.next(line))
            addIrq(b.coresteer, line);
    }
    sortUnique(b.owner);
    sortUnique(b.coresteer);
    // Coresteer's own bans are not the owner's, wherever they are read back from.
    std::erase_if(b.owner, [&](std::uint32_t irq) {
        return std::binary_search(b.coresteer.begin(), b.coresteer.end(), irq);
    });
    return b;
}

} // namespace detail

} // namespace coresteer

// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// cpufreq policies: which CPUs share a clock, the governor that drives it, its frequencies.
#include "core/base/text.h"
#include "core/model/snapshot_detail.h"

#include <algorithm>

namespace coresteer::detail {

namespace {

constexpr std::size_t kMaxPolicies = 1024;
constexpr std::size_t kMaxGovernors = 16;

} // namespace

std::vector<CpufreqPolicy> readCpufreqPolicies(BundleReader& r, int width) {
    std::vector<CpufreqPolicy> out;
    const std::string base = "sys/devices/system/cpu/cpufreq/";
    for (const auto& name : r.bundle().list("sys/devices/system/cpu/cpufreq")) {
        if (!matchComponent("policy#", name) || out.size() >= kMaxPolicies)
            continue;
        const auto id = text::parseU64(std::string_view(name).substr(6));
        if (!id || *id > 8192)
            continue;
        CpufreqPolicy p;
        p.id = static_cast<int>(*id);
        const std::string dir = base + name + "/";
        // related_cpus is a list of numbers apart by blanks ("0 1 2 3").
        if (auto t = r.line(dir + "related_cpus")) {
            text::Tokenizer tz(*t);
            std::string_view w;
            while (tz.next(w))
                if (const auto c = text::parseU64(w); c && *c < CpuMask::kMaxCpus)
                    p.cpus.set(static_cast<int>(*c));
        }
        p.cpus.setWidth(width);
        if (auto g = r.line(dir + "scaling_governor"); g && validGovernorName(*g))
            p.governor = *g;
        if (auto t = r.line(dir + "scaling_available_governors")) {
            text::Tokenizer tz(*t);
            std::string_view w;
            while (tz.next(w) && p.available.size() < kMaxGovernors)
                if (validGovernorName(w))
                    p.available.emplace_back(w);
        }
        auto khz = [&](const char* f) -> std::optional<std::uint32_t> {
            if (const auto v = r.number(dir + f, 100'000'000))
                return static_cast<std::uint32_t>(*v);
            return std::nullopt;
        };
        p.minKHz = khz("scaling_min_freq");
        p.maxKHz = khz("scaling_max_freq");
        p.curKHz = khz("scaling_cur_freq");
        p.hwMinKHz = khz("cpuinfo_min_freq");
        p.hwMaxKHz = khz("cpuinfo_max_freq");
        out.push_back(std::move(p));
    }
    std::sort(out.begin(), out.end(),
              [](const CpufreqPolicy& a, const CpufreqPolicy& b) { return a.id < b.id; });
    return out;
}

} // namespace coresteer::detail

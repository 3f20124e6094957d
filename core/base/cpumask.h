// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// CpuMask: a set of CPUs of any width, in the kernel's two text formats.
//
//   hex:     "ff,ffffffff"  (bitmap_print_to_pagebuf: 32-bit groups, high group first)
//   cpulist: "0-3,6"        (bitmap_print_list; also accepts "0-15:2/4" strides)
//
// A mask parsed from hex remembers its width (nr_cpu_ids as the kernel printed it), so
// printing it again gives back exactly the same text.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace coresteer {

class CpuMask {
public:
    static constexpr int kMaxCpus = 8192; // the kernel's largest NR_CPUS

    CpuMask() = default;
    explicit CpuMask(int width);

    // nullopt and a message in *error on bad input (never throws).
    static std::optional<CpuMask> fromHex(std::string_view text, std::string* error = nullptr);
    static std::optional<CpuMask> fromList(std::string_view text, std::string* error = nullptr);
    static CpuMask fromCpus(const std::vector<int>& cpus, int width = 0);
    // First CPUs [0, n).
    static CpuMask firstN(int n);

    // Kernel hex format for this mask's width (at least wide enough for its highest CPU).
    std::string toHex() const;
    std::string toHex(int width) const;
    std::string toList() const;

    bool test(int cpu) const;
    void set(int cpu,
             bool on = true); // grows the width when needed; ignores cpu outside [0, kMaxCpus)
    int width() const { return m_width; }
    void setWidth(int width);
    int count() const;
    bool none() const { return count() == 0; }
    int highest() const; // -1 when empty
    std::vector<int> cpus() const;

    bool isSubsetOf(const CpuMask& other) const;
    CpuMask operator|(const CpuMask& o) const;
    CpuMask operator&(const CpuMask& o) const;
    CpuMask minus(const CpuMask& o) const;
    // Same CPUs, whatever the widths.
    bool operator==(const CpuMask& o) const;

private:
    std::vector<std::uint64_t> m_words;
    int m_width = 0;
};

} // namespace coresteer

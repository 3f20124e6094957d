// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// A cpufreq policy in a board fixture's copy: /sys/devices/system/cpu/cpufreq/policy0 over CPUs
// 0-3, as the kernel lays it out (frequencies in kHz). Never the build machine's own /sys.
#pragma once

#include <filesystem>
#include <fstream>
#include <string>

namespace coresteer::test {

inline void writeCpufreqPolicy(
    const std::filesystem::path& root, const std::string& governor,
    const std::string& available = "ondemand userspace powersave performance schedutil",
    const std::string& maxKHz = "1800000") {
    const auto d = root / "sys/devices/system/cpu/cpufreq/policy0";
    std::filesystem::create_directories(d);
    auto put = [&](const char* name, const std::string& value) {
        std::ofstream(d / name, std::ios::binary | std::ios::trunc) << value << "\n";
    };
    put("related_cpus", "0 1 2 3");
    put("scaling_governor", governor);
    put("scaling_available_governors", available + " ");
    put("scaling_min_freq", "437500");
    put("scaling_max_freq", maxKHz);
    put("scaling_cur_freq", "437500");
    put("cpuinfo_min_freq", "437500");
    put("cpuinfo_max_freq", "1800000");
}

// A copy of a board fixture at `dir` with that policy.
inline std::filesystem::path boardWithCpufreqPolicy(const std::filesystem::path& board,
                                                    const std::filesystem::path& dir,
                                                    const std::string& governor,
                                                    const std::string& available) {
    std::filesystem::remove_all(dir);
    std::filesystem::copy(board, dir,
                          std::filesystem::copy_options::recursive |
                              std::filesystem::copy_options::copy_symlinks);
    writeCpufreqPolicy(dir, governor, available);
    return dir;
}

} // namespace coresteer::test

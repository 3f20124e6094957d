// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/kernel/procstat.h"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    coresteer::Diagnostics d;
    const auto st =
        coresteer::parseProcStat(std::string_view(reinterpret_cast<const char*>(data), size), d);
    for (const auto& c : st.cpus)
        if (c.cpu < 0 || c.fields < 4 || c.fields > coresteer::CpuTimes::Count)
            std::abort();
    return 0;
}

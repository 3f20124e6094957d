// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/kernel/procstat.h"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    coresteer::Diagnostics d;
    const auto t =
        coresteer::parseSoftirqs(std::string_view(reinterpret_cast<const char*>(data), size), d);
    for (const auto& r : t.rows)
        if (r.counts.size() != t.cpus.size())
            std::abort();
    return 0;
}

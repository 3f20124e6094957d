// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// Both mask formats, and the round-trip properties the rest of coresteer relies on.
#include "core/base/cpumask.h"

#include <cstdlib>

using coresteer::CpuMask;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    if (const auto m = CpuMask::fromHex(text)) {
        const auto again = CpuMask::fromHex(m->toHex());
        if (!again || !(*again == *m) || again->toHex() != m->toHex())
            std::abort();
        const auto viaList = CpuMask::fromList(m->toList());
        if (!viaList || !(*viaList == *m))
            std::abort();
    }
    if (const auto m = CpuMask::fromList(text)) {
        const auto again = CpuMask::fromList(m->toList());
        if (!again || !(*again == *m) || m->count() > CpuMask::kMaxCpus)
            std::abort();
    }
    return 0;
}

// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/kernel/procstat.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    coresteer::Diagnostics d;
    (void)coresteer::parseNetDev(std::string_view(reinterpret_cast<const char*>(data), size), d);
    return 0;
}

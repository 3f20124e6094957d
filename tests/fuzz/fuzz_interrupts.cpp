// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/kernel/interrupts.h"
#include "core/kernel/interrupts_fixed.h"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0)
        return 0;
    // The first byte picks a CPU hint for header-less input.
    const int hint = data[0] % 17;
    const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
    coresteer::Diagnostics d;
    const auto t = coresteer::parseInterrupts(text, d, "proc/interrupts", hint);
    for (const auto& r : t.rows) {
        if (r.counts.size() != t.cpus.size())
            std::abort(); // every row has one count per column
        if (r.irq && !t.findIrq(*r.irq))
            std::abort();
    }
    // Every fast way of reading the counts gives what the token reader gives.
    using coresteer::detail::FixedCounts;
    coresteer::Diagnostics rd;
    const auto ref =
        coresteer::detail::parseInterrupts(text, rd, "proc/interrupts", hint, FixedCounts::None);
    for (const auto how : {FixedCounts::Words, FixedCounts::Avx2}) {
        if (!coresteer::detail::fixedCountsAvailable(how))
            continue;
        coresteer::Diagnostics fd;
        if (!(coresteer::detail::parseInterrupts(text, fd, "proc/interrupts", hint, how) == ref) ||
            fd.entries() != rd.entries())
            std::abort();
    }
    // Read in two halves at once (the second on a thread of its own), with a row limit the
    // input can reach (the second byte picks it), it gives what reading on gives. One input in
    // four (by its second byte): a thread for each input would take most of the run under ASan.
    if (size < 2 || data[1] % 4 != 0)
        return 0;
    const std::size_t limit = 1 + (data[1] / 4) % 64;
    coresteer::Diagnostics ld, hd;
    const auto on = coresteer::detail::parseInterrupts(text, ld, "proc/interrupts", hint,
                                                       FixedCounts::None, std::size_t(-1), limit);
    const auto halves = coresteer::detail::parseInterrupts(
        text, hd, "proc/interrupts", hint, coresteer::detail::bestFixedCounts(), 1, limit, 0);
    if (!(halves == on) || hd.entries() != ld.entries() || hd.suppressed() != ld.suppressed() ||
        hd.hasErrors() != ld.hasErrors())
        std::abort();
    return 0;
}

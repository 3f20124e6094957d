#include "core/interrupts.h"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0)
        return 0;
    // The first byte picks a CPU hint for header-less input.
    const int hint = data[0] % 17;
    coresteer::Diagnostics d;
    const auto t = coresteer::parseInterrupts(
        std::string_view(reinterpret_cast<const char*>(data) + 1, size - 1), d, "proc/interrupts",
        hint);
    for (const auto& r : t.rows) {
        if (r.counts.size() != t.cpus.size())
            std::abort(); // every row has one count per column
        if (r.irq && !t.findIrq(*r.irq))
            std::abort();
    }
    return 0;
}

#include "core/live/sample.h"
#include "core/live/stream.h"

#include <cstdint>
#include <string_view>
#include <vector>

// What a router's sampler prints, from anyone and in pieces of any size (the first byte sets
// the size): decoded, every tick parsed, and rates taken between ticks, without a crash.
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0)
        return 0;
    const std::size_t piece = 1 + data[0] % 64;
    std::string_view rest(reinterpret_cast<const char*>(data) + 1, size - 1);
    coresteer::SampleDecoder decoder;
    std::vector<coresteer::SampleTexts> ticks;
    std::string error;
    while (!rest.empty()) {
        const auto n = std::min(piece, rest.size());
        if (!decoder.feed(rest.substr(0, n), ticks, &error))
            break;
        rest.remove_prefix(n);
    }
    std::optional<coresteer::Sample> last;
    for (const auto& t : ticks) {
        coresteer::Diagnostics d;
        auto s = coresteer::parseSample(t, d);
        if (s && last)
            (void)coresteer::computeRates(*last, *s);
        if (s)
            last = std::move(s);
    }
    return 0;
}

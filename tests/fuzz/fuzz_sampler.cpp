// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/live/sample.h"
#include "core/live/stream.h"

#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

// What a router's sampler prints, from anyone and in pieces of any size (the first byte sets
// the size): decoded, every tick parsed, and rates taken between ticks (held over the ticks that
// read /proc/stat alone, and those without their uptime dated by the CPUs' times), without a
// crash. The second byte picks caps small enough for fuzzed input to reach: while the decoder
// takes what it is fed, it keeps no more than the cap on one tick and hands over no more ticks
// at once than its cap on pending ticks; past a cap it fails and says so.
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 2)
        return 0;
    const std::size_t piece = 1 + data[0] % 64;
    coresteer::live::SampleDecoder::Limits limits;
    if (data[1] & 1) {
        limits.tickBytes = 64 + (data[1] >> 1) * 64;
        limits.pendingTicks = 1 + data[1] % 3;
    }
    std::string_view rest(reinterpret_cast<const char*>(data) + 2, size - 2);
    coresteer::live::SampleDecoder decoder(limits);
    std::string error;
    std::optional<coresteer::live::Sample> last, dated;
    std::optional<coresteer::live::Rates> held; // for ticks of /proc/stat alone
    while (!rest.empty()) {
        const auto n = std::min(piece, rest.size());
        std::vector<coresteer::live::SampleTexts> ticks;
        const bool ok = decoder.feed(rest.substr(0, n), ticks, &error);
        if (ticks.size() > limits.pendingTicks)
            std::abort();
        if (ok && decoder.keptBytes() > limits.tickBytes)
            std::abort();
        if (!ok && decoder.overflowed() && error.find("cap") == std::string::npos &&
            error.find("ticks at once") == std::string::npos)
            std::abort(); // a cap that does not say so
        for (auto& t : ticks) {
            coresteer::Diagnostics d;
            // A tick without its uptime is dated as SshSource dates it, from the last dated one:
            // after the tick before, and no further on than it may be.
            const bool undated = t.uptime == std::string(coresteer::live::kNoUptime) + "\n";
            if (undated && dated)
                t.uptime = std::to_string(dated->uptime) + "\n";
            auto s = coresteer::live::parseSample(t, d);
            if (s && undated) {
                const double after = last ? last->uptime : dated->uptime;
                const auto up =
                    coresteer::live::estimateUptime(dated->uptime, dated->stat, s->stat, after, 5);
                if (up && !(*up > after && (*up <= dated->uptime + 5 || *up == after + 0.001)))
                    std::abort();
                if (!up)
                    s.reset();
                else
                    s->uptime = *up;
            } else if (s) {
                dated = s;
            }
            if (s && last) {
                auto r = coresteer::live::computeRates(*last, *s, held ? &*held : nullptr);
                // Counter rates only over time that went forward, held or not.
                if (r && !r->irqs.empty() && !(r->countersEnd > r->countersStart))
                    std::abort();
                held = std::move(r);
            }
            if (s)
                last = std::move(s);
        }
        if (!ok)
            break;
        rest.remove_prefix(n);
    }
    return 0;
}

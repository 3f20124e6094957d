#include "core/live/recording.h"

#include <cstdlib>

// A recording from anyone: read, replayed, summarised and exported without a crash, and a
// recording that reads always replays to its end.
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::string error;
    const auto r = coresteer::readRecording(
        std::string_view(reinterpret_cast<const char*>(data), size), &error);
    if (!r)
        return 0;
    coresteer::Replay replay(*r);
    coresteer::ReplayEvent e;
    while (replay.next(e)) {
    }
    if (!replay.error().empty())
        std::abort();
    if (!coresteer::summarize(*r, &error) || !coresteer::recordingCsv(*r, &error))
        std::abort();
    return 0;
}

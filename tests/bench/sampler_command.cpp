// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// Prints the command the live sampler runs on a router (makeSamplerCommand), for
// tests/bench/sampler_cost.sh to run it under BusyBox awk as well as mawk.
//   sampler_command [ROOT [WHOLE_MAX]]    (WHOLE_MAX 0: every file by its lines)
#include "core/live/stream.h"

#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv) {
    const std::size_t wholeMax =
        argc > 2 ? std::strtoull(argv[2], nullptr, 10) : coresteer::live::kSamplerWholeMax;
    std::puts(coresteer::live::makeSamplerCommand(argc > 1 ? argv[1] : "/", wholeMax).c_str());
    return 0;
}

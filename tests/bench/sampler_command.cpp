// Prints the command the live sampler runs on a router (makeSamplerCommand), for
// tests/bench/sampler_cost.sh to run it under BusyBox awk as well as mawk.
//   sampler_command [ROOT]
#include "core/live/stream.h"

#include <cstdio>

int main(int argc, char** argv) {
    std::puts(coresteer::makeSamplerCommand(argc > 1 ? argv[1] : "/").c_str());
    return 0;
}

// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The tuner's verdict, proven by simulation through its real decision code
// (tests/support/verdict_sim.h): for 1, 4 and 7 candidates, one and two directions, normal,
// heavy-tailed (t3) and skewed noise, all with drift inside the blocks, every run judged at
// every look of its plan:
//   - the false-winner rate (a candidate that changes nothing qualifying at any look) with its
//     one-sided 95 % upper bound; target: the bound at most 5 %;
//   - the share of runs in which some objective interval missed its true gain at some look (the
//     simultaneous coverage is one minus it); target: the coverage at least 95 %;
//   - the power to name, among 4 candidates, one that gains 1.5 standard deviations of a single
//     trial; target: at least 80 % within the plan, which the default budget fits.
// Prints one line a case and exits 1 when a target is missed. --runs N (default 2000),
// --quick (the worst cases only).
#include "tests/support/verdict_sim.h"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>

using namespace coresteer::simulate;

int main(int argc, char** argv) {
    int runs = 2000;
    bool quick = false;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--runs") && i + 1 < argc)
            runs = std::atoi(argv[++i]);
        else if (!std::strcmp(argv[i], "--quick"))
            quick = true;
    }
    int failures = 0;
    const auto started = std::chrono::steady_clock::now();
    std::printf("The verdict by simulation: %d runs a case, drift inside every block.\n\n", runs);
    std::printf("%-44s %6s %7s %9s %9s %8s %8s\n", "case", "looks", "false", "95% upper",
                "coverage", "decided", "blocks");
    const std::vector<int> sizes = quick ? std::vector<int>{7} : std::vector<int>{1, 4, 7};
    const std::vector<int> dirs = quick ? std::vector<int>{2} : std::vector<int>{1, 2};
    std::uint64_t seed = 1;
    for (const int k : sizes)
        for (const int d : dirs)
            for (const auto noise : {Noise::Normal, Noise::T3, Noise::Skewed}) {
                Case c;
                c.candidates = k;
                c.directions = d;
                c.noise = noise;
                c.runs = runs;
                c.seed = seed++;
                const auto r = run(c);
                const double rate = static_cast<double>(r.falseClaims) / r.runs;
                const double upper = upperBound(r.falseClaims, r.runs);
                const double coverage = 1 - static_cast<double>(r.misses) / r.runs;
                const auto plan = makePlan(k);
                std::string looks;
                for (int l : plan.looks)
                    looks += (looks.empty() ? "" : ",") + std::to_string(l);
                const std::string name = std::to_string(k) + " placebo" + (k > 1 ? "s" : "") +
                                         ", " + (d == 1 ? "download" : "download+upload") + ", " +
                                         toString(noise);
                const bool ok = upper <= 0.05 && coverage >= 0.95;
                failures += !ok;
                std::printf("%-44s %6s %6.2f%% %8.2f%% %8.1f%% %7.1f%% %8.1f %s\n", name.c_str(),
                            looks.c_str(), 100 * rate, 100 * upper, 100 * coverage,
                            100.0 * r.decided / r.runs, static_cast<double>(r.blocks) / r.runs,
                            ok ? "ok" : "FAIL");
                std::fflush(stdout);
            }
    std::printf("\n%-44s %6s %7s %9s %9s %8s %8s\n", "power: 4 candidates, one real", "looks",
                "found", "95% lower", "coverage", "false", "blocks");
    struct PowerCase {
        const char* name;
        int directions;
        bool bothWays;
        Noise noise;
        bool target;
        double slotDrift = 0;
    };
    const std::vector<PowerCase> power =
        quick ? std::vector<PowerCase>{{"+1.5 sd download, normal", 1, true, Noise::Normal, true}}
              : std::vector<PowerCase>{
                    {"+1.5 sd download, normal", 1, true, Noise::Normal, true},
                    {"+1.5 sd download, normal, drift in blocks", 1, true, Noise::Normal, false,
                     0.25},
                    {"+1.5 sd both ways, normal", 2, true, Noise::Normal, true},
                    {"+1.5 sd download only of two, normal", 2, false, Noise::Normal, false},
                    {"+1.5 sd download, t3", 1, true, Noise::T3, false},
                    {"+1.5 sd download, skewed", 1, true, Noise::Skewed, false},
                };
    for (const auto& p : power) {
        Case c;
        c.candidates = 4;
        c.directions = p.directions;
        c.noise = p.noise;
        c.real = 2;
        c.effect = 1.5;
        c.bothWays = p.bothWays;
        c.marginPct = 3;
        c.slotDrift = p.slotDrift;
        c.runs = runs;
        c.seed = seed++;
        const auto r = run(c);
        const double found = static_cast<double>(r.found) / r.runs;
        // The lower bound of the power: one minus the upper bound of the misses.
        const double lower = 1 - upperBound(r.runs - r.found, r.runs);
        const double coverage = 1 - static_cast<double>(r.misses) / r.runs;
        const bool ok = (!p.target || found >= 0.80) && coverage >= 0.95 &&
                        upperBound(r.falseClaims, r.runs) <= 0.05;
        failures += !ok;
        std::string looks;
        for (int l : makePlan(4).looks)
            looks += (looks.empty() ? "" : ",") + std::to_string(l);
        std::printf("%-44s %6s %6.1f%% %8.1f%% %8.1f%% %7.2f%% %8.1f %s%s\n", p.name, looks.c_str(),
                    100 * found, 100 * lower, 100 * coverage, 100.0 * r.falseClaims / r.runs,
                    static_cast<double>(r.blocks) / r.runs, ok ? "ok" : "FAIL",
                    p.target ? "" : " (reported)");
        std::fflush(stdout);
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    std::printf("\nbench_verdict: %d case%s missed a target, in %.0f s\n", failures,
                failures == 1 ? "" : "s", seconds);
    return failures ? 1 : 0;
}

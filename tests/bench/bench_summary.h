// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// What the benchmarks share for their summaries: a console reporter that keeps every run, so
// that main() can print the figures against their targets after the table.
#pragma once

#include <benchmark/benchmark.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

namespace coresteer::bench {

// Prints the usual table and keeps the runs of each benchmark for the summary.
class SummaryReporter : public benchmark::ConsoleReporter {
public:
    using ConsoleReporter::ConsoleReporter;
    void ReportRuns(const std::vector<Run>& runs) override {
        for (const auto& r : runs) {
            const auto name =
                r.run_name.function_name + (r.run_name.args.empty() ? "" : "/" + r.run_name.args);
            if (r.run_type == Run::RT_Iteration)
                m_runs[name].push_back(r);
            else if (r.aggregate_name == "median")
                m_medians[name] = r;
        }
        ConsoleReporter::ReportRuns(runs);
    }
    // The median run by time (several with --benchmark_repetitions), the "median" aggregate
    // (with --benchmark_report_aggregates_only), or nullptr. `bench` is the function's name and
    // its arguments ("BM_BytesToModel/80000/4").
    const Run* median(const std::string& bench) const {
        const auto it = m_runs.find(bench);
        if (it == m_runs.end() || it->second.empty()) {
            const auto agg = m_medians.find(bench);
            return agg == m_medians.end() ? nullptr : &agg->second;
        }
        std::vector<const Run*> v;
        for (const auto& r : it->second)
            v.push_back(&r);
        std::sort(v.begin(), v.end(), [](const Run* a, const Run* b) {
            return a->GetAdjustedRealTime() < b->GetAdjustedRealTime();
        });
        return v[v.size() / 2];
    }

private:
    std::map<std::string, std::vector<Run>> m_runs;
    std::map<std::string, Run> m_medians;
};

inline double counter(const benchmark::BenchmarkReporter::Run& r, const char* name) {
    const auto it = r.counters.find(name);
    return it == r.counters.end() ? 0.0 : it->second.value;
}

// Wall time of one iteration, in seconds.
inline double seconds(const benchmark::BenchmarkReporter::Run& r) {
    return r.GetAdjustedRealTime() / benchmark::GetTimeUnitMultiplier(r.time_unit);
}

// How many targets this run missed: each FAIL that verdict() printed. A benchmark's main
// returns exitStatus(), so that test.sh counts a missed target as a failure.
inline int& missedTargets() {
    static int n = 0;
    return n;
}

inline const char* verdict(bool pass) {
    if (!pass)
        ++missedTargets();
    return pass ? "PASS" : "FAIL";
}

inline int exitStatus() {
    return missedTargets() == 0 ? 0 : 1;
}

// Runs the benchmarks the command line selects (after those registered before), printing
// their table through `reporter`; false when the command line is wrong.
inline bool runBenchmarks(int argc, char** argv, SummaryReporter& reporter) {
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv))
        return false;
    benchmark::RunSpecifiedBenchmarks(&reporter);
    benchmark::Shutdown();
    return true;
}

inline benchmark::ConsoleReporter::OutputOptions consoleOptions(bool tty) {
    return tty ? benchmark::ConsoleReporter::OO_ColorTabular
               : benchmark::ConsoleReporter::OO_Tabular;
}

} // namespace coresteer::bench

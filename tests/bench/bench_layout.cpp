// Layout work on the client: plan, resolve and the generated router scripts, on the smallest
// and the largest seed boards (a 4-core IPQ4019 and a 96-CPU x86 server with 4 multiqueue NICs).
#include "core/collect_local.h"
#include "core/layout/apply.h"
#include "core/layout/persist.h"
#include "core/layout/planner.h"

#include <benchmark/benchmark.h>

#include <filesystem>

using namespace coresteer;

namespace {

const Snapshot& board(const std::string& name) {
    static std::map<std::string, Snapshot> cache;
    auto it = cache.find(name);
    if (it == cache.end())
        it = cache
                 .emplace(name, buildSnapshot(collectLocal(
                                    std::filesystem::path(CORESTEER_FIXTURES) / "boards" / name)))
                 .first;
    return it->second;
}

void BM_Plan(benchmark::State& state, const char* name) {
    const auto& snap = board(name);
    for (auto _ : state)
        benchmark::DoNotOptimize(plan(snap));
}

void BM_Resolve(benchmark::State& state, const char* name) {
    const auto& snap = board(name);
    const auto l = plan(snap);
    std::size_t writes = 0;
    for (auto _ : state) {
        const auto r = resolve(l, snap);
        writes = r.writes.size();
        benchmark::DoNotOptimize(r);
    }
    state.counters["writes"] = static_cast<double>(writes);
}

void BM_ApplyScript(benchmark::State& state, const char* name) {
    const auto& snap = board(name);
    const auto r = resolve(plan(snap), snap);
    std::size_t bytes = 0;
    for (auto _ : state) {
        const auto s = makeApplyScript(r.writes, "/", {});
        bytes = s.script.size();
        benchmark::DoNotOptimize(s);
    }
    state.counters["script_bytes"] = static_cast<double>(bytes);
}

void BM_PersistPlanAndScripts(benchmark::State& state, const char* name) {
    auto snap = board(name);
    snap.system.services.systemd = true; // the x86 board is not OpenWrt
    const auto l = plan(snap);
    std::size_t bytes = 0;
    for (auto _ : state) {
        const auto p = planPersist(l, snap, {}, nullptr);
        const auto s = makePersistScript(*p, "/");
        bytes = s.script.size();
        benchmark::DoNotOptimize(s);
    }
    state.counters["script_bytes"] = static_cast<double>(bytes);
}

} // namespace

BENCHMARK_CAPTURE(BM_Plan, ipq4019, "ipq4019-acrh17")->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Plan, x86_96, "x86-server-96")->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Resolve, ipq4019, "ipq4019-acrh17")->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Resolve, x86_96, "x86-server-96")->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_ApplyScript, x86_96, "x86-server-96")->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_PersistPlanAndScripts, ipq4019, "ipq4019-acrh17")
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_PersistPlanAndScripts, x86_96, "x86-server-96")->Unit(benchmark::kMicrosecond);

BENCHMARK_MAIN();

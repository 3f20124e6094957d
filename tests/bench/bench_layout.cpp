// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// Layout work on the client: plan, resolve and the generated router scripts, on the smallest
// and the largest seed boards (a 4-core IPQ4019 and a 96-CPU x86 server with 4 multiqueue NICs).
#include "core/collect/collect_local.h"
#include "core/layout/apply.h"
#include "core/layout/fleet.h"
#include "core/layout/persist.h"
#include "core/layout/planner.h"
#include "tests/support/board_expect.h"

#include <benchmark/benchmark.h>

#include <filesystem>

using namespace coresteer;
using namespace coresteer::layout;

namespace {

const Snapshot& board(const std::string& name) {
    static std::map<std::string, Snapshot> cache;
    auto it = cache.find(name);
    if (it == cache.end())
        it =
            cache.emplace(name, buildSnapshot(collectLocal(coresteer::test::boardDir(name)))).first;
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

// export ansible: the playbook of a board's plan, its size and the raw commands it takes to
// copy its scripts (pieces under dropbear's 9000-byte limit).
void BM_ExportAnsible(benchmark::State& state, const char* name) {
    const auto snap = board(name);
    Preset p;
    p.name = name;
    p.board = snap.system.boardName;
    p.layout = plan(snap);
    std::size_t bytes = 0, pieces = 0;
    for (auto _ : state) {
        const auto y = makeAnsiblePlaybook(p, {}, nullptr);
        bytes = y->size();
        pieces = 0;
        for (auto at = y->find("      - file: "); at != std::string::npos;
             at = y->find("      - file: ", at + 1))
            ++pieces;
        benchmark::DoNotOptimize(y);
    }
    state.counters["playbook_bytes"] = static_cast<double>(bytes);
    state.counters["copy_commands"] = static_cast<double>(pieces);
}

} // namespace

BENCHMARK_CAPTURE(BM_ExportAnsible, ipq4019, "ipq4019-acrh17")->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_ExportAnsible, x86_96, "x86-server-96")->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Plan, ipq4019, "ipq4019-acrh17")->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Plan, x86_96, "x86-server-96")->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Resolve, ipq4019, "ipq4019-acrh17")->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Resolve, x86_96, "x86-server-96")->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_ApplyScript, x86_96, "x86-server-96")->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_PersistPlanAndScripts, ipq4019, "ipq4019-acrh17")
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_PersistPlanAndScripts, x86_96, "x86-server-96")->Unit(benchmark::kMicrosecond);

BENCHMARK_MAIN();

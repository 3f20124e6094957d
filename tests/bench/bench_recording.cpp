// Recordings: what a tick costs to record and to replay, and how many bytes it takes, for
// routers of 8, 64 and 256 cores (every core busy and 32 NIC IRQs firing on each tick).
#include "core/live/recording.h"

#include <benchmark/benchmark.h>

#include <string>

using namespace coresteer;

namespace {

// Counters of a router with `cores` CPUs at tick `k`: every CPU and IRQ moves.
SampleTexts texts(int cores, int k) {
    SampleTexts t;
    t.uptime = std::to_string(1000 + k / 10) + "." + std::to_string(k % 10) + "0 0.00\n";
    auto cpuLine = [&](const std::string& name, long base) {
        return name + " " + std::to_string(base + 7L * k) + " 0 " + std::to_string(base + 3L * k) +
               " " + std::to_string(base * 4 + 5L * k) + " 0 " + std::to_string(base / 2 + k) +
               " " + std::to_string(base / 3 + 4L * k) + " 0 0 0\n";
    };
    t.stat = cpuLine("cpu ", 100000L * cores);
    for (int c = 0; c < cores; ++c)
        t.stat += cpuLine("cpu" + std::to_string(c), 100000L + c);
    t.softirqs = "   ";
    for (int c = 0; c < cores; ++c)
        t.softirqs += " CPU" + std::to_string(c);
    t.softirqs += "\n";
    for (const char* row : {"NET_TX:", "NET_RX:"}) {
        t.softirqs += row;
        for (int c = 0; c < cores; ++c)
            t.softirqs += " " + std::to_string(5000 + 13L * k + c);
        t.softirqs += "\n";
    }
    t.interrupts = "  ";
    for (int c = 0; c < cores; ++c)
        t.interrupts += " CPU" + std::to_string(c);
    t.interrupts += "\n";
    for (int irq = 100; irq < 132; ++irq) {
        t.interrupts += " " + std::to_string(irq) + ":";
        for (int c = 0; c < cores; ++c)
            t.interrupts += " " + std::to_string(c == irq % cores ? 1000L + 97L * k : 0L);
        t.interrupts += " GICv3 " + std::to_string(irq) + " Level eth" + std::to_string(irq % 4) +
                        "-" + std::to_string(irq) + "\n";
    }
    t.netdev = "Inter-|   Receive\n face |bytes\n";
    for (int i = 0; i < 4; ++i)
        t.netdev += "  eth" + std::to_string(i) + ": " + std::to_string(1000000L * k) + " " +
                    std::to_string(800L * k) + " 0 0 0 0 0 0 " + std::to_string(500000L * k) + " " +
                    std::to_string(400L * k) + " 0 0 0 0 0 0\n";
    return t;
}

void BM_RecordTick(benchmark::State& state) {
    const int cores = static_cast<int>(state.range(0));
    std::vector<SampleTexts> ticks;
    for (int k = 0; k < 64; ++k)
        ticks.push_back(texts(cores, k));
    RecordingWriter w(RecordingInfo{"bench", "2026-11-30T00:00:00Z", 10, {}, {}});
    w.sample(0, ticks[0]);
    std::size_t k = 1;
    const auto before = w.bytes();
    for (auto _ : state) {
        w.sample(static_cast<double>(k) / 10, ticks[k % ticks.size()]);
        ++k;
    }
    const double perTick = static_cast<double>(w.bytes() - before) / static_cast<double>(k - 1);
    state.counters["bytes_per_tick"] = perTick;
    state.counters["MB_per_hour_10Hz"] = perTick * 36000 / 1e6;
}
BENCHMARK(BM_RecordTick)->Arg(8)->Arg(64)->Arg(256)->Unit(benchmark::kMicrosecond);

void BM_ReplayTick(benchmark::State& state) {
    const int cores = static_cast<int>(state.range(0));
    RecordingWriter w(RecordingInfo{"bench", "2026-11-30T00:00:00Z", 10, {}, {}});
    constexpr int kTicks = 200;
    for (int k = 0; k < kTicks; ++k)
        w.sample(k / 10.0, texts(cores, k));
    const auto rec = readRecording(w.text(), nullptr);
    if (!rec) {
        state.SkipWithError("the recording does not read");
        return;
    }
    std::int64_t events = 0;
    for (auto _ : state) {
        Replay replay(*rec);
        ReplayEvent e;
        while (replay.next(e))
            ++events;
    }
    state.SetItemsProcessed(events); // ticks replayed
    state.counters["us_per_tick"] = benchmark::Counter(
        static_cast<double>(events), benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_ReplayTick)->Arg(8)->Arg(64)->Arg(256)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();

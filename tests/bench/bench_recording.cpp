// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// Recordings: what a tick costs to record and to replay, and how many bytes it takes, for
// routers of 8, 64 and 256 cores (every core busy and 32 NIC IRQs firing on each tick); and an
// hour of a router with 20 000 IRQ rows at 10 Hz (36 000 ticks): what it takes to load, its size
// in memory, a seek anywhere and a tick played.
//
// Targets for the hour: a seek (to a time, up to its first event) at most 50 ms anywhere, and
// at most 2 ms a tick played.
#include "core/live/recording.h"
#include "tests/bench/bench_summary.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include <unistd.h>

using namespace coresteer;
using namespace coresteer::live;

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
    RecordingWriter w(RecordingInfo{"bench", "2026-11-30T00:00:00Z", 10, {}, {}, {}});
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

// Replaying a tick; with tiered = 1, of a recording over SSH, where 9 ticks in 10 read
// /proc/stat alone and hold the IRQ, softirq and interface rates of the tick that read them.
void BM_ReplayTick(benchmark::State& state) {
    const int cores = static_cast<int>(state.range(0));
    const bool tiered = state.range(1) != 0;
    RecordingWriter w(RecordingInfo{"bench", "2026-11-30T00:00:00Z", 10, {}, {}, {}});
    constexpr int kTicks = 200;
    for (int k = 0; k < kTicks; ++k) {
        auto t = texts(cores, k);
        if (tiered && k % 10) {
            const auto whole = texts(cores, k - k % 10);
            t.countersUptime = whole.uptime.substr(0, whole.uptime.find(' '));
            t.softirqs = whole.softirqs;
            t.interrupts = whole.interrupts;
            t.netdev = whole.netdev;
        }
        w.sample(k / 10.0, t);
    }
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
BENCHMARK(BM_ReplayTick)
    ->ArgNames({"cores", "tiered"})
    ->ArgsProduct({{8, 64, 256}, {0, 1}})
    ->Unit(benchmark::kMillisecond);

// ---- an hour of a router with 20 000 IRQ rows ------------------------------------------------

constexpr int kHourTicks = 36000;
constexpr int kRows = 20000;
constexpr int kCores = 4;
constexpr int kHotIrqs = 64;    // NIC queues: fire on every tick
constexpr int kWarmIrqs = 2000; // fire now and then: 20 of them on each tick
constexpr int kWarmPerTick = 20;
constexpr std::uint32_t kFirstIrq = 100;

// The recording as the encoder writes it (the first tick whole, then the fields that
// changed), written out directly: encoding 36 000 ticks of 20 000 rows would take minutes.
std::string hourRecording() {
    std::string ev;
    ev.reserve(100u << 20);
    std::vector<std::uint64_t> irq(static_cast<std::size_t>(kRows) * kCores, 0);
    std::uint64_t cpu[kCores + 1][10] = {};
    std::uint64_t soft[2][kCores] = {}, net[4][4] = {};
    char buf[128];
    auto num = [&](std::uint64_t v) {
        const int n = std::snprintf(buf, sizeof buf, "%llu", static_cast<unsigned long long>(v));
        ev.append(buf, static_cast<std::size_t>(n));
    };
    auto cpuName = [](int c) {
        return c == 0 ? std::string("cpu") : "cpu" + std::to_string(c - 1);
    };
    std::uint64_t rng = 0x9E3779B97F4A7C15ULL;
    auto next = [&] {
        rng ^= rng >> 12;
        rng ^= rng << 25;
        rng ^= rng >> 27;
        return rng * 0x2545F4914F6CDD1DULL;
    };
    ev += "P 0.000 idle\n";
    for (int k = 0; k < kHourTicks; ++k) {
        const double t = k / 10.0;
        std::snprintf(buf, sizeof buf, "@ %.3f\nT %.2f\n", t, 5000.0 + t);
        ev += buf;
        if (k == 0) {
            for (int c = 0; c <= kCores; ++c) {
                ev += "+s:" + cpuName(c) + "\t" + cpuName(c);
                for (int f = 0; f < 10; ++f) {
                    ev += ' ';
                    num(cpu[c][f]);
                }
                ev += '\n';
            }
            ev += "+q:H\t                    CPU0       CPU1       CPU2       CPU3\n";
            for (const char* n : {"NET_TX:", "NET_RX:"})
                ev += std::string("+q:") + n + "\t" + n + " 0 0 0 0\n";
            ev += "+i:H\t            CPU0       CPU1       CPU2       CPU3\n";
            for (int r = 0; r < kRows; ++r) {
                const auto n = std::to_string(kFirstIrq + static_cast<unsigned>(r));
                ev += "+i:" + n + ":\t" + n +
                      ":          0          0          0          0  ITS-MSI " +
                      std::to_string(524288 + r) + " Edge      eth" + std::to_string(r % 4) +
                      "-TxRx-" + std::to_string(r) + "\n";
            }
            for (int i = 0; i < 4; ++i)
                ev += "+n:eth" + std::to_string(i) + "\teth" + std::to_string(i) +
                      ": 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n";
            ev += "E\n";
            continue;
        }
        // Every core busy: user, system, idle, irq and softirq move.
        for (int c = 0; c <= kCores; ++c) {
            const std::uint64_t scale = c == 0 ? kCores : 1;
            ev += "=s:" + cpuName(c) + "\t";
            const int fields[] = {1, 3, 4, 6, 7};
            const std::uint64_t add[] = {3, 2, 1, 2, 2};
            for (int f = 0; f < 5; ++f) {
                cpu[c][fields[f] - 1] += add[f] * scale;
                std::snprintf(buf, sizeof buf, "%s%d:", f ? " " : "", fields[f] + 1);
                ev += buf;
                num(cpu[c][fields[f] - 1]);
            }
            ev += '\n';
        }
        for (int q = 0; q < 2; ++q) {
            ev += q ? "=q:NET_RX:\t" : "=q:NET_TX:\t";
            for (int c = 0; c < kCores; ++c) {
                soft[q][c] += 100 + static_cast<std::uint64_t>(c);
                std::snprintf(buf, sizeof buf, "%s%d:", c ? " " : "", c + 2);
                ev += buf;
                num(soft[q][c]);
            }
            ev += '\n';
        }
        auto fire = [&](int r) {
            const int c = r % kCores;
            auto& v = irq[static_cast<std::size_t>(r) * kCores + static_cast<std::size_t>(c)];
            v += 1 + next() % 2000;
            std::snprintf(buf, sizeof buf, "=i:%u:\t%d:", kFirstIrq + static_cast<unsigned>(r),
                          c + 2);
            ev += buf;
            num(v);
            ev += '\n';
        };
        for (int r = 0; r < kHotIrqs; ++r)
            fire(r);
        for (int w = 0; w < kWarmPerTick; ++w)
            fire(kHotIrqs + static_cast<int>(next() % kWarmIrqs));
        for (int i = 0; i < 4; ++i) {
            net[i][0] += 1250000;
            net[i][1] += 900;
            net[i][2] += 125000;
            net[i][3] += 300;
            ev += "=n:eth" + std::to_string(i) + "\t2:";
            num(net[i][0]);
            ev += " 3:";
            num(net[i][1]);
            ev += " 10:";
            num(net[i][2]);
            ev += " 11:";
            num(net[i][3]);
            ev += '\n';
        }
        ev += "E\n";
        std::snprintf(buf, sizeof buf, "L %.3f %.3f\n", t,
                      4.0 + static_cast<double>(next() % 300) / 10);
        ev += buf;
        if (k % 5 == 0) {
            std::snprintf(buf, sizeof buf, "W %.3f 940000000 38000000\n", t);
            ev += buf;
        }
        if (k == 30)
            ev += "P 3.000 load\n";
    }
    ev += "P 3600.000 done\n";
    return "coresteer-recording 1\nlabel bench\nstarted 2026-11-30T00:00:00Z\nhz 10\ncapture 0\n"
           "\nlayout 0\n\nevents\n" +
           ev + "end " + std::to_string(kHourTicks) + "\n";
}

struct Hour {
    std::optional<Recording> rec;
    std::string error;
    double loadSeconds = 0;
    std::size_t fileBytes = 0;
};

const Hour& hour() {
    static const Hour h = [] {
        Hour out;
        const auto text = hourRecording();
        out.fileBytes = text.size();
        const auto t0 = std::chrono::steady_clock::now();
        out.rec = readRecording(text, &out.error);
        out.loadSeconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        return out;
    }();
    return h;
}

// A seek to a time anywhere in the hour, up to the first event there, in a new replay.
void BM_HourSeek(benchmark::State& state) {
    const auto& h = hour();
    if (!h.rec) {
        state.SkipWithError(h.error.c_str());
        return;
    }
    std::uint64_t rng = 12345;
    double worst = 0;
    for (auto _ : state) {
        rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
        const double t = static_cast<double>(rng >> 11) / 9007199254740992.0 * 3600.0;
        const auto t0 = std::chrono::steady_clock::now();
        Replay replay(*h.rec);
        ReplayEvent e;
        if (!replay.seek(t) || !replay.next(e)) {
            state.SkipWithError("seek failed");
            return;
        }
        worst = std::max(
            worst, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
        benchmark::DoNotOptimize(e);
    }
    state.counters["worst_ms"] = worst * 1e3;
}
BENCHMARK(BM_HourSeek)->Iterations(60)->Unit(benchmark::kMillisecond);

// Ticks played one after another from the middle of the hour: an iteration is one tick (the
// probe and throughput events between ticks included).
void BM_HourPlayTick(benchmark::State& state) {
    const auto& h = hour();
    if (!h.rec) {
        state.SkipWithError(h.error.c_str());
        return;
    }
    Replay replay(*h.rec);
    replay.seek(1800);
    ReplayEvent e;
    for (auto _ : state) {
        do {
            if (!replay.next(e)) {
                state.SkipWithError("the hour ended");
                return;
            }
        } while (e.kind != ReplayEvent::Kind::Rates);
        benchmark::DoNotOptimize(e.rates.irqs.data());
    }
    state.counters["irq_rates"] = static_cast<double>(e.rates.irqs.size());
}
BENCHMARK(BM_HourPlayTick)->Iterations(2000)->Unit(benchmark::kMicrosecond);

} // namespace

int main(int argc, char** argv) {
    bench::SummaryReporter reporter(bench::consoleOptions(isatty(STDOUT_FILENO)));
    if (!bench::runBenchmarks(argc, argv, reporter))
        return 1;

    const auto& h = hour();
    std::printf("\nSummary: an hour at 10 Hz (%d ticks) of a %d-CPU router with %d IRQ rows, %d "
                "of them firing on every tick and %d more of %d now and then (targets: a seek "
                "anywhere at most 50 ms, at most 2 ms a tick played):\n",
                kHourTicks, kCores, kRows, kHotIrqs, kWarmPerTick, kWarmIrqs);
    if (!h.rec) {
        std::printf("the recording does not read: %s  [%s]\n", h.error.c_str(),
                    bench::verdict(false));
        return bench::exitStatus();
    }
    std::printf("file %.1f MB, read and checked in %.2f s; in memory %.1f MB with %zu "
                "checkpoints\n",
                static_cast<double>(h.fileBytes) / 1e6, h.loadSeconds,
                static_cast<double>(h.rec->memoryBytes()) / 1e6, h.rec->checkpoints());
    if (const auto* r = reporter.median("BM_HourSeek"); r && !r->error_occurred) {
        const double worst = bench::counter(*r, "worst_ms");
        std::printf("seek: %.1f ms on average, %.1f ms at worst of %lld  [<= 50 ms: %s]\n",
                    bench::seconds(*r) * 1e3, worst, static_cast<long long>(r->iterations),
                    bench::verdict(worst <= 50));
    } else {
        std::printf("seek: not measured  [%s]\n", bench::verdict(false));
    }
    if (const auto* r = reporter.median("BM_HourPlayTick"); r && !r->error_occurred) {
        const double ms = bench::seconds(*r) * 1e3;
        std::printf("play: %.3f ms a tick (%.0f IRQ rates each)  [<= 2 ms: %s]\n", ms,
                    bench::counter(*r, "irq_rates"), bench::verdict(ms <= 2));
    } else {
        std::printf("play: not measured  [%s]\n", bench::verdict(false));
    }
    return bench::exitStatus();
}

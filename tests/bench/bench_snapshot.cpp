// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// Bytes to model: buildSnapshot() of a FileBundle, which is what `coresteer-cli snapshot` does
// once the router's files are read, for routers with many IRQs: 10 000 to 80 000 rows of
// /proc/interrupts on 4 CPUs, and 4 096 rows on 256 CPUs. Every numbered IRQ has its
// smp_affinity and effective_affinity; 16 NICs take their IRQs by action name ("ethN-TxRx-Q"),
// four of them also list them in msi_irqs, four more by their bus device ("mlx5_compQ@pci:..."),
// and the rest are NVMe queues nobody claims.
//
// Targets: 80 000 x 4 and 4 096 x 256 each in at most 300 ms, and 80 000 rows at most 10 times
// the time of 10 000 (linear is 8). Also printed, without a target: the text and the JSON of the
// 80 000-row snapshot, and plan + resolve on it.
#include "core/collect/bundle.h"
#include "core/layout/planner.h"
#include "core/layout/resolve.h"
#include "core/model/snapshot.h"
#include "core/model/snapshot_json.h"
#include "core/model/snapshot_text.h"
#include "tests/bench/bench_summary.h"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <map>
#include <memory>
#include <string>

#include <unistd.h>

using namespace coresteer;
using namespace coresteer::layout;

namespace {

constexpr int kNics = 16;      // eth0..eth15, IRQs by action name
constexpr int kMsiNics = 4;    // eth0..eth3 also list their IRQs in msi_irqs
constexpr int kDeviceNics = 4; // eth16..eth19, IRQs named after the bus device
constexpr int kQueueDirs = 8;  // rx-N and tx-N directories per interface
constexpr int kNamedRows = 6;  // NMI, LOC, ... after the numbered rows
constexpr std::uint32_t kFirstIrq = 24;

std::string pciAddress(int nic) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "0000:%02x:00.0", nic + 1);
    return buf;
}

std::string hexMask(int cpu, int cpus) {
    // The kernel's format: comma-separated groups of 8 hex digits, as many as the CPUs need.
    const int groups = (cpus + 31) / 32;
    std::string out;
    for (int g = groups - 1; g >= 0; --g) {
        char buf[16];
        const unsigned bits = cpu / 32 == g ? 1u << (cpu % 32) : 0u;
        if (g == groups - 1 && cpus % 32)
            std::snprintf(buf, sizeof buf, "%0*x", (cpus % 32 + 3) / 4, bits);
        else
            std::snprintf(buf, sizeof buf, "%08x", bits);
        out += buf;
        if (g)
            out += ',';
    }
    return out + '\n';
}

// The action name of the IRQ in row `k` (0-based among the numbered rows).
std::string actionOf(int k, int rows) {
    const int nicRows = rows * 3 / 4;
    const int perNic = std::max(nicRows / kNics, 1);
    if (k < perNic * kNics)
        return "eth" + std::to_string(k / perNic) + "-TxRx-" + std::to_string(k % perNic);
    const int devRows = rows / 8;
    const int d = k - perNic * kNics;
    if (d < devRows)
        return "mlx5_comp" + std::to_string(d / kDeviceNics) +
               "@pci:" + pciAddress(kNics + d % kDeviceNics);
    return "nvme0q" + std::to_string(d - devRows);
}

struct Shape {
    int rows, cpus;
};

std::shared_ptr<const FileBundle> makeBundle(Shape shape) {
    auto b = std::make_shared<FileBundle>();
    b->origin = "bench";
    auto file = [&](const std::string& path, std::string data) {
        b->add(path, {BundleEntry::Kind::File, std::move(data)});
    };
    auto link = [&](const std::string& path, std::string target) {
        b->add(path, {BundleEntry::Kind::Link, std::move(target)});
    };
    auto dir = [&](const std::string& path, std::string names) {
        b->add(path, {BundleEntry::Kind::Dir, std::move(names)});
    };
    const int cpus = shape.cpus;

    std::string stat = "cpu  1000 0 1000 100000 0 10 10 0 0 0\n";
    for (int c = 0; c < cpus; ++c)
        stat += "cpu" + std::to_string(c) + " 100 0 100 10000 0 1 1 0 0 0\n";
    file("proc/stat", stat + "intr 0\nctxt 100\nbtime 1700000000\nprocesses 1000\n");

    // /proc/interrupts as the kernel prints it.
    std::string irqs(11, ' ');
    for (int c = 0; c < cpus; ++c) {
        char buf[24];
        std::snprintf(buf, sizeof buf, "CPU%-8d", c);
        irqs += buf;
    }
    irqs += '\n';
    char buf[64];
    for (int k = 0; k < shape.rows - kNamedRows; ++k) {
        std::snprintf(buf, sizeof buf, "%6u: ", kFirstIrq + static_cast<unsigned>(k));
        irqs += buf;
        for (int c = 0; c < cpus; ++c) {
            std::snprintf(buf, sizeof buf, "%10u ", (k + c) % 7 == 0 ? 1000u + k : 0u);
            irqs += buf;
        }
        std::snprintf(buf, sizeof buf, " IR-PCI-MSI %u-edge      ", 524288u + k);
        irqs += buf + actionOf(k, shape.rows) + '\n';
    }
    for (const char* n : {"NMI", "LOC", "SPU", "PMI", "IWI", "RES"}) {
        std::snprintf(buf, sizeof buf, "%6s: ", n);
        irqs += buf;
        for (int c = 0; c < cpus; ++c)
            irqs += "         1 ";
        irqs += "  Some interrupts\n";
    }
    file("proc/interrupts", std::move(irqs));
    for (int k = 0; k < shape.rows - kNamedRows; ++k) {
        const std::string d = "proc/irq/" + std::to_string(kFirstIrq + k) + "/";
        file(d + "smp_affinity", hexMask(k % cpus, cpus));
        file(d + "effective_affinity", hexMask(k % cpus, cpus));
    }

    std::string softirqs = "   ";
    for (int c = 0; c < cpus; ++c)
        softirqs += "       CPU" + std::to_string(c);
    softirqs += '\n';
    for (const char* n : {"HI:", "TIMER:", "NET_TX:", "NET_RX:"}) {
        softirqs += n;
        for (int c = 0; c < cpus; ++c)
            softirqs += "        100";
        softirqs += '\n';
    }
    file("proc/softirqs", softirqs);
    std::string netdev = "Inter-|   Receive\n face |bytes\n";
    std::string names;
    for (int n = 0; n < kNics + kDeviceNics; ++n) {
        const std::string name = "eth" + std::to_string(n);
        netdev += name + ": 1 2 0 0 0 0 0 0 3 4 0 0 0 0 0 0\n";
        names += name + '\n';
        const std::string d = "sys/class/net/" + name + "/";
        link(d + "device", "../../../" + pciAddress(n));
        link(d + "device/driver",
             n < kNics ? "../../../bus/pci/drivers/ixgbe" : "../../../bus/pci/drivers/mlx5_core");
        file(d + "ifindex", std::to_string(n + 2) + "\n");
        file(d + "iflink", std::to_string(n + 2) + "\n");
        file(d + "operstate", "up\n");
        file(d + "mtu", "1500\n");
        file(d + "speed", "10000\n");
        std::string queues;
        for (int q = 0; q < kQueueDirs; ++q) {
            queues += "rx-" + std::to_string(q) + '\n';
            file(d + "queues/rx-" + std::to_string(q) + "/rps_cpus", hexMask(q % cpus, cpus));
            file(d + "queues/rx-" + std::to_string(q) + "/rps_flow_cnt", "0\n");
        }
        for (int q = 0; q < kQueueDirs; ++q) {
            queues += "tx-" + std::to_string(q) + '\n';
            file(d + "queues/tx-" + std::to_string(q) + "/xps_cpus", hexMask(q % cpus, cpus));
        }
        dir(d + "queues", queues);
        if (n < kMsiNics) {
            std::map<std::string, bool> msi; // sorted as a listing is
            for (int k = 0; k < shape.rows - kNamedRows; ++k)
                if (actionOf(k, shape.rows).rfind(name + "-", 0) == 0)
                    msi[std::to_string(kFirstIrq + k)] = true;
            std::string list;
            for (const auto& [irq, _] : msi)
                list += irq + '\n';
            dir(d + "device/msi_irqs", list);
        }
    }
    file("proc/net/dev", netdev);
    dir("sys/class/net", names);
    file("sys/devices/system/cpu/online", "0-" + std::to_string(cpus - 1) + "\n");
    file("sys/devices/system/cpu/possible", "0-" + std::to_string(cpus - 1) + "\n");
    file("proc/sys/kernel/hostname", "bench\n");
    file("proc/sys/kernel/osrelease", "6.6.0\n");
    return b;
}

// The bundle of a shape, made once.
const FileBundle& bundle(Shape shape) {
    static std::map<std::pair<int, int>, std::shared_ptr<const FileBundle>> cache;
    auto& b = cache[{shape.rows, shape.cpus}];
    if (!b)
        b = makeBundle(shape);
    return *b;
}

// What the snapshot must say, so that a fast but wrong build shows up.
std::string check(const Snapshot& s, Shape shape) {
    const auto numbered = static_cast<std::size_t>(shape.rows - kNamedRows);
    if (!s.diagnostics.empty())
        return "diagnostics: " + s.diagnostics.entries().front().toString();
    if (s.irqs.size() != numbered || s.topology.cpus.size() != static_cast<std::size_t>(shape.cpus))
        return "wrong shape";
    if (s.interfaces.size() != kNics + kDeviceNics)
        return "wrong interfaces";
    const auto* eth0 = s.interface("eth0");
    const auto* first = s.irq(kFirstIrq);
    if (!eth0 || !first || first->attribution != Attribution::MsiIrqs ||
        first->interfaces != std::vector<std::string>{"eth0"} || !first->smpAffinity)
        return "eth0's first IRQ misread";
    const auto* eth15 = s.interface("eth15");
    if (!eth15 || eth15->irqs.empty() ||
        s.irq(eth15->irqs.back())->attribution != Attribution::ActionName)
        return "eth15's IRQs misread";
    const auto* eth16 = s.interface("eth16");
    if (!eth16 || eth16->irqs.empty() ||
        s.irq(eth16->irqs.front())->attribution != Attribution::BusDevice)
        return "eth16's IRQs misread";
    std::size_t attributed = 0;
    for (const auto& n : s.interfaces)
        attributed += n.irqs.size();
    const auto nicRows = static_cast<std::size_t>(shape.rows * 3 / 4 / kNics * kNics);
    if (attributed != nicRows + static_cast<std::size_t>(shape.rows / 8))
        return "attributed " + std::to_string(attributed) + " IRQs";
    return {};
}

void BM_BytesToModel(benchmark::State& state) {
    const Shape shape{static_cast<int>(state.range(0)), static_cast<int>(state.range(1))};
    const auto& b = bundle(shape);
    if (const auto problem = check(buildSnapshot(b), shape); !problem.empty()) {
        state.SkipWithError(problem.c_str());
        return;
    }
    for (auto _ : state) {
        auto s = buildSnapshot(b);
        benchmark::DoNotOptimize(s.irqs.data());
    }
    state.counters["bundle_MB"] = static_cast<double>(b.totalBytes()) / 1e6;
    state.counters["entries"] = static_cast<double>(b.entries().size());
}
// Three runs of each, whose median the summary takes: the growth compares two of them.
BENCHMARK(BM_BytesToModel)
    ->Args({10000, 4})
    ->Args({20000, 4})
    ->Args({40000, 4})
    ->Args({80000, 4})
    ->Args({4096, 256})
    ->MinTime(0.4)
    ->Repetitions(3)
    ->Unit(benchmark::kMillisecond);

// The snapshot of the benchmark's shape, built once.
const Snapshot& model(const benchmark::State& state) {
    static std::map<std::pair<int, int>, Snapshot> cache;
    const Shape shape{static_cast<int>(state.range(0)), static_cast<int>(state.range(1))};
    auto it = cache.find({shape.rows, shape.cpus});
    if (it == cache.end())
        it = cache.emplace(std::pair{shape.rows, shape.cpus}, buildSnapshot(bundle(shape))).first;
    return it->second;
}

// What the verb does with the model: the text, or the JSON.
void BM_ModelToText(benchmark::State& state) {
    for (auto _ : state)
        benchmark::DoNotOptimize(toText(model(state)));
}
BENCHMARK(BM_ModelToText)->Args({80000, 4})->Unit(benchmark::kMillisecond);

void BM_ModelToJson(benchmark::State& state) {
    for (auto _ : state)
        benchmark::DoNotOptimize(toJsonText(model(state)));
}
BENCHMARK(BM_ModelToJson)->Args({80000, 4})->Unit(benchmark::kMillisecond);

void BM_PlanAndResolve(benchmark::State& state) {
    const auto& s = model(state);
    std::size_t writes = 0;
    for (auto _ : state) {
        const auto r = resolve(plan(s), s);
        writes = r.writes.size();
        benchmark::DoNotOptimize(r);
    }
    state.counters["writes"] = static_cast<double>(writes);
}
BENCHMARK(BM_PlanAndResolve)->Args({80000, 4})->Unit(benchmark::kMillisecond);

} // namespace

int main(int argc, char** argv) {
    bench::SummaryReporter reporter(bench::consoleOptions(isatty(STDOUT_FILENO)));
    if (!bench::runBenchmarks(argc, argv, reporter))
        return 1;

    auto ms = [&](const std::string& name) -> std::optional<double> {
        const auto* r = reporter.median(name);
        if (!r || r->error_occurred)
            return std::nullopt;
        return bench::seconds(*r) * 1e3;
    };
    std::printf(
        "\nSummary (targets: bytes to model in at most 300 ms for 80000 x 4 and 4096 x 256; "
        "80000 rows within 10 x the time of 10000):\n");
    for (const char* name : {"BM_BytesToModel/80000/4", "BM_BytesToModel/4096/256"}) {
        if (const auto t = ms(name))
            std::printf("%s: %.1f ms  [<= 300 ms: %s]\n", name, *t, bench::verdict(*t <= 300));
        else
            std::printf("%s: not run or failed  [%s]\n", name, bench::verdict(false));
    }
    const auto small = ms("BM_BytesToModel/10000/4"), large = ms("BM_BytesToModel/80000/4");
    if (small && large)
        std::printf("growth 10000 -> 80000 rows: %.1f ms -> %.1f ms, %.2f x  [<= 10 x: %s]\n",
                    *small, *large, *large / *small, bench::verdict(*large / *small <= 10));
    else
        std::printf("growth 10000 -> 80000 rows: not measured  [%s]\n", bench::verdict(false));
    for (const char* name :
         {"BM_ModelToText/80000/4", "BM_ModelToJson/80000/4", "BM_PlanAndResolve/80000/4"})
        if (const auto t = ms(name))
            std::printf("%s: %.1f ms (no target)\n", name, *t);
    return bench::exitStatus();
}

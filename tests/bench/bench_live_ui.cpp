// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// UI cost of one live tick: a sample of 8, 64 and 256 cores through the grid model, the load
// charts, the heatmap and the tables (LivePanel), then the window rendered offscreen. Target: at
// most 2 ms per tick for 8 cores and 10 ms for 256 cores. Also prints the history's memory for
// an hour at 10 Hz.
#include "core/live/history.h"
#include "ui/live/heatmapwidget.h"
#include "ui/live/livepanel.h"
#include "ui/live/loadcharts.h"
#include "ui/models/maskgridmodel.h"

#include <QApplication>
#include <QImage>
#include <QPainter>
#include <QTableWidget>

#include <benchmark/benchmark.h>

#include <cmath>
#include <memory>

using namespace coresteer;
using namespace coresteer::live;
using namespace coresteer::ui;

namespace {

// A snapshot of `cores` CPUs with two NICs of one IRQ and one queue pair per core.
SnapshotPtr syntheticSnapshot(int cores) {
    auto s = std::make_shared<Snapshot>();
    s->topology.maskWidth = cores;
    for (int c = 0; c < cores; ++c) {
        CpuInfo i;
        i.id = c;
        i.online = true;
        s->topology.cpus.push_back(i);
    }
    s->topology.online = CpuMask::firstN(cores);
    s->topology.classes.push_back({"uniform", CpuMask::firstN(cores), 0});
    s->interrupts.cpus.resize(static_cast<std::size_t>(cores));
    for (int c = 0; c < cores; ++c)
        s->interrupts.cpus[static_cast<std::size_t>(c)] = c;
    std::uint32_t irq = 100;
    for (const char* name : {"eth0", "eth1"}) {
        NetInterface n;
        n.name = name;
        n.busDevice = std::string("0000:0") + name[3] + ":00.0";
        for (int q = 0; q < cores; ++q, ++irq) {
            IrqRow row;
            row.label = std::to_string(irq);
            row.irq = irq;
            row.counts.assign(static_cast<std::size_t>(cores), 0);
            row.actions = {std::string(name) + "-TxRx-" + std::to_string(q)};
            s->interrupts.rows.push_back(row);
            IrqInfo info;
            info.irq = irq;
            info.smpAffinity = CpuMask::fromCpus({q}, cores);
            info.interfaces = {name};
            s->irqs.push_back(info);
            n.irqs.push_back(irq);
            RxQueue rx;
            rx.index = q;
            rx.rpsCpus = CpuMask::fromCpus({}, cores);
            n.rx.push_back(rx);
            TxQueue tx;
            tx.index = q;
            tx.xpsCpus = CpuMask::fromCpus({q}, cores);
            n.tx.push_back(tx);
        }
        s->interfaces.push_back(n);
    }
    s->interrupts.reindex();
    return s;
}

Rates syntheticRates(const Snapshot& s, int cores, double t) {
    Rates r;
    r.start = t - 0.1;
    r.end = t;
    for (int c = 0; c < cores; ++c) {
        CoreLoad l;
        l.cpu = c;
        const double b = 0.5 + 0.5 * std::sin(t + c);
        l.softirq = b * 0.6;
        l.irq = b * 0.2;
        l.user = b * 0.2;
        l.idle = 1 - b;
        r.cores.push_back(l);
    }
    for (const auto& i : s.irqs) {
        IrqRate ir{i.irq, std::vector<double>(static_cast<std::size_t>(cores), 0.0), 1000};
        ir.perCpu[i.irq % static_cast<std::size_t>(cores)] = 1000;
        r.irqs.push_back(std::move(ir));
    }
    r.interfaces = {{"eth0", 1e9, 1e8, 8e4, 8e3}, {"eth1", 1e8, 1e9, 8e3, 8e4}};
    return r;
}

// A grid and a shown Live panel for `cores` CPUs, with a minute of history, as a running
// session has.
struct Session {
    explicit Session(int n) : cores(n), snap(syntheticSnapshot(n)) {
        grid.setSnapshot(snap);
        panel.resize(1280, 700);
        panel.show();
        panel.reset(snap, 10);
        for (int i = 0; i < 600; ++i)
            panel.addRates(syntheticRates(*snap, cores, t += 0.1));
    }
    void tick() {
        const auto r = syntheticRates(*snap, cores, t += 0.1);
        grid.setLive(r);
        panel.addRates(r);
    }
    int cores;
    SnapshotPtr snap;
    MaskGridModel grid;
    LivePanel panel;
    double t = 1000;
};

// One tick as the issue counts it: the sample through the grid model and the Live panel's
// series, then the charts and the heatmap painted offscreen.
void BM_LiveTick(benchmark::State& state) {
    Session s(static_cast<int>(state.range(0)));
    QImage target(1280, 700, QImage::Format_ARGB32_Premultiplied);
    for (auto _ : state) {
        s.tick();
        QPainter p(&target);
        s.panel.charts()->render(&p);
        s.panel.heatmap()->render(&p, QPoint(0, 460));
    }
    state.counters["cores"] = s.cores;
}
BENCHMARK(BM_LiveTick)->Arg(8)->Arg(64)->Arg(256)->Unit(benchmark::kMillisecond)->MinTime(1.0);

// The same without rendering: what the models and series cost apart from painting.
void BM_LiveUpdateOnly(benchmark::State& state) {
    Session s(static_cast<int>(state.range(0)));
    for (auto _ : state)
        s.tick();
}
BENCHMARK(BM_LiveUpdateOnly)->Arg(8)->Arg(256)->Unit(benchmark::kMillisecond)->MinTime(0.5);

// Painting each part alone (0 charts, 1 heatmap, 2 IRQ table), to see where a tick goes.
void BM_RenderPart(benchmark::State& state) {
    Session s(static_cast<int>(state.range(0)));
    QImage target(1280, 700, QImage::Format_ARGB32_Premultiplied);
    QWidget* parts[] = {s.panel.charts(), s.panel.heatmap(), s.panel.irqTable()};
    QWidget* w = parts[state.range(1)];
    for (auto _ : state) {
        s.tick();
        QPainter p(&target);
        w->render(&p);
    }
}
BENCHMARK(BM_RenderPart)
    ->Args({8, 0})
    ->Args({8, 1})
    ->Args({8, 2})
    ->Args({256, 0})
    ->Args({256, 1})
    ->Args({256, 2})
    ->Unit(benchmark::kMillisecond)
    ->MinTime(0.3);

void BM_HistoryHour(benchmark::State& state) {
    for (auto _ : state) {
        History h(36000, 256);
        benchmark::DoNotOptimize(h.bytes());
        state.counters["MB_1h_10Hz_256_cores"] = static_cast<double>(h.bytes()) / (1 << 20);
    }
}
BENCHMARK(BM_HistoryHour)->Iterations(1);

} // namespace

int main(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    return 0;
}

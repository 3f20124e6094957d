// Recordings: what is written reads back and replays to the same rates as live; a broken file
// is refused with its line; summaries, CSV and the before/after comparison say what happened.
#include "board_expect.h"
#include "core/collect/capture.h"
#include "core/collect/collect_local.h"
#include "core/live/demoload.h"
#include "core/live/loadgen.h"
#include "core/live/recording.h"
#include "core/live/source.h"
#include "core/model/snapshot.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

using namespace coresteer;
namespace fs = std::filesystem;

namespace {

struct CpuTicks {
    std::uint64_t user = 0, system = 0, irq = 0, softirq = 0, idle = 0;
};

// A cpu line of /proc/stat.
std::string cpu(const std::string& name, const CpuTicks& c) {
    return name + " " + std::to_string(c.user) + " 0 " + std::to_string(c.system) + " " +
           std::to_string(c.idle) + " 0 " + std::to_string(c.irq) + " " +
           std::to_string(c.softirq) + " 0 0 0\n";
}

// A two-CPU router's files at `uptime`, with cumulative counters.
SampleTexts texts(double uptime, CpuTicks c0, CpuTicks c1, std::uint64_t irq45,
                  std::uint64_t rxBytes, bool withIrq = true) {
    CpuTicks all{c0.user + c1.user, c0.system + c1.system, c0.irq + c1.irq, c0.softirq + c1.softirq,
                 c0.idle + c1.idle};
    SampleTexts t;
    t.uptime = std::to_string(uptime) + " 0.00\n";
    t.stat = cpu("cpu ", all) + cpu("cpu0", c0) + cpu("cpu1", c1) + "intr 1 2 3\nctxt 99\n";
    t.softirqs = "                    CPU0       CPU1\n          HI:          0          0\n"
                 "      NET_RX:        " +
                 std::to_string(irq45) + "          0\n      NET_TX:          1          1\n";
    t.interrupts = "           CPU0       CPU1\n";
    if (withIrq)
        t.interrupts += " 45:   " + std::to_string(irq45) + "   0   GICv3  45 Level     eth0\n";
    t.interrupts += " 46:   7   0   GICv3  46 Level     eth1\nIPI0:  1  1  Rescheduling\n";
    t.netdev = "Inter-|   Receive                                                |  Transmit\n"
               " face |bytes    packets errs drop fifo frame compressed multicast|bytes    "
               "packets errs drop fifo colls carrier compressed\n"
               "  eth0: " +
               std::to_string(rxBytes) + " " + std::to_string(rxBytes / 1000) +
               " 0 0 0 0 0 0 500 5 0 0 0 0 0 0\n";
    return t;
}

RecordingInfo info() {
    RecordingInfo i;
    i.label = "root@r6s";
    i.started = "2026-11-30T09:00:00Z";
    i.hz = 10;
    // Blocks that hold lines like the header's own must not confuse the reader.
    static const std::string capture = [] {
        FileBundle b;
        b.add("proc/stat", {BundleEntry::Kind::File, "events\nend 3\n@ 1.0"});
        return writeCapture(b);
    }();
    i.capture = capture;
    i.layout = "{\"schema\": \"coresteer.layout/1\"}";
    return i;
}

// Ten seconds at 10 Hz: CPU0 fully busy in softirq, CPU1 at a quarter user; 10 Mb/s in.
RecordingWriter tenSeconds(bool withLatency = true) {
    RecordingWriter w(info());
    w.phase(0, "idle");
    for (int i = 0; i <= 100; ++i) {
        const double t = i * 0.1;
        const auto k = static_cast<std::uint64_t>(i) * 20; // 20 jiffies per 0.1 s per CPU
        w.sample(t, texts(500 + t, {0, 0, 0, k, 0}, {k / 4, 0, 0, 0, k - k / 4}, k * 100,
                          static_cast<std::uint64_t>(i) * 125000));
        if (withLatency) {
            if (i == 30)
                w.phase(t, "load");
            w.latency(t, i < 30 ? 10.0 : (i % 10 == 5 ? std::nullopt : std::optional(50.0)));
        }
        if (i % 10 == 0 && i > 0)
            w.throughput(t, 900e6, 40e6);
    }
    w.phase(10.0, "done");
    return w;
}

} // namespace

TEST(Recording, WritesReadsAndReplaysToTheSameRatesAsLive) {
    const auto w = tenSeconds();
    const auto text = w.text();
    std::string error;
    const auto r = readRecording(text, &error);
    ASSERT_TRUE(r) << error;
    EXPECT_EQ(r->info.label, "root@r6s");
    EXPECT_EQ(r->info.started, "2026-11-30T09:00:00Z");
    EXPECT_EQ(r->info.hz, 10);
    EXPECT_EQ(r->info.capture, info().capture);
    EXPECT_EQ(r->info.layout, info().layout);
    EXPECT_EQ(r->ticks, 101u);
    EXPECT_DOUBLE_EQ(r->duration, 10.0);
    EXPECT_EQ(writeRecording(*r), text); // what was read writes back the same

    Replay replay(*r);
    ReplayEvent e;
    int rates = 0, latency = 0, lost = 0, throughput = 0;
    std::vector<std::string> phases;
    while (replay.next(e)) {
        switch (e.kind) {
        case ReplayEvent::Kind::Rates: {
            ++rates;
            // Live: the same two samples through computeRates.
            const auto* c0 = e.rates.core(0);
            const auto* c1 = e.rates.core(1);
            ASSERT_TRUE(c0 && c1);
            EXPECT_NEAR(c0->softirq, 1.0, 1e-9);
            EXPECT_NEAR(c1->user, 0.25, 1e-9);
            EXPECT_NEAR(e.rates.seconds(), 0.1, 1e-6);
            ASSERT_TRUE(e.rates.irq(45));
            EXPECT_NEAR(e.rates.irq(45)->perCpu[0], 20000, 1e-6);
            ASSERT_EQ(e.rates.interfaces.size(), 1u);
            EXPECT_NEAR(e.rates.interfaces[0].rxBitsPerSec, 10e6, 1e3);
            break;
        }
        case ReplayEvent::Kind::Latency:
            ++latency;
            lost += e.latencyMs ? 0 : 1;
            break;
        case ReplayEvent::Kind::Throughput:
            ++throughput;
            EXPECT_DOUBLE_EQ(e.downBitsPerSec, 900e6);
            EXPECT_DOUBLE_EQ(e.upBitsPerSec, 40e6);
            break;
        case ReplayEvent::Kind::Phase:
            phases.push_back(e.phase);
            break;
        case ReplayEvent::Kind::Gap:
            ADD_FAILURE() << "no gap was recorded";
        }
    }
    EXPECT_TRUE(replay.error().empty()) << replay.error();
    EXPECT_EQ(rates, 100); // the first tick has no rate
    EXPECT_EQ(latency, 101);
    EXPECT_EQ(lost, 7); // i = 35, 45, ..., 95
    EXPECT_EQ(throughput, 10);
    EXPECT_EQ(phases, (std::vector<std::string>{"idle", "load", "done"}));
    // Only what changed is stored: far less than the files themselves.
    const auto full = texts(1, {}, {}, 0, 0);
    const auto fullBytes = full.uptime.size() + full.stat.size() + full.softirqs.size() +
                           full.interrupts.size() + full.netdev.size();
    std::printf("recording: %zu ticks in %zu bytes of events (%zu bytes a tick; the files are "
                "%zu)\n",
                r->ticks, w.bytes(), w.bytes() / r->ticks, fullBytes);
    EXPECT_LT(w.bytes() / r->ticks, fullBytes / 2);
}

TEST(Recording, AGapBreaksTheRatesAndAnIrqThatGoesAwayIsRemoved) {
    RecordingWriter w(info());
    w.sample(0, texts(100, {0, 0, 0, 0, 0}, {0, 0, 0, 0, 0}, 0, 0));
    w.sample(1, texts(101, {100, 0, 0, 0, 0}, {0, 0, 0, 0, 100}, 50, 0, false));
    w.gap(1.5);
    // After the gap the router rebooted: its clock and counters start again.
    w.sample(20, texts(5, {10, 0, 0, 0, 0}, {0, 0, 0, 0, 10}, 0, 0));
    w.sample(21, texts(6, {10, 0, 0, 0, 100}, {0, 100, 0, 0, 10}, 0, 0));
    std::string error;
    const auto r = readRecording(w.text(), &error);
    ASSERT_TRUE(r) << error;
    Replay replay(*r);
    ReplayEvent e;
    std::vector<ReplayEvent::Kind> kinds;
    std::vector<double> cpu0Busy;
    while (replay.next(e)) {
        kinds.push_back(e.kind);
        if (e.kind == ReplayEvent::Kind::Rates) {
            cpu0Busy.push_back(e.rates.core(0)->busy());
            // Before the gap IRQ 45 went away; after it, both ticks have it again.
            EXPECT_EQ(e.rates.irq(45) != nullptr, cpu0Busy.size() == 2);
        }
    }
    EXPECT_TRUE(replay.error().empty()) << replay.error();
    EXPECT_EQ(kinds,
              (std::vector<ReplayEvent::Kind>{ReplayEvent::Kind::Rates, ReplayEvent::Kind::Gap,
                                              ReplayEvent::Kind::Rates}));
    EXPECT_EQ(cpu0Busy, (std::vector<double>{1.0, 0.0}));
}

TEST(Recording, ABrokenFileIsRefusedNamingItsLine) {
    const auto good = tenSeconds().text();
    std::string error;
    auto fails = [&](const std::string& text, const std::string& expected) {
        error.clear();
        EXPECT_FALSE(readRecording(text, &error)) << expected;
        EXPECT_NE(error.find(expected), std::string::npos) << "error: " << error;
    };
    fails("", "not a coresteer recording");
    fails("coresteer-recording 2\n", "not a coresteer recording");
    fails(good.substr(0, good.size() / 2), "no 'end' line");
    auto replaced = [&](const std::string& from, const std::string& to) {
        auto t = good;
        const auto at = t.find(from);
        EXPECT_NE(at, std::string::npos) << from;
        return t.replace(at, from.size(), to);
    };
    fails(replaced("hz 10\n", "hz 50\n"), "recording line 4: hz must be 1 to 20");
    fails(replaced("capture " + std::to_string(info().capture.size()) + "\n", "capture 9999999\n"),
          "recording line 5: 'capture' gives a size");
    fails(replaced("end 101\n", "end 100\n"), "'end' says 100 ticks, the file has 101");
    fails(replaced("coresteer-capture 1 ", "coresteer-capture 9 "),
          "recording line 6: not a coresteer capture");
    // The events start on line 17: the capture block takes lines 6 to 13 (its text ends in a
    // newline, and the block's own newline follows), the layout 15.
    const auto events = good.find("}\nevents\n") + 9; // after the layout block
    auto at = [&](const std::string& insert) {
        auto t = good;
        return t.insert(events, insert);
    };
    fails(at("Q 1.0\n"), "recording line 17: bad event 'Q 1.0'");
    fails(at("L x 3\n"), "recording line 17: bad time 'x'");
    fails(at("L 1.0 -3\n"), "recording line 17: bad latency '-3'");
    fails(at("P 1.0 idle extra\n"), "recording line 17: unexpected 'extra'");
    fails(at("T 5\n"), "recording line 17: a tick without its '@' time");
    fails(at("@ 0\n@ 0\n"), "recording line 18: a tick time with no tick after it");
    fails(at("@ 0\nT 5\n=s:cpu9\t1:2\n"), "recording line 19: an update of an unknown line");
    fails(at("@ 0\nT 5\n+s:cpu0\tcpu0 x\nE\n"),
          "recording line 20: a tick that does not parse: proc/stat");
    fails(replaced("\nend 101", "\n@ 10.1\nend 102"), "the last tick is cut short");
}

TEST(Recording, SummaryGivesPeaksOfOneSecondMeansThroughputAndTheGrade) {
    std::string error;
    const auto r = readRecording(tenSeconds().text(), &error);
    ASSERT_TRUE(r) << error;
    const auto s = summarize(*r, &error);
    ASSERT_TRUE(s) << error;
    EXPECT_EQ(s->ticks, 100u);
    EXPECT_DOUBLE_EQ(s->seconds, 10.0);
    ASSERT_EQ(s->cores.size(), 2u);
    EXPECT_NEAR(s->core(0)->peak, 1.0, 1e-9);
    EXPECT_NEAR(s->core(0)->mean, 1.0, 1e-9);
    EXPECT_NEAR(s->core(0)->kernelMean, 1.0, 1e-9);
    EXPECT_NEAR(s->core(1)->mean, 0.25, 1e-9);
    EXPECT_NEAR(s->core(1)->kernelMean, 0.0, 1e-9);
    ASSERT_TRUE(s->interface("eth0"));
    EXPECT_NEAR(s->interface("eth0")->rxMean, 10e6, 1e3);
    ASSERT_TRUE(s->downMean && s->upMean);
    EXPECT_NEAR(*s->downMean, 900e6, 1);
    EXPECT_NEAR(*s->upMean, 40e6, 1);
    EXPECT_EQ(s->probes, 101);
    ASSERT_TRUE(s->latency);
    EXPECT_DOUBLE_EQ(s->latency->idleMs, 10.0);
    EXPECT_DOUBLE_EQ(s->latency->loadedMs, 50.0);
    EXPECT_EQ(s->latency->grade, "B"); // +40 ms
    EXPECT_EQ(s->latency->lost, 7);

    // A peak is of one-second means: one busy tick in an idle second is not a peak of 100 %.
    RecordingWriter w(info());
    for (int i = 0; i <= 20; ++i) {
        const auto k = static_cast<std::uint64_t>(i) * 10;
        const std::uint64_t busy = i >= 5 ? 10 : 0; // one busy tick, at i = 5
        w.sample(i * 0.1, texts(i * 0.1 + 1, {busy, 0, 0, 0, k - busy}, {0, 0, 0, 0, k}, 0, 0));
    }
    const auto spike = readRecording(w.text(), &error);
    ASSERT_TRUE(spike) << error;
    const auto ss = summarize(*spike, &error);
    ASSERT_TRUE(ss);
    EXPECT_NEAR(ss->core(0)->peak, 0.1, 1e-9);
    EXPECT_NEAR(ss->core(0)->mean, 0.05, 1e-9);
    EXPECT_FALSE(ss->latency);
    EXPECT_FALSE(ss->downMean);
}

TEST(Recording, CsvHasOneRowPerTickWithEveryCoreAndInterface) {
    std::string error;
    const auto r = readRecording(tenSeconds().text(), &error);
    ASSERT_TRUE(r) << error;
    const auto csv = recordingCsv(*r, &error);
    ASSERT_TRUE(csv) << error;
    std::vector<std::string> lines;
    std::istringstream in(*csv);
    for (std::string l; std::getline(in, l);)
        lines.push_back(l);
    ASSERT_EQ(lines.size(), 101u); // the header and 100 rates
    EXPECT_EQ(lines[0],
              "t_s,uptime_s,cpu0_busy_pct,cpu0_user_pct,cpu0_system_pct,cpu0_irq_pct,"
              "cpu0_softirq_pct,cpu1_busy_pct,cpu1_user_pct,cpu1_system_pct,cpu1_irq_pct,"
              "cpu1_softirq_pct,\"eth0_rx_mbps\",\"eth0_tx_mbps\",latency_ms,down_mbps,up_mbps,"
              "phase");
    // t = 1.0: CPU0 all softirq, CPU1 a quarter user, the probe of that tick.
    EXPECT_EQ(lines[10], "1.000,501.00,100.0,0.0,0.0,0.0,100.0,25.0,25.0,0.0,0.0,0.0,10.000,0.000,"
                         "10.000,,,idle");
    // The load generator's report written after that tick comes with the next.
    EXPECT_EQ(lines[11], "1.100,501.10,100.0,0.0,0.0,0.0,100.0,25.0,25.0,0.0,0.0,0.0,10.000,0.000,"
                         "10.000,900.000,40.000,idle");
    EXPECT_NE(lines[36].find(",lost,"), std::string::npos) << lines[36];
    EXPECT_NE(lines[40].find(",load"), std::string::npos) << lines[40];
}

TEST(Recording, CompareShowsBeforeAndAfterSideBySide) {
    std::string error;
    const auto before = readRecording(tenSeconds().text(), &error);
    ASSERT_TRUE(before) << error;
    const auto a = summarize(*before, &error);
    auto b = *a;
    b.cores[0].peak = 0.6;
    b.cores[0].mean = 0.55;
    b.latency->loadedMs = 12;
    b.latency->grade = "A";
    const auto text = compareSummaries(*a, b, "before.csrec", "after.csrec");
    EXPECT_NE(text.find("before.csrec"), std::string::npos) << text;
    EXPECT_NE(text.find("cpu0 busy, peak                           100.0 %               60.0 %"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("load generator down, mean              900.0 Mb/s           900.0 Mb/s"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("bufferbloat grade                               B                    A"),
              std::string::npos)
        << text;
}

// Any source's ticks, re-encoded here, decode to the same files as the sampler's own records:
// the demo model's load over a minute at 10 Hz, recorded and replayed.
TEST(Recording, TheDemoModelRecordedThroughTheLocalSourceReplaysItsLoad) {
    const auto dir = fs::path(CORESTEER_TEST_TMP) / "recording-demo";
    fs::remove_all(dir);
    fs::create_directories(dir);
    fs::copy(test::boardsDir() / "nanopi-r6s-friendlywrt", dir,
             fs::copy_options::recursive | fs::copy_options::copy_symlinks);
    std::string error;
    const auto bundle = collectLocal(dir);
    const auto snap = buildSnapshot(bundle);
    auto demo = DemoLoad::create(dir.string(), snap, &error);
    ASSERT_TRUE(demo) << error;
    auto source = localSampleSource(dir.string());
    RecordingInfo i;
    i.label = "demo";
    i.capture = writeCapture(bundle);
    RecordingWriter w(i);
    std::vector<Sample> samples;
    for (int k = 0; k < 600; ++k) {
        ASSERT_TRUE(demo->step(0.1, &error)) << error;
        auto s = source->next(&error);
        ASSERT_TRUE(s) << error;
        w.sample(k * 0.1, source->lastTexts());
        samples.push_back(std::move(*s));
    }
    const auto r = readRecording(w.text(), &error);
    ASSERT_TRUE(r) << error;
    Replay replay(*r);
    ReplayEvent e;
    std::size_t k = 1;
    while (replay.next(e)) {
        ASSERT_EQ(e.kind, ReplayEvent::Kind::Rates);
        const auto live = computeRates(samples[k - 1], samples[k]);
        ASSERT_TRUE(live);
        ASSERT_EQ(e.rates.cores.size(), live->cores.size());
        for (std::size_t c = 0; c < live->cores.size(); ++c)
            EXPECT_DOUBLE_EQ(e.rates.cores[c].busy(), live->cores[c].busy());
        ASSERT_EQ(e.rates.interfaces.size(), live->interfaces.size());
        for (std::size_t n = 0; n < live->interfaces.size(); ++n)
            EXPECT_DOUBLE_EQ(e.rates.interfaces[n].rxBitsPerSec, live->interfaces[n].rxBitsPerSec);
        for (const auto& irq : live->irqs) {
            ASSERT_TRUE(e.rates.irq(irq.irq)) << irq.irq;
            EXPECT_EQ(e.rates.irq(irq.irq)->perCpu, irq.perCpu);
        }
        ++k;
    }
    EXPECT_TRUE(replay.error().empty()) << replay.error();
    EXPECT_EQ(k, samples.size());
    // The capture in the recording is the snapshot's own files.
    const auto back = readCapture(r->info.capture, &error);
    ASSERT_TRUE(back) << error;
    EXPECT_EQ(buildSnapshot(*back).interfaces.size(), snap.interfaces.size());
    std::printf("demo: 60 s at 10 Hz of an 8-core router recorded in %zu bytes of events "
                "(%zu a tick), %zu bytes in all\n",
                w.bytes(), w.bytes() / 600, w.text().size());
    const auto s = summarize(*r, &error);
    ASSERT_TRUE(s);
    // The default layout: the LITTLE core that takes the NIC IRQs is the bottleneck.
    double hottest = 0;
    for (const auto& core : s->cores)
        hottest = std::max(hottest, core.peak);
    EXPECT_GT(hottest, 0.9);
}

// iperf3's interval reports, as iperf3 3.12 prints them, read as throughput each way.
TEST(LoadGenerator, ReadsIperf3IntervalReportsEachWay) {
    LoadSpec both;
    std::string error;
    ASSERT_TRUE(parseLoadServer("127.0.0.1:5299", both, &error)) << error;
    EXPECT_EQ(both.server, "127.0.0.1");
    EXPECT_EQ(both.port, 5299);
    both.streams = 2;
    both.direction = LoadSpec::Direction::Both;
    const auto args = iperfArguments(both);
    EXPECT_EQ(args, (std::vector<std::string>{"--client", "127.0.0.1", "--port", "5299",
                                              "--parallel", "2", "--time", "3600", "--interval",
                                              "0.5", "--forceflush", "--bidir"}));
    IperfReader r(both);
    const std::string out =
        "Connecting to host 127.0.0.1, port 5299\n"
        "[  5] local 127.0.0.1 port 53034 connected to 127.0.0.1 port 5299\n"
        "[ ID][Role] Interval           Transfer     Bitrate         Retr  Cwnd\n"
        "[  5][TX-C]   0.00-0.50   sec   339 MBytes  5.68 Gbits/sec    1    767 KBytes       \n"
        "[  7][TX-C]   0.00-0.50   sec   340 MBytes  5.70 Gbits/sec    1    767 KBytes       \n"
        "[SUM][TX-C]   0.00-0.50   sec   678 MBytes  11.4 Gbits/sec    2             \n"
        "[  9][RX-C]   0.00-0.50   sec   114 MBytes  1.92 Gbits/sec                  \n"
        "[SUM][RX-C]   0.00-0.50   sec   222 MBytes  3.73 Gbits/sec                  \n"
        "- - - - - - - - - - - - - - - - - - - - - - - - -\n"
        "[SUM][TX-C]   0.50-1.00   sec   560 MBytes  9.38 Gbits/sec    1             \n"
        "[SUM][RX-C]   0.50-1.00   sec   270 MB";
    auto reports = r.feed(out);
    ASSERT_EQ(reports.size(), 1u);
    EXPECT_DOUBLE_EQ(reports[0].end, 0.5);
    EXPECT_DOUBLE_EQ(reports[0].upBitsPerSec, 11.4e9);
    EXPECT_DOUBLE_EQ(reports[0].downBitsPerSec, 3.73e9);
    reports = r.feed("ytes  4.52 Gbits/sec                  \n"
                     "[SUM][TX-C]   0.00-10.00  sec  5.2 GBytes  4.5 Gbits/sec  9   sender\n");
    ASSERT_EQ(reports.size(), 1u);
    EXPECT_DOUBLE_EQ(reports[0].end, 1.0);
    EXPECT_DOUBLE_EQ(reports[0].downBitsPerSec, 4.52e9);

    // One stream, download: the stream's own lines.
    LoadSpec one;
    ASSERT_TRUE(parseLoadServer("[::1]:5201", one, &error)) << error;
    EXPECT_EQ(one.server, "::1");
    one.streams = 1;
    EXPECT_EQ(iperfArguments(one).back(), "--reverse");
    IperfReader d(one);
    reports = d.feed("[  5]   0.00-0.50   sec  56.2 MBytes   943 Mbits/sec                  \n");
    ASSERT_EQ(reports.size(), 1u);
    EXPECT_DOUBLE_EQ(reports[0].downBitsPerSec, 943e6);
    EXPECT_DOUBLE_EQ(reports[0].upBitsPerSec, 0);

    // What cannot be a server is refused before anything runs.
    for (const char* bad :
         {"", "-oProxyCommand=x", "host;reboot", "a b", "host:0", "host:99999", "[::1", "$(id)"}) {
        LoadSpec s;
        EXPECT_FALSE(parseLoadServer(bad, s, &error)) << bad;
    }
}

namespace {

// A 4-CPU router with 400 IRQs at tick k of a long recording, with everything a replay has to
// follow: rows that fire every tick and rows that fire now and then, one whose counter goes
// back, one whose action is renamed, a row that goes away and comes back, a new row, CPU2
// offline for a while (one column fewer), a new interface.
SampleTexts busyRouter(int k) {
    const bool cpu2 = k < 420 || k >= 540;
    std::vector<int> cpus = {0, 1, 3};
    if (cpu2)
        cpus = {0, 1, 2, 3};
    SampleTexts t;
    t.uptime = std::to_string(3000 + k / 10) + "." + std::to_string(k % 10) + "0 1.00\n";
    const auto tick = static_cast<std::uint64_t>(k);
    auto load = [&](std::uint64_t base) {
        return CpuTicks{base + 7 * tick, base + 3 * tick, base / 2 + tick, base / 3 + 4 * tick,
                        base * 4 + 5 * tick};
    };
    t.stat = cpu("cpu ", load(400000));
    for (int c : cpus)
        t.stat += cpu("cpu" + std::to_string(c), load(100000 + static_cast<std::uint64_t>(c)));
    t.stat += "intr 0\n";
    std::string header = "   ";
    for (int c : cpus)
        header += "       CPU" + std::to_string(c);
    t.softirqs = header + "\n";
    for (const char* row : {"NET_TX:", "NET_RX:"}) {
        t.softirqs += row;
        for (int c : cpus)
            t.softirqs += " " + std::to_string(5000 + 13L * k + c);
        t.softirqs += "\n";
    }
    t.interrupts = header + "\n";
    char buf[64];
    for (int irq = 100; irq < 500; ++irq) {
        if (irq == 300 && k >= 300 && k < 360)
            continue;
        std::snprintf(buf, sizeof buf, "%4d: ", irq);
        t.interrupts += buf;
        for (int c : cpus) {
            long n = irq % 7 == c ? 10L * (k / (irq < 150 ? 1 : 37)) + irq : 0L;
            if (irq == 120 && k >= 900)
                n -= 5000; // the counter went back: no rate for it on that tick
            std::snprintf(buf, sizeof buf, "%10ld ", n);
            t.interrupts += buf;
        }
        t.interrupts += " GICv3 " + std::to_string(irq) + " Level eth" + std::to_string(irq % 3) +
                        (irq == 130 && k >= 660 ? "-renamed" : "") + "-rx-" + std::to_string(irq) +
                        "\n";
    }
    if (k >= 720)
        t.interrupts += "1000:" + std::string(cpus.size() * 11, ' ') + "  GICv3 1000 Edge new\n";
    t.netdev = "Inter-|   Receive\n face |bytes\n";
    for (int i = 0; i < (k >= 480 ? 3 : 2); ++i)
        t.netdev += "  eth" + std::to_string(i) + ": " + std::to_string(1000000L * k) + " " +
                    std::to_string(800L * k) + " 0 0 0 0 0 0 " + std::to_string(500000L * k) + " " +
                    std::to_string(400L * k) + " 0 0 0 0 0 0\n";
    return t;
}

constexpr int kBusyTicks = 1200;

// The recording of busyRouter, with latency probes, phases and a gap; and the rates the ticks
// give when every tick's files are rebuilt whole and parsed whole (what a replay did before it
// kept its parse up to date), by tick.
struct BusyRecording {
    std::string text;
    std::map<int, Rates> rates;
};

const BusyRecording& busyRecording() {
    static const BusyRecording r = [] {
        BusyRecording out;
        RecordingWriter w(info());
        SampleEncoder encoder;
        SampleDecoder decoder;
        std::optional<Sample> last;
        for (int k = 0; k < kBusyTicks; ++k) {
            const double t = k * 0.1;
            if (k % 180 == 0)
                w.phase(t, k < 1080 ? "load" : "done");
            if (k == 600) {
                w.gap(t);
                last.reset();
            }
            const auto texts = busyRouter(k);
            w.sample(t, texts);
            if (k % 5 == 0)
                w.latency(t, 3.0 + k % 7);
            std::vector<SampleTexts> ticks;
            std::string why;
            EXPECT_TRUE(decoder.feed(encoder.encode(texts), ticks, &why)) << why;
            Diagnostics d;
            auto s = parseSample(ticks.back(), d);
            EXPECT_TRUE(s);
            if (last)
                if (auto rates = computeRates(*last, *s))
                    out.rates[k] = std::move(*rates);
            last = std::move(s);
        }
        out.text = w.text();
        return out;
    }();
    return r;
}

// The events a replay gives from where it is: all, or the first `most`.
std::vector<ReplayEvent> playFrom(Replay& replay, std::size_t most = SIZE_MAX) {
    std::vector<ReplayEvent> out;
    ReplayEvent e;
    while (out.size() < most && replay.next(e))
        out.push_back(e);
    EXPECT_TRUE(replay.error().empty()) << replay.error();
    return out;
}

} // namespace

TEST(Recording, ReplayKeepsItsParseUpToDateWithTheSameRatesAsParsingEveryTickWhole) {
    const auto& busy = busyRecording();
    std::string error;
    const auto r = readRecording(busy.text, &error);
    ASSERT_TRUE(r) << error;
    EXPECT_EQ(r->ticks, static_cast<std::size_t>(kBusyTicks));
    Replay replay(*r);
    std::size_t rates = 0, resets = 0;
    for (const auto& e : playFrom(replay)) {
        if (e.kind != ReplayEvent::Kind::Rates)
            continue;
        const int k = static_cast<int>(std::lround(e.t * 10));
        const auto it = busy.rates.find(k);
        ASSERT_NE(it, busy.rates.end()) << "tick " << k;
        EXPECT_TRUE(e.rates == it->second) << "tick " << k;
        resets += static_cast<std::size_t>(e.rates.resets);
        ++rates;
    }
    EXPECT_EQ(rates, busy.rates.size());
    EXPECT_GT(resets, 0u);
}

TEST(Recording, SeekGivesExactlyWhatPlayingFromTheStartGives) {
    const auto& busy = busyRecording();
    std::string error;
    const auto r = readRecording(busy.text, &error);
    ASSERT_TRUE(r) << error;
    EXPECT_GT(r->checkpoints(), 3u); // the recording is more than a megabyte of events
    EXPECT_GT(r->memoryBytes(), r->events.size());
    Replay whole(*r);
    const auto all = playFrom(whole);
    ASSERT_GT(all.size(), 1200u);
    // What a seek to `t` must give: the events from the first at `t` or later (the first
    // `most` of them).
    auto from = [&](double t, std::size_t most = SIZE_MAX) {
        const auto first =
            std::find_if(all.begin(), all.end(), [t](const ReplayEvent& e) { return e.t >= t; });
        const auto n = std::min(static_cast<std::size_t>(all.end() - first), most);
        return std::vector<ReplayEvent>(first, first + static_cast<std::ptrdiff_t>(n));
    };
    Recording bare = *r; // no checkpoints: a seek starts from the beginning
    bare.index.reset();
    Replay reused(*r);
    ReplayEvent e;
    constexpr std::size_t kSome = 40;
    for (const double t : {0.0, 0.05, 12.34, 29.95, 30.0, 41.9, 51.0, 59.95, 60.0, 60.05, 71.9,
                           90.0, 103.3, 119.9, 120.0, 1e9, -1.0}) {
        Replay fresh(*r);
        ASSERT_TRUE(fresh.seek(t)) << fresh.error();
        EXPECT_TRUE(playFrom(fresh, kSome) == from(t, kSome)) << "seek to " << t;
        // From wherever another replay stands: back, forward, twice in a row.
        ASSERT_TRUE(reused.seek(t)) << reused.error();
        if (reused.next(e)) {
            EXPECT_TRUE(!from(t).empty() && e == from(t).front()) << "seek to " << t;
        }
        ASSERT_TRUE(reused.seek(t)) << reused.error();
        EXPECT_TRUE(playFrom(reused, kSome) == from(t, kSome)) << "seek to " << t;
    }
    // To the end, from a checkpoint and without one.
    for (const double t : {29.95, 90.0}) {
        Replay fresh(*r), slow(bare);
        ASSERT_TRUE(fresh.seek(t) && slow.seek(t));
        EXPECT_TRUE(playFrom(fresh) == from(t)) << "seek to " << t;
        EXPECT_TRUE(playFrom(slow) == from(t)) << "seek to " << t << " without checkpoints";
    }
}

namespace {

// IRQ 33's perCpu at each tick of a recording of a 2-CPU router: the first tick sends `first`
// for its line, each tick after it `records[k]` (one tick a second, a busy CPU0).
std::vector<std::vector<double>> irq33Rates(const std::string& first,
                                            const std::vector<std::string>& records) {
    std::string events = "@ 0.000\nT 100.00\n+s:cpu0\tcpu0 1 0 1 10 0 0 0 0 0 0\n"
                         "+i:H\t CPU0 CPU1\n+i:33:\t" +
                         first + "\nE\n";
    for (std::size_t k = 1; k <= records.size(); ++k)
        events += "@ " + std::to_string(k) + ".000\nT " + std::to_string(100 + k) +
                  ".00\n=s:cpu0\t5:" + std::to_string(10 + 100 * k) + "\n" + records[k - 1] + "E\n";
    const auto text = "coresteer-recording 1\nlabel x\nstarted 2026-11-30T00:00:00Z\nhz 10\n"
                      "capture 0\n\nlayout 0\n\nevents\n" +
                      events + "end " + std::to_string(records.size() + 1) + "\n";
    std::string error;
    const auto r = readRecording(text, &error);
    EXPECT_TRUE(r) << error;
    std::vector<std::vector<double>> out;
    if (!r)
        return out;
    Replay replay(*r);
    for (const auto& e : playFrom(replay)) {
        EXPECT_EQ(e.rates.resets, 0);
        if (const auto* irq = e.rates.irq(33))
            out.push_back(irq->perCpu);
    }
    return out;
}

} // namespace

// A row whose first count touches its label ("33:0 5 ..."): its fields are not its counts one
// for one, so an update of its fields is read as the whole line.
TEST(Recording, ReplayReadsARowWhoseFirstCountTouchesItsLabel) {
    EXPECT_EQ(irq33Rates("33:0 5 GICv3 33 Level eth0",
                         {"=i:33:\t2:6\n", "=i:33:\t2:9\n", "=i:33:\t2:14\n"}),
              (std::vector<std::vector<double>>{{0, 1}, {0, 3}, {0, 5}}));
}

// A line updated by its fields and sent whole again in the same tick, either way round: the
// row is what the line says at the end of the tick.
TEST(Recording, ReplayReadsALineChangedTwiceInATickAsItEnds) {
    // Counts (0, 5), then (1, 6), (2, 8) ("33:2 8 12 ...": its fields are no longer its counts
    // one for one), (4, 15).
    EXPECT_EQ(irq33Rates("33: 0 5 GICv3 33 Level eth0",
                         {"=i:33:\t3:9\n+i:33:\t33: 1 6 GICv3 33 Level eth0\n",
                          "+i:33:\t33:2 8 9 GICv3 33 Level eth0\n=i:33:\t3:12\n",
                          "=i:33:\t2:3\n+i:33:\t33: 4 15 GICv3 33 Level eth0\n"}),
              (std::vector<std::vector<double>>{{1, 1}, {1, 2}, {2, 7}}));
}

// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The live verbs: monitor, and reading recordings.
#include "cli/verbs.h"

#include "cli/inventory.h"
#include "cli/terminal_prompter.h"
#include "core/base/json_text.h"
#include "core/base/log.h"
#include "core/base/text.h"
#include "core/base/utf8.h"
#include "core/collect/capture.h"
#include "core/layout/apply.h"
#include "core/layout/fleet.h"
#include "core/layout/layout_json.h"
#include "core/layout/persist.h"
#include "core/layout/planner.h"
#include "core/layout/resolve.h"
#include "core/live/bottleneck.h"
#include "core/live/demoload.h"
#include "core/live/recording.h"
#include "core/live/source.h"
#include "core/measure/loadtest.h"
#include "core/measure/tune_json.h"
#include "core/model/snapshot_json.h"
#include "core/model/snapshot_text.h"
#include "core/router/router.h"

#include <CLI/CLI.hpp>

#include <atomic>
#include <cctype>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <ostream>
#include <sstream>
#include <thread>
#include <tuple>

namespace coresteer::cli {

using namespace coresteer::layout;
using namespace coresteer::live;
using measure::LoadTest;

namespace fs = std::filesystem;

// One sample's rates as text, CSV rows or a JSON line.
void printRates(const Options& o, const Rates& r, const Snapshot& snap, std::ostream& out) {
    char t[32];
    std::snprintf(t, sizeof t, "%.2f", r.end);
    if (o.csv) {
        auto row = [&](const char* metric, const std::string& target, int cpu, double v) {
            out << t << ',' << metric << ',' << target << ',';
            if (cpu >= 0)
                out << cpu;
            out << ',' << v << '\n';
        };
        for (const auto& c : r.cores) {
            row("busy", "", c.cpu, c.busy());
            row("user", "", c.cpu, c.user);
            row("system", "", c.cpu, c.system);
            row("irq", "", c.cpu, c.irq);
            row("softirq", "", c.cpu, c.softirq);
        }
        for (std::size_t c = 0; c < r.netRx.size(); ++c)
            if (r.netRx[c] > 0)
                row("net_rx_softirqs", "", static_cast<int>(c), r.netRx[c]);
        for (const auto& i : r.irqs)
            for (std::size_t c = 0; c < i.perCpu.size(); ++c)
                if (i.perCpu[c] > 0)
                    row("irq_rate", std::to_string(i.irq), static_cast<int>(c), i.perCpu[c]);
        for (const auto& n : r.interfaces) {
            row("rx_bps", n.name, -1, n.rxBitsPerSec);
            row("tx_bps", n.name, -1, n.txBitsPerSec);
        }
        out.flush();
        return;
    }
    if (o.json) {
        nlohmann::json j;
        j["uptime"] = r.end;
        j["seconds"] = r.seconds();
        j["cores"] = nlohmann::json::array();
        for (const auto& c : r.cores)
            j["cores"].push_back({{"cpu", c.cpu},
                                  {"busy", c.busy()},
                                  {"user", c.user},
                                  {"system", c.system},
                                  {"irq", c.irq},
                                  {"softirq", c.softirq},
                                  {"iowait", c.iowait}});
        j["irqs"] = nlohmann::json::array();
        for (const auto& i : r.irqs)
            if (i.total > 0)
                j["irqs"].push_back({{"irq", i.irq}, {"total", i.total}, {"per_cpu", i.perCpu}});
        j["interfaces"] = nlohmann::json::array();
        for (const auto& n : r.interfaces)
            j["interfaces"].push_back({{"name", n.name},
                                       {"rx_bps", n.rxBitsPerSec},
                                       {"tx_bps", n.txBitsPerSec},
                                       {"rx_pps", n.rxPacketsPerSec},
                                       {"tx_pps", n.txPacketsPerSec}});
        out << jsonText(j, -1) << std::endl;
        return;
    }
    out << t << " s ";
    for (const auto& c : r.cores)
        out << " cpu" << c.cpu << ' ' << static_cast<int>(c.busy() * 100 + 0.5) << '%';
    const IrqRate* top = nullptr;
    for (const auto& i : r.irqs)
        if (!top || i.total > top->total)
            top = &i;
    if (top && top->total > 0) {
        const auto* row = snap.interrupts.findIrq(top->irq);
        out << "  | IRQ " << top->irq << ' '
            << (row && !row->actions.empty() ? text::printable(row->actions.front(), 24) : "")
            << ' ' << static_cast<long long>(top->total) << "/s";
    }
    for (const auto& n : r.interfaces)
        if (n.rxBitsPerSec + n.txBitsPerSec >= 1e6)
            out << "  | " << text::printable(n.name, 16) << ' '
                << static_cast<long long>(n.rxBitsPerSec / 1e6) << '/'
                << static_cast<long long>(n.txBitsPerSec / 1e6) << " Mb/s";
    out << std::endl;
}

std::optional<MeasuredLoad> measureLoad(Router& r, double seconds, std::ostream& err) {
    auto src = r.isRemote() ? sshSampleSource(*r.session(), r.root()) : localSampleSource(r.root());
    std::string error;
    auto prev = src->next(&error);
    if (!prev) {
        err << "coresteer-cli: " << r.where() << ": " << error << "\n";
        return std::nullopt;
    }
    std::optional<Rates> last; // held by a sample of /proc/stat alone
    err << "coresteer-cli: measuring " << r.where() << "'s load for " << text::fixed(seconds, 0)
        << " s: run the load (a speed or bufferbloat test through the router) now\n";
    MeasuredLoad load;
    std::optional<Interruptible> interruptible(std::in_place);
    const auto period = std::chrono::milliseconds(500);
    const auto start = std::chrono::steady_clock::now();
    auto next = start;
    int failures = 0;
    while (!Interruptible::flag().load() && failures < 3) {
        next = nextTick(next, std::chrono::steady_clock::now(), period);
        if (next - start > std::chrono::duration<double>(seconds))
            break;
        std::this_thread::sleep_until(next);
        auto cur = src->next(&error);
        if (!cur) {
            err << "coresteer-cli: " << r.where() << ": " << error << "\n";
            ++failures;
            continue;
        }
        failures = 0;
        if (auto rates = computeRates(*prev, *cur, last ? &*last : nullptr)) {
            accumulateLoad(load, *rates);
            last = std::move(rates);
        }
        prev = std::move(cur);
    }
    interruptible.reset();
    if (load.intervals == 0) {
        err << "coresteer-cli: " << r.where() << ": no load was measured\n";
        return std::nullopt;
    }
    return load;
}

// The latency lines of a recording's summary: the headline grade, then each probe's, whole and
// per load phase.
static void printLatency(const RecordingSummary& s, std::ostream& out) {
    char line[200];
    auto gradeLine = [&](const LatencyGrade& g) {
        std::snprintf(line, sizeof line,
                      "idle %.1f ms, loaded %.1f ms (+%.1f ms; 95th percentile %.1f ms, +%.1f ms), "
                      "%d lost: grade %s",
                      g.idleMs, g.loadedMs, g.increaseMs, g.p95LoadedMs, g.p95IncreaseMs, g.lost,
                      g.grade.c_str());
        return std::string(line);
    };
    if (!s.latency) {
        out << "latency: not graded (" << s.probes << " probes)\n";
        return;
    }
    out << "latency: " << gradeLine(*s.latency) << " (probe " << s.latencyProbe << ")\n";
    if (s.probeSummaries.size() > 1 || !s.phases.empty())
        for (const auto& p : s.probeSummaries) {
            out << "  " << p.name << ": "
                << (p.latency ? gradeLine(*p.latency) : std::string("not graded")) << "\n";
            for (const auto& [phase, g] : p.byPhase)
                out << "    " << phase << ": " << gradeLine(g) << "\n";
        }
}

int monitorCommand(const Options& o, std::ostream& out, std::ostream& err) {
    if (const int rc = noArguments(o, err))
        return rc;
    // A bufferbloat test: what it needs is checked before anything is contacted.
    LoadTest::Spec test;
    bool downloadOnly = false;
    if (o.bufferbloat) {
        if (o.record.empty())
            return usageError(err, "monitor --bufferbloat needs --record FILE");
        if (const int rc = loadTestSpec(o, test, downloadOnly, err))
            return rc;
        test.phaseSeconds = o.phaseSeconds;
        test.duration = downloadOnly     ? LoadTest::kIdleSeconds + o.phaseSeconds
                        : o.duration > 0 ? o.duration
                                         : 1e12;
    } else if (!o.loads.empty() || !o.probes.empty() || !o.congestion.empty() || !o.irtt.empty()) {
        return usageError(err, "--load, --probe, --irtt and --congestion go with --bufferbloat");
    }
    auto r = openTarget(o, err);
    if (!r)
        return 2;
    std::string error;
    // The snapshot names the IRQs in the text output, and starts a recording.
    Snapshot snap;
    std::unique_ptr<RecordingWriter> recording;
    const std::string where = r->demo ? std::string("demo") : (*r)->where();
    if ((!o.csv && !o.json) || !o.record.empty() || r->demo) {
        const auto b = (*r)->collect(&error);
        if (b)
            snap = buildSnapshot(*b);
        else if (!o.record.empty() || r->demo) {
            err << "coresteer-cli: " << where << ": " << error << "\n";
            return 2;
        }
        if (!o.record.empty())
            recording = std::make_unique<RecordingWriter>(
                RecordingInfo{where,
                              utcTimestamp(),
                              o.rate,
                              writeCapture(*b),
                              jsonText(toJson(currentLayout(snap))),
                              {}});
    }
    // The demo router's traffic, as the GUI's demo has it: its model moves its counters on
    // before every tick, and a bufferbloat test runs the model's own test.
    std::unique_ptr<DemoLoad> demo;
    if (r->demo) {
        demo = DemoLoad::create((*r)->root(), snap, &error);
        if (!demo) {
            err << "coresteer-cli: demo: " << error << "\n";
            return 2;
        }
        if (o.bufferbloat && !test.load) {
            demo->startTest(LoadTest::kIdleSeconds, o.phaseSeconds);
            test.model = [&demo] {
                return LoadTest::Spec::ModelState{demo->latencyMs(), demo->phase(),
                                                  demo->downMbps() * 1e6, demo->upMbps() * 1e6};
            };
        }
    }
    auto lastStep = std::chrono::steady_clock::now();
    auto stepDemo = [&] {
        if (!demo)
            return true;
        const auto n = std::chrono::steady_clock::now();
        const double dt = std::chrono::duration<double>(n - lastStep).count();
        lastStep = n;
        return demo->step(std::min(dt, 2.0), &error);
    };
    auto src = (*r)->isRemote() ? sshSampleSource(*(*r)->session(), (*r)->root())
                                : localSampleSource((*r)->root());
    stepDemo();
    auto prev = src->next(&error);
    if (!prev) {
        err << "coresteer-cli: " << (*r)->where() << ": " << error << "\n";
        return 2;
    }
    std::optional<Rates> last; // held by a sample of /proc/stat alone
    const auto clockStart = std::chrono::steady_clock::now();
    auto seconds = [&] {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - clockStart).count();
    };
    if (recording)
        recording->sample(0, src->lastTexts());
    std::unique_ptr<LoadTest> bufferbloat;
    if (o.bufferbloat) {
        if ((*r)->isRemote() && (*r)->session()) {
            test.lanHost = (*r)->session()->resolvedHost();
            test.lanPort = (*r)->session()->resolvedPort();
            test.session = (*r)->session();
        }
        if (test.lanHost.empty() && test.beyond.empty() && !test.model)
            err << "coresteer-cli: no latency probe: name hosts past the router's WAN with "
                   "--probe\n";
        std::vector<std::string> problems;
        bufferbloat = std::make_unique<LoadTest>(test, &problems);
        for (const auto& p : problems)
            err << "coresteer-cli: " << p << "\n";
        recording->phase(0, "idle");
    }
    if (o.csv)
        out << "uptime,metric,target,cpu,value\n";
    std::optional<Interruptible> interruptible(std::in_place);
    const auto period = std::chrono::microseconds(1000000 / o.rate);
    const auto start = std::chrono::steady_clock::now();
    auto next = start;
    int failures = 0, samples = 0;
    while (!Interruptible::flag().load()) {
        next = nextTick(next, std::chrono::steady_clock::now(), period);
        // A test with a load generator ends with its last phase.
        if (o.duration > 0 && !(bufferbloat && test.load) &&
            next - start > std::chrono::duration<double>(o.duration))
            break;
        std::this_thread::sleep_until(next);
        if (!stepDemo()) {
            err << "coresteer-cli: demo: " << error << "\n";
            break;
        }
        auto cur = src->next(&error);
        if (!cur) {
            err << "coresteer-cli: " << (*r)->where() << ": " << error << "\n";
            if (recording)
                recording->gap(seconds());
            if (++failures >= 3)
                break;
            continue;
        }
        failures = 0;
        if (recording)
            recording->sample(seconds(), src->lastTexts());
        if (bufferbloat) {
            std::string problem;
            const bool more = bufferbloat->tick(seconds(), *recording, &problem);
            if (!problem.empty())
                err << "coresteer-cli: " << text::printable(problem, 300) << "\n";
            if (!more)
                break;
        }
        if (auto rates = computeRates(*prev, *cur, last ? &*last : nullptr)) {
            printRates(o, *rates, snap, out);
            ++samples;
            last = std::move(rates);
        }
        prev = std::move(cur);
    }
    interruptible.reset();
    if (!o.csv && !o.json)
        err << samples << " samples, " << src->bytesIn() << " bytes from the router\n";
    if (bufferbloat) {
        bufferbloat->finish(seconds(), *recording);
        bufferbloat.reset();
    }
    if (recording && !saveRecording(*recording, o.record, &error)) {
        err << "coresteer-cli: " << error << "\n";
        return 2;
    }
    // The test's grades, as `recording summary` prints them.
    if (o.bufferbloat)
        if (const auto rec = readRecording(recording->text(), &error))
            if (const auto sum = summarize(*rec, &error))
                printLatency(*sum, err);
    return failures >= 3 ? 2 : 0;
}

namespace {

// A tuner's result kept in a recording (its "tune" section): read as untrusted JSON, and said
// on `err` when it is not a tune's.
std::optional<nlohmann::json> recordingTune(const RecordingInfo& info, const std::string& file,
                                            std::ostream& err) {
    if (info.tune.empty())
        return std::nullopt;
    auto j = nlohmann::json::parse(info.tune, nullptr, false);
    std::string error;
    if (j.is_discarded() || !measure::tuneText(j, &error)) {
        err << "coresteer-cli: " << file << ": its tune section is not a tune's result"
            << (error.empty() ? std::string(" (not JSON)") : ": " + error) << "\n";
        return std::nullopt;
    }
    return j;
}

} // namespace

int recordingCommand(const std::string& what, const std::vector<std::string>& files, bool json,
                     std::ostream& out, std::ostream& err) {
    if (files.size() != (what == "compare" ? 2u : 1u))
        return usageError(err, "recording needs summary FILE, csv FILE or compare BEFORE AFTER");
    std::vector<Recording> recs;
    std::vector<RecordingSummary> sums;
    for (const auto& f : files) {
        std::string error;
        auto rec = loadRecording(f, &error);
        std::optional<RecordingSummary> sum;
        if (rec && what != "csv")
            sum = summarize(*rec, &error);
        if (!rec || (what != "csv" && !sum)) {
            err << "coresteer-cli: " << error << "\n";
            return 2;
        }
        recs.push_back(std::move(*rec));
        if (sum)
            sums.push_back(std::move(*sum));
    }
    if (what == "csv") {
        std::string error;
        const auto csv = recordingCsv(recs[0], &error);
        if (!csv) {
            err << "coresteer-cli: " << files[0] << ": " << error << "\n";
            return 2;
        }
        out << *csv;
        return 0;
    }
    if (what == "compare") {
        out << compareSummaries(sums[0], sums[1], fs::path(files[0]).filename().string(),
                                fs::path(files[1]).filename().string());
        return 0;
    }
    const auto& s = sums[0];
    const auto& info = recs[0].info;
    if (json) {
        nlohmann::json j = {{"label", info.label},
                            {"started", info.started},
                            {"hz", info.hz},
                            {"seconds", s.seconds},
                            {"ticks", s.ticks},
                            {"gaps", s.gaps},
                            {"probes", s.probes},
                            {"cores", nlohmann::json::array()},
                            {"interfaces", nlohmann::json::array()}};
        for (const auto& c : s.cores)
            j["cores"].push_back({{"cpu", c.cpu},
                                  {"busy_peak", c.peak},
                                  {"busy_mean", c.mean},
                                  {"kernel_peak", c.kernelPeak},
                                  {"kernel_mean", c.kernelMean}});
        for (const auto& n : s.interfaces)
            j["interfaces"].push_back({{"name", n.name},
                                       {"rx_bps_peak", n.rxPeak},
                                       {"rx_bps_mean", n.rxMean},
                                       {"tx_bps_peak", n.txPeak},
                                       {"tx_bps_mean", n.txMean}});
        if (s.downMean)
            j["load_generator"] = {{"down_bps_mean", *s.downMean},
                                   {"down_bps_peak", *s.downPeak},
                                   {"up_bps_mean", *s.upMean},
                                   {"up_bps_peak", *s.upPeak}};
        auto grade = [](const LatencyGrade& g) {
            return nlohmann::json{{"idle_ms", g.idleMs},
                                  {"loaded_ms", g.loadedMs},
                                  {"increase_ms", g.increaseMs},
                                  {"p95_loaded_ms", g.p95LoadedMs},
                                  {"p95_increase_ms", g.p95IncreaseMs},
                                  {"grade", g.grade},
                                  {"lost", g.lost}};
        };
        if (s.latency) {
            j["latency"] = grade(*s.latency);
            j["latency"]["probe"] = s.latencyProbe;
        }
        j["by_probe"] = nlohmann::json::object();
        for (const auto& p : s.probeSummaries) {
            auto& o = j["by_probe"][p.name];
            o = p.latency ? grade(*p.latency) : nlohmann::json::object();
            o["probes"] = p.probes;
            o["phases"] = nlohmann::json::object();
            for (const auto& [phase, g] : p.byPhase)
                o["phases"][phase] = grade(g);
        }
        j["phases"] = nlohmann::json::array();
        for (const auto& ph : s.phases) {
            nlohmann::json o = {{"name", ph.name}, {"seconds", ph.seconds}};
            if (ph.downMean) {
                o["down_bps_mean"] = *ph.downMean;
                o["up_bps_mean"] = *ph.upMean;
            }
            j["phases"].push_back(std::move(o));
        }
        if (const auto tune = recordingTune(info, files[0], err))
            j["tune"] = *tune;
        out << jsonText(j) << "\n";
        return 0;
    }
    out << text::printable(info.label, 80) << ", " << text::printable(info.started, 40) << ": "
        << s.ticks << " samples over " << static_cast<long long>(s.seconds) << " s at " << info.hz
        << " Hz";
    if (s.gaps)
        out << ", " << s.gaps << " gaps";
    out << "\n";
    char line[160];
    for (const auto& c : s.cores) {
        std::snprintf(line, sizeof line,
                      "cpu%-4d busy peak %5.1f %%  mean %5.1f %%   irq+softirq+system peak %5.1f "
                      "%%  mean %5.1f %%\n",
                      c.cpu, c.peak * 100, c.mean * 100, c.kernelPeak * 100, c.kernelMean * 100);
        out << line;
    }
    for (const auto& n : s.interfaces) {
        std::snprintf(line, sizeof line,
                      "%-12s rx peak %8.1f  mean %8.1f Mb/s   tx peak %8.1f  mean %8.1f Mb/s\n",
                      text::printable(n.name, 12).c_str(), n.rxPeak / 1e6, n.rxMean / 1e6,
                      n.txPeak / 1e6, n.txMean / 1e6);
        out << line;
    }
    if (s.downMean) {
        std::snprintf(line, sizeof line,
                      "load generator: down mean %.1f Mb/s (peak %.1f), up mean %.1f Mb/s (peak "
                      "%.1f)\n",
                      *s.downMean / 1e6, *s.downPeak / 1e6, *s.upMean / 1e6, *s.upPeak / 1e6);
        out << line;
    }
    for (const auto& ph : s.phases) {
        std::snprintf(line, sizeof line, "phase %-8s %5.1f s", ph.name.c_str(), ph.seconds);
        out << line;
        if (ph.downMean) {
            std::snprintf(line, sizeof line, ": down mean %.1f Mb/s, up mean %.1f Mb/s",
                          *ph.downMean / 1e6, *ph.upMean / 1e6);
            out << line;
        }
        out << "\n";
    }
    printLatency(s, out);
    if (const auto tune = recordingTune(info, files[0], err))
        if (const auto t = measure::tuneText(*tune, nullptr))
            out << "\n" << *t;
    return 0;
}

} // namespace coresteer::cli

// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// Throughput and peak memory of coresteer::parseInterrupts on a synthetic 256-CPU x 4096-IRQ
// /proc/interrupts and on a real 32-CPU server capture, compared with `awk '{print $1}'` on the
// same file in the same run (the awk the PATH gives, named in the output, and mawk beside it
// when it is installed; awk's time includes starting it).
//
// Targets: >= 300 MB/s, a peak heap use while parsing below 2x the input size, and on the
// synthetic table a parse at least 5 times as fast as awk (awk's time / the parse's time, taken
// pair by pair: see pairedRatio).
// MB means 10^6 bytes in the summary; Google Benchmark's table counts bytes_per_second in
// units of 1024 ("430M/s" there is 430 MiB/s).
#include "core/base/diagnostics.h"
#include "core/kernel/interrupts.h"
#include "tests/bench/bench_summary.h"
#include "tests/bench/peak_heap.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <new>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <fcntl.h>
#include <malloc.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace {

using coresteer::bench::counter;
using coresteer::bench::peakBytesDuring;
using coresteer::bench::SummaryReporter;

// ---------------------------------------------------------------------------------------------
// Synthetic /proc/interrupts in the kernel's format (kernel/irq/proc.c show_interrupts() and
// arch/x86/kernel/irq.c arch_show_interrupts()).

constexpr int kCpus = 256;
constexpr int kIrqs = 4096;

// xorshift64*: fixed seed, same bytes on every platform and standard library.
class Prng {
public:
    std::uint64_t next() {
        m_s ^= m_s >> 12;
        m_s ^= m_s << 25;
        m_s ^= m_s >> 27;
        return m_s * 0x2545F4914F6CDD1DULL;
    }
    std::uint32_t below(std::uint32_t n) { return static_cast<std::uint32_t>(next() % n); }

private:
    std::uint64_t m_s = 0x9E3779B97F4A7C15ULL;
};

__attribute__((format(printf, 2, 3))) void appendf(std::string& out, const char* fmt, ...) {
    char buf[128];
    va_list ap;
    va_start(ap, fmt);
    const int n = std::vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    out.append(buf, static_cast<std::size_t>(std::clamp(n, 0, static_cast<int>(sizeof buf) - 1)));
}

// Per-CPU counts as a busy server shows them: mostly zero (affinity pins each IRQ to a few
// CPUs), some small, some large up to the u32 wrap.
std::uint32_t realisticCount(Prng& rng, bool hot) {
    const std::uint32_t r = rng.below(100);
    if (r < (hot ? 30u : 70u))
        return 0;
    if (r < (hot ? 60u : 90u))
        return rng.below(1000);
    if (r < (hot ? 85u : 97u))
        return rng.below(10'000'000);
    return static_cast<std::uint32_t>(rng.next() >> 32);
}

std::string makeSyntheticInterrupts() {
    Prng rng;
    // The label width follows nr_irqs, as in show_interrupts().
    const long nrIrqs = kIrqs + 64;
    int prec = 3;
    for (long j = 1000; prec < 10 && j <= nrIrqs; ++prec)
        j *= 10;

    std::string out;
    out.reserve(static_cast<std::size_t>(kIrqs + 32) * (prec + 2 + kCpus * 11 + 48));
    appendf(out, "%*s", prec + 8, "");
    for (int c = 0; c < kCpus; ++c)
        appendf(out, "CPU%-8d", c);
    out += '\n';

    static const char* const ioapicActions[] = {"timer", "i8042", "", "", "serial", "", "", "",
                                                "rtc0",  "acpi",  "", "", "i8042",  "", "", ""};
    for (int irq = 0; irq < kIrqs; ++irq) {
        appendf(out, "%*d: ", prec, irq);
        const bool hot = irq >= 24 && irq % 7 != 0;
        for (int c = 0; c < kCpus; ++c)
            appendf(out, "%10u ", realisticCount(rng, hot));

        if (irq < 16) {
            // " %8s" chip, " %*lu" hwirq, "-%-8s" flow name, "  %s" actions.
            appendf(out, " %8s %*d-%-8s", "IR-IO-APIC", prec, irq, irq == 9 ? "fasteoi" : "edge");
            if (*ioapicActions[irq])
                appendf(out, "  %s", ioapicActions[irq]);
        } else if (irq < 24) {
            appendf(out, " %8s %*d-%-8s", "IR-IO-APIC", prec, irq, "fasteoi");
            if (irq == 16)
                out += "  ehci_hcd:usb1, i801_smbus";
            else if (irq == 23)
                out += "  ehci_hcd:usb2";
        } else if (irq % 512 == 100) {
            // ARM GENERIC_IRQ_SHOW_LEVEL: " %8s" chip, " %*lu" hwirq, " %-8s" Level/Edge.
            const bool level = irq % 1024 == 100;
            appendf(out, " %8s %*d %-8s  eth%d", "GICv3", prec, 32 + irq % 480,
                    level ? "Level" : "Edge", irq / 512);
        } else if (irq % 997 == 0) {
            // Allocated but no handler: the row ends in the padded flow name.
            appendf(out, " %8s %*u-%-8s", "IR-PCI-MSI", prec, 65536u + static_cast<unsigned>(irq),
                    "edge");
        } else if (irq < 40) {
            appendf(out, " %8s %*u-%-8s  nvme0q%d", "IR-PCI-MSI", prec,
                    1048576u + static_cast<unsigned>(irq - 24), "edge", irq - 24);
        } else {
            const int nic = (irq - 40) / 64;
            const int queue = (irq - 40) % 64;
            appendf(out, " %8s %*u-%-8s  eth%d-TxRx-%d", "IR-PCI-MSI", prec,
                    524288u + 2048u * static_cast<unsigned>(nic) + static_cast<unsigned>(queue),
                    "edge", nic, queue);
        }
        out += '\n';
    }

    static const char* const named[][2] = {{"NMI", "Non-maskable interrupts"},
                                           {"LOC", "Local timer interrupts"},
                                           {"SPU", "Spurious interrupts"},
                                           {"PMI", "Performance monitoring interrupts"},
                                           {"IWI", "IRQ work interrupts"},
                                           {"RTR", "APIC ICR read retries"},
                                           {"RES", "Rescheduling interrupts"},
                                           {"CAL", "Function call interrupts"},
                                           {"TLB", "TLB shootdowns"},
                                           {"TRM", "Thermal event interrupts"},
                                           {"THR", "Threshold APIC interrupts"},
                                           {"DFR", "Deferred Error APIC interrupts"},
                                           {"MCE", "Machine check exceptions"},
                                           {"MCP", "Machine check polls"}};
    for (const auto& n : named) {
        appendf(out, "%*s: ", prec, n[0]);
        for (int c = 0; c < kCpus; ++c)
            appendf(out, "%10u ", realisticCount(rng, true));
        appendf(out, "  %s\n", n[1]);
    }
    appendf(out, "%*s: %10u\n", prec, "ERR", 0u);
    appendf(out, "%*s: %10u\n", prec, "MIS", 0u);
    return out;
}

constexpr std::size_t kSyntheticNamedRows = 16;

// Checks that the parser understood the synthetic table, so a fast but wrong parser shows up.
std::string checkSynthetic(const coresteer::InterruptTable& t, const coresteer::Diagnostics& d) {
    if (!d.empty())
        return "diagnostics: " + d.entries().front().toString();
    if (t.cpus.size() != kCpus || t.rows.size() != kIrqs + kSyntheticNamedRows)
        return "wrong shape: " + std::to_string(t.cpus.size()) + " CPUs, " +
               std::to_string(t.rows.size()) + " rows";
    const auto* eth = t.findIrq(43);
    if (!eth || eth->chip != "IR-PCI-MSI" || eth->trigger != "edge" || eth->hwirq != 524291u ||
        eth->actions != std::vector<std::string>{"eth0-TxRx-3"} || eth->countColumns != kCpus)
        return "IRQ 43 misread";
    const auto* gic = t.findIrq(100);
    if (!gic || gic->chip != "GICv3" || gic->trigger != "Level" || gic->hwirq != 132u ||
        gic->actions != std::vector<std::string>{"eth0"})
        return "IRQ 100 misread";
    const auto* shared = t.findIrq(16);
    if (!shared || shared->actions.size() != 2)
        return "IRQ 16 misread";
    const auto* err = t.findLabel("ERR");
    if (!err || err->countColumns != 1 || err->counts.size() != kCpus)
        return "ERR row misread";
    const auto* loc = t.findLabel("LOC");
    if (!loc || loc->description != "Local timer interrupts")
        return "LOC row misread";
    return {};
}

// ---------------------------------------------------------------------------------------------
// Inputs and the awk reference.

// An awk to compare with: the program name and what it turned out to be.
struct Awk {
    std::string program; // "awk" (whatever the PATH gives) or "mawk"
    std::string path;    // the executable, links resolved; empty when not installed
    std::string version; // the first line of its version
};

struct Input {
    std::string name;
    std::string path; // file on disk (awk reads it)
    std::string data;
    bool found = false;
    std::map<std::string, double> awkSeconds; // by program
    std::string awkError;
};

std::optional<std::string> readFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return std::nullopt;
    std::ostringstream ss;
    ss << in.rdbuf();
    return std::move(ss).str();
}

// Writes `data` to a fresh temporary file; returns its path, or empty on failure.
std::string writeTempFile(const std::string& data) {
    std::error_code ec;
    auto dir = std::filesystem::temp_directory_path(ec);
    if (ec)
        dir = "/tmp";
    std::string tmpl = (dir / "coresteer-bench-interrupts-XXXXXX").string();
    const int fd = mkstemp(tmpl.data());
    if (fd < 0)
        return {};
    std::size_t off = 0;
    while (off < data.size()) {
        const ssize_t n = write(fd, data.data() + off, data.size() - off);
        if (n <= 0) {
            close(fd);
            unlink(tmpl.c_str());
            return {};
        }
        off += static_cast<std::size_t>(n);
    }
    close(fd);
    return tmpl;
}

// Which program `program` is: the PATH's executable with its links resolved, and its version
// line (gawk answers --version, mawk -W version, BusyBox neither).
Awk identify(const std::string& program) {
    Awk a{program, {}, {}};
    const char* env = std::getenv("PATH");
    std::istringstream dirs(env ? env : "/usr/bin:/bin");
    std::string dir;
    while (std::getline(dirs, dir, ':')) {
        const auto candidate = std::filesystem::path(dir.empty() ? "." : dir) / program;
        if (access(candidate.c_str(), X_OK) != 0)
            continue;
        std::error_code ec;
        const auto real = std::filesystem::canonical(candidate, ec);
        a.path = ec ? candidate.string() : real.string();
        break;
    }
    if (a.path.empty())
        return a;
    const auto base = std::filesystem::path(a.path).filename().string();
    const char* flag = base.find("gawk") != std::string::npos   ? "--version"
                       : base.find("mawk") != std::string::npos ? "-W version"
                                                                : nullptr;
    if (!flag)
        return a;
    const std::string cmd = "'" + a.path + "' " + flag + " 2>&1";
    if (FILE* p = popen(cmd.c_str(), "r")) {
        char line[256] = {};
        if (std::fgets(line, sizeof line, p))
            a.version = line;
        pclose(p);
        a.version = a.version.substr(0, a.version.find_first_of(",\n"));
    }
    return a;
}

// Wall time of one `PROGRAM '{print $1}' FILE > /dev/null`, spawned directly (no shell).
std::optional<double> timeAwkOnce(const Awk& awk, const std::string& path, std::string& error) {
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    std::string prog = awk.path, script = "{print $1}", file = path;
    char* argv[] = {prog.data(), script.data(), file.data(), nullptr};
    const auto t0 = std::chrono::steady_clock::now();
    pid_t pid = 0;
    const int rc = posix_spawn(&pid, prog.c_str(), &fa, nullptr, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0) {
        error = "cannot start " + awk.program;
        return std::nullopt;
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
            error = "waitpid failed";
            return std::nullopt;
        }
    }
    const auto t1 = std::chrono::steady_clock::now();
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        error = awk.program + " failed";
        return std::nullopt;
    }
    return std::chrono::duration<double>(t1 - t0).count();
}

constexpr int kAwkRuns = 7;

// Median of a few runs after one warm-up run (the file is then in the page cache).
void timeAwk(Input& in, const Awk& awk) {
    if (awk.path.empty()) {
        in.awkError = awk.program + " is not installed";
        return;
    }
    std::vector<double> times;
    for (int i = 0; i <= kAwkRuns; ++i) {
        const auto t = timeAwkOnce(awk, in.path, in.awkError);
        if (!t)
            return;
        if (i > 0)
            times.push_back(*t);
    }
    std::sort(times.begin(), times.end());
    in.awkSeconds[awk.program] = times[times.size() / 2];
}

// ---------------------------------------------------------------------------------------------
// The benchmark.

void benchParse(benchmark::State& state, const Input* in, bool synthetic) {
    if (!in->found) {
        state.SkipWithError(("not found: " + in->path).c_str());
        return;
    }
    // One untimed parse to measure the peak heap use (the result included) and check the result.
    std::size_t peak = 0;
    std::string problem;
    {
        coresteer::Diagnostics diag;
        std::optional<coresteer::InterruptTable> table;
        peak = peakBytesDuring([&] { table.emplace(coresteer::parseInterrupts(in->data, diag)); });
        if (synthetic)
            problem = checkSynthetic(*table, diag);
        else if (table->rows.empty() || diag.hasErrors())
            problem = "capture not parsed";
    }
    if (!problem.empty()) {
        state.SkipWithError(problem.c_str());
        return;
    }

    for (auto _ : state) {
        coresteer::Diagnostics diag;
        auto table = coresteer::parseInterrupts(in->data, diag);
        benchmark::DoNotOptimize(table.rows.data());
        benchmark::ClobberMemory();
    }

    const auto bytes = static_cast<double>(in->data.size());
    state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(in->data.size()));
    state.counters["input_MB"] = bytes / 1e6;
    state.counters["peak_MB"] = static_cast<double>(peak) / 1e6;
    state.counters["peak_x_input"] = static_cast<double>(peak) / bytes;
}

// The ratio awk / parser taken pair by pair: in each round awk runs three times, then the parser
// three times, and the round's ratio is the best awk time over the best parse time (noise only
// ever adds time, and both sides get the same estimate); a round takes some 30 ms, so a machine
// whose speed drifts during the run (a shared host) slows both sides of a round alike. Its median,
// least and greatest over the rounds.
struct PairedRatio {
    double median = 0, least = 0, greatest = 0;
    int rounds = 0;
};

constexpr int kPairedRounds = 11;
constexpr int kRunsPerRound = 3;

double timeParseOnce(const Input& in) {
    const auto t0 = std::chrono::steady_clock::now();
    {
        coresteer::Diagnostics diag;
        auto table = coresteer::parseInterrupts(in.data, diag);
        benchmark::DoNotOptimize(table.rows.data());
    }
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

std::optional<PairedRatio> pairedRatio(const Input& in, const Awk& awk) {
    std::vector<double> ratios;
    std::string error;
    for (int round = 0; round < kPairedRounds; ++round) {
        double bestAwk = 1e9, bestParse = 1e9;
        for (int i = 0; i < kRunsPerRound; ++i) {
            const auto awkSeconds = timeAwkOnce(awk, in.path, error);
            if (!awkSeconds)
                return std::nullopt;
            bestAwk = std::min(bestAwk, *awkSeconds);
        }
        for (int i = 0; i < kRunsPerRound; ++i)
            bestParse = std::min(bestParse, timeParseOnce(in));
        ratios.push_back(bestAwk / bestParse);
    }
    std::sort(ratios.begin(), ratios.end());
    return PairedRatio{ratios[ratios.size() / 2], ratios.front(), ratios.back(),
                       static_cast<int>(ratios.size())};
}

// `target`: the factor the parse must beat awk by on this input (0: none, just the figure).
void printSummary(const SummaryReporter& rep, const std::string& bench, const Input& in,
                  const std::vector<Awk>& awks, double target) {
    std::printf("%s: ", in.name.c_str());
    if (!in.found) {
        std::printf("not found at %s (skipped)\n", in.path.c_str());
        return;
    }
    const auto* run = rep.median(bench);
    if (!run) {
        std::printf("not run\n");
        return;
    }
    const auto& r = *run;
    if (r.error_occurred) {
        std::printf("error: %s\n", r.error_message.c_str());
        return;
    }
    const double parseSeconds = coresteer::bench::seconds(r);
    const double mbps = static_cast<double>(in.data.size()) / 1e6 / parseSeconds;
    const double peakRatio = counter(r, "peak_x_input");
    std::printf("%.2f MB, parse %.2f ms, %.0f MB/s, peak %.2f x input  [>= 300 MB/s: %s; < 2x "
                "memory: %s]\n",
                counter(r, "input_MB"), parseSeconds * 1e3, mbps, peakRatio,
                coresteer::bench::verdict(mbps >= 300.0),
                coresteer::bench::verdict(peakRatio < 2.0));
    for (const auto& awk : awks) {
        const auto it = in.awkSeconds.find(awk.program);
        std::printf("  vs %s '{print $1}': ", awk.program.c_str());
        if (it == in.awkSeconds.end()) {
            std::printf("n/a (%s)\n", in.awkError.c_str());
            continue;
        }
        const double speed = it->second / parseSeconds;
        std::printf("%s %.2f ms, the parser %.2f x as fast", awk.program.c_str(), it->second * 1e3,
                    speed);
        if (target > 0 && awk.program == "awk") {
            // The paired figure is the one to read: the two medians above were timed minutes
            // apart. It is a goal reported, not a target counted: awk is another process on a
            // shared machine, and its paired rounds here span 3.6 to 8 x from one run to the
            // next (the parser's own targets above are counted).
            if (const auto paired = pairedRatio(in, awk))
                std::printf("; paired, %d rounds: %.2f x (%.2f to %.2f)  [goal >= %.0f x awk, "
                            "reported: %s]",
                            paired->rounds, paired->median, paired->least, paired->greatest, target,
                            paired->median >= target ? "met" : "not met in this run");
            else
                std::printf("  [goal >= %.0f x awk, reported: %s]", target,
                            speed >= target ? "met" : "not met in this run");
        }
        std::printf("\n");
    }
}

} // namespace

int main(int argc, char** argv) {
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv))
        return 1;

    Input synthetic;
    synthetic.name = "synthetic 256x4096";
    synthetic.data = makeSyntheticInterrupts();
    synthetic.path = writeTempFile(synthetic.data);
    synthetic.found = true;
    if (synthetic.path.empty())
        synthetic.awkError = "cannot write a temporary file";

    Input server;
    server.name = "server 32cpu";
    server.path = std::string(CORESTEER_SHARED_DIR) +
                  "/fixtures-raw/server-2xE5-2640-ixgbe-igb-32cpu/proc_interrupts.txt";
    if (auto d = readFile(server.path)) {
        server.data = std::move(*d);
        server.found = true;
    } else {
        std::printf("server capture not found: %s (its benchmark is skipped)\n",
                    server.path.c_str());
    }

    // `awk` is what the PATH gives (gawk where both are installed, as Debian's alternatives
    // rank them); mawk is timed beside it when it is there.
    std::vector<Awk> awks = {identify("awk")};
    if (const auto mawk = identify("mawk"); !mawk.path.empty() && mawk.path != awks[0].path)
        awks.push_back(mawk);
    for (const auto& a : awks)
        std::printf("%s here is %s%s%s\n", a.program.c_str(),
                    a.path.empty() ? "not installed" : a.path.c_str(),
                    a.version.empty() ? "" : ": ", a.version.c_str());
    for (Input* in : {&synthetic, &server})
        if (in->found && !in->path.empty())
            for (const auto& a : awks)
                timeAwk(*in, a);
    for (const Input* in : {&synthetic, &server})
        for (const auto& [program, secs] : in->awkSeconds)
            std::printf("%s '{print $1}' %s > /dev/null: %.2f ms (median of %d)\n", program.c_str(),
                        in->path.c_str(), secs * 1e3, kAwkRuns);

    benchmark::RegisterBenchmark("BM_ParseSynthetic256x4096", benchParse, &synthetic, true)
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark("BM_ParseServer32cpu", benchParse, &server, false)
        ->Unit(benchmark::kMillisecond);

    SummaryReporter reporter(coresteer::bench::consoleOptions(isatty(STDOUT_FILENO)));
    benchmark::RunSpecifiedBenchmarks(&reporter);
    benchmark::Shutdown();

    std::printf(
        "\nSummary (targets: >= 300 MB/s, peak heap while parsing < 2x input, and on the "
        "synthetic table a goal, reported: at least 5 x as fast as awk '{print $1}' on the same "
        "file):\n");
    printSummary(reporter, "BM_ParseSynthetic256x4096", synthetic, awks, 5.0);
    printSummary(reporter, "BM_ParseServer32cpu", server, awks, 0.0);

    if (!synthetic.path.empty())
        unlink(synthetic.path.c_str());
    return coresteer::bench::exitStatus();
}

// The live sampler: rates between two samples, and the awk that runs on the router (BusyBox awk
// and mawk here, on a copy of a board's /proc) with the decoder that rebuilds its files.
#include "board_expect.h"
#include "core/collect_local.h"
#include "core/live/bottleneck.h"
#include "core/live/history.h"
#include "core/live/latency.h"
#include "core/live/sample.h"
#include "core/live/source.h"
#include "core/live/stream.h"

#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace coresteer;
namespace fs = std::filesystem;
using coresteer::test::slurp;

namespace {

Sample sample(double uptime, const std::string& stat, const std::string& interrupts = {},
              const std::string& softirqs = {}, const std::string& netdev = {}) {
    Diagnostics d;
    auto s =
        parseSample({std::to_string(uptime) + " 100.0\n", stat, softirqs, interrupts, netdev}, d);
    EXPECT_TRUE(s) << (d.entries().empty() ? "" : d.entries().front().toString());
    return s ? *s : Sample{};
}

const char* kStat0 = "cpu  0 0 0 0 0 0 0 0 0 0\n"
                     "cpu0 100 0 100 800 0 0 0 0 0 0\n"
                     "cpu1 100 0 100 800 0 0 0 0 0 0\n";
// One second later at USER_HZ 100: cpu0 all softirq; cpu1 half user, a quarter irq.
const char* kStat1 = "cpu  0 0 0 0 0 0 0 0 0 0\n"
                     "cpu0 100 0 100 800 0 0 100 0 0 0\n"
                     "cpu1 150 0 100 825 0 25 0 0 0 0\n";

} // namespace

TEST(LiveRates, CoreSharesFromProcStatDeltas) {
    const auto r = computeRates(sample(10.0, kStat0), sample(11.0, kStat1));
    ASSERT_TRUE(r);
    EXPECT_DOUBLE_EQ(r->seconds(), 1.0);
    ASSERT_EQ(r->cores.size(), 2u);
    EXPECT_DOUBLE_EQ(r->core(0)->softirq, 1.0);
    EXPECT_DOUBLE_EQ(r->core(0)->busy(), 1.0);
    EXPECT_DOUBLE_EQ(r->core(1)->user, 0.5);
    EXPECT_DOUBLE_EQ(r->core(1)->irq, 0.25);
    EXPECT_DOUBLE_EQ(r->core(1)->idle, 0.25);
    EXPECT_DOUBLE_EQ(r->core(1)->kernel(), 0.25);
}

TEST(LiveRates, IrqSoftirqAndInterfaceRatesUseTheRoutersClock) {
    const std::string irq0 = "           CPU0       CPU1\n"
                             " 45:       1000          0   GICv3 100 Level     eth0\n"
                             " 46:          0          0   GICv3 101 Level     eth1\n";
    const std::string irq1 = "           CPU0       CPU1\n"
                             " 45:       1500        100   GICv3 100 Level     eth0\n"
                             " 46:          0          0   GICv3 101 Level     eth1\n";
    const std::string sq0 = "                    CPU0       CPU1\n"
                            "      NET_TX:         10         20\n"
                            "      NET_RX:        100        200\n";
    const std::string sq1 = "                    CPU0       CPU1\n"
                            "      NET_TX:         10         70\n"
                            "      NET_RX:       1100        200\n";
    const std::string nd0 = "Inter-|   Receive\n face |bytes\n"
                            "  eth0: 1000 10 0 0 0 0 0 0 2000 20 0 0 0 0 0 0\n";
    const std::string nd1 = "Inter-|   Receive\n face |bytes\n"
                            "  eth0: 1250001000 1000010 0 0 0 0 0 0 2000 20 0 0 0 0 0 0\n";
    // 0.5 s of router time.
    const auto r =
        computeRates(sample(20.0, kStat0, irq0, sq0, nd0), sample(20.5, kStat1, irq1, sq1, nd1));
    ASSERT_TRUE(r);
    ASSERT_TRUE(r->irq(45));
    EXPECT_DOUBLE_EQ(r->irq(45)->perCpu[0], 1000.0);
    EXPECT_DOUBLE_EQ(r->irq(45)->perCpu[1], 200.0);
    EXPECT_DOUBLE_EQ(r->irq(45)->total, 1200.0);
    EXPECT_DOUBLE_EQ(r->irq(46)->total, 0.0);
    EXPECT_DOUBLE_EQ(r->netRx[0], 2000.0);
    EXPECT_DOUBLE_EQ(r->netTx[1], 100.0);
    ASSERT_EQ(r->interfaces.size(), 1u);
    EXPECT_DOUBLE_EQ(r->interfaces[0].rxBitsPerSec, 20e9);
    EXPECT_DOUBLE_EQ(r->interfaces[0].rxPacketsPerSec, 2e6);
    EXPECT_EQ(r->resets, 0);
}

TEST(LiveRates, ResetCountersOfflineCpusAndAStoppedClockGiveNoBogusRates) {
    // The router rebooted (uptime went back): no rates at all.
    EXPECT_FALSE(computeRates(sample(500.0, kStat1), sample(3.0, kStat0)));
    EXPECT_FALSE(computeRates(sample(5.0, kStat0), sample(5.0, kStat1)));
    // cpu1 went offline, and an IRQ counter went backwards (a re-registered IRQ).
    const std::string a = "           CPU0       CPU1\n 45:  900 0 GICv3 1 Level eth0\n";
    const std::string b = "           CPU0\n 45:  100 GICv3 1 Level eth0\n";
    const auto r = computeRates(sample(1.0, kStat0, a), sample(2.0,
                                                               "cpu  0 0 0 0 0 0 0 0 0 0\n"
                                                               "cpu0 100 0 100 900 0 0 0 0 0 0\n",
                                                               b));
    ASSERT_TRUE(r);
    ASSERT_EQ(r->cores.size(), 1u);
    EXPECT_EQ(r->cores[0].cpu, 0);
    EXPECT_FALSE(r->irq(45));
    EXPECT_EQ(r->resets, 1);
}

TEST(LiveSample, BadUptimeOrStatIsAnErrorNamingTheFile) {
    Diagnostics d;
    EXPECT_FALSE(parseSample({"abc\n", kStat0, {}, {}, {}}, d));
    ASSERT_FALSE(d.entries().empty());
    EXPECT_NE(d.entries().front().toString().find("proc/uptime"), std::string::npos);
    Diagnostics d2;
    EXPECT_FALSE(parseSample({"1.0 2.0\n", "intr 1 2 3\n", {}, {}, {}}, d2));
    ASSERT_FALSE(d2.entries().empty());
    EXPECT_NE(d2.entries().front().toString().find("proc/stat"), std::string::npos);
}

TEST(SampleDecoder, RefusesWhatTheSamplerDoesNotPrint) {
    const std::vector<std::string> bad = {
        "+s:cpu0\tcpu0 1 2 3\n",                    // data outside a tick
        "T 1.0\nT 2.0\n",                           // a tick inside a tick
        "T 1.0\n=s:cpu0\t1:5\n",                    // an update of an unknown line
        "T 1.0\n+s:cpu0\tcpu0 1 2\n=s:cpu0\t9:5\n", // a field that does not exist
        "T 1.0\n+x:cpu0\tcpu0 1\n",                 // an unknown source
        "T 1.0\n?what\n",                           // an unknown record
        "T 1.0\n" + std::string(70000, 'a') + "\n", // too long
    };
    for (const auto& b : bad) {
        SampleDecoder dec;
        std::vector<SampleTexts> ticks;
        std::string error;
        EXPECT_FALSE(dec.feed(b, ticks, &error)) << b.substr(0, 60);
        EXPECT_NE(error.find("sampler line"), std::string::npos) << error;
    }
}

namespace {

// Where a program is installed here.
std::string which(const std::string& name) {
    for (const char* d : {"/usr/bin", "/bin", "/usr/sbin", "/sbin", "/usr/local/bin"})
        if (::access((std::string(d) + "/" + name).c_str(), X_OK) == 0)
            return std::string(d) + "/" + name;
    return name;
}

// The sampler command run with this machine's /bin/sh through pipes, with a PATH that holds
// only `awkBinary`: as `mawk` when it is mawk (the command prefers it), else as `awk`.
class AwkProcess {
public:
    AwkProcess(const std::string& awkBinary, const std::string& root, const fs::path& bin) {
        fs::remove_all(bin);
        fs::create_directories(bin);
        const bool mawk = awkBinary.find("mawk") != std::string::npos;
        const auto shim = bin / (mawk ? "mawk" : "awk");
        std::ofstream(shim) << "#!/bin/sh\nexec " << awkBinary << " \"$@\"\n";
        fs::permissions(shim, fs::perms::owner_all);
        int in[2], out[2];
        EXPECT_EQ(::pipe(in), 0);
        EXPECT_EQ(::pipe(out), 0);
        const std::string cmd = makeSamplerCommand(root);
        const std::string path = bin.string();
        m_pid = ::fork();
        if (m_pid == 0) {
            ::dup2(in[0], 0);
            ::dup2(out[1], 1);
            ::close(in[1]);
            ::close(out[0]);
            ::setenv("PATH", path.c_str(), 1);
            ::execl("/bin/sh", "sh", "-c", cmd.c_str(), static_cast<char*>(nullptr));
            ::_exit(127);
        }
        ::close(in[0]);
        ::close(out[1]);
        m_in = in[1];
        m_out = out[0];
    }
    ~AwkProcess() {
        ::close(m_in);
        ::close(m_out);
        int st = 0;
        ::waitpid(m_pid, &st, 0);
    }
    // One tick: writes a line, reads until the decoder has the tick.
    std::optional<SampleTexts> tick(std::string* error) {
        if (::write(m_in, "\n", 1) != 1)
            return std::nullopt;
        std::vector<SampleTexts> ticks;
        char buf[65536];
        m_raw.clear();
        while (ticks.empty()) {
            pollfd p{m_out, POLLIN, 0};
            if (::poll(&p, 1, 5000) <= 0) {
                *error = "no answer";
                return std::nullopt;
            }
            const auto n = ::read(m_out, buf, sizeof buf);
            if (n <= 0) {
                *error = "the sampler ended";
                return std::nullopt;
            }
            m_raw.append(buf, static_cast<std::size_t>(n));
            if (!m_dec.feed(std::string_view(buf, static_cast<std::size_t>(n)), ticks, error))
                return std::nullopt;
        }
        return ticks.back();
    }
    std::uint64_t bytes() const { return m_dec.bytes(); }
    // What the awk printed for the last tick.
    const std::string& raw() const { return m_raw; }

private:
    pid_t m_pid = -1;
    int m_in = -1, m_out = -1;
    SampleDecoder m_dec;
    std::string m_raw;
};

std::string bump(const std::string& text, const std::string& prefix, int field, std::uint64_t add) {
    // Adds `add` to whitespace field `field` (0-based) of the first line starting with prefix.
    std::istringstream in(text);
    std::string line, out;
    bool done = false;
    while (std::getline(in, line)) {
        std::string t = line.substr(
            line.find_first_not_of(' ') == std::string::npos ? 0 : line.find_first_not_of(' '));
        if (!done && t.rfind(prefix, 0) == 0) {
            std::istringstream f(line);
            std::vector<std::string> w;
            std::string x;
            while (f >> x)
                w.push_back(x);
            w[static_cast<std::size_t>(field)] =
                std::to_string(std::stoull(w[static_cast<std::size_t>(field)]) + add);
            line.clear();
            for (const auto& s : w)
                line += (line.empty() ? "" : " ") + s;
            done = true;
        }
        out += line + "\n";
    }
    return out;
}

} // namespace

class SamplerAwk : public ::testing::TestWithParam<std::string> {};

// The awk on a copy of the R6S fixture: each tick's rebuilt files parse to the same sample as
// the files read directly, and the second tick carries only what changed.
TEST_P(SamplerAwk, RebuildsTheFilesAndSendsOnlyChanges) {
    const auto dir = fs::path(CORESTEER_TEST_TMP) / "sampler" / GetParam();
    const auto root = dir / "root";
    fs::remove_all(dir);
    fs::create_directories(root);
    fs::copy(test::boardsDir() / "nanopi-r6s-friendlywrt" / "proc", root / "proc",
             fs::copy_options::recursive | fs::copy_options::copy_symlinks);
    std::ofstream(root / "proc/uptime") << "1000.00 7000.00\n";
    const std::string awk = GetParam() == "busybox" ? which("busybox") + " awk" : which(GetParam());
    AwkProcess p(awk, root.string(), dir / "bin");
    auto local = localSampleSource(root.string());

    auto check = [&](const SampleTexts& t) {
        Diagnostics d1, d2;
        std::string error;
        const auto viaAwk = parseSample(t, d1);
        const auto direct = local->next(&error);
        ASSERT_TRUE(viaAwk) << (d1.entries().empty() ? "" : d1.entries().front().toString()) << "\n"
                            << t.uptime << t.stat.substr(0, 300);
        ASSERT_TRUE(direct) << error;
        EXPECT_DOUBLE_EQ(viaAwk->uptime, direct->uptime);
        ASSERT_EQ(viaAwk->stat.cpus.size(), direct->stat.cpus.size());
        for (std::size_t i = 0; i < direct->stat.cpus.size(); ++i)
            EXPECT_EQ(viaAwk->stat.cpus[i], direct->stat.cpus[i]);
        ASSERT_EQ(viaAwk->interrupts.rows.size(),
                  std::count_if(direct->interrupts.rows.begin(), direct->interrupts.rows.end(),
                                [](const IrqRow& r) { return r.irq.has_value(); }));
        for (const auto& row : viaAwk->interrupts.rows) {
            const auto* o = direct->interrupts.findIrq(*row.irq);
            ASSERT_TRUE(o);
            EXPECT_EQ(row.counts, o->counts) << *row.irq;
        }
        ASSERT_TRUE(viaAwk->softirqs.find("NET_RX"));
        EXPECT_EQ(viaAwk->softirqs.find("NET_RX")->counts, direct->softirqs.find("NET_RX")->counts);
        ASSERT_EQ(viaAwk->netdev.size(), direct->netdev.size());
        for (std::size_t i = 0; i < direct->netdev.size(); ++i)
            EXPECT_EQ(viaAwk->netdev[i].values, direct->netdev[i].values);
    };

    // A recording encodes the files it reads here into records that rebuild the same files as
    // the awk's (it sends changed fields, the awk changed lines).
    SampleEncoder encoder;
    SampleDecoder recorded;
    auto sameAsRecorded = [&](const SampleTexts& viaAwk) {
        std::vector<SampleTexts> ticks;
        std::string why;
        ASSERT_TRUE(recorded.feed(encoder.encode(local->lastTexts()), ticks, &why)) << why;
        ASSERT_EQ(ticks.size(), 1u);
        EXPECT_EQ(ticks[0].uptime, viaAwk.uptime);
        EXPECT_EQ(ticks[0].stat, viaAwk.stat);
        EXPECT_EQ(ticks[0].softirqs, viaAwk.softirqs);
        EXPECT_EQ(ticks[0].interrupts, viaAwk.interrupts);
        EXPECT_EQ(ticks[0].netdev, viaAwk.netdev);
    };
    // The records of the awk's last tick, without their data.
    auto records = [&] {
        std::vector<std::string> out;
        std::istringstream in(p.raw());
        for (std::string l; std::getline(in, l);)
            out.push_back(l.substr(0, l.find('\t')));
        std::sort(out.begin(), out.end());
        return out;
    };
    std::string error;
    const auto t1 = p.tick(&error);
    ASSERT_TRUE(t1) << error;
    check(*t1);
    sameAsRecorded(*t1);
    const auto firstBytes = p.bytes();

    // One second later: some counters moved, an IRQ went away.
    std::ofstream(root / "proc/uptime") << "1001.00 7007.00\n";
    // (Each file is read before its stream opens: opening truncates it.)
    const auto stat = bump(bump(slurp(root / "proc/stat"), "cpu2 ", 7, 90), "cpu2 ", 4, 10);
    std::ofstream(root / "proc/stat") << stat;
    const auto firstIrqs = slurp(root / "proc/interrupts");
    auto irqs = bump(firstIrqs, "141:", 3, 5000);
    irqs.erase(irqs.find(" 64:"), irqs.find('\n', irqs.find(" 64:")) - irqs.find(" 64:") + 1);
    std::ofstream(root / "proc/interrupts") << irqs;
    const auto dev = bump(slurp(root / "proc/net/dev"), "eth1:", 1, 1250000);
    std::ofstream(root / "proc/net/dev") << dev;
    const auto t2 = p.tick(&error);
    ASSERT_TRUE(t2) << error;
    check(*t2);
    sameAsRecorded(*t2);
    const auto secondBytes = p.bytes() - firstBytes;
    std::printf(
        "%s: first tick %llu bytes, a tick with 3 changed lines and an IRQ gone %llu bytes\n",
        GetParam().c_str(), static_cast<unsigned long long>(firstBytes),
        static_cast<unsigned long long>(secondBytes));
    // The three lines that changed, and the IRQ that went; nothing else.
    EXPECT_EQ(records(), (std::vector<std::string>{"+i:141:", "+n:eth1", "+s:cpu2", "-i:64:", "E",
                                                   "T 1001.00"}));
    EXPECT_LT(secondBytes * 10, firstBytes);

    Diagnostics d;
    const auto a = parseSample(*t1, d);
    const auto b = parseSample(*t2, d);
    const auto r = computeRates(*a, *b);
    ASSERT_TRUE(r);
    EXPECT_NEAR(r->core(2)->busy(), 0.9, 1e-9); // 90 ticks of softirq, 10 idle
    EXPECT_NEAR(r->core(2)->softirq, 0.9, 1e-9);
    EXPECT_DOUBLE_EQ(r->irq(141)->perCpu[2], 5000.0);
    EXPECT_FALSE(r->irq(64));
    // IRQ 64 comes back, and 141's count goes back to what it was.
    std::ofstream(root / "proc/interrupts") << firstIrqs;
    const auto t3 = p.tick(&error);
    ASSERT_TRUE(t3) << error;
    check(*t3);
    sameAsRecorded(*t3);
    EXPECT_EQ(records(), (std::vector<std::string>{"+i:141:", "+i:64:", "E", "T 1001.00"}));
    // A tick where nothing changed is the header and the end only.
    const auto before = p.bytes();
    ASSERT_TRUE(p.tick(&error)) << error;
    EXPECT_EQ(p.bytes() - before, std::string("T 1001.00\nE\n").size());
    ASSERT_TRUE(local->next(&error)) << error;
    EXPECT_EQ(encoder.encode(local->lastTexts()), "T 1001.00\nE\n");
}

INSTANTIATE_TEST_SUITE_P(Awks, SamplerAwk, ::testing::Values("busybox", "mawk"));

TEST(LiveHistory, KeepsTheLastSamplesInAFixedRingWithGaps) {
    History h(3, 2, {45});
    auto rates = [](double t, double busy0, double irq45) {
        Rates r;
        r.start = t - 0.1;
        r.end = t;
        CoreLoad a;
        a.cpu = 0;
        a.softirq = busy0;
        a.idle = 1 - busy0;
        CoreLoad b;
        b.cpu = 1;
        r.cores = {a, b};
        r.irqs = {{45, {irq45, 0}, irq45}};
        return r;
    };
    h.push(rates(1.0, 0.5, 100));
    h.push(rates(2.0, 1.0, 200));
    h.pushGap(2.5);
    h.push(rates(3.0, 0.25, 300));
    ASSERT_EQ(h.size(), 3u);
    EXPECT_DOUBLE_EQ(h.time(0), 2.0); // the oldest went
    EXPECT_TRUE(h.isGap(1));
    EXPECT_FALSE(h.isGap(2));
    EXPECT_NEAR(h.core(2, 0).busy(), 0.25, 1e-4);
    EXPECT_NEAR(h.core(2, 0).share(h.core(2, 0).softirq), 0.25, 1e-4);
    EXPECT_FLOAT_EQ(h.irqRate(2, 0), 300.0f);
    const auto st = h.stats(0);
    EXPECT_NEAR(st.peak, 1.0, 1e-4);
    EXPECT_NEAR(st.mean, 0.625, 1e-4); // the gap is left out
    // An hour at 10 Hz of 256 cores fits the 200 MB the live view may use.
    History big(36000, 256);
    EXPECT_LT(big.bytes(), 200u << 20);
}

TEST(LiveBottleneck, NamesTheHotLittleCoreWhatRunsThereAndTheMove) {
    const auto snap = buildSnapshot(collectLocal(test::boardsDir() / "nanopi-r6s-friendlywrt"));
    Rates r;
    r.start = 0;
    r.end = 1;
    for (int c = 0; c < 8; ++c) {
        CoreLoad l;
        l.cpu = c;
        const double k = c == 3 ? 0.98 : c < 3 ? 0.3 : 0.05;
        l.softirq = k * 0.7;
        l.irq = k * 0.3;
        l.idle = 1 - k;
        r.cores.push_back(l);
    }
    IrqRate eth2{173, std::vector<double>(8, 0.0), 12000};
    eth2.perCpu[3] = 12000;
    r.irqs.push_back(eth2);
    const auto found = findBottlenecks(r, snap);
    ASSERT_EQ(found.size(), 1u);
    const auto& b = found.front();
    EXPECT_EQ(b.cpu, 3);
    ASSERT_FALSE(b.idleCores.empty());
    EXPECT_GE(b.idleCores.front(), 4); // a big core first
    ASSERT_FALSE(b.onIt.empty());
    EXPECT_NE(b.onIt.front().find("IRQ 173 eth2-0"), std::string::npos) << b.onIt.front();
    EXPECT_NE(std::find_if(b.onIt.begin(), b.onIt.end(),
                           [](const std::string& s) { return s.find("rx-0 RPS") != s.npos; }),
              b.onIt.end());
    EXPECT_NE(b.suggestion.find("move IRQ 173"), std::string::npos) << b.suggestion;

    // A hot big core whose only idle peers are LITTLE ones is not a layout problem.
    for (auto& l : r.cores) {
        const double k = l.cpu >= 4 ? 0.97 : 0.1;
        l.softirq = k;
        l.irq = 0;
        l.idle = 1 - k;
    }
    EXPECT_TRUE(findBottlenecks(r, snap).empty());
}

TEST(Latency, GradesTheIncreaseUnderLoadLikeTheCommonTests) {
    EXPECT_STREQ(bufferbloatGrade(0), "A+");
    EXPECT_STREQ(bufferbloatGrade(4.9), "A+");
    EXPECT_STREQ(bufferbloatGrade(5), "A");
    EXPECT_STREQ(bufferbloatGrade(29.9), "A");
    EXPECT_STREQ(bufferbloatGrade(30), "B");
    EXPECT_STREQ(bufferbloatGrade(60), "C");
    EXPECT_STREQ(bufferbloatGrade(199), "C");
    EXPECT_STREQ(bufferbloatGrade(200), "D");
    EXPECT_STREQ(bufferbloatGrade(400), "F");
    const auto g =
        gradeLatency({10.0, 11.0, 12.0, std::nullopt}, {50.0, 80.0, std::nullopt, 70.0, 60.0});
    ASSERT_TRUE(g);
    EXPECT_DOUBLE_EQ(g->idleMs, 11.0);
    EXPECT_DOUBLE_EQ(g->loadedMs, 65.0);
    EXPECT_DOUBLE_EQ(g->increaseMs, 54.0);
    EXPECT_EQ(g->grade, "B");
    EXPECT_EQ(g->lost, 1);
    EXPECT_FALSE(gradeLatency({}, {1.0}));
}

TEST(Latency, TcpConnectTimeToALoopbackListenerAndARefusal) {
    test::LoopbackListener l;
    ASSERT_GT(l.port, 0);
    std::string error;
    const auto ms = tcpConnectMs("127.0.0.1", l.port, 1000, &error);
    ASSERT_TRUE(ms) << error;
    EXPECT_GE(*ms, 0.0);
    EXPECT_LT(*ms, 1000.0);
    l.close();
    // Nothing listens there now: refused, with a message naming the address.
    EXPECT_FALSE(tcpConnectMs("127.0.0.1", l.port, 1000, &error));
    EXPECT_NE(error.find("127.0.0.1:" + std::to_string(l.port)), std::string::npos) << error;
}

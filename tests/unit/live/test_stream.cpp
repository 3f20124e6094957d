// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The sampler's stream: the awk that runs on the router (BusyBox awk and mawk here, on a copy
// of a board's /proc) and the decoder that rebuilds its files (core/live/stream.h).
#include "core/collect/collect_local.h"
#include "core/live/bottleneck.h"
#include "core/live/history.h"
#include "core/live/latency.h"
#include "core/live/sample.h"
#include "core/live/source.h"
#include "core/live/stream.h"
#include "tests/support/board_expect.h"
#include "tests/support/piped_process.h"
#include "tests/unit/live/live_samples.h"

#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <cmath>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace coresteer;
using namespace coresteer::live;
namespace fs = std::filesystem;
using coresteer::test::slurp;
using namespace coresteer::test;

TEST(SampleDecoder, RefusesWhatTheSamplerDoesNotPrint) {
    const std::vector<std::string> bad = {
        "+s:cpu0\tcpu0 1 2 3\n",                    // data outside a tick
        "T 1.0\nT 2.0\n",                           // a tick inside a tick
        "T 1.0\n=s:cpu0\t1:5\n",                    // an update of an unknown line
        "T 1.0\n+s:cpu0\tcpu0 1 2\n=s:cpu0\t9:5\n", // a field that does not exist
        "T 1.0\n+x:cpu0\tcpu0 1\n",                 // an unknown source
        "T 1.0\n?what\n",                           // an unknown record
        "T 1.0\n" + std::string(70000, 'a') + "\n", // too long
        "Fs 2\nx\n",                                // a file outside a tick
        "T 1.0\nFx 2\nx\n",                         // an unknown source
        "T 1.0\nFs two\nx\n",                       // a size that is not one
        "T 1.0\nFs 99999999999\n",                  // a file larger than any /proc file
        "T 1.0\nFs 3\nabc",                         // a file that is not whole lines
        "T 1.0\nFs\n",                              // no size
        "T 1.0 x\nE\n",                             // a tick of an unknown kind
        "T 1.0 s s\nE\n",                           // ... or of two
        "T -\nE\n",                                 // a whole tick without its uptime
        "T - x\nE\n",                               // ... or an unknown one
    };
    for (const auto& b : bad) {
        SampleDecoder dec;
        std::vector<SampleTexts> ticks;
        std::string error;
        EXPECT_FALSE(dec.feed(b, ticks, &error)) << b.substr(0, 60);
        EXPECT_NE(error.find("sampler line"), std::string::npos) << error;
    }
}

// A file sent whole may arrive in any pieces: split at every byte, the decoder gives the same
// tick, and the file replaces what came before of its source.
TEST(SampleDecoder, FilesWholeInAnyPieces) {
    const std::string stat = "cpu  1 2 3 4\ncpu0 1 2 3 4\n";
    const std::string dev = "Inter-|\n face |\n  eth0: 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\n";
    const std::string first = "T 5.00\n+s:cpu0\tcpu0 9 9 9 9\nE\n";
    const std::string second = "T 6.00\nFs " + std::to_string(stat.size()) + "\n" + stat + "Fn " +
                               std::to_string(dev.size()) + "\n" + dev + "E\n";
    for (std::size_t cut = 0; cut <= second.size(); ++cut) {
        SampleDecoder dec;
        std::vector<SampleTexts> ticks;
        std::string error;
        ASSERT_TRUE(dec.feed(first, ticks, &error)) << error;
        ASSERT_TRUE(dec.feed(std::string_view(second).substr(0, cut), ticks, &error)) << error;
        ASSERT_TRUE(dec.feed(std::string_view(second).substr(cut), ticks, &error)) << error;
        ASSERT_EQ(ticks.size(), 2u) << cut;
        EXPECT_EQ(ticks[1].uptime, "6.00\n");
        EXPECT_EQ(ticks[1].stat, stat); // the file, not the line of the first tick
        EXPECT_EQ(ticks[1].netdev, dev);
        EXPECT_EQ(dec.bytes(), first.size() + second.size());
    }
    // A line after a file: the next error names the stream's line, counting the file's lines.
    SampleDecoder dec;
    std::vector<SampleTexts> ticks;
    std::string error;
    EXPECT_FALSE(dec.feed(second.substr(0, second.size() - 2) + "?\n", ticks, &error));
    EXPECT_NE(error.find("sampler line 9: unknown record"), std::string::npos) << error;
}

// Ticks of /proc/stat alone ("T <uptime> s", or "T - s" undated): the other files stay as the last
// whole tick left them, whose uptime each such tick carries ("?" before any), across the decoder's
// state; the encoder writes such a tick the same way from texts that say so.
TEST(SampleDecoder, TicksOfStatAloneKeepTheOtherFilesAndSayWhenTheyWereRead) {
    const std::string whole =
        "T 5.00\n+s:cpu0\tcpu0 1 1 1 1\n+i:H\tCPU0\n+i:45:\t45: 7 GICv3 eth0\nE\n";
    const std::string statOnly = "T 5.10 s\n+s:cpu0\tcpu0 2 1 1 1\nE\n";
    SampleDecoder dec;
    std::vector<SampleTexts> ticks;
    // One tick at a time, as they are asked for.
    auto feed = [&](SampleDecoder& d, const std::string& text) {
        std::vector<SampleTexts> now;
        std::string error;
        EXPECT_TRUE(d.feed(text, now, &error)) << error;
        ticks.insert(ticks.end(), now.begin(), now.end());
    };
    feed(dec, "T 4.90 s\nE\n");
    feed(dec, whole);
    feed(dec, statOnly);
    ASSERT_EQ(ticks.size(), 3u);
    EXPECT_EQ(ticks[0].countersUptime, "?");
    EXPECT_EQ(ticks[1].countersUptime, "");
    EXPECT_EQ(ticks[2].uptime, "5.10\n");
    EXPECT_EQ(ticks[2].countersUptime, "5.00");
    EXPECT_EQ(ticks[2].stat, "cpu0 2 1 1 1\n");
    EXPECT_EQ(ticks[2].interrupts, ticks[1].interrupts);
    EXPECT_TRUE(dec.statOnly());
    SampleDecoder again(dec.state());
    feed(again, "T 5.20 s\nE\n");
    feed(again, "T 5.30\nE\n");
    // As the router's sampler sends such a tick: without its uptime ("-", dated by the client).
    feed(again, "T - s\n+s:cpu0\tcpu0 3 1 1 1\nE\n");
    ASSERT_EQ(ticks.size(), 6u);
    EXPECT_EQ(ticks[3].countersUptime, "5.00");
    EXPECT_EQ(ticks[4].countersUptime, "");
    EXPECT_EQ(ticks[5].uptime, "-\n");
    EXPECT_EQ(again.uptime(), kNoUptime);
    EXPECT_EQ(ticks[5].countersUptime, "5.30");
    EXPECT_EQ(ticks[5].stat, "cpu0 3 1 1 1\n");
    {
        Diagnostics undated; // an undated tick is no sample: a recording never holds one
        EXPECT_FALSE(parseSample(ticks[5], undated));
        ASSERT_FALSE(undated.entries().empty());
        EXPECT_NE(undated.entries().front().toString().find("proc/uptime"), std::string::npos);
    }
    Diagnostics d;
    const auto parsed = parseSample(ticks[2], d);
    ASSERT_TRUE(parsed);
    EXPECT_DOUBLE_EQ(parsed->countersUptime, 5.0);
    EXPECT_DOUBLE_EQ(parsed->countersAt(), 5.0);

    // Encoded again: the same records, and the other files' lines are not taken for gone.
    SampleEncoder enc;
    EXPECT_EQ(enc.encode(ticks[1]), whole);
    auto t = ticks[2];
    t.interrupts.clear(); // what a tick of stat alone did not read is not looked at
    EXPECT_EQ(enc.encode(t), "T 5.10 s\n=s:cpu0\t2:2\nE\n");
    EXPECT_EQ(enc.encode(ticks[4]), "T 5.30\nE\n");

    // A hostile router's uptimes: the tick decodes, and its sample is refused naming the file,
    // with the bytes shown printable; the time its counters were read is no time at all.
    SampleDecoder hostile;
    ticks.clear();
    feed(hostile, "T $(reboot)\xe2\x80\xa8\nE\n");
    feed(hostile, "T 5.10\xff s\nE\n");
    ASSERT_EQ(ticks.size(), 2u);
    for (const auto& h : ticks) {
        Diagnostics bad;
        EXPECT_FALSE(parseSample(h, bad));
        ASSERT_FALSE(bad.entries().empty());
        const auto message = bad.entries().front().toString();
        EXPECT_NE(message.find("proc/uptime"), std::string::npos) << message;
        EXPECT_EQ(message.find('\xff'), std::string::npos) << message;
        EXPECT_EQ(message.find("\xe2\x80\xa8"), std::string::npos) << message;
    }
    EXPECT_TRUE(std::isnan(parseCountersUptime(ticks[1].countersUptime)));
}

// A router that starts a tick and never ends it: the decoder takes at most kMaxTickBytes of it,
// whether it sends new lines (which the files kept reach first), the same line again, or whole
// files again, and then stops with an error that names the cap.
TEST(SampleDecoder, CapsTheBytesOfOneTick) {
    constexpr auto cap = SampleDecoder::kMaxTickBytes;
    std::string fields;
    for (int i = 0; i < 8; ++i)
        fields += " " + std::string(1000, static_cast<char>('0' + i));
    const std::string file = "cpu " + fields + "\n";
    const std::vector<std::pair<const char*, std::function<std::string(std::uint64_t)>>> streams = {
        {"new lines",
         [&](std::uint64_t n) { return "+i:" + std::to_string(n) + "\t" + fields + "\n"; }},
        {"one line again", [&](std::uint64_t) { return "+i:1\t" + fields + "\n"; }},
        {"whole files again",
         [&](std::uint64_t) { return "Fs " + std::to_string(file.size()) + "\n" + file; }}};
    for (const auto& [what, record] : streams) {
        SampleDecoder dec;
        std::vector<SampleTexts> ticks;
        std::string error;
        ASSERT_TRUE(dec.feed("T 1.00\n", ticks, &error)) << error;
        std::uint64_t fed = 0, n = 0;
        bool ok = true;
        while (ok && fed <= 4 * cap) {
            std::string piece;
            while (piece.size() < 65536)
                piece += record(n++);
            fed += piece.size();
            ok = dec.feed(piece, ticks, &error);
        }
        EXPECT_FALSE(ok) << what;
        EXPECT_LE(fed, cap + 2 * 65536) << what;
        EXPECT_TRUE(ticks.empty()) << what;
        EXPECT_NE(error.find("more than 16 MiB, the cap on one tick"), std::string::npos)
            << what << ": " << error;
        EXPECT_TRUE(dec.overflowed()) << what;
    }
}

// Ticks that each end, but each adds lines under new keys: the files the decoder keeps for the
// next tick are held to the same cap.
TEST(SampleDecoder, CapsTheFilesItKeeps) {
    constexpr auto cap = SampleDecoder::kMaxTickBytes;
    const std::string fields = " " + std::string(4000, '5') + " " + std::string(4000, '6');
    SampleDecoder dec;
    std::string error;
    std::uint64_t fed = 0, n = 0;
    bool ok = true;
    for (int tick = 0; ok && fed <= 4 * cap; ++tick) {
        std::string piece = "T " + std::to_string(tick) + ".00\n";
        for (; piece.size() < (512u << 10); ++n)
            piece += "+i:" + std::to_string(n) + "\t" + std::to_string(n) + ":" + fields + "\n";
        piece += "E\n";
        fed += piece.size();
        std::vector<SampleTexts> ticks;
        ok = dec.feed(piece, ticks, &error);
    }
    EXPECT_FALSE(ok);
    EXPECT_LE(fed, cap + (1u << 20));
    EXPECT_NE(error.find("16 MiB"), std::string::npos) << error;
}

// The client asks for one tick at a time: a router that sends many more without being asked is
// stopped after kMaxPendingTicks, each of which holds a copy of the files.
TEST(SampleDecoder, CapsTheTicksPending) {
    const std::string tick = "T 1.00\n+s:cpu\tcpu 1 2 3 4\nE\n";
    std::string many;
    for (std::size_t i = 0; i < SampleDecoder::kMaxPendingTicks; ++i)
        many += tick;
    SampleDecoder dec;
    std::vector<SampleTexts> ticks;
    std::string error;
    ASSERT_TRUE(dec.feed(many, ticks, &error)) << error;
    EXPECT_EQ(ticks.size(), SampleDecoder::kMaxPendingTicks);
    ticks.clear(); // taken, as a source takes them
    std::string endless;
    for (int i = 0; i < 10000; ++i)
        endless += tick;
    EXPECT_FALSE(dec.feed(endless, ticks, &error));
    EXPECT_EQ(ticks.size(), SampleDecoder::kMaxPendingTicks);
    EXPECT_NE(error.find("more than " + std::to_string(SampleDecoder::kMaxPendingTicks) + " ticks"),
              std::string::npos)
        << error;
}

// The cap leaves room for the largest router the collection spec reckons with: 256 CPUs and
// 4096 IRQs make a /proc/interrupts of about 12 MB, all of it in the first tick.
TEST(SampleDecoder, TakesTheLargestFirstTickARouterSends) {
    std::string interrupts = "      ";
    for (int c = 0; c < 256; ++c)
        interrupts += "  CPU" + std::to_string(c) + std::string(c < 10 ? 5 : c < 100 ? 4 : 3, ' ');
    interrupts += "\n";
    for (int irq = 0; irq < 4096; ++irq) {
        char head[16];
        std::snprintf(head, sizeof head, "%4d:", irq);
        interrupts += head;
        for (int c = 0; c < 256; ++c) {
            char count[16];
            std::snprintf(count, sizeof count, " %10d", irq * 7 + c);
            interrupts += count;
        }
        interrupts += "  GICv3 " + std::to_string(irq + 32) + " Level     eth0-rx-" +
                      std::to_string(irq) + "\n";
    }
    std::string stat = "cpu  1 2 3 4 5 6 7 8 9 10\n";
    for (int c = 0; c < 256; ++c)
        stat += "cpu" + std::to_string(c) + " 1 2 3 4 5 6 7 8 9 10\n";
    ASSERT_GT(interrupts.size(), 11u << 20);
    SampleEncoder enc;
    const auto records = enc.encode({"1.00 2.00\n", stat, {}, interrupts, {}});
    ASSERT_LT(records.size(), SampleDecoder::kMaxTickBytes);
    SampleDecoder dec;
    std::vector<SampleTexts> ticks;
    std::string error;
    ASSERT_TRUE(dec.feed(records, ticks, &error)) << error;
    ASSERT_EQ(ticks.size(), 1u);
    EXPECT_EQ(std::count(ticks[0].interrupts.begin(), ticks[0].interrupts.end(), '\n'), 4097);
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
    AwkProcess(const std::string& awkBinary, const std::string& root, const fs::path& bin,
               std::size_t wholeMax = kSamplerWholeMax) {
        fs::remove_all(bin);
        fs::create_directories(bin);
        const bool mawk = awkBinary.find("mawk") != std::string::npos;
        const auto shim = bin / (mawk ? "mawk" : "awk");
        std::ofstream(shim) << "#!/bin/sh\nexec " << awkBinary << " \"$@\"\n";
        fs::permissions(shim, fs::perms::owner_all);
        m_proc.emplace(makeSamplerCommand(root, wholeMax), bin.string());
        EXPECT_TRUE(m_proc->started());
    }
    // One tick: writes a tick line ("s": /proc/stat alone), reads until the decoder has it.
    std::optional<SampleTexts> tick(std::string* error, const std::string& line = "") {
        if (!m_proc->write(line + "\n"))
            return std::nullopt;
        std::vector<SampleTexts> ticks;
        m_raw.clear();
        while (ticks.empty()) {
            const auto got = m_proc->read(5000);
            if (!got) {
                *error = "no answer";
                return std::nullopt;
            }
            if (got->empty()) {
                *error = "the sampler ended";
                return std::nullopt;
            }
            m_raw += *got;
            if (!m_dec.feed(*got, ticks, error))
                return std::nullopt;
        }
        return ticks.back();
    }
    std::uint64_t bytes() const { return m_dec.bytes(); }
    // What the awk printed for the last tick.
    const std::string& raw() const { return m_raw; }

private:
    std::optional<PipedProcess> m_proc;
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

// How the sampler runs: under which awk, and up to which size a file goes whole.
struct AwkCase {
    std::string name;
    std::size_t wholeMax;
};

class SamplerAwk : public ::testing::TestWithParam<AwkCase> {};

// The counts of the numbered IRQs of a parsed /proc/interrupts, by IRQ.
std::map<std::uint32_t, IrqCounts> numbered(const Sample& s) {
    std::map<std::uint32_t, IrqCounts> out;
    for (const auto& r : s.interrupts.rows)
        if (r.irq)
            out[*r.irq] = r.counts;
    return out;
}

// Both samples hold the same counters of everything the views use.
void expectSameCounters(const Sample& a, const Sample& b) {
    EXPECT_DOUBLE_EQ(a.uptime, b.uptime);
    ASSERT_EQ(a.stat.cpus.size(), b.stat.cpus.size());
    for (std::size_t i = 0; i < b.stat.cpus.size(); ++i)
        EXPECT_EQ(a.stat.cpus[i], b.stat.cpus[i]);
    EXPECT_EQ(numbered(a), numbered(b));
    for (const char* name : {"NET_RX", "NET_TX"}) {
        ASSERT_TRUE(a.softirqs.find(name));
        ASSERT_TRUE(b.softirqs.find(name));
        EXPECT_EQ(a.softirqs.find(name)->counts, b.softirqs.find(name)->counts);
    }
    ASSERT_EQ(a.netdev.size(), b.netdev.size());
    for (std::size_t i = 0; i < b.netdev.size(); ++i)
        EXPECT_EQ(a.netdev[i].values, b.netdev[i].values);
}

// /proc/stat up to its intr line, as the sampler cuts it.
std::string statCut(const std::string& text) {
    return text.substr(0, text.find("\nintr") + 1);
}

// /proc/interrupts up to its architecture's rows (the first row after the header whose label
// is not a number), as the sampler cuts it.
std::string interruptsCut(const std::string& text) {
    for (auto at = text.find('\n'); at != std::string::npos && at + 1 < text.size();
         at = text.find('\n', at + 1)) {
        const auto label = text.find_first_not_of(' ', at + 1);
        if (label != std::string::npos && (text[label] < '0' || text[label] > '9'))
            return text.substr(0, at + 1);
    }
    return text;
}

// The file up to and including the line holding `mark`, or all of it.
std::string upToLineWith(const std::string& text, const std::string& mark) {
    const auto at = text.find(mark);
    return at == std::string::npos ? text : text.substr(0, text.find('\n', at) + 1);
}

// The awk on a copy of the R6S fixture: each tick's files parse to the same sample as the files
// read directly, each tick carries only what changed, and a recording of the same files replays
// to the same counters.
TEST_P(SamplerAwk, RebuildsTheFilesAndSendsOnlyChanges) {
    const auto& c = GetParam();
    const bool mawk = c.name == "mawk";
    // mawk sends every file by its lines; BusyBox awk each file up to wholeMax whole.
    auto whole = [&](const std::string& text) { return !mawk && text.size() <= c.wholeMax; };
    const auto dir = fs::path(CORESTEER_TEST_TMP) / "sampler" / c.name;
    const auto root = dir / "root";
    fs::remove_all(dir);
    fs::create_directories(root);
    fs::copy(test::boardDir("nanopi-r6s-friendlywrt") / "proc", root / "proc",
             fs::copy_options::recursive | fs::copy_options::copy_symlinks);
    std::ofstream(root / "proc/uptime") << "1000.00 7000.00\n";
    const auto statText = slurp(root / "proc/stat");
    const bool statWhole = whole(statCut(statText));
    const bool softWhole = whole(upToLineWith(slurp(root / "proc/softirqs"), "NET_RX:"));
    const bool irqsWhole = whole(interruptsCut(slurp(root / "proc/interrupts")));
    const bool devWhole = whole(slurp(root / "proc/net/dev"));
    const std::string awk = mawk ? which("mawk") : which("busybox") + " awk";
    AwkProcess p(awk, root.string(), dir / "bin", c.wholeMax);
    auto local = localSampleSource(root.string());

    auto check = [&](const SampleTexts& t) {
        Diagnostics d1;
        std::string error;
        const auto viaAwk = parseSample(t, d1);
        const auto direct = local->next(&error);
        ASSERT_TRUE(viaAwk) << (d1.entries().empty() ? "" : d1.entries().front().toString()) << "\n"
                            << t.uptime << t.stat.substr(0, 300);
        ASSERT_TRUE(direct) << error;
        expectSameCounters(*viaAwk, *direct);
        // A file sent whole is the file itself, cut where the views stop reading.
        const auto& files = local->lastTexts();
        if (statWhole) {
            EXPECT_EQ(t.stat, statCut(files.stat));
        }
        if (softWhole) {
            EXPECT_EQ(t.softirqs, upToLineWith(files.softirqs, "NET_RX:"));
        }
        if (irqsWhole) {
            EXPECT_EQ(t.interrupts, interruptsCut(files.interrupts));
            EXPECT_LT(t.interrupts.size(), files.interrupts.size());
        }
        if (devWhole) {
            EXPECT_EQ(t.netdev, files.netdev);
        }
    };

    // A recording encodes the files it reads here into records (the fields that changed) that
    // replay to the same counters as the awk's.
    SampleEncoder encoder;
    SampleDecoder recorded;
    auto sameAsRecorded = [&](const SampleTexts& viaAwk) {
        std::vector<SampleTexts> ticks;
        std::string why;
        ASSERT_TRUE(recorded.feed(encoder.encode(local->lastTexts()), ticks, &why)) << why;
        ASSERT_EQ(ticks.size(), 1u);
        Diagnostics d;
        const auto a = parseSample(ticks[0], d), b = parseSample(viaAwk, d);
        ASSERT_TRUE(a && b);
        expectSameCounters(*a, *b);
        if (mawk || c.wholeMax == 0) { // the same lines under the same keys
            EXPECT_EQ(ticks[0].stat, viaAwk.stat);
            EXPECT_EQ(ticks[0].softirqs, viaAwk.softirqs);
            EXPECT_EQ(ticks[0].interrupts, viaAwk.interrupts);
            EXPECT_EQ(ticks[0].netdev, viaAwk.netdev);
        }
    };
    // The records of the awk's last tick without their data: an F record is "F" and its source.
    auto records = [&] {
        std::vector<std::string> out;
        const std::string& raw = p.raw();
        for (std::size_t at = 0; at < raw.size();) {
            const auto nl = raw.find('\n', at);
            const std::string l = raw.substr(at, nl - at);
            at = nl + 1;
            if (l[0] == 'F') {
                out.push_back(l.substr(0, 2));
                at += std::stoul(l.substr(3));
            } else {
                out.push_back(l.substr(0, l.find('\t')));
            }
        }
        std::sort(out.begin(), out.end());
        return out;
    };
    // The records a tick holds: "F" records for files sent whole, the rest by line.
    auto expected = [&](std::vector<std::string> byLine, std::vector<std::string> byFile,
                        const std::string& header = "T 1001.00") {
        byLine.insert(byLine.end(), byFile.begin(), byFile.end());
        byLine.push_back("E");
        byLine.push_back(header);
        std::sort(byLine.begin(), byLine.end());
        return byLine;
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
    std::printf("%s: first tick %llu bytes, a tick with 3 changed lines and an IRQ gone %llu "
                "bytes\n",
                c.name.c_str(), static_cast<unsigned long long>(firstBytes),
                static_cast<unsigned long long>(secondBytes));
    // The three files that changed, whole or by the lines that changed, and the IRQ that went.
    std::vector<std::string> byLine, byFile;
    (statWhole ? byFile : byLine).push_back(statWhole ? "Fs" : "+s:cpu2");
    if (irqsWhole) {
        byFile.push_back("Fi");
    } else {
        byLine.push_back("+i:141:");
        byLine.push_back("-i:64:");
    }
    (devWhole ? byFile : byLine).push_back(devWhole ? "Fn" : "+n:eth1");
    EXPECT_EQ(records(), expected(byLine, byFile));
    if (!irqsWhole && !statWhole && !devWhole) {
        EXPECT_LT(secondBytes * 10, firstBytes);
    }

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
    EXPECT_EQ(records(), irqsWhole ? expected({}, {"Fi"}) : expected({"+i:141:", "+i:64:"}, {}));
    // A tick where nothing changed is the header and the end only.
    const auto before = p.bytes();
    ASSERT_TRUE(p.tick(&error)) << error;
    EXPECT_EQ(p.bytes() - before, std::string("T 1001.00\nE\n").size());
    ASSERT_TRUE(local->next(&error)) << error;
    EXPECT_EQ(encoder.encode(local->lastTexts()), "T 1001.00\nE\n");

    // A tick of /proc/stat alone reads nothing else: an IRQ that moved is not sent, and the
    // tick says when the counters it carries were read; the next whole tick sends it.
    std::ofstream(root / "proc/uptime") << "1001.10 7007.70\n";
    const auto stat5 = bump(slurp(root / "proc/stat"), "cpu2 ", 7, 10);
    std::ofstream(root / "proc/stat") << stat5;
    std::ofstream(root / "proc/interrupts") << irqs;
    const auto t5 = p.tick(&error, "s");
    ASSERT_TRUE(t5) << error;
    EXPECT_EQ(t5->countersUptime, "1001.00");
    EXPECT_EQ(t5->interrupts, t3->interrupts);
    // Nor the uptime: the client dates the tick (estimateUptime).
    EXPECT_EQ(t5->uptime, "-\n");
    EXPECT_EQ(records(),
              statWhole ? expected({}, {"Fs"}, "T - s") : expected({"+s:cpu2"}, {}, "T - s"));
    auto dated = *t5;
    dated.uptime = "1001.10\n";
    const auto s5 = parseSample(dated, d);
    ASSERT_TRUE(s5);
    const auto r5 = computeRates(*b, *s5, &*r);
    ASSERT_TRUE(r5);
    EXPECT_DOUBLE_EQ(r5->irq(141)->perCpu[2], 5000.0); // held: 141 went back since, unread
    std::ofstream(root / "proc/uptime") << "1001.20 7007.70\n";
    const auto t6 = p.tick(&error);
    ASSERT_TRUE(t6) << error;
    EXPECT_EQ(t6->countersUptime, "");
    check(*t6);
    EXPECT_EQ(records(), irqsWhole ? expected({}, {"Fi"}, "T 1001.20")
                                   : expected({"+i:141:", "-i:64:"}, {}, "T 1001.20"));
}

// A router whose /proc/uptime cannot be read: the tick says so (X), the sampler stays, and the
// next tick after the file is back is whole (under BusyBox awk, whose RS is the files' while it
// reads them).
TEST(SamplerAwkFiles, AnUnreadableUptimeIsSaidAndTheSamplerStays) {
    const auto dir = fs::path(CORESTEER_TEST_TMP) / "sampler" / "no-uptime";
    const auto root = dir / "root";
    fs::remove_all(dir);
    fs::create_directories(root);
    fs::copy(test::boardDir("nanopi-r6s-openwrt") / "proc", root / "proc",
             fs::copy_options::recursive | fs::copy_options::copy_symlinks);
    fs::remove(root / "proc/uptime");
    AwkProcess p(which("busybox") + " awk", root.string(), dir / "bin");
    std::string error;
    EXPECT_FALSE(p.tick(&error));
    EXPECT_NE(error.find("the router cannot read " + (root / "proc/uptime").string()),
              std::string::npos)
        << error;
    EXPECT_EQ(p.raw(), "X " + (root / "proc/uptime").string() + "\n");
    // A tick of /proc/stat alone does not read the uptime, and goes on without it.
    error.clear();
    const auto alone = p.tick(&error, "s");
    ASSERT_TRUE(alone) << error;
    EXPECT_EQ(alone->uptime, "-\n");
    std::ofstream(root / "proc/uptime") << "50.00 100.00\n";
    error.clear();
    const auto t = p.tick(&error);
    ASSERT_TRUE(t) << error;
    EXPECT_EQ(t->uptime, "50.00\n");
    Diagnostics d;
    const auto s = parseSample(*t, d);
    ASSERT_TRUE(s);
    EXPECT_EQ(s->stat.cpus.size(), 8u);
}

// BusyBox awk with files whole (the default), by lines, and each way (interrupts by lines, the
// rest whole); mawk (by lines).
INSTANTIATE_TEST_SUITE_P(
    Awks, SamplerAwk,
    ::testing::Values(AwkCase{"busybox", kSamplerWholeMax}, AwkCase{"busybox_lines", 0},
                      AwkCase{"busybox_mixed", 2000}, AwkCase{"mawk", kSamplerWholeMax}),
    [](const ::testing::TestParamInfo<AwkCase>& which) { return which.param.name; });

// End to end against the emulated router (tests/router-vm): a real kernel with real IRQs and
// multiqueue virtio-net NICs, dropbear, BusyBox, an OpenWrt-like /etc on a persistent disk.
// coresteer talks to it over SSH; every check of what happened in the guest goes through a
// separate OpenSSH command, not through coresteer. Runs inside its own network namespace
// (netns.sh), booting the router once for all tests.
#include "../unit/board_expect.h"
#include "core/base/shell.h"
#include "core/collect/collect_remote.h"
#include "core/kernel/procstat.h"
#include "core/layout/apply.h"
#include "core/layout/layout_json.h"
#include "core/live/source.h"
#include "core/model/snapshot_detail.h"
#include "core/router/router.h"
#include "core/ssh/session.h"
#ifdef CORESTEER_VM_UI
#include "ui/dialogs/applydialog.h"
#include "ui/mainwindow.h"
#include "ui/models/maskgridmodel.h"

#include <QApplication>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>
#include <QTreeWidget>
#endif

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <arpa/inet.h>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <netinet/in.h>
#include <set>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

using namespace coresteer;
namespace fs = std::filesystem;
using coresteer::test::slurp;
using Clock = std::chrono::steady_clock;

namespace {

const fs::path kState = fs::path(CORESTEER_TEST_TMP) / "router";
const std::string kRouterSh = std::string(CORESTEER_SOURCE_DIR) + "/tests/router-vm/router.sh";
std::map<std::string, std::string> g_env;
std::map<std::string, std::string> g_baseline; // every mask file of the guest after boot
std::string g_sysupgrade;                      // /etc/sysupgrade.conf after boot

std::string quote(const std::string& s) {
    return shellQuote(s);
}

// Runs `cmd` on the router through OpenSSH; stdout, and the exit status in *rc.
std::string guest(const std::string& cmd, int* rc = nullptr) {
    return test::capture(kRouterSh + " ssh " + quote(kState.string()) + " " + quote(cmd), rc);
}

// path -> value of every IRQ mask and queue mask in the guest.
std::map<std::string, std::string> guestValues() {
    std::map<std::string, std::string> m;
    const auto out =
        guest("grep -H . /proc/irq/*/smp_affinity /sys/class/net/eth*/queues/*/rps_cpus "
              "/sys/class/net/eth*/queues/*/rps_flow_cnt "
              "/sys/class/net/eth*/queues/*/xps_cpus 2>/dev/null");
    std::size_t b = 0;
    while (b < out.size()) {
        auto e = out.find('\n', b);
        if (e == std::string::npos)
            e = out.size();
        const auto line = out.substr(b, e - b);
        const auto colon = line.find(':');
        if (colon != std::string::npos)
            m[line.substr(1, colon - 1)] = line.substr(colon + 1); // without the leading '/'
        b = e + 1;
    }
    return m;
}

std::string bootId() {
    return guest("cat /proc/sys/kernel/random/boot_id");
}

// Writes the boot-time values back (managed IRQs refuse, and are left as they are).
void restoreBaseline() {
    std::string script;
    for (const auto& [path, value] : guestValues())
        if (const auto it = g_baseline.find(path); it != g_baseline.end() && it->second != value)
            script += "echo " + it->second + " > /" + path + " 2>/dev/null\n";
    if (!script.empty())
        guest(script);
}

// The paths whose value differs from the boot-time one.
std::vector<std::string> changedFromBaseline() {
    std::vector<std::string> out;
    for (const auto& [path, value] : guestValues())
        if (g_baseline.count(path) && g_baseline.at(path) != value)
            out.push_back(path + ": " + g_baseline.at(path) + " -> " + value);
    return out;
}

// coresteer-cli against the router; the exit status in *rc, stdout as the result.
std::string cli(const std::string& args, int* rc) {
    const std::string cmd = std::string(CORESTEER_CLI) + " " + args +
                            " ssh://root@127.0.0.1:" + g_env.at("CS_VM_PORT") + " --known-hosts " +
                            quote(g_env.at("CS_VM_KNOWN_HOSTS")) + " --identity " +
                            quote(g_env.at("CS_VM_KEY")) + " < /dev/null 2> " +
                            quote((kState / "cli.err").string());
    return test::capture(cmd, rc);
}

std::string cliErr() {
    return slurp(kState / "cli.err");
}

ssh::Target target() {
    ssh::Target t;
    t.host = "127.0.0.1";
    t.port = std::stoi(g_env.at("CS_VM_PORT"));
    t.user = "root";
    t.identityFile = g_env.at("CS_VM_KEY");
    t.knownHostsFile = g_env.at("CS_VM_KNOWN_HOSTS");
    t.sshDir = (kState / "sshdir").string();
    t.configFile = "none";
    return t;
}

class NoQuestions : public ssh::Prompter {
public:
    bool acceptUnknownHostKey(const std::string&, const ssh::HostKey&) override { return false; }
    std::optional<std::string> password(const std::string&) override { return std::nullopt; }
    std::optional<std::string> passphrase(const std::string&) override { return std::nullopt; }
    std::optional<std::vector<std::string>>
    keyboardInteractive(const std::string&, const std::string&,
                        const std::vector<Prompt>&) override {
        return std::nullopt;
    }
};

Snapshot routerSnapshot() {
    NoQuestions p;
    ssh::Session s(target(), p);
    EXPECT_TRUE(s.connect()) << s.error().message;
    std::string error;
    const auto b = collectRemote(s, "/", &error);
    EXPECT_TRUE(b) << error;
    return b ? buildSnapshot(*b) : Snapshot{};
}

// "virtio1": the virtio device behind an interface or a disk, as the guest's sysfs says.
std::string virtioOf(const std::string& sysPath) {
    auto s = guest("basename \"$(readlink " + sysPath + ")\"");
    return s.substr(0, s.find('\n'));
}

// The layout of the end-to-end tests: eth1's IRQs on CPU1, eth2's on CPU2, RPS of eth1 on
// CPU3, XPS of eth1 on CPU0 and of eth2 on CPU3.
Layout testLayout(const Snapshot& snap) {
    Layout l;
    const IrqNames names(snap);
    for (const auto* nif : {snap.interface("eth1"), snap.interface("eth2")}) {
        if (!nif)
            continue;
        const int cpu = nif->name == "eth1" ? 1 : 2;
        for (auto irq : nif->irqs)
            if (const auto sel = names.selectorOf(irq))
                l.irqs.push_back({*sel, CpuMask::fromCpus({cpu}, 4), "test"});
        for (const auto& q : nif->tx)
            l.tx.push_back(
                {nif->name, q.index, CpuMask::fromCpus({nif->name == "eth1" ? 0 : 3}, 4), "test"});
        if (nif->name == "eth1")
            for (const auto& q : nif->rx)
                l.rx.push_back(
                    {nif->name, q.index, CpuMask::fromCpus({3}, 4), std::nullopt, "test"});
    }
    return l;
}

fs::path writeLayout(const Layout& l) {
    const auto p = kState / "layout.json";
    std::ofstream(p) << toJson(l).dump(2);
    return p;
}

// Checks through OpenSSH that the guest has every value of `l`.
void expectGuestHas(const Layout& l, const Snapshot& snap) {
    const IrqNames names(snap);
    const auto v = guestValues();
    for (const auto& t : l.irqs) {
        const auto irq = names.find(t.irq);
        ASSERT_TRUE(irq) << t.irq.display();
        EXPECT_EQ(v.at("proc/irq/" + std::to_string(*irq) + "/smp_affinity"), t.cpus.toHex(4))
            << t.irq.display();
    }
    for (const auto& t : l.rx)
        EXPECT_EQ(v.at("sys/class/net/" + t.interface + "/queues/rx-" + std::to_string(t.queue) +
                       "/rps_cpus"),
                  t.rpsCpus->toHex(4));
    for (const auto& t : l.tx)
        EXPECT_EQ(v.at("sys/class/net/" + t.interface + "/queues/tx-" + std::to_string(t.queue) +
                       "/xps_cpus"),
                  t.xpsCpus.toHex(4));
}

// Waits until the guest is back at its boot-time values; how long it took, or nullopt.
std::optional<double> waitForBaseline(double seconds) {
    const auto t0 = Clock::now();
    while (std::chrono::duration<double>(Clock::now() - t0).count() < seconds) {
        if (changedFromBaseline().empty())
            return std::chrono::duration<double>(Clock::now() - t0).count();
        std::this_thread::sleep_for(std::chrono::milliseconds(250));
    }
    return std::nullopt;
}

void rebootGuest() {
    const auto before = bootId();
    const auto t0 = Clock::now();
    guest("reboot");
    std::string now;
    while (Clock::now() - t0 < std::chrono::seconds(120)) {
        std::this_thread::sleep_for(std::chrono::seconds(1));
        int rc = -1;
        now = guest("cat /proc/sys/kernel/random/boot_id", &rc);
        if (rc == 0 && !now.empty() && now != before)
            break;
    }
    ASSERT_NE(now, before) << "the router did not come back";
    std::printf("[ vm ] reboot took %.1f s\n",
                std::chrono::duration<double>(Clock::now() - t0).count());
}

class RouterVm : public ::testing::Environment {
public:
    void SetUp() override {
        fs::remove_all(kState);
        fs::create_directories(kState / "sshdir");
        const auto t0 = Clock::now();
        const std::string cmd = kRouterSh + " start " + quote(CORESTEER_VM_DIR) + " " +
                                quote(kState.string()) + " 2222";
        ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
        std::printf("[ vm ] booted to SSH in %.1f s\n",
                    std::chrono::duration<double>(Clock::now() - t0).count());
        Diagnostics d;
        g_env = detail::parseShellAssignments(slurp(kState / "env"), d, "env");
        g_baseline = guestValues();
        g_sysupgrade = guest("cat /etc/sysupgrade.conf");
        ASSERT_FALSE(g_baseline.empty());
    }
    void TearDown() override {
        (void)std::system((kRouterSh + " stop " + quote(kState.string())).c_str());
    }
};

// Every test starts from the router's boot-time values, with no revert pending.
class Vm : public ::testing::Test {
protected:
    void SetUp() override {
        guest("pkill -x sleep; rm -rf /tmp/coresteer");
        restoreBaseline();
        ASSERT_EQ(changedFromBaseline(), std::vector<std::string>{});
    }
};

} // namespace

// 1. The snapshot over dropbear: 4 CPUs, eth1 and eth2 with their per-queue IRQs, attributed
// to the right interface, and their queues.
TEST_F(Vm, SnapshotShowsCpusNicsQueuesAndTheirIrqs) {
    int rc = -1;
    const auto out = cli("snapshot --json", &rc);
    ASSERT_LE(rc, 1) << cliErr();
    const auto j = nlohmann::json::parse(out);
    EXPECT_EQ(j["topology"]["cpus"].size(), 4u);
    const int queues = std::stoi(g_env.at("CS_VM_QUEUES"));
    for (const std::string name : {"eth1", "eth2"}) {
        SCOPED_TRACE(name);
        const auto virtio = virtioOf("/sys/class/net/" + name + "/device");
        ASSERT_EQ(virtio.rfind("virtio", 0), 0u) << virtio;
        const nlohmann::json* nif = nullptr;
        for (const auto& i : j["interfaces"])
            if (i["name"] == name)
                nif = &i;
        ASSERT_NE(nif, nullptr);
        EXPECT_EQ((*nif)["rx_queues"].size(), static_cast<std::size_t>(queues));
        EXPECT_EQ((*nif)["tx_queues"].size(), static_cast<std::size_t>(queues));
        // Every input.K and output.K IRQ of this device, and no other, belongs to it.
        std::set<std::string> expected, found;
        for (int k = 0; k < queues; ++k) {
            expected.insert(virtio + "-input." + std::to_string(k));
            expected.insert(virtio + "-output." + std::to_string(k));
        }
        for (const auto& irq : j["irqs"]) {
            const auto ifs = irq["interfaces"];
            if (std::find(ifs.begin(), ifs.end(), name) != ifs.end())
                found.insert(irq["actions"][0].get<std::string>());
        }
        for (const auto& e : expected)
            EXPECT_TRUE(found.count(e)) << e;
        for (const auto& f : found)
            EXPECT_TRUE(f == virtio + "-config" || expected.count(f)) << f;
    }
}

// 2. A runtime apply reads back in the guest's /proc and sysfs.
TEST_F(Vm, ApplyReadsBackInTheGuest) {
    const auto snap = routerSnapshot();
    const auto l = testLayout(snap);
    ASSERT_GE(l.irqs.size(), 4u);
    int rc = -1;
    const auto out = cli("apply " + quote(writeLayout(l).string()) + " --json", &rc);
    EXPECT_EQ(rc, 0) << out << cliErr();
    const auto j = nlohmann::json::parse(out);
    EXPECT_TRUE(j["confirmed"].get<bool>());
    // x86 MSI moves an IRQ at its next interrupt: until then its effective CPU is the old one.
    for (const auto& r : j["results"])
        EXPECT_TRUE(r["status"] == "applied" ||
                    r["status"] == "applied, moves at the next interrupt")
            << r.dump();
    expectGuestHas(l, snap);
    restoreBaseline();
}

// 3. What the kernel refuses is reported per target; the rest applies; revert restores all.
TEST_F(Vm, KernelRefusalsAreReportedPerTarget) {
    const auto snap = routerSnapshot();
    const auto* eth1 = snap.interface("eth1");
    ASSERT_NE(eth1, nullptr);
    ASSERT_GE(eth1->irqs.size(), 2u);
    const auto blk = virtioOf("/sys/block/vda/device");
    std::optional<std::uint32_t> managed;
    for (const auto& row : snap.interrupts.rows)
        if (row.irq && !row.actions.empty() && row.actions[0] == blk + "-req.0")
            managed = row.irq;
    ASSERT_TRUE(managed) << blk;
    auto irqWrite = [&](std::uint32_t irq, const std::string& value) {
        const auto path = "proc/irq/" + std::to_string(irq) + "/smp_affinity";
        return Write{Write::Kind::IrqAffinity,
                     "IRQ " + std::to_string(irq),
                     path,
                     value,
                     g_baseline.at(path),
                     ""};
    };
    Resolution r;
    r.writes.push_back(irqWrite(eth1->irqs[0], "0"));  // no CPU: EINVAL
    r.writes.push_back(irqWrite(eth1->irqs[1], "10")); // CPU 4 of 4: EOVERFLOW
    r.writes.push_back(irqWrite(
        *managed, g_baseline.at("proc/irq/" + std::to_string(*managed) + "/smp_affinity") == "1"
                      ? "2"
                      : "1")); // kernel-managed: EIO
    r.writes.push_back({Write::Kind::RpsCpus, "eth2 rx-0",
                        "sys/class/net/eth2/queues/rx-0/rps_cpus", "4",
                        g_baseline.at("sys/class/net/eth2/queues/rx-0/rps_cpus"), ""});
    NoQuestions p;
    ssh::Session s(target(), p);
    ASSERT_TRUE(s.connect()) << s.error().message;
    std::string error;
    const auto rep = applyRemote(s, "/", r, {60, true}, &error);
    ASSERT_TRUE(rep) << error;
    ASSERT_EQ(rep->results.size(), 4u);
    const char* reasons[] = {"Invalid argument", "Value too large", "Input/output error"};
    for (int i = 0; i < 3; ++i) {
        EXPECT_EQ(rep->results[i].status, TargetResult::Status::Refused) << rep->results[i].error;
        EXPECT_NE(rep->results[i].error.find(reasons[i]), std::string::npos)
            << rep->results[i].error;
    }
    EXPECT_EQ(rep->results[3].status, TargetResult::Status::Applied);
    // Nothing else moved.
    EXPECT_EQ(changedFromBaseline(),
              std::vector<std::string>{"sys/class/net/eth2/queues/rx-0/rps_cpus: " +
                                       g_baseline.at("sys/class/net/eth2/queues/rx-0/rps_cpus") +
                                       " -> 4"});
    ASSERT_TRUE(settleRemote(s, "/", PendingAction::Revert, &error)) << error;
    EXPECT_TRUE(changedFromBaseline().empty());
}

// 4a. Nobody confirms: the guest restores itself within the timeout plus 5 s.
TEST_F(Vm, UnconfirmedApplyRevertsByItself) {
    const auto snap = routerSnapshot();
    const auto l = testLayout(snap);
    int rc = -1;
    const auto t0 = Clock::now();
    const auto out = cli(
        "apply " + quote(writeLayout(l).string()) + " --no-confirm --revert-after 5 --json", &rc);
    ASSERT_EQ(rc, 0) << out << cliErr();
    EXPECT_FALSE(changedFromBaseline().empty());
    const auto left = 10.0 - std::chrono::duration<double>(Clock::now() - t0).count();
    const auto took = waitForBaseline(std::max(left, 0.5));
    ASSERT_TRUE(took) << "still changed: " << changedFromBaseline().size();
    std::printf("[ vm ] unconfirmed apply reverted %.1f s after apply returned\n", *took);
}

// 4b. The connection dies in the middle of an apply: the same.
TEST_F(Vm, ConnectionKilledMidApplyRevertsByItself) {
    const auto snap = routerSnapshot();
    const auto r = resolve(testLayout(snap), snap);
    std::vector<Write> writes;
    for (const auto& w : r.writes)
        if (w.changes())
            writes.push_back(w);
    ASSERT_GE(writes.size(), 2u);
    auto script = makeApplyScript(writes, "/", {5, true});
    const auto firstWrite = script.script.find("\nw '") + 1;
    script.script.insert(script.script.find('\n', firstWrite) + 1, "sleep 60\n");
    NoQuestions p;
    ssh::Session s(target(), p);
    ASSERT_TRUE(s.connect()) << s.error().message;
    std::thread stopper([&] {
        // Stop once the first write is visible in the guest.
        const auto t0 = Clock::now();
        while (Clock::now() - t0 < std::chrono::seconds(20) && changedFromBaseline().empty())
            std::this_thread::sleep_for(std::chrono::milliseconds(200));
        s.requestStop();
    });
    EXPECT_FALSE(s.run("sh -s", script.script).has_value());
    stopper.join();
    s.disconnect();
    // The timer comes due 5 s after the apply armed it, waits up to 5 s more for the apply that
    // still holds the state lock (stalled in its `sleep 60`), ends it, and restores.
    const auto took = waitForBaseline(20.0);
    ASSERT_TRUE(took) << "still changed: " << changedFromBaseline().size();
    std::printf("[ vm ] killed apply reverted %.1f s after the connection dropped\n", *took);
    guest("pkill -x sleep");
}

// 5. Persist, reboot: the layout is back. unpersist, reboot: the defaults are back, and
// /etc/sysupgrade.conf is as before.
TEST_F(Vm, PersistSurvivesRebootAndUnpersistUndoesIt) {
    const auto snap = routerSnapshot();
    const auto l = testLayout(snap);
    int rc = -1;
    auto out = cli("persist " + quote(writeLayout(l).string()) + " --json", &rc);
    ASSERT_EQ(rc, 0) << out << cliErr();
    EXPECT_EQ(nlohmann::json::parse(out)["flavor"], "openwrt");
    EXPECT_TRUE(changedFromBaseline().empty()); // persist alone changes no running value
    EXPECT_NE(guest("cat /etc/sysupgrade.conf").find("/etc/hotplug.d/net/95-coresteer\n"),
              std::string::npos);
    rebootGuest();
    expectGuestHas(l, routerSnapshot());
    EXPECT_NE(guest("cat /tmp/hotplug.log").find("add net eth1"), std::string::npos);
    out = cli("unpersist --json", &rc);
    ASSERT_EQ(rc, 0) << out << cliErr();
    EXPECT_TRUE(nlohmann::json::parse(out)["sysupgrade_restored"].get<bool>());
    rebootGuest();
    EXPECT_EQ(changedFromBaseline(), std::vector<std::string>{});
    EXPECT_EQ(guest("cat /etc/sysupgrade.conf"), g_sysupgrade);
    EXPECT_EQ(guest("ls -A /etc/hotplug.d/net/; [ -e /etc/coresteer ] && echo /etc/coresteer"),
              ".keep\n");
}

namespace {

// Per-CPU busy share between two /proc/stat texts read in the guest.
std::map<int, double> busyBetween(const std::string& a, const std::string& b) {
    Diagnostics d;
    const auto x = parseProcStat(a, d), y = parseProcStat(b, d);
    std::map<int, double> out;
    for (const auto& c : y.cpus)
        if (const auto* p = x.cpu(c.cpu)) {
            const double total = static_cast<double>(c.total() - p->total());
            const double idle = static_cast<double>(c.idleAll() - p->idleAll());
            if (total > 0)
                out[c.cpu] = 1.0 - idle / total;
        }
    return out;
}

// UDP datagrams to the guest's eth1 from inside the test's namespace, until stopped. 10.201.1.2
// exists only on the tap that router.sh made in the namespace netns.sh created for this test
// (router.sh refuses to start in a namespace with any other interface), so nothing leaves it.
class Traffic {
public:
    // Only inside the test's namespace: every interface is lo or one of router.sh's taps.
    // Anywhere else nothing is sent (the test then fails on the count it finds sent). The list
    // is this network namespace's own (/proc/self/net/dev; /sys/class/net may be the host's).
    static bool inOwnNamespace() {
        std::ifstream in("/proc/self/net/dev");
        std::string line;
        int n = 0;
        while (std::getline(in, line))
            if (++n > 2) {
                const auto colon = line.find(':');
                const auto first = line.find_first_not_of(' ');
                if (colon == std::string::npos || first == std::string::npos)
                    return false;
                const auto name = line.substr(first, colon - first);
                if (name != "lo" && name != "cs-tap1" && name != "cs-tap2")
                    return false;
            }
        return n > 2;
    }
    Traffic() {
        if (!inOwnNamespace())
            return;
        m_thread = std::thread([this] {
            const int fd = ::socket(AF_INET, SOCK_DGRAM, 0);
            sockaddr_in to{};
            to.sin_family = AF_INET;
            ::inet_pton(AF_INET, "10.201.1.2", &to.sin_addr);
            char payload[1200] = {};
            std::uint16_t port = 5000;
            while (!m_stop.load()) {
                to.sin_port = htons(port);
                port = static_cast<std::uint16_t>(port == 5063 ? 5000 : port + 1);
                if (::sendto(fd, payload, sizeof payload, 0, reinterpret_cast<sockaddr*>(&to),
                             sizeof to) > 0)
                    ++m_sent;
                else
                    std::this_thread::sleep_for(std::chrono::microseconds(200));
            }
            ::close(fd);
        });
    }
    ~Traffic() {
        m_stop = true;
        if (m_thread.joinable())
            m_thread.join();
    }
    std::uint64_t sent() const { return m_sent.load(); }

private:
    std::atomic<bool> m_stop{false};
    std::atomic<std::uint64_t> m_sent{0};
    std::thread m_thread;
};

} // namespace

// 6. The live sampler at 10 Hz for 20 s over dropbear (BusyBox awk in the guest) while traffic
// flows to eth1 inside the namespace: eth1's input IRQs fire on the CPU the layout chose, and
// per-core busy agrees with the guest's own /proc/stat read over a separate connection.
TEST_F(Vm, LiveSamplerSeesTheLayoutAndAgreesWithTheGuest) {
    const auto snap = routerSnapshot();
    const auto l = testLayout(snap); // eth1's IRQs on CPU1, RPS of eth1 on CPU3
    int rc = -1;
    cli("apply " + quote(writeLayout(l).string()) + " --json", &rc);
    ASSERT_LE(rc, 1) << cliErr();
    std::set<std::uint32_t> eth1Inputs;
    for (const auto& row : snap.interrupts.rows)
        if (row.irq && !row.actions.empty() &&
            row.actions.front().find("-input.") != std::string::npos)
            for (auto i : snap.interface("eth1")->irqs)
                if (i == *row.irq)
                    eth1Inputs.insert(i);
    ASSERT_FALSE(eth1Inputs.empty());

    NoQuestions p;
    ssh::Session s(target(), p);
    ASSERT_TRUE(s.connect()) << s.error().message;
    auto src = sshSampleSource(s, "/");
    std::string error;
    Traffic traffic;
    std::this_thread::sleep_for(std::chrono::milliseconds(500)); // ARP, and the load settles
    const auto statBefore = guest("cat /proc/stat");
    auto first = src->next(&error);
    ASSERT_TRUE(first) << error;
    auto prev = *first;
    std::map<std::uint32_t, std::vector<double>> irqTotals;
    int ticks = 0;
    const auto start = Clock::now();
    auto next = start;
    while (Clock::now() - start < std::chrono::seconds(20)) {
        next += std::chrono::milliseconds(100);
        std::this_thread::sleep_until(next);
        auto cur = src->next(&error);
        ASSERT_TRUE(cur) << error;
        if (const auto r = computeRates(prev, *cur)) {
            ++ticks;
            for (auto irq : eth1Inputs)
                if (const auto* ir = r->irq(irq)) {
                    auto& t = irqTotals[irq];
                    t.resize(std::max(t.size(), ir->perCpu.size()), 0.0);
                    for (std::size_t c = 0; c < ir->perCpu.size(); ++c)
                        t[c] += ir->perCpu[c] * r->seconds();
                }
        }
        prev = *cur;
    }
    const auto last = prev;
    const auto statAfter = guest("cat /proc/stat");
    const auto sent = traffic.sent();
    std::printf("[ vm ] sampler: %d ticks in 20 s, %llu bytes, %llu datagrams sent\n", ticks,
                static_cast<unsigned long long>(src->bytesIn()),
                static_cast<unsigned long long>(sent));
    // 10 Hz asked; an emulated router at 100% on two cores answers some ticks late.
    EXPECT_GE(ticks, 100);
    // Interrupts of eth1's input queues land on CPU1 only, and some do.
    double onCpu1 = 0, elsewhere = 0;
    for (const auto& [irq, perCpu] : irqTotals)
        for (std::size_t c = 0; c < perCpu.size(); ++c)
            (c == 1 ? onCpu1 : elsewhere) += perCpu[c];
    std::printf("[ vm ] eth1 input interrupts: %.0f on CPU1, %.0f elsewhere\n", onCpu1, elsewhere);
    // Under a flood NAPI keeps polling and few interrupts fire at all: the issue asks that they
    // are non-zero where the layout put them, and nowhere else.
    EXPECT_GT(onCpu1, 0);
    EXPECT_EQ(elsewhere, 0);
    // Per-core busy over the whole window: the sampler's first and last samples against the
    // guest's own /proc/stat, read before and after through OpenSSH.
    const auto r = computeRates(*first, last);
    ASSERT_TRUE(r);
    // The receive work ran on CPU1 (NET_RX raised there by eth1's poll).
    ASSERT_GT(r->netRx.size(), 1u);
    EXPECT_GT(r->netRx[1], 0.0);
    const auto guestBusy = busyBetween(statBefore, statAfter);
    for (const auto& c : r->cores) {
        ASSERT_TRUE(guestBusy.count(c.cpu));
        std::printf("[ vm ] CPU%d busy: sampler %.1f%%, guest /proc/stat %.1f%%\n", c.cpu,
                    c.busy() * 100, guestBusy.at(c.cpu) * 100);
        EXPECT_NEAR(c.busy(), guestBusy.at(c.cpu), 0.05) << "CPU" << c.cpu;
    }
}

#ifdef CORESTEER_VM_UI
namespace {
class TrustNothing : public ui::Prompts {
public:
    bool acceptHostKey(const QString&, const QString&, const QString&) override { return false; }
    std::optional<QString> password(const QString&) override { return std::nullopt; }
};
} // namespace

// 7. The GUI's apply flow against the router: Recommend, Apply, Keep, and the guest has the
// values, read back through OpenSSH.
TEST_F(Vm, GuiApplyFlow) {
    TrustNothing prompts;
    ui::MainWindow w;
    w.setPrompts(&prompts);
    QSignalSpy shown(&w, &ui::MainWindow::snapshotShown);
    ui::Connection::Spec spec;
    spec.ssh = true;
    spec.target = target();
    spec.label = QStringLiteral("emulated router");
    w.openConnection(spec);
    ASSERT_TRUE(shown.wait(30000)) << w.lastError().toStdString();
    w.recommend();
    ASSERT_GT(w.gridModel()->changedCount(), 0);
    auto* d = w.openApplyDialog();
    ASSERT_TRUE(d);
    QTest::mouseClick(d->applyButton(), Qt::LeftButton);
    for (int i = 0; i < 600 && d->stage() != ui::ApplyDialog::Stage::Countdown; ++i)
        QTest::qWait(50);
    ASSERT_EQ(static_cast<int>(d->stage()), static_cast<int>(ui::ApplyDialog::Stage::Countdown))
        << d->statusText().toStdString();
    QTest::mouseClick(d->keepButton(), Qt::LeftButton);
    for (int i = 0; i < 600 && d->stage() != ui::ApplyDialog::Stage::Kept; ++i)
        QTest::qWait(50);
    ASSERT_EQ(static_cast<int>(d->stage()), static_cast<int>(ui::ApplyDialog::Stage::Kept))
        << d->statusText().toStdString();
    // Everything the dialog applied is in the guest, and nothing is left pending.
    const auto v = guestValues();
    int checked = 0;
    for (int i = 0; i < d->changesView()->topLevelItemCount(); ++i) {
        const auto* it = d->changesView()->topLevelItem(i);
        const auto path = it->toolTip(0).toStdString();
        if (!v.count(path))
            continue; // NAPI or coalescing targets are not files
        EXPECT_EQ(CpuMask::fromHex(v.at(path))->toList(),
                  CpuMask::fromHex(it->text(2).toStdString())->toList())
            << path;
        ++checked;
    }
    EXPECT_GT(checked, 0);
    EXPECT_EQ(guest("ls /tmp/coresteer/pending 2>/dev/null"), "");
    d->close();
}
#endif

int main(int argc, char** argv) {
#ifdef CORESTEER_VM_UI
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QStandardPaths::setTestModeEnabled(true);
    QApplication app(argc, argv);
#endif
    ::testing::InitGoogleTest(&argc, argv);
    ::testing::AddGlobalTestEnvironment(new RouterVm);
    std::signal(SIGPIPE, SIG_IGN);
    return RUN_ALL_TESTS();
}

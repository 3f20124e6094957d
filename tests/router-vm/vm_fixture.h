// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The fixture of the emulated router's tests (tests/router-vm): the router booted once for all
// of them (RouterVm), commands run in the guest over a separate OpenSSH command, the guest's
// mask files at boot, and the CLI. Every check of what happened in the guest goes through the
// guest itself, not through coresteer.
#pragma once

#include "core/base/shell.h"
#include "core/collect/collect_remote.h"
#include "core/kernel/procstat.h"
#include "core/layout/apply.h"
#include "core/layout/layout_json.h"
#include "core/live/source.h"
#include "core/model/snapshot_detail.h"
#include "core/router/router.h"
#include "core/ssh/session.h"
#include "tests/support/board_expect.h"
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
#include <sstream>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

using namespace coresteer;
using namespace coresteer::layout;
namespace fs = std::filesystem;
using coresteer::test::slurp;
using Clock = std::chrono::steady_clock;

namespace coresteer::test {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

inline const fs::path kState = fs::path(CORESTEER_TEST_TMP) / "router";
inline const std::string kRouterSh =
    std::string(CORESTEER_SOURCE_DIR) + "/tests/router-vm/router.sh";
inline std::map<std::string, std::string> g_env;
inline std::map<std::string, std::string> g_baseline; // every mask file of the guest after boot
inline std::string g_sysupgrade;                      // /etc/sysupgrade.conf after boot

inline std::string quote(const std::string& s) {
    return shellQuote(s);
}

// Runs `cmd` on the router through OpenSSH; stdout, and the exit status in *rc.
inline std::string guest(const std::string& cmd, int* rc = nullptr) {
    return test::capture(kRouterSh + " ssh " + quote(kState.string()) + " " + quote(cmd), rc);
}

// path -> value of every IRQ mask and queue mask in the guest.
inline std::map<std::string, std::string> guestValues() {
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

inline std::string bootId() {
    return guest("cat /proc/sys/kernel/random/boot_id");
}

// Writes the boot-time values back (managed IRQs refuse, and are left as they are).
inline void restoreBaseline() {
    std::string script;
    for (const auto& [path, value] : guestValues())
        if (const auto it = g_baseline.find(path); it != g_baseline.end() && it->second != value)
            script += "echo " + it->second + " > /" + path + " 2>/dev/null\n";
    if (!script.empty())
        guest(script);
}

// The paths whose value differs from the boot-time one.
inline std::vector<std::string> changedFromBaseline() {
    std::vector<std::string> out;
    for (const auto& [path, value] : guestValues())
        if (g_baseline.count(path) && g_baseline.at(path) != value)
            out.push_back(path + ": " + g_baseline.at(path) + " -> " + value);
    return out;
}

// coresteer-cli against the router; the exit status in *rc, stdout as the result.
inline std::string cli(const std::string& args, int* rc) {
    const std::string cmd = std::string(CORESTEER_CLI) + " " + args +
                            " ssh://root@127.0.0.1:" + g_env.at("CS_VM_PORT") + " --known-hosts " +
                            quote(g_env.at("CS_VM_KNOWN_HOSTS")) + " --identity " +
                            quote(g_env.at("CS_VM_KEY")) + " < /dev/null 2> " +
                            quote((kState / "cli.err").string());
    return test::capture(cmd, rc);
}

inline std::string cliErr() {
    return slurp(kState / "cli.err");
}

inline ssh::Target target() {
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

inline Snapshot routerSnapshot() {
    NoQuestions p;
    ssh::Session s(target(), p);
    EXPECT_TRUE(s.connect()) << s.error().message;
    std::string error;
    const auto b = collectRemote(s, "/", &error);
    EXPECT_TRUE(b) << error;
    return b ? buildSnapshot(*b) : Snapshot{};
}

// "virtio1": the virtio device behind an interface or a disk, as the guest's sysfs says.
inline std::string virtioOf(const std::string& sysPath) {
    auto s = guest("basename \"$(readlink " + sysPath + ")\"");
    return s.substr(0, s.find('\n'));
}

// The layout of the end-to-end tests: eth1's IRQs on CPU1, eth2's on CPU2, RPS of eth1 on
// CPU3, XPS of eth1 on CPU0 and of eth2 on CPU3.
inline Layout testLayout(const Snapshot& snap) {
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

inline fs::path writeLayout(const Layout& l) {
    const auto p = kState / "layout.json";
    std::ofstream(p) << toJson(l).dump(2);
    return p;
}

// Checks through OpenSSH that the guest has every value of `l`.
inline void expectGuestHas(const Layout& l, const Snapshot& snap) {
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
inline std::optional<double> waitForBaseline(double seconds) {
    const auto t0 = Clock::now();
    while (std::chrono::duration<double>(Clock::now() - t0).count() < seconds) {
        if (changedFromBaseline().empty())
            return std::chrono::duration<double>(Clock::now() - t0).count();
        std::this_thread::sleep_for(std::chrono::milliseconds(250));
    }
    return std::nullopt;
}

// Stops QEMU (if it still runs) and starts the router again from its disk: the second half of
// every reboot (rebootGuest). The disk is the router's /etc, so what a test persisted is there
// as after a reboot.
inline bool powerCycleGuest() {
    const std::string stop = kRouterSh + " stop " + quote(kState.string());
    const std::string start =
        kRouterSh + " start " + quote(CORESTEER_VM_DIR) + " " + quote(kState.string()) + " 2222";
    return std::system(stop.c_str()) == 0 && std::system(start.c_str()) == 0;
}

// The guest's boot id once it answers with one other than `before`, within `seconds`; empty
// when it does not.
inline std::string waitForNewBoot(const std::string& before, int seconds) {
    const auto t0 = Clock::now();
    while (Clock::now() - t0 < std::chrono::seconds(seconds)) {
        std::this_thread::sleep_for(std::chrono::seconds(1));
        int rc = -1;
        const auto now = guest("cat /proc/sys/kernel/random/boot_id", &rc);
        if (rc == 0 && !now.empty() && now != before)
            return now;
    }
    return {};
}

// The router reboots as a router does: its shutdown actions sync and unmount /etc, and the
// kernel restarts. QEMU (-no-reboot, router.sh) exits there and starts again from the disk, a
// cold boot: under emulation a warm reset boots slowly (every run's first stalled in the
// kernel's init for 60 to 116 s, with a soft lockup on the console; the others took 17 to 32 s
// where a cold boot takes 13).
inline void rebootGuest() {
    const auto before = bootId();
    const auto t0 = Clock::now();
    long long pid = 0;
    std::istringstream(slurp(kState / "qemu.pid")) >> pid;
    guest("reboot");
    while (pid > 0 && ::kill(static_cast<pid_t>(pid), 0) == 0 &&
           Clock::now() - t0 < std::chrono::seconds(60))
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
    ASSERT_TRUE(powerCycleGuest()) << "the router did not start again";
    const auto now = waitForNewBoot(before, 60);
    ASSERT_FALSE(now.empty()) << "the router did not come back";
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

// Every test starts from the router's boot-time values, with no revert pending: a revert job
// that an earlier test left finds no state when it comes due, and exits.
class Vm : public ::testing::Test {
protected:
    void SetUp() override {
        guest("rm -rf /tmp/coresteer");
        restoreBaseline();
        ASSERT_EQ(changedFromBaseline(), std::vector<std::string>{});
    }
};

} // namespace coresteer::test

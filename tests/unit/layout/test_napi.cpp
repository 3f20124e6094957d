// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// Threaded NAPI and interrupt coalescing: read into the snapshot (only the NAPI threads'
// status files, not every process's), planned, resolved, applied and persisted. Their writes
// (taskset, ethtool) exist only on a live router; under a fixture root they are refused and
// never run, which these tests check with commands that leave a trace if they ever run.
#include "core/collect/collect_local.h"
#include "core/collect/collect_remote.h"
#include "core/layout/apply.h"
#include "core/layout/layout_json.h"
#include "core/layout/persist.h"
#include "core/layout/planner.h"
#include "core/model/snapshot_json.h"
#include "tests/support/board_expect.h"
#include "tests/unit/layout/router_copy.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sys/wait.h>
#include <unistd.h>

using namespace coresteer;
using namespace coresteer::layout;
namespace fs = std::filesystem;
using coresteer::test::slurp;

namespace {

// The R6S (OpenWrt) with threaded NAPI on eth1, as the kernel shows it: threaded = 1 and one
// kthread "napi/eth1-<napi id>" (ids start above NR_CPUS) that may run anywhere.
class ThreadedNapi : public ::testing::Test {
protected:
    void SetUp() override {
        std::string name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
        m_dir = fs::path(CORESTEER_TEST_TMP) / "napi" / name;
        fs::remove_all(m_dir);
        fs::create_directories(m_dir / "bin");
        m_root = m_dir / "root";
        fs::copy(test::boardDir("nanopi-r6s-openwrt"), m_root,
                 fs::copy_options::recursive | fs::copy_options::copy_symlinks);
        write("sys/class/net/eth1/threaded", "1\n");
        write("proc/4242/comm", "napi/eth1-8195\n");
        write("proc/4242/status", "Name:\tnapi/eth1-8195\nState:\tS (sleeping)\nPid:\t4242\n"
                                  "PPid:\t2\nCpus_allowed:\tff\nCpus_allowed_list:\t0-7\n");
        write("proc/4243/comm", "napi/eth2-8196\n");
        write("proc/4243/status", "Name:\tnapi/eth2-8196\nPPid:\t2\nCpus_allowed:\t0f\n");
        // A user's process that calls itself a NAPI thread: no kernel thread, never taken for
        // one.
        write("proc/5150/comm", "napi/eth1-9999\n");
        write("proc/5150/status", "Name:\tnapi/eth1-9999\nPid:\t5150\nPPid:\t4990\n"
                                  "Cpus_allowed:\t01\n");
        // Any other process's status stays unread.
        write("proc/77/comm", "dropbear\n");
        write("proc/77/status", "Name:\tdropbear\nCpus_allowed:\tff\n");
        for (const char* cmd : {"taskset", "ethtool"}) {
            const auto p = m_dir / "bin" / cmd;
            std::ofstream(p) << "#!/bin/sh\necho \"$0 $*\" >> '" << (m_dir / "RAN").string()
                             << "'\n";
            fs::permissions(p, fs::perms::owner_all);
        }
    }
    void write(const std::string& rel, const std::string& content) {
        fs::create_directories((m_root / rel).parent_path());
        std::ofstream(m_root / rel) << content;
    }
    std::string ash(const std::string& script, int* rc) {
        std::ofstream(m_dir / "s.sh") << script;
        const std::string cmd = "PATH='" + (m_dir / "bin").string() + ":" + std::getenv("PATH") +
                                "' busybox ash -s < '" + (m_dir / "s.sh").string() + "' > '" +
                                (m_dir / "out").string() + "' 2> '" + (m_dir / "err").string() +
                                "'";
        *rc = WEXITSTATUS(std::system(cmd.c_str()));
        return slurp(m_dir / "out");
    }
    bool ran() const { return fs::exists(m_dir / "RAN"); }
    fs::path m_dir, m_root;
};

} // namespace

TEST_F(ThreadedNapi, SnapshotHasTheThreadsAndOnlyTheirStatus) {
    const auto bundle = collectLocal(m_root);
    EXPECT_NE(bundle.get("proc/4242/status"), nullptr);
    EXPECT_EQ(bundle.get("proc/77/status"), nullptr);
    const auto snap = buildSnapshot(bundle);
    const auto* eth1 = snap.interface("eth1");
    ASSERT_NE(eth1, nullptr);
    EXPECT_EQ(eth1->threadedNapi, true);
    ASSERT_EQ(eth1->napi.size(), 1u);
    EXPECT_EQ(eth1->napi[0].pid, 4242);
    EXPECT_EQ(eth1->napi[0].name, "napi/eth1-8195");
    EXPECT_EQ(eth1->napi[0].cpusAllowed->toList(), "0-7");
    EXPECT_EQ(snap.interface("eth2")->napi.size(), 1u);
    EXPECT_TRUE(snap.interface("eth0")->napi.empty());
    // The impostor is named in a warning, with its file.
    bool warned = false;
    for (const auto& d : snap.diagnostics.entries())
        warned = warned ||
                 d.toString().find("proc/5150/status: warning: 'napi/eth1-9999' is not a kernel "
                                   "thread") != std::string::npos;
    EXPECT_TRUE(warned);
    // The remote collector reads exactly the same files.
    const auto cs = makeCollectScript(m_root.string());
    int rc = -1;
    const auto out = ash(cs.script, &rc);
    FileBundle remote;
    std::string error;
    ASSERT_TRUE(parseCollectOutput(out, cs.token, remote, &error)) << error;
    remote.origin = bundle.origin;
    EXPECT_EQ(toJson(buildSnapshot(remote)), toJson(snap));
    EXPECT_EQ(remote.get("proc/77/status"), nullptr);
}

TEST_F(ThreadedNapi, PlannerPinsThreadsWhereTheReceiveWorkGoes) {
    const auto snap = buildSnapshot(collectLocal(m_root));
    const auto l = plan(snap);
    std::map<std::string, std::string> napi;
    for (const auto& t : l.interfaces) {
        ASSERT_TRUE(t.napiCpus);
        napi[t.interface] = t.napiCpus->toList();
        EXPECT_NE(t.why.find("Threaded NAPI"), std::string::npos);
    }
    // Each port's threads go to its RPS CPUs.
    for (const auto& q : l.rx) {
        if (q.rpsCpus && !q.rpsCpus->none() && napi.count(q.interface)) {
            EXPECT_EQ(napi[q.interface], q.rpsCpus->toList()) << q.interface;
        }
    }
    EXPECT_EQ(napi.size(), 2u);
    // The layout file keeps them.
    std::string error;
    const auto back = parseLayout(toJson(l).dump(), &error);
    ASSERT_TRUE(back) << error;
    ASSERT_EQ(back->interfaces.size(), 2u);
    EXPECT_EQ(back->interfaces[0].napiCpus, l.interfaces[0].napiCpus);
}

TEST_F(ThreadedNapi, LayoutFileInterfacesAreStrict) {
    std::string error;
    auto l = parseLayout(R"({"schema":"coresteer.layout/1","interfaces":[
        {"interface":"eth1","napi_cpus":"4-5","rx_usecs":50,"why":"test"}]})",
                         &error);
    ASSERT_TRUE(l) << error;
    EXPECT_EQ(l->interfaces[0].rxUsecs, 50u);
    EXPECT_FALSE(parseLayout(R"({"schema":"coresteer.layout/1","interfaces":[
        {"interface":"eth1","rx_usec":50}]})",
                             &error));
    EXPECT_NE(error.find("interfaces[0].rx_usec: unknown key"), std::string::npos) << error;
    EXPECT_FALSE(parseLayout(R"({"schema":"coresteer.layout/1","interfaces":[
        {"interface":"eth1","rx_usecs":-1}]})",
                             &error));
}

TEST_F(ThreadedNapi, ResolveAndApplyUnderAFixtureRootRefuseWithoutRunningAnything) {
    const auto snap = buildSnapshot(collectLocal(m_root));
    Layout l;
    l.irqs.push_back({{"eth1", 0}, *CpuMask::fromList("2"), ""});
    l.interfaces.push_back({"eth1",
                            *CpuMask::fromList("4-5"),
                            std::nullopt,
                            std::nullopt,
                            64,
                            std::nullopt,
                            {},
                            {},
                            ""});
    l.interfaces.push_back({"eth0",
                            *CpuMask::fromList("1"),
                            std::nullopt,
                            std::nullopt,
                            std::nullopt,
                            std::nullopt,
                            {},
                            {},
                            ""});
    const auto r = resolve(l, snap);
    ASSERT_EQ(r.writes.size(), 3u);
    EXPECT_EQ(r.writes[1].path, "napi:4242");
    EXPECT_EQ(r.writes[1].current, "ff");
    EXPECT_EQ(r.writes[1].value, "30");
    EXPECT_EQ(r.writes[2].path, "ethtool:eth1:rx-usecs");
    ASSERT_EQ(r.skipped.size(), 1u); // eth0 has no NAPI threads
    EXPECT_NE(r.skipped[0].reason.find("threaded NAPI is off"), std::string::npos);
    const auto s = makeApplyScript(r.writes, m_root.string(), {30, true});
    int rc = -1;
    const auto out = ash(s.script, &rc);
    ASSERT_EQ(rc, 0) << slurp(m_dir / "err");
    std::string error;
    const auto rep = parseApplyOutput(out, s.token, r.writes, &error);
    ASSERT_TRUE(rep) << error;
    // (The fixture's effective_affinity does not follow the write as the kernel's would.)
    EXPECT_EQ(rep->results[0].status, TargetResult::Status::AppliedPending);
    EXPECT_EQ(rep->results[0].readBack, "04");
    for (int i : {1, 2}) {
        EXPECT_EQ(rep->results[i].status, TargetResult::Status::Refused);
        EXPECT_NE(rep->results[i].error.find("only on the live root"), std::string::npos);
    }
    EXPECT_FALSE(ran());
    // Only the IRQ was captured for the revert.
    EXPECT_EQ(slurp(m_root / "tmp/coresteer/revert.data"), "proc/irq/96/smp_affinity\t40\n");
    ASSERT_EQ(ash(makeSettleScript(m_root.string(), PendingAction::Revert), &rc), "settled\n");
    EXPECT_EQ(slurp(m_root / "proc/irq/96/smp_affinity"), "40\n");
    EXPECT_FALSE(ran());
}

TEST_F(ThreadedNapi, PersistedScriptPinsByNameAndSkipsUnderAFixtureRoot) {
    const auto snap = buildSnapshot(collectLocal(m_root));
    Layout l;
    l.interfaces.push_back({"eth1",
                            *CpuMask::fromList("4-5"),
                            std::nullopt,
                            std::nullopt,
                            64,
                            std::nullopt,
                            {},
                            {},
                            ""});
    std::string error;
    const auto p = planPersist(l, snap, {}, &error);
    ASSERT_TRUE(p) << error;
    const auto script = makeRouterApplyScript(p->layout, snap, {});
    // By name, since the PIDs of the next boot are not known.
    EXPECT_NE(script.find("eth1\tnapi\t30\n"), std::string::npos);
    EXPECT_NE(script.find("eth1\tusecs\t64\n"), std::string::npos);
    EXPECT_NE(script.find("\"napi:napi/$2-\"*"), std::string::npos);
    std::ofstream(m_dir / "hotplug") << script;
    const std::string cmd = "PATH='" + (m_dir / "bin").string() + ":" + std::getenv("PATH") +
                            "' ACTION=add INTERFACE=eth1 CORESTEER_ROOT='" + m_root.string() +
                            "' CORESTEER_WAIT=0 busybox ash '" + (m_dir / "hotplug").string() + "'";
    EXPECT_EQ(WEXITSTATUS(std::system(cmd.c_str())), 0);
    EXPECT_FALSE(ran());
}

// On the live root, the persisted script and apply's setv pin only kernel threads: a process of
// this test that names itself "napi/csfk0-1" (as any user on a router may) is left alone. Nothing
// is written: taskset and logger are the test's own, which leave a trace.
TEST_F(ThreadedNapi, AUserProcessWithANapiNameIsNeverPinned) {
    const coresteer::test::NamedProcess process("napi/csfk0-1");
    const pid_t impostor = process.pid();
    ASSERT_GT(impostor, 0);
    ASSERT_EQ(process.comm(), "napi/csfk0-1\n");
    const auto logger = m_dir / "bin" / "logger";
    std::ofstream(logger) << "#!/bin/sh\necho \"$*\" >> '" << (m_dir / "LOGGED").string() << "'\n";
    fs::permissions(logger, fs::perms::owner_all);
    Layout l;
    l.interfaces.push_back({"csfk0",
                            *CpuMask::fromList("0"),
                            std::nullopt,
                            std::nullopt,
                            std::nullopt,
                            std::nullopt,
                            {},
                            {},
                            ""});
    RouterScriptContext context;
    context.covered = std::vector<std::string>{"csfk0"};
    std::ofstream(m_dir / "hotplug") << makeRouterApplyScript(l, context, {});
    const std::string env = "PATH='" + (m_dir / "bin").string() + ":" + std::getenv("PATH") + "'";
    std::string cmd = env + " ACTION=add INTERFACE=csfk0 CORESTEER_WAIT=0 busybox ash '" +
                      (m_dir / "hotplug").string() + "'";
    EXPECT_EQ(WEXITSTATUS(std::system(cmd.c_str())), 0);
    // apply's setv and getv (the revert state functions) refuse it too.
    std::ofstream(m_dir / "setv.sh")
        << revertStateScript("/") << "getv napi:" << impostor << " && echo got\n"
        << "setv napi:" << impostor << " 1 || echo refused\n";
    cmd = env + " busybox ash '" + (m_dir / "setv.sh").string() + "' > '" +
          (m_dir / "setv.out").string() + "' 2>&1";
    std::system(cmd.c_str());
    EXPECT_EQ(slurp(m_dir / "setv.out"), "process " + std::to_string(impostor) +
                                             " is not a kernel thread: not found\n"
                                             "refused\n");
    EXPECT_FALSE(ran());
}

// A driver's own NAPI device: mtk_eth_soc's threads are napi/mtk_eth-N (OpenWrt's threaded-NAPI
// patch names its dummy device "mtk_eth"). They do the receive work of every interface of the
// driver; the planner places them once, and the persisted script pins them by that name. A user
// process with the same name is not taken.
TEST(ThreadedNapiDriverDevice, MtkEthThreadsBelongToTheDriversInterfaces) {
    coresteer::test::Router r("bpi-r4");
    r.write("proc/4242/comm", "napi/mtk_eth-5\n");
    r.write("proc/4242/status", "Name:\tnapi/mtk_eth-5\nPPid:\t2\nCpus_allowed:\tf\n");
    r.write("proc/4343/comm", "napi/mtk_eth-6\n");
    r.write("proc/4343/status", "Name:\tnapi/mtk_eth-6\nPPid:\t1\nCpus_allowed:\tf\n");
    // Kernel threads of NAPI devices that are neither an interface nor a known driver's: not
    // attributed to anything, whatever their names hold.
    r.write("proc/4444/comm", "napi/'$(id)\n-7\n");
    r.write("proc/4444/status", "PPid:\t2\nCpus_allowed:\tf\n");
    r.write("proc/4545/comm", "napi/\xe2\x80\xa8\xff-8\n");
    r.write("proc/4545/status", "PPid:\t2\nCpus_allowed:\tf\n");
    const auto snap = r.snapshot();
    for (const char* name : {"eth0", "eth1", "eth2"}) {
        const auto* nif = snap.interface(name);
        ASSERT_TRUE(nif) << name;
        ASSERT_EQ(nif->napi.size(), 1u) << name;
        EXPECT_EQ(nif->napi[0].pid, 4242);
        EXPECT_EQ(nif->napi[0].device, "mtk_eth");
    }
    EXPECT_TRUE(snap.interface("wan")->napi.empty()); // a DSA port: its conduit's
    const auto l = coresteer::layout::plan(snap);
    std::size_t pinned = 0;
    for (const auto& t : l.interfaces)
        pinned += t.napiCpus ? 1 : 0;
    EXPECT_EQ(pinned, 1u);
    const auto script = coresteer::layout::makeRouterApplyScript(l, snap, {});
    EXPECT_NE(script.find("mtk_eth\tnapi\t"), std::string::npos);
    EXPECT_EQ(script.find("$(id)"), std::string::npos);
    EXPECT_EQ(script.find("\xe2\x80\xa8"), std::string::npos);
    EXPECT_FALSE(r.executedAnything());
}

// The apply and settle scripts, run by real shells on copies of the board fixtures (never the
// build machine's /proc or /sys).
#include "board_expect.h"
#include "core/collect_local.h"
#include "core/layout/apply.h"
#include "core/layout/planner.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

using namespace coresteer;
namespace fs = std::filesystem;
using coresteer::test::slurp;

namespace {

class ApplyScriptTest : public ::testing::TestWithParam<std::string> {
protected:
    void SetUp() override {
        std::string name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
        for (auto& c : name)
            if (c == '/')
                c = '_';
        m_dir = fs::path(CORESTEER_TEST_TMP) / "apply" / name;
        fs::remove_all(m_dir);
        fs::create_directories(m_dir);
        m_root = m_dir / "root";
        fs::copy(test::boardsDir() / "nanopi-r6s-friendlywrt", m_root,
                 fs::copy_options::recursive | fs::copy_options::copy_symlinks);
    }
    // Runs `script` with the shell under test; returns stdout, and the exit status in *rc.
    std::string run(const std::string& script, int* rc) {
        std::ofstream(m_dir / "s.sh") << script;
        const std::string cmd = GetParam() + " -s < '" + (m_dir / "s.sh").string() + "' > '" +
                                (m_dir / "out").string() + "' 2> '" + (m_dir / "err").string() +
                                "'";
        const int st = std::system(cmd.c_str());
        *rc = WEXITSTATUS(st);
        return slurp(m_dir / "out");
    }
    std::string value(const std::string& rel) {
        auto s = slurp(m_root / rel);
        return s.substr(0, s.find('\n'));
    }
    std::vector<Write> changes(const Snapshot& snap) {
        std::vector<Write> w;
        for (const auto& x : resolve(plan(snap), snap).writes)
            if (x.changes())
                w.push_back(x);
        return w;
    }
    fs::path m_dir, m_root;
};

} // namespace

TEST_P(ApplyScriptTest, AppliesArmsTheRevertAndConfirms) {
    // A fixture's effective_affinity files do not follow writes as the kernel's do: without
    // them, every target reads back as applied.
    for (const auto& e : fs::recursive_directory_iterator(m_root / "proc/irq"))
        if (e.path().filename() == "effective_affinity")
            fs::remove(e.path());
    const auto snap = buildSnapshot(collectLocal(m_root));
    const auto writes = changes(snap);
    ASSERT_FALSE(writes.empty());
    const auto s = makeApplyScript(writes, m_root.string(), {30, true});
    int rc = -1;
    const auto out = run(s.script, &rc);
    ASSERT_EQ(rc, 0) << slurp(m_dir / "err");
    std::string error;
    const auto rep = parseApplyOutput(out, s.token, writes, &error);
    ASSERT_TRUE(rep.has_value()) << error;
    EXPECT_TRUE(rep->revertArmed);
    for (const auto& r : rep->results) {
        EXPECT_EQ(r.status, TargetResult::Status::Applied) << r.write.path << " " << r.error;
        EXPECT_EQ(value(r.write.path), r.write.value);
    }
    // The old values are captured on the router, and a revert is pending.
    const auto data = slurp(m_root / "tmp/coresteer/revert.data");
    EXPECT_NE(data.find(writes.front().path + "\t" + writes.front().current), std::string::npos)
        << data;
    EXPECT_TRUE(fs::exists(m_root / "tmp/coresteer/pending"));
    // A second apply is refused while one is pending.
    run(s.script, &rc);
    EXPECT_EQ(rc, 4);
    // Claiming `pending` (what confirm does) stops the timer from restoring anything.
    ASSERT_EQ(std::rename((m_root / "tmp/coresteer/pending").c_str(),
                          (m_root / "tmp/coresteer/claimed.test").c_str()),
              0);
    for (const auto& r : rep->results)
        EXPECT_EQ(value(r.write.path), r.write.value);
}

TEST_P(ApplyScriptTest, RevertsByItselfWhenNotConfirmed) {
    const auto snap = buildSnapshot(collectLocal(m_root));
    const auto writes = changes(snap);
    const auto s = makeApplyScript(writes, m_root.string(), {1, true});
    int rc = -1;
    run(s.script, &rc);
    ASSERT_EQ(rc, 0) << slurp(m_dir / "err");
    EXPECT_EQ(value(writes.front().path), writes.front().value);
    // The timer claims `pending`, restores, then drops its claim.
    auto busy = [&] {
        return fs::exists(m_root / "tmp/coresteer/pending") ||
               fs::exists(m_root / "tmp/coresteer/claimed.timer");
    };
    for (int i = 0; i < 50 && busy(); ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    EXPECT_FALSE(fs::exists(m_root / "tmp/coresteer/pending"));
    for (const auto& w : writes)
        EXPECT_EQ(value(w.path), w.current) << w.path;
}

TEST_P(ApplyScriptTest, UnreadableCurrentValueStopsBeforeAnyWrite) {
    const auto snap = buildSnapshot(collectLocal(m_root));
    auto writes = changes(snap);
    ASSERT_GE(writes.size(), 3u);
    // A directory where the third file was: its value cannot be captured, so nothing is written.
    const auto victim = m_root / writes[2].path;
    fs::remove(victim);
    fs::create_directories(victim);
    const auto s = makeApplyScript(writes, m_root.string(), {30, true});
    int rc = -1;
    run(s.script, &rc);
    EXPECT_EQ(rc, 5);
    EXPECT_NE(slurp(m_dir / "err").find("cannot read the current value"), std::string::npos);
    for (std::size_t i = 0; i < 2; ++i)
        EXPECT_EQ(value(writes[i].path), writes[i].current);
    EXPECT_FALSE(fs::exists(m_root / "tmp/coresteer/pending"));
}

TEST_P(ApplyScriptTest, WriteFailureMidwayRollsBackEverything) {
    const auto snap = buildSnapshot(collectLocal(m_root));
    auto writes = changes(snap);
    ASSERT_GE(writes.size(), 4u);
    auto s = makeApplyScript(writes, m_root.string(), {30, true});
    // Fault injection: after the values are captured, the third target turns into a directory,
    // so writing it fails with EISDIR, which is not a kernel refusal.
    const std::string victim = (m_root / writes[2].path).string();
    const std::string marker = "mv \"$D/revert.new\" \"$D/revert.data\" || exit 3\n";
    const auto at = s.script.find(marker);
    ASSERT_NE(at, std::string::npos);
    s.script.insert(at + marker.size(), "rm -f '" + victim + "'; mkdir '" + victim + "'\n");
    int rc = -1;
    const auto out = run(s.script, &rc);
    ASSERT_EQ(rc, 6) << slurp(m_dir / "err");
    std::string error;
    const auto rep = parseApplyOutput(out, s.token, writes, &error);
    ASSERT_TRUE(rep.has_value()) << error;
    EXPECT_TRUE(rep->rolledBack);
    EXPECT_EQ(rep->results[0].status, TargetResult::Status::Applied);
    EXPECT_EQ(rep->results[1].status, TargetResult::Status::Applied);
    EXPECT_EQ(rep->results[2].status, TargetResult::Status::Failed);
    EXPECT_NE(rep->results[2].error.find("irectory"), std::string::npos) << rep->results[2].error;
    EXPECT_EQ(rep->results[3].status, TargetResult::Status::NotRun);
    EXPECT_EQ(value(writes[0].path), writes[0].current); // restored
    EXPECT_EQ(value(writes[1].path), writes[1].current);
    EXPECT_FALSE(fs::exists(m_root / "tmp/coresteer/pending"));
}

INSTANTIATE_TEST_SUITE_P(Shells, ApplyScriptTest,
                         ::testing::Values("/bin/dash", "/bin/busybox ash", "/bin/bash"),
                         [](const auto& p) {
                             std::string n = p.param;
                             for (auto& c : n)
                                 if (!isalnum(static_cast<unsigned char>(c)))
                                     c = '_';
                             return n;
                         });

TEST(ApplyScript, AnEffectiveMaskOutsideTheRequestIsReported) {
    Write w{Write::Kind::IrqAffinity, "IRQ 5", "proc/irq/5/smp_affinity", "01", "02", ""};
    const std::string t = "@@aptest";
    const std::string out = t + " W ok proc/irq/5/smp_affinity\n" + t +
                            " B proc/irq/5/smp_affinity 01\n" + t +
                            " B proc/irq/5/effective_affinity 02\n" + t + " DONE\n";
    std::string err;
    auto rep = parseApplyOutput(out, t, {w}, &err);
    ASSERT_TRUE(rep.has_value()) << err;
    EXPECT_EQ(rep->results[0].status, TargetResult::Status::AppliedPending);
    EXPECT_EQ(rep->results[0].effective, "02");
    // Inside the request (the kernel picks one CPU of several): applied.
    w.value = "03";
    std::string inside = out;
    inside.replace(inside.find("smp_affinity 01"), 15, "smp_affinity 03");
    rep = parseApplyOutput(inside, t, {w}, &err);
    ASSERT_TRUE(rep.has_value());
    EXPECT_EQ(rep->results[0].status, TargetResult::Status::Applied);
    // A refusal is kept as such; a cut answer is no answer.
    const std::string refused =
        t + " W refused proc/irq/5/smp_affinity sh: write error: Invalid argument\n" + t +
        " DONE\n";
    rep = parseApplyOutput(refused, t, {w}, &err);
    ASSERT_TRUE(rep.has_value());
    EXPECT_EQ(rep->results[0].status, TargetResult::Status::Refused);
    EXPECT_NE(rep->results[0].error.find("Invalid argument"), std::string::npos);
    EXPECT_FALSE(parseApplyOutput(t + " W ok proc/irq/5/smp_affinity\n", t, {w}, &err).has_value());
}

TEST(ApplyScript, KernelRefusalsAreTold) {
    EXPECT_TRUE(isKernelRefusal("sh: write error: Invalid argument"));
    EXPECT_TRUE(isKernelRefusal("printf: write error: Input/output error"));
    EXPECT_TRUE(isKernelRefusal("ash: write error: Value too large for defined data type"));
    EXPECT_FALSE(isKernelRefusal("sh: can't create /x: Permission denied"));
    EXPECT_FALSE(isKernelRefusal("write error: No space left on device"));
}

TEST(ApplyScript, InterfaceNamesAreCheckedAgainstTheKernelRules) {
    EXPECT_TRUE(validInterfaceName("eth0"));
    EXPECT_TRUE(validInterfaceName("$(reboot)")); // legal for the kernel; quoted everywhere
    for (const char* bad : {"", ".", "..", "a/b", "a:b", "a b", "new\nline", "0123456789abcdef"})
        EXPECT_FALSE(validInterfaceName(bad)) << bad;
}

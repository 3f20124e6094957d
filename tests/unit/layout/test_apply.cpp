// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The apply and settle scripts, run by real shells on copies of the board fixtures (never the
// build machine's /proc or /sys).
#include "core/collect/collect_local.h"
#include "core/layout/apply.h"
#include "core/layout/planner.h"
#include "tests/support/board_expect.h"
#include "tests/support/test_names.h"

#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace coresteer;
using namespace coresteer::layout;
namespace fs = std::filesystem;
using coresteer::test::slurp;

namespace {

// "busybox-applets": BusyBox ash with nothing but BusyBox's applets on its PATH, as on OpenWrt,
// less its flock (Debian's BusyBox has none): the mkdir lock is what serialises there.
std::string shellCommand(const std::string& param) {
    if (param != "busybox-applets")
        return param;
    const auto bin = fs::path(CORESTEER_TEST_TMP) / "busybox-applets";
    if (!fs::exists(bin / "ls")) {
        fs::create_directories(bin);
        const std::string cmd = "/bin/busybox --install -s '" + bin.string() + "'";
        if (std::system(cmd.c_str()) != 0)
            return "false";
    }
    return "env PATH='" + bin.string() + "' /bin/busybox ash";
}

// Running, not ended (a zombie waiting for whoever reaps orphans here has ended).
bool alive(pid_t pid) {
    const auto stat = test::slurp("/proc/" + std::to_string(pid) + "/stat");
    const auto paren = stat.rfind(')');
    return ::kill(pid, 0) == 0 && paren != std::string::npos && paren + 2 < stat.size() &&
           stat[paren + 2] != 'Z';
}

class ApplyScriptTest : public ::testing::TestWithParam<std::string> {
protected:
    void SetUp() override {
        m_dir = fs::path(CORESTEER_TEST_TMP) / "apply" / test::currentTestFileName();
        fs::remove_all(m_dir);
        fs::create_directories(m_dir);
        m_root = m_dir / "root";
        fs::copy(test::boardDir("nanopi-r6s-friendlywrt"), m_root,
                 fs::copy_options::recursive | fs::copy_options::copy_symlinks);
    }
    // Runs `script` with the shell under test; returns stdout, and the exit status in *rc;
    // stderr goes to m_dir/<tag>.err ("err" for the default tag).
    std::string run(const std::string& script, int* rc, const std::string& tag = "") {
        const auto base = m_dir / (tag.empty() ? std::string("s") : tag);
        const auto err = tag.empty() ? m_dir / "err" : fs::path(base.string() + ".err");
        std::ofstream(base.string() + ".sh") << script;
        const std::string cmd = shellCommand(GetParam()) + " -s < '" + base.string() + ".sh' > '" +
                                base.string() + ".out' 2> '" + err.string() + "'";
        const int st = std::system(cmd.c_str());
        *rc = WEXITSTATUS(st);
        return slurp(base.string() + ".out");
    }
    fs::path state() const { return m_root / "tmp/coresteer"; }
    // Every target's value as it is now.
    std::vector<std::string> values(const std::vector<Write>& writes) {
        std::vector<std::string> v;
        for (const auto& w : writes)
            v.push_back(value(w.path));
        return v;
    }
    static std::vector<std::string> currents(const std::vector<Write>& writes) {
        std::vector<std::string> v;
        for (const auto& w : writes)
            v.push_back(w.current);
        return v;
    }
    // Waits up to `seconds` for the armed revert to end.
    void waitForTimer(int seconds) {
        for (int i = 0; i < seconds * 10 &&
                        (fs::exists(state() / "pending") || fs::exists(state() / "claimed") ||
                         fs::exists(state() / "lock.d"));
             ++i)
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
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
    const auto s = makeApplyScript(writes, m_root.string(), {5, true});
    int rc = -1;
    run(s.script, &rc);
    ASSERT_EQ(rc, 0) << slurp(m_dir / "err");
    EXPECT_EQ(value(writes.front().path), writes.front().value);
    // The timer claims `pending`, restores, then drops its claim.
    waitForTimer(15);
    EXPECT_FALSE(fs::exists(state() / "pending"));
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
    const std::string marker = "mv -f \"$D/revert.new\" \"$D/revert.data\" || exit 3\n";
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

// /tmp is every local user's: whatever another user made at the state directory's name, root
// must neither use it nor write through it.
TEST_P(ApplyScriptTest, RefusesAStateDirectoryItDidNotMake) {
    ASSERT_EQ(::geteuid(), 0u) << "the suite runs as root (files owned by nobody)";
    const auto snap = buildSnapshot(collectLocal(m_root));
    const auto writes = changes(snap);
    const auto before = values(writes);
    const auto s = makeApplyScript(writes, m_root.string(), {30, true});
    const auto elsewhere = m_dir / "elsewhere";
    fs::create_directories(elsewhere);
    struct Case {
        const char* name;
        std::function<void()> make;
        const char* message;
    };
    const std::vector<Case> cases = {
        {"another user's",
         [&] {
             fs::create_directories(state());
             ::chmod(state().c_str(), 0700);
             ASSERT_EQ(::chown(state().c_str(), 65534, 65534), 0);
         },
         "belongs to uid 65534"},
        {"world-writable",
         [&] {
             fs::create_directories(state());
             ::chmod(state().c_str(), 01777);
         },
         "not drwx------"},
        {"a link to a directory", [&] { fs::create_directory_symlink(elsewhere, state()); },
         "is a link"},
        {"a file", [&] { std::ofstream(state()) << "x"; }, "not a directory"},
    };
    for (const auto& c : cases) {
        SCOPED_TRACE(c.name);
        fs::remove_all(state());
        c.make();
        int rc = -1;
        run(s.script, &rc);
        EXPECT_EQ(rc, 3);
        EXPECT_NE(slurp(m_dir / "err").find(c.message), std::string::npos) << slurp(m_dir / "err");
        EXPECT_EQ(values(writes), before);
        EXPECT_TRUE(fs::is_empty(elsewhere));
        // Nothing was made in a directory that is not coresteer's.
        if (fs::is_directory(state()) && !fs::is_symlink(state())) {
            EXPECT_TRUE(fs::is_empty(state()));
        }
        for (auto action : {PendingAction::Confirm, PendingAction::Revert}) {
            run(makeSettleScript(m_root.string(), action), &rc);
            EXPECT_EQ(rc, 3);
        }
        fs::remove_all(state());
    }
    // Made by coresteer itself: a directory of its own, mode 0700.
    int rc = -1;
    run(s.script, &rc);
    ASSERT_EQ(rc, 0) << slurp(m_dir / "err");
    struct stat st {};
    ASSERT_EQ(::lstat(state().c_str(), &st), 0);
    EXPECT_TRUE(S_ISDIR(st.st_mode));
    EXPECT_EQ(st.st_mode & 07777, 0700u);
    EXPECT_EQ(st.st_uid, ::geteuid());
}

// A link at any state file (however it got there) is refused, never written through.
TEST_P(ApplyScriptTest, RefusesALinkAtEveryStateFile) {
    ASSERT_EQ(::geteuid(), 0u) << "the suite runs as root (files owned by nobody)";
    const auto snap = buildSnapshot(collectLocal(m_root));
    const auto writes = changes(snap);
    const auto before = values(writes);
    const auto victim = m_dir / "victim";
    for (const char* f : {"lock", "revert.new", "revert.data", "pending", "revert.sh", "claimed",
                          "lock.d", "persist.wait"}) {
        SCOPED_TRACE(f);
        fs::remove_all(state());
        fs::create_directories(state());
        ::chmod(state().c_str(), 0700);
        std::ofstream(victim) << "precious\n";
        ASSERT_EQ(::chown(victim.c_str(), 65534, 65534), 0);
        fs::create_symlink(victim, state() / f);
        int rc = -1;
        run(makeApplyScript(writes, m_root.string(), {30, true}).script, &rc);
        EXPECT_EQ(rc, 3);
        EXPECT_NE(slurp(m_dir / "err").find(std::string(f) + " is a link"), std::string::npos)
            << slurp(m_dir / "err");
        for (auto action : {PendingAction::Confirm, PendingAction::Revert}) {
            run(makeSettleScript(m_root.string(), action), &rc);
            EXPECT_EQ(rc, 3);
        }
        EXPECT_EQ(slurp(victim), "precious\n");
        EXPECT_EQ(values(writes), before);
    }
}

// revert.data is read back as data: a line that names anything but a value coresteer sets is
// left alone, whatever it names.
TEST_P(ApplyScriptTest, RestoresOnlyTheValuesItSets) {
    ASSERT_EQ(::geteuid(), 0u) << "the suite runs as root (files owned by nobody)";
    const auto snap = buildSnapshot(collectLocal(m_root));
    const auto writes = changes(snap);
    ASSERT_FALSE(writes.empty());
    fs::create_directories(m_root / "etc");
    std::ofstream(m_root / "etc/shadow") << "root:secret:::\n";
    ASSERT_EQ(::chown((m_root / "etc/shadow").c_str(), 65534, 65534), 0);
    std::ofstream(m_dir / "outside") << "outside\n";
    const auto& w = writes.front();
    const std::string lines[] = {
        "etc/shadow\tff",
        "/etc/shadow\tff",
        "../outside\tff",
        "proc/irq/../../etc/shadow\tff",
        "proc/irq/1/../../../etc/shadow\tff",
        "sys/class/net/../../../etc/shadow/queues/rx-0/rps_cpus\tff",
        "sys/class/net/eth0/queues/rx-0/../../../../../etc/shadow\tff",
        "sys/class/net/eth0/address\tff",
        "proc/irq/abc/smp_affinity\tff",
        "napi:1\tff", // init, not a kernel thread
        "ethtool:../x:rx-usecs\t5",
        w.path + "\t$(touch '" + (m_dir / "ran").string() + "')",
        w.path + "\t" + w.current, // the one line that is coresteer's
    };
    int rc = -1;
    // Armed by a real apply, then revert.data replaced (as a compromised root could).
    run(makeApplyScript(writes, m_root.string(), {60, true}).script, &rc);
    ASSERT_EQ(rc, 0) << slurp(m_dir / "err");
    {
        std::ofstream data(state() / "revert.data", std::ios::trunc);
        for (const auto& l : lines)
            data << l << "\n";
    }
    run(makeSettleScript(m_root.string(), PendingAction::Revert), &rc);
    EXPECT_EQ(rc, 0) << slurp(m_dir / "err");
    EXPECT_EQ(slurp(m_root / "etc/shadow"), "root:secret:::\n");
    EXPECT_EQ(slurp(m_dir / "outside"), "outside\n");
    EXPECT_FALSE(fs::exists(m_dir / "ran"));
    EXPECT_EQ(value(w.path), w.current); // the valid line was restored
    const auto err = slurp(m_dir / "err");
    for (std::size_t i = 1; i < std::size(lines); ++i)
        EXPECT_NE(err.find("revert.data line " + std::to_string(i) + " is not a value"),
                  std::string::npos)
            << i << "\n"
            << err;
    EXPECT_EQ(err.find("revert.data line " + std::to_string(std::size(lines))), std::string::npos);
}

// Confirm and revert end the revert job they armed, and no other process: `pending` may name a
// PID that has ended and been taken by something else.
TEST_P(ApplyScriptTest, EndsOnlyItsOwnRevertJob) {
    const auto snap = buildSnapshot(collectLocal(m_root));
    const auto writes = changes(snap);
    int rc = -1;
    run(makeApplyScript(writes, m_root.string(), {60, true}).script, &rc);
    ASSERT_EQ(rc, 0) << slurp(m_dir / "err");
    pid_t job = 0;
    std::istringstream(slurp(state() / "pending")) >> job;
    ASSERT_GT(job, 0);
    EXPECT_TRUE(alive(job));
    run(makeSettleScript(m_root.string(), PendingAction::Confirm), &rc);
    ASSERT_EQ(rc, 0) << slurp(m_dir / "err");
    for (int i = 0; i < 50 && alive(job); ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    ::waitpid(job, nullptr, WNOHANG);
    EXPECT_FALSE(alive(job) &&
                 slurp("/proc/" + std::to_string(job) + "/cmdline").find("revert.sh") !=
                     std::string::npos);

    // An unrelated process in `pending`: claimed, not killed.
    const std::string spawn = "sleep 300 > /dev/null 2>&1 & echo $!";
    const auto pidText = test::capture(spawn);
    const pid_t other = std::stoi(pidText);
    ASSERT_TRUE(alive(other));
    for (const std::string& pending :
         {std::to_string(other) + "\n", std::to_string(other) + " ap0123 12:00:00 192.0.2.1\n"})
        for (auto action : {PendingAction::Confirm, PendingAction::Revert}) {
            std::ofstream(state() / "pending", std::ios::trunc) << pending;
            run(makeSettleScript(m_root.string(), action), &rc);
            EXPECT_EQ(rc, 0) << slurp(m_dir / "err");
            EXPECT_FALSE(fs::exists(state() / "pending"));
            EXPECT_TRUE(alive(other));
        }
    ::kill(other, SIGKILL);
}

// Six applies at once, ten rounds: one applies, five are refused with the reason, and the
// revert (the timer, in the last round) brings every value back each time. The last round's
// timer is 12 s: with 5 s, a machine busy with the whole suite once let it fire before the
// other five had their turn, and the next one then applied, as it should.
TEST_P(ApplyScriptTest, ConcurrentAppliesTakeTurns) {
    const auto snap = buildSnapshot(collectLocal(m_root));
    const auto writes = changes(snap);
    ASSERT_FALSE(writes.empty());
    const auto original = currents(writes);
    ASSERT_EQ(values(writes), original);
    constexpr int kRounds = 10, kApplies = 6;
    for (int round = 0; round < kRounds; ++round) {
        SCOPED_TRACE("round " + std::to_string(round));
        const bool last = round == kRounds - 1;
        std::vector<ApplyScript> scripts;
        for (int i = 0; i < kApplies; ++i)
            scripts.push_back(makeApplyScript(writes, m_root.string(), {last ? 12 : 60, true}));
        std::vector<int> rcs(kApplies, -1);
        std::vector<std::string> outs(kApplies);
        std::vector<std::thread> threads;
        for (int i = 0; i < kApplies; ++i)
            threads.emplace_back(
                [&, i] { outs[i] = run(scripts[i].script, &rcs[i], "c" + std::to_string(i)); });
        for (auto& t : threads)
            t.join();
        int applied = 0;
        for (int i = 0; i < kApplies; ++i) {
            const auto err = slurp(m_dir / ("c" + std::to_string(i) + ".err"));
            if (rcs[i] == 0) {
                ++applied;
                std::string error;
                const auto rep = parseApplyOutput(outs[i], scripts[i].token, writes, &error);
                ASSERT_TRUE(rep) << error;
                EXPECT_TRUE(rep->revertArmed);
            } else {
                EXPECT_EQ(rcs[i], 4) << err;
                EXPECT_NE(err.find("an apply is pending since "), std::string::npos) << err;
                EXPECT_NE(err.find("confirm or revert it first"), std::string::npos) << err;
            }
        }
        EXPECT_EQ(applied, 1);
        for (const auto& w : writes)
            EXPECT_EQ(value(w.path), w.value) << w.path;
        if (last) {
            waitForTimer(30);
        } else {
            int rc = -1;
            run(makeSettleScript(m_root.string(), PendingAction::Revert), &rc);
            EXPECT_EQ(rc, 0) << slurp(m_dir / "err");
        }
        EXPECT_EQ(values(writes), original);
        EXPECT_FALSE(fs::exists(state() / "pending"));
        EXPECT_FALSE(fs::exists(state() / "revert.new"));
        EXPECT_FALSE(fs::exists(state() / "lock.d"));
    }
}

// The revert time is checked by the router script itself, whatever made the number.
TEST_P(ApplyScriptTest, RevertTimeOutOfRangeIsRefusedOnTheRouter) {
    const auto snap = buildSnapshot(collectLocal(m_root));
    const auto writes = changes(snap);
    const auto before = values(writes);
    for (int secs : {0, 4, 86401, -1}) {
        SCOPED_TRACE(secs);
        int rc = -1;
        run(makeApplyScript(writes, m_root.string(), {secs, true}).script, &rc);
        EXPECT_EQ(rc, 2);
        EXPECT_NE(slurp(m_dir / "err").find("the revert time must be 5 to 86400 seconds"),
                  std::string::npos)
            << slurp(m_dir / "err");
        EXPECT_EQ(values(writes), before);
        EXPECT_FALSE(fs::exists(state() / "pending"));
    }
}

// The apply script of `writes` on `root` with a 5 s timer, and `code` right after the first
// `marker` in it (a stall put in on purpose). Fails the test when the marker is not there.
template <class Writes>
auto withTimerAndStall(const Writes& writes, const fs::path& root, const std::string& marker,
                       const std::string& code) {
    auto s = makeApplyScript(writes, root.string(), {5, true});
    const auto at = s.script.find(marker);
    EXPECT_NE(at, std::string::npos) << marker;
    if (at != std::string::npos)
        s.script.insert(at + marker.size(), code);
    return s;
}

// A timer that comes due while the apply is still writing waits for it, then restores every
// value; it never runs in the middle of the writes.
TEST_P(ApplyScriptTest, TimerWaitsForAnApplyStillWriting) {
    const auto snap = buildSnapshot(collectLocal(m_root));
    const auto writes = changes(snap);
    ASSERT_GE(writes.size(), 2u);
    // The apply stalls for 7 s between arming the timer and writing.
    const auto s =
        withTimerAndStall(writes, m_root, "printf '%s A %s\\n' \"$T\" \"$SECS\"\n", "sleep 7\n");
    int rc = -1;
    const auto out = run(s.script, &rc);
    ASSERT_EQ(rc, 0) << slurp(m_dir / "err");
    waitForTimer(15);
    EXPECT_EQ(values(writes), currents(writes));
}

// An apply that stalls while it holds the state lock (its connection died, a command hangs) is
// not waited for without end: 5 s after the timer comes due, the timer ends it (the process
// `applying` names, never another) and restores every value.
TEST_P(ApplyScriptTest, TimerEndsAnApplyThatStalls) {
    const auto snap = buildSnapshot(collectLocal(m_root));
    const auto writes = changes(snap);
    ASSERT_GE(writes.size(), 2u);
    // The second write stalls (the first one happened).
    const auto pidFile = m_dir / "stall.pid";
    const auto s = withTimerAndStall(
        writes, m_root, "\nw() {\n",
        "    [ -z \"${wrote:-}\" ] || [ -n \"${slept:-}\" ] || { slept=1; sleep 29 & echo $! >'" +
            pidFile.string() + "'; wait $!; }\n    wrote=1\n");
    int rc = -1;
    run(s.script, &rc); // returns when the timer has ended it (it would sleep on for 29 s)
    EXPECT_EQ(rc, 128 + SIGTERM);
    waitForTimer(10);
    EXPECT_EQ(values(writes), currents(writes));
    EXPECT_FALSE(fs::exists(state() / "pending"));
    // The stalled command itself outlives its shell here (no session leader to take it along).
    if (const auto pid = std::atoi(slurp(pidFile).c_str()); pid > 1)
        ::kill(pid, SIGKILL);
}

INSTANTIATE_TEST_SUITE_P(Shells, ApplyScriptTest,
                         ::testing::Values("/bin/dash", "/bin/busybox ash", "/bin/bash",
                                           "busybox-applets"),
                         [](const auto& p) { return test::paramTestName(p.param); });

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

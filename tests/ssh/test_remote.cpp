// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// Work on a router over SSH: the snapshot in one round trip, the live sampler and its caps,
// apply with its revert timer, persist and unpersist.
#include "tests/ssh/ssh_fixture.h"

#include <sstream>

using namespace coresteer;
using namespace coresteer::layout;
using namespace coresteer::live;
using namespace coresteer::test;
namespace fs = std::filesystem;

TEST_P(Ssh, SnapshotOverSshEqualsTheLocalOneForEveryBoard) {
    ScriptedPrompter p;
    Session s(target(), p);
    ASSERT_TRUE(s.connect()) << s.error().message;
    for (const auto& board : test::boardNames()) {
        const auto root = (test::boardDir(board)).string();
        std::string error;
        const auto remote = collectRemote(s, root, &error);
        ASSERT_TRUE(remote.has_value()) << board << ": " << error;
        auto local = collectLocal(root);
        EXPECT_EQ(remote->entries().size(), local.entries().size()) << board;
        for (const auto& [path, e] : local.entries()) {
            const auto* o = remote->get(path);
            EXPECT_TRUE(o && *o == e) << board << ": " << path;
        }
        auto a = toJson(buildSnapshot(*remote)), b = toJson(buildSnapshot(local));
        a.erase("origin");
        b.erase("origin");
        EXPECT_EQ(a, b) << board;
    }
}

TEST_P(Ssh, ServerKilledMidTransferGivesAnErrorAndNoSnapshot) {
    // A root whose last file is a FIFO that nobody writes: the collector blocks there, after most
    // of the output is sent, and the server side is killed.
    const auto root = m_tmp / "root";
    fs::copy(test::boardDir("nanopi-r4s"), root,
             fs::copy_options::recursive | fs::copy_options::copy_symlinks);
    fs::remove(root / "etc/os-release");
    ASSERT_EQ(::mkfifo((root / "etc/os-release").c_str(), 0644), 0);
    ScriptedPrompter p;
    Session s(target(), p);
    ASSERT_TRUE(s.connect()) << s.error().message;
    std::thread killer([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(700));
        (void)std::system(("pkill -KILL -u " + env("CS_SSH_USER") + " -x cat").c_str());
        (void)std::system(("pkill -KILL -u " + env("CS_SSH_USER")).c_str());
    });
    std::string error;
    const auto start = Clock::now();
    const auto bundle = collectRemote(s, root.string(), &error);
    killer.join();
    EXPECT_FALSE(bundle.has_value());
    EXPECT_FALSE(error.empty());
    EXPECT_LT(Clock::now() - start, std::chrono::seconds(8));
}

// The live sampler's one long-lived channel: ticks paced by the client, the same counters as
// the files read directly, and a tick with nothing new costs a few bytes.
TEST_P(Ssh, LiveSamplerOverOneChannel) {
    const auto root = m_tmp / "root";
    fs::create_directories(root);
    fs::copy(test::boardDir("nanopi-r6s-friendlywrt") / "proc", root / "proc",
             fs::copy_options::recursive | fs::copy_options::copy_symlinks);
    std::ofstream(root / "proc/uptime") << "500.00 100.00\n";
    (void)std::system(("chmod -R a+rwX '" + m_tmp.string() + "'").c_str());
    ScriptedPrompter p;
    Session s(target(), p);
    ASSERT_TRUE(s.connect()) << s.error().message;
    auto remote = sshSampleSource(s, root.string());
    auto local = localSampleSource(root.string());
    std::string error;
    const auto a = remote->next(&error);
    ASSERT_TRUE(a) << error;
    const auto first = remote->bytesIn();
    const auto direct = local->next(&error);
    ASSERT_TRUE(direct) << error;
    ASSERT_EQ(a->stat.cpus.size(), direct->stat.cpus.size());
    for (std::size_t i = 0; i < a->stat.cpus.size(); ++i)
        EXPECT_EQ(a->stat.cpus[i], direct->stat.cpus[i]);
    EXPECT_EQ(a->netdev.size(), direct->netdev.size());
    std::ofstream(root / "proc/uptime") << "500.10 100.00\n";
    const auto b = remote->next(&error);
    ASSERT_TRUE(b) << error;
    // The second tick, well within a second of the first, read /proc/stat alone, and not the
    // uptime: it is dated by the CPUs' times, which did not move here, so a millisecond on.
    EXPECT_DOUBLE_EQ(b->uptime, 500.001);
    // Its other counters are the first tick's, at the first tick's uptime, and hold no rates.
    EXPECT_DOUBLE_EQ(b->countersUptime, 500.00);
    EXPECT_EQ(b->interrupts.rows.size(), a->interrupts.rows.size());
    EXPECT_EQ(remote->bytesIn() - first, std::string("T - s\nE\n").size());
    // Every CPU's idle time 10 ticks on: a tenth of a second after the first tick, as the
    // tick's texts say too (a recording keeps its date).
    {
        std::istringstream in(slurp(root / "proc/stat"));
        std::string out, l;
        while (std::getline(in, l)) {
            std::istringstream f(l);
            std::string name;
            std::uint64_t user = 0, nice = 0, sys = 0, idle = 0;
            if (l.starts_with("cpu") && (f >> name >> user >> nice >> sys >> idle)) {
                std::string rest;
                std::getline(f, rest);
                l = name + " " + std::to_string(user) + " " + std::to_string(nice) + " " +
                    std::to_string(sys) + " " + std::to_string(idle + 10) + rest;
            }
            out += l + "\n";
        }
        std::ofstream(root / "proc/stat") << out;
    }
    const auto b2 = remote->next(&error);
    ASSERT_TRUE(b2) << error;
    EXPECT_DOUBLE_EQ(b2->uptime, 500.10);
    EXPECT_EQ(remote->lastTexts().uptime, "500.100\n");
    EXPECT_DOUBLE_EQ(b2->countersUptime, 500.00);
    const auto r = computeRates(*a, *b);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->countersEnd, 0);
    EXPECT_TRUE(r->irqs.empty());
    EXPECT_TRUE(r->interfaces.empty());
    std::printf("sampler over %s: first tick %llu bytes, an idle tick %llu bytes\n",
                GetParam() == Server::OpenSsh ? "sshd" : "dropbear",
                static_cast<unsigned long long>(first),
                static_cast<unsigned long long>(remote->bytesIn() - first));
    // Asked for every file on every tick, an idle tick is as short.
    auto every = sshSampleSource(s, root.string(), 5000, 0);
    ASSERT_TRUE(every->next(&error)) << error;
    const auto everyFirst = every->bytesIn();
    const auto c = every->next(&error);
    ASSERT_TRUE(c) << error;
    EXPECT_LT(c->countersUptime, 0);
    EXPECT_EQ(every->bytesIn() - everyFirst, std::string("T 500.10\nE\n").size());
    // A root without the files is an error naming /proc/stat, not a crash; the next tick tries
    // again with a new channel.
    auto broken = sshSampleSource(s, (m_tmp / "nothing").string(), 3000);
    EXPECT_FALSE(broken->next(&error));
    EXPECT_NE(error.find("uptime"), std::string::npos) << error;
    EXPECT_TRUE(remote->next(&error)) << error;
}

// A router whose sampler starts a tick and never ends it (tests/ssh/fake_sampler.sh, first on
// the sampler key's PATH, in place of its awk): the session ends at the cap on one tick with an
// error that names it, and this process takes no more memory than that tick. One that sends
// ticks nobody asked for, without end, is stopped too.
TEST_P(Ssh, AnEndlessSamplerStreamEndsAtTheCap) {
    auto t = target(false);
    t.identityFile = env("CS_SAMPLER_KEY");
    ScriptedPrompter p;
    Session s(t, p);
    ASSERT_TRUE(s.connect()) << s.error().message;
    const long before = peakRssKiB();
    ASSERT_GT(before, 0);
    auto src = sshSampleSource(s, (m_tmp / "endless-tick").string(), 60000);
    std::string error;
    EXPECT_FALSE(src->next(&error));
    EXPECT_NE(error.find("16 MiB"), std::string::npos) << error;
    // Most of one tick's worth (the lines kept reach the cap a little before the bytes do),
    // and not much more.
    EXPECT_GT(src->bytesIn(), SampleDecoder::kMaxTickBytes / 10 * 9);
    EXPECT_LE(src->bytesIn(), SampleDecoder::kMaxTickBytes + (4u << 20));
    const long grew = peakRssKiB() - before;
    std::printf("endless tick over %s: %llu bytes taken, peak RSS %ld KiB, %ld KiB more\n",
                GetParam() == Server::OpenSsh ? "sshd" : "dropbear",
                static_cast<unsigned long long>(src->bytesIn()), peakRssKiB(), grew);
    EXPECT_LT(grew, kRssSlack * (64 << 10));
    // Asked again, it says so without starting another sampler.
    const auto taken = src->bytesIn();
    EXPECT_FALSE(src->next(&error));
    EXPECT_NE(error.find("stopped for good"), std::string::npos) << error;
    EXPECT_NE(error.find("16 MiB"), std::string::npos) << error;
    EXPECT_EQ(src->bytesIn(), taken);

    auto ticks = sshSampleSource(s, (m_tmp / "endless-ticks").string(), 60000);
    EXPECT_FALSE(ticks->next(&error));
    EXPECT_NE(error.find("ticks"), std::string::npos) << error;
    EXPECT_LT(peakRssKiB() - before, kRssSlack * (64 << 10));
    // The session itself is fine: the next command runs.
    const auto r = s.run("echo fine");
    ASSERT_TRUE(r) << s.error().message;
    EXPECT_EQ(r->out, "fine\n");
}

// The same through `coresteer-cli monitor`, a process of its own: it says the cap on stderr and
// exits with 2, and its peak RSS (VmHWM, read from its /proc entry while it runs: a child's
// ru_maxrss would count the pages of this process it was forked from) stays bounded.
TEST_P(Ssh, MonitorStopsAtTheCapWithBoundedMemory) {
    const auto out = m_tmp / "out", err = m_tmp / "err";
    const std::vector<std::string> args = {CORESTEER_CLI,
                                           "monitor",
                                           "ssh://" + env("CS_SSH_USER") +
                                               "@127.0.0.1:" + std::to_string(port()),
                                           "--root",
                                           (m_tmp / "endless-tick").string(),
                                           "--known-hosts",
                                           (m_tmp / "known_hosts").string(),
                                           "--identity",
                                           env("CS_SAMPLER_KEY"),
                                           "--accept-new-host-key",
                                           "--json",
                                           "--duration",
                                           "5"};
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
        std::vector<char*> argv;
        for (const auto& a : args)
            argv.push_back(const_cast<char*>(a.c_str()));
        argv.push_back(nullptr);
        const int in = ::open("/dev/null", O_RDONLY);
        const int o = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        const int e = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        ::dup2(in, 0);
        ::dup2(o, 1);
        ::dup2(e, 2);
        ::setsid(); // no terminal to ask on
        ::execv(argv[0], argv.data());
        ::_exit(127);
    }
    long peak = 0;
    int status = 0;
    const auto statusFile = "/proc/" + std::to_string(pid) + "/status";
    while (::waitpid(pid, &status, WNOHANG) == 0) {
        std::ifstream in(statusFile);
        std::string line;
        while (std::getline(in, line))
            if (line.rfind("VmHWM:", 0) == 0)
                peak = std::max(peak, std::stol(line.substr(6)));
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    ASSERT_TRUE(WIFEXITED(status)) << "signal " << WTERMSIG(status) << ": " << slurp(err);
    EXPECT_EQ(WEXITSTATUS(status), 2) << slurp(err);
    EXPECT_NE(slurp(err).find("16 MiB"), std::string::npos) << slurp(err);
    std::printf("coresteer-cli monitor against an endless tick over %s: peak RSS %ld KiB\n",
                GetParam() == Server::OpenSsh ? "sshd" : "dropbear", peak);
    EXPECT_GT(peak, 0);
    EXPECT_LT(peak, kRssSlack * (96 << 10));
}

TEST_P(Ssh, ApplyThenConfirmOverANewConnection) {
    const auto root = writableBoard(m_tmp, "nanopi-r6s-openwrt");
    ScriptedPrompter p;
    const auto router = Router::remote(target(), p, root.string());
    std::string error;
    ASSERT_TRUE(router->open(&error)) << error;
    auto bundle = router->collect(&error);
    ASSERT_TRUE(bundle) << error;
    const auto snap = buildSnapshot(*bundle);
    const auto r = resolve(plan(snap), snap);
    const auto rep = router->apply(r, {30, true}, &error);
    ASSERT_TRUE(rep) << error;
    EXPECT_TRUE(rep->revertArmed);
    for (const auto& t : rep->results) {
        EXPECT_NE(t.status, TargetResult::Status::Failed) << t.write.path;
        EXPECT_EQ(firstLine(root / t.write.path), t.write.value) << t.write.path;
    }
    // Confirm over a new connection, as the CLI does.
    const auto second = Router::remote(target(), p, root.string());
    ASSERT_TRUE(second->open(&error)) << error;
    ASSERT_TRUE(second->settle(PendingAction::Confirm, &error)) << error;
    EXPECT_FALSE(second->settle(PendingAction::Confirm, &error));
    EXPECT_NE(error.find("nothing is waiting"), std::string::npos) << error;
    for (const auto& t : rep->results)
        EXPECT_EQ(firstLine(root / t.write.path), t.write.value) << t.write.path;
}

TEST_P(Ssh, ConnectionKilledMidApplyTheRouterRevertsByItself) {
    const auto root = writableBoard(m_tmp, "nanopi-r4s");
    ScriptedPrompter p;
    Session s(target(), p);
    ASSERT_TRUE(s.connect()) << s.error().message;
    std::string error;
    const auto snap = buildSnapshot(*collectRemote(s, root.string(), &error));
    std::vector<Write> writes;
    for (const auto& w : resolve(plan(snap), snap).writes)
        if (w.changes())
            writes.push_back(w);
    ASSERT_GE(writes.size(), 2u);
    auto script = makeApplyScript(writes, root.string(), {5, true});
    // Stall after the first write, as a slow router would, and drop the connection there. The
    // shell stays stalled, holding the state lock; the timer, due after 5 s, waits 5 s more for
    // it, then ends it and restores everything.
    const std::string marker = "\nw() {\n";
    const auto at = script.script.find(marker);
    ASSERT_NE(at, std::string::npos);
    script.script.insert(
        at + marker.size(),
        "    [ -z \"${wrote:-}\" ] || [ -n \"${slept:-}\" ] || { slept=1; sleep 30; }\n"
        "    wrote=1\n");
    std::thread stopper([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(1500));
        s.requestStop();
    });
    EXPECT_FALSE(s.run("sh -s", script.script).has_value());
    stopper.join();
    s.disconnect();
    EXPECT_EQ(firstLine(root / writes[0].path), writes[0].value); // the first write happened
    // Nobody confirms: within the timeout, the timer's wait and a margin, everything is back.
    const auto deadline = Clock::now() + std::chrono::seconds(18);
    while (Clock::now() < deadline && (fs::exists(root / "tmp/coresteer/pending") ||
                                       fs::exists(root / "tmp/coresteer/claimed")))
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
    for (const auto& w : writes)
        EXPECT_EQ(firstLine(root / w.path), w.current) << w.path;
    (void)std::system(("pkill -u " + env("CS_SSH_USER") + " -x sleep").c_str());
}

// Persist writes its files as the SSH user, atomically; the hotplug script it installed brings
// the layout back; unpersist leaves /etc as it was.
TEST_P(Ssh, PersistThenUnpersist) {
    const auto root = writableBoard(m_tmp, "nanopi-r6s-openwrt");
    const std::string conf = "## keep\n/etc/config/\n";
    std::ofstream(root / "etc/sysupgrade.conf") << conf;
    (void)std::system(("chmod -R a+rwX '" + root.string() + "'").c_str());
    ScriptedPrompter p;
    const auto router = Router::remote(target(), p, root.string());
    std::string error;
    ASSERT_TRUE(router->open(&error)) << error;
    const auto bundle = router->collect(&error);
    ASSERT_TRUE(bundle) << error;
    const auto snap = buildSnapshot(*bundle);
    const auto pp = planPersist(plan(snap), snap, {}, &error);
    ASSERT_TRUE(pp) << error;
    const auto rep = router->persist(makePersistScript(*pp, root.string()), &error);
    ASSERT_TRUE(rep) << error;
    EXPECT_EQ(rep->written, (std::vector<std::string>{"/etc/coresteer/layout.json",
                                                      "/etc/hotplug.d/net/95-coresteer"}));
    EXPECT_EQ(rep->sysupgradeAdded,
              (std::vector<std::string>{"/etc/hotplug.d/net/95-coresteer", "/etc/coresteer/"}));
    struct stat st {};
    ASSERT_EQ(::stat((root / "etc/hotplug.d/net/95-coresteer").c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 07777, 0755u);
    const std::string hotplug = "ACTION=add INTERFACE=eth0 CORESTEER_ROOT='" + root.string() +
                                "' CORESTEER_WAIT=0 busybox ash '" + root.string() +
                                "/etc/hotplug.d/net/95-coresteer'";
    ASSERT_EQ(std::system(hotplug.c_str()), 0);
    const auto after = buildSnapshot(collectLocal(root));
    EXPECT_EQ(resolve(pp->layout, after).changeCount(), 0u);
    EXPECT_FALSE(after.system.services.persistedLayout.empty());
    const auto un = router->persist(makeUnpersistScript(root.string()), &error);
    ASSERT_TRUE(un) << error;
    EXPECT_TRUE(un->sysupgradeRestored);
    EXPECT_EQ(slurp(root / "etc/sysupgrade.conf"), conf);
    EXPECT_FALSE(fs::exists(root / "etc/hotplug.d/net/95-coresteer"));
    EXPECT_FALSE(fs::exists(root / "etc/coresteer"));
}

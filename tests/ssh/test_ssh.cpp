// SSH against a real OpenSSH sshd and a real dropbear on 127.0.0.1 (tests/ssh/servers.sh).
#include "core/collect/collect_local.h"
#include "core/collect/collect_remote.h"
#include "core/layout/apply.h"
#include "core/layout/layout_json.h"
#include "core/layout/persist.h"
#include "core/layout/planner.h"
#include "core/live/source.h"
#include "core/live/stream.h"
#include "core/model/snapshot_detail.h"
#include "core/model/snapshot_json.h"
#include "core/router/router.h"
#include "core/ssh/session.h"
#include "servers_env.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <arpa/inet.h>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <map>
#include <netinet/in.h>
#include <sstream>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace coresteer;
using namespace coresteer::ssh;
namespace fs = std::filesystem;
using namespace coresteer::test;
using Clock = std::chrono::steady_clock;

namespace {

const fs::path kDir = fs::path(CORESTEER_TEST_TMP) / "sshd";
// Answers from a script, and remembers what it was asked.
class ScriptedPrompter : public Prompter {
public:
    bool acceptHostKey = true;
    std::optional<std::string> passwordAnswer, passphraseAnswer;
    int hostKeyQuestions = 0, passwordQuestions = 0, passphraseQuestions = 0, kbdQuestions = 0;

    bool acceptUnknownHostKey(const std::string&, const HostKey& key) override {
        ++hostKeyQuestions;
        lastKey = key;
        return acceptHostKey;
    }
    std::optional<std::string> password(const std::string&) override {
        ++passwordQuestions;
        return passwordAnswer;
    }
    std::optional<std::string> passphrase(const std::string&) override {
        ++passphraseQuestions;
        return passphraseAnswer;
    }
    std::optional<std::vector<std::string>>
    keyboardInteractive(const std::string&, const std::string&,
                        const std::vector<Prompt>& prompts) override {
        ++kbdQuestions;
        if (!passwordAnswer)
            return std::nullopt;
        return std::vector<std::string>(prompts.size(), *passwordAnswer);
    }
    HostKey lastKey;
};

class Ssh : public ::testing::TestWithParam<Server> {
protected:
    void SetUp() override {
        const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
        std::string name = info->name();
        for (auto& c : name)
            if (c == '/')
                c = '_';
        m_tmp = kDir / "cases" / name;
        fs::remove_all(m_tmp);
        fs::create_directories(m_tmp / "sshdir");
    }
    int port() const {
        return std::stoi(env(GetParam() == Server::OpenSsh ? "CS_SSHD_PORT" : "CS_DROPBEAR_PORT"));
    }
    Target target(bool withKey = true) const {
        Target t;
        t.host = "127.0.0.1";
        t.port = port();
        t.user = env("CS_SSH_USER");
        t.knownHostsFile = (m_tmp / "known_hosts").string();
        t.sshDir = (m_tmp / "sshdir").string(); // no default identities
        t.configFile = "none";
        t.connectTimeoutMs = 5000;
        t.operationTimeoutMs = 10000;
        if (withKey)
            t.identityFile = env("CS_CLIENT_KEY");
        return t;
    }
    // known_hosts holds the key in `pubFile` (another key than the server's) for this host.
    void pinKnownHost(const std::string& pubFile) const {
        const auto key = slurp(pubFile);
        std::ofstream(m_tmp / "known_hosts")
            << "[127.0.0.1]:" << port() << " " << key.substr(0, key.rfind(' ')) << "\n";
    }
    fs::path m_tmp;
};

} // namespace

TEST_P(Ssh, UnknownHostKeyIsAskedAcceptedAndRemembered) {
    ScriptedPrompter p;
    {
        Session s(target(), p);
        ASSERT_TRUE(s.connect()) << s.error().message;
        EXPECT_EQ(p.hostKeyQuestions, 1);
        EXPECT_EQ(p.lastKey.type, "ssh-ed25519");
        EXPECT_EQ(p.lastKey.fingerprint.rfind("SHA256:", 0), 0u);
        EXPECT_EQ(s.authMethod(), "publickey");
    }
    EXPECT_NE(slurp(m_tmp / "known_hosts").find("ssh-ed25519"), std::string::npos);
    ScriptedPrompter again;
    again.acceptHostKey = false;
    Session s(target(), again);
    ASSERT_TRUE(s.connect()) << s.error().message;
    EXPECT_EQ(again.hostKeyQuestions, 0);
}

TEST_P(Ssh, UnknownHostKeyRefusedByThePersonStopsTheConnection) {
    ScriptedPrompter p;
    p.acceptHostKey = false;
    Session s(target(), p);
    EXPECT_FALSE(s.connect());
    EXPECT_EQ(s.error().kind, ErrorKind::HostKeyUnknown);
    EXPECT_FALSE(fs::exists(m_tmp / "known_hosts") && !slurp(m_tmp / "known_hosts").empty());
}

TEST_P(Ssh, ChangedHostKeyIsRefusedWithBothFingerprints) {
    pinKnownHost(env("CS_OTHER_HOST_KEY") + ".pub"); // another key for this host and port
    ScriptedPrompter p;
    Session s(target(), p);
    EXPECT_FALSE(s.connect());
    EXPECT_EQ(s.error().kind, ErrorKind::HostKeyChanged);
    EXPECT_EQ(p.hostKeyQuestions, 0); // never offered as a choice
    ASSERT_TRUE(s.knownHostKey().has_value());
    EXPECT_EQ(s.knownHostKey()->fingerprint.rfind("SHA256:", 0), 0u) << s.error().message;
    EXPECT_EQ(s.knownHostKey()->type, "ssh-ed25519");
    EXPECT_NE(s.knownHostKey()->fingerprint, s.hostKey().fingerprint);
    EXPECT_NE(s.error().message.find(s.knownHostKey()->fingerprint), std::string::npos);
    EXPECT_NE(s.error().message.find(s.hostKey().fingerprint), std::string::npos);
    EXPECT_NE(s.error().message.find("CHANGED"), std::string::npos);
}

TEST_P(Ssh, HostKeyOfAnotherTypeIsRefusedToo) {
    // known_hosts knows this host only by an ECDSA key; the server offers Ed25519.
    pinKnownHost(env("CS_OTHER_TYPE_HOST_KEY") + ".pub");
    ScriptedPrompter p;
    Session s(target(), p);
    EXPECT_FALSE(s.connect());
    EXPECT_EQ(s.error().kind, ErrorKind::HostKeyChanged) << s.error().message;
    EXPECT_EQ(p.hostKeyQuestions, 0);
    EXPECT_NE(s.error().message.find(s.hostKey().fingerprint), std::string::npos);
}

TEST_P(Ssh, PassphraseProtectedKey) {
    ScriptedPrompter p;
    p.passphraseAnswer = env("CS_CLIENT_PP");
    auto t = target(false);
    t.identityFile = env("CS_CLIENT_PP_KEY");
    Session s(t, p);
    ASSERT_TRUE(s.connect()) << s.error().message;
    EXPECT_GE(p.passphraseQuestions, 1);
    EXPECT_EQ(s.authMethod(), "publickey");
}

TEST_P(Ssh, PasswordOrKeyboardInteractive) {
    ScriptedPrompter p;
    p.passwordAnswer = env("CS_SSH_PASSWORD");
    Session s(target(false), p);
    ASSERT_TRUE(s.connect()) << s.error().message;
    if (GetParam() == Server::OpenSsh) {
        EXPECT_EQ(s.authMethod(), "keyboard-interactive"); // tried before password, through PAM
        EXPECT_EQ(p.kbdQuestions, 1);
    } else {
        EXPECT_EQ(s.authMethod(), "password"); // dropbear has no keyboard-interactive
        EXPECT_EQ(p.passwordQuestions, 1);
    }
    const auto r = s.run("id -un");
    ASSERT_TRUE(r.has_value()) << s.error().message;
    EXPECT_EQ(r->out, env("CS_SSH_USER") + "\n");
}

TEST_P(Ssh, WrongPasswordIsAClearError) {
    ScriptedPrompter p;
    p.passwordAnswer = "not the password";
    Session s(target(false), p);
    EXPECT_FALSE(s.connect());
    EXPECT_EQ(s.error().kind, ErrorKind::AuthFailed);
    EXPECT_NE(s.error().message.find("Could not log in"), std::string::npos) << s.error().message;
    EXPECT_NE(s.error().message.find("password"), std::string::npos) << s.error().message;
    EXPECT_NE(s.error().message.find("publickey"), std::string::npos) << s.error().message;
}

TEST_P(Ssh, SshConfigAliasIsHonoured) {
    std::ofstream(m_tmp / "config")
        << "Host myrouter\n  HostName 127.0.0.1\n  Port " << port() << "\n  User "
        << env("CS_SSH_USER") << "\n  IdentityFile " << env("CS_CLIENT_KEY") << "\n";
    Target t;
    t.host = "myrouter";
    t.configFile = (m_tmp / "config").string();
    t.knownHostsFile = (m_tmp / "known_hosts").string();
    t.sshDir = (m_tmp / "sshdir").string();
    ScriptedPrompter p;
    Session s(t, p);
    ASSERT_TRUE(s.connect()) << s.error().message;
    EXPECT_EQ(s.authMethod(), "publickey");
}

TEST_P(Ssh, NonZeroExitIsReportedWithStderr) {
    ScriptedPrompter p;
    Session s(target(), p);
    ASSERT_TRUE(s.connect()) << s.error().message;
    const auto r = s.run("echo out; echo oops >&2; exit 3");
    ASSERT_TRUE(r.has_value()) << s.error().message;
    EXPECT_EQ(r->exitStatus, 3);
    EXPECT_EQ(r->out, "out\n");
    EXPECT_EQ(r->err, "oops\n");
    const auto missing = s.run("no-such-command-anywhere");
    ASSERT_TRUE(missing.has_value());
    EXPECT_EQ(missing->exitStatus, 127);
    // stdin reaches the command
    const auto cat = s.run("cat", "hello\nrouter");
    ASSERT_TRUE(cat.has_value());
    EXPECT_EQ(cat->out, "hello\nrouter");
}

TEST_P(Ssh, OversizedOutputIsCapped) {
    ScriptedPrompter p;
    Session s(target(), p);
    ASSERT_TRUE(s.connect()) << s.error().message;
    const auto r = s.run("head -c 3000000 /dev/zero", {}, 1u << 20);
    EXPECT_FALSE(r.has_value());
    EXPECT_EQ(s.error().kind, ErrorKind::OutputTooLarge);
    EXPECT_NE(s.error().message.find("1 MiB"), std::string::npos) << s.error().message;
}

TEST_P(Ssh, StreamingHandsOutOutputAsItArrives) {
    ScriptedPrompter p;
    Session s(target(), p);
    ASSERT_TRUE(s.connect()) << s.error().message;
    std::vector<std::string> chunks;
    const auto st = s.runStreaming("for i in 1 2 3; do echo tick $i; sleep 0.2; done",
                                   [&](std::string_view d, bool) {
                                       chunks.emplace_back(d);
                                       return true;
                                   });
    ASSERT_TRUE(st.has_value()) << s.error().message;
    EXPECT_EQ(*st, 0);
    EXPECT_GE(chunks.size(), 3u); // one per tick, not one at the end
}

TEST_P(Ssh, UploadIsAtomicAndReportsPermissionErrors) {
    ScriptedPrompter p;
    Session s(target(), p);
    ASSERT_TRUE(s.connect()) << s.error().message;
    const auto dir = m_tmp / "upload";
    fs::create_directories(dir);
    ::chmod(dir.c_str(), 0777);
    const auto path = dir / "it's a file";
    ASSERT_TRUE(s.upload(path.string(), "line1\nline2\n", 0755)) << s.error().message;
    EXPECT_EQ(slurp(path), "line1\nline2\n");
    struct stat st {};
    ASSERT_EQ(::stat(path.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0755u);
    EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()),
              1); // no tmp left
    EXPECT_FALSE(s.upload("/root/not-allowed/file", "x"));
    EXPECT_EQ(s.error().kind, ErrorKind::PermissionDenied) << s.error().message;
}

TEST_P(Ssh, SnapshotOverSshEqualsTheLocalOneForEveryBoard) {
    ScriptedPrompter p;
    Session s(target(), p);
    ASSERT_TRUE(s.connect()) << s.error().message;
    for (const auto& board : test::boardNames()) {
        const auto root = (test::boardsDir() / board).string();
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
    fs::copy(test::boardsDir() / "nanopi-r4s", root,
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
    fs::copy(test::boardsDir() / "nanopi-r6s-friendlywrt" / "proc", root / "proc",
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
    EXPECT_DOUBLE_EQ(b->uptime, 500.10);
    EXPECT_EQ(remote->bytesIn() - first, std::string("T 500.10\nE\n").size());
    std::printf("sampler over %s: first tick %llu bytes, an idle tick %llu bytes\n",
                GetParam() == Server::OpenSsh ? "sshd" : "dropbear",
                static_cast<unsigned long long>(first),
                static_cast<unsigned long long>(remote->bytesIn() - first));
    // A root without the files is an error naming /proc/stat, not a crash; the next tick tries
    // again with a new channel.
    auto broken = sshSampleSource(s, (m_tmp / "nothing").string(), 3000);
    EXPECT_FALSE(broken->next(&error));
    EXPECT_NE(error.find("uptime"), std::string::npos) << error;
    EXPECT_TRUE(remote->next(&error)) << error;
}

namespace {

// This process's peak resident size so far (VmHWM), in KiB; -1 when it cannot be read.
long peakRssKiB() {
    std::ifstream in("/proc/self/status");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind("VmHWM:", 0) == 0)
            return std::stol(line.substr(6));
    return -1;
}

// Under AddressSanitizer freed memory waits in a quarantine, and RSS counts it.
constexpr long kRssSlack =
#if defined(__SANITIZE_ADDRESS__)
    2;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
    2;
#else
    1;
#endif
#else
    1;
#endif

} // namespace

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

TEST_P(Ssh, StopEndsAWaitWithin200ms) {
    ScriptedPrompter p;
    Session s(target(), p);
    ASSERT_TRUE(s.connect()) << s.error().message;
    std::thread stopper([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        s.requestStop();
    });
    const auto start = Clock::now();
    const auto stopAt = start + std::chrono::milliseconds(300);
    const auto r = s.run("sleep 20");
    const auto end = Clock::now();
    stopper.join();
    EXPECT_FALSE(r.has_value());
    EXPECT_EQ(s.error().kind, ErrorKind::Stopped);
    EXPECT_LT(end - stopAt, std::chrono::milliseconds(200));
}

namespace {

// A copy of a board that the SSH test user may write to, as a router's /proc and /sys.
fs::path writableBoard(const fs::path& dir, const std::string& board) {
    const auto root = dir / "root";
    fs::remove_all(root);
    fs::create_directories(dir);
    fs::copy(test::boardsDir() / board, root,
             fs::copy_options::recursive | fs::copy_options::copy_symlinks);
    (void)std::system(("chmod -R a+rwX '" + dir.string() + "'").c_str());
    return root;
}

} // namespace

TEST_P(Ssh, ApplyThenConfirmOverANewConnection) {
    const auto root = writableBoard(m_tmp, "nanopi-r6s-openwrt");
    ScriptedPrompter p;
    Session s(target(), p);
    ASSERT_TRUE(s.connect()) << s.error().message;
    std::string error;
    auto bundle = collectRemote(s, root.string(), &error);
    ASSERT_TRUE(bundle) << error;
    const auto snap = buildSnapshot(*bundle);
    const auto r = resolve(plan(snap), snap);
    const auto rep = applyRemote(s, root.string(), r, {30, true}, &error);
    ASSERT_TRUE(rep) << error;
    EXPECT_TRUE(rep->revertArmed);
    for (const auto& t : rep->results) {
        EXPECT_NE(t.status, TargetResult::Status::Failed) << t.write.path;
        EXPECT_EQ(firstLine(root / t.write.path), t.write.value) << t.write.path;
    }
    // Confirm over a new connection, as the CLI does.
    Session second(target(), p);
    ASSERT_TRUE(second.connect()) << second.error().message;
    ASSERT_TRUE(settleRemote(second, root.string(), PendingAction::Confirm, &error)) << error;
    EXPECT_FALSE(settleRemote(second, root.string(), PendingAction::Confirm, &error));
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
    Session s(target(), p);
    ASSERT_TRUE(s.connect()) << s.error().message;
    std::string error;
    const auto bundle = collectRemote(s, root.string(), &error);
    ASSERT_TRUE(bundle) << error;
    const auto snap = buildSnapshot(*bundle);
    const auto pp = planPersist(plan(snap), snap, {}, &error);
    ASSERT_TRUE(pp) << error;
    const auto rep = runPersistScript(s, makePersistScript(*pp, root.string()), &error);
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
    const auto un = runPersistScript(s, makeUnpersistScript(root.string()), &error);
    ASSERT_TRUE(un) << error;
    EXPECT_TRUE(un->sysupgradeRestored);
    EXPECT_EQ(slurp(root / "etc/sysupgrade.conf"), conf);
    EXPECT_FALSE(fs::exists(root / "etc/hotplug.d/net/95-coresteer"));
    EXPECT_FALSE(fs::exists(root / "etc/coresteer"));
}

INSTANTIATE_TEST_SUITE_P(Servers, Ssh, ::testing::Values(Server::OpenSsh, Server::Dropbear),
                         [](const auto& p) {
                             return p.param == Server::OpenSsh ? "openssh" : "dropbear";
                         });

TEST_P(Ssh, AgentComesFirst) {
    // An ssh-agent of our own, holding the client key; no identity file is named.
    const auto sock = m_tmp / "agent.sock";
    const std::string start =
        "ssh-agent -a '" + sock.string() + "' > '" + (m_tmp / "agent.env").string() + "'";
    ASSERT_EQ(std::system(start.c_str()), 0);
    const auto agentEnv = slurp(m_tmp / "agent.env");
    const auto pidAt = agentEnv.find("SSH_AGENT_PID=");
    const int agentPid = std::stoi(agentEnv.substr(pidAt + 14));
    ASSERT_EQ(std::system(("SSH_AUTH_SOCK='" + sock.string() + "' ssh-add -q '" +
                           env("CS_CLIENT_KEY") + "' 2>/dev/null")
                              .c_str()),
              0);
    ::setenv("SSH_AUTH_SOCK", sock.c_str(), 1);
    ScriptedPrompter p;
    p.passwordAnswer = std::nullopt;
    Session s(target(false), p);
    const bool ok = s.connect();
    ::unsetenv("SSH_AUTH_SOCK");
    ::kill(agentPid, SIGTERM);
    ASSERT_TRUE(ok) << s.error().message;
    EXPECT_EQ(s.authMethod(), "publickey");
    EXPECT_EQ(p.passwordQuestions + p.kbdQuestions + p.passphraseQuestions, 0);
}

namespace {

// A socket bound to a free loopback port; `listening` makes it accept TCP and then stay silent.
struct LoopbackPort {
    int fd = -1;
    int port = 0;
    explicit LoopbackPort(bool listening) {
        fd = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        if (::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0)
            return;
        socklen_t len = sizeof a;
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
        port = ntohs(a.sin_port);
        if (listening)
            ::listen(fd, 4);
        else
            close();
    }
    ~LoopbackPort() { close(); }
    void close() {
        if (fd >= 0)
            ::close(fd);
        fd = -1;
    }
};

Target loopbackTarget(int port, int connectTimeoutMs) {
    Target t;
    t.host = "127.0.0.1";
    t.port = port;
    t.configFile = "none";
    t.knownHostsFile = (kDir / "kh-none").string();
    t.connectTimeoutMs = connectTimeoutMs;
    return t;
}

} // namespace

TEST(SshConnect, NothingListeningIsRefusedQuickly) {
    LoopbackPort free(false); // a port that was free a moment ago
    ASSERT_GT(free.port, 0);
    ScriptedPrompter p;
    Session s(loopbackTarget(free.port, 3000), p);
    const auto start = Clock::now();
    EXPECT_FALSE(s.connect());
    EXPECT_LT(Clock::now() - start, std::chrono::milliseconds(3000));
    EXPECT_EQ(s.error().kind, ErrorKind::Refused) << s.error().message;
    EXPECT_NE(s.error().message.find("refused"), std::string::npos);
}

TEST(SshConnect, SilentServerTimesOutWithinTheConnectTimeout) {
    LoopbackPort silent(true); // accepts TCP, never says a word
    ASSERT_GT(silent.port, 0);
    ScriptedPrompter p;
    Session s(loopbackTarget(silent.port, 1500), p);
    const auto start = Clock::now();
    EXPECT_FALSE(s.connect());
    const auto took = Clock::now() - start;
    EXPECT_EQ(s.error().kind, ErrorKind::Timeout) << s.error().message;
    EXPECT_GE(took, std::chrono::milliseconds(1400));
    EXPECT_LT(took, std::chrono::milliseconds(2500));
}

TEST(SshError, ConnectErrorsAreClassified) {
    EXPECT_EQ(classifyConnectError("Connection refused"), ErrorKind::Refused);
    EXPECT_EQ(classifyConnectError("Timeout connecting to router.lan"), ErrorKind::Timeout);
    EXPECT_EQ(classifyConnectError("Failed to resolve hostname x (Name or service not known)"),
              ErrorKind::Unreachable);
    EXPECT_EQ(classifyConnectError("No route to host"), ErrorKind::Unreachable);
    EXPECT_EQ(classifyConnectError("Socket error: Connection reset by peer"),
              ErrorKind::Disconnected);
    const auto e = makeError(ErrorKind::Unreachable, "root@router");
    EXPECT_NE(e.message.find("root@router cannot be reached"), std::string::npos);
    EXPECT_NE(makeError(ErrorKind::Refused, "r").message.find("dropbear or sshd"),
              std::string::npos);
}

TEST(SshTarget, Parsing) {
    auto t = parseTarget("ssh://root@router.lan:2222");
    ASSERT_TRUE(t);
    EXPECT_EQ(t->user, "root");
    EXPECT_EQ(t->host, "router.lan");
    EXPECT_EQ(t->port, 2222);
    t = parseTarget("ssh://admin@[::1]:22/");
    ASSERT_TRUE(t);
    EXPECT_EQ(t->host, "::1");
    EXPECT_EQ(t->display(), "admin@[::1]:22");
    t = parseTarget("myrouter");
    ASSERT_TRUE(t);
    EXPECT_EQ(t->host, "myrouter");
    EXPECT_EQ(t->port, 0);
    for (const char* bad : {"ssh://", "ssh://root@", "host:0", "host:99999", "-oProxyCommand=x",
                            "a b", "ssh://$(reboot)", "::1:22", "[::1", "user;rm@host"}) {
        std::string err;
        EXPECT_FALSE(parseTarget(bad, &err)) << bad;
        EXPECT_FALSE(err.empty()) << bad;
    }
}

TEST(SshCli, SnapshotOverSshMatchesLocal) {
    const auto board = (test::boardsDir() / "nanopi-r6s-openwrt").string();
    const auto kh = kDir / "cli_known_hosts";
    fs::remove(kh);
    const std::string cmd = std::string(CORESTEER_CLI) + " snapshot ssh://" + env("CS_SSH_USER") +
                            "@127.0.0.1:" + env("CS_DROPBEAR_PORT") + " --root '" + board +
                            "' --known-hosts '" + kh.string() + "' --identity '" +
                            env("CS_CLIENT_KEY") + "' --accept-new-host-key --json < /dev/null";
    int status = -1;
    const auto out = test::capture(cmd, &status);
    EXPECT_EQ(status, 0);
    auto remote = nlohmann::json::parse(out);
    auto local = toJson(buildSnapshot(collectLocal(board)));
    EXPECT_EQ(remote["origin"].get<std::string>(),
              "ssh://" + env("CS_SSH_USER") + "@127.0.0.1:" + env("CS_DROPBEAR_PORT") + board);
    remote.erase("origin");
    local.erase("origin");
    EXPECT_EQ(remote, local);
    // Without --accept-new-host-key and no terminal, an unknown key is refused.
    fs::remove(kh);
    const std::string strict = std::string(CORESTEER_CLI) + " snapshot ssh://" +
                               env("CS_SSH_USER") + "@127.0.0.1:" + env("CS_DROPBEAR_PORT") +
                               " --known-hosts '" + kh.string() + "' --identity '" +
                               env("CS_CLIENT_KEY") + "' < /dev/null > /dev/null 2>&1";
    const int rc = std::system(("setsid " + strict).c_str());
    EXPECT_EQ(WEXITSTATUS(rc), 2);
}

TEST(SshCli, ProxyJumpFromSshConfig) {
    // Reach dropbear through sshd as the jump host. libssh runs `ssh -W` for ProxyJump, as the
    // user who runs coresteer: here the test user, whose own ~/.ssh servers.sh prepared, so
    // nobody else's ~/.ssh is read or written.
    const auto dir = kDir / "jump";
    fs::remove_all(dir);
    fs::create_directories(dir);
    ::chmod(dir.c_str(), 0777);
    std::ofstream(dir / "config") << "Host behind-jump\n  HostName 127.0.0.1\n  Port "
                                  << env("CS_DROPBEAR_PORT") << "\n  User " << env("CS_SSH_USER")
                                  << "\n  ProxyJump " << env("CS_SSH_USER")
                                  << "@127.0.0.1:" << env("CS_SSHD_PORT") << "\n";
    const auto board = (test::boardsDir() / "bpi-r4").string();
    const std::string cmd = "runuser -u " + env("CS_SSH_USER") + " -- " +
                            std::string(CORESTEER_CLI) + " snapshot behind-jump --ssh-config '" +
                            (dir / "config").string() + "' --known-hosts '" +
                            (dir / "known_hosts").string() + "' --accept-new-host-key --root '" +
                            board + "' --json < /dev/null 2>'" + (dir / "err").string() + "'";
    int status = -1;
    const auto out = test::capture(cmd, &status);
    ASSERT_EQ(status, 0) << slurp(dir / "err");
    auto remote = nlohmann::json::parse(out);
    auto local = toJson(buildSnapshot(collectLocal(board)));
    remote.erase("origin");
    local.erase("origin");
    EXPECT_EQ(remote, local);
    // The final hop's key went to the injected known_hosts, under the dropbear port.
    EXPECT_NE(slurp(dir / "known_hosts").find("[127.0.0.1]:" + env("CS_DROPBEAR_PORT") + " "),
              std::string::npos);
}

// With --known-hosts FILE, every jump host's key is checked against FILE too, never against the
// user's own known_hosts: a changed key on the hop stops the connection (through sshd and
// through dropbear), an unknown one is asked for (refused without a terminal) or, with
// --accept-new-host-key, added to FILE.
TEST(SshCli, JumpHostsAreCheckedAgainstTheSameKnownHosts) {
    const auto dir = kDir / "jump-keys";
    fs::remove_all(dir);
    fs::create_directories(dir);
    ::chmod(dir.c_str(), 0777);
    const auto user = env("CS_SSH_USER");
    // "behind-X": the final host reached through hop X.
    std::ofstream(dir / "config") << "Host behind-sshd\n  HostName 127.0.0.1\n  Port "
                                  << env("CS_DROPBEAR_PORT") << "\n  User " << user
                                  << "\n  ProxyJump " << user
                                  << "@127.0.0.1:" << env("CS_SSHD_PORT")
                                  << "\nHost behind-dropbear\n  HostName 127.0.0.1\n  Port "
                                  << env("CS_SSHD_PORT") << "\n  User " << user << "\n  ProxyJump "
                                  << user << "@127.0.0.1:" << env("CS_DROPBEAR_PORT") << "\n";
    const auto board = (test::boardsDir() / "bpi-r4").string();
    const auto kh = dir / "known_hosts";
    auto run = [&](const std::string& alias, bool acceptNew) {
        const std::string cmd = "setsid runuser -u " + user + " -- " + std::string(CORESTEER_CLI) +
                                " snapshot " + alias + " --ssh-config '" +
                                (dir / "config").string() + "' --known-hosts '" + kh.string() +
                                "' --identity '" + env("CS_CLIENT_KEY") + "'" +
                                (acceptNew ? " --accept-new-host-key" : "") + " --root '" + board +
                                "' < /dev/null > /dev/null 2>'" + (dir / "err").string() + "'";
        return WEXITSTATUS(std::system(cmd.c_str()));
    };
    const auto otherKey = slurp(env("CS_OTHER_HOST_KEY") + ".pub");
    const auto wrong = otherKey.substr(0, otherKey.find(' ', otherKey.find(' ') + 1));
    for (const auto* hop : {"CS_SSHD_PORT", "CS_DROPBEAR_PORT"}) {
        const std::string alias =
            std::string(hop) == "CS_SSHD_PORT" ? "behind-sshd" : "behind-dropbear";
        SCOPED_TRACE(alias);
        // Changed: FILE has another key for the hop (the test user's own file has the right one
        // for sshd).
        const std::string pinned = "[127.0.0.1]:" + env(hop) + " " + wrong + "\n";
        std::ofstream(kh, std::ios::trunc) << pinned;
        ::chmod(kh.c_str(), 0666);
        EXPECT_EQ(run(alias, true), 2);
        EXPECT_NE(
            slurp(dir / "err").find("The host key of the jump host to " + alias + " has CHANGED"),
            std::string::npos)
            << slurp(dir / "err");
        EXPECT_EQ(slurp(kh), pinned); // nothing added: the final host was never reached
        // Unknown, and no terminal to ask on: refused.
        std::ofstream(kh, std::ios::trunc).flush();
        EXPECT_EQ(run(alias, false), 2);
        EXPECT_NE(
            slurp(dir / "err").find("The host key of the jump host to " + alias + " is not known"),
            std::string::npos)
            << slurp(dir / "err");
        EXPECT_EQ(slurp(kh), "");
        // Unknown, --accept-new-host-key: the hop's key and the final host's go to FILE.
        EXPECT_EQ(run(alias, true), 0) << slurp(dir / "err");
        const auto known = slurp(kh);
        EXPECT_NE(known.find("[127.0.0.1]:" + env(hop) + " "), std::string::npos) << known;
        EXPECT_EQ(run(alias, false), 0) << slurp(dir / "err"); // both known now
    }
    // The private config of the hops is gone with the session.
    for (const auto& e : fs::directory_iterator("/tmp"))
        EXPECT_EQ(e.path().filename().string().rfind("coresteer-jump.", 0), std::string::npos)
            << e.path();
}

TEST(SshCli, ApplyWithoutConfirmIsRevertedByTheRouter) {
    const auto dir = kDir / "cli-apply";
    const auto root = writableBoard(dir, "nanopi-r6s-friendlywrt");
    const auto layout = dir / "layout.json";
    { std::ofstream(layout) << toJson(plan(buildSnapshot(collectLocal(root)))).dump(2); }
    const std::string base = std::string(CORESTEER_CLI) + " %s ssh://" + env("CS_SSH_USER") +
                             "@127.0.0.1:" + env("CS_SSHD_PORT") + " --root '" + root.string() +
                             "' --known-hosts '" + (dir / "kh").string() + "' --identity '" +
                             env("CS_CLIENT_KEY") + "' --accept-new-host-key < /dev/null > '" +
                             (dir / "out").string() + "' 2>&1";
    auto run = [&](const std::string& verb) {
        char cmd[4096];
        std::snprintf(cmd, sizeof cmd, base.c_str(), verb.c_str());
        return WEXITSTATUS(std::system(cmd));
    };
    const auto irq = root / "proc/irq/141/smp_affinity";
    EXPECT_EQ(firstLine(irq), "04");
    // The fixture's effective_affinity does not follow the writes, as on x86 until the next
    // interrupt: "applied, moves at the next interrupt", which counts as applied.
    EXPECT_EQ(run("apply '" + layout.string() + "' --no-confirm --revert-after 5 --json"), 0)
        << slurp(dir / "out");
    const auto eth0Irq = root / "proc/irq/63/smp_affinity";
    EXPECT_EQ(firstLine(eth0Irq), "01") << slurp(dir / "out");
    const auto report = slurp(dir / "out");
    EXPECT_NE(report.find("\"revert_pending\": true"), std::string::npos) << report;
    std::this_thread::sleep_for(std::chrono::seconds(8));
    EXPECT_EQ(firstLine(eth0Irq), "02"); // FriendlyWrt's value is back
    EXPECT_EQ(run("confirm"), 1);        // nothing left to confirm
    // apply, then revert by hand.
    EXPECT_EQ(run("apply '" + layout.string() + "' --no-confirm"), 0) << slurp(dir / "out");
    EXPECT_EQ(firstLine(eth0Irq), "01");
    EXPECT_EQ(run("revert"), 0) << slurp(dir / "out");
    EXPECT_EQ(firstLine(eth0Irq), "02");
}

// Every verb that changes the router answers in JSON, with exit codes scripts can rely on.
TEST(SshCli, PersistUnpersistConfirmAnswerInJson) {
    const auto dir = kDir / "cli-persist";
    const auto root = writableBoard(dir, "nanopi-r6s-openwrt");
    const auto layout = dir / "layout.json";
    { std::ofstream(layout) << toJson(plan(buildSnapshot(collectLocal(root)))).dump(2); }
    auto run = [&](const std::string& verb, nlohmann::json* j) {
        const std::string cmd = std::string(CORESTEER_CLI) + " " + verb + " ssh://" +
                                env("CS_SSH_USER") + "@127.0.0.1:" + env("CS_DROPBEAR_PORT") +
                                " --root '" + root.string() + "' --known-hosts '" +
                                (dir / "kh").string() + "' --identity '" + env("CS_CLIENT_KEY") +
                                "' --accept-new-host-key --json < /dev/null > '" +
                                (dir / "out").string() + "' 2> '" + (dir / "err").string() + "'";
        const int rc = WEXITSTATUS(std::system(cmd.c_str()));
        *j = nlohmann::json::parse(slurp(dir / "out"), nullptr, false);
        return rc;
    };
    nlohmann::json j;
    ASSERT_EQ(run("persist '" + layout.string() + "'", &j), 0) << slurp(dir / "err");
    EXPECT_EQ(j["flavor"], "openwrt");
    EXPECT_EQ(j["written"].size(), 2u);
    EXPECT_TRUE(j["unresolved_conflicts"].empty());
    ASSERT_EQ(run("unpersist", &j), 0) << slurp(dir / "err");
    EXPECT_EQ(j["removed"].size(), 2u);
    EXPECT_TRUE(j["sysupgrade_restored"].get<bool>());
    EXPECT_FALSE(fs::exists(root / "etc/sysupgrade.conf")); // there was none before
    EXPECT_EQ(run("confirm", &j), 1);
    EXPECT_FALSE(j["confirmed"].get<bool>());
    EXPECT_NE(j["error"].get<std::string>().find("nothing is waiting"), std::string::npos);
    ASSERT_EQ(run("apply '" + layout.string() + "' --no-confirm", &j), 0) << slurp(dir / "err");
    EXPECT_TRUE(j["revert_pending"].get<bool>());
    EXPECT_EQ(run("revert", &j), 0) << slurp(dir / "err");
    EXPECT_TRUE(j["reverted"].get<bool>());
}

// --verbose over SSH: the host key, the login, each command and its size, on stderr.
TEST(SshCli, VerboseSaysWhatHappens) {
    const auto dir = kDir / "cli-verbose";
    const auto root = writableBoard(dir, "nanopi-r4s");
    const std::string cmd = std::string(CORESTEER_CLI) + " snapshot ssh://" + env("CS_SSH_USER") +
                            "@127.0.0.1:" + env("CS_SSHD_PORT") + " --root '" + root.string() +
                            "' --known-hosts '" + (dir / "kh").string() + "' --identity '" +
                            env("CS_CLIENT_KEY") + "' --accept-new-host-key --verbose < /dev/null" +
                            " 2> '" + (dir / "err").string() + "' > /dev/null";
    ASSERT_EQ(WEXITSTATUS(std::system(cmd.c_str())), 0);
    const auto err = slurp(dir / "err");
    for (const char* want : {"[coresteer.ssh] ", ": host key ssh-ed25519 SHA256:", " (new)",
                             ": the server offers ", ": logged in to 127.0.0.1:", " with publickey",
                             ": ran `sh -s` (", " bytes out in ", "[coresteer.collect] "})
        EXPECT_NE(err.find(want), std::string::npos) << want << "\n" << err;
}

// The playbook of `export ansible`, run by Ansible itself over the test sshd and dropbear against
// two fixture routers (two roots), then a multi-router apply from the same inventory.
TEST(SshFleet, AnsiblePlaybookTunesTwoRoutersOnceAndApplyTakesTheInventory) {
    const auto dir = kDir / "ansible";
    fs::remove_all(dir);
    const auto rootA = writableBoard(dir / "a", "nanopi-r6s-openwrt");
    const auto rootB = writableBoard(dir / "b", "nanopi-r6s-friendlywrt");
    for (const auto& r : {rootA, rootB})
        std::ofstream(r / "etc/sysupgrade.conf") << "/etc/mine.conf\n";
    const auto kh = dir / "known_hosts";
    const std::string cli = CORESTEER_CLI;
    const std::string user = env("CS_SSH_USER");
    const std::string key = env("CS_CLIENT_KEY");
    auto sh = [&](const std::string& cmd, std::string* out = nullptr) {
        const int st = std::system((cmd + " > '" + (dir / "out").string() + "' 2>&1").c_str());
        if (out)
            *out = slurp(dir / "out");
        return WEXITSTATUS(st);
    };
    // The host keys, taken once by coresteer itself: Ansible then checks them strictly.
    for (const auto* port : {"CS_SSHD_PORT", "CS_DROPBEAR_PORT"})
        ASSERT_EQ(sh(cli + " snapshot ssh://" + user + "@127.0.0.1:" + env(port) + " --root '" +
                     rootA.string() + "' --known-hosts '" + kh.string() + "' --identity '" + key +
                     "' --accept-new-host-key < /dev/null"),
                  0)
            << slurp(dir / "out");
    const auto inventory = dir / "hosts.ini";
    std::ofstream(inventory) << "# two routers behind one test server each\n[r6s]\n"
                             << "openwrt ansible_host=127.0.0.1 ansible_port="
                             << env("CS_SSHD_PORT") << " coresteer_root='" << rootA.string()
                             << "'\nfriendlywrt ansible_host=127.0.0.1 ansible_port="
                             << env("CS_DROPBEAR_PORT") << " coresteer_root='" << rootB.string()
                             << "'\n\n[r6s:vars]\nansible_user=" << user
                             << "\nansible_ssh_private_key_file=" << key
                             << "\nansible_ssh_common_args='-o UserKnownHostsFile=" << kh.string()
                             << " -o StrictHostKeyChecking=yes -o IdentitiesOnly=yes'\n";
    const auto preset =
        fs::path(CORESTEER_SOURCE_DIR) / "resources/presets/nanopi-r6s-option1.json";
    const auto playbook = dir / "r6s.yml";
    ASSERT_EQ(sh(cli + " export ansible --preset '" + preset.string() +
                 "' --inventory-group r6s --output '" + playbook.string() + "'"),
              0)
        << slurp(dir / "out");
    fs::create_directories(dir / "home");
    const std::string ansible =
        "env HOME='" + (dir / "home").string() + "' ANSIBLE_LOCAL_TEMP='" +
        (dir / "home/tmp").string() + "' ANSIBLE_SSH_CONTROL_PATH_DIR='" +
        (dir / "home/cp").string() +
        "' ANSIBLE_NOCOLOR=1 ANSIBLE_RETRY_FILES_ENABLED=0 ANSIBLE_HOST_KEY_CHECKING=1 "
        "ansible-playbook -i '" +
        inventory.string() + "' '" + playbook.string() + "'";
    auto recap = [](const std::string& out, const std::string& host) {
        const auto at = out.find("\n" + host + " ", out.find("PLAY RECAP"));
        return at == std::string::npos ? std::string()
                                       : out.substr(at + 1, out.find('\n', at + 1) - at - 1);
    };
    std::string out;
    ASSERT_EQ(sh(ansible, &out), 0) << out;
    // Applied (with the revert armed), confirmed, persisted: three changes on each.
    for (const auto* host : {"openwrt", "friendlywrt"}) {
        EXPECT_NE(recap(out, host).find("changed=3 "), std::string::npos) << out;
        EXPECT_NE(recap(out, host).find("failed=0 "), std::string::npos) << out;
    }
    Preset p = *parsePreset(slurp(preset), nullptr);
    for (const auto& root : {rootA, rootB}) {
        SCOPED_TRACE(root.string());
        const auto snap = buildSnapshot(collectLocal(root));
        const auto r = resolve(p.layout, snap);
        EXPECT_FALSE(r.writes.empty());
        EXPECT_TRUE(changedWrites(r).empty());                    // the layout is in force
        EXPECT_FALSE(fs::exists(root / "tmp/coresteer/pending")); // and confirmed
        EXPECT_NE(slurp(root / "etc/hotplug.d/net/95-coresteer").find(kPersistMarker),
                  std::string::npos);
        EXPECT_EQ(slurp(root / "etc/sysupgrade.conf"),
                  "/etc/mine.conf\n/etc/hotplug.d/net/95-coresteer\n/etc/coresteer/\n");
        EXPECT_TRUE(parseLayout(slurp(root / "etc/coresteer/layout.json"), nullptr));
    }
    // A second run changes nothing, and says so.
    std::map<std::string, std::string> before;
    for (const auto& root : {rootA, rootB})
        for (const auto& e : fs::recursive_directory_iterator(root))
            if (e.is_regular_file())
                before[e.path().string()] = slurp(e.path());
    ASSERT_EQ(sh(ansible, &out), 0) << out;
    for (const auto* host : {"openwrt", "friendlywrt"})
        EXPECT_NE(recap(out, host).find("changed=0 "), std::string::npos) << out;
    for (const auto& [path, content] : before)
        EXPECT_EQ(slurp(path), content) << path;

    // The same inventory for coresteer-cli apply: one line per router.
    const auto other =
        fs::path(CORESTEER_SOURCE_DIR) / "resources/presets/nanopi-r6s-option2a.json";
    const std::string apply = cli + " apply --inventory '" + inventory.string() +
                              "' --inventory-group r6s '" + other.string() + "' --known-hosts '" +
                              kh.string() + "' --parallel 2 < /dev/null";
    const int rc = sh(apply, &out);
    EXPECT_LE(rc, 1) << out; // 1: targets of the preset that these fixtures do not have
    // One line per router, as each finishes.
    EXPECT_NE(out.find("friendlywrt  applied "), std::string::npos) << out;
    EXPECT_NE(out.find("openwrt      applied "), std::string::npos) << out;
    EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 2) << out;
    EXPECT_NE(out.find(", confirmed\n"), std::string::npos) << out;
    const Preset p2 = *parsePreset(slurp(other), nullptr);
    for (const auto& root : {rootA, rootB})
        EXPECT_TRUE(changedWrites(resolve(p2.layout, buildSnapshot(collectLocal(root)))).empty());
    sh(apply, &out);
    EXPECT_NE(out.find("openwrt      nothing to change"), std::string::npos) << out;
    // A router that cannot be reached is one line too; the others go on.
    std::ofstream(inventory, std::ios::app)
        << "[r6s]\ngone ansible_host=127.0.0.1 ansible_port=1\n";
    EXPECT_EQ(sh(apply, &out), 2) << out;
    EXPECT_NE(out.find("gone         failed: "), std::string::npos) << out;
    EXPECT_NE(out.find("openwrt      nothing to change"), std::string::npos) << out;
    // Several ssh:// targets on the command line, one at a time: here both servers reach the
    // same root, so the first applies and the second finds nothing to change.
    const auto third =
        fs::path(CORESTEER_SOURCE_DIR) / "resources/presets/nanopi-r6s-option2b.json";
    const std::string two = cli + " apply ssh://" + user + "@127.0.0.1:" + env("CS_SSHD_PORT") +
                            " ssh://" + user + "@127.0.0.1:" + env("CS_DROPBEAR_PORT") +
                            " --root '" + rootA.string() + "' '" + third.string() +
                            "' --known-hosts '" + kh.string() + "' --identity '" + key +
                            "' --parallel 1 < /dev/null";
    EXPECT_LE(sh(two, &out), 1) << out;
    EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 2) << out;
    EXPECT_NE(out.find("@127.0.0.1:" + env("CS_SSHD_PORT") + "  applied "), std::string::npos)
        << out;
    EXPECT_NE(out.find("@127.0.0.1:" + env("CS_DROPBEAR_PORT") + "  nothing to change"),
              std::string::npos)
        << out;
}

int main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    ::testing::AddGlobalTestEnvironment(new Servers(kDir));
    std::signal(SIGPIPE, SIG_IGN);
    return RUN_ALL_TESTS();
}

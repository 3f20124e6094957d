// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// One SSH session (core/ssh) against the test sshd and dropbear: host keys, the ways to log in,
// ~/.ssh/config, commands, streams, uploads, connect errors and timeouts.
#include "tests/ssh/ssh_fixture.h"

using namespace coresteer;
using namespace coresteer::layout;
using namespace coresteer::test;
namespace fs = std::filesystem;

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

INSTANTIATE_TEST_SUITE_P(Servers, Ssh, ::testing::Values(Server::OpenSsh, Server::Dropbear),
                         [](const auto& p) {
                             return p.param == Server::OpenSsh ? "openssh" : "dropbear";
                         });

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

// A command that ends before it reads its input (it fails at once) gives its exit status and
// its stderr, not a broken connection, and the session goes on: the server may close the
// channel while the input is still being written.
TEST_P(Ssh, ACommandThatEndsBeforeItReadsItsInputGivesItsStatus) {
    ScriptedPrompter p;
    Session s(target(), p);
    ASSERT_TRUE(s.connect()) << s.error().message;
    for (int i = 0; i < 3; ++i) {
        const auto r = s.run("echo refused >&2; exit 3", std::string(8u << 20, 'x'));
        ASSERT_TRUE(r) << s.error().message;
        EXPECT_EQ(r->exitStatus, 3);
        EXPECT_EQ(r->err, "refused\n");
    }
    const auto after = s.run("echo ok");
    ASSERT_TRUE(after) << s.error().message;
    EXPECT_EQ(after->out, "ok\n");
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

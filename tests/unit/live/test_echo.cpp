// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The echo probe against the real kernel: loopback here, and loopback in network namespaces
// the test makes, where it sets the namespace's own net.ipv4.ping_group_range and drops root to
// see each method chosen as a person's machine would choose it.
#include "core/live/echo.h"

#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <cstring>
#include <fcntl.h>
#include <functional>
#include <grp.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sched.h>
#include <string>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

using coresteer::live::EchoProbe;

namespace {

std::string netnsId() {
    char buf[64] = {};
    const ssize_t n = ::readlink("/proc/self/ns/net", buf, sizeof buf - 1);
    return n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : std::string();
}

bool setLoopback(bool up) {
    const int fd = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    ifreq ifr{};
    std::strncpy(ifr.ifr_name, "lo", IFNAMSIZ - 1);
    bool ok = fd >= 0 && ::ioctl(fd, SIOCGIFFLAGS, &ifr) == 0;
    if (ok) {
        ifr.ifr_flags =
            static_cast<short>(up ? (ifr.ifr_flags | IFF_UP) : (ifr.ifr_flags & ~IFF_UP));
        ok = ::ioctl(fd, SIOCSIFFLAGS, &ifr) == 0;
    }
    if (fd >= 0)
        ::close(fd);
    return ok;
}

// Writes the new namespace's own ping_group_range (never the host's: the caller checks that it
// is in a namespace of its own first).
bool setPingGroups(const std::string& range) {
    const int fd = ::open("/proc/sys/net/ipv4/ping_group_range", O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    const bool ok = ::write(fd, range.data(), range.size()) == static_cast<ssize_t>(range.size());
    ::close(fd);
    return ok;
}

bool becomeNobody() {
    return ::setgroups(0, nullptr) == 0 && ::setgid(65534) == 0 && ::setuid(65534) == 0;
}

// Runs `body` in a child process inside a network namespace of its own (loopback up unless
// `loUp` is false) and gives back what it returned, or a line that says what went wrong.
std::string inOwnNetns(const std::function<std::string()>& body, bool loUp = true) {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0)
        return "error: pipe";
    const std::string before = netnsId();
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::close(fds[0]);
        std::string out;
        if (::unshare(CLONE_NEWNET) != 0)
            out = "error: no network namespace of our own (the tests run as root)";
        else if (netnsId() == before || netnsId().empty())
            out = "error: still in the host's network namespace";
        else if (loUp && !setLoopback(true))
            out = "error: loopback stays down";
        else
            out = body();
        [[maybe_unused]] auto n = ::write(fds[1], out.data(), out.size());
        ::_exit(0);
    }
    ::close(fds[1]);
    std::string out;
    char buf[512];
    for (ssize_t n; (n = ::read(fds[0], buf, sizeof buf)) > 0;)
        out.append(buf, static_cast<std::size_t>(n));
    ::close(fds[0]);
    int status = 0;
    ::waitpid(pid, &status, 0);
    return out;
}

// "method answered/asked" for `count` probes, or "open: <error>".
std::string probeReport(const std::string& host, int port, int count) {
    std::string error;
    auto p = EchoProbe::open(host, port, &error);
    if (!p)
        return "open: " + error;
    int answered = 0;
    for (int i = 0; i < count; ++i)
        if (auto ms = p->once(1000); ms && *ms >= 0 && *ms < 500)
            ++answered;
    return std::string(coresteer::live::echoMethodName(p->method())) + ' ' +
           std::to_string(answered) + '/' + std::to_string(count);
}

} // namespace

TEST(Echo, LoopbackAnswersEveryProbe) {
    std::string error;
    auto p = EchoProbe::open("127.0.0.1", 0, &error);
    ASSERT_TRUE(p) << error;
    EXPECT_NE(p->method(), EchoProbe::Method::Tcp);
    EXPECT_EQ(p->address(), "127.0.0.1");
    for (int i = 0; i < 5; ++i) {
        const auto ms = p->once(1000, &error);
        ASSERT_TRUE(ms) << error;
        EXPECT_GE(*ms, 0.0);
        EXPECT_LT(*ms, 500.0);
    }
}

TEST(Echo, UnprivilegedIcmpWhereTheGroupRangeHoldsTheUser) {
    const auto out = inOwnNetns([] {
        if (!setPingGroups("65534 65534"))
            return std::string("error: ping_group_range not written");
        if (!becomeNobody())
            return std::string("error: could not drop root");
        return probeReport("127.0.0.1", 0, 5) + "; " + probeReport("::1", 0, 5);
    });
    EXPECT_EQ(out, "ICMP 5/5; ICMP 5/5");
}

TEST(Echo, RawSocketsServeRootWhereTheRangeIsClosed) {
    const auto out = inOwnNetns([] {
        if (!setPingGroups("1 0"))
            return std::string("error: ping_group_range not written");
        return probeReport("127.0.0.1", 0, 5) + "; " + probeReport("::1", 0, 5);
    });
    EXPECT_EQ(out, "ICMP (raw socket) 5/5; ICMP (raw socket) 5/5");
}

TEST(Echo, FallsBackToATcpHandshakeWhereIcmpIsClosed) {
    const auto out = inOwnNetns([] {
        if (!setPingGroups("1 0"))
            return std::string("error: ping_group_range not written");
        const int l = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t len = sizeof a;
        if (::bind(l, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || ::listen(l, 16) != 0 ||
            ::getsockname(l, reinterpret_cast<sockaddr*>(&a), &len) != 0)
            return std::string("error: no listener");
        if (!becomeNobody())
            return std::string("error: could not drop root");
        return probeReport("127.0.0.1", ntohs(a.sin_port), 3) + "; " +
               probeReport("127.0.0.1", 0, 1);
    });
    EXPECT_NE(out.find("TCP handshake 3/3; open: 127.0.0.1: ICMP is not open to this user "
                       "(net.ipv4.ping_group_range does not hold group 65534"),
              std::string::npos)
        << out;
}

// A host that stops answering (the namespace's own net.ipv4.icmp_echo_ignore_all) is lost
// within the timeout, and answers again as soon as it does.
TEST(Echo, AHostThatDoesNotAnswerIsLostAndThenAnswersAgain) {
    const auto out = inOwnNetns([] {
        std::string error;
        auto p = EchoProbe::open("127.0.0.1", 0, &error);
        if (!p)
            return "open: " + error;
        auto ignore = [](bool on) {
            const int fd = ::open("/proc/sys/net/ipv4/icmp_echo_ignore_all", O_WRONLY | O_CLOEXEC);
            const bool ok = fd >= 0 && ::write(fd, on ? "1" : "0", 1) == 1;
            if (fd >= 0)
                ::close(fd);
            return ok;
        };
        std::string seen;
        if (!ignore(true))
            return std::string("error: icmp_echo_ignore_all not written");
        for (int i = 0; i < 3; ++i)
            seen += p->once(200, &error) ? "answered " : "lost ";
        seen += "(" + error + ") ";
        ignore(false);
        for (int i = 0; i < 3; ++i)
            seen += p->once(1000, &error) ? "answered " : "lost ";
        return seen;
    });
    EXPECT_EQ(out,
              "lost lost lost (127.0.0.1: no answer within 200 ms) answered answered answered ");
}

TEST(Echo, AnUnreachableHostIsRefusedWithItsReason) {
    const auto out = inOwnNetns(
        [] {
            std::string error;
            auto p = EchoProbe::open("127.0.0.1", 0, &error);
            if (!p)
                return "open: " + error;
            const auto ms = p->once(300, &error);
            return std::string(ms ? "answered" : "lost") + ": " + error;
        },
        /*loUp=*/false);
    EXPECT_EQ(out, "open: 127.0.0.1: Network is unreachable");
}

// In a namespace of its own, so that the resolver's query cannot leave this machine.
TEST(Echo, AHostThatDoesNotResolveIsNamed) {
    const auto out = inOwnNetns([] {
        std::string error;
        return std::string(EchoProbe::open("no-such-host.invalid", 443, &error) ? "opened"
                                                                                : "refused") +
               ": " + error;
    });
    EXPECT_EQ(out.rfind("refused: no-such-host.invalid: ", 0), 0u) << out;
}

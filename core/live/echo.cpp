// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/live/echo.h"

#include "core/live/latency.h"

#include <arpa/inet.h>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <random>
#include <sys/socket.h>
#include <unistd.h>

namespace coresteer::live {

const char* echoMethodName(EchoProbe::Method m) {
    switch (m) {
    case EchoProbe::Method::IcmpDatagram:
        return "ICMP";
    case EchoProbe::Method::IcmpRaw:
        return "ICMP (raw socket)";
    case EchoProbe::Method::Tcp:
        return "TCP handshake";
    }
    return "?";
}

namespace {

// ICMP and ICMPv6 echo share their layout: type, code, checksum, identifier, sequence; then
// the payload, here a token and the sequence again.
struct EchoPacket {
    std::uint8_t type = 0, code = 0;
    std::uint16_t checksum = 0, id = 0, seq = 0;
    std::uint64_t token = 0;
    std::uint64_t pad = 0;
};
static_assert(sizeof(EchoPacket) == 24);

std::uint16_t internetChecksum(const void* data, std::size_t len) {
    const auto* p = static_cast<const unsigned char*>(data);
    std::uint32_t sum = 0;
    for (std::size_t i = 0; i + 1 < len; i += 2)
        sum += static_cast<std::uint32_t>(p[i] << 8 | p[i + 1]);
    if (len & 1)
        sum += static_cast<std::uint32_t>(p[len - 1] << 8);
    while (sum >> 16)
        sum = (sum & 0xffff) + (sum >> 16);
    return htons(static_cast<std::uint16_t>(~sum));
}

struct Resolved {
    sockaddr_storage addr{};
    socklen_t len = 0;
    int family = 0;
    std::string numeric;
};

std::optional<Resolved> resolve(const std::string& host, std::string* error) {
    addrinfo hints{};
    hints.ai_socktype = SOCK_DGRAM;
    addrinfo* res = nullptr;
    if (const int rc = ::getaddrinfo(host.c_str(), nullptr, &hints, &res); rc != 0) {
        if (error)
            *error = ::gai_strerror(rc);
        return std::nullopt;
    }
    Resolved r;
    for (auto* a = res; a; a = a->ai_next)
        if ((a->ai_family == AF_INET || a->ai_family == AF_INET6) &&
            a->ai_addrlen <= sizeof r.addr) {
            std::memcpy(&r.addr, a->ai_addr, a->ai_addrlen);
            r.len = a->ai_addrlen;
            r.family = a->ai_family;
            break;
        }
    ::freeaddrinfo(res);
    if (!r.family) {
        if (error)
            *error = "no IPv4 or IPv6 address";
        return std::nullopt;
    }
    char buf[NI_MAXHOST] = {};
    ::getnameinfo(reinterpret_cast<const sockaddr*>(&r.addr), r.len, buf, sizeof buf, nullptr, 0,
                  NI_NUMERICHOST);
    r.numeric = buf;
    return r;
}

} // namespace

std::unique_ptr<EchoProbe> EchoProbe::open(const std::string& host, int tcpPort,
                                           std::string* error) {
    std::string why;
    const auto r = resolve(host, &why);
    if (!r) {
        if (error)
            *error = host + ": " + why;
        return nullptr;
    }
    std::unique_ptr<EchoProbe> p(new EchoProbe);
    p->m_host = host;
    p->m_address = r->numeric;
    p->m_family = r->family;
    p->m_tcpPort = tcpPort;
    std::random_device rd;
    p->m_token = (std::uint64_t{rd()} << 32) | rd();
    p->m_id = static_cast<std::uint16_t>(rd());
    const int proto =
        r->family == AF_INET ? static_cast<int>(IPPROTO_ICMP) : static_cast<int>(IPPROTO_ICMPV6);
    for (const auto& [type, method] : {std::pair{int{SOCK_DGRAM}, Method::IcmpDatagram},
                                       std::pair{int{SOCK_RAW}, Method::IcmpRaw}}) {
        const int fd = ::socket(r->family, type | SOCK_NONBLOCK | SOCK_CLOEXEC, proto);
        if (fd < 0)
            continue;
        // Connected: only the probed host's packets reach this socket. A host the network
        // cannot reach is said as such, not taken for a missing permission.
        if (::connect(fd, reinterpret_cast<const sockaddr*>(&r->addr), r->len) != 0) {
            const int e = errno;
            ::close(fd);
            if (error)
                *error = host + ": " + std::strerror(e);
            return nullptr;
        }
        p->m_fd = fd;
        p->m_method = method;
        return p;
    }
    if (tcpPort > 0 && tcpPort < 65536) {
        p->m_method = Method::Tcp;
        return p;
    }
    if (error)
        *error = host +
                 ": ICMP is not open to this user (net.ipv4.ping_group_range does not "
                 "hold group " +
                 std::to_string(::getgid()) +
                 ", and raw sockets need CAP_NET_RAW), and no TCP port was given to probe "
                 "instead";
    return nullptr;
}

EchoProbe::~EchoProbe() {
    if (m_fd >= 0)
        ::close(m_fd);
}

std::optional<double> EchoProbe::once(int timeoutMs, std::string* error) {
    if (m_method == Method::Tcp)
        return tcpConnectMs(m_address, m_tcpPort, timeoutMs, error);
    return icmp(timeoutMs, error);
}

std::optional<double> EchoProbe::icmp(int timeoutMs, std::string* error) {
    const bool v4 = m_family == AF_INET;
    const std::uint8_t request = v4 ? 8 : 128, reply = v4 ? 0 : 129;
    EchoPacket out;
    out.type = request;
    out.id = htons(m_id);
    out.seq = htons(++m_seq);
    out.token = m_token;
    out.pad = m_seq;
    // The kernel fills in the checksum of datagram sockets and of every ICMPv6 socket.
    if (v4 && m_method == Method::IcmpRaw)
        out.checksum = internetChecksum(&out, sizeof out);
    const auto start = std::chrono::steady_clock::now();
    const auto deadline = start + std::chrono::milliseconds(timeoutMs);
    auto fail = [&](const std::string& why) -> std::optional<double> {
        if (error)
            *error = m_host + ": " + why;
        return std::nullopt;
    };
    if (::send(m_fd, &out, sizeof out, 0) != static_cast<ssize_t>(sizeof out))
        return fail(std::strerror(errno));
    for (;;) {
        const auto now = std::chrono::steady_clock::now();
        if (now >= deadline)
            return fail("no answer within " + std::to_string(timeoutMs) + " ms");
        pollfd pfd{m_fd, POLLIN, 0};
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now).count() + 1;
        const int rc = ::poll(&pfd, 1, static_cast<int>(left));
        if (rc < 0 && errno != EINTR)
            return fail(std::strerror(errno));
        if (rc <= 0)
            continue;
        unsigned char buf[1500];
        const ssize_t n = ::recv(m_fd, buf, sizeof buf, 0);
        if (n < 0) {
            if (errno == EAGAIN || errno == EINTR)
                continue;
            return fail(std::strerror(errno)); // an ICMP error for the host: unreachable
        }
        const auto end = std::chrono::steady_clock::now();
        // A raw IPv4 socket gets the IP header too; its length is in the header.
        std::size_t at = 0;
        if (v4 && m_method == Method::IcmpRaw) {
            if (n < 20)
                continue;
            at = static_cast<std::size_t>(buf[0] & 0x0f) * 4;
        }
        if (static_cast<std::size_t>(n) < at + sizeof(EchoPacket))
            continue;
        EchoPacket in;
        std::memcpy(&in, buf + at, sizeof in);
        // The echo request itself on a raw socket over loopback, other programs' echoes, and
        // late answers to earlier probes are all passed over.
        if (in.type != reply || in.code != 0 || in.token != m_token || in.seq != out.seq)
            continue;
        if (m_method == Method::IcmpRaw && in.id != out.id)
            continue;
        return std::chrono::duration<double, std::milli>(end - start).count();
    }
}

} // namespace coresteer::live

// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// Latency beyond the router: ICMP echo from this machine to a host past the WAN, as the common
// bufferbloat tests probe, so the queue that bloats under cake (the WAN's) is on the path.
//
// It needs no privilege where the system allows unprivileged ICMP sockets (Linux's datagram
// ICMP sockets, for the groups in net.ipv4.ping_group_range, which Debian opens to all). Where
// it does not, a raw ICMP socket serves a process that may open one (root, CAP_NET_RAW), and
// where neither can be had, a TCP handshake with a port the person names (the load server's)
// stands in. The method in use is reported, so the result says what it measured.
//
// Replies are matched by sequence number and a random token in the payload; a late answer to a
// lost probe is never taken for the current one.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace coresteer::live {

class EchoProbe {
public:
    enum class Method { IcmpDatagram, IcmpRaw, Tcp };

    // Resolves `host` once and opens the socket the whole test uses. tcpPort: the fallback's
    // port (0: none). nullptr with *error when the host does not resolve or no method can be
    // had (the error says which setting would allow one).
    static std::unique_ptr<EchoProbe> open(const std::string& host, int tcpPort,
                                           std::string* error);
    ~EchoProbe();
    EchoProbe(const EchoProbe&) = delete;
    EchoProbe& operator=(const EchoProbe&) = delete;

    // One round trip in milliseconds, or nullopt when no answer came within timeoutMs (or the
    // network said the host cannot be reached: *error then says so).
    std::optional<double> once(int timeoutMs, std::string* error = nullptr);

    Method method() const { return m_method; }
    // The address probed, numeric.
    const std::string& address() const { return m_address; }
    const std::string& host() const { return m_host; }

private:
    EchoProbe() = default;
    std::optional<double> icmp(int timeoutMs, std::string* error);

    Method m_method = Method::Tcp;
    int m_fd = -1;
    int m_family = 0;
    std::string m_host, m_address;
    int m_tcpPort = 0;
    std::uint16_t m_id = 0, m_seq = 0;
    std::uint64_t m_token = 0;
};

const char* echoMethodName(EchoProbe::Method m);

} // namespace coresteer::live

// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/live/latency.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace coresteer::live {

std::optional<double> tcpConnectMs(const std::string& host, int port, int timeoutMs,
                                   std::string* error) {
    auto fail = [&](const std::string& why) -> std::optional<double> {
        if (error)
            *error = host + ":" + std::to_string(port) + ": " + why;
        return std::nullopt;
    };
    addrinfo hints{};
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* res = nullptr;
    const std::string service = std::to_string(port);
    if (const int rc = ::getaddrinfo(host.c_str(), service.c_str(), &hints, &res); rc != 0)
        return fail(::gai_strerror(rc));
    std::optional<double> out;
    std::string why = "no address";
    for (auto* a = res; a && !out; a = a->ai_next) {
        const int fd =
            ::socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, a->ai_protocol);
        if (fd < 0) {
            why = std::strerror(errno);
            continue;
        }
        const auto start = std::chrono::steady_clock::now();
        int rc = ::connect(fd, a->ai_addr, a->ai_addrlen);
        if (rc != 0 && errno == EINPROGRESS) {
            pollfd p{fd, POLLOUT, 0};
            rc = ::poll(&p, 1, timeoutMs);
            if (rc == 0) {
                why = "no answer within " + std::to_string(timeoutMs) + " ms";
                rc = -1;
            } else if (rc > 0) {
                int err = 0;
                socklen_t len = sizeof err;
                ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len);
                rc = err == 0 ? 0 : -1;
                if (err)
                    why = std::strerror(err);
            } else {
                why = std::strerror(errno);
            }
        } else if (rc != 0) {
            why = std::strerror(errno);
        }
        if (rc == 0)
            out =
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                    .count();
        ::close(fd);
    }
    ::freeaddrinfo(res);
    if (!out)
        return fail(why);
    return out;
}

const char* bufferbloatGrade(double increaseMs) {
    if (increaseMs < 5)
        return "A+";
    if (increaseMs < 30)
        return "A";
    if (increaseMs < 60)
        return "B";
    if (increaseMs < 200)
        return "C";
    if (increaseMs < 400)
        return "D";
    return "F";
}

namespace {
// The answered probes, sorted; the lost ones counted in *lost.
std::vector<double> answered(const std::vector<std::optional<double>>& v, int* lost) {
    std::vector<double> a;
    for (const auto& x : v)
        if (x)
            a.push_back(*x);
        else if (lost)
            ++*lost;
    std::sort(a.begin(), a.end());
    return a;
}

double median(const std::vector<double>& a) {
    const auto n = a.size();
    return n % 2 ? a[n / 2] : (a[n / 2 - 1] + a[n / 2]) / 2;
}

// Nearest rank: the smallest value that at least 95 % of them do not exceed.
double percentile95(const std::vector<double>& a) {
    const auto rank = static_cast<std::size_t>(std::ceil(0.95 * static_cast<double>(a.size())));
    return a[std::max<std::size_t>(rank, 1) - 1];
}
} // namespace

std::optional<LatencyGrade> gradeLatency(const std::vector<std::optional<double>>& idle,
                                         const std::vector<std::optional<double>>& loaded) {
    LatencyGrade g;
    const auto i = answered(idle, nullptr);
    const auto l = answered(loaded, &g.lost);
    if (i.empty() || l.empty())
        return std::nullopt;
    g.idleMs = median(i);
    g.loadedMs = median(l);
    g.increaseMs = std::max(0.0, g.loadedMs - g.idleMs);
    g.p95LoadedMs = percentile95(l);
    g.p95IncreaseMs = std::max(0.0, g.p95LoadedMs - g.idleMs);
    g.grade = bufferbloatGrade(g.increaseMs);
    return g;
}

} // namespace coresteer::live

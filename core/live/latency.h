// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// Latency under load, the way the common bufferbloat tests grade it.
//
// The probe is a TCP connect to the router's SSH port: one SYN and its SYN-ACK, a round trip
// through the same queues as the traffic, closed at once with no byte sent. It needs nothing on
// the router and no raw sockets here.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace coresteer::live {

// Milliseconds for a TCP handshake with host:port, or nullopt with *error (refused, timed out,
// unresolvable). Blocks up to timeoutMs.
std::optional<double> tcpConnectMs(const std::string& host, int port, int timeoutMs,
                                   std::string* error);

// The grade for a latency increase under load: A+ < 5 ms, A < 30, B < 60, C < 200, D < 400,
// F beyond.
const char* bufferbloatGrade(double increaseMs);

struct LatencyGrade {
    double idleMs = 0;   // median before the load
    double loadedMs = 0; // median under load
    double increaseMs = 0;
    // The 95th percentile of the loaded probes (nearest rank), and its rise over the idle
    // median: what the worst moments of the test felt like, as the common tests show beside
    // the median.
    double p95LoadedMs = 0, p95IncreaseMs = 0;
    std::string grade;
    int lost = 0; // probes under load that got no answer
};
// nullopt when either phase has no answered probe.
std::optional<LatencyGrade> gradeLatency(const std::vector<std::optional<double>>& idle,
                                         const std::vector<std::optional<double>>& loaded);

} // namespace coresteer::live

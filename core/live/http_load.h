// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// HTTP(S) load for a bufferbloat test, as Waveform's and Cloudflare's tests make it: `streams`
// parallel downloads from LoadSpec::urls (stream i from URL i modulo their number) and as many
// uploads by POST to LoadSpec::postUrl, each started again when it ends, until the load is
// stopped. Its throughput each way comes every
// 0.5 s, as IperfReader's reports do, on the caller's clock.
//
// libcurl does the transfers, on a thread of the load's own: certificates are checked (the
// system's CAs, and LoadSpec::caFile when given), redirects are followed (at most 10, and only to
// http:// or https://), and a URL that does not answer, a certificate that is not trusted or an
// HTTP error status ends the load with an error that names the URL and the reason. The POST
// bodies are bytes of no meaning, sent with their length; the congestion control of the upload
// streams is LoadSpec::congestion where the kernel has it. Nothing is contacted before start().
#pragma once

#include "core/live/loadgen.h"

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

namespace coresteer::live {

class HttpLoad {
public:
    struct Report {
        double seconds = 0; // since start()
        double downBitsPerSec = 0, upBitsPerSec = 0;
    };
    // Called on the load's thread, every 0.5 s while it runs.
    using ReportFn = std::function<void(const Report&)>;

    // `direction` of `spec` is the one this load runs (not Sequence: its caller runs the
    // phases); `spec` must have urls, and a postUrl for Upload and Both.
    HttpLoad(LoadSpec spec, ReportFn report);
    ~HttpLoad(); // stops and joins
    HttpLoad(const HttpLoad&) = delete;
    HttpLoad& operator=(const HttpLoad&) = delete;

    // False with error() when the spec cannot run (no URL for a direction); the transfers'
    // own failures come later, through error().
    bool start();
    void stop();
    // True once the load ended by itself, with error() saying why.
    bool failed() const { return m_failed.load(); }
    std::string error() const;
    // What went each way, in bytes, since start().
    std::uint64_t bytesDown() const { return m_down.load(); }
    std::uint64_t bytesUp() const { return m_up.load(); }
    // How many transfers ran to their end and were started again.
    int restarts() const { return m_restarts.load(); }

private:
    struct Transfer;
    void run();
    void fail(std::string why);

    LoadSpec m_spec;
    ReportFn m_report;
    std::thread m_thread;
    std::atomic<bool> m_stop{false}, m_failed{false};
    std::atomic<std::uint64_t> m_down{0}, m_up{0};
    std::atomic<int> m_restarts{0};
    mutable std::mutex m_mutex;
    std::string m_error;
    void* m_multi = nullptr; // CURLM*, for curl_multi_wakeup() from stop()
};

} // namespace coresteer::live

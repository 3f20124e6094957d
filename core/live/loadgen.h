// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// Optional load generation for a bufferbloat test, of two kinds: iperf3 on this machine against a
// server the person names, or HTTP(S) transfers as the web's tests make (downloads from a URL,
// uploads by POST to another; http_load.h). Either runs N parallel streams, download, upload or
// both, and reports its throughput each way on the recording's time axis.
//
// iperf3 runs without a shell: its arguments are a vector, and a server name that is not a plain
// host name or address is refused (a name starting with '-' would be read as an option).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace coresteer::live {

struct LoadSpec {
    // Sequence: download, then upload, then both (an RRUL-like profile: `streams` each way in
    // the last), each phaseSeconds long.
    enum class Direction { Download, Upload, Both, Sequence };
    std::string server;
    int port = 5201;
    int streams = 4; // 1..32
    Direction direction = Direction::Download;
    int seconds = 3600; // until stopped, in practice
    int phaseSeconds = 10;
    // The streams' TCP congestion control at both ends (iperf3 --congestion), as a server on
    // the internet would send with (cubic, most often); empty: the systems' defaults.
    std::string congestion;
    // HTTP(S) load instead of iperf3 (http_load.h): downloads from `urls` (the streams take
    // them in turn), uploads by POST to `postUrl`. No `urls`: iperf3 against `server`.
    static constexpr std::size_t kMaxUrls = 8;
    std::vector<std::string> urls;
    std::string postUrl;
    // A CA bundle (PEM) to trust besides the system's, for a server with a certificate of its own.
    std::string caFile;
    bool isHttp() const { return !urls.empty(); }
    // Whether this load can run `d`: HTTP uploads need a URL that takes POST.
    bool canRun(Direction d) const {
        return !isHttp() || d == Direction::Download || !postUrl.empty();
    }
};

// A congestion control's name as the kernel names one: 1 to 15 of [a-z0-9_].
bool isCongestionName(std::string_view name);

// "host" or "host:port" or "[v6]:port" into the spec; nullopt with *error when it is not one.
bool parseLoadServer(std::string_view text, LoadSpec& spec, std::string* error);

// An http:// or https:// URL that the load may fetch: a host, no user or password, printable
// ASCII only (no spaces, control characters, U+2028 or other bytes beyond ASCII: those are
// %-encoded in a URL), at most 2048 bytes. False with *error saying why.
bool isLoadUrl(std::string_view url, std::string* error);

// A load target as the settings and the Live tab's list keep it, one of:
//   host[:port]              an iperf3 server
//   URL [URL]...             HTTP(S) downloads from these URLs (at most kMaxUrls)
//   URL [URL]... POST URL    ... and uploads by POST to the URL after the word POST
// into the spec (server and port, or urls and postUrl); false with *error when it is none.
bool parseLoadTarget(std::string_view text, LoadSpec& spec, std::string* error);
// The spec's target in that form again.
std::string loadTargetText(const LoadSpec& spec);

// The arguments after "iperf3": interval reports every 0.5 s, flushed as they come.
std::vector<std::string> iperfArguments(const LoadSpec& spec);

// Reads iperf3's text output as it arrives: one report per interval, with the throughput each
// way in bits per second (the SUM lines with several streams; the role column with --bidir).
class IperfReader {
public:
    explicit IperfReader(const LoadSpec& spec) : m_spec(spec) {}
    struct Report {
        double end = 0; // seconds since iperf3 started
        double downBitsPerSec = 0, upBitsPerSec = 0;
    };
    std::vector<Report> feed(std::string_view data);

private:
    void line(std::string_view l, std::vector<Report>& out);
    LoadSpec m_spec;
    std::string m_buf;
    std::optional<Report> m_pending;
    bool m_haveDown = false, m_haveUp = false;
};

} // namespace coresteer::live

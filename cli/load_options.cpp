// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The load test's options, as monitor --bufferbloat and tune take them: the load generator
// (--load, --post-url, --ca-file, --congestion), the probes beyond the router (--probe, --irtt).
#include "cli/verbs.h"

#include "core/base/text.h"
#include "core/live/http_load.h"
#include "core/live/irtt.h"
#include "core/live/loadgen.h"

#include <cctype>
#include <csignal>

#include <unistd.h>

namespace coresteer::cli {

using namespace coresteer::live;
using measure::LoadTest;

namespace {

// "iperf3://HOST[:PORT]" or an http(s):// URL into a load generator's spec; false with *error
// otherwise.
bool parseLoadUrl(const std::string& url, LoadSpec& spec, std::string* error) {
    constexpr std::string_view scheme = "iperf3://";
    if (url.rfind("http://", 0) == 0 || url.rfind("https://", 0) == 0) {
        if (!isLoadUrl(url, error))
            return false;
        spec.urls = {url};
        return true;
    }
    if (url.rfind(scheme, 0) != 0) {
        *error = "--load takes iperf3://HOST[:PORT] (an iperf3 server beyond the router) or an "
                 "http:// or https:// URL, not '" +
                 text::printable(url, 60) + "'";
        return false;
    }
    return parseLoadServer(std::string_view(url).substr(scheme.size()), spec, error);
}

// A host as a probe takes it: a name or an address, nothing an option parser would read.
bool plainHost(const std::string& h) {
    if (h.empty() || h.size() > 253 || h.front() == '-')
        return false;
    for (unsigned char c : h)
        if (!std::isalnum(c) && c != '.' && c != '-' && c != ':' && c != '_')
            return false;
    return true;
}

} // namespace

int loadTestSpec(const Options& o, LoadTest::Spec& test, bool& downloadOnly, std::ostream& err) {
    downloadOnly = false;
    std::string why;
    if (!o.loads.empty()) {
        // One iperf3 server, or up to 8 URLs that the streams take in turn.
        LoadSpec spec;
        for (const auto& l : o.loads) {
            LoadSpec one;
            if (!parseLoadUrl(l, one, &why))
                return usageError(err, why);
            if (!one.isHttp() && o.loads.size() > 1)
                return usageError(err, "a load test takes one iperf3:// --load, or "
                                       "http(s) URLs, not both or two servers");
            if (!one.isHttp())
                spec = one;
            else
                spec.urls.push_back(one.urls.front());
        }
        if (spec.urls.size() > LoadSpec::kMaxUrls)
            return usageError(err, "a load test takes at most " +
                                       std::to_string(LoadSpec::kMaxUrls) + " URLs to load");
        spec.direction = LoadSpec::Direction::Sequence;
        spec.phaseSeconds = static_cast<int>(o.phaseSeconds);
        if (!o.congestion.empty() && !isCongestionName(o.congestion))
            return usageError(err, "--congestion takes a congestion control's name, not '" +
                                       text::printable(o.congestion, 40) + "'");
        spec.congestion = o.congestion;
        if (!o.postUrl.empty() || !o.caFile.empty()) {
            if (!spec.isHttp())
                return usageError(err, "--post-url and --ca-file go with an HTTP(S) --load");
            if (!o.postUrl.empty() && !isLoadUrl(o.postUrl, &why))
                return usageError(err, "--post-url: " + why);
            spec.postUrl = o.postUrl;
            spec.caFile = o.caFile;
        }
        // Downloads only, without a URL that takes uploads: one phase, then the end.
        if (!spec.canRun(LoadSpec::Direction::Sequence)) {
            spec.direction = LoadSpec::Direction::Download;
            downloadOnly = true;
        }
        test.load = spec;
    } else if (!o.postUrl.empty() || !o.caFile.empty()) {
        return usageError(err, "--post-url and --ca-file go with an HTTP(S) --load");
    }
    for (const auto& i : o.irtt) {
        IrttTarget target;
        if (!parseIrttTarget(i, target, &why))
            return usageError(err, "--irtt: " + why);
        test.irtt.push_back(target);
    }
    for (const auto& h : o.probes) {
        if (!plainHost(h))
            return usageError(err, "--probe takes a host name or address, not '" +
                                       text::printable(h, 60) + "'");
        test.beyond.push_back(h);
    }
    return 0;
}

namespace {
std::atomic<bool> g_interrupted{false};
// What the first signal and every one after it say on stderr (nullptr: nothing), as written by
// the handler itself: write(2) is async-signal-safe, a stream is not.
std::atomic<const char*> g_first{nullptr}, g_again{nullptr};

void say(const char* s) {
    if (!s)
        return;
    std::size_t n = 0;
    while (s[n])
        ++n;
    [[maybe_unused]] const auto w = ::write(2, s, n);
}
} // namespace

extern "C" void onCliInterrupt(int) {
    say(g_interrupted.exchange(true) ? g_again.load() : g_first.load());
}

Interruptible::Interruptible(const char* first, const char* again) {
    g_interrupted = false;
    g_first = first;
    g_again = again;
    m_int = std::signal(SIGINT, onCliInterrupt);
    m_term = std::signal(SIGTERM, onCliInterrupt);
    m_hup = std::signal(SIGHUP, onCliInterrupt);
}

Interruptible::~Interruptible() {
    std::signal(SIGINT, m_int);
    std::signal(SIGTERM, m_term);
    std::signal(SIGHUP, m_hup);
    g_first = nullptr;
    g_again = nullptr;
}

const std::atomic<bool>& Interruptible::flag() {
    return g_interrupted;
}

} // namespace coresteer::cli

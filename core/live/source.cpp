// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/live/source.h"

#include "core/base/log.h"
#include "core/base/text.h"
#include "core/ssh/session.h"

#include <chrono>
#include <cstdio>

namespace coresteer::live {

namespace {

std::string readFile(const std::string& path) {
    std::string s;
    if (FILE* f = std::fopen(path.c_str(), "rb")) {
        char buf[65536];
        std::size_t n;
        while ((n = std::fread(buf, 1, sizeof buf, f)) > 0 && s.size() < (64u << 20))
            s.append(buf, n);
        std::fclose(f);
    }
    return s;
}

std::string errorText(const Diagnostics& d) {
    std::string out;
    for (const auto& e : d.entries())
        out += (out.empty() ? "" : "; ") + e.toString();
    return out;
}

class LocalSource : public SampleSource {
public:
    explicit LocalSource(const std::string& root) {
        if (root != "/")
            m_root = root;
    }
    std::optional<Sample> next(std::string* error) override {
        SampleTexts t{readFile(m_root + "/proc/uptime"), readFile(m_root + "/proc/stat"),
                      readFile(m_root + "/proc/softirqs"), readFile(m_root + "/proc/interrupts"),
                      readFile(m_root + "/proc/net/dev")};
        Diagnostics d;
        auto s = parseSample(t, d);
        if (!s && error)
            *error = errorText(d);
        if (s)
            m_texts = std::move(t);
        return s;
    }

private:
    std::string m_root;
};

class SshSource : public SampleSource {
public:
    SshSource(ssh::Session& session, std::string root, int timeoutMs, int countersEveryMs)
        : m_session(session), m_root(std::move(root)), m_timeoutMs(timeoutMs),
          m_countersEvery(countersEveryMs) {}

    std::optional<Sample> next(std::string* error) override {
        auto fail = [&](const std::string& why) -> std::optional<Sample> {
            log::debug(log::live, m_session.target().display(), ": the sampler stopped: ", why);
            if (error)
                *error = why;
            m_stream.reset(); // the next tick starts the sampler again
            m_bytesBefore += m_decoder.bytes();
            if (m_decoder.overflowed()) // ... unless it sent more than a sampler does
                m_refused = "the sampler was stopped for good: " + why;
            m_decoder = {};
            m_countersAsked.reset();
            m_dated.reset();
            return std::nullopt;
        };
        if (!m_refused.empty()) {
            if (error)
                *error = m_refused;
            return std::nullopt;
        }
        if (!m_stream) {
            m_stream = m_session.openStream(makeSamplerCommand(m_root));
            if (!m_stream)
                return fail(m_session.error().message);
            log::debug(log::live, m_session.target().display(), ": sampler started");
        }
        // Every file on the first tick and about once every m_countersEvery; /proc/stat alone
        // on the others.
        const auto now = std::chrono::steady_clock::now();
        const bool all = !m_countersAsked || now - *m_countersAsked >= m_countersEvery;
        if (!m_stream->write(all ? "\n" : "s\n"))
            return fail(m_session.error().message);
        if (all)
            m_countersAsked = now;
        std::vector<SampleTexts> ticks;
        const auto deadline =
            std::chrono::steady_clock::now() + std::chrono::milliseconds(m_timeoutMs);
        while (ticks.empty()) {
            const auto data = m_stream->read(100);
            if (!data)
                return fail(m_session.error().message);
            std::string why;
            if (!m_decoder.feed(*data, ticks, &why)) {
                if (!m_decoder.unreadable())
                    return fail(why);
                // The router lacks a file: the sampler is fine, and stays for the next tick.
                if (error)
                    *error = why;
                return std::nullopt;
            }
            if (ticks.empty() && std::chrono::steady_clock::now() > deadline)
                return fail("the sampler did not answer within " + std::to_string(m_timeoutMs) +
                            " ms");
        }
        auto texts = std::move(ticks.back());
        const bool dated = texts.uptime != std::string(kNoUptime) + "\n";
        if (!dated) { // read /proc/stat alone: its time comes from the CPUs' times in it
            if (!m_dated)
                return fail("the sampler sent a tick without its uptime before one with it");
            texts.uptime = text::fixed(m_dated->uptime, 2) + "\n"; // (for parseSample)
        }
        Diagnostics d;
        auto s = parseSample(texts, d);
        if (!s)
            return fail(errorText(d));
        if (dated) {
            m_dated = Dated{s->uptime, s->stat, now};
        } else {
            // No more time went by than on this machine's clock, with a second to spare.
            const std::chrono::duration<double> here = now - m_dated->at;
            const auto up = estimateUptime(m_dated->uptime, m_dated->stat, s->stat, m_lastUptime,
                                           here.count() + 1);
            if (!up) {
                m_countersAsked.reset(); // the next tick reads every file, the uptime with them
                if (error)
                    *error = "the router's /proc/stat did not say how much time went by: its "
                             "CPUs' times went back or beyond this machine's clock";
                return std::nullopt;
            }
            texts.uptime = text::fixed(*up, 3) + "\n";
            s->uptime = parseUptime(texts.uptime, d).value_or(*up);
        }
        m_lastUptime = s->uptime;
        m_texts = std::move(texts);
        return s;
    }
    std::uint64_t bytesIn() const override { return m_bytesBefore + m_decoder.bytes(); }

private:
    ssh::Session& m_session;
    std::string m_root;
    int m_timeoutMs;
    std::chrono::milliseconds m_countersEvery;
    std::optional<std::chrono::steady_clock::time_point> m_countersAsked;
    std::unique_ptr<ssh::Stream> m_stream;
    SampleDecoder m_decoder;
    std::uint64_t m_bytesBefore = 0;
    std::string m_refused; // why this router's sampler is not started again
    // The last tick that read the uptime: the stat-only ticks after it are dated from it.
    struct Dated {
        double uptime;
        ProcStat stat;
        std::chrono::steady_clock::time_point at;
    };
    std::optional<Dated> m_dated;
    double m_lastUptime = 0;
};

} // namespace

std::unique_ptr<SampleSource> localSampleSource(std::string root) {
    return std::make_unique<LocalSource>(root);
}

std::unique_ptr<SampleSource> sshSampleSource(ssh::Session& session, std::string root,
                                              int tickTimeoutMs, int countersEveryMs) {
    return std::make_unique<SshSource>(session, std::move(root), tickTimeoutMs, countersEveryMs);
}

} // namespace coresteer::live

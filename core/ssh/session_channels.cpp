// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// Session's commands: streams, run, runStreaming and upload (session.h).
#include "core/ssh/session.h"

#include "core/ssh/session_impl.h"

#include "core/base/log.h"
#include "core/base/shell.h"
#include "core/base/text.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <optional>
#include <random>
#include <vector>

namespace coresteer::ssh {

namespace {

// What startCommand() could not do: the kind of failure and its detail.
struct StartFailure {
    ErrorKind kind = ErrorKind::None;
    std::string detail;
};

// Opens a session channel and runs `command` on it. A server may close a channel it has just
// confirmed before any command runs on it: dropbear 2022.83 now and then sends EOF and close
// right after the confirmation when another channel's command ends at that moment (seen when
// a sampler's channel closes as the next command's opens). Nothing ran on such a channel, so
// it is opened again, up to three times. The exec request is awaited without blocking, so that
// such a close ends the wait at once rather than at libssh's timeout.
ChannelPtr startCommand(ssh_session s, const std::string& command, const std::atomic<bool>& stop,
                        int timeoutMs, const std::function<void()>& waitSocket,
                        StartFailure* failure) {
    // A channel the server closed, with its EOF, on a session that is still up.
    auto closedByServer = [&](ssh_channel ch) {
        return ssh_is_connected(s) && ssh_channel_is_eof(ch) && ssh_channel_is_closed(ch);
    };
    for (int attempt = 1; attempt <= 3; ++attempt) {
        ChannelPtr ch(ssh_channel_new(s));
        if (!ch) {
            *failure = {ErrorKind::Disconnected, ssh_get_error(s)};
            return nullptr;
        }
        if (ssh_channel_open_session(ch.get()) != SSH_OK) {
            if (closedByServer(ch.get())) {
                log::debug(log::ssh, "the server closed a new channel at once (attempt ", attempt,
                           "): opening another");
                continue;
            }
            *failure = {ErrorKind::Disconnected, ssh_get_error(s)};
            return nullptr;
        }
        const auto deadline = Clock::now() + std::chrono::milliseconds(timeoutMs);
        ssh_set_blocking(s, 0);
        int rc;
        while ((rc = ssh_channel_request_exec(ch.get(), command.c_str())) == SSH_AGAIN &&
               !ssh_channel_is_closed(ch.get()) && ssh_is_connected(s) && !stop &&
               Clock::now() < deadline)
            waitSocket();
        ssh_set_blocking(s, 1);
        if (rc == SSH_OK)
            return ch;
        if (stop) {
            *failure = {ErrorKind::Stopped, {}};
            return nullptr;
        }
        if (closedByServer(ch.get())) {
            log::debug(log::ssh, "the server closed a new channel before its command ran (attempt ",
                       attempt, "): opening another");
            continue;
        }
        if (rc == SSH_AGAIN && ssh_is_connected(s)) {
            *failure = {ErrorKind::Timeout, "the server did not answer the request to run a "
                                            "command within " +
                                                std::to_string(timeoutMs) + " ms"};
            return nullptr;
        }
        *failure = {ErrorKind::Disconnected, ssh_get_error(s)};
        return nullptr;
    }
    *failure = {ErrorKind::Disconnected,
                "the server closed three new channels in a row before a command ran"};
    return nullptr;
}

} // namespace

struct Stream::Impl {
    ChannelPtr channel;
};

Stream::Stream(Session& session, std::unique_ptr<Impl> impl)
    : m_session(session), m_impl(std::move(impl)) {}

Stream::~Stream() {
    if (m_impl->channel && m_session.isConnected()) {
        ssh_channel_send_eof(m_impl->channel.get()); // the command sees the end of its stdin
        ssh_channel_close(m_impl->channel.get());
    }
}

bool Stream::write(std::string_view data) {
    ssh_channel ch = m_impl->channel.get();
    std::size_t sent = 0;
    while (sent < data.size()) {
        if (m_session.m_stop)
            return m_session.fail(ErrorKind::Stopped);
        const int n =
            ssh_channel_write(ch, data.data() + sent, static_cast<uint32_t>(data.size() - sent));
        if (n == SSH_ERROR)
            return m_session.fail(ErrorKind::Disconnected, ssh_get_error(m_session.m_impl->s()));
        sent += static_cast<std::size_t>(n);
        m_session.m_payloadOut += static_cast<std::uint64_t>(n);
    }
    return true;
}

std::optional<std::string> Stream::read(int waitMs) {
    ssh_channel ch = m_impl->channel.get();
    std::string out;
    std::vector<char> buf(65536);
    const auto deadline = Clock::now() + std::chrono::milliseconds(waitMs);
    while (true) {
        if (m_session.m_stop) {
            m_session.fail(ErrorKind::Stopped);
            return std::nullopt;
        }
        // stderr is drained so that it cannot fill the window; its tail is kept for messages.
        const int e = ssh_channel_read_nonblocking(ch, buf.data(), 4096, 1);
        if (e > 0) {
            m_err.append(buf.data(), static_cast<std::size_t>(e));
            if (m_err.size() > 4096)
                m_err.erase(0, m_err.size() - 4096);
        }
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
        const int slice = static_cast<int>(std::clamp<long long>(left.count(), 0, kSliceMs / 2));
        const int n = ssh_channel_read_timeout(ch, buf.data(), static_cast<uint32_t>(buf.size()), 0,
                                               std::max(slice, 1));
        if (n == SSH_ERROR) {
            m_session.fail(ErrorKind::Disconnected, ssh_get_error(m_session.m_impl->s()));
            return std::nullopt;
        }
        if (n > 0) {
            m_session.m_payloadIn += static_cast<std::uint64_t>(n);
            out.append(buf.data(), static_cast<std::size_t>(n));
            // Take whatever else is already there, then return: at most kMaxReadBytes, or a
            // router that sends without pause would keep this loop (and `out`) going.
            int more;
            while (out.size() < Stream::kMaxReadBytes &&
                   (more = ssh_channel_read_nonblocking(
                        ch, buf.data(), static_cast<uint32_t>(buf.size()), 0)) > 0) {
                m_session.m_payloadIn += static_cast<std::uint64_t>(more);
                out.append(buf.data(), static_cast<std::size_t>(more));
            }
            return out;
        }
        if (ssh_channel_is_eof(ch) || ssh_channel_is_closed(ch)) {
            m_session.fail(ErrorKind::Disconnected,
                           "the command ended" + (m_err.empty()
                                                      ? std::string()
                                                      : ": " + text::printable(m_err, 300)));
            return std::nullopt;
        }
        if (Clock::now() >= deadline)
            return out;
    }
}

std::unique_ptr<Stream> Session::openStream(const std::string& command) {
    if (!isConnected()) {
        fail(ErrorKind::Disconnected, "not connected");
        return nullptr;
    }
    StartFailure why;
    ChannelPtr ch = startCommand(
        m_impl->s(), command, m_stop, m_target.connectTimeoutMs, [this] { m_impl->waitSocket(); },
        &why);
    if (!ch) {
        fail(why.kind, why.detail);
        return nullptr;
    }
    auto impl = std::make_unique<Stream::Impl>();
    impl->channel = std::move(ch);
    return std::unique_ptr<Stream>(new Stream(*this, std::move(impl)));
}

std::optional<int> Session::execute(const std::string& command, std::string_view input,
                                    const Sink& sink) {
    if (!isConnected()) {
        fail(ErrorKind::Disconnected, "not connected");
        return std::nullopt;
    }
    ssh_session s = m_impl->s();
    StartFailure why;
    ChannelPtr ch = startCommand(
        s, command, m_stop, m_target.connectTimeoutMs, [this] { m_impl->waitSocket(); }, &why);
    if (!ch) {
        fail(why.kind, why.detail);
        return std::nullopt;
    }
    std::size_t sent = 0;
    while (sent < input.size()) {
        const auto chunk = static_cast<uint32_t>(std::min<std::size_t>(input.size() - sent, 32768));
        const int n = ssh_channel_write(ch.get(), input.data() + sent, chunk);
        if (n == SSH_ERROR) {
            // The command ended before it read all of its input (it failed at once, say on a
            // directory it may not write): its output and exit status say why. Only a session
            // that went down is a broken transport.
            if (ssh_is_connected(s))
                break;
            fail(ErrorKind::Disconnected, ssh_get_error(s));
            return std::nullopt;
        }
        sent += static_cast<std::size_t>(n);
        m_payloadOut += static_cast<std::uint64_t>(n);
        if (m_stop) {
            fail(ErrorKind::Stopped);
            return std::nullopt;
        }
    }
    if (sent == input.size())
        ssh_channel_send_eof(ch.get());

    std::vector<char> buf(65536);
    auto idleSince = Clock::now();
    auto lastKeepalive = Clock::now();
    bool open[2] = {true, true};
    while (open[0] || open[1]) {
        bool got = false;
        for (int stream = 0; stream < 2; ++stream) {
            if (!open[stream])
                continue;
            const int n =
                ssh_channel_read_timeout(ch.get(), buf.data(), static_cast<uint32_t>(buf.size()),
                                         stream, stream == 0 ? kSliceMs / 2 : 1);
            if (n == SSH_ERROR) {
                fail(ErrorKind::Disconnected, ssh_get_error(s));
                return std::nullopt;
            }
            if (n > 0) {
                got = true;
                m_payloadIn += static_cast<std::uint64_t>(n);
                if (!sink(std::string_view(buf.data(), static_cast<std::size_t>(n)), stream == 1))
                    return std::nullopt; // the sink set the error
            } else if (ssh_channel_is_eof(ch.get())) {
                open[stream] = false;
            }
        }
        if (ssh_channel_is_closed(ch.get()) && !got)
            break;
        if (m_stop) {
            fail(ErrorKind::Stopped);
            return std::nullopt;
        }
        const auto now = Clock::now();
        if (got) {
            idleSince = now;
        } else if (now - idleSince > std::chrono::milliseconds(m_target.operationTimeoutMs)) {
            fail(ErrorKind::Timeout, "no output for " +
                                         std::to_string(m_target.operationTimeoutMs) +
                                         " ms from: " + text::printable(command, 60));
            return std::nullopt;
        }
        if (now - lastKeepalive > std::chrono::milliseconds(m_target.keepaliveIntervalMs)) {
            ssh_send_ignore(s, "keepalive");
            lastKeepalive = now;
        }
        if (!ssh_is_connected(s)) {
            fail(ErrorKind::Disconnected, ssh_get_error(s));
            return std::nullopt;
        }
    }
    // The exit status follows the EOF. Wait for it without blocking, so that a stop or the
    // deadline ends the wait, and with the socket polled, so that the wait does not spin.
    const auto deadline = Clock::now() + std::chrono::milliseconds(m_target.operationTimeoutMs);
    ssh_set_blocking(s, 0);
    int status = -1;
    while ((status = ssh_channel_get_exit_status(ch.get())) < 0 &&
           !ssh_channel_is_closed(ch.get()) && ssh_is_connected(s) && Clock::now() < deadline &&
           !m_stop)
        m_impl->waitSocket();
    ssh_set_blocking(s, 1);
    if (status < 0)
        status = ssh_channel_get_exit_status(ch.get());
    if (status < 0) {
        fail(m_stop ? ErrorKind::Stopped : ErrorKind::Disconnected,
             "the command ended without an exit status (killed, or the connection broke)");
        return std::nullopt;
    }
    return status;
}

std::optional<RunResult> Session::run(const std::string& command, std::string_view input,
                                      std::size_t outputCap) {
    RunResult r;
    bool tooLarge = false;
    const auto started = Clock::now();
    const auto st = execute(command, input, [&](std::string_view data, bool isStderr) {
        auto& dst = isStderr ? r.err : r.out;
        if (r.out.size() + r.err.size() + data.size() > outputCap) {
            tooLarge = true;
            return false;
        }
        dst.append(data);
        return true;
    });
    if (tooLarge) {
        fail(ErrorKind::OutputTooLarge, "more than " + std::to_string(outputCap >> 20) +
                                            " MiB from: " + text::printable(command, 60));
        return std::nullopt;
    }
    if (!st)
        return std::nullopt;
    r.exitStatus = *st;
    log::debug(
        log::ssh, m_target.display(), ": ran `", text::printable(command, 60), "` (", input.size(),
        " bytes in): exit ", r.exitStatus, ", ", r.out.size(), "+", r.err.size(), " bytes out in ",
        std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - started).count(),
        " ms");
    return r;
}

std::optional<int> Session::runStreaming(const std::string& command, const Sink& sink,
                                         std::string_view input) {
    bool stoppedBySink = false;
    const auto st = execute(command, input, [&](std::string_view d, bool e) {
        if (!sink(d, e)) {
            stoppedBySink = true;
            return false;
        }
        return true;
    });
    if (stoppedBySink)
        fail(ErrorKind::Stopped, "the reader stopped");
    return st;
}

bool Session::upload(const std::string& path, std::string_view content, unsigned mode) {
    std::random_device rd;
    const std::string tmp = path + ".coresteer-" + std::to_string(rd() % 1000000000u);
    char modeText[8];
    std::snprintf(modeText, sizeof modeText, "%o", mode & 07777u);
    const std::string q = shellQuote(path), qt = shellQuote(tmp);
    const std::string cmd = "umask 077; cat > " + qt + " && chmod " + modeText + " " + qt +
                            " && mv -f " + qt + " " + q + " || { rc=$?; rm -f " + qt +
                            "; exit $rc; }";
    const auto r = run(cmd, content, 1u << 20);
    if (!r)
        return false;
    if (r->exitStatus != 0) {
        const auto err = std::string(text::trim(r->err));
        const auto kind = err.find("ermission denied") != std::string::npos
                              ? ErrorKind::PermissionDenied
                          : r->exitStatus == 127 ? ErrorKind::CommandNotFound
                                                 : ErrorKind::Protocol;
        return fail(kind, "writing " + path + ": " +
                              (err.empty() ? "exit status " + std::to_string(r->exitStatus) : err));
    }
    return true;
}

} // namespace coresteer::ssh

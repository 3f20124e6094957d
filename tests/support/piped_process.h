// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// A command run by /bin/sh with pipes on its standard input and output, for a test that talks to
// it line by line (a sampler, a remote shell through OpenSSH). The destructor closes both pipes
// and waits for it: a command that ends at the end of its input ends there.
#pragma once

#include <chrono>
#include <cstdlib>
#include <optional>
#include <poll.h>
#include <string>
#include <string_view>
#include <sys/wait.h>
#include <unistd.h>

namespace coresteer::test {

class PipedProcess {
public:
    // `path`, when given, is the PATH the command runs with.
    explicit PipedProcess(const std::string& command, const std::string& path = {}) {
        int in[2], out[2];
        if (::pipe(in) != 0)
            return;
        if (::pipe(out) != 0) {
            ::close(in[0]);
            ::close(in[1]);
            return;
        }
        m_pid = ::fork();
        if (m_pid == 0) {
            ::dup2(in[0], 0);
            ::dup2(out[1], 1);
            ::close(in[1]);
            ::close(out[0]);
            if (!path.empty())
                ::setenv("PATH", path.c_str(), 1);
            ::execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
            ::_exit(127);
        }
        ::close(in[0]);
        ::close(out[1]);
        m_in = in[1];
        m_out = out[0];
    }
    PipedProcess(const PipedProcess&) = delete;
    PipedProcess& operator=(const PipedProcess&) = delete;
    ~PipedProcess() {
        if (m_in >= 0)
            ::close(m_in);
        if (m_out >= 0)
            ::close(m_out);
        if (m_pid > 0) {
            int st = 0;
            ::waitpid(m_pid, &st, 0);
        }
    }
    bool started() const { return m_pid > 0; }
    bool write(std::string_view data) {
        return m_in >= 0 &&
               ::write(m_in, data.data(), data.size()) == static_cast<ssize_t>(data.size());
    }
    // What the command printed next, waiting up to `waitMs`; nullopt when nothing came in time,
    // "" when its output ended.
    std::optional<std::string> read(int waitMs) {
        pollfd p{m_out, POLLIN, 0};
        if (m_out < 0 || ::poll(&p, 1, waitMs) <= 0)
            return std::nullopt;
        char buf[65536];
        const auto n = ::read(m_out, buf, sizeof buf);
        return n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : std::string();
    }

private:
    pid_t m_pid = -1;
    int m_in = -1, m_out = -1;
};

} // namespace coresteer::test

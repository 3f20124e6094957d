// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// A real web server for the HTTP(S) load's tests: tests/support/http_load_server.py under
// python3, on 127.0.0.1 and a port the kernel picks, stopped with the object. With `tls`, it
// serves HTTPS with a certificate for 127.0.0.1 signed by a CA made for it (openssl) in `dir`,
// whose PEM is caFile().
#pragma once

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <spawn.h>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

extern char** environ;

namespace coresteer::test {

class WebServer {
public:
    explicit WebServer(const std::filesystem::path& dir = {}, bool tls = false,
                       const std::string& congestion = {}) {
        std::vector<std::string> args = {"python3", std::string(CORESTEER_SOURCE_DIR) +
                                                        "/tests/support/http_load_server.py"};
        if (tls) {
            std::filesystem::create_directories(dir);
            m_ca = (dir / "ca.pem").string();
            const auto d = dir.string();
            const std::string make =
                "cd '" + d + "' && " +
                "openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=coresteer-test-ca "
                "-keyout ca.key -out ca.pem 2>/dev/null && "
                "openssl req -newkey rsa:2048 -nodes -subj /CN=127.0.0.1 -keyout server.key "
                "-out server.csr 2>/dev/null && "
                "printf 'subjectAltName=IP:127.0.0.1\\n' > ext.cnf && "
                "openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial "
                "-days 2 -extfile ext.cnf -out server.pem 2>/dev/null";
            if (std::system(make.c_str()) != 0)
                return;
            args.insert(args.end(), {"--cert", d + "/server.pem", "--key", d + "/server.key"});
        }
        if (!congestion.empty())
            args.insert(args.end(), {"--congestion", congestion});
        int out[2];
        if (::pipe(out) != 0)
            return;
        posix_spawn_file_actions_t fa;
        posix_spawn_file_actions_init(&fa);
        posix_spawn_file_actions_adddup2(&fa, out[1], 1);
        posix_spawn_file_actions_addclose(&fa, out[0]);
        std::vector<char*> argv;
        for (auto& a : args)
            argv.push_back(a.data());
        argv.push_back(nullptr);
        const int rc = ::posix_spawnp(&m_pid, "python3", &fa, nullptr, argv.data(), environ);
        posix_spawn_file_actions_destroy(&fa);
        ::close(out[1]);
        if (rc != 0) {
            m_pid = -1;
            ::close(out[0]);
            return;
        }
        std::string line;
        char c = 0;
        while (::read(out[0], &c, 1) == 1 && c != '\n')
            line += c;
        ::close(out[0]);
        m_port = std::atoi(line.c_str());
    }
    ~WebServer() {
        if (m_pid > 0) {
            ::kill(m_pid, SIGTERM);
            ::waitpid(m_pid, nullptr, 0);
        }
    }
    WebServer(const WebServer&) = delete;
    WebServer& operator=(const WebServer&) = delete;

    bool running() const { return m_pid > 0 && m_port > 0; }
    int port() const { return m_port; }
    // "http://127.0.0.1:PORT" + path (https:// with tls).
    std::string url(const std::string& path) const {
        return std::string(m_ca.empty() ? "http" : "https") +
               "://127.0.0.1:" + std::to_string(m_port) + path;
    }
    const std::string& caFile() const { return m_ca; }

private:
    pid_t m_pid = -1;
    int m_port = 0;
    std::string m_ca;
};

} // namespace coresteer::test

// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// Reads tests/fixtures/boards/<board>/EXPECT: the facts a board's snapshot must show.
#pragma once

#include <algorithm>
#include <arpa/inet.h>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <netinet/in.h>
#include <sstream>
#include <string>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace coresteer::test {

struct BoardExpect {
    int cpus = -1;
    std::map<std::string, std::string> classes;               // name -> cpulist
    std::map<std::string, std::vector<std::uint32_t>> nics;   // ifname -> IRQs
    std::map<std::uint32_t, std::vector<std::string>> shared; // IRQ -> interfaces
    std::string board, openwrt, irqbalance;
    std::vector<std::string> unknown;
};

// A whole file as bytes (empty when it cannot be read).
inline std::string slurp(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// Runs a shell command; its stdout, and its exit status (-1 when it did not exit) in *status.
inline std::string capture(const std::string& cmd, int* status = nullptr) {
    FILE* p = ::popen(cmd.c_str(), "r");
    std::string out;
    if (!p) {
        if (status)
            *status = -1;
        return out;
    }
    char buf[65536];
    std::size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, p)) > 0)
        out.append(buf, n);
    const int st = ::pclose(p);
    if (status)
        *status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    return out;
}

inline std::filesystem::path boardsDir() {
    return std::filesystem::path(CORESTEER_FIXTURES) / "boards";
}

// The demo router's tree is product data (resources/demo: the app's built-in demo is made from
// it), and a board for the tests like the fixtures.
inline std::filesystem::path demoBoardsDir() {
    return std::filesystem::path(CORESTEER_DEMO_DIR);
}

// A board's tree, among the fixtures or the demo's.
inline std::filesystem::path boardDir(const std::string& board) {
    const auto demo = demoBoardsDir() / board;
    return std::filesystem::exists(demo / "EXPECT") ? demo : boardsDir() / board;
}

// A copy of a board fixture at `dest` (under the build tree), links copied as links, for tests
// that change its files.
inline void copyBoard(const std::string& board, const std::filesystem::path& dest) {
    std::filesystem::create_directories(dest.parent_path());
    std::filesystem::copy(boardDir(board), dest,
                          std::filesystem::copy_options::recursive |
                              std::filesystem::copy_options::copy_symlinks);
}

inline std::vector<std::string> boardNames() {
    std::vector<std::string> out;
    for (const auto& dir : {boardsDir(), demoBoardsDir()})
        for (const auto& e : std::filesystem::directory_iterator(dir))
            if (e.is_directory() && std::filesystem::exists(e.path() / "EXPECT"))
                out.push_back(e.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
}

inline BoardExpect readExpect(const std::string& board) {
    BoardExpect x;
    std::ifstream in(boardDir(board) / "EXPECT");
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream ls(line);
        std::string key;
        if (!(ls >> key) || key[0] == '#')
            continue;
        if (key == "cpus") {
            ls >> x.cpus;
        } else if (key == "class") {
            std::string name, list;
            ls >> name >> list;
            x.classes[name] = list;
        } else if (key == "nic") {
            std::string ifname;
            ls >> ifname;
            std::uint32_t irq;
            while (ls >> irq)
                x.nics[ifname].push_back(irq);
        } else if (key == "shared") {
            std::uint32_t irq;
            ls >> irq;
            std::string ifname;
            while (ls >> ifname)
                x.shared[irq].push_back(ifname);
        } else if (key == "board") {
            ls >> x.board;
        } else if (key == "openwrt") {
            ls >> x.openwrt;
        } else if (key == "irqbalance") {
            ls >> x.irqbalance;
        } else {
            x.unknown.push_back(line);
        }
    }
    return x;
}

// A TCP listener on 127.0.0.1 on a free port that never accepts: the kernel completes
// handshakes up to the backlog, and nothing is ever said. Closed with the object.
struct LoopbackListener {
    int fd = -1;
    int port = 0;
    LoopbackListener() {
        fd = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t len = sizeof a;
        if (fd >= 0 && ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 &&
            ::listen(fd, 16) == 0 && ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0)
            port = ntohs(a.sin_port);
    }
    ~LoopbackListener() { close(); }
    void close() {
        if (fd >= 0)
            ::close(fd);
        fd = -1;
    }
    LoopbackListener(const LoopbackListener&) = delete;
    LoopbackListener& operator=(const LoopbackListener&) = delete;
};

} // namespace coresteer::test

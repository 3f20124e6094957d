// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The SSH test servers (tests/ssh/servers.sh): a real OpenSSH sshd and a real dropbear on
// 127.0.0.1 with generated keys, started once per test program in its own directory. What
// servers.sh writes to <dir>/env (ports, users, key paths) is read into serverEnv().
#pragma once

#include "core/model/snapshot_detail.h"
#include "tests/support/board_expect.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>

namespace coresteer::test {

enum class Server { OpenSsh, Dropbear };

inline std::map<std::string, std::string>& serverEnv() {
    static std::map<std::string, std::string> env;
    return env;
}

inline std::string env(const std::string& k) {
    return serverEnv().at(k);
}

inline std::string firstLine(const std::filesystem::path& p) {
    auto s = slurp(p);
    return s.substr(0, s.find('\n'));
}

class Servers : public ::testing::Environment {
public:
    explicit Servers(std::filesystem::path dir) : m_dir(std::move(dir)) {}
    void SetUp() override {
        ASSERT_EQ(std::system(command("start").c_str()), 0) << command("start");
        Diagnostics d;
        serverEnv() = detail::parseShellAssignments(slurp(m_dir / "env"), d, "env");
        ASSERT_TRUE(d.empty());
        ::unsetenv("SSH_AUTH_SOCK"); // the agent path is tested with an agent of our own
    }
    void TearDown() override { (void)std::system(command("stop").c_str()); }

private:
    std::string command(const char* verb) const {
        return std::string(CORESTEER_SOURCE_DIR) + "/tests/ssh/servers.sh " + verb + " '" +
               m_dir.string() + "'";
    }
    std::filesystem::path m_dir;
};

} // namespace coresteer::test

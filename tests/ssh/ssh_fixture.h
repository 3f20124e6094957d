// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The fixture of the SSH tests: a session to the test sshd or dropbear (tests/ssh/servers.sh),
// a prompter that answers from a script, a writable copy of a board, the process's peak RSS.
#pragma once

#include "core/collect/collect_local.h"
#include "core/collect/collect_remote.h"
#include "core/layout/apply.h"
#include "core/layout/layout_json.h"
#include "core/layout/persist.h"
#include "core/layout/planner.h"
#include "core/live/source.h"
#include "core/live/stream.h"
#include "core/model/snapshot_detail.h"
#include "core/model/snapshot_json.h"
#include "core/router/router.h"
#include "core/ssh/session.h"
#include "tests/ssh/servers_env.h"
#include "tests/support/test_names.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <arpa/inet.h>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <map>
#include <netinet/in.h>
#include <sstream>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace coresteer;
using namespace coresteer::ssh;
namespace fs = std::filesystem;
using namespace coresteer::test;
using Clock = std::chrono::steady_clock;

namespace coresteer::test {

using namespace coresteer::ssh;
using Clock = std::chrono::steady_clock;

inline const fs::path kDir = fs::path(CORESTEER_TEST_TMP) / "sshd";
// Answers from a script, and remembers what it was asked.
class ScriptedPrompter : public Prompter {
public:
    bool acceptHostKey = true;
    std::optional<std::string> passwordAnswer, passphraseAnswer;
    int hostKeyQuestions = 0, passwordQuestions = 0, passphraseQuestions = 0, kbdQuestions = 0;

    bool acceptUnknownHostKey(const std::string&, const HostKey& key) override {
        ++hostKeyQuestions;
        lastKey = key;
        return acceptHostKey;
    }
    std::optional<std::string> password(const std::string&) override {
        ++passwordQuestions;
        return passwordAnswer;
    }
    std::optional<std::string> passphrase(const std::string&) override {
        ++passphraseQuestions;
        return passphraseAnswer;
    }
    std::optional<std::vector<std::string>>
    keyboardInteractive(const std::string&, const std::string&,
                        const std::vector<Prompt>& prompts) override {
        ++kbdQuestions;
        if (!passwordAnswer)
            return std::nullopt;
        return std::vector<std::string>(prompts.size(), *passwordAnswer);
    }
    HostKey lastKey;
};

class Ssh : public ::testing::TestWithParam<Server> {
protected:
    void SetUp() override {
        m_tmp = kDir / "cases" / test::currentTestFileName();
        fs::remove_all(m_tmp);
        fs::create_directories(m_tmp / "sshdir");
    }
    int port() const {
        return std::stoi(env(GetParam() == Server::OpenSsh ? "CS_SSHD_PORT" : "CS_DROPBEAR_PORT"));
    }
    Target target(bool withKey = true) const {
        Target t;
        t.host = "127.0.0.1";
        t.port = port();
        t.user = env("CS_SSH_USER");
        t.knownHostsFile = (m_tmp / "known_hosts").string();
        t.sshDir = (m_tmp / "sshdir").string(); // no default identities
        t.configFile = "none";
        t.connectTimeoutMs = 5000;
        t.operationTimeoutMs = 10000;
        if (withKey)
            t.identityFile = env("CS_CLIENT_KEY");
        return t;
    }
    // known_hosts holds the key in `pubFile` (another key than the server's) for this host.
    void pinKnownHost(const std::string& pubFile) const {
        const auto key = slurp(pubFile);
        std::ofstream(m_tmp / "known_hosts")
            << "[127.0.0.1]:" << port() << " " << key.substr(0, key.rfind(' ')) << "\n";
    }
    fs::path m_tmp;
};

// This process's peak resident size so far (VmHWM), in KiB; -1 when it cannot be read.
inline long peakRssKiB() {
    std::ifstream in("/proc/self/status");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind("VmHWM:", 0) == 0)
            return std::stol(line.substr(6));
    return -1;
}

// Under AddressSanitizer freed memory waits in a quarantine, and RSS counts it.
constexpr long kRssSlack =
#if defined(__SANITIZE_ADDRESS__)
    2;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
    2;
#else
    1;
#endif
#else
    1;
#endif

// A copy of a board that the SSH test user may write to, as a router's /proc and /sys.
inline fs::path writableBoard(const fs::path& dir, const std::string& board) {
    const auto root = dir / "root";
    fs::remove_all(root);
    fs::create_directories(dir);
    fs::copy(test::boardDir(board), root,
             fs::copy_options::recursive | fs::copy_options::copy_symlinks);
    (void)std::system(("chmod -R a+rwX '" + dir.string() + "'").c_str());
    return root;
}

} // namespace coresteer::test

// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The Connect dialog's host list: Host aliases from ssh_config, with Include followed.
#include "core/ssh/target.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

using namespace coresteer::ssh;
namespace fs = std::filesystem;

namespace {

fs::path scratch(const std::string& name) {
    const auto d = fs::path(CORESTEER_TEST_TMP) / "ssh_config" / name;
    fs::remove_all(d);
    fs::create_directories(d / "config.d");
    return d;
}

} // namespace

TEST(SshConfigHosts, ListsAliasesInOrderWithoutPatternsOrDuplicates) {
    const auto d = scratch("aliases");
    std::ofstream(d / "config") << "# routers\n"
                                   "Host r6s bpi-r4\n"
                                   "    HostName 192.0.2.1\n"
                                   "    User root\n"
                                   "Host *.lan !bad r6s\n"
                                   "  host=\"ipq40xx\"\n"
                                   "Host *\n"
                                   "    ServerAliveInterval 30\n"
                                   "Match host x\n"
                                   "HOST \"$(reboot)\" x86-mini\n";
    EXPECT_EQ(sshConfigHosts((d / "config").string(), d.string()),
              (std::vector<std::string>{"r6s", "bpi-r4", "ipq40xx", "x86-mini"}));
}

TEST(SshConfigHosts, FollowsIncludeRelativeToTheSshDirectoryAndStopsOnLoops) {
    const auto d = scratch("include");
    std::ofstream(d / "config") << "Include config.d/*.conf\nHost main\nInclude config\n";
    std::ofstream(d / "config.d" / "a.conf") << "Host from-a\n";
    std::ofstream(d / "config.d" / "b.conf")
        << "Host from-b\nInclude " << (d / "config").string() << "\n";
    const auto hosts = sshConfigHosts((d / "config").string(), d.string());
    EXPECT_EQ(hosts, (std::vector<std::string>{"from-a", "from-b", "main"}));
}

TEST(SshConfigHosts, AMissingFileGivesNone) {
    EXPECT_TRUE(sshConfigHosts("/nonexistent/coresteer/config", "/nonexistent").empty());
}

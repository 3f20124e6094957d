// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/inventory.h"

#include <gtest/gtest.h>

using namespace coresteer;

namespace {

std::vector<InventoryHost> read(const std::string& text, const std::string& group = "") {
    std::string error;
    auto hosts = readInventory(text, group, "hosts.ini", &error);
    EXPECT_TRUE(hosts) << error;
    return hosts.value_or(std::vector<InventoryHost>{});
}

std::string failure(const std::string& text, const std::string& group = "") {
    std::string error;
    EXPECT_FALSE(readInventory(text, group, "hosts.ini", &error));
    return error;
}

} // namespace

TEST(Inventory, AnsibleIniHostsBecomeTargets) {
    const auto hosts = read(R"(# routers
plain
r6s ansible_host=127.0.0.10 ansible_user=root
r4s ansible_host=::1 ansible_port=2222 coresteer_root="/srv/fixture one" # a comment
ssh://admin@127.0.0.12:22
named ansible_user=op ansible_ssh_private_key_file=~/.ssh/fleet
)");
    ASSERT_EQ(hosts.size(), 5u);
    EXPECT_EQ(hosts[0].target, "plain"); // an ssh_config alias, as ssh would take it
    EXPECT_EQ(hosts[1].target, "ssh://root@127.0.0.10");
    EXPECT_EQ(hosts[2].target, "ssh://[::1]:2222");
    EXPECT_EQ(hosts[2].root, "/srv/fixture one");
    EXPECT_EQ(hosts[3].target, "ssh://admin@127.0.0.12:22");
    EXPECT_EQ(hosts[4].target, "ssh://op@named");
    EXPECT_EQ(hosts[4].identity, "~/.ssh/fleet");
}

TEST(Inventory, GroupsChildrenAndVariablePrecedence) {
    const std::string text = R"([all:vars]
ansible_user=everyone
ansible_port=22

[edge]
e1 ansible_host=127.0.0.21
e2 ansible_host=127.0.0.22 ansible_user=me

[edge:vars]
ansible_port=2200

[core]
c1

[sites:children]
edge
)";
    const auto all = read(text);
    ASSERT_EQ(all.size(), 3u);
    EXPECT_EQ(all[0].target, "ssh://everyone@127.0.0.21:2200"); // the group's port beats all:vars
    EXPECT_EQ(all[1].target, "ssh://me@127.0.0.22:2200");       // the host's user beats both
    EXPECT_EQ(all[2].target, "ssh://everyone@c1:22");
    const auto sites = read(text, "sites");
    ASSERT_EQ(sites.size(), 2u);
    EXPECT_EQ(sites[0].name, "e1");
    EXPECT_EQ(read(text, "core").size(), 1u);
    EXPECT_EQ(read(text, "all").size(), 3u);
    EXPECT_EQ(failure(text, "nowhere"), "hosts.ini: no group 'nowhere'");
    EXPECT_EQ(failure("[empty]\n", "empty"), "hosts.ini: group 'empty' has no host");
}

TEST(Inventory, WhatItCannotReadNamesTheLine) {
    EXPECT_EQ(failure("ok\nr[1:3] ansible_user=x\n"),
              "hosts.ini:2: host ranges such as 'r[1:3]' are not supported: name each router");
    EXPECT_EQ(failure("all:\n  hosts:\n"),
              "hosts.ini:1: this looks like a YAML inventory; coresteer reads the INI format");
    EXPECT_EQ(failure("a\n[g\n"), "hosts.ini:2: a section header ends with ']'");
    EXPECT_EQ(failure("[g:oops]\n"), "hosts.ini:1: unknown section kind ':oops'");
    EXPECT_EQ(failure("a ansible_host='x\n"), "hosts.ini:1: a quote is not closed");
    EXPECT_EQ(failure("a port\n"), "hosts.ini:1: expected name=value, found 'port'");
    EXPECT_EQ(failure("[g:vars]\nnovalue\n"), "hosts.ini:2: expected name=value, found 'novalue'");
    EXPECT_EQ(failure("a\x01"
                      "b\n"),
              "hosts.ini:1: 'a\\x01b' is not a host name");
    EXPECT_EQ(failure("# nothing\n"), "hosts.ini: no host");
}

// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The routers of a fleet, read from an inventory file: Ansible's INI format (the inventory the
// playbook of `coresteer-cli export ansible` runs with), or one TARGET per line.
//
//   [routers]
//   r6s   ansible_host=192.0.2.10 ansible_user=root
//   r4s   ansible_host=192.0.2.11 ansible_port=2222 coresteer_root=/tmp/fixture
//   ssh://root@192.0.2.12
//   [routers:vars]
//   ansible_user=admin
//   [all:children]
//   routers
//
// Read: host lines with ansible_host, ansible_port, ansible_user,
// ansible_ssh_private_key_file and coresteer_root (host variables beat the group's, which beat
// all:vars); [group], [group:vars] and [group:children] sections. Other variables are ignored.
// Host ranges ("r[1:9]") and YAML inventories are refused with the line that has them.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace coresteer {

struct InventoryHost {
    std::string name;     // as the inventory names it
    std::string target;   // ssh://[user@]host[:port], or an ssh_config alias
    std::string root;     // coresteer_root, "" when not set
    std::string identity; // ansible_ssh_private_key_file, "" when not set
};

// The hosts of `group` ("" or "all": every host), in the order the file first names them.
// nullopt with *error "<file>:<line>: ..." on what cannot be read, or when the group is unknown
// or has no host.
std::optional<std::vector<InventoryHost>> readInventory(const std::string& text,
                                                        const std::string& group,
                                                        const std::string& file,
                                                        std::string* error);

} // namespace coresteer

// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// Where to connect: host, port, user and identity, or an alias from ssh_config.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace coresteer::ssh {

struct Target {
    std::string host; // name, address, or an ssh_config Host alias
    int port = 0;     // 0: from ssh_config, else 22
    std::string user; // empty: from ssh_config, else the local user
    std::string identityFile;

    // Injectable paths, so tests never touch ~/.ssh. Empty means the user's default.
    std::string configFile;     // ssh_config to apply; "none" to read none
    std::string knownHostsFile; // known_hosts to check and to add accepted keys to
    std::string sshDir;         // where default identities (id_ed25519, ...) are looked for
    // With knownHostsFile and a ProxyJump: an unknown jump host's key is taken and added to it
    // (OpenSSH's StrictHostKeyChecking=accept-new) instead of asked for on the terminal. A
    // changed key is refused either way.
    bool acceptNewHopKeys = false;

    int connectTimeoutMs = 10000;
    int operationTimeoutMs = 30000;
    int keepaliveIntervalMs = 15000;
    bool useAgent = true;

    // "root@router:2222" style, for messages.
    std::string display() const;
};

// Parses "ssh://[user@]host[:port]", "[user@]host[:port]" or an alias. IPv6 addresses go in
// brackets: "ssh://root@[::1]:2222".
std::optional<Target> parseTarget(std::string_view text, std::string* error = nullptr);

// The Host aliases that an ssh_config file names, in file order and without duplicates:
// patterns (*, ?, negations) are left out, and Include lines are followed (relative paths from
// `sshDir`, globs expanded; at most 8 levels). A file that cannot be read gives none.
std::vector<std::string> sshConfigHosts(const std::string& configFile, const std::string& sshDir);

} // namespace coresteer::ssh

// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// Every SSH failure as one kind plus a sentence a person can act on.
#pragma once

#include <string>
#include <vector>

namespace coresteer::ssh {

enum class ErrorKind {
    None,
    BadTarget,
    Unreachable,      // no route, name not resolved
    Refused,          // nothing listens on the port
    Timeout,          // connect or operation took too long
    HostKeyUnknown,   // not in known_hosts, and not accepted
    HostKeyChanged,   // differs from known_hosts: refused, always
    AuthFailed,       // every method tried, none worked
    PermissionDenied, // on a path on the router
    CommandNotFound,  // exit status 127
    OutputTooLarge,   // more than the cap
    Disconnected,     // the connection broke
    Stopped,          // the stop flag was raised
    Protocol,         // anything else from libssh
};

const char* toString(ErrorKind k);

struct Error {
    ErrorKind kind = ErrorKind::None;
    std::string message;

    explicit operator bool() const { return kind != ErrorKind::None; }
};

// Builds the person-facing message for `kind` from what libssh or the server said.
Error makeError(ErrorKind kind, const std::string& target, const std::string& detail = {});

// Maps a libssh error text from ssh_connect to a kind.
ErrorKind classifyConnectError(const std::string& libsshMessage);

} // namespace coresteer::ssh

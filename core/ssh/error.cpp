// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/ssh/error.h"

namespace coresteer::ssh {

const char* toString(ErrorKind k) {
    switch (k) {
    case ErrorKind::None:
        return "none";
    case ErrorKind::BadTarget:
        return "bad target";
    case ErrorKind::Unreachable:
        return "unreachable";
    case ErrorKind::Refused:
        return "connection refused";
    case ErrorKind::Timeout:
        return "timeout";
    case ErrorKind::HostKeyUnknown:
        return "host key unknown";
    case ErrorKind::HostKeyChanged:
        return "host key changed";
    case ErrorKind::AuthFailed:
        return "authentication failed";
    case ErrorKind::PermissionDenied:
        return "permission denied";
    case ErrorKind::CommandNotFound:
        return "command not found";
    case ErrorKind::OutputTooLarge:
        return "output too large";
    case ErrorKind::Disconnected:
        return "disconnected";
    case ErrorKind::Stopped:
        return "stopped";
    case ErrorKind::Protocol:
        return "protocol error";
    }
    return "?";
}

Error makeError(ErrorKind kind, const std::string& target, const std::string& detail) {
    std::string m;
    switch (kind) {
    case ErrorKind::None:
        return {};
    case ErrorKind::BadTarget:
        m = "Cannot use '" + target + "' as an SSH target";
        break;
    case ErrorKind::Unreachable:
        m = target + " cannot be reached. Check the address and that this computer is on the "
                     "router's network";
        break;
    case ErrorKind::Refused:
        m = target + " refused the connection: no SSH server listens on that port. Check the "
                     "port, and that dropbear or sshd runs on the router";
        break;
    case ErrorKind::Timeout:
        m = target + " did not answer in time";
        break;
    case ErrorKind::HostKeyUnknown:
        m = "The host key of " + target + " is not known and was not accepted";
        break;
    case ErrorKind::HostKeyChanged:
        m = "The host key of " + target +
            " has CHANGED since it was last seen. This can mean "
            "that someone is intercepting the connection, or that the router was reinstalled. "
            "coresteer will not connect. If you reinstalled the router, remove its old line "
            "from your known_hosts file and connect again";
        break;
    case ErrorKind::AuthFailed:
        m = "Could not log in to " + target;
        break;
    case ErrorKind::PermissionDenied:
        m = "Permission denied on " + target;
        break;
    case ErrorKind::CommandNotFound:
        m = "A command coresteer needs is missing on " + target;
        break;
    case ErrorKind::OutputTooLarge:
        m = "The router sent more output than coresteer accepts";
        break;
    case ErrorKind::Disconnected:
        m = "The connection to " + target + " broke";
        break;
    case ErrorKind::Stopped:
        m = "Stopped";
        break;
    case ErrorKind::Protocol:
        m = "SSH error with " + target;
        break;
    }
    if (!detail.empty())
        m += ": " + detail;
    return {kind, m};
}

ErrorKind classifyConnectError(const std::string& s) {
    auto has = [&](const char* needle) { return s.find(needle) != std::string::npos; };
    if (has("refused"))
        return ErrorKind::Refused;
    if (has("timed out") || has("Timeout") || has("timeout"))
        return ErrorKind::Timeout;
    if (has("resolve") || has("not known") || has("No route") || has("unreachable") ||
        has("Network is down"))
        return ErrorKind::Unreachable;
    if (has("closed") || has("reset") || has("Socket error"))
        return ErrorKind::Disconnected;
    return ErrorKind::Protocol;
}

} // namespace coresteer::ssh

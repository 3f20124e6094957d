// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// Internal to core/ssh: what session.cpp (connecting, host keys, login) and
// session_channels.cpp (commands, streams, uploads) share about a libssh session.
#pragma once

#include "core/ssh/session.h"

#include <libssh/callbacks.h>
#include <libssh/libssh.h>

#include <chrono>
#include <cstring>
#include <memory>
#include <poll.h>
#include <string>

namespace coresteer::ssh::detail {

using Clock = std::chrono::steady_clock;
constexpr int kSliceMs = 100;

struct SessionDeleter {
    void operator()(ssh_session s) const {
        if (ssh_is_connected(s))
            ssh_disconnect(s);
        ssh_free(s);
    }
};
struct ChannelDeleter {
    void operator()(ssh_channel c) const {
        if (ssh_channel_is_open(c))
            ssh_channel_close(c);
        ssh_channel_free(c);
    }
};
struct KeyDeleter {
    void operator()(ssh_key k) const { ssh_key_free(k); }
};
struct StringDeleter {
    void operator()(char* p) const { ssh_string_free_char(p); }
};
using ChannelPtr = std::unique_ptr<ssh_channel_struct, ChannelDeleter>;
using KeyPtr = std::unique_ptr<ssh_key_struct, KeyDeleter>;

inline void wipe(std::string& s) {
    volatile char* p = s.data();
    for (std::size_t i = 0; i < s.size(); ++i)
        p[i] = 0;
    s.clear();
}

} // namespace coresteer::ssh::detail

namespace coresteer::ssh {

using namespace detail;

struct Session::Impl {
    std::unique_ptr<ssh_session_struct, SessionDeleter> session;
    // The private ssh_config of this connection's jump hosts (see jumpHostsConfig), removed
    // with the session.
    std::string hopDir;
    ssh_callbacks_struct callbacks{};
    Session* owner = nullptr;
    std::string lastPassphraseError;

    ssh_session s() const { return session.get(); }

    // Host and port as libssh resolved them (after ssh_config).
    std::string host() const {
        char* h = nullptr;
        std::string out;
        if (ssh_options_get(s(), SSH_OPTIONS_HOST, &h) == SSH_OK && h)
            out = h;
        ssh_string_free_char(h);
        return out;
    }
    int port() const {
        unsigned int p = 22;
        return ssh_options_get_port(s(), &p) == SSH_OK ? static_cast<int>(p) : 22;
    }

    // Waits up to one slice for the socket to become readable or writable.
    void waitSocket() const {
        const socket_t fd = ssh_get_fd(s());
        if (fd == SSH_INVALID_SOCKET) {
            ::poll(nullptr, 0, 10);
            return;
        }
        pollfd p{fd, POLLIN, 0};
        ::poll(&p, 1, 20);
    }

    static int passphraseCallback(const char* prompt, char* buf, size_t len, int, int,
                                  void* userdata) {
        auto* self = static_cast<Impl*>(userdata);
        auto answer = self->owner->m_prompter.passphrase(prompt ? prompt : "Passphrase");
        if (!answer || answer->size() + 1 > len) {
            if (answer)
                wipe(*answer);
            return -1;
        }
        std::memcpy(buf, answer->c_str(), answer->size() + 1);
        wipe(*answer);
        return 0;
    }
};

} // namespace coresteer::ssh

// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// Session: one SSH connection to one router, used from one thread.
//
// connect() runs the sequence kio sftp uses: options, ssh_config, connect, host key check
// against known_hosts (a changed key is a hard stop), then none -> agent and key files ->
// keyboard-interactive -> password. run() executes one command; upload() writes a file
// atomically with cat, chmod and mv, since OpenWrt often has no SFTP or scp. Every wait is cut
// into slices of at most 100 ms so that requestStop(), from any thread, ends it quickly.
#pragma once

#include "core/ssh/error.h"
#include "core/ssh/target.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace coresteer::ssh {

struct HostKey {
    std::string type;        // "ssh-ed25519"
    std::string fingerprint; // "SHA256:..."
};

// Asks the person at the keyboard. The CLI answers on the terminal, the GUI with dialogs.
// Called on the session's thread.
class Prompter {
public:
    virtual ~Prompter() = default;
    virtual bool acceptUnknownHostKey(const std::string& target, const HostKey& key) = 0;
    virtual std::optional<std::string> password(const std::string& target) = 0;
    virtual std::optional<std::string> passphrase(const std::string& prompt) = 0;
    struct Prompt {
        std::string text;
        bool echo = false;
    };
    virtual std::optional<std::vector<std::string>>
    keyboardInteractive(const std::string& name, const std::string& instruction,
                        const std::vector<Prompt>& prompts) = 0;
};

struct RunResult {
    int exitStatus = -1;
    std::string out, err;
};

class Session;

// A command that keeps running on the router, written to and read from piece by piece: the live
// sampler's one long-lived channel. Used from the session's thread only; ends with the session.
class Stream {
public:
    ~Stream();
    Stream(const Stream&) = delete;
    Stream& operator=(const Stream&) = delete;
    // False with the session's error() on a broken channel or a stop.
    bool write(std::string_view data);
    // At most this much comes back from one read().
    static constexpr std::size_t kMaxReadBytes = 1u << 20;
    // What stdout brought within `waitMs` ("" when nothing came); nullopt when the command ended
    // or the channel broke (see the session's error(), and stderrText()).
    std::optional<std::string> read(int waitMs);
    const std::string& stderrText() const { return m_err; }

private:
    friend class Session;
    struct Impl;
    Stream(Session& session, std::unique_ptr<Impl> impl);
    Session& m_session;
    std::unique_ptr<Impl> m_impl;
    std::string m_err;
};

class Session {
public:
    static constexpr std::size_t kDefaultOutputCap = 64u << 20;

    Session(Target target, Prompter& prompter);
    ~Session();
    Session(const Session&) = delete;
    Session& operator=(const Session&) = delete;

    bool connect();
    void disconnect();
    bool isConnected() const;

    const Error& error() const { return m_error; }
    const Target& target() const { return m_target; }
    // Host and port as connected to, after ssh_config (HostName, Port); empty before connect.
    const std::string& resolvedHost() const { return m_resolvedHost; }
    int resolvedPort() const { return m_resolvedPort; }
    const HostKey& hostKey() const { return m_hostKey; }
    // The key in known_hosts when it differs from the offered one.
    const std::optional<HostKey>& knownHostKey() const { return m_knownKey; }
    // Methods the server offered ("publickey", "password", "keyboard-interactive").
    const std::vector<std::string>& offeredMethods() const { return m_offered; }
    const std::string& authMethod() const { return m_authMethod; }

    // Runs `command` with `input` on its stdin. nullopt on a transport error (see error());
    // a command that ran and failed gives a result with its exit status and stderr.
    std::optional<RunResult> run(const std::string& command, std::string_view input = {},
                                 std::size_t outputCap = kDefaultOutputCap);

    // Hands output to `sink` as it arrives (sink returns false to stop). The exit status,
    // or nullopt on a transport error or a stop.
    using Sink = std::function<bool(std::string_view data, bool isStderr)>;
    std::optional<int> runStreaming(const std::string& command, const Sink& sink,
                                    std::string_view input = {});

    // Starts `command` with a channel that stays open (see Stream). nullptr with error().
    std::unique_ptr<Stream> openStream(const std::string& command);

    // Writes `content` to `path` on the router: path.tmp, chmod, then mv, so a reader never
    // sees half a file. False with error() on failure; the temporary file is removed.
    bool upload(const std::string& path, std::string_view content, unsigned mode = 0644);

    // Thread-safe: makes the current and any later wait return within 200 ms.
    void requestStop() { m_stop.store(true); }
    bool stopRequested() const { return m_stop.load(); }

    // Channel payload sent and received so far: stdin, and stdout plus stderr.
    std::uint64_t payloadIn() const { return m_payloadIn; }
    std::uint64_t payloadOut() const { return m_payloadOut; }

private:
    friend class Stream;
    struct Impl;
    bool fail(ErrorKind kind, const std::string& detail = {});
    bool configure();
    bool jumpHostsConfig();
    bool connectSocket();
    bool verifyHostKey();
    bool authenticate();
    bool tryKeyboardInteractive();
    bool tryPassword();
    std::optional<int> execute(const std::string& command, std::string_view input,
                               const Sink& sink);

    Target m_target;
    Prompter& m_prompter;
    std::unique_ptr<Impl> m_impl;
    Error m_error;
    HostKey m_hostKey;
    std::optional<HostKey> m_knownKey;
    std::vector<std::string> m_offered;
    std::string m_authMethod;
    std::string m_resolvedHost;
    int m_resolvedPort = 0;
    std::atomic<bool> m_stop{false};
    std::uint64_t m_payloadIn = 0, m_payloadOut = 0;
};

} // namespace coresteer::ssh

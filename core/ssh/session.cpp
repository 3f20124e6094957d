// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/ssh/session.h"

#include "core/ssh/session_impl.h"

#include "core/base/log.h"

#include "core/base/shell.h"
#include "core/base/text.h"

#include <libssh/callbacks.h>
#include <libssh/libssh.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <poll.h>
#include <random>
#include <vector>

namespace coresteer::ssh {

namespace {

std::string fingerprintOf(ssh_key key) {
    unsigned char* hash = nullptr;
    size_t len = 0;
    if (ssh_get_publickey_hash(key, SSH_PUBLICKEY_HASH_SHA256, &hash, &len) != SSH_OK)
        return {};
    std::unique_ptr<char, StringDeleter> fp(
        ssh_get_fingerprint_hash(SSH_PUBLICKEY_HASH_SHA256, hash, len));
    ssh_clean_pubkey_hash(&hash);
    return fp ? std::string(fp.get()) : std::string();
}

std::vector<std::string> methodList(int mask) {
    std::vector<std::string> v;
    if (mask & SSH_AUTH_METHOD_PUBLICKEY)
        v.push_back("publickey");
    if (mask & SSH_AUTH_METHOD_INTERACTIVE)
        v.push_back("keyboard-interactive");
    if (mask & SSH_AUTH_METHOD_PASSWORD)
        v.push_back("password");
    if (mask & SSH_AUTH_METHOD_HOSTBASED)
        v.push_back("hostbased");
    if (mask & SSH_AUTH_METHOD_GSSAPI_MIC)
        v.push_back("gssapi-with-mic");
    return v;
}

std::string methodNames(int mask) {
    std::string s;
    for (const auto& m : methodList(mask))
        s += (s.empty() ? "" : ", ") + m;
    return s;
}

} // namespace

Session::Session(Target target, Prompter& prompter)
    : m_target(std::move(target)), m_prompter(prompter), m_impl(std::make_unique<Impl>()) {
    m_impl->owner = this;
}

Session::~Session() {
    disconnect();
}

bool Session::fail(ErrorKind kind, const std::string& detail) {
    // A jump host's ssh that stopped says why in its stderr: a changed or unknown key, a login.
    std::string hop;
    if (!m_impl->hopDir.empty() && kind != ErrorKind::Stopped && kind != ErrorKind::BadTarget) {
        std::ifstream in(m_impl->hopDir + "/stderr");
        std::string line;
        std::vector<std::string> lines;
        while (std::getline(in, line))
            if (!text::trim(line).empty() && line.find("@@@") == std::string::npos)
                lines.push_back(std::string(text::trim(line)));
        for (std::size_t i = lines.size() > 2 ? lines.size() - 2 : 0; i < lines.size(); ++i)
            hop += (hop.empty() ? "" : " ") + lines[i];
    }
    if (!hop.empty()) {
        std::ifstream in(m_impl->hopDir + "/stderr");
        const std::string all((std::istreambuf_iterator<char>(in)), {});
        kind = all.find("IDENTIFICATION HAS CHANGED") != std::string::npos
                   ? ErrorKind::HostKeyChanged
               : all.find("Host key verification failed") != std::string::npos
                   ? ErrorKind::HostKeyUnknown
                   : kind;
        m_error = makeError(kind, "the jump host to " + m_target.display(),
                            "its ssh said: " + text::printable(hop, 300));
        log::debug(log::ssh, m_target.display(), ": ", m_error.message);
        return false;
    }
    m_error = makeError(kind, m_target.display(), detail);
    log::debug(log::ssh, m_target.display(), ": ", m_error.message);
    return false;
}

bool Session::isConnected() const {
    return m_impl->session && ssh_is_connected(m_impl->s()) != 0;
}

void Session::disconnect() {
    m_impl->session.reset();
    if (!m_impl->hopDir.empty()) {
        std::error_code ec;
        std::filesystem::remove_all(m_impl->hopDir, ec);
        m_impl->hopDir.clear();
    }
}

namespace {

// A value for an ssh_config line, or nullopt for one that the format cannot hold.
std::optional<std::string> configWord(const std::string& s) {
    if (s.empty() || s.find_first_of("\"\n\r\\") != std::string::npos)
        return std::nullopt;
    return "\"" + s + "\"";
}

} // namespace

// libssh reaches a ProxyJump host through `ssh -W`, OpenSSH's own client, which checks the
// hops' keys against the user's own known_hosts and reads ~/.ssh/config, not the files this
// session was given. With an explicit known_hosts, the proxy command gets `-F` with a private
// config of this session's: every hop checked against the same known_hosts as the final host
// (StrictHostKeyChecking ask, or accept-new), then the session's ssh_config and the system's.
// OpenSSH hands -F on to the hops after the first (ProxyJump a,b).
bool Session::jumpHostsConfig() {
    ssh_session s = m_impl->s();
    const auto& t = m_target;
    char* raw = nullptr;
    if (t.knownHostsFile.empty() || ssh_options_get(s, SSH_OPTIONS_PROXYCOMMAND, &raw) != SSH_OK ||
        !raw)
        return true;
    std::string command = raw;
    ssh_string_free_char(raw);
    // Only the command libssh makes of ProxyJump; a ProxyCommand of the user's runs as written.
    if (!text::startsWith(command, "ssh ") || command.find(" -W '[%h]:%p' ") == std::string::npos)
        return true;
    const auto knownHosts = configWord(std::filesystem::absolute(t.knownHostsFile).string());
    std::string userConfig;
    if (t.configFile.empty()) {
        const char* home = std::getenv("HOME");
        userConfig = t.sshDir.empty() ? std::string(home ? home : "") + "/.ssh/config"
                                      : t.sshDir + "/config";
    } else if (t.configFile != "none") {
        userConfig = std::filesystem::absolute(t.configFile).string();
    }
    const auto include =
        userConfig.empty() ? std::optional<std::string>("") : configWord(userConfig);
    if (!knownHosts || !include)
        return fail(ErrorKind::BadTarget,
                    "a path with a quote or a line break cannot go into the jump host's "
                    "ssh_config");
    const char* tmp = std::getenv("TMPDIR");
    std::string dir = std::string(tmp && *tmp ? tmp : "/tmp") + "/coresteer-jump.XXXXXX";
    if (!::mkdtemp(dir.data()))
        return fail(ErrorKind::BadTarget, "cannot make a private directory for the jump host");
    m_impl->hopDir = dir;
    std::string config =
        "# coresteer: the jump hosts of one connection\nHost *\n    UserKnownHostsFile " +
        *knownHosts +
        "\n    GlobalKnownHostsFile /dev/null\n    HashKnownHosts no\n    StrictHostKeyChecking " +
        (t.acceptNewHopKeys ? "accept-new" : "ask") + "\n";
    if (!include->empty())
        config += "Include " + *include + "\n";
    config += "Include /etc/ssh/ssh_config\n";
    std::string error;
    if (!text::writeFileAtomic(dir + "/config", config, &error))
        return fail(ErrorKind::BadTarget, error);
    // What the hops' ssh says (a changed key, a refused login) goes to a file of the session's:
    // libssh keeps no stderr of a proxy command.
    command = "ssh -F " + shellQuote(dir + "/config") + command.substr(3) + " 2>" +
              shellQuote(dir + "/stderr");
    log::debug(log::ssh, t.display(), ": jump hosts through ", command);
    if (ssh_options_set(s, SSH_OPTIONS_PROXYCOMMAND, command.c_str()) != SSH_OK)
        return fail(ErrorKind::BadTarget, ssh_get_error(s));
    return true;
}

bool Session::configure() {
    m_impl->session.reset(ssh_new());
    ssh_session s = m_impl->s();
    if (!s)
        return fail(ErrorKind::Protocol, "out of memory");
    const auto& t = m_target;
    bool ok = ssh_options_set(s, SSH_OPTIONS_HOST, t.host.c_str()) == SSH_OK;
    if (t.port > 0) {
        const unsigned int port = static_cast<unsigned int>(t.port);
        ok = ok && ssh_options_set(s, SSH_OPTIONS_PORT, &port) == SSH_OK;
    }
    if (!t.user.empty())
        ok = ok && ssh_options_set(s, SSH_OPTIONS_USER, t.user.c_str()) == SSH_OK;
    if (!t.sshDir.empty())
        ok = ok && ssh_options_set(s, SSH_OPTIONS_SSH_DIR, t.sshDir.c_str()) == SSH_OK;
    if (!t.knownHostsFile.empty()) {
        ok = ok && ssh_options_set(s, SSH_OPTIONS_KNOWNHOSTS, t.knownHostsFile.c_str()) == SSH_OK;
        // An explicit known_hosts stands alone: the system-wide file is not consulted.
        ok = ok && ssh_options_set(s, SSH_OPTIONS_GLOBAL_KNOWNHOSTS, "/dev/null") == SSH_OK;
    }
    const long seconds = std::max(1, t.connectTimeoutMs / 1000);
    ok = ok && ssh_options_set(s, SSH_OPTIONS_TIMEOUT, &seconds) == SSH_OK;
    const int no = 0;
    ok = ok && ssh_options_set(s, SSH_OPTIONS_PROCESS_CONFIG, &no) == SSH_OK;
    // Every message this client sends is small and awaited (the handshake, one exec, the
    // sampler's pacing lines). With Nagle on, a second small message waits for the ACK of the
    // first, which a server like dropbear delays by up to 40 ms when it has nothing to say.
    const int yes = 1;
    ok = ok && ssh_options_set(s, SSH_OPTIONS_NODELAY, &yes) == SSH_OK;
    if (!ok)
        return fail(ErrorKind::BadTarget, ssh_get_error(s));
    if (t.configFile != "none") {
        if (ssh_options_parse_config(s, t.configFile.empty() ? nullptr : t.configFile.c_str()) !=
            SSH_OK)
            return fail(ErrorKind::BadTarget,
                        "cannot read ssh_config " +
                            (t.configFile.empty() ? "~/.ssh/config" : t.configFile));
    }
    if (!t.identityFile.empty() &&
        ssh_options_set(s, SSH_OPTIONS_ADD_IDENTITY, t.identityFile.c_str()) != SSH_OK)
        return fail(ErrorKind::BadTarget, ssh_get_error(s));
    if (!jumpHostsConfig())
        return false;

    m_impl->callbacks.userdata = m_impl.get();
    m_impl->callbacks.auth_function = &Impl::passphraseCallback;
    ssh_callbacks_init(&m_impl->callbacks);
    ssh_set_callbacks(s, &m_impl->callbacks);
    return true;
}

bool Session::connectSocket() {
    ssh_session s = m_impl->s();
    ssh_set_blocking(s, 0);
    const auto deadline = Clock::now() + std::chrono::milliseconds(m_target.connectTimeoutMs);
    while (true) {
        const int rc = ssh_connect(s);
        if (rc == SSH_OK)
            break;
        if (rc == SSH_ERROR) {
            const std::string msg = ssh_get_error(s);
            return fail(classifyConnectError(msg), msg);
        }
        if (m_stop)
            return fail(ErrorKind::Stopped);
        if (Clock::now() > deadline)
            return fail(ErrorKind::Timeout,
                        "no answer within " + std::to_string(m_target.connectTimeoutMs) + " ms");
        m_impl->waitSocket();
    }
    return true;
}

bool Session::verifyHostKey() {
    ssh_session s = m_impl->s();
    ssh_key raw = nullptr;
    if (ssh_get_server_publickey(s, &raw) != SSH_OK)
        return fail(ErrorKind::Protocol, ssh_get_error(s));
    KeyPtr key(raw);
    m_hostKey.type = ssh_key_type_to_char(ssh_key_type(key.get()));
    m_hostKey.fingerprint = fingerprintOf(key.get());

    const auto state = ssh_session_is_known_server(s);
    log::debug(log::ssh, m_target.display(), ": host key ", m_hostKey.type, " ",
               m_hostKey.fingerprint,
               state == SSH_KNOWN_HOSTS_OK                                          ? " (known)"
               : state == SSH_KNOWN_HOSTS_CHANGED || state == SSH_KNOWN_HOSTS_OTHER ? " (CHANGED)"
                                                                                    : " (new)");
    switch (state) {
    case SSH_KNOWN_HOSTS_OK:
        return true;
    case SSH_KNOWN_HOSTS_CHANGED:
    case SSH_KNOWN_HOSTS_OTHER: {
        // libssh 0.10 does not hand out the entry of a changed host (its second look, in the
        // global file, clears it), so the user's file is read here, line by line.
        HostKey known{"?", "?"};
        std::string file = m_target.knownHostsFile;
        if (file.empty()) {
            const char* home = std::getenv("HOME");
            file = (m_target.sshDir.empty() ? std::string(home ? home : "") + "/.ssh"
                                            : m_target.sshDir) +
                   "/known_hosts";
        }
        const int port = m_impl->port();
        const std::string hostport = port == 22 || port == 0
                                         ? m_impl->host()
                                         : "[" + m_impl->host() + "]:" + std::to_string(port);
        std::ifstream in(file);
        std::string line;
        while (known.type == "?" && std::getline(in, line)) {
            ssh_knownhosts_entry* entry = nullptr;
            if (ssh_known_hosts_parse_line(hostport.c_str(), line.c_str(), &entry) == SSH_OK &&
                entry && entry->publickey) {
                known.type = ssh_key_type_to_char(ssh_key_type(entry->publickey));
                known.fingerprint = fingerprintOf(entry->publickey);
            }
            ssh_knownhosts_entry_free(entry);
        }
        m_knownKey = known;
        return fail(ErrorKind::HostKeyChanged, "known_hosts has " + known.type + " " +
                                                   known.fingerprint + ", the server offered " +
                                                   m_hostKey.type + " " + m_hostKey.fingerprint);
    }
    case SSH_KNOWN_HOSTS_NOT_FOUND:
    case SSH_KNOWN_HOSTS_UNKNOWN:
        if (!m_prompter.acceptUnknownHostKey(m_target.display(), m_hostKey))
            return fail(ErrorKind::HostKeyUnknown, m_hostKey.type + " " + m_hostKey.fingerprint);
        if (ssh_session_update_known_hosts(s) != SSH_OK)
            return fail(ErrorKind::Protocol,
                        std::string("cannot write known_hosts: ") + ssh_get_error(s));
        return true;
    case SSH_KNOWN_HOSTS_ERROR:
        break;
    }
    return fail(ErrorKind::Protocol, std::string("cannot check known_hosts: ") + ssh_get_error(s));
}

bool Session::authenticate() {
    ssh_session s = m_impl->s();
    auto retry = [&](auto&& call) -> int {
        const auto deadline = Clock::now() + std::chrono::milliseconds(m_target.operationTimeoutMs);
        int rc;
        while ((rc = call()) == SSH_AUTH_AGAIN) {
            if (m_stop || Clock::now() > deadline)
                return SSH_AUTH_ERROR;
            m_impl->waitSocket();
        }
        return rc;
    };
    auto checkError = [&](int rc) {
        if (rc == SSH_AUTH_ERROR) {
            if (m_stop)
                return fail(ErrorKind::Stopped);
            return fail(ErrorKind::Disconnected, ssh_get_error(s));
        }
        return true;
    };

    int rc = retry([&] { return ssh_userauth_none(s, nullptr); });
    if (rc == SSH_AUTH_SUCCESS) {
        m_authMethod = "none";
        return true;
    }
    if (!checkError(rc))
        return false;
    const int methods = ssh_userauth_list(s, nullptr);
    m_offered = methodList(methods);
    log::debug(log::ssh, m_target.display(), ": the server offers ",
               methods ? methodNames(methods) : std::string("nothing"));

    if (methods & SSH_AUTH_METHOD_PUBLICKEY) {
        rc = retry([&] { return ssh_userauth_publickey_auto(s, nullptr, nullptr); });
        if (rc == SSH_AUTH_SUCCESS) {
            m_authMethod = "publickey";
            return true;
        }
        if (!checkError(rc))
            return false;
    }
    if ((methods & SSH_AUTH_METHOD_INTERACTIVE) && tryKeyboardInteractive())
        return true;
    if (m_error)
        return false;
    if ((methods & SSH_AUTH_METHOD_PASSWORD) && tryPassword())
        return true;
    if (m_error)
        return false;
    return fail(ErrorKind::AuthFailed,
                "the server offers " + (methods ? methodNames(methods) : std::string("nothing")) +
                    "; none of them worked");
}

bool Session::tryKeyboardInteractive() {
    ssh_session s = m_impl->s();
    const auto deadline = Clock::now() + std::chrono::milliseconds(m_target.operationTimeoutMs);
    for (int round = 0; round < 8; ++round) {
        int rc;
        while ((rc = ssh_userauth_kbdint(s, nullptr, nullptr)) == SSH_AUTH_AGAIN) {
            if (m_stop || Clock::now() > deadline)
                return fail(m_stop ? ErrorKind::Stopped : ErrorKind::Timeout);
            m_impl->waitSocket();
        }
        if (rc == SSH_AUTH_SUCCESS) {
            m_authMethod = "keyboard-interactive";
            return true;
        }
        if (rc == SSH_AUTH_ERROR)
            return fail(ErrorKind::Disconnected, ssh_get_error(s));
        if (rc != SSH_AUTH_INFO)
            return false; // denied: fall through to the next method
        const int n = ssh_userauth_kbdint_getnprompts(s);
        std::vector<Prompter::Prompt> prompts;
        for (int i = 0; i < n && i < 16; ++i) {
            char echo = 0;
            const char* p = ssh_userauth_kbdint_getprompt(s, static_cast<unsigned>(i), &echo);
            prompts.push_back({text::printable(p ? p : "", 200), echo != 0});
        }
        std::vector<std::string> answers;
        if (n > 0) {
            const char* name = ssh_userauth_kbdint_getname(s);
            const char* instruction = ssh_userauth_kbdint_getinstruction(s);
            auto a = m_prompter.keyboardInteractive(
                text::printable(name ? name : "", 200),
                text::printable(instruction ? instruction : "", 400), prompts);
            if (!a || a->size() != prompts.size())
                return false;
            answers = std::move(*a);
        }
        // `answers` outlives every setanswer call and the kbdint call that sends them.
        for (std::size_t i = 0; i < answers.size(); ++i)
            ssh_userauth_kbdint_setanswer(s, static_cast<unsigned>(i), answers[i].c_str());
        for (auto& a : answers)
            wipe(a);
    }
    return false;
}

bool Session::tryPassword() {
    ssh_session s = m_impl->s();
    for (int attempt = 0; attempt < 3; ++attempt) {
        auto pw = m_prompter.password(m_target.display());
        if (!pw)
            return false;
        const auto deadline = Clock::now() + std::chrono::milliseconds(m_target.operationTimeoutMs);
        int rc;
        while ((rc = ssh_userauth_password(s, nullptr, pw->c_str())) == SSH_AUTH_AGAIN) {
            if (m_stop || Clock::now() > deadline) {
                wipe(*pw);
                return fail(m_stop ? ErrorKind::Stopped : ErrorKind::Timeout);
            }
            m_impl->waitSocket();
        }
        wipe(*pw);
        if (rc == SSH_AUTH_SUCCESS) {
            m_authMethod = "password";
            return true;
        }
        if (rc == SSH_AUTH_ERROR)
            return fail(ErrorKind::Disconnected, ssh_get_error(s));
    }
    return false;
}

bool Session::connect() {
    m_error = {};
    m_offered.clear();
    m_authMethod.clear();
    m_knownKey.reset();
    if (m_target.host.empty())
        return fail(ErrorKind::BadTarget, "no host");
    if (!configure() || !connectSocket() || !verifyHostKey() || !authenticate()) {
        m_impl->session.reset();
        return false;
    }
    ssh_set_blocking(m_impl->s(), 1);
    m_resolvedHost = m_impl->host();
    m_resolvedPort = m_impl->port();
    log::debug(log::ssh, m_target.display(), ": logged in to ", m_resolvedHost, ":", m_resolvedPort,
               " with ", m_authMethod);
    return true;
}

} // namespace coresteer::ssh

#include "core/ssh/session.h"

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

void wipe(std::string& s) {
    volatile char* p = s.data();
    for (std::size_t i = 0; i < s.size(); ++i)
        p[i] = 0;
    s.clear();
}

} // namespace

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

struct Stream::Impl {
    ChannelPtr channel;
};

Stream::Stream(Session& session, std::unique_ptr<Impl> impl)
    : m_session(session), m_impl(std::move(impl)) {}

Stream::~Stream() {
    if (m_impl->channel && m_session.isConnected()) {
        ssh_channel_send_eof(m_impl->channel.get()); // the command sees the end of its stdin
        ssh_channel_close(m_impl->channel.get());
    }
}

bool Stream::write(std::string_view data) {
    ssh_channel ch = m_impl->channel.get();
    std::size_t sent = 0;
    while (sent < data.size()) {
        if (m_session.m_stop)
            return m_session.fail(ErrorKind::Stopped);
        const int n =
            ssh_channel_write(ch, data.data() + sent, static_cast<uint32_t>(data.size() - sent));
        if (n == SSH_ERROR)
            return m_session.fail(ErrorKind::Disconnected, ssh_get_error(m_session.m_impl->s()));
        sent += static_cast<std::size_t>(n);
        m_session.m_payloadOut += static_cast<std::uint64_t>(n);
    }
    return true;
}

std::optional<std::string> Stream::read(int waitMs) {
    ssh_channel ch = m_impl->channel.get();
    std::string out;
    std::vector<char> buf(65536);
    const auto deadline = Clock::now() + std::chrono::milliseconds(waitMs);
    while (true) {
        if (m_session.m_stop) {
            m_session.fail(ErrorKind::Stopped);
            return std::nullopt;
        }
        // stderr is drained so that it cannot fill the window; its tail is kept for messages.
        const int e = ssh_channel_read_nonblocking(ch, buf.data(), 4096, 1);
        if (e > 0) {
            m_err.append(buf.data(), static_cast<std::size_t>(e));
            if (m_err.size() > 4096)
                m_err.erase(0, m_err.size() - 4096);
        }
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
        const int slice = static_cast<int>(std::clamp<long long>(left.count(), 0, kSliceMs / 2));
        const int n = ssh_channel_read_timeout(ch, buf.data(), static_cast<uint32_t>(buf.size()), 0,
                                               std::max(slice, 1));
        if (n == SSH_ERROR) {
            m_session.fail(ErrorKind::Disconnected, ssh_get_error(m_session.m_impl->s()));
            return std::nullopt;
        }
        if (n > 0) {
            m_session.m_payloadIn += static_cast<std::uint64_t>(n);
            out.append(buf.data(), static_cast<std::size_t>(n));
            // Take whatever else is already there, then return: at most kMaxReadBytes, or a
            // router that sends without pause would keep this loop (and `out`) going.
            int more;
            while (out.size() < Stream::kMaxReadBytes &&
                   (more = ssh_channel_read_nonblocking(
                        ch, buf.data(), static_cast<uint32_t>(buf.size()), 0)) > 0) {
                m_session.m_payloadIn += static_cast<std::uint64_t>(more);
                out.append(buf.data(), static_cast<std::size_t>(more));
            }
            return out;
        }
        if (ssh_channel_is_eof(ch) || ssh_channel_is_closed(ch)) {
            m_session.fail(ErrorKind::Disconnected,
                           "the command ended" + (m_err.empty()
                                                      ? std::string()
                                                      : ": " + text::printable(m_err, 300)));
            return std::nullopt;
        }
        if (Clock::now() >= deadline)
            return out;
    }
}

std::unique_ptr<Stream> Session::openStream(const std::string& command) {
    if (!isConnected()) {
        fail(ErrorKind::Disconnected, "not connected");
        return nullptr;
    }
    ssh_session s = m_impl->s();
    ChannelPtr ch(ssh_channel_new(s));
    if (!ch || ssh_channel_open_session(ch.get()) != SSH_OK ||
        ssh_channel_request_exec(ch.get(), command.c_str()) != SSH_OK) {
        fail(ErrorKind::Disconnected, ssh_get_error(s));
        return nullptr;
    }
    auto impl = std::make_unique<Stream::Impl>();
    impl->channel = std::move(ch);
    return std::unique_ptr<Stream>(new Stream(*this, std::move(impl)));
}

std::optional<int> Session::execute(const std::string& command, std::string_view input,
                                    const Sink& sink) {
    if (!isConnected()) {
        fail(ErrorKind::Disconnected, "not connected");
        return std::nullopt;
    }
    ssh_session s = m_impl->s();
    ChannelPtr ch(ssh_channel_new(s));
    if (!ch || ssh_channel_open_session(ch.get()) != SSH_OK ||
        ssh_channel_request_exec(ch.get(), command.c_str()) != SSH_OK) {
        fail(ErrorKind::Disconnected, ssh_get_error(s));
        return std::nullopt;
    }
    std::size_t sent = 0;
    while (sent < input.size()) {
        const auto chunk = static_cast<uint32_t>(std::min<std::size_t>(input.size() - sent, 32768));
        const int n = ssh_channel_write(ch.get(), input.data() + sent, chunk);
        if (n == SSH_ERROR) {
            fail(ErrorKind::Disconnected, ssh_get_error(s));
            return std::nullopt;
        }
        sent += static_cast<std::size_t>(n);
        m_payloadOut += static_cast<std::uint64_t>(n);
        if (m_stop) {
            fail(ErrorKind::Stopped);
            return std::nullopt;
        }
    }
    ssh_channel_send_eof(ch.get());

    std::vector<char> buf(65536);
    auto idleSince = Clock::now();
    auto lastKeepalive = Clock::now();
    bool open[2] = {true, true};
    while (open[0] || open[1]) {
        bool got = false;
        for (int stream = 0; stream < 2; ++stream) {
            if (!open[stream])
                continue;
            const int n =
                ssh_channel_read_timeout(ch.get(), buf.data(), static_cast<uint32_t>(buf.size()),
                                         stream, stream == 0 ? kSliceMs / 2 : 1);
            if (n == SSH_ERROR) {
                fail(ErrorKind::Disconnected, ssh_get_error(s));
                return std::nullopt;
            }
            if (n > 0) {
                got = true;
                m_payloadIn += static_cast<std::uint64_t>(n);
                if (!sink(std::string_view(buf.data(), static_cast<std::size_t>(n)), stream == 1))
                    return std::nullopt; // the sink set the error
            } else if (ssh_channel_is_eof(ch.get())) {
                open[stream] = false;
            }
        }
        if (ssh_channel_is_closed(ch.get()) && !got)
            break;
        if (m_stop) {
            fail(ErrorKind::Stopped);
            return std::nullopt;
        }
        const auto now = Clock::now();
        if (got) {
            idleSince = now;
        } else if (now - idleSince > std::chrono::milliseconds(m_target.operationTimeoutMs)) {
            fail(ErrorKind::Timeout, "no output for " +
                                         std::to_string(m_target.operationTimeoutMs) +
                                         " ms from: " + text::printable(command, 60));
            return std::nullopt;
        }
        if (now - lastKeepalive > std::chrono::milliseconds(m_target.keepaliveIntervalMs)) {
            ssh_send_ignore(s, "keepalive");
            lastKeepalive = now;
        }
        if (!ssh_is_connected(s)) {
            fail(ErrorKind::Disconnected, ssh_get_error(s));
            return std::nullopt;
        }
    }
    // The exit status follows the EOF. Wait for it without blocking, so that a stop or the
    // deadline ends the wait, and with the socket polled, so that the wait does not spin.
    const auto deadline = Clock::now() + std::chrono::milliseconds(m_target.operationTimeoutMs);
    ssh_set_blocking(s, 0);
    int status = -1;
    while ((status = ssh_channel_get_exit_status(ch.get())) < 0 &&
           !ssh_channel_is_closed(ch.get()) && ssh_is_connected(s) && Clock::now() < deadline &&
           !m_stop)
        m_impl->waitSocket();
    ssh_set_blocking(s, 1);
    if (status < 0)
        status = ssh_channel_get_exit_status(ch.get());
    if (status < 0) {
        fail(m_stop ? ErrorKind::Stopped : ErrorKind::Disconnected,
             "the command ended without an exit status (killed, or the connection broke)");
        return std::nullopt;
    }
    return status;
}

std::optional<RunResult> Session::run(const std::string& command, std::string_view input,
                                      std::size_t outputCap) {
    RunResult r;
    bool tooLarge = false;
    const auto started = Clock::now();
    const auto st = execute(command, input, [&](std::string_view data, bool isStderr) {
        auto& dst = isStderr ? r.err : r.out;
        if (r.out.size() + r.err.size() + data.size() > outputCap) {
            tooLarge = true;
            return false;
        }
        dst.append(data);
        return true;
    });
    if (tooLarge) {
        fail(ErrorKind::OutputTooLarge, "more than " + std::to_string(outputCap >> 20) +
                                            " MiB from: " + text::printable(command, 60));
        return std::nullopt;
    }
    if (!st)
        return std::nullopt;
    r.exitStatus = *st;
    log::debug(
        log::ssh, m_target.display(), ": ran `", text::printable(command, 60), "` (", input.size(),
        " bytes in): exit ", r.exitStatus, ", ", r.out.size(), "+", r.err.size(), " bytes out in ",
        std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - started).count(),
        " ms");
    return r;
}

std::optional<int> Session::runStreaming(const std::string& command, const Sink& sink,
                                         std::string_view input) {
    bool stoppedBySink = false;
    const auto st = execute(command, input, [&](std::string_view d, bool e) {
        if (!sink(d, e)) {
            stoppedBySink = true;
            return false;
        }
        return true;
    });
    if (stoppedBySink)
        fail(ErrorKind::Stopped, "the reader stopped");
    return st;
}

bool Session::upload(const std::string& path, std::string_view content, unsigned mode) {
    std::random_device rd;
    const std::string tmp = path + ".coresteer-" + std::to_string(rd() % 1000000000u);
    char modeText[8];
    std::snprintf(modeText, sizeof modeText, "%o", mode & 07777u);
    const std::string q = shellQuote(path), qt = shellQuote(tmp);
    const std::string cmd = "umask 077; cat > " + qt + " && chmod " + modeText + " " + qt +
                            " && mv -f " + qt + " " + q + " || { rc=$?; rm -f " + qt +
                            "; exit $rc; }";
    const auto r = run(cmd, content, 1u << 20);
    if (!r)
        return false;
    if (r->exitStatus != 0) {
        const auto err = std::string(text::trim(r->err));
        const auto kind = err.find("ermission denied") != std::string::npos
                              ? ErrorKind::PermissionDenied
                          : r->exitStatus == 127 ? ErrorKind::CommandNotFound
                                                 : ErrorKind::Protocol;
        return fail(kind, "writing " + path + ": " +
                              (err.empty() ? "exit status " + std::to_string(r->exitStatus) : err));
    }
    return true;
}

} // namespace coresteer::ssh

// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/router/router.h"

#include "core/base/log.h"
#include "core/base/text.h"
#include "core/collect/collect_local.h"
#include "core/collect/collect_remote.h"

#include <chrono>

#include <cstdio>
#include <filesystem>
#include <sys/wait.h>
#include <unistd.h>

namespace coresteer {

using namespace coresteer::layout;

std::optional<FileBundle> collectRemote(ssh::Session& session, const std::string& root,
                                        std::string* error) {
    const auto cs = makeCollectScript(root);
    const auto r = session.run("sh -s", cs.script);
    if (!r) {
        if (error)
            *error = session.error().message;
        return std::nullopt;
    }
    if (r->exitStatus != 0) {
        if (error)
            *error = "the collector script failed on the router (exit status " +
                     std::to_string(r->exitStatus) +
                     "): " + text::printable(text::trim(r->err), 300);
        return std::nullopt;
    }
    FileBundle bundle;
    // A relative root is relative to the login directory, written the way sftp URLs write it.
    bundle.origin = "ssh://" + session.target().display() +
                    (root.empty() || root == "/" ? ""
                     : root.front() == '/'       ? root
                                                 : "/~/" + root);
    if (!parseCollectOutput(r->out, cs.token, bundle, error))
        return std::nullopt;
    return bundle;
}

namespace {

long long msSince(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() -
                                                                 t)
        .count();
}

} // namespace

Router::Router(std::string root, std::unique_ptr<ssh::Session> session)
    : m_root(root.empty() ? "/" : std::move(root)), m_session(std::move(session)) {}

Router::~Router() = default;

std::unique_ptr<Router> Router::local(std::string root) {
    return std::unique_ptr<Router>(new Router(std::move(root), nullptr));
}

std::unique_ptr<Router> Router::remote(ssh::Target target, ssh::Prompter& prompter,
                                       std::string root) {
    return std::unique_ptr<Router>(
        new Router(std::move(root), std::make_unique<ssh::Session>(std::move(target), prompter)));
}

std::string Router::where() const {
    return m_session ? m_session->target().display() : m_root;
}

bool Router::open(std::string* error) {
    if (m_session) {
        if (m_session->isConnected())
            return true;
        if (m_session->connect())
            return true;
        *error = m_session->error().message;
        return false;
    }
    std::error_code ec;
    if (!std::filesystem::is_directory(m_root, ec)) {
        *error = m_root + ": not a directory";
        return false;
    }
    return true;
}

std::optional<FileBundle> Router::collect(std::string* error) {
    const auto started = std::chrono::steady_clock::now();
    auto b = m_session ? collectRemote(*m_session, m_root, error)
                       : std::optional<FileBundle>(collectLocal(m_root));
    if (b)
        log::debug(log::collect, where(), ": read ", b->entries().size(), " entries, ",
                   b->totalBytes(), " bytes, in ", msSince(started), " ms",
                   b->truncated() ? " (cut short at the bundle's bounds)" : "");
    else
        log::debug(log::collect, where(), ": ", *error);
    return b;
}

std::optional<ApplyReport> Router::apply(const Resolution& r, const ApplyOptions& ao,
                                         std::string* error) {
    const auto writes = changedWrites(r);
    return apply(makeApplyScript(writes, m_root, ao), writes, error);
}

std::optional<ApplyReport> Router::apply(const ApplyScript& script,
                                         const std::vector<Write>& writes, std::string* error) {
    log::debug(log::apply, where(), ": applying ", writes.size(), " values (a ",
               script.script.size(), "-byte script)");
    std::optional<ApplyReport> rep;
    if (const auto res = run(script.script, error))
        rep = applyResult(res->exitStatus, res->out, res->err, script, writes, error);
    if (!rep) {
        log::debug(log::apply, where(), ": ", *error);
        return rep;
    }
    for (const auto& t : rep->results)
        log::debug(log::apply, where(), ": ", t.write.path, " ", t.write.current, " -> ",
                   t.write.value, ": ", toString(t.status), t.error.empty() ? "" : ": ", t.error);
    log::debug(log::apply, where(), ": ",
               rep->rolledBack    ? "rolled back"
               : rep->revertArmed ? "revert armed for " + rep->revertDeadline + " s"
                                  : "no revert armed");
    return rep;
}

bool Router::settle(PendingAction a, std::string* error) {
    const auto res = run(makeSettleScript(m_root, a), error);
    const bool ok = res && settleSucceeded(res->exitStatus, res->out, res->err, error);
    log::debug(log::apply, where(), ": ", a == PendingAction::Confirm ? "confirm" : "revert", ": ",
               ok ? std::string("done") : *error);
    return ok;
}

std::optional<PersistReport> Router::persist(const PersistScript& ps, std::string* error) {
    std::optional<PersistReport> rep;
    if (const auto res = run(ps.script, error))
        rep = persistResult(res->exitStatus, res->out, res->err, ps.token, error);
    if (!rep) {
        log::debug(log::persist, where(), ": ", *error);
        return rep;
    }
    for (const auto& f : rep->written)
        log::debug(log::persist, where(), ": wrote ", f);
    for (const auto& f : rep->removed)
        log::debug(log::persist, where(), ": removed ", f);
    for (const auto& m : rep->messages)
        log::debug(log::persist, where(), ": router says: ", m);
    return rep;
}

std::optional<ssh::RunResult> Router::run(const std::string& script, std::string* error) {
    if (!m_session)
        return runLocal(script);
    auto r = m_session->run("sh -s", script);
    if (!r && error)
        *error = m_session->error().message;
    return r;
}

void Router::requestStop() {
    if (m_session)
        m_session->requestStop();
}

namespace {

std::string slurpFile(const std::filesystem::path& p) {
    std::string s;
    if (FILE* f = std::fopen(p.c_str(), "rb")) {
        char buf[65536];
        std::size_t n;
        while ((n = std::fread(buf, 1, sizeof buf, f)) > 0)
            s.append(buf, n);
        std::fclose(f);
    }
    return s;
}

} // namespace

// The script goes to /bin/sh through files in a private directory: no part of it, nor of any
// name in it, is ever on a command line.
ssh::RunResult Router::runLocal(const std::string& script) {
    namespace fs = std::filesystem;
    ssh::RunResult r;
    std::string tmpl = (fs::temp_directory_path() / "coresteer-XXXXXX").string();
    if (!::mkdtemp(tmpl.data())) {
        r.err = "cannot make a temporary directory";
        return r;
    }
    const fs::path dir = tmpl;
    if (FILE* f = std::fopen((dir / "s.sh").c_str(), "wb")) {
        std::fwrite(script.data(), 1, script.size(), f);
        std::fclose(f);
    }
    const std::string cmd = "/bin/sh -s < '" + (dir / "s.sh").string() + "' > '" +
                            (dir / "out").string() + "' 2> '" + (dir / "err").string() + "'";
    const int st = std::system(cmd.c_str());
    r.exitStatus = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    r.out = slurpFile(dir / "out");
    r.err = slurpFile(dir / "err");
    std::error_code ec;
    fs::remove_all(dir, ec);
    return r;
}

} // namespace coresteer

#include "core/router.h"

#include "core/collect_local.h"
#include "core/collect_remote.h"

#include <cstdio>
#include <filesystem>
#include <sys/wait.h>
#include <unistd.h>

namespace coresteer {

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
    if (m_session)
        return collectRemote(*m_session, m_root, error);
    return collectLocal(m_root);
}

std::optional<ApplyReport> Router::apply(const Resolution& r, const ApplyOptions& ao,
                                         std::string* error) {
    const auto writes = changedWrites(r);
    return apply(makeApplyScript(writes, m_root, ao), writes, error);
}

std::optional<ApplyReport> Router::apply(const ApplyScript& script,
                                         const std::vector<Write>& writes, std::string* error) {
    if (m_session)
        return runApplyScript(*m_session, script, writes, error);
    const auto res = runLocal(script.script);
    return applyResult(res.exitStatus, res.out, res.err, script, writes, error);
}

bool Router::settle(PendingAction a, std::string* error) {
    if (m_session)
        return settleRemote(*m_session, m_root, a, error);
    const auto res = runLocal(makeSettleScript(m_root, a));
    return settleSucceeded(res.exitStatus, res.out, res.err, error);
}

std::optional<PersistReport> Router::persist(const PersistScript& ps, std::string* error) {
    if (m_session)
        return runPersistScript(*m_session, ps, error);
    const auto res = runLocal(ps.script);
    return persistResult(res.exitStatus, res.out, res.err, ps.token, error);
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

#include "core/cli.h"

#include "core/collect_local.h"
#include "core/collect_remote.h"
#include "core/layout/layout_json.h"
#include "core/layout/planner.h"
#include "core/layout/resolve.h"
#include "core/snapshot_json.h"
#include "core/snapshot_text.h"
#include "core/ssh/terminal_prompter.h"

#include <filesystem>
#include <fstream>
#include <ostream>
#include <sstream>

namespace coresteer {

namespace {

constexpr const char* kUsage = R"(usage: coresteer-cli <command> TARGET [options]

TARGET is --root DIR (a /proc and /sys tree on this machine; "/" for this machine itself) or
ssh://[user@]host[:port] or an ssh_config alias (a router; --root DIR is then a directory on
the router, default /). SSH options: --known-hosts FILE, --identity FILE, --ssh-config FILE,
--accept-new-host-key.

commands:
  snapshot TARGET [--json]        the CPU, IRQ and queue layout, read in one connection and one
                                  command over SSH
  plan TARGET [--json]            a proposed layout with a reason for every choice; --json
                                  prints a layout file that diff accepts as it is
  diff TARGET LAYOUT [--json]     what LAYOUT (a JSON file) would change on TARGET, and what
                                  cannot apply there
  --help                          this text
  --version                       the version

exit codes: 0 ok, 1 partial (see the warnings; for diff: targets that cannot apply),
            2 unusable input, bad usage or a connection error
)";

int usageError(std::ostream& err, const std::string& msg) {
    err << "coresteer-cli: " << msg << "\n" << kUsage;
    return 2;
}

struct Options {
    std::string root, target, knownHosts, identity, sshConfig;
    bool json = false, acceptNew = false;
    std::vector<std::string> positional; // after the target
};

// Parses the target options shared by every verb; false after printing a usage error.
bool parseOptions(const std::vector<std::string>& args, Options& o, std::ostream& err, int& code) {
    for (std::size_t i = 0; i < args.size(); ++i) {
        const auto& a = args[i];
        auto value = [&](std::string& dst, const char* what) {
            if (i + 1 >= args.size()) {
                code = usageError(err, a + " needs " + what);
                return false;
            }
            dst = args[++i];
            return true;
        };
        if (a == "--json") {
            o.json = true;
        } else if (a == "--accept-new-host-key") {
            o.acceptNew = true;
        } else if (a == "--root") {
            if (!value(o.root, "a directory"))
                return false;
        } else if (a.rfind("--root=", 0) == 0) {
            o.root = a.substr(7);
        } else if (a == "--known-hosts") {
            if (!value(o.knownHosts, "a file"))
                return false;
        } else if (a == "--identity" || a == "-i") {
            if (!value(o.identity, "a file"))
                return false;
        } else if (a == "--ssh-config" || a == "-F") {
            if (!value(o.sshConfig, "a file"))
                return false;
        } else if (!a.empty() && a[0] != '-') {
            // The first bare word is the SSH target unless --root names a local tree.
            if (o.target.empty() && o.root.empty() && o.positional.empty() &&
                (a.rfind("ssh://", 0) == 0 || a.find('/') == std::string::npos ||
                 a.find('@') != std::string::npos))
                o.target = a;
            else
                o.positional.push_back(a);
        } else {
            code = usageError(err, "unknown option '" + a + "'");
            return false;
        }
    }
    if (o.target.empty() && o.root.empty()) {
        code = usageError(err, "no TARGET: give --root DIR or an SSH target");
        return false;
    }
    return true;
}

struct Acquired {
    Snapshot snap;
    std::string where;
};

// Reads the snapshot of the target; nullopt after printing the error.
std::optional<Acquired> acquire(const Options& o, std::ostream& err) {
    if (o.target.empty()) {
        std::error_code ec;
        if (!std::filesystem::is_directory(o.root, ec)) {
            err << "coresteer-cli: " << o.root << ": not a directory\n";
            return std::nullopt;
        }
        return Acquired{buildSnapshot(collectLocal(o.root)), o.root};
    }
    std::string error;
    auto t = ssh::parseTarget(o.target, &error);
    if (!t) {
        err << "coresteer-cli: " << error << "\n";
        return std::nullopt;
    }
    t->knownHostsFile = o.knownHosts;
    t->identityFile = o.identity;
    t->configFile = o.sshConfig;
    ssh::TerminalPrompter prompter(err, o.acceptNew);
    ssh::Session session(*t, prompter);
    if (!session.connect()) {
        err << "coresteer-cli: " << session.error().message << "\n";
        return std::nullopt;
    }
    const auto bundle = collectRemote(session, o.root.empty() ? "/" : o.root, &error);
    if (!bundle) {
        err << "coresteer-cli: " << error << "\n";
        return std::nullopt;
    }
    return Acquired{buildSnapshot(*bundle), bundle->origin};
}

void printDiagnostics(const Acquired& a, std::ostream& err) {
    for (const auto& d : a.snap.diagnostics.entries())
        err << a.where << (a.where.back() == '/' ? "" : "/") << d.toString() << "\n";
    if (a.snap.completeness() == 2)
        err << "coresteer-cli: " << a.where << ": no usable interrupt or CPU data\n";
}

int snapshotCommand(const Options& o, std::ostream& out, std::ostream& err) {
    if (!o.positional.empty())
        return usageError(err, "unexpected argument '" + o.positional.front() + "'");
    const auto a = acquire(o, err);
    if (!a)
        return 2;
    if (o.json)
        out << toJsonText(a->snap) << "\n";
    else
        out << toText(a->snap);
    printDiagnostics(*a, err);
    return a->snap.completeness();
}

std::string layoutText(const Layout& l, const Snapshot& snap) {
    std::ostringstream s;
    for (const auto& n : l.notes)
        s << n << "\n";
    if (!l.notes.empty())
        s << "\n";
    const auto r = resolve(l, snap);
    for (const auto& w : r.writes) {
        s << "  " << w.target << ": " << w.path << " " << (w.current.empty() ? "?" : w.current)
          << " -> " << w.value << (w.changes() ? "" : "  (unchanged)") << "\n";
        if (!w.why.empty())
            s << "      " << w.why << "\n";
    }
    for (const auto& k : r.skipped)
        s << "  " << k.target << ": cannot apply: " << k.reason << "\n";
    return s.str();
}

int planCommand(const Options& o, std::ostream& out, std::ostream& err) {
    if (!o.positional.empty())
        return usageError(err, "unexpected argument '" + o.positional.front() + "'");
    const auto a = acquire(o, err);
    if (!a)
        return 2;
    printDiagnostics(*a, err);
    if (a->snap.completeness() == 2)
        return 2;
    const auto l = plan(a->snap);
    if (o.json)
        out << toJson(l).dump(2) << "\n";
    else
        out << "Proposed layout for " << a->where << "\n\n" << layoutText(l, a->snap);
    return 0;
}

int diffCommand(const Options& o, std::ostream& out, std::ostream& err) {
    if (o.positional.size() != 1)
        return usageError(err, "diff needs TARGET and one LAYOUT file");
    std::ifstream in(o.positional.front(), std::ios::binary);
    if (!in) {
        err << "coresteer-cli: " << o.positional.front() << ": cannot read\n";
        return 2;
    }
    std::ostringstream text;
    text << in.rdbuf();
    std::string error;
    const auto layout = parseLayout(text.str(), &error);
    if (!layout) {
        err << "coresteer-cli: " << o.positional.front() << ": " << error << "\n";
        return 2;
    }
    const auto a = acquire(o, err);
    if (!a)
        return 2;
    printDiagnostics(*a, err);
    const auto r = resolve(*layout, a->snap);
    if (o.json) {
        nlohmann::json j;
        j["changes"] = nlohmann::json::array();
        for (const auto& w : r.writes)
            j["changes"].push_back({{"target", w.target},
                                    {"path", w.path},
                                    {"current", w.current},
                                    {"value", w.value},
                                    {"changes", w.changes()}});
        j["not_applicable"] = nlohmann::json::array();
        for (const auto& k : r.skipped)
            j["not_applicable"].push_back({{"target", k.target}, {"reason", k.reason}});
        out << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    } else {
        out << r.changeCount() << " of " << r.writes.size() << " values change on " << a->where
            << "\n\n"
            << layoutText(*layout, a->snap);
    }
    return r.skipped.empty() ? 0 : 1;
}

} // namespace

int runCli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    if (args.empty())
        return usageError(err, "no command");
    const auto& cmd = args.front();
    if (cmd == "--help" || cmd == "-h" || cmd == "help") {
        out << kUsage;
        return 0;
    }
    if (cmd == "--version") {
        out << "coresteer-cli " << CORESTEER_VERSION << "\n";
        return 0;
    }
    int (*verb)(const Options&, std::ostream&, std::ostream&) = nullptr;
    if (cmd == "snapshot")
        verb = &snapshotCommand;
    else if (cmd == "plan")
        verb = &planCommand;
    else if (cmd == "diff")
        verb = &diffCommand;
    else
        return usageError(err, "unknown command '" + cmd + "'");
    Options o;
    int code = 2;
    if (!parseOptions({args.begin() + 1, args.end()}, o, err, code))
        return code;
    return verb(o, out, err);
}

} // namespace coresteer

#include "core/cli.h"

#include "core/collect_local.h"
#include "core/collect_remote.h"
#include "core/snapshot_json.h"
#include "core/snapshot_text.h"
#include "core/ssh/terminal_prompter.h"

#include <filesystem>
#include <ostream>

namespace coresteer {

namespace {

constexpr const char* kUsage = R"(usage: coresteer-cli <command> [options]

commands:
  snapshot --root DIR [--json]   read /proc and /sys below DIR ("/" for this machine) and
                                 print the CPU, IRQ and queue layout
  snapshot TARGET [--root DIR] [--known-hosts FILE] [--identity FILE] [--ssh-config FILE]
           [--accept-new-host-key] [--json]
                                 the same from a router over SSH, in one connection and one
                                 command; TARGET is ssh://[user@]host[:port] or an ssh_config
                                 alias. --root is then a directory on the router (default /)
  --help                         this text
  --version                      the version

exit codes: 0 complete, 1 partial (see the warnings), 2 unusable input or bad usage
)";

int usageError(std::ostream& err, const std::string& msg) {
    err << "coresteer-cli: " << msg << "\n" << kUsage;
    return 2;
}

void printSnapshot(const Snapshot& snap, const std::string& where, bool json, std::ostream& out,
                   std::ostream& err) {
    if (json)
        out << toJsonText(snap) << "\n";
    else
        out << toText(snap);
    for (const auto& d : snap.diagnostics.entries())
        err << where << (where.back() == '/' ? "" : "/") << d.toString() << "\n";
}

int snapshotCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    std::string root, target, knownHosts, identity, sshConfig;
    bool json = false, acceptNew = false;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const auto& a = args[i];
        auto value = [&](std::string& dst) {
            if (i + 1 >= args.size())
                return false;
            dst = args[++i];
            return true;
        };
        if (a == "--json") {
            json = true;
        } else if (a == "--accept-new-host-key") {
            acceptNew = true;
        } else if (a == "--root") {
            if (!value(root))
                return usageError(err, "--root needs a directory");
        } else if (a.rfind("--root=", 0) == 0) {
            root = a.substr(7);
        } else if (a == "--known-hosts") {
            if (!value(knownHosts))
                return usageError(err, "--known-hosts needs a file");
        } else if (a == "--identity" || a == "-i") {
            if (!value(identity))
                return usageError(err, "--identity needs a file");
        } else if (a == "--ssh-config" || a == "-F") {
            if (!value(sshConfig))
                return usageError(err, "--ssh-config needs a file");
        } else if (!a.empty() && a[0] != '-' && target.empty()) {
            target = a;
        } else {
            return usageError(err, "unknown argument '" + a + "' for snapshot");
        }
    }
    if (target.empty()) {
        if (root.empty())
            return usageError(err, "snapshot needs --root DIR or an SSH target");
        std::error_code ec;
        if (!std::filesystem::is_directory(root, ec)) {
            err << "coresteer-cli: " << root << ": not a directory\n";
            return 2;
        }
        const auto snap = buildSnapshot(collectLocal(root));
        printSnapshot(snap, root, json, out, err);
        if (snap.completeness() == 2)
            err << "coresteer-cli: " << root << ": no usable interrupt or CPU data\n";
        return snap.completeness();
    }

    std::string error;
    auto t = ssh::parseTarget(target, &error);
    if (!t) {
        err << "coresteer-cli: " << error << "\n";
        return 2;
    }
    t->knownHostsFile = knownHosts;
    t->identityFile = identity;
    t->configFile = sshConfig;
    ssh::TerminalPrompter prompter(err, acceptNew);
    ssh::Session session(*t, prompter);
    if (!session.connect()) {
        err << "coresteer-cli: " << session.error().message << "\n";
        return 2;
    }
    const std::string remoteRoot = root.empty() ? "/" : root;
    const auto bundle = collectRemote(session, remoteRoot, &error);
    if (!bundle) {
        err << "coresteer-cli: " << error << "\n";
        return 2;
    }
    const auto snap = buildSnapshot(*bundle);
    printSnapshot(snap, bundle->origin, json, out, err);
    if (snap.completeness() == 2)
        err << "coresteer-cli: " << bundle->origin << ": no usable interrupt or CPU data\n";
    return snap.completeness();
}

} // namespace

int runCli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    if (args.empty())
        return usageError(err, "no command");
    const auto& cmd = args.front();
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    if (cmd == "--help" || cmd == "-h" || cmd == "help") {
        out << kUsage;
        return 0;
    }
    if (cmd == "--version") {
        out << "coresteer-cli " << CORESTEER_VERSION << "\n";
        return 0;
    }
    if (cmd == "snapshot")
        return snapshotCommand(rest, out, err);
    return usageError(err, "unknown command '" + cmd + "'");
}

} // namespace coresteer

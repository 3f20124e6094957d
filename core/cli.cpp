#include "core/cli.h"

#include "core/collect_local.h"
#include "core/snapshot_json.h"
#include "core/snapshot_text.h"

#include <filesystem>
#include <ostream>

namespace coresteer {

namespace {

constexpr const char* kUsage = R"(usage: coresteer-cli <command> [options]

commands:
  snapshot --root DIR [--json]   read /proc and /sys below DIR ("/" for this machine) and
                                 print the CPU, IRQ and queue layout
  --help                         this text
  --version                      the version

exit codes: 0 complete, 1 partial (see the warnings), 2 unusable input or bad usage
)";

int usageError(std::ostream& err, const std::string& msg) {
    err << "coresteer-cli: " << msg << "\n" << kUsage;
    return 2;
}

int snapshotCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    std::string root;
    bool json = false;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const auto& a = args[i];
        if (a == "--json") {
            json = true;
        } else if (a == "--root") {
            if (i + 1 >= args.size())
                return usageError(err, "--root needs a directory");
            root = args[++i];
        } else if (a.rfind("--root=", 0) == 0) {
            root = a.substr(7);
        } else {
            return usageError(err, "unknown argument '" + a + "' for snapshot");
        }
    }
    if (root.empty())
        return usageError(err, "snapshot needs --root DIR");
    std::error_code ec;
    if (!std::filesystem::is_directory(root, ec)) {
        err << "coresteer-cli: " << root << ": not a directory\n";
        return 2;
    }
    const auto snap = buildSnapshot(collectLocal(root));
    if (json)
        out << toJson(snap).dump(2) << "\n";
    else
        out << toText(snap);
    for (const auto& d : snap.diagnostics.entries())
        err << root << (root.back() == '/' ? "" : "/") << d.toString() << "\n";
    const int verdict = snap.completeness();
    if (verdict == 2)
        err << "coresteer-cli: " << root << ": no usable interrupt or CPU data\n";
    return verdict;
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

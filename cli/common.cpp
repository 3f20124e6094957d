// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// What the verbs share: the target opened, its snapshot, a layout file.
#include "cli/verbs.h"

#include "cli/inventory.h"
#include "cli/terminal_prompter.h"
#include "core/base/json_text.h"
#include "core/base/log.h"
#include "core/base/text.h"
#include "core/base/utf8.h"
#include "core/collect/capture.h"
#include "core/layout/apply.h"
#include "core/layout/fleet.h"
#include "core/layout/layout_json.h"
#include "core/layout/persist.h"
#include "core/layout/planner.h"
#include "core/layout/resolve.h"
#include "core/live/recording.h"
#include "core/live/source.h"
#include "core/model/snapshot_json.h"
#include "core/model/snapshot_text.h"
#include "core/router/router.h"

#include <CLI/CLI.hpp>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <ostream>
#include <sstream>
#include <thread>
#include <tuple>

namespace coresteer::cli {

using namespace coresteer::layout;

namespace fs = std::filesystem;

int usageError(std::ostream& err, const std::string& msg) {
    err << "coresteer-cli: " << msg << "\nRun 'coresteer-cli --help' for the commands.\n";
    return 2;
}

// Parses the target options shared by every verb; false after printing a usage error.
// Sorts the words after the verb: ssh:// words are targets; of the bare words, those beyond what
// the verb takes (`positionals`) are targets too (ssh_config aliases), first or, with
// `targetsLast`, last ("preset load FILE alias"). False after printing a usage error.
bool finishTargets(Options& o, std::size_t positionals, std::ostream& err, int& code,
                   bool targetsLast) {
    std::vector<std::string> bare;
    for (auto& w : o.positional)
        (w.rfind("ssh://", 0) == 0 ? o.targets : bare).push_back(std::move(w));
    o.positional = std::move(bare);
    const auto aliases = static_cast<std::ptrdiff_t>(
        o.positional.size() > positionals ? o.positional.size() - positionals : 0);
    const auto from = targetsLast ? o.positional.end() - aliases : o.positional.begin();
    o.targets.insert(o.targets.end(), from, from + aliases);
    o.positional.erase(from, from + aliases);
    if (!o.targets.empty())
        o.target = o.targets.front();
    if (!o.inventoryGroup.empty() && o.inventory.empty()) {
        code = usageError(err, "--inventory-group needs --inventory");
        return false;
    }
    if (o.target.empty() && o.root.empty() && o.inventory.empty()) {
        code = usageError(err, "no TARGET: give --root DIR or an SSH target");
        return false;
    }
    return true;
}

// Opens the target: connects over SSH, or checks the local root. nullopt after printing why.
int noArguments(const Options& o, std::ostream& err) {
    return o.positional.empty()
               ? 0
               : usageError(err, "unexpected argument '" + o.positional.front() + "'");
}

DemoDir::~DemoDir() {
    std::error_code ec;
    if (!path.empty())
        fs::remove_all(path, ec);
}

namespace {

// The demo router's capture: installed beside the program (../share/coresteer/demo), else the
// one this build made.
std::optional<std::string> demoCapture(std::string* where) {
    std::vector<fs::path> candidates;
    std::error_code ec;
    const auto exe = fs::read_symlink("/proc/self/exe", ec);
    if (!ec)
        candidates.push_back(exe.parent_path().parent_path() / "share/coresteer/demo" /
                             "nanopi-r6s.capture");
#ifdef CORESTEER_BUILD_DEMO_CAPTURE
    candidates.emplace_back(CORESTEER_BUILD_DEMO_CAPTURE);
#endif
    for (const auto& c : candidates) {
        std::ifstream in(c, std::ios::binary);
        if (!in)
            continue;
        std::ostringstream text;
        text << in.rdbuf();
        *where = c.string();
        return text.str();
    }
    *where = candidates.empty() ? std::string("nanopi-r6s.capture") : candidates.front().string();
    return std::nullopt;
}

} // namespace

// The target `demo`: the GUI's demo router, its capture laid out in a directory of its own.
static bool openDemo(Opened& r, std::ostream& err) {
    std::string where;
    const auto text = demoCapture(&where);
    if (!text) {
        err << "coresteer-cli: demo: " << where << ": not found (is coresteer installed?)\n";
        return false;
    }
    const char* tmp = std::getenv("TMPDIR");
    std::string templ = std::string(tmp && *tmp ? tmp : "/tmp") + "/coresteer-demo-XXXXXX";
    if (!::mkdtemp(templ.data())) { // mode 0700, made by this process
        err << "coresteer-cli: demo: " << templ << ": " << std::strerror(errno) << "\n";
        return false;
    }
    r.demo = std::make_shared<DemoDir>();
    r.demo->path = templ;
    std::string error;
    if (!layOutCapture(*text, templ, &error)) {
        err << "coresteer-cli: demo: " << where << ": " << error << "\n";
        return false;
    }
    r.router = Router::local(templ);
    return true;
}

std::optional<Opened> openTarget(const Options& o, std::ostream& err) {
    Opened r;
    if (o.target.empty()) {
        r.router = Router::local(o.root);
    } else if (o.target == "demo") {
        if (!openDemo(r, err))
            return std::nullopt;
    } else {
        std::string error;
        auto t = ssh::parseTarget(o.target, &error);
        if (!t) {
            err << "coresteer-cli: " << error << "\n";
            return std::nullopt;
        }
        t->knownHostsFile = o.knownHosts;
        t->acceptNewHopKeys = o.acceptNew;
        t->identityFile = o.identity;
        t->configFile = o.sshConfig;
        r.prompter = std::make_unique<ssh::TerminalPrompter>(err, o.acceptNew);
        r.router = Router::remote(*t, *r.prompter, o.root.empty() ? "/" : o.root);
    }
    std::string error;
    if (!r->open(&error)) {
        err << "coresteer-cli: " << error << "\n";
        return std::nullopt;
    }
    return r;
}

// Reads the snapshot of the target; nullopt after printing the error.
std::optional<Acquired> acquire(const Options& o, std::ostream& err, Opened* keep) {
    auto r = openTarget(o, err);
    if (!r)
        return std::nullopt;
    std::string error;
    const auto bundle = (*r)->collect(&error);
    if (!bundle) {
        err << "coresteer-cli: " << error << "\n";
        return std::nullopt;
    }
    Acquired a{buildSnapshot(*bundle), r->router->isRemote() ? bundle->origin
                                       : r->demo             ? std::string("demo")
                                                             : o.root};
    if (keep)
        *keep = std::move(*r);
    return a;
}

void printDiagnostics(const Acquired& a, std::ostream& err) {
    for (const auto& d : a.snap.diagnostics.entries())
        err << a.where << (a.where.back() == '/' ? "" : "/") << d.toString() << "\n";
    if (a.snap.completeness() == 2)
        err << "coresteer-cli: " << a.where << ": no usable interrupt or CPU data\n";
}

// The snapshot, with its warnings printed; nullopt when it is unusable (no IRQs or CPUs).
std::optional<Acquired> acquireUsable(const Options& o, std::ostream& err, Opened* keep) {
    auto a = acquire(o, err, keep);
    if (!a)
        return std::nullopt;
    printDiagnostics(*a, err);
    if (a->snap.completeness() == 2)
        return std::nullopt;
    return a;
}

// A layout file, or a preset file (whose layout is used).
std::optional<Layout> readLayoutFile(const std::string& path, std::ostream& err,
                                     std::optional<Preset>* preset) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        err << "coresteer-cli: " << path << ": cannot read\n";
        return std::nullopt;
    }
    // A layout is a few kilobytes: a file past 1 MiB (or one that never ends, as /dev/zero) is
    // no layout, and is not read to its end.
    constexpr std::size_t limit = 1 << 20;
    std::string body(limit + 1, '\0');
    in.read(body.data(), static_cast<std::streamsize>(body.size()));
    body.resize(static_cast<std::size_t>(in.gcount()));
    if (body.size() > limit) {
        err << "coresteer-cli: " << path << ": too large for a layout (over 1 MiB)\n";
        return std::nullopt;
    }
    std::string error;
    if (body.find("coresteer.preset/") != std::string::npos) {
        auto p = parsePreset(body, &error);
        if (!p) {
            err << "coresteer-cli: " << path << ": " << error << "\n";
            return std::nullopt;
        }
        if (preset)
            *preset = *p;
        return p->layout;
    }
    auto layout = parseLayout(body, &error);
    if (!layout)
        err << "coresteer-cli: " << path << ": " << error << "\n";
    return layout;
}

// The LAYOUT argument and the target's snapshot; nullopt after printing the error.
std::optional<std::pair<Layout, Acquired>> layoutAndTarget(const Options& o, std::ostream& err) {
    auto layout = readLayoutFile(o.positional.front(), err);
    if (!layout)
        return std::nullopt;
    auto a = acquire(o, err);
    if (!a)
        return std::nullopt;
    return std::pair<Layout, Acquired>{std::move(*layout), std::move(*a)};
}

} // namespace coresteer::cli

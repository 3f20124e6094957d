// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// A router for persist's and the fleet's tests: a copy of a board fixture under the build tree,
// BusyBox ash to run scripts on it, and commands that leave a trace if a hostile name ever runs
// one. Never the build machine's own /proc, /sys or /etc.
#pragma once

#include "core/collect/collect_local.h"
#include "core/layout/layout_json.h"
#include "core/layout/persist.h"
#include "core/layout/planner.h"
#include "core/layout/resolve.h"
#include "tests/support/board_expect.h"
#include "tests/support/firmware_expect.h"
#include "tests/support/test_names.h"

#include <gtest/gtest.h>

#include <cctype>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <string>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <utility>
#include <vector>

namespace coresteer::test {

using namespace coresteer::layout;

namespace fs = std::filesystem;

// OpenWrt's /etc/sysupgrade.conf as base-files ships it.
inline constexpr const char* kSysupgradeConf =
    "## This file contains files and directories that should\n"
    "## be preserved during an upgrade.\n\n"
    "# /etc/example.conf\n# /etc/openvpn/\n";

// Every diagnostic of a snapshot, one a line.
inline std::string warnings(const Snapshot& snap) {
    std::string out;
    for (const auto& d : snap.diagnostics.entries())
        out += d.toString() + "\n";
    return out;
}

// The layout's target for an interface, or null.
inline const InterfaceTarget* targetOf(const Layout& l, const std::string& name) {
    for (const auto& t : l.interfaces)
        if (t.interface == name)
            return &t;
    return nullptr;
}

inline std::string firstLine(const fs::path& p) {
    const auto s = slurp(p);
    return s.substr(0, s.find('\n'));
}

// Every path under `root` with its content (or link target), for "nothing else changed".
inline std::map<std::string, std::string> treeOf(const fs::path& root) {
    std::map<std::string, std::string> m;
    for (auto it = fs::recursive_directory_iterator(root); it != fs::recursive_directory_iterator();
         ++it) {
        const auto rel = fs::relative(it->path(), root).string();
        if (rel.rfind("tmp", 0) == 0)
            continue; // the router apply script's lock lives there
        if (it->is_symlink())
            m[rel] = "-> " + fs::read_symlink(it->path()).string();
        else if (it->is_directory())
            m[rel] = "dir";
        else
            m[rel] = slurp(it->path());
    }
    return m;
}

class Router {
public:
    Router(const std::string& board, const std::string& variant = "") {
        m_dir = fs::path(CORESTEER_TEST_TMP) / "persist" / (currentTestFileName() + variant);
        fs::remove_all(m_dir);
        fs::create_directories(m_dir);
        root = m_dir / "root";
        fs::copy(test::boardDir(board), root,
                 fs::copy_options::recursive | fs::copy_options::copy_symlinks);
        fs::create_directories(m_dir / "bin");
        // Commands a hostile name might try to run: each leaves a trace if it ever runs.
        for (const char* cmd : {"reboot", "id", "touch_me"}) {
            const auto p = m_dir / "bin" / cmd;
            std::ofstream(p) << "#!/bin/sh\necho ran >> '" << (m_dir / "EXECUTED").string()
                             << "'\n";
            fs::permissions(p, fs::perms::owner_all);
        }
    }
    // The root as the firmware fixture `name` makes it: its board with the firmware's files.
    void useFirmware(const std::string& name) {
        fs::remove_all(root);
        layFirmware(name, root);
    }
    // A command the scripts run on this root find first in PATH (a firmware's tools).
    void tool(const std::string& name, const std::string& text) const {
        const auto p = m_dir / "bin" / name;
        std::ofstream(p, std::ios::trunc) << text;
        fs::permissions(p, fs::perms::owner_all);
    }
    // Where tool() puts them.
    fs::path tools() const { return m_dir / "bin"; }
    Snapshot snapshot() const { return buildSnapshot(collectLocal(root)); }
    void write(const std::string& rel, const std::string& content) const {
        fs::create_directories((root / rel).parent_path());
        std::ofstream(root / rel, std::ios::binary | std::ios::trunc) << content;
    }
    // Runs `script` (a file, or stdin text) with BusyBox ash; returns the exit status.
    int ash(const std::string& scriptFile, const std::string& env, std::string* out = nullptr,
            const std::string& stdinText = "") const {
        std::ofstream(m_dir / "stdin") << stdinText;
        const std::string cmd =
            "env PATH='" + (m_dir / "bin").string() + ":" + std::getenv("PATH") + "' " + env +
            " busybox ash " + scriptFile + " < '" + (m_dir / "stdin").string() + "' > '" +
            (m_dir / "out").string() + "' 2> '" + (m_dir / "err").string() + "'";
        const int st = std::system(cmd.c_str());
        if (out)
            *out = slurp(m_dir / "out");
        return WEXITSTATUS(st);
    }
    std::optional<PersistReport> run(const PersistScript& ps, std::string* error) const {
        std::string out;
        const int rc = ash("-s", "", &out, ps.script);
        return persistResult(rc, out, slurp(m_dir / "err"), ps.token, error);
    }
    // The router apply script as procd runs it: one ACTION=add per interface.
    int hotplug(const std::string& script, const std::string& iface, const std::string& action,
                int wait = 0) const {
        return ash("'" + (root / script).string() + "'",
                   "ACTION='" + action + "' INTERFACE=" + ssh_quote(iface) + " CORESTEER_ROOT='" +
                       root.string() + "' CORESTEER_WAIT=" + std::to_string(wait));
    }
    std::string err() const { return slurp(m_dir / "err"); }
    // A script beside the root, for ash(); returns its quoted path.
    std::string script(const std::string& name, const std::string& text) const {
        std::ofstream(m_dir / name, std::ios::binary | std::ios::trunc) << text;
        return ssh_quote((m_dir / name).string());
    }
    // One of the fleet's scripts, as Ansible's raw task runs it on this root.
    int fleet(const std::string& text, const std::string& env = "",
              std::string* out = nullptr) const {
        return ash(script("fleet.sh", text),
                   "CORESTEER_ROOT=" + ssh_quote(root.string()) + " " + env, out);
    }
    bool executedAnything() const { return fs::exists(m_dir / "EXECUTED"); }
    static std::string ssh_quote(const std::string& s) {
        std::string q = "'";
        for (char c : s)
            q += c == '\'' ? std::string("'\\''") : std::string(1, c);
        return q + "'";
    }

    fs::path root;

private:
    fs::path m_dir;
};

inline std::string hotplugPath() {
    return "etc/hotplug.d/net/" + std::string(kHotplugName);
}

// Values of `layout` that the root does not have yet.
inline std::size_t pending(const Layout& layout, const Router& r) {
    const auto snap = r.snapshot();
    const auto res = resolve(layout, snap);
    EXPECT_TRUE(res.skipped.empty())
        << res.skipped.front().target << ": " << res.skipped.front().reason;
    return res.changeCount();
}

inline std::vector<std::pair<std::string, Layout>> layoutsFor(const Snapshot& snap) {
    std::vector<std::pair<std::string, Layout>> out{{"plan", plan(snap)}};
    for (const auto& e : fs::directory_iterator(CORESTEER_PRESETS_DIR)) {
        std::string error;
        auto p = parsePreset(slurp(e.path()), &error);
        EXPECT_TRUE(p) << e.path() << ": " << error;
        if (p && p->board == snap.system.boardName)
            out.emplace_back(e.path().filename().string(), p->layout);
    }
    return out;
}

// A root persist can work on: OpenWrt with a sysupgrade.conf, or systemd. True for OpenWrt.
inline bool readyForPersist(const Router& r) {
    const bool openwrt = r.snapshot().system.isOpenWrt();
    if (openwrt)
        r.write("etc/sysupgrade.conf", kSysupgradeConf);
    else
        fs::create_directories(r.root / "run/systemd/system");
    return openwrt;
}

// A process of this test that names itself as a kernel thread would be named ("napi/eth0-1"),
// as any user on a router may; killed when this ends. comm() reads what the kernel shows.
class NamedProcess {
public:
    explicit NamedProcess(const std::string& name) : m_pid(::fork()) {
        if (m_pid == 0) {
            ::prctl(PR_SET_NAME, name.c_str(), 0, 0, 0);
            ::pause();
            ::_exit(0);
        }
        for (int i = 0; i < 100 && m_pid > 0 && comm() != name + "\n"; ++i)
            ::usleep(10000);
    }
    ~NamedProcess() {
        if (m_pid > 0) {
            ::kill(m_pid, SIGKILL);
            ::waitpid(m_pid, nullptr, 0);
        }
    }
    NamedProcess(const NamedProcess&) = delete;
    NamedProcess& operator=(const NamedProcess&) = delete;
    pid_t pid() const { return m_pid; }
    std::string comm() const { return slurp("/proc/" + std::to_string(m_pid) + "/comm"); }

private:
    pid_t m_pid;
};

inline std::string boardTestName(const ::testing::TestParamInfo<std::string>& p) {
    return paramTestName(p.param);
}

} // namespace coresteer::test

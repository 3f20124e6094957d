// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// One router to work on: an SSH session to it, or a /proc and /sys tree on this machine.
//
// Every verb of the CLI and every action of the GUI goes through this one class, so the two
// can never disagree about how a snapshot is read or a script is run. A local router runs the
// same scripts with this machine's /bin/sh, under its root prefix.
#pragma once

#include "core/collect/bundle.h"
#include "core/layout/apply.h"
#include "core/layout/persist.h"
#include "core/ssh/session.h"

#include <memory>
#include <optional>
#include <string>

namespace coresteer {

// Collects `root` on the router in one exec of the collector script (collect_remote.h).
// nullopt, with a message in *error, on any failure: a snapshot is never built from half an
// answer.
std::optional<FileBundle> collectRemote(ssh::Session& session, const std::string& root,
                                        std::string* error);

class Router {
public:
    // A tree on this machine: "/" for this machine itself, or a fixture root.
    static std::unique_ptr<Router> local(std::string root);
    // A router over SSH; `root` is a directory on the router ("/" normally). The prompter
    // must outlive the Router.
    static std::unique_ptr<Router> remote(ssh::Target target, ssh::Prompter& prompter,
                                          std::string root = "/");
    ~Router();
    Router(const Router&) = delete;
    Router& operator=(const Router&) = delete;

    // Connects (SSH) or checks that the root is a directory. False with *error.
    bool open(std::string* error);
    bool isRemote() const { return m_session != nullptr; }
    ssh::Session* session() { return m_session.get(); }
    const std::string& root() const { return m_root; }
    // "root@router:22" or the local root, for messages.
    std::string where() const;

    // Reads the collection spec in one round trip. nullopt with *error: a snapshot is never
    // built from half an answer.
    std::optional<FileBundle> collect(std::string* error);
    std::optional<layout::ApplyReport> apply(const layout::Resolution& resolution,
                                             const layout::ApplyOptions& options,
                                             std::string* error);
    // A prepared script over `writes` (made for this router's root by makeApplyScript).
    std::optional<layout::ApplyReport> apply(const layout::ApplyScript& script,
                                             const std::vector<layout::Write>& writes,
                                             std::string* error);
    bool settle(layout::PendingAction action, std::string* error);
    std::optional<layout::PersistReport> persist(const layout::PersistScript& script,
                                                 std::string* error);

    // Runs `script` with the router's `sh -s`: over the SSH session, or with this machine's
    // /bin/sh for a local root. The one place that branches on where the router is; every
    // script above goes through it. nullopt with *error when it could not run at all (no
    // connection, stopped); a script's own failure is its exit status and output.
    std::optional<ssh::RunResult> run(const std::string& script, std::string* error);

    // Thread-safe: ends the current SSH wait within 200 ms (local scripts run to their end).
    void requestStop();

private:
    Router(std::string root, std::unique_ptr<ssh::Session> session);
    static ssh::RunResult runLocal(const std::string& script);

    std::string m_root;
    std::unique_ptr<ssh::Session> m_session;
};

} // namespace coresteer

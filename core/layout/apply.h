// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// Applying a layout at runtime, LuCI-style: capture, arm an automatic revert, write, read back;
// then confirm over a new connection, or let the router restore itself.
//
// Everything happens in one script per step on the router (POSIX sh, `sh -s`), built on
// core/router-scripts/revert-state.sh, which owns the state in <root>/tmp/coresteer (tmpfs on
// OpenWrt, so a pending revert does not outlive a reboot): a directory of root's own with mode
// 0700, refused when anything else is in its place. Every step holds its lock (flock, or a
// mkdir lock), so two applies, a confirm and the timer never interleave:
//   revert.data  "path<TAB>old value" per target, captured in full before the timer is armed
//   pending      "PID ID HH:MM:SS FROM" of the revert job; present while a revert is armed
// The revert job (`/bin/sh $D/revert.sh ID SECONDS`) sleeps, then restores every old value if
// `pending` still names it. confirm claims `pending` and ends the job (only a process whose
// command line is that job); revert also restores at once. restore writes only the keys apply
// itself writes (IRQ affinities, RPS/XPS masks, rps_flow_cnt, rps_sock_flow_entries, kernel
// threads' CPUs, rx-usecs), whatever revert.data says.
#pragma once

#include "core/layout/resolve.h"

#include <optional>
#include <string>
#include <vector>

namespace coresteer::layout {

// A router script's root prefix: `R='<root>'` ("" for "/"), or with kRootFromEnvironment, read at
// run time from CORESTEER_ROOT (what the scripts a fleet tool runs take from each host's
// variables).
inline constexpr const char* kRootFromEnvironment = "$CORESTEER_ROOT";
std::string rootAssignment(const std::string& root);

struct ApplyOptions {
    int revertAfterSeconds = 60;
    bool armRevert = true; // false: --no-revert
};

struct TargetResult {
    enum class Status {
        Applied,            // written, and reads back as written
        AppliedDifferently, // written, but it reads back as another value
        AppliedPending,     // written; the IRQ's effective CPU still outside it: the kernel moves
                            // it at its next interrupt (x86 MSI without interrupt remapping)
        Refused, // the kernel said no (EINVAL, EIO, EOVERFLOW, ERANGE), or the router cannot (no
                 // taskset or ethtool, or NAPI and coalescing under a fixture root): the rest
                 // went on
        Failed,  // any other failure: the script stopped and restored everything
        NotRun,  // not reached because an earlier target failed
    };
    Write write;
    Status status = Status::NotRun;
    std::string readBack;  // the value after the write
    std::string effective; // effective_affinity after the write, for IRQs
    std::string error;     // what the kernel or shell said
};
const char* toString(TargetResult::Status s);

struct ApplyReport {
    std::vector<TargetResult> results;
    bool revertArmed = false;   // a revert job is waiting for confirm
    bool rolledBack = false;    // a failure made the script restore everything at once
    std::string revertDeadline; // seconds, as armed
};

struct ApplyScript {
    std::string token;
    std::string script;
};

// The revert state functions of revert-state.sh under `root`, and REVERT_JOB, the revert job's
// text, for scripts that arm a revert (`arm ID SECONDS`). The revert time must be 5 to 86 400 s:
// the router checks it (exit status 2), whatever path the number came by.
std::string revertStateScript(const std::string& root);

// The apply script for `writes` (only those that change anything).
ApplyScript makeApplyScript(const std::vector<Write>& writes, const std::string& root,
                            const ApplyOptions& options);
std::optional<ApplyReport> parseApplyOutput(const std::string& output, const std::string& token,
                                            const std::vector<Write>& writes, std::string* error);

// Classifies a write error as the kernel's refusal (true) or another failure.
bool isKernelRefusal(const std::string& message);

// The writes of `resolution` that change anything: what an apply script carries.
std::vector<Write> changedWrites(const Resolution& resolution);
// Judges a finished run of a prepared apply script (core/router runs it, on a local root or
// over SSH, so that what a person reviewed is exactly what runs).
std::optional<ApplyReport> applyResult(int exitStatus, const std::string& out,
                                       const std::string& err, const ApplyScript& script,
                                       const std::vector<Write>& writes, std::string* error);

// Confirms (cancels the revert) or reverts now.
enum class PendingAction { Confirm, Revert };
// The script that settles a pending apply, and how its answer is judged: false with *error
// when nothing was pending.
std::string makeSettleScript(const std::string& root, PendingAction action);
// The script that says whether an apply waits for confirmation: exit status 0 (and "clear")
// when none does, 4 with the pending apply's time and host on stderr, 3 when the state is unsafe.
std::string makePendingCheckScript(const std::string& root);
bool settleSucceeded(int exitStatus, const std::string& out, const std::string& err,
                     std::string* error);

} // namespace coresteer::layout

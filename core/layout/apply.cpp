// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/layout/apply.h"

#include "core/base/shell.h"
#include "core/base/text.h"
#include "core/router-scripts/router_scripts.h"

#include <map>
#include <random>

namespace coresteer::layout {

namespace {

std::string stateFunctions() {
    return "RSS_SPEC=" + shellQuote(router_scripts::kRssSpecAwk) + "\n" +
           std::string(router_scripts::kCommonSh) + std::string(router_scripts::kStateDirSh) +
           std::string(router_scripts::kRevertStateSh);
}

std::string statePrelude(const std::string& root) {
    return rootAssignment(root) + stateFunctions();
}

} // namespace

std::string rootAssignment(const std::string& root) {
    if (root == kRootFromEnvironment)
        return "R=${CORESTEER_ROOT:-}\nwhile [ \"${R%/}\" != \"$R\" ]; do R=${R%/}; done\n";
    std::string r = root;
    while (r.size() > 1 && r.back() == '/')
        r.pop_back();
    if (r == "/")
        r.clear();
    return "R=" + shellQuote(r) + "\n";
}

std::string revertStateScript(const std::string& root) {
    return statePrelude(root) + "REVERT_JOB=" +
           shellQuote("R=${0%/tmp/coresteer/revert.sh}\n" + stateFunctions() +
                      std::string(router_scripts::kRevertJobSh)) +
           "\n";
}

const char* toString(TargetResult::Status s) {
    switch (s) {
    case TargetResult::Status::Applied:
        return "applied";
    case TargetResult::Status::AppliedDifferently:
        return "applied differently";
    case TargetResult::Status::AppliedPending:
        return "applied, moves at the next interrupt";
    case TargetResult::Status::Refused:
        return "refused by the kernel";
    case TargetResult::Status::Failed:
        return "failed";
    case TargetResult::Status::NotRun:
        break;
    }
    return "not run";
}

bool isKernelRefusal(const std::string& m) {
    for (const char* s : {"Invalid argument", "I/O error", "Input/output error", "Value too large",
                          "Numerical result out of range", "out of range", "only on the live root",
                          "not found", "not supported"})
        if (m.find(s) != std::string::npos)
            return true;
    return false;
}

ApplyScript makeApplyScript(const std::vector<Write>& writes, const std::string& root,
                            const ApplyOptions& options) {
    ApplyScript s;
    s.token = randomToken("@@ap");
    std::string list;
    for (const auto& w : writes)
        list += w.path + "\t" + w.value + "\n";
    s.script = revertStateScript(root) + "T='" + s.token + "'\nID='" + randomToken("ap") +
               "'\nSECS=" +
               (options.armRevert ? shellQuote(std::to_string(options.revertAfterSeconds))
                                  : std::string("''")) +
               "\nWRITES=" + shellQuote(list) + "\n" + std::string(router_scripts::kApplySh);
    // One brace group: the shell reads all of it before it runs any of it, so a script cut off
    // on the way (a dropped connection) runs nothing.
    s.script = "{\n" + s.script + "}\n";
    return s;
}

std::optional<ApplyReport> parseApplyOutput(const std::string& output, const std::string& tok,
                                            const std::vector<Write>& writes, std::string* error) {
    ApplyReport rep;
    std::map<std::string, std::size_t> byPath;
    for (std::size_t i = 0; i < writes.size(); ++i) {
        rep.results.push_back({writes[i], TargetResult::Status::NotRun, {}, {}, {}});
        byPath[writes[i].path] = i;
    }
    std::map<std::string, std::string> readBack;
    bool done = false;
    text::LineReader lines(output);
    std::string_view line;
    while (lines.next(line)) {
        if (!text::startsWith(line, tok + " "))
            continue;
        text::Tokenizer tz(line.substr(tok.size() + 1));
        std::string_view kind;
        tz.next(kind);
        if (kind == "DONE") {
            done = true;
        } else if (kind == "ROLLBACK") {
            rep.rolledBack = true;
            rep.revertArmed = false;
        } else if (kind == "A") {
            rep.revertArmed = true;
            std::string_view secs;
            tz.next(secs);
            rep.revertDeadline = std::string(secs);
        } else if (kind == "W") {
            std::string_view status, path;
            tz.next(status);
            tz.next(path);
            const auto it = byPath.find(std::string(path));
            if (it == byPath.end())
                continue;
            auto& r = rep.results[it->second];
            r.error = std::string(tz.rest());
            r.status = status == "ok"        ? TargetResult::Status::Applied
                       : status == "refused" ? TargetResult::Status::Refused
                                             : TargetResult::Status::Failed;
        } else if (kind == "B") {
            std::string_view path;
            tz.next(path);
            readBack[std::string(path)] = std::string(text::trim(tz.rest()));
        }
    }
    for (auto& r : rep.results) {
        if (const auto it = readBack.find(r.write.path); it != readBack.end())
            r.readBack = it->second;
        if (r.write.kind == Write::Kind::IrqAffinity) {
            const auto eff =
                r.write.path.substr(0, r.write.path.rfind('/')) + "/effective_affinity";
            if (const auto it = readBack.find(eff); it != readBack.end())
                r.effective = it->second;
        }
        if (r.status != TargetResult::Status::Applied)
            continue;
        if (!r.readBack.empty() && !r.write.same(r.readBack, r.write.value)) {
            r.status = TargetResult::Status::AppliedDifferently;
        } else if (!r.effective.empty()) {
            const auto eff = CpuMask::fromHex(r.effective), want = CpuMask::fromHex(r.write.value);
            if (eff && want && !eff->none() && !eff->isSubsetOf(*want))
                r.status = TargetResult::Status::AppliedPending;
        }
    }
    if (!done && !rep.rolledBack) {
        if (error)
            *error = "the router's answer to the apply is cut short";
        return std::nullopt;
    }
    return rep;
}

std::vector<Write> changedWrites(const Resolution& resolution) {
    std::vector<Write> writes;
    for (const auto& w : resolution.writes)
        if (w.changes())
            writes.push_back(w);
    return writes;
}

std::optional<ApplyReport> applyResult(int exitStatus, const std::string& out,
                                       const std::string& err, const ApplyScript& s,
                                       const std::vector<Write>& writes, std::string* error) {
    if (exitStatus != 0 && exitStatus != 6) {
        if (error)
            *error = "the apply script stopped before writing anything (exit status " +
                     std::to_string(exitStatus) + "): " + text::printable(text::trim(err), 300);
        return std::nullopt;
    }
    return parseApplyOutput(out, s.token, writes, error);
}

std::string makeSettleScript(const std::string& root, PendingAction action) {
    return statePrelude(root) +
           "ACTION=" + (action == PendingAction::Revert ? "revert" : "confirm") + "\n" +
           std::string(router_scripts::kSettleSh);
}

std::string makePendingCheckScript(const std::string& root) {
    return statePrelude(root) + "state_dir || exit 3\npending_check || exit 4\necho clear\n";
}

bool settleSucceeded(int exitStatus, const std::string& out, const std::string& err,
                     std::string* error) {
    if (exitStatus == 0 && out == "settled\n")
        return true;
    if (error)
        *error = std::string(text::trim(err));
    return false;
}

} // namespace coresteer::layout

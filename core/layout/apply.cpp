#include "core/layout/apply.h"

#include "core/ssh/session.h"
#include "core/text.h"

#include <map>
#include <random>

namespace coresteer {

namespace {

// Shared by the apply and the settle scripts: restore every captured value.
constexpr const char* kRestore = R"SH(TAB='	'
NL='
'
# getv KEY: the current value into $v. KEY is a path under $R, or napi:PID or
# ethtool:IFACE:rx-usecs, which only exist on the live root.
getv() {
    v=
    case $1 in
    napi:*)
        [ -z "$R" ] || return 1
        v=$(sed -n 's/^Cpus_allowed:[[:space:]]*//p' "/proc/${1#napi:}/status" 2>/dev/null) ;;
    ethtool:*)
        [ -z "$R" ] || return 1
        k=${1#ethtool:}
        v=$(ethtool -c "${k%%:*}" 2>/dev/null | sed -n 's/^rx-usecs:[[:space:]]*//p') ;;
    *) IFS= read -r v < "$R/$1" 2>/dev/null ;;
    esac
    [ -n "$v" ]
}
# setv KEY VALUE: write; the reason on stderr when it fails.
setv() {
    case $1 in
    napi:*|ethtool:*)
        if [ -n "$R" ]; then echo "only on the live root (/), not under $R" >&2; return 1; fi ;;
    esac
    case $1 in
    napi:*) taskset -p "$(printf '%s' "$2" | tr -d ,)" "${1#napi:}" >/dev/null ;;
    ethtool:*)
        k=${1#ethtool:}
        if ! e=$(ethtool -C "${k%%:*}" rx-usecs "$2" 2>&1); then
            case $e in
            *unmodified*|*"no coalesce parameters changed"*) ;;
            *) printf '%s\n' "$e" >&2; return 1 ;;
            esac
        fi ;;
    # echo, not printf: BusyBox ash's printf fails a refused write without saying why.
    *) echo "$2" > "$R/$1" ;;
    esac
}
restore() {
    [ -f "$D/revert.data" ] || return 0
    while IFS="$TAB" read -r p v; do
        [ -n "$p" ] && setv "$p" "$v" >/dev/null 2>&1
    done < "$D/revert.data"
}
)SH";

std::string prelude(const std::string& root) {
    return rootAssignment(root) + "D=\"$R/tmp/coresteer\"\n" + kRestore;
}

bool sameValue(const Write& w, const std::string& a, const std::string& b) {
    if (w.isNumber())
        return text::parseU64(text::trim(a)) == text::parseU64(text::trim(b));
    const auto ma = CpuMask::fromHex(a), mb = CpuMask::fromHex(b);
    return ma && mb && *ma == *mb;
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
    return "R=" + ssh::shellQuote(r) + "\n";
}

std::string revertFunctions() {
    return kRestore;
}

std::string armRevertJob(const std::string& seconds) {
    return "( trap '' HUP INT; sleep " + seconds +
           "\n"
           "  if mv \"$D/pending\" \"$D/claimed.timer\" 2>/dev/null; then restore; "
           "rm -f \"$D/claimed.timer\"; logger -t coresteer 'layout not confirmed: reverted' "
           "2>/dev/null; fi ) </dev/null >/dev/null 2>&1 &\n"
           "echo $! > \"$D/pending\"\n";
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
    s.token = ssh::randomToken("@@ap");
    std::string sc = prelude(root) + "T='" + s.token + "'\n";
    sc += R"SH(umask 077
mkdir -p "$D" || { echo "cannot create $D" >&2; exit 3; }
if [ -f "$D/pending" ]; then
    echo "an earlier apply is still waiting for confirm or revert" >&2
    exit 4
fi
: > "$D/revert.new" || exit 3
cap() {
    case $1 in napi:*|ethtool:*) [ -n "$R" ] && return 0 ;; esac
    if ! getv "$1"; then echo "cannot read the current value of $1" >&2; exit 5; fi
    printf '%s\t%s\n' "$1" "$v" >> "$D/revert.new"
}
w() {
    if e=$( { setv "$1" "$2"; } 2>&1 ); then
        printf '%s W ok %s\n' "$T" "$1"
        return 0
    fi
    e=${e%%"$NL"*}
    case $e in
    *"Invalid argument"*|*"I/O error"*|*"Input/output error"*|*"Value too large"*|*"out of range"*|\
    *"only on the live root"*|*"not found"*|*"not supported"*)
        printf '%s W refused %s %s\n' "$T" "$1" "$e"
        return 0 ;;
    esac
    printf '%s W failed %s %s\n' "$T" "$1" "$e"
    if mv "$D/pending" "$D/claimed.apply" 2>/dev/null; then kill "$(cat "$D/claimed.apply")" 2>/dev/null; fi
    restore
    rm -f "$D/claimed.apply"
    printf '%s ROLLBACK\n' "$T"
    exit 6
}
rb() {
    getv "$1"
    printf '%s B %s %s\n' "$T" "$1" "$v"
}
)SH";
    for (const auto& w : writes)
        sc += "cap " + ssh::shellQuote(w.path) + "\n";
    sc += "mv \"$D/revert.new\" \"$D/revert.data\" || exit 3\n";
    if (options.armRevert) {
        const std::string secs = std::to_string(std::max(1, options.revertAfterSeconds));
        sc += armRevertJob(secs) + "printf '%s A " + secs + "\\n' \"$T\"\n";
    }
    for (const auto& w : writes)
        sc += "w " + ssh::shellQuote(w.path) + " " + ssh::shellQuote(w.value) + "\n";
    for (const auto& w : writes) {
        sc += "rb " + ssh::shellQuote(w.path) + "\n";
        if (w.kind == Write::Kind::IrqAffinity) {
            const auto dir = w.path.substr(0, w.path.rfind('/'));
            const auto eff = ssh::shellQuote(dir + "/effective_affinity");
            sc += "[ -e \"$R\"/" + eff + " ] && rb " + eff + "\n";
        }
    }
    sc += "printf '%s DONE\\n' \"$T\"\n";
    s.script = sc;
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
        if (!r.readBack.empty() && !sameValue(r.write, r.readBack, r.write.value)) {
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

std::optional<ApplyReport> runApplyScript(ssh::Session& session, const ApplyScript& s,
                                          const std::vector<Write>& writes, std::string* error) {
    const auto r = session.run("sh -s", s.script);
    if (!r) {
        if (error)
            *error = session.error().message;
        return std::nullopt;
    }
    return applyResult(r->exitStatus, r->out, r->err, s, writes, error);
}

std::optional<ApplyReport> applyRemote(ssh::Session& session, const std::string& root,
                                       const Resolution& resolution, const ApplyOptions& options,
                                       std::string* error) {
    const auto writes = changedWrites(resolution);
    return runApplyScript(session, makeApplyScript(writes, root, options), writes, error);
}

std::string makeSettleScript(const std::string& root, PendingAction action) {
    std::string sc = prelude(root);
    sc += R"SH(if ! mv "$D/pending" "$D/claimed.settle" 2>/dev/null; then
    echo "nothing is waiting for confirmation (never applied, already confirmed, or reverted by the timer)" >&2
    exit 1
fi
kill "$(cat "$D/claimed.settle")" 2>/dev/null
)SH";
    if (action == PendingAction::Revert)
        sc += "restore\n";
    sc += "rm -f \"$D/claimed.settle\"\necho settled\n";
    return sc;
}

bool settleSucceeded(int exitStatus, const std::string& out, const std::string& err,
                     std::string* error) {
    if (exitStatus == 0 && out == "settled\n")
        return true;
    if (error)
        *error = std::string(text::trim(err));
    return false;
}

bool settleRemote(ssh::Session& session, const std::string& root, PendingAction action,
                  std::string* error) {
    const auto r = session.run("sh -s", makeSettleScript(root, action));
    if (!r) {
        if (error)
            *error = session.error().message;
        return false;
    }
    return settleSucceeded(r->exitStatus, r->out, r->err, error);
}

} // namespace coresteer

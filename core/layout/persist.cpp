#include "core/layout/persist.h"

#include "core/json_text.h"
#include "core/layout/apply.h"
#include "core/layout/layout_json.h"
#include "core/router-scripts/router_scripts.h"
#include "core/ssh/session.h"
#include "core/text.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <set>

namespace coresteer {

namespace {

using ssh::shellQuote;

constexpr const char* kOverridePath = "usr/libexec/platform/packet-steering.sh";
constexpr const char* kStateDir = "etc/coresteer";
// Every file a persist may install, of either flavor (kUninstall removes the same).
constexpr const char* kOwnPaths[] = {
    "etc/hotplug.d/net/95-coresteer",
    "usr/libexec/platform/packet-steering.sh",
    "etc/coresteer/apply.sh",
    "etc/coresteer/layout.json",
    "etc/systemd/system/coresteer-apply.service",
    "etc/systemd/system/coresteer-apply@.service",
    "etc/systemd/system/multi-user.target.wants/coresteer-apply.service",
    "etc/udev/rules.d/90-coresteer.rules",
};

// Finds each wanted IRQ in /proc/interrupts by its first action name and its rank among the
// IRQs with that name in hwirq order, exactly as core/interrupts.cpp and resolve.cpp do.
// stdin: "rank<TAB>mask<TAB>action" per target. Out: "ok<TAB>irq<TAB>mask" or
// "missing<TAB>rank<TAB>action" per target.
constexpr const char* kFindIrqs = R"AWK(
FNR == NR { split($0, f, "\t"); w++; WR[w] = f[1] + 0; WM[w] = f[2]; WA[w] = f[3]; next }
FNR == 1 { ncpu = NF; next }
$1 ~ /^[0-9]+:$/ {
    irq = substr($1, 1, length($1) - 1) + 0
    i = 2; c = 0
    while (i <= NF && c < ncpu && $i ~ /^[0-9]+$/) { i++; c++ }
    n = 0
    for (j = i; j <= NF; j++) t[++n] = $j
    if (n == 0) next
    hw = 0; from = 0
    for (j = 1; j <= n && j <= 8 && !from; j++) {
        s = t[j]
        if (j > 1 && (s == "Level" || s == "Edge" || s ~ /^(Level|Edge)-/)) {
            if (j >= 3 && t[j - 1] ~ /^[0-9]+$/) hw = t[j - 1] + 0
            from = j + 1
        } else if (j > 1 && s ~ /^[0-9]+-(edge|fasteoi|level|simple|percpu|percpu_devid|bad)$/) {
            hw = substr(s, 1, index(s, "-") - 1) + 0
            from = j + 1
        } else if (j == 1 && s ~ /-(edge|fasteoi|level|simple|percpu|percpu_devid|bad)$/) {
            from = 2
        }
    }
    if (!from) {
        from = 2
        for (j = 2; j < n && j <= 6; j++) if (t[j] ~ /^[0-9]+$/) { hw = t[j] + 0; from = j + 1; break }
    }
    a = ""
    for (j = from; j <= n; j++) {
        s = t[j]
        if (s ~ /,$/) { a = a (a == "" ? "" : " ") substr(s, 1, length(s) - 1); break }
        a = a (a == "" ? "" : " ") s
    }
    if (a == "") next
    m = ++C[a]; H[a, m] = hw; I[a, m] = irq
}
END {
    for (a in C) {
        for (p = 2; p <= C[a]; p++) {
            h = H[a, p]; q = I[a, p]; j = p - 1
            while (j >= 1 && (H[a, j] > h || (H[a, j] == h && I[a, j] > q))) {
                H[a, j + 1] = H[a, j]; I[a, j + 1] = I[a, j]; j--
            }
            H[a, j + 1] = h; I[a, j + 1] = q
        }
    }
    for (x = 1; x <= w; x++) {
        a = WA[x]; r = WR[x] + 1
        if (r <= C[a]) printf "ok\t%d\t%s\n", I[a, r], WM[x]
        else printf "missing\t%d\t%s\n", WR[x], a
    }
}
)AWK";

// The body of the router apply script, after the data. $IRQS is the target list for awk.
constexpr const char* kApplyBody = R"SH(
logged=
log() {
    if [ -n "$R" ] || [ -n "${CORESTEER_KEEP:-}" ] || ! command -v logger >/dev/null 2>&1; then
        printf 'coresteer: %s\n' "$*" >&2
    else
        logger -t coresteer -- "$*"
    fi
}
# same A B: two masks (or numbers) alike, commas and leading zeros aside. No fork, no glob.
same() {
    set -f
    nm_o=$IFS
    IFS=,
    nm_a=
    for nm_p in $1; do nm_a=$nm_a$nm_p; done
    nm_b=
    for nm_p in $2; do nm_b=$nm_b$nm_p; done
    IFS=$nm_o
    set +f
    while :; do case $nm_a in 0?*) nm_a=${nm_a#0} ;; *) break ;; esac; done
    while :; do case $nm_b in 0?*) nm_b=${nm_b#0} ;; *) break ;; esac; done
    [ -n "$nm_a" ] && [ "$nm_a" = "$nm_b" ]
}
# keep KEY OLD: before a write, what a revert restores (only when CORESTEER_KEEP names a file).
# Returns 1 under CORESTEER_DRY: keep the old value, write nothing.
keep() {
    [ -z "${CORESTEER_KEEP:-}" ] || printf '%s\t%s\n' "$1" "$2" >> "$CORESTEER_KEEP"
    [ -z "${CORESTEER_DRY:-}" ]
}
put() {
    if [ ! -e "$R/$1" ]; then
        missing=$((missing + 1))
        return 0
    fi
    cur=
    IFS= read -r cur < "$R/$1" 2>/dev/null
    same "$cur" "$2" && return 0
    keep "$1" "$cur" || return 0
    # No subshell on the way that works: a fork per write is most of the cost on a router.
    # echo, not printf: BusyBox ash's printf fails a refused write without saying why.
    { echo "$2" > "$R/$1"; } 2>/dev/null && return 0
    e=$( { echo "$2" > "$R/$1"; } 2>&1 )
    once "$1" "/$1: the kernel refused $2: ${e##*: }"
}
# once KEY MESSAGE: log each problem once per run, not once per retry.
once() {
    case " $logged " in
    *" $1 "*) ;;
    *) logged="$logged $1"; log "$2" ;;
    esac
}
q() {
    case $3 in
    rps) put "sys/class/net/$1/queues/rx-$2/rps_cpus" "$4" ;;
    flows) put "sys/class/net/$1/queues/rx-$2/rps_flow_cnt" "$4" ;;
    xps) put "sys/class/net/$1/queues/tx-$2/xps_cpus" "$4" ;;
    esac
}
# NAPI threads and coalescing exist only on the live root (not under a CORESTEER_ROOT).
n() {
    [ -z "$R" ] || return 0
    found=
    for f in /proc/[0-9]*/comm; do
        c=
        IFS= read -r c < "$f" 2>/dev/null
        case $c in
        "napi/$1-"*)
            p=${f%/comm}
            # Only the kernel's own threads: any process may take such a name.
            kthread "${p##*/}" || continue
            found=1
            cur=$(sed -n 's/^Cpus_allowed:[[:space:]]*//p' "$p/status" 2>/dev/null)
            same "$cur" "$2" && continue
            keep "napi:${p##*/}" "$cur" || continue
            e=$(taskset -p "$(printf '%s' "$2" | tr -d ,)" "${p##*/}" 2>&1 >/dev/null) ||
                once "napi:$1" "$c: taskset $2 failed: $e" ;;
        esac
    done
    [ -n "$found" ] || missing=$((missing + 1))
}
c() {
    [ -z "$R" ] || return 0
    [ -e "/sys/class/net/$1" ] || { missing=$((missing + 1)); return 0; }
    cur=$(ethtool -c "$1" 2>/dev/null | sed -n 's/^rx-usecs:[[:space:]]*//p')
    [ "$cur" = "$2" ] && return 0
    if [ -n "$cur" ]; then
        keep "ethtool:$1:rx-usecs" "$cur" || return 0
    elif [ -n "${CORESTEER_DRY:-}" ]; then
        return 0
    fi
    if ! e=$(ethtool -C "$1" rx-usecs "$2" 2>&1); then
        case $e in
        *unmodified*|*"no coalesce parameters changed"*) ;;
        *) once "ethtool:$1" "$1: ethtool -C rx-usecs $2 failed: ${e%%"$NL"*}" ;;
        esac
    fi
}
apply_all() {
    missing=0
    globals
    if [ -n "$IRQS" ]; then
        found=$(printf '%s\n' "$IRQS" | awk "$FIND_IRQS" - "$R/proc/interrupts" 2>/dev/null)
        while IFS="$TAB" read -r s n v; do
            case $s in
            ok) put "proc/irq/$n/smp_affinity" "$v" ;;
            missing) missing=$((missing + 1)) ;;
            esac
        done <<EOF
$found
EOF
    fi
    queues
    ifaces
}
case ${ACTION:-add} in
add) ;;
*) exit 0 ;;
esac
if [ -n "${INTERFACE:-}" ] && ! covered "$INTERFACE"; then
    exit 0
fi
apply_all
wait_s=${CORESTEER_WAIT:-$WAIT}
if [ "$missing" -gt 0 ] && [ "$wait_s" -gt 0 ]; then
    # Drivers request their IRQs, and some create queues, only when the interface comes up,
    # after this event: look again every second for a while. One waiter at a time, its lock in
    # coresteer's own state directory (none when that is not safe to use).
    lock="$D/persist.wait"
    if state_dir 2>/dev/null && mkdir "$lock" 2>/dev/null; then
        waiter() {
            i=0
            while [ "$i" -lt "$wait_s" ]; do
                sleep 1
                i=$((i + 1))
                apply_all
                [ "$missing" -eq 0 ] && break
            done
            [ "$missing" -eq 0 ] || log "$missing IRQs or queues of the layout did not appear within $wait_s s"
            rmdir "$lock" 2>/dev/null
        }
        if [ "${CORESTEER_FOREGROUND:-0}" = 1 ]; then
            waiter
        else
            ( trap '' HUP; waiter ) </dev/null >/dev/null 2>&1 &
        fi
    fi
fi
)SH";

std::string header(const std::string& boardName, const char* what) {
    const std::string board = boardName.empty() ? "this router" : boardName;
    std::string h = "# " + std::string(kPersistMarker) + " " CORESTEER_VERSION " for " +
                    text::printable(board, 80) + ". Do not edit: coresteer-cli unpersist\n" +
                    "# removes it, coresteer-cli persist replaces it. " + what + "\n";
    for (auto& c : h)
        if (c == '\r')
            c = ' ';
    return h;
}

} // namespace

bool matchableIrqAction(const std::string& a) {
    return !a.empty() && a.size() <= 256 &&
           std::none_of(a.begin(), a.end(), [](unsigned char c) { return c < ' ' || c == 0x7f; }) &&
           a.front() != ' ' && a.back() != ' ' && a.back() != ',' &&
           a.find("  ") == std::string::npos && a.find(", ") == std::string::npos;
}

namespace {

// A name udev's KERNEL== and systemd's unit instances take as it is.
bool plainName(const std::string& n) {
    return std::all_of(n.begin(), n.end(), [](unsigned char c) {
        return std::isalnum(c) || c == '_' || c == '.' || c == '-';
    });
}

std::vector<std::string> coveredInterfaces(const Layout& l, const Snapshot& snap) {
    std::set<std::string> s;
    const IrqNames names(snap);
    for (const auto& t : l.irqs)
        if (const auto irq = names.find(t.irq))
            if (const auto* info = snap.irq(*irq))
                for (const auto& n : info->interfaces)
                    if (validInterfaceName(n))
                        s.insert(n);
    for (const auto& n : queueInterfaces(l))
        s.insert(n);
    return {s.begin(), s.end()};
}

std::string systemdUnit(const std::string& board, bool perInterface) {
    std::string u = header(board, "Applies the layout of /etc/coresteer/layout.json.") + "[Unit]\n";
    if (perInterface) {
        u += "Description=coresteer: IRQ and queue layout for %I\n"
             "After=sys-subsystem-net-devices-%i.device\n\n"
             "[Service]\nType=oneshot\n"
             // Quoted: systemd splits Environment= at blanks after it expands %I.
             "Environment=\"ACTION=add\" \"INTERFACE=%I\" \"CORESTEER_FOREGROUND=1\"\n"
             "ExecStart=/bin/sh /etc/coresteer/apply.sh\n";
    } else {
        u += "Description=coresteer: IRQ and queue layout\n"
             "After=network.target\n\n"
             "[Service]\nType=oneshot\nRemainAfterExit=yes\n"
             "Environment=\"CORESTEER_FOREGROUND=1\"\n"
             "ExecStart=/bin/sh /etc/coresteer/apply.sh\n\n"
             "[Install]\nWantedBy=multi-user.target\n";
    }
    return u;
}

} // namespace

const char* toString(PersistPlan::Flavor f) {
    return f == PersistPlan::Flavor::OpenWrt ? "openwrt" : "systemd";
}

std::string persistedLayoutJson(const Layout& layout, bool compact) {
    if (!compact)
        return jsonText(toJson(layout)) + "\n";
    Layout l = layout;
    for (auto& t : l.irqs)
        t.why.clear();
    for (auto& t : l.rx)
        t.why.clear();
    for (auto& t : l.tx)
        t.why.clear();
    for (auto& t : l.interfaces)
        t.why.clear();
    return jsonText(toJson(l), -1) + "\n";
}

std::vector<std::string> queueInterfaces(const Layout& l) {
    std::set<std::string> s;
    for (const auto& t : l.rx)
        s.insert(t.interface);
    for (const auto& t : l.tx)
        s.insert(t.interface);
    for (const auto& t : l.interfaces)
        s.insert(t.interface);
    return {s.begin(), s.end()};
}

RouterScriptContext routerScriptContext(const Layout& applicable, const Snapshot& snap) {
    return {std::max(snap.topology.maskWidth, 1), snap.system.boardName,
            coveredInterfaces(applicable, snap)};
}

std::string makeRouterApplyScript(const Layout& l, const Snapshot& snap,
                                  const PersistOptions& options) {
    return makeRouterApplyScript(l, routerScriptContext(l, snap), options);
}

std::string makeRouterApplyScript(const Layout& l, const RouterScriptContext& context,
                                  const PersistOptions& options) {
    const int width = std::max(context.maskWidth, 1);
    std::string s = "#!/bin/sh\n" + header(context.board,
                                           "Re-applies the IRQ and queue layout\n# when a network "
                                           "interface appears (ACTION=add INTERFACE=...).");
    s += "R=${CORESTEER_ROOT:-}\nWAIT=" + std::to_string(std::max(0, options.waitSeconds)) + "\n";
    s += "covered() {\n";
    if (!context.covered) {
        s += "    return 0\n}\n";
    } else {
        s += "    case $1 in\n";
        const auto& covered = *context.covered;
        if (!covered.empty()) {
            s += "    ";
            for (std::size_t i = 0; i < covered.size(); ++i)
                s += (i ? "|" : "") + shellQuote(covered[i]);
            s += ") return 0 ;;\n";
        }
        s += "    esac\n    return 1\n}\n";
    }
    s += "globals() {\n    :\n";
    if (l.rpsSockFlowEntries)
        s += "    put proc/sys/net/core/rps_sock_flow_entries " +
             std::to_string(*l.rpsSockFlowEntries) + "\n";
    s += "}\nqueues() {\n    :\n";
    for (const auto& t : l.rx) {
        const auto head = "    q " + shellQuote(t.interface) + " " + std::to_string(t.queue);
        if (t.rpsCpus)
            s += head + " rps " + t.rpsCpus->toHex(width) + "\n";
        if (t.rpsFlowCnt)
            s += head + " flows " + std::to_string(*t.rpsFlowCnt) + "\n";
    }
    for (const auto& t : l.tx)
        s += "    q " + shellQuote(t.interface) + " " + std::to_string(t.queue) + " xps " +
             t.xpsCpus.toHex(width) + "\n";
    s += "}\nifaces() {\n    :\n";
    for (const auto& t : l.interfaces) {
        if (t.napiCpus)
            s += "    n " + shellQuote(t.interface) + " " + t.napiCpus->toHex(width) + "\n";
        if (t.rxUsecs)
            s += "    c " + shellQuote(t.interface) + " " + std::to_string(*t.rxUsecs) + "\n";
    }
    s += "}\n";
    std::string irqs;
    for (const auto& t : l.irqs)
        irqs +=
            std::to_string(t.irq.index) + "\t" + t.cpus.toHex(width) + "\t" + t.irq.action + "\n";
    if (!irqs.empty())
        irqs.pop_back();
    s += "IRQS=" + shellQuote(irqs) + "\n";
    s += "FIND_IRQS=" + shellQuote(kFindIrqs) + "\n";
    s += router_scripts::kCommonSh;
    s += router_scripts::kStateDirSh;
    s += kApplyBody;
    return s;
}

void addPersistFiles(PersistPlan& p, const RouterScriptContext& context,
                     const PersistOptions& options, bool packetSteeringOverride) {
    const auto script = makeRouterApplyScript(p.layout, context, options);
    p.files.push_back({std::string(kStateDir) + "/layout.json",
                       persistedLayoutJson(p.layout, context.compactLayout), 0644});
    if (p.flavor == PersistPlan::Flavor::OpenWrt) {
        const std::string hotplug = "etc/hotplug.d/net/" + std::string(kHotplugName);
        p.files.push_back({hotplug, script, 0755});
        p.sysupgradeLines = {"/" + hotplug, "/" + std::string(kStateDir) + "/"};
        if (packetSteeringOverride) {
            p.files.push_back(
                {kOverridePath,
                 "#!/bin/sh\n" +
                     header(context.board,
                            "Replaces OpenWrt's packet steering\n# "
                            "(/etc/init.d/packet_steering runs it instead of "
                            "packet-steering.uc on every network reload), so\n# that "
                            "reloads keep the coresteer layout instead of rewriting it.") +
                     "ACTION=add INTERFACE= exec /bin/sh \"${CORESTEER_ROOT:-}/etc/hotplug.d/"
                     "net/" +
                     kHotplugName + "\"\n",
                 0755});
            p.sysupgradeLines.push_back("/" + std::string(kOverridePath));
            p.actions.push_back("Installs /" + std::string(kOverridePath) +
                                ": OpenWrt's packet steering service then re-applies this "
                                "layout instead of its own.");
        }
        return;
    }
    p.files.push_back({std::string(kStateDir) + "/apply.sh", script, 0755});
    p.files.push_back(
        {"etc/systemd/system/coresteer-apply.service", systemdUnit(context.board, false), 0644});
    p.files.push_back(
        {"etc/systemd/system/coresteer-apply@.service", systemdUnit(context.board, true), 0644});
    p.files.push_back({"etc/systemd/system/multi-user.target.wants/coresteer-apply.service",
                       "/etc/systemd/system/coresteer-apply.service", 0777, true});
    std::string kernel;
    if (context.covered) {
        for (const auto& n : *context.covered)
            if (plainName(n))
                kernel += (kernel.empty() ? "" : "|") + n;
    } else {
        kernel = "*";
    }
    if (!kernel.empty())
        p.files.push_back(
            {"etc/udev/rules.d/90-coresteer.rules",
             header(context.board, "Starts coresteer-apply@<interface> when one appears.") +
                 "ACTION==\"add\", SUBSYSTEM==\"net\", KERNEL==\"" + kernel +
                 "\", TAG+=\"systemd\", ENV{SYSTEMD_WANTS}+=\"coresteer-apply@%k.service\"\n",
             0644});
}

std::optional<PersistPlan> planPersist(const Layout& layout, const Snapshot& snap,
                                       const PersistOptions& options, std::string* error) {
    PersistPlan p;
    const auto& v = snap.system.services;
    if (snap.system.isOpenWrt()) {
        p.flavor = PersistPlan::Flavor::OpenWrt;
    } else if (v.systemd) {
        p.flavor = PersistPlan::Flavor::Systemd;
    } else {
        if (error)
            *error = "this router is neither OpenWrt (no /etc/openwrt_release) nor run by systemd "
                     "(no /run/systemd/system): coresteer does not know how it runs scripts at "
                     "boot";
        return std::nullopt;
    }
    // Keep the targets that resolve on this router now, each with its own check.
    const IrqNames names(snap);
    auto keep = [&](Layout one, auto push) {
        const auto r = resolve(one, snap, names);
        if (!r.skipped.empty()) {
            p.skipped.insert(p.skipped.end(), r.skipped.begin(), r.skipped.end());
            return;
        }
        push();
    };
    for (const auto& t : layout.irqs) {
        if (!matchableIrqAction(t.irq.action)) {
            p.skipped.push_back({"IRQ " + text::printable(t.irq.display(), 80),
                                 "this action name cannot be matched in /proc/interrupts"});
            continue;
        }
        Layout one;
        one.irqs.push_back(t);
        keep(one, [&] { p.layout.irqs.push_back(t); });
    }
    for (const auto& t : layout.rx) {
        Layout one;
        one.rx.push_back(t);
        keep(one, [&] { p.layout.rx.push_back(t); });
    }
    for (const auto& t : layout.tx) {
        Layout one;
        one.tx.push_back(t);
        keep(one, [&] { p.layout.tx.push_back(t); });
    }
    for (const auto& t : layout.interfaces) {
        Layout one;
        one.interfaces.push_back(t);
        keep(one, [&] { p.layout.interfaces.push_back(t); });
    }
    p.layout.rpsSockFlowEntries = layout.rpsSockFlowEntries;
    p.layout.notes = layout.notes;
    if (p.layout.empty()) {
        if (error)
            *error = "nothing of this layout applies on this router";
        return std::nullopt;
    }

    p.conflicts = detectConflicts(snap);
    const bool service = v.packetSteeringService;
    const bool foreign = v.platformOverride && !v.platformOverrideOurs;
    addPersistFiles(p, routerScriptContext(p.layout, snap), options,
                    p.flavor == PersistPlan::Flavor::OpenWrt && service &&
                        options.packetSteeringOverride && !foreign);
    if (p.flavor == PersistPlan::Flavor::OpenWrt && service && !options.packetSteeringOverride)
        p.actions.push_back("Leaves OpenWrt's packet steering as it is: it rewrites RPS and "
                            "XPS on the next network reload.");
    if (options.disableIrqbalance &&
        (snap.system.irqbalanceRunning.value_or(false) || v.irqbalanceEnabled.value_or(false))) {
        p.disableIrqbalance = true;
        p.actions.push_back("Stops and disables irqbalance; unpersist enables it again.");
    }
    return p;
}

namespace {

// Shared by persist and unpersist: remove what an earlier persist installed. Each file outside
// /etc/coresteer goes only when it carries the marker; /etc/sysupgrade.conf gets back its bytes
// from before.
constexpr const char* kUninstall = R"SH(
ours() { [ -f "$1" ] && grep -q "$M" "$1" 2>/dev/null; }
gone() { printf '%s R /%s\n' "$T" "${1#"$R"/}"; }
uninstall() {
    for f in "$R/etc/hotplug.d/net/95-coresteer" "$R/usr/libexec/platform/packet-steering.sh" \
        "$R/etc/systemd/system/coresteer-apply.service" "$R/etc/systemd/system/coresteer-apply@.service" \
        "$R/etc/udev/rules.d/90-coresteer.rules"; do
        if ours "$f"; then rm -f "$f" && gone "$f"; fi
    done
    for f in "$R/etc/coresteer/apply.sh" "$R/etc/coresteer/layout.json"; do
        if [ -f "$f" ]; then rm -f "$f" && gone "$f"; fi
    done
    f="$R/etc/systemd/system/multi-user.target.wants/coresteer-apply.service"
    if [ -L "$f" ]; then rm -f "$f" && gone "$f"; fi
    S="$R/etc/sysupgrade.conf"
    if [ -f "$R/etc/coresteer/sysupgrade.added" ]; then
        A="$R/etc/coresteer/sysupgrade.added"
        O="$R/etc/coresteer/sysupgrade.orig"
        if [ -f "$O" ] && cat "$O" "$A" 2>/dev/null | cmp -s - "$S"; then
            cat "$O" > "$S.coresteer-new" && mv -f "$S.coresteer-new" "$S" && printf '%s U restored\n' "$T"
        elif [ -f "$S" ]; then
            # Edited since: drop only the lines persist added.
            awk 'FNR == NR { a[$0] = 1; next } !($0 in a)' "$A" "$S" > "$S.coresteer-new" &&
                mv -f "$S.coresteer-new" "$S" && printf '%s U filtered\n' "$T"
        fi
        [ -f "$O.absent" ] && [ ! -s "$S" ] && rm -f "$S"
    fi
    if [ -f "$R/etc/coresteer/irqbalance.disabled" ] && [ -z "$R" ]; then
        if [ -x /etc/init.d/irqbalance ]; then
            /etc/init.d/irqbalance enable 2>&1; /etc/init.d/irqbalance start 2>&1
        elif command -v systemctl >/dev/null 2>&1; then
            systemctl enable --now irqbalance 2>&1
        fi | while IFS= read -r l; do printf '%s I %s\n' "$T" "$l"; done
        printf '%s I irqbalance enabled again\n' "$T"
    fi
    rm -f "$R/etc/coresteer/sysupgrade.added" "$R/etc/coresteer/sysupgrade.orig" \
        "$R/etc/coresteer/sysupgrade.orig.absent" "$R/etc/coresteer/irqbalance.disabled"
    rmdir "$R/etc/coresteer" 2>/dev/null
    :
}
)SH";

std::string prelude(const std::string& root, const std::string& token) {
    return rootAssignment(root) + "T='" + token + "'\nM=" + shellQuote(kPersistMarker) + "\n" +
           kUninstall;
}

// Ends the script with "SAME" when everything staged is already installed as it is: the same
// files, modes and links, every sysupgrade.conf line, and nothing else of an earlier persist.
std::string sameCheck(const PersistPlan& plan) {
    std::string s = "same=1\n";
    std::set<std::string> planned;
    for (const auto& f : plan.files) {
        planned.insert(f.path);
        const auto at = "\"$R\"/" + shellQuote(f.path);
        if (f.symlink) {
            s += "{ [ -L " + at + " ] && [ \"$(readlink " + at + ")\" = " + shellQuote(f.content) +
                 " ]; } || same=\n";
            continue;
        }
        s += "cmp -s " + at + ".coresteer-new " + at + " 2>/dev/null || same=\n";
        if (f.mode & 0111)
            s += "[ -x " + at + " ] || same=\n";
    }
    for (const auto& l : plan.sysupgradeLines)
        s += "grep -qxF " + shellQuote(l) + " \"$R/etc/sysupgrade.conf\" 2>/dev/null || same=\n";
    // What kUninstall would remove of an earlier persist.
    for (const std::string p : kOwnPaths) {
        if (planned.count(p))
            continue;
        const auto at = "\"$R\"/" + p;
        if (text::startsWith(p, kStateDir))
            s += "[ -f " + at + " ] && same=\n";
        else if (p.find(".wants/") != std::string::npos)
            s += "[ -L " + at + " ] && same=\n";
        else
            s += "ours " + at + " && same=\n";
    }
    if (plan.disableIrqbalance)
        s += "[ -n \"$R\" ] || [ -f /etc/coresteer/irqbalance.disabled ] || same=\n";
    s += R"SH(if [ -n "$same" ]; then
    for f in $NEW; do rm -f "$R/$f.coresteer-new"; done
    printf '%s SAME\n%s DONE\n' "$T" "$T"
    exit 0
fi
)SH";
    return s;
}

} // namespace

PersistScript makePersistScript(const PersistPlan& plan, const std::string& root,
                                bool onlyIfChanged) {
    PersistScript ps;
    ps.token = ssh::randomToken("@@ps");
    std::string s = prelude(root, ps.token);
    s += R"SH(umask 022
NEW=
fail() {
    for f in $NEW; do rm -f "$R/$f.coresteer-new"; done
    rmdir "$R/etc/coresteer" 2>/dev/null
    echo "$1" >&2
    exit 3
}
stage() {
    mkdir -p "$R/$(dirname "$1")" || fail "cannot create the directory of /$1"
    printf '%s' "$2" > "$R/$1.coresteer-new" || fail "cannot write /$1"
    chmod "$3" "$R/$1.coresteer-new" || fail "cannot chmod /$1"
    NEW="$NEW $1"
}
link() {
    mkdir -p "$R/$(dirname "$1")" || fail "cannot create the directory of /$1"
    rm -f "$R/$1.coresteer-new"
    ln -s "$2" "$R/$1.coresteer-new" || fail "cannot link /$1"
    NEW="$NEW $1"
}
)SH";
    // 1. Every new file under a temporary name; nothing of the old state is touched yet.
    for (const auto& f : plan.files) {
        if (f.symlink) {
            s += "link " + shellQuote(f.path) + " " + shellQuote(f.content) + "\n";
        } else {
            char mode[8];
            std::snprintf(mode, sizeof mode, "%o", f.mode);
            s += "stage " + shellQuote(f.path) + " " + shellQuote(f.content) + " " + mode + "\n";
        }
    }
    const bool sysupgrade = !plan.sysupgradeLines.empty();
    if (sysupgrade) {
        std::string lines;
        for (const auto& l : plan.sysupgradeLines)
            lines += l + "\n";
        s += "WANT=" + shellQuote(lines) + "\n";
    }
    if (onlyIfChanged)
        s += sameCheck(plan);
    // 2. The old persist goes (its sysupgrade.conf lines too), then the new files move in.
    s += "uninstall\nmkdir -p \"$R/etc/coresteer\" || fail 'cannot create /etc/coresteer'\n";
    if (sysupgrade) {
        s += R"SH(S="$R/etc/sysupgrade.conf"
[ -f "$S" ] || { : > "$R/etc/coresteer/sysupgrade.orig.absent"; : > "$S"; }
cp "$S" "$R/etc/coresteer/sysupgrade.orig" || fail "cannot copy /etc/sysupgrade.conf"
: > "$R/etc/coresteer/sysupgrade.added"
{
    cat "$S"
    if [ -s "$S" ] && [ -n "$(tail -c 1 "$S")" ]; then
        echo
        echo >> "$R/etc/coresteer/sysupgrade.added"
    fi
    printf '%s' "$WANT" | while IFS= read -r l; do
        if ! grep -qxF "$l" "$S"; then
            printf '%s\n' "$l"
            printf '%s\n' "$l" >> "$R/etc/coresteer/sysupgrade.added"
        fi
    done
} > "$S.coresteer-new" || fail "cannot write /etc/sysupgrade.conf"
mv -f "$S.coresteer-new" "$S" || fail "cannot replace /etc/sysupgrade.conf"
while IFS= read -r l; do [ -n "$l" ] && printf '%s S %s\n' "$T" "$l"; done < "$R/etc/coresteer/sysupgrade.added"
)SH";
    }
    s += R"SH(for f in $NEW; do
    mv -f "$R/$f.coresteer-new" "$R/$f" || fail "cannot move /$f into place"
    printf '%s W /%s\n' "$T" "$f"
done
)SH";
    if (plan.disableIrqbalance) {
        s += R"SH(if [ -z "$R" ]; then
    if [ -x /etc/init.d/irqbalance ]; then
        /etc/init.d/irqbalance stop 2>&1; /etc/init.d/irqbalance disable 2>&1
    elif command -v systemctl >/dev/null 2>&1; then
        systemctl disable --now irqbalance 2>&1
    fi | while IFS= read -r l; do printf '%s I %s\n' "$T" "$l"; done
    : > /etc/coresteer/irqbalance.disabled
    printf '%s I irqbalance stopped and disabled\n' "$T"
else
    printf '%s I irqbalance left alone: %s is not the live root\n' "$T" "$R"
fi
)SH";
    }
    if (plan.flavor == PersistPlan::Flavor::Systemd)
        s += R"SH(if [ -z "$R" ]; then
    { systemctl daemon-reload; udevadm control --reload; } 2>&1 |
        while IFS= read -r l; do printf '%s I %s\n' "$T" "$l"; done
fi
)SH";
    s += "printf '%s DONE\\n' \"$T\"\n";
    ps.script = s;
    return ps;
}

PersistScript makeUnpersistScript(const std::string& root) {
    PersistScript ps;
    ps.token = ssh::randomToken("@@ps");
    ps.script = prelude(root, ps.token) + R"SH(uninstall
if [ -z "$R" ] && command -v systemctl >/dev/null 2>&1 && [ -d /run/systemd/system ]; then
    systemctl daemon-reload 2>&1 | while IFS= read -r l; do printf '%s I %s\n' "$T" "$l"; done
fi
printf '%s DONE\n' "$T"
)SH";
    return ps;
}

std::optional<PersistReport> parsePersistOutput(const std::string& out, const std::string& token,
                                                std::string* error) {
    PersistReport rep;
    bool done = false;
    text::LineReader lines(out);
    std::string_view line;
    while (lines.next(line)) {
        if (!text::startsWith(line, token + " "))
            continue;
        const auto rest = line.substr(token.size() + 1);
        const auto kind = rest.substr(0, rest.find(' '));
        const auto arg =
            rest.size() > kind.size() ? std::string(rest.substr(kind.size() + 1)) : std::string();
        if (kind == "DONE")
            done = true;
        else if (kind == "SAME")
            rep.unchanged = true;
        else if (kind == "W")
            rep.written.push_back(arg);
        else if (kind == "R")
            rep.removed.push_back(arg);
        else if (kind == "S")
            rep.sysupgradeAdded.push_back(arg);
        else if (kind == "U")
            rep.sysupgradeRestored = true;
        else if (kind == "I")
            rep.messages.push_back(text::printable(arg, 300));
    }
    if (!done) {
        if (error)
            *error = "the router's answer is cut short";
        return std::nullopt;
    }
    return rep;
}

std::optional<PersistReport> persistResult(int exitStatus, const std::string& out,
                                           const std::string& err, const std::string& token,
                                           std::string* error) {
    if (exitStatus != 0) {
        if (error)
            *error = "the router script stopped (exit status " + std::to_string(exitStatus) +
                     "): " + text::printable(text::trim(err), 300);
        return std::nullopt;
    }
    return parsePersistOutput(out, token, error);
}

std::optional<PersistReport> runPersistScript(ssh::Session& session, const PersistScript& s,
                                              std::string* error) {
    const auto r = session.run("sh -s", s.script);
    if (!r) {
        if (error)
            *error = session.error().message;
        return std::nullopt;
    }
    return persistResult(r->exitStatus, r->out, r->err, s.token, error);
}

} // namespace coresteer

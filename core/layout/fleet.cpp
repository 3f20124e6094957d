#include "core/layout/fleet.h"

#include "core/layout/apply.h"
#include "core/layout/resolve.h"
#include "core/ssh/session.h"
#include "core/text.h"

#include <algorithm>
#include <cctype>

namespace coresteer {

namespace {

using ssh::shellQuote;

// Bytes of script in one raw command: dropbear (OpenWrt's SSH server) takes commands of at most
// 9000 bytes, and the command has a few words around the script.
constexpr std::size_t kChunkBytes = 7000;

// The board check both the apply and the persist script start with. $BOARD is the preset's.
constexpr const char* kBoardCheck =
    R"SH(# The board's name as coresteer's snapshot reads it: OpenWrt's board_name, the device tree's
# first compatible, or on x86 DMI's vendor and product ("supermicro-sys-620p-trt").
dmi() {
    for f in "$@"; do
        v=
        IFS= read -r v 2>/dev/null < "$R/sys/class/dmi/id/$f"
        case $v in
        ''|empty|'System manufacturer'|'To be filled by O.E.M.'|'System Product Name'|'Default string') ;;
        *) printf '%s' "$v"; return ;;
        esac
    done
}
if [ -n "$BOARD" ] && [ "${CORESTEER_ANY_BOARD:-0}" != 1 ]; then
    b=
    IFS= read -r b 2>/dev/null < "$R/tmp/sysinfo/board_name"
    [ -n "$b" ] || b=$(tr '\0' '\n' 2>/dev/null < "$R/proc/device-tree/compatible" | head -n 1)
    if [ -z "$b" ]; then
        b=$(printf '%s %s' "$(dmi sys_vendor board_vendor)" "$(dmi product_name board_name)" |
            tr -cs 'A-Za-z0-9' '-' | tr 'A-Z' 'a-z')
        while :; do case $b in -*) b=${b#-} ;; *-) b=${b%-} ;; *) break ;; esac; done
    fi
    # The vendor part differs between firmwares: friendlyarm,nanopi-r6s and friendlyelec,nanopi-r6s.
    if [ "$b" != "$BOARD" ] && [ "${b#*,}" != "${BOARD#*,}" ]; then
        echo "coresteer: this router's board is ${b:-unknown}, the preset's is $BOARD (set coresteer_any_board to apply it anyway)" >&2
        exit 5
    fi
fi
)SH";

std::string boardPrelude(const Preset& preset) {
    return rootAssignment(kRootFromEnvironment) +
           "BOARD=" + shellQuote(text::printable(preset.board, 128)) + "\n" + kBoardCheck;
}

// The interfaces whose events apply the layout: unknown (every one) as soon as the layout has
// IRQs, because without a snapshot nothing tells which interface an IRQ's action belongs to.
RouterScriptContext fleetContext(const Layout& l, const Preset& preset) {
    RouterScriptContext c;
    c.board = text::printable(preset.board, 128);
    c.compactLayout = true;
    c.maskWidth = 1; // each mask as wide as its highest CPU: the kernel takes short masks
    if (l.irqs.empty())
        c.covered = queueInterfaces(l);
    return c;
}

// The targets the scripts can carry: IRQ names awk can match, interface names a path can hold.
Layout carried(const Layout& in, std::vector<NotApplicable>& skipped) {
    Layout l;
    l.rpsSockFlowEntries = in.rpsSockFlowEntries;
    l.notes = in.notes;
    for (const auto& t : in.irqs) {
        if (matchableIrqAction(t.irq.action))
            l.irqs.push_back(t);
        else
            skipped.push_back({"IRQ " + text::printable(t.irq.display(), 80),
                               "this action name cannot be matched in /proc/interrupts"});
    }
    auto ok = [&](const std::string& name) {
        if (validInterfaceName(name))
            return true;
        skipped.push_back({"interface " + text::printable(name, 80), "not a valid interface name"});
        return false;
    };
    for (const auto& t : in.rx)
        if (ok(t.interface))
            l.rx.push_back(t);
    for (const auto& t : in.tx)
        if (ok(t.interface))
            l.tx.push_back(t);
    for (const auto& t : in.interfaces)
        if (ok(t.interface))
            l.interfaces.push_back(t);
    return l;
}

// One persist.h install script, its big contents (the router apply script, the layout) taken
// from $ROUTER and $LAYOUT, which every flavor shares.
std::string persistVariant(const PersistPlan& plan, const std::string& router,
                           const std::string& layoutJson) {
    auto script = makePersistScript(plan, kRootFromEnvironment, true);
    auto replace = [&](const std::string& content, const char* var) {
        const auto quoted = shellQuote(content);
        for (auto at = script.script.find(quoted); at != std::string::npos;
             at = script.script.find(quoted, at))
            script.script.replace(at, quoted.size(), var);
    };
    replace(router, "\"$ROUTER\"");
    replace(layoutJson, "\"$LAYOUT\"");
    return "    T='" + script.token + "'\n    S=" + shellQuote(script.script) + "\n";
}

// Pieces of `text` at line ends, each small enough, quoted, for one command of dropbear's
// (at most 9000 bytes: OpenWrt's SSH server refuses longer ones).
std::vector<std::string> chunks(const std::string& text) {
    std::vector<std::string> out;
    std::string cur;
    std::size_t quoted = 0; // shellQuote(cur).size(), roughly: a quote becomes 4 more bytes
    std::size_t at = 0;
    while (at < text.size()) {
        auto end = text.find('\n', at);
        end = end == std::string::npos ? text.size() : end + 1;
        std::string line = text.substr(at, end - at);
        at = end;
        // A line longer than a piece (a long IRQS list is not) goes in slices.
        while (!line.empty()) {
            const auto take = std::min<std::size_t>(line.size(), kChunkBytes / 5);
            const auto part = line.substr(0, take);
            const auto cost = part.size() + 4 * std::count(part.begin(), part.end(), '\'');
            if (quoted + cost > kChunkBytes && !cur.empty()) {
                out.push_back(cur);
                cur.clear();
                quoted = 0;
            }
            cur += part;
            quoted += cost;
            line.erase(0, take);
        }
    }
    if (!cur.empty())
        out.push_back(cur);
    return out;
}

// One chunk as a YAML block scalar at `indent`, kept byte for byte (|+ keeps the final newlines,
// the indentation indicator allows a first line that starts with spaces, !unsafe keeps Ansible's
// templating away from the shell's braces).
std::string chunkScalar(const std::string& text, int indent) {
    const std::string pad(static_cast<std::size_t>(indent + 2), ' ');
    std::string out = "!unsafe |2+\n";
    std::size_t at = 0;
    while (at < text.size()) {
        auto end = text.find('\n', at);
        const bool last = end == std::string::npos;
        if (last)
            end = text.size();
        const auto line = text.substr(at, end - at);
        out += (line.empty() ? "" : pad + line) + "\n";
        at = end + 1;
    }
    return out;
}

// A YAML double-quoted scalar of printable text.
std::string yamlQuoted(const std::string& s) {
    std::string out = "\"";
    for (const char c : text::printable(s, 200)) {
        if (c == '"' || c == '\\')
            out += '\\';
        out += c;
    }
    return out + "\"";
}

} // namespace

bool validInventoryGroup(const std::string& g) {
    return !g.empty() && g.size() <= 64 && !std::isdigit(static_cast<unsigned char>(g[0])) &&
           std::all_of(g.begin(), g.end(),
                       [](unsigned char c) { return std::isalnum(c) || c == '_'; });
}

std::optional<FleetScripts> makeFleetScripts(const Preset& preset, const FleetOptions& options,
                                             std::string* error) {
    FleetScripts f;
    f.layout = carried(preset.layout, f.skipped);
    if (f.layout.empty()) {
        if (error)
            *error = "nothing of this preset can be applied by a script";
        return std::nullopt;
    }
    const auto context = fleetContext(f.layout, preset);
    PersistOptions runtime = options.persist;
    runtime.waitSeconds = 0;

    // apply: arm the revert, run the router apply script with a revert file, disarm when
    // nothing was written.
    std::string a = boardPrelude(preset) + "D=\"$R/tmp/coresteer\"\n";
    a += R"SH(umask 077
mkdir -p "$D" || { echo "coresteer: cannot create $D" >&2; exit 3; }
if [ -f "$D/pending" ]; then
    echo "coresteer: an earlier apply is still waiting for confirm or revert" >&2
    exit 4
fi
secs=${CORESTEER_REVERT_AFTER:-60}
case $secs in
''|*[!0-9]*) echo "coresteer: CORESTEER_REVERT_AFTER takes whole seconds" >&2; exit 2 ;;
esac
# The revert file of an earlier apply comes back when this one writes nothing.
rm -f "$D/revert.prev"
[ ! -f "$D/revert.data" ] || cp "$D/revert.data" "$D/revert.prev" || exit 3
: > "$D/revert.data" || exit 3
)SH";
    a += revertFunctions();
    a += armRevertJob("\"$secs\"");
    a += "ROUTER=" + shellQuote(makeRouterApplyScript(f.layout, context, runtime)) + "\n";
    a += R"SH(printf '%s\n' "$ROUTER" |
    CORESTEER_ROOT="$R" CORESTEER_KEEP="$D/revert.data" CORESTEER_WAIT=0 ACTION=add INTERFACE= \
    /bin/sh -s
n=0
while IFS= read -r l; do n=$((n + 1)); done < "$D/revert.data"
if [ "$n" -eq 0 ]; then
    if mv "$D/pending" "$D/claimed.apply" 2>/dev/null; then
        kill "$(cat "$D/claimed.apply")" 2>/dev/null
        rm -f "$D/claimed.apply"
    fi
    if [ -f "$D/revert.prev" ]; then mv -f "$D/revert.prev" "$D/revert.data"; else rm -f "$D/revert.data"; fi
    echo "coresteer: unchanged"
else
    rm -f "$D/revert.prev"
    echo "coresteer: changed $n (the router restores them in $secs s unless confirmed)"
fi
)SH";
    f.apply = a;

    f.confirm = makeSettleScript(kRootFromEnvironment, PendingAction::Confirm);

    // persist: one install script per flavor, chosen on the router.
    PersistPlan base;
    base.layout = f.layout;
    base.disableIrqbalance = options.persist.disableIrqbalance;
    const auto router = makeRouterApplyScript(f.layout, context, options.persist);
    const auto layoutJson = persistedLayoutJson(f.layout, context.compactLayout);
    auto variant = [&](PersistPlan::Flavor flavor, bool override) {
        PersistPlan p = base;
        p.flavor = flavor;
        addPersistFiles(p, context, options.persist, override);
        return persistVariant(p, router, layoutJson);
    };
    std::string p = boardPrelude(preset) + "M=" + shellQuote(kPersistMarker) + "\n";
    p += "ROUTER=" + shellQuote(router) + "\nLAYOUT=" + shellQuote(layoutJson) + "\n";
    p += "if [ -f \"$R/etc/openwrt_release\" ]; then\n";
    if (options.persist.packetSteeringOverride) {
        p += R"SH(    o="$R/usr/libexec/platform/packet-steering.sh"
    if [ -e "$R/etc/init.d/packet_steering" ] && { [ ! -e "$o" ] || grep -q "$M" "$o"; }; then
)SH";
        p += variant(PersistPlan::Flavor::OpenWrt, true);
        p += "    else\n" + variant(PersistPlan::Flavor::OpenWrt, false) + "    fi\n";
    } else {
        p += variant(PersistPlan::Flavor::OpenWrt, false);
    }
    p += "elif [ -d \"$R/run/systemd/system\" ]; then\n";
    p += variant(PersistPlan::Flavor::Systemd, false);
    p += R"SH(else
    echo "coresteer: this router is neither OpenWrt (no /etc/openwrt_release) nor run by systemd (no /run/systemd/system)" >&2
    exit 6
fi
# In a subshell of this shell, which has $ROUTER and $LAYOUT (an argument or a variable in the
# environment of a new process is limited to 128 KiB; these are not).
out=$(CORESTEER_ROOT=$R; eval "$S") || exit 3
changed=
done=
while IFS= read -r l; do
    case $l in
    "$T W "*) changed=1; echo "coresteer: wrote ${l#"$T W "}" ;;
    "$T R "*) echo "coresteer: removed ${l#"$T R "}" ;;
    "$T S "*) changed=1; echo "coresteer: /etc/sysupgrade.conf keeps ${l#"$T S "}" ;;
    "$T I "*) echo "coresteer: ${l#"$T I "}" ;;
    "$T SAME") ;;
    "$T DONE") done=1 ;;
    esac
done <<EOF
$out
EOF
[ -n "$done" ] || { echo "coresteer: the persist script stopped before its end" >&2; exit 3; }
if [ -n "$changed" ]; then echo "coresteer: changed"; else echo "coresteer: unchanged"; fi
)SH";
    f.persist = p;
    return f;
}

std::optional<std::string> makeAnsiblePlaybook(const Preset& preset, const FleetOptions& options,
                                               std::string* error) {
    if (!validInventoryGroup(options.group)) {
        if (error)
            *error = "'" + text::printable(options.group, 80) +
                     "' is not an inventory group name (letters, digits and _)";
        return std::nullopt;
    }
    const auto f = makeFleetScripts(preset, options, error);
    if (!f)
        return std::nullopt;
    const auto name = text::printable(preset.name.empty() ? "layout" : preset.name, 120);
    std::string y = "---\n# " + std::string(kPersistMarker) +
                    " " CORESTEER_VERSION " (coresteer-cli export ansible): the preset\n# " +
                    yamlQuoted(name) +
                    (preset.board.empty() ? "" : " for " + yamlQuoted(preset.board)) + R"(.
#
# Applies the layout at runtime on every host of the group, with the automatic revert
# coresteer's own apply uses (the router restores its old values unless the next task confirms
# over a new command), then makes it persistent: /etc/hotplug.d/net/95-coresteer on OpenWrt, a
# systemd unit and a udev rule elsewhere. Every task is `raw`: routers need only a POSIX sh.
# The scripts go to a private temporary directory on the router in pieces (dropbear takes
# commands of at most 9000 bytes) and are removed at the end. A second run changes nothing and
# reports no change.
#
# Host or group variables:
#   coresteer_root          a directory prefix on the router instead of / (default "")
#   coresteer_revert_after  seconds before an unconfirmed apply reverts (default 60)
#   coresteer_any_board     true: apply on a board other than the preset's (default false)
#   coresteer_persist       false: apply at runtime only (default true)
)";
    if (!f->skipped.empty()) {
        y += "#\n# Left out of this playbook:\n";
        for (const auto& k : f->skipped)
            y += "#   " + text::printable(k.target, 80) + ": " + k.reason + "\n";
    }
    y += "\n- name: " + yamlQuoted("coresteer: " + name) + "\n  hosts: " + options.group +
         "\n  gather_facts: false\n  vars:\n    coresteer_scripts:\n";
    const std::pair<const char*, const std::string*> scripts[] = {
        {"apply.sh", &f->apply}, {"confirm.sh", &f->confirm}, {"persist.sh", &f->persist}};
    for (const auto& [file, script] : scripts)
        for (const auto& c : chunks(*script))
            y += "      - file: " + std::string(file) + "\n        text: " + chunkScalar(c, 8);
    const std::string dir = "{{ coresteer_dir.stdout | trim | quote }}";
    const std::string env =
        "CORESTEER_ROOT={{ coresteer_root | default('') | quote }}"
        " CORESTEER_ANY_BOARD={{ (coresteer_any_board | default(false) | bool) | ternary('1', "
        "'0') }}";
    y += R"(  tasks:
    - name: Make a private directory for the scripts
      raw: umask 077 && mktemp -d "${TMPDIR:-/tmp}/coresteer-fleet.XXXXXX"
      register: coresteer_dir
      changed_when: false

    - block:
        - name: Copy the scripts
          raw: printf '%s' {{ item.text | quote }} >> )" +
         dir + R"(/{{ item.file }}
          loop: "{{ coresteer_scripts }}"
          loop_control:
            label: "{{ item.file }}"
          changed_when: false

        - name: Apply the layout (the router reverts it unless the next task confirms)
          raw: >-
            )" +
         env + R"(
            CORESTEER_REVERT_AFTER={{ coresteer_revert_after | default(60) | int }}
            /bin/sh )" +
         dir + R"(/apply.sh
          register: coresteer_applied
          changed_when: "'coresteer: changed' in coresteer_applied.stdout"

        - name: Confirm the layout over a new command (cancels the revert)
          raw: )" +
         env + " /bin/sh " + dir + R"(/confirm.sh
          when: coresteer_applied is changed

        - name: Persist the layout across reboots and upgrades
          raw: )" +
         env + " /bin/sh " + dir + R"(/persist.sh
          register: coresteer_persisted
          changed_when: "'coresteer: changed' in coresteer_persisted.stdout"
          when: coresteer_persist | default(true) | bool

      always:
        - name: Remove the scripts
          raw: rm -rf )" +
         dir + R"(
          changed_when: false
)";
    return y;
}

} // namespace coresteer

// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The commands a firmware's scripts call, for running them on a copy of a fixture root: each
// acts on the root (CORESTEER_ROOT) as the router's own would act on the router, so that what a
// firmware's script writes lands in the copy and nowhere else.
#pragma once

#include "tests/unit/layout/router_copy.h"

#include <string>

namespace coresteer::test {

// uci [-q] get|set|commit PACKAGE.SECTION.OPTION[=VALUE], SECTION a name or "@type[0]", on
// $CORESTEER_ROOT/etc/config/PACKAGE: get prints the section's last "option OPTION" (quotes
// off; status 1 where unset), set replaces it or adds it after the section's line.
inline constexpr const char* kUciTool = R"TOOL(#!/bin/sh
[ "$1" = -q ] && shift
op=$1
case $op in commit) exit 0 ;; get | set) ;; *) exit 1 ;; esac
spec=$2
val=
case $op in set) val=${spec#*=}; spec=${spec%%=*} ;; esac
pkg=${spec%%.*}
rest=${spec#*.}
sec=${rest%.*}
opt=${rest##*.}
f=$CORESTEER_ROOT/etc/config/$pkg
[ -f "$f" ] || exit 1
prog='
function match_sec(type, name) {
    if (sec ~ /^@/) { t = substr(sec, 2); sub(/\[0\]$/, "", t); return type == t }
    return name == sec
}
$1 == "config" {
    type = $2; name = $3; gsub(/'"'"'/, "", name); gsub(/"/, "", name)
    if (insec) done = 1
    insec = !done && match_sec(type, name)
    if (op == "set") { print; if (insec) { hdr = NR } }
    next
}
insec && $1 == "option" && $2 == opt {
    v = $0; sub(/^[ \t]*option[ \t]+[^ \t]+[ \t]+/, "", v); gsub(/'"'"'/, "", v); gsub(/"/, "", v)
    got = v
    if (op == "set") { print "\toption " opt " '"'"'" val "'"'"'"; setdone = 1 }
    next
}
op == "set" { print }
END {
    if (op == "get") { if (got == "") exit 1; print got }
    if (op == "set" && !setdone) exit 3
}'
if [ "$op" = get ]; then
    awk -v op=get -v sec="$sec" -v opt="$opt" "$prog" "$f"
    exit $?
fi
awk -v op=set -v sec="$sec" -v opt="$opt" -v val="$val" "$prog" "$f" > "$f.new"
if [ $? -eq 3 ]; then
    awk -v sec="$sec" -v opt="$opt" -v val="$val" '
        { print }
        $1 == "config" && !done {
            n = $3; gsub(/'"'"'/, "", n)
            t = sec; sub(/^@/, "", t); sub(/\[0\]$/, "", t)
            if ((sec ~ /^@/ && $2 == t) || n == sec) { print "\toption " opt " '"'"'" val "'"'"'"; done = 1 }
        }' "$f" > "$f.new"
fi
mv "$f.new" "$f"
)TOOL";

// taskset -p MASK PID: the thread's Cpus_allowed in the root's /proc/PID/status.
inline constexpr const char* kTasksetTool = R"TOOL(#!/bin/sh
[ "$1" = -p ] || exit 1
s=$CORESTEER_ROOT/proc/$3/status
[ -f "$s" ] || { echo "taskset: failed to get pid $3's affinity" >&2; exit 1; }
sed "s/^Cpus_allowed:.*/Cpus_allowed:	$2/" "$s" > "$s.new" && mv "$s.new" "$s"
)TOOL";

// sysctl -w a.b.c=V: the root's /proc/sys/a/b/c.
inline constexpr const char* kSysctlTool = R"TOOL(#!/bin/sh
[ "$1" = -w ] && shift
k=${1%%=*}
printf '%s\n' "${1#*=}" > "$CORESTEER_ROOT/proc/sys/$(printf %s "$k" | tr . /)"
)TOOL";

// What the fixtures do not model: logs, offload switches, addresses, locks.
inline constexpr const char* kQuietTool = "#!/bin/sh\nexit 0\n";

inline void installFirmwareTools(const Router& r) {
    r.tool("uci", kUciTool);
    r.tool("taskset", kTasksetTool);
    r.tool("sysctl", kSysctlTool);
    for (const char* quiet : {"logger", "ethtool", "ip", "flock"})
        r.tool(quiet, kQuietTool);
}

// Runs a firmware's script on the root: "rc SCRIPT ACTION" as OpenWrt's /etc/rc.common runs an
// init script (boot at boot, by default start; a procd service's start and reload through
// start_service and reload_service), "hotplug SCRIPT" as procd runs a hotplug script. Every
// tool is the root's own (FIRMWARE_TOOLS, the directory installFirmwareTools() filled), as a
// function: BusyBox ash runs its own applets (sysctl, taskset, logger, ip) before it looks at
// PATH, and those would act on the build machine; a function comes before an applet.
inline constexpr const char* kFirmwareRunner = R"TOOL(
for t in uci taskset sysctl logger ethtool ip flock; do
    eval "$t() { \"\$FIRMWARE_TOOLS/$t\" \"\$@\"; }"
done
mode=$1
script=$2
case $mode in
hotplug)
    . "$script"
    ;;
rc)
    action=$3
    boot() { start "$@"; }
    start() { start_service "$@"; }
    reload() { reload_service "$@"; }
    start_service() { :; }
    reload_service() { start "$@"; }
    service_triggers() { :; }
    . "$script"
    "$action"
    ;;
esac
)TOOL";

} // namespace coresteer::test

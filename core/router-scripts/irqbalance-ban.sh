# SPDX-FileCopyrightText: 2026 coresteer maintainers
# SPDX-License-Identifier: GPL-3.0-or-later
# shellcheck shell=sh
# irqbalance-ban.sh: irqbalance leaves alone the IRQs that coresteer's layout pins and goes on
# balancing the others. After common.sh and state-dir.sh; uses R (the root prefix), the marker
# (MARK, or M in persist's scripts) and ib_say MESSAGE, which the caller defines.
#   OpenWrt: "list banirq 'N'" in the irqbalance section of /etc/config/irqbalance (its init
#            script gives irqbalance each as -i N);
#   systemd: a drop-in, /etc/systemd/system/irqbalance.service.d/90-coresteer.conf, that starts
#            irqbalance as its unit does, with --banirq=N added.
# The IRQs coresteer banned are listed in /etc/coresteer/irqbalance.banned, one number a line;
# the owner's own bans are never touched.
#   ban_irqs [-x] N...
#                  bans those of N that are not banned yet (IRQ numbers can change at boot: the
#                  persisted apply script bans the new ones); with -x, also lifts coresteer's
#                  bans of IRQs not in N. irqbalance starts again where it runs and the bans
#                  changed (live root only). 1 with a message when its configuration is not
#                  found or cannot be edited safely (a link, or no irqbalance section).
#   banned_as N... 0 when coresteer's bans are exactly N.
#   unban_irqs     lifts every ban coresteer made.
# One at a time: the lock is $D/irqbalance, in coresteer's own state directory.

IB_UCI="$R/etc/config/irqbalance"
IB_LIST="$R/etc/coresteer/irqbalance.banned"
IB_DROPIN="$R/etc/systemd/system/irqbalance.service.d/90-coresteer.conf"
IB_UNIT=

# ib_kind: "uci", "systemd" (IB_UNIT: the unit file) or "" for none, into ib_k.
ib_kind() {
    ib_k=
    if [ -e "$IB_UCI" ] || [ -L "$IB_UCI" ]; then
        ib_k=uci
        return 0
    fi
    for ib_u in etc/systemd/system lib/systemd/system usr/lib/systemd/system; do
        if [ -f "$R/$ib_u/irqbalance.service" ] && [ ! -L "$R/$ib_u/irqbalance.service" ]; then
            IB_UNIT="$R/$ib_u/irqbalance.service"
            ib_k=systemd
            return 0
        fi
    done
    return 1
}

# ib_ours: the numbers coresteer banned, on one line, into ib_have.
ib_ours() {
    ib_have=
    [ -f "$IB_LIST" ] && [ ! -L "$IB_LIST" ] || return 0
    while IFS= read -r ib_n; do
        if digits "$ib_n"; then ib_have="$ib_have $ib_n"; fi
    done <"$IB_LIST"
}

# ib_plain FILE: a plain file that is no link: refuses to edit anything else.
ib_plain() {
    if [ -L "$1" ] || [ ! -f "$1" ]; then
        ib_say "/${1#"$R"/} is a link or not a plain file: irqbalance's bans left as they are"
        return 1
    fi
}

# ib_uci_edit ADD DROP: /etc/config/irqbalance with a line "<TAB>list banirq 'N'" for each N of
# ADD after the irqbalance section's first line, and without the same line for each N of DROP.
ib_uci_edit() {
    ib_plain "$IB_UCI" || return 1
    rm -f "$IB_UCI.coresteer-new"
    if ! awk -v add="$1" -v drop="$2" '
        BEGIN { n = split(drop, d, " "); for (i = 1; i <= n; i++) gone["\tlist banirq '\''" d[i] "'\''"] = 1 }
        $0 in gone { next }
        { print }
        !done && $1 == "config" && $2 == "irqbalance" && ($3 == "irqbalance" || $3 == "'\''irqbalance'\''" || $3 == "\"irqbalance\"") {
            n = split(add, a, " ")
            for (i = 1; i <= n; i++) printf "\tlist banirq '\''%s'\''\n", a[i]
            done = 1
        }
        END { if (add != "" && !done) exit 2 }' "$IB_UCI" >"$IB_UCI.coresteer-new"; then
        rm -f "$IB_UCI.coresteer-new"
        ib_say "/etc/config/irqbalance has no irqbalance section: irqbalance's bans left as they are"
        return 1
    fi
    if ! { chmod 644 "$IB_UCI.coresteer-new" && mv -f "$IB_UCI.coresteer-new" "$IB_UCI"; }; then
        rm -f "$IB_UCI.coresteer-new"
        ib_say "cannot write /etc/config/irqbalance: irqbalance's bans left as they are"
        return 1
    fi
}

# ib_uci_owner: the IRQs the owner banned in /etc/config/irqbalance, into ib_owner.
ib_uci_owner() {
    ib_owner=$(awk '$1 == "list" && $2 == "banirq" { v = $3; gsub(/["'\'']/, "", v); print v }' \
        "$IB_UCI" 2>/dev/null | tr '\n' ' ')
}

# ib_dropin NUMBERS: the drop-in that starts irqbalance as its unit does, with NUMBERS banned
# (none: no drop-in).
ib_dropin() {
    if [ -z "$1" ]; then
        if [ -f "$IB_DROPIN" ] && grep -q "${MARK:-$M}" "$IB_DROPIN"; then rm -f "$IB_DROPIN"; fi
        rmdir "${IB_DROPIN%/*}" 2>/dev/null
        return 0
    fi
    ib_start=$(sed -n 's/^ExecStart=//p' "$IB_UNIT")
    case $ib_start in
    '' | *"$NL"*)
        ib_say "/${IB_UNIT#"$R"/} has not one ExecStart line: irqbalance's bans left as they are"
        return 1
        ;;
    esac
    ib_args=
    for ib_n in $1; do ib_args="$ib_args --banirq=$ib_n"; done
    if ! {
        mkdir -p "${IB_DROPIN%/*}" && rm -f "$IB_DROPIN.coresteer-new" &&
            printf '# %s: irqbalance leaves alone the IRQs that coresteer'\''s layout pins.\n[Service]\nExecStart=\nExecStart=%s%s\n' \
                "${MARK:-$M}" "$ib_start" "$ib_args" >"$IB_DROPIN.coresteer-new" &&
            mv -f "$IB_DROPIN.coresteer-new" "$IB_DROPIN"
    }; then
        rm -f "$IB_DROPIN.coresteer-new"
        ib_say "cannot write /${IB_DROPIN#"$R"/}: irqbalance's bans left as they are"
        return 1
    fi
}

# ib_record NUMBERS: the list of coresteer's bans (none: no list).
ib_record() {
    if [ -z "$1" ]; then
        rm -f "$IB_LIST"
        return 0
    fi
    rm -f "$IB_LIST.coresteer-new"
    # shellcheck disable=SC2086 # one number a line
    printf '%s\n' $1 >"$IB_LIST.coresteer-new" && mv -f "$IB_LIST.coresteer-new" "$IB_LIST"
}

# ib_restart: irqbalance reads its bans again, where it runs (live root only).
ib_restart() {
    [ -z "$R" ] || return 0
    if [ "$ib_k" = systemd ] && command -v systemctl >/dev/null 2>&1; then
        systemctl daemon-reload >/dev/null 2>&1
        systemctl try-restart irqbalance.service >/dev/null 2>&1
    elif [ -x /etc/init.d/irqbalance ] && pidof irqbalance >/dev/null 2>&1; then
        /etc/init.d/irqbalance restart >/dev/null 2>&1
    fi
}

ib_lock() {
    state_dir 2>/dev/null || return 1
    ib_i=0
    until mkdir "$D/irqbalance" 2>/dev/null; do
        ib_i=$((ib_i + 1))
        [ "$ib_i" -le 10 ] || return 1
        sleep 1
    done
}
ib_unlock() { rmdir "$D/irqbalance" 2>/dev/null; }

ban_irqs() {
    ib_exact=
    if [ "${1:-}" = -x ]; then
        ib_exact=1
        shift
    fi
    if ! ib_kind; then
        ib_say "irqbalance's configuration was not found (/etc/config/irqbalance, or its systemd unit): nothing banned"
        return 1
    fi
    ib_lock || {
        ib_say "irqbalance's bans left as they are: coresteer's state directory is not usable"
        return 1
    }
    ib_ours
    ib_owner=
    [ "$ib_k" != uci ] || ib_uci_owner
    ib_add=
    for ib_n in "$@"; do
        digits "$ib_n" || continue
        case " $ib_have $ib_add $ib_owner " in *" $ib_n "*) continue ;; esac
        ib_add="$ib_add $ib_n"
    done
    ib_drop=
    ib_keep=
    for ib_n in $ib_have; do
        case " $* " in
        *" $ib_n "*) ib_keep="$ib_keep $ib_n" ;;
        *) if [ -n "$ib_exact" ]; then ib_drop="$ib_drop $ib_n"; else ib_keep="$ib_keep $ib_n"; fi ;;
        esac
    done
    ib_rc=0
    if [ -n "$ib_add$ib_drop" ]; then
        if [ "$ib_k" = uci ]; then
            ib_uci_edit "$ib_add" "$ib_drop" || ib_rc=1
        else
            ib_dropin "$ib_keep $ib_add" || ib_rc=1
        fi
        if [ "$ib_rc" = 0 ]; then
            ib_record "$ib_keep $ib_add" || ib_rc=1
            ib_restart
        fi
    fi
    ib_unlock
    return $ib_rc
}

banned_as() {
    ib_ours
    for ib_n in "$@"; do
        case " $ib_have " in *" $ib_n "*) ;; *) return 1 ;; esac
    done
    for ib_n in $ib_have; do
        case " $* " in *" $ib_n "*) ;; *) return 1 ;; esac
    done
}

unban_irqs() {
    ib_ours
    [ -n "$ib_have" ] || {
        rm -f "$IB_LIST"
        return 0
    }
    ib_kind || {
        rm -f "$IB_LIST"
        return 0
    }
    ib_lock || {
        ib_say "irqbalance's bans left as they are: coresteer's state directory is not usable"
        return 1
    }
    ib_rc=0
    if [ "$ib_k" = uci ]; then
        ib_uci_edit "" "$ib_have" || ib_rc=1
    else
        ib_dropin "" || ib_rc=1
    fi
    if [ "$ib_rc" = 0 ]; then
        ib_record ""
        ib_restart
    fi
    ib_unlock
    return $ib_rc
}

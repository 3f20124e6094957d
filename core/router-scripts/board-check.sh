# SPDX-FileCopyrightText: 2026 coresteer maintainers
# SPDX-License-Identifier: GPL-3.0-or-later
# shellcheck shell=sh
# board-check.sh: the start of `export ansible`'s apply and persist scripts. Inputs: R (the root
# prefix), BOARD (the preset's board, "" for any), CORESTEER_ANY_BOARD (1: take any board).
# Reads the router's board as coresteer's snapshot does: OpenWrt's board_name, the device tree's
# first compatible, or on x86 DMI's vendor and product ("supermicro-sys-620p-trt"). Exits 5
# with the reason on stderr when it is another board's; the vendor part does not count
# (friendlyarm,nanopi-r6s and friendlyelec,nanopi-r6s are one board).

dmi() {
    for f in "$@"; do
        v=
        IFS= read -r v 2>/dev/null <"$R/sys/class/dmi/id/$f"
        case $v in
        '' | empty | 'System manufacturer' | 'To be filled by O.E.M.' | 'System Product Name' | 'Default string') ;;
        *)
            printf '%s' "$v"
            return
            ;;
        esac
    done
}
if [ -n "$BOARD" ] && [ "${CORESTEER_ANY_BOARD:-0}" != 1 ]; then
    b=
    IFS= read -r b 2>/dev/null <"$R/tmp/sysinfo/board_name"
    [ -n "$b" ] || b=$(tr '\0' '\n' 2>/dev/null <"$R/proc/device-tree/compatible" | head -n 1)
    if [ -z "$b" ]; then
        # Ranges, not [:upper:]: OpenWrt's BusyBox tr has no character classes.
        # shellcheck disable=SC2018,SC2019
        b=$(printf '%s %s' "$(dmi sys_vendor board_vendor)" "$(dmi product_name board_name)" |
            tr -cs 'A-Za-z0-9' '-' | tr 'A-Z' 'a-z')
        while :; do
            case $b in
            -*) b=${b#-} ;;
            *-) b=${b%-} ;;
            *) break ;;
            esac
        done
    fi
    if [ "$b" != "$BOARD" ] && [ "${b#*,}" != "${BOARD#*,}" ]; then
        echo "coresteer: this router's board is ${b:-unknown}, the preset's is $BOARD (set coresteer_any_board to apply it anyway)" >&2
        exit 5
    fi
fi

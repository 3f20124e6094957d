# SPDX-FileCopyrightText: 2026 coresteer maintainers
# SPDX-License-Identifier: GPL-3.0-or-later
# bash completion for coresteer-cli
_coresteer_cli() {
    local cur prev words cword
    _init_completion || return
    local commands="snapshot capture plan diff apply confirm revert persist unpersist preset
        monitor tune recording export --help --version --verbose"
    if [[ $cword -eq 1 ]]; then
        COMPREPLY=($(compgen -W "$commands" -- "$cur"))
        return
    fi
    case $prev in
        --root | --known-hosts | --identity | -i | --ssh-config | -F | --record | --inventory | \
            --preset | --output | -o | --ca-file)
            _filedir
            return
            ;;
        --rate | --duration | --revert-after | --parallel | --inventory-group | --load | --probe | \
            --phase-seconds | --idle-seconds | --post-url | --congestion | --irtt)
            return
            ;;
    esac
    case ${words[1]} in
        preset)
            if [[ $cword -eq 2 ]]; then
                COMPREPLY=($(compgen -W "save load" -- "$cur"))
                return
            fi
            ;;
        export)
            if [[ $cword -eq 2 ]]; then
                COMPREPLY=($(compgen -W "ansible" -- "$cur"))
            else
                COMPREPLY=($(compgen -W "--preset --inventory-group --output
                    --no-packet-steering-override --disable-irqbalance" -- "$cur"))
            fi
            return
            ;;
        recording)
            if [[ $cword -eq 2 ]]; then
                COMPREPLY=($(compgen -W "summary csv compare" -- "$cur"))
            else
                COMPREPLY=($(compgen -W "--json" -- "$cur"))
                _filedir csrec
            fi
            return
            ;;
    esac
    if [[ $cur == -* ]]; then
        local opts="--root --json --known-hosts --identity --ssh-config --accept-new-host-key
            --verbose --help"
        case ${words[1]} in
            apply) opts+=" --revert-after --no-confirm --no-revert --inventory --inventory-group
                --parallel" ;;
            persist) opts+=" --no-packet-steering-override --disable-irqbalance" ;;
            monitor) opts+=" --rate --duration --csv --record --bufferbloat --load --post-url --ca-file --probe --irtt --phase-seconds --congestion" ;;
            tune) opts+=" --load --post-url --ca-file --probe --irtt --congestion --candidate --no-plan --budget --margin --latency-margin --phases --phase-seconds --idle-seconds --objective --allow-conflicts --keep-winner --revert-after --record" ;;
        esac
        COMPREPLY=($(compgen -W "$opts" -- "$cur"))
        return
    fi
    # ssh_config aliases and files (layouts, presets).
    local hosts
    hosts=$(awk 'tolower($1) == "host" { for (i = 2; i <= NF; i++) if ($i !~ /[*?]/) print $i }' \
        ~/.ssh/config 2>/dev/null)
    COMPREPLY=($(compgen -W "$hosts" -- "$cur"))
    _filedir
}
complete -F _coresteer_cli coresteer-cli

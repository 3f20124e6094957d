#!/bin/sh
# SPDX-FileCopyrightText: 2026 coresteer maintainers
# SPDX-License-Identifier: GPL-3.0-or-later
# Runs a command in network and PID namespaces of its own, with only a loopback interface: the
# emulated router's taps and its SSH port forward live there and vanish with it, so nothing of
# the tests ever appears on the host's network. When the command ends, or this script is killed,
# the kernel kills every process left in the PID namespace (QEMU too, daemonized or not), and
# the network namespace goes with the last of them.
#   tests/router-vm/netns.sh COMMAND [ARGS...]
exec unshare --net --pid --mount-proc --fork --kill-child sh -c 'ip link set lo up && "$@"' netns "$@"

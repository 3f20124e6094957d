#!/bin/sh
# Runs a command in a network namespace of its own, with only a loopback interface: the emulated
# router's taps and its SSH port forward live there, and vanish with it, so nothing of the tests
# ever appears on the host's network. The command's children die with it (--kill-child).
#   tests/router-vm/netns.sh COMMAND [ARGS...]
exec unshare --net --fork --kill-child sh -c 'ip link set lo up && exec "$@"' netns "$@"

# SPDX-FileCopyrightText: 2026 coresteer maintainers
# SPDX-License-Identifier: GPL-3.0-or-later
# Debian 12 packages coresteer needs, installed only when missing. Sourced by run.sh and test.sh.
# shellcheck shell=bash

# To build the app and the CLI.
# shellcheck disable=SC2034 # used by run.sh and test.sh, which source this file
CORESTEER_BUILD_PACKAGES=(
    cmake ninja-build g++ pkg-config
    qt6-base-dev qt6-charts-dev libqt6opengl6-dev libgl-dev
    libssh-dev nlohmann-json3-dev qtkeychain-qt6-dev libcli11-dev libcurl4-openssl-dev
)
# To build and run every test: GoogleTest, Google Benchmark, clang with libFuzzer and the
# sanitizers, gawk for the benchmark's baseline; the emulated router (tests/router-vm) runs
# Debian's kernel (fetched by apt-get download, never installed) under QEMU with BusyBox,
# dropbear and ethtool, in a network namespace of the test's own; the GUI binary runs under Xvfb;
# the sampler's cost is measured against htop and its figures against mpstat (sysstat); the
# recording's load generator runs iperf3 against an iperf3 server on 127.0.0.1, and HTTP(S)
# against a python3 web server with a certificate of a CA made by openssl, and probes an irtt
# server; what cmake
# --install lays out is checked with the desktop, AppStream, man and bash-completion tools, and
# the .deb is installed into a fresh Debian 12 made by debootstrap; the router scripts and the
# project's own shell scripts are checked by shellcheck, and the licence headers by reuse.
# shellcheck disable=SC2034 # used by test.sh, which sources this file
CORESTEER_TEST_PACKAGES=(
    libgtest-dev libbenchmark-dev
    clang libclang-rt-14-dev
    gawk busybox-static
    openssh-server openssh-client dropbear-bin
    qemu-system-x86 iproute2 util-linux e2fsprogs xz-utils ethtool
    xvfb xauth htop sysstat iperf3 irtt iputils-ping
    desktop-file-utils appstream bash-completion man-db groff-base bsdextrautils debootstrap
    ansible-core gnome-keyring dbus libsecret-1-0
    shellcheck reuse python3 openssl
)

ensure_packages() {
    local missing=() p
    for p in "$@"; do
        if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
            missing+=("$p")
        fi
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    echo "Installing: ${missing[*]}"
    local sudo=()
    [ "$(id -u)" -eq 0 ] || sudo=(sudo)
    "${sudo[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends \
        "${missing[@]}"
}

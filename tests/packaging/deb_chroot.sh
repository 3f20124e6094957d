#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 coresteer maintainers
# SPDX-License-Identifier: GPL-3.0-or-later
# The Debian package, installed the way a user would: `cpack -G DEB` in the build directory,
# a fresh Debian 12 (bookworm) made by debootstrap from Debian's own mirror, then inside it
# `apt-get install ./coresteer_*.deb` (apt resolves the Depends that dpkg-shlibdeps wrote),
# `coresteer-cli --version`, `coresteer --quit-after` under xvfb-run, and `apt-get remove`, after
# which none of the package's files is left. Runs as root, in a mount namespace of its own, so
# nothing it mounts outlives it; the base system is cached in the build directory.
#   tests/packaging/deb_chroot.sh BUILD_DIR WORK_DIR
set -euo pipefail
build=$(cd "$1" && pwd)
work=$2
mkdir -p "$work"
work=$(cd "$work" && pwd)
mirror=${CORESTEER_DEBIAN_MIRROR:-http://deb.debian.org/debian}
[ "$(id -u)" = 0 ] || { echo "FAILED: needs root (debootstrap, chroot)"; exit 1; }

echo "== the package"
rm -rf "$work/deb"
(cd "$build" && cpack -G DEB -B "$work/deb" >/dev/null)
deb=$(ls "$work"/deb/coresteer_*.deb)
dpkg-deb -f "$deb" Package Version Depends

echo "== a fresh Debian 12"
base=$build/debootstrap-bookworm.tar.gz
root=$work/chroot
rm -rf "$root"
if [ ! -f "$base" ]; then
    debootstrap --variant=minbase --make-tarball="$base.part" bookworm "$work/tarball-tmp" \
        "$mirror" >"$work/debootstrap.log" 2>&1 || { tail -20 "$work/debootstrap.log"; exit 1; }
    mv "$base.part" "$base"
    rm -rf "$work/tarball-tmp"
fi
debootstrap --variant=minbase --unpack-tarball="$base" bookworm "$root" "$mirror" \
    >"$work/debootstrap.log" 2>&1 || { tail -20 "$work/debootstrap.log"; exit 1; }
cp /etc/resolv.conf "$root/etc/resolv.conf"
cp "$deb" "$root/tmp/"

echo "== install, run, remove"
# Inside a private mount namespace: /proc, /dev/pts and /tmp of the chroot only.
# shellcheck disable=SC2016 # the inner bash expands the script's variables, not this one
unshare --mount --fork bash -euo pipefail -c '
    root=$1
    mount --make-rprivate /
    mount -t proc proc "$root/proc"
    mount -t tmpfs tmpfs "$root/dev/shm" 2>/dev/null || true
    mkdir -p "$root/dev/pts"
    mount -t devpts devpts "$root/dev/pts" -o newinstance,ptmxmode=0666 2>/dev/null || true
    inside() { chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
        DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8 "$@"; }
    inside apt-get update -qq
    inside apt-get install -y -qq ./tmp/$(basename "$2") xvfb xauth >/dev/null
    echo "installed: $(inside dpkg-query -W -f="\${Package} \${Version} \${Status}" coresteer)"
    inside coresteer-cli --version
    inside xvfb-run -a -s "-screen 0 1280x800x24" coresteer --quit-after 1500
    echo "coresteer --quit-after under xvfb-run: ok"
    files=$(inside dpkg-query -L coresteer | grep -E "^/usr/(bin|share/(applications|metainfo|man|coresteer|icons|bash-completion))/" )
    inside apt-get remove -y -qq coresteer >/dev/null
    left=0
    for f in $files; do
        case $f in */) continue ;; esac
        if [ -f "$root$f" ]; then echo "LEFT AFTER REMOVE: $f"; left=1; fi
    done
    [ $left = 0 ] && echo "apt-get remove: no file of the package left"
    exit $left
' _ "$root" "$deb"
echo "== ok"

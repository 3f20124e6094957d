#!/bin/sh
# SPDX-FileCopyrightText: 2026 coresteer maintainers
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds the emulated router from Debian packages into OUT (default build/router-vm):
#   vmlinux            Debian's kernel, uncompressed (booted directly, PVH), never installed
#   initramfs.cpio.gz  BusyBox userland with dropbear, the modules it needs, an OpenWrt-like /etc
#   disk.img           a small ext4 image: the persistent upper layer of /etc
#   client_key{,.pub}  the key the tests log in with (root, through dropbear)
# Everything is cached in OUT and rebuilt only when this folder changes.
#   tests/router-vm/build.sh [OUT]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-build/router-vm}
mkdir -p "$out"
out=$(cd "$out" && pwd)
stamp=$(cd "$here" && find build.sh mkppp.c rootfs -type f | LC_ALL=C sort | xargs cat | sha256sum | cut -c1-16)
if [ -f "$out/stamp" ] && [ "$(cat "$out/stamp")" = "$stamp" ] && [ -f "$out/initramfs.cpio.gz" ]; then
    echo "router-vm: up to date in $out"
    exit 0
fi
rm -f "$out/stamp"

# 1. The kernel: linux-image-amd64 and the versioned package it depends on, unpacked.
mkdir -p "$out/debs"
cd "$out/debs"
kernel_pkg() {
    apt-cache depends linux-image-amd64 2>/dev/null |
        sed -n 's/^ *Depends: \(linux-image-[0-9].*\)$/\1/p' | head -n 1
}
pkg=$(kernel_pkg)
[ -n "$pkg" ] || { apt-get update -qq >/dev/null 2>&1 || true; pkg=$(kernel_pkg); }
[ -n "$pkg" ] || { echo "router-vm: no linux-image-amd64 in apt's lists (apt-get update?)" >&2; exit 1; }
ls "$pkg"_*.deb >/dev/null 2>&1 || apt-get download linux-image-amd64 "$pkg" 2>/dev/null
# shellcheck disable=SC2012 # a Debian package file name has no blank or newline
deb=$(ls "$pkg"_*.deb | head -n 1)
rm -rf "$out/kernel"
mkdir -p "$out/kernel"
dpkg-deb -x "$deb" "$out/kernel"
kver=${pkg#linux-image-}
vmlinuz="$out/kernel/boot/vmlinuz-$kver"
off=$(LC_ALL=C grep -obUaP '\xfd7zXZ\x00' "$vmlinuz" | head -n 1 | cut -d: -f1)
[ -n "$off" ] || { echo "router-vm: no xz payload in $vmlinuz" >&2; exit 1; }
tail -c +$((off + 1)) "$vmlinuz" | xz -dc --single-stream > "$out/vmlinux.new" 2>/dev/null || true
[ "$(head -c 4 "$out/vmlinux.new" | od -An -c | tr -d ' ')" = "177ELF" ] ||
    { echo "router-vm: could not unpack vmlinux from $vmlinuz" >&2; exit 1; }
mv "$out/vmlinux.new" "$out/vmlinux"

# 2. The root file system.
root="$out/rootfs"
rm -rf "$root"
mkdir -p "$root"
cd "$root"
mkdir -p bin sbin usr/bin usr/sbin lib lib64 etc/dropbear root/.ssh proc sys dev tmp run var/log \
    overlay lib/modules
cp /bin/busybox bin/busybox
for a in $(bin/busybox --list); do
    [ -e "bin/$a" ] || ln -s busybox "bin/$a"
done
ln -s ../bin/busybox sbin/init
ln -s bin/busybox init
# dropbear (OpenWrt's SSH server) and ethtool, with their libraries.
for b in /usr/sbin/dropbear /usr/sbin/ethtool; do
    [ -x "$b" ] || continue
    cp "$b" "usr/sbin/"
    for l in $(ldd "$b" | awk '/=>/ { print $3 } /^\t\/lib/ { print $1 }'); do
        mkdir -p ".$(dirname "$l")"
        cp -L "$l" ".$l"
    done
done
# tc (iproute2), with its libraries, for the lab's cake (lab.sh): off the PATH, where BusyBox's
# tc (which cannot set up cake) stays the router's, as before.
if [ -x /usr/sbin/tc ]; then
    mkdir -p usr/libexec/lab
    cp /usr/sbin/tc usr/libexec/lab/tc
    for l in $(ldd /usr/sbin/tc | awk '/=>/ { print $3 } /^\t\/lib/ { print $1 }'); do
        mkdir -p ".$(dirname "$l")"
        cp -L "$l" ".$l"
    done
fi
# Modules, in dependency order.
mods="$out/kernel/lib/modules/$kver/kernel"
: > lib/modules/load
add_mod() {
    # shellcheck disable=SC3043 # recursive; dash (Debian's /bin/sh) and BusyBox ash have local
    local f d
    f=$(find "$mods" -name "$1.ko" | head -n 1)
    [ -n "$f" ] || { echo "router-vm: no module $1" >&2; exit 1; }
    grep -qx "$1.ko" lib/modules/load && return 0
    for d in $(tr '\0' '\n' < "$f" | sed -n 's/^depends=//p' | tr ',' ' '); do add_mod "$d"; done
    cp "$f" lib/modules/
    echo "$1.ko" >> lib/modules/load
}
# e1000e: an Intel 82574L whose driver takes rx-usecs (ethtool -C), as a router's NIC does.
# ppp_generic: PPP units, which mkppp makes as pppd does (the router has no pppd).
for m in virtio_pci virtio_blk crc32c_generic ext4 overlay virtio_net e1000e ppp_generic; do
    add_mod "$m"
done
# sch_cake (and what it needs), for the lab only: in the image, listed in lib/modules/lab in
# dependency order, and kept out of lib/modules/load, which rcS loads at every boot.
cp lib/modules/load lib/modules/load.base
add_mod sch_cake
grep -vxF -f lib/modules/load.base lib/modules/load > lib/modules/lab || true
mv lib/modules/load.base lib/modules/load
# The OpenWrt-like /etc and the scripts, from tests/router-vm/rootfs.
cp -R "$here/rootfs/." "$root/"
chmod 0755 "$root/etc/rcS" "$root/sbin/hotplug" "$root/sbin/hotplug-call" "$root/sbin/ifup" \
    "$root/sbin/uci" "$root/etc/init.d/packet_steering" "$root/etc/init.d/network" \
    "$root/usr/libexec/network/packet-steering.uc"
# mkppp (mkppp.c), static: a PPP interface for the tests of upper devices.
gcc -static -O2 -o usr/bin/mkppp "$here/mkppp.c"
# Keys: the router's host key, and the client key the tests log in with.
if [ ! -f "$out/client_key" ]; then
    ssh-keygen -q -t ed25519 -N '' -C coresteer-vm-client -f "$out/client_key"
fi
cp "$out/client_key.pub" root/.ssh/authorized_keys
chmod 0700 root/.ssh
chmod 0600 root/.ssh/authorized_keys
[ -f "$out/host_key" ] || dropbearkey -t ed25519 -f "$out/host_key" >/dev/null 2>&1
cp "$out/host_key" etc/dropbear/dropbear_ed25519_host_key
dropbearkey -y -f "$out/host_key" | sed -n 's/^\(ssh-ed25519 [^ ]*\).*/\1/p' > "$out/host_key.pub"
find . | LC_ALL=C sort | bin/busybox cpio -o -H newc 2>/dev/null | gzip -1 > "$out/initramfs.cpio.gz"

# 3. The persistent /etc layer.
rm -f "$out/disk.img"
truncate -s 16M "$out/disk.img"
mkfs.ext4 -q -F -L coresteer-etc "$out/disk.img"
echo "$stamp" > "$out/stamp"
echo "router-vm: built $kver in $out"

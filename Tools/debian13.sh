#!/usr/bin/env bash
# Tools/debian13.sh — Debian 13's own Swift (swiftlang 6.0.3: what a Raspberry Pi OS user gets from
# apt) in a root of its own: to build this package with that compiler, and to cross-build it for
# arm64 (Tools/cross-build.sh). The host's apt configuration is never touched.
#
#   Tools/debian13.sh root              make the root if it is missing or stale; print its path
#   Tools/debian13.sh sysroot ARCH      the ARCH sysroot in the root (below); print its path there
#   Tools/debian13.sh run CMD [ARG…]    CMD in the root, in /src: a copy of this checkout
#
# The root: `debootstrap --variant=minbase trixie`, then swiftlang and the -dev packages the build
# needs (apt-get in the root), in $KIOSK_DEBIAN13 (default <repo>/.build-debian13, git-ignored):
# ~3 min and ~600 MB from the Debian archive the first time; a stamp of the package list says
# when apt-get must add what the list gained.
# `run` copies the checkout's files (not .git, not the build folders) to /src with rsync, so a build
# there is incremental, and mounts /proc, /sys and /dev in a mount namespace of its own (unshare): nothing
# stays mounted when it ends, however it ends. One command at a time (an flock on the root).
#
# The sysroot for ARCH (arm64): what a cross build links against and what qemu-user runs the result
# with, from Debian 13's ARCH packages of the same versions as the root's, unpacked (dpkg-deb -x,
# nothing configured) into /cross/ARCH: libc6(-dev), libgcc-14-dev, libstdc++-14-dev (the static
# libstdc++ Package.swift links), linux-libc-dev, the -dev headers of the C targets, the libraries
# kiosk-hud opens with dlopen (FreeType, libpng and theirs), and from swiftlang:ARCH only its
# Swift resource folders (the ARCH standard library, static and shared, and its module files).
set -euo pipefail
# The whole script is one block, read before it runs: a run waiting for the lock below must not
# read on in a file that changed meanwhile (a checkout, an edit).
{
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/.." && pwd)
CACHE=${KIOSK_DEBIAN13:-$REPO/.build-debian13}
ROOT=$CACHE/root
MIRROR=${KIOSK_DEBIAN_MIRROR:-http://deb.debian.org/debian}
die() { echo "debian13.sh: $*" >&2; exit 1; }

# What the build needs (the Quick start's -dev packages), libstdc++-14-dev for the static
# libstdc++, and what the tests run in the root use (as the Quick start installs them on the host).
PACKAGES="swiftlang libstdc++-14-dev pkg-config libfreetype-dev libpng-dev libdrm-dev libinput-dev libudev-dev
fonts-dejavu-core fonts-wqy-microhei groff-base rsync curl xz-utils"
SYSROOT_PACKAGES="libc6 libc6-dev libgcc-14-dev libgcc-s1 libstdc++6 libstdc++-14-dev linux-libc-dev
libdrm-dev libinput-dev libudev-dev libfreetype-dev libpng-dev libfreetype6 libpng16-16t64 zlib1g libbrotli1 libbz2-1.0"

[ "$(id -u)" = 0 ] || die "needs root (debootstrap, chroot)"
mkdir -p "$CACHE"
exec 9>"$CACHE/.lock"
flock 9

need_host() {  # the host tools this script uses, installed when missing
    local missing=""
    for p in "$@"; do dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null | grep -q '^ii' || missing="$missing $p"; done
    [ -z "$missing" ] && return 0
    echo "debian13.sh: installing$missing" >&2
    apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >/dev/null ||
        die "apt-get install$missing failed"
}

# Runs "$@" chrooted in the root with /proc and /dev, in a private mount namespace.
in_root() {
    unshare --mount --propagation private -- /bin/sh -c '
        root=$1; shift
        # The root a mount point of its own (so that what runs there can unshare mounts too),
        # with /proc, /sys and /dev.
        mount --rbind "$root" "$root" && mount -t proc proc "$root/proc" && mount --rbind /sys "$root/sys" &&
            mount --rbind /dev "$root/dev" || exit 125
        exec chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"' sh "$ROOT" "$@"
}

make_root() {
    local stamp
    stamp=$(echo "$MIRROR $PACKAGES" | sha256sum | cut -c1-16)
    # (usr/bin/swift is a link to an absolute path: resolved in the root, not here)
    [ -x "$ROOT/usr/libexec/swift/bin/swift" ] && [ "$(cat "$CACHE/root.stamp" 2>/dev/null)" = "$stamp" ] && return 0
    need_host debootstrap rsync util-linux
    if [ ! -x "$ROOT/usr/bin/apt-get" ]; then
        echo "debian13.sh: making the Debian 13 root in $ROOT (debootstrap trixie, then swiftlang)" >&2
        rm -rf "$ROOT" "$ROOT.tmp" "$CACHE/sysroot-"*.stamp
        debootstrap --variant=minbase trixie "$ROOT.tmp" "$MIRROR" > "$CACHE/debootstrap.log" 2>&1 ||
            { tail -20 "$CACHE/debootstrap.log" >&2; die "debootstrap failed (log: $CACHE/debootstrap.log)"; }
        mv "$ROOT.tmp" "$ROOT"
    fi
    # debootstrap's own resolver cannot take libinput-dev (an alternative deep in its
    # dependencies): the packages come from apt in the root, and a changed list only adds.
    { in_root apt-get update -q && in_root apt-get install -y -q --no-install-recommends $PACKAGES; } >> "$CACHE/debootstrap.log" 2>&1 ||
        { tail -20 "$CACHE/debootstrap.log" >&2; die "apt-get install in the Debian 13 root failed (log: $CACHE/debootstrap.log)"; }
    rm -rf "$ROOT/var/cache/apt/archives/"*.deb
    echo "$stamp" > "$CACHE/root.stamp"
}

make_sysroot() {  # ARCH
    local arch=$1 version stamp dir
    case "$arch" in arm64) ;; *) die "sysroot: no sysroot for '$arch' (arm64 only: Debian's swiftlang has amd64 and arm64)" ;; esac
    version=$(in_root dpkg-query -W -f='${Version}' swiftlang)
    stamp=$(echo "$version $SYSROOT_PACKAGES" | sha256sum | cut -c1-16)
    dir=$ROOT/cross/$arch
    [ -d "$dir/usr/libexec/swift/lib/swift_static" ] && [ "$(cat "$CACHE/sysroot-$arch.stamp" 2>/dev/null)" = "$stamp" ] && return 0
    echo "debian13.sh: making the $arch sysroot (swiftlang $version)" >&2
    in_root /bin/sh -ec "
        dpkg --add-architecture $arch
        apt-get update -qq
        rm -rf /cross/debs-$arch /cross/$arch; mkdir -p /cross/debs-$arch /cross/$arch; cd /cross/debs-$arch
        pkgs=''
        for p in $(echo $SYSROOT_PACKAGES); do
            case \$p in linux-libc-dev) pkgs=\"\$pkgs \$p\" ;; *) pkgs=\"\$pkgs \$p:$arch\" ;; esac
        done
        apt-get download -q \$pkgs swiftlang:$arch=$version 2>&1 | grep -v '^W: Download is performed unsandboxed' || true
        for d in *.deb; do
            case \$d in
            swiftlang_*) dpkg-deb --fsys-tarfile \$d | tar -x -C /cross/$arch --wildcards \
                './usr/libexec/swift/lib/swift/linux/*' './usr/libexec/swift/lib/swift/shims/*' \
                './usr/libexec/swift/lib/swift/clang' './usr/libexec/swift/lib/swift_static/*' './usr/libexec/swift/lib/clang/*' ;;
            *) dpkg-deb -x \$d /cross/$arch ;;
            esac
        done
        ln -sfn usr/lib /cross/$arch/lib
        rm -rf /cross/debs-$arch" >&2
    [ -d "$dir/usr/libexec/swift/lib/swift_static" ] || die "the $arch sysroot has no Swift runtime (swiftlang:$arch $version)"
    echo "$stamp" > "$CACHE/sysroot-$arch.stamp"
}

cmd=${1:-}; [ $# -gt 0 ] && shift
case "$cmd" in
root)
    make_root
    echo "$ROOT" ;;
sysroot)
    [ $# = 1 ] || die "usage: Tools/debian13.sh sysroot ARCH"
    make_root
    make_sysroot "$1"
    echo "/cross/$1" ;;
run)
    [ $# -gt 0 ] || die "usage: Tools/debian13.sh run CMD [ARG…]"
    make_root
    mkdir -p "$ROOT/src"
    rsync -a --delete --exclude /.git --exclude '/.build*' --exclude '/.swiftpm' --exclude 'Package.resolved' "$REPO/" "$ROOT/src/"
    in_root /bin/sh -c 'cd /src && exec "$@"' sh "$@" ;;
*)
    sed -n '2,9p' "$0" >&2; exit 64 ;;
esac
exit
}

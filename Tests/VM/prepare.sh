#!/usr/bin/env bash
# prepare.sh — build the cache that run-in-vm.sh boots from. Idempotent; a
# second run with nothing changed returns in a few milliseconds.
#
#   Tests/VM/prepare.sh [--force] [--update-kernel] [--quiet]
#
# Cache dir: $KIOSK_VM_CACHE, default <repo>/.build-vm/ (git-ignored via .build-*/).
#   kernel.version             Debian kernel ABI name in use, e.g. 6.1.0-56-amd64
#   debs/linux-image-*.deb     the downloaded package (not installed)
#   kernel-$KVER/              dpkg-deb -x of it, plus modules.dep from depmod
#   vmlinux-$KVER              the ELF unpacked from vmlinuz's xz payload (PVH boot)
#   initramfs-$KVER.cpio       busybox-static + the needed .ko files + guest/init
#   modeset                    Tests/VM/ref/modeset.c built against libdrm
#   stamp-exec                 Tests/VM/ref/stamp-exec.c (exec → first frame timing)
#   stamp                      hash of the inputs; a mismatch rebuilds
#
# Kernel choice: $KIOSK_VM_KERNEL if set, else the one already cached, else what
# `linux-image-amd64` depends on today (--update-kernel re-asks apt).
# Host packages the harness needs are apt-get installed when missing (root).
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
CACHE=${KIOSK_VM_CACHE:-$REPO/.build-vm}
FORCE=0 UPDATE_KERNEL=0 QUIET=0
for a in "$@"; do
  case $a in
    --force) FORCE=1 ;;
    --update-kernel) UPDATE_KERNEL=1 ;;
    --quiet|-q) QUIET=1 ;;
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    *) echo "prepare.sh: unknown option $a" >&2; exit 2 ;;
  esac
done
log() { [ "$QUIET" = 1 ] || echo "prepare: $*" >&2; }
die() { echo "prepare: ERROR: $*" >&2; exit 1; }

# Modules loaded by the initramfs, dependencies resolved from modules.dep.
# (i2c-stub / mxc4005 / anything else: `modprobe` inside the guest, the
# module tree is bind-mounted at /lib/modules/$KVER there.)
INITRD_MODULES="virtio_pci 9pnet_virtio 9p overlay evdev virtio_input uinput i2c-dev bochs virtio-gpu"
HOST_PKGS="qemu-system-x86 busybox-static kmod xz-utils cpio gcc libc6-dev libdrm-dev pkg-config i2c-tools udev python3"

mkdir -p "$CACHE"
exec 9>"$CACHE/.prepare.lock"
flock 9

# --- kernel version --------------------------------------------------------
KVER=${KIOSK_VM_KERNEL:-}
if [ -z "$KVER" ] && [ "$UPDATE_KERNEL" = 0 ] && [ -s "$CACHE/kernel.version" ]; then
  KVER=$(cat "$CACHE/kernel.version")
fi

# --- fast path: everything present and inputs unchanged ---------------------
inputs_hash() {
  cat "$HERE/prepare.sh" "$HERE/guest/init" "$HERE/ref/modeset.c" "$HERE/ref/stamp-exec.c" | sha256sum | cut -c1-16
}
KEY="$(inputs_hash) $KVER"
if [ "$FORCE" = 0 ] && [ -n "$KVER" ] && [ -s "$CACHE/stamp" ] &&
   [ "$(cat "$CACHE/stamp")" = "$KEY" ] &&
   [ -s "$CACHE/vmlinux-$KVER" ] && [ -s "$CACHE/initramfs-$KVER.cpio" ] &&
   [ -x "$CACHE/modeset" ] && [ -x "$CACHE/stamp-exec" ] && command -v qemu-system-x86_64 >/dev/null; then
  exit 0
fi

# --- host packages -----------------------------------------------------------
missing=$(dpkg-query -W -f='${db:Status-Abbrev} ${Package}\n' $HOST_PKGS 2>/dev/null |
          awk '$1 != "ii" {print $NF}' || true)
for p in $HOST_PKGS; do   # packages dpkg has never heard of are not listed at all
  dpkg-query -W "$p" >/dev/null 2>&1 || missing="$missing $p"
done
missing=$(echo $missing)
if [ -n "$missing" ]; then
  log "installing host packages: $missing"
  [ "$(id -u)" = 0 ] || die "need root to apt-get install: $missing"
  apt-get update -qq >/dev/null || die "apt-get update failed"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >/dev/null ||
    die "apt-get install $missing failed"
fi

resolve_kver() {  # the ABI name linux-image-amd64 depends on today
  local pkg
  dep() { apt-cache depends linux-image-amd64 2>/dev/null | awk '/Depends: linux-image-[0-9]/{print $2; exit}'; }
  pkg=$(dep)
  if [ -z "$pkg" ]; then apt-get update -qq >/dev/null 2>&1 || true; pkg=$(dep); fi
  [ -n "$pkg" ] || die "cannot resolve the kernel package behind linux-image-amd64 (apt-cache depends)"
  echo "${pkg#linux-image-}"
}
download() {  # download KVER -> prints the .deb path
  local deb
  deb=$(ls "$CACHE"/debs/linux-image-"$1"_*.deb 2>/dev/null | head -n1 || true)
  if [ -z "$deb" ]; then
    log "downloading linux-image-$1"
    (cd "$CACHE/debs" && apt-get download "linux-image-$1" >/dev/null 2>&1) ||
      { apt-get update -qq >/dev/null 2>&1 || true
        (cd "$CACHE/debs" && apt-get download "linux-image-$1" >/dev/null 2>&1); } || return 1
    deb=$(ls "$CACHE"/debs/linux-image-"$1"_*.deb 2>/dev/null | head -n1)
  fi
  [ -n "$deb" ] && echo "$deb"
}
if [ -z "$KVER" ]; then
  KVER=$(resolve_kver)
  KEY="$(inputs_hash) $KVER"
fi
log "kernel $KVER, cache $CACHE"

# --- kernel package, extracted ------------------------------------------------
KROOT=$CACHE/kernel-$KVER
if [ ! -s "$KROOT/lib/modules/$KVER/modules.dep" ] || [ ! -s "$KROOT/boot/vmlinuz-$KVER" ]; then
  mkdir -p "$CACHE/debs"
  if ! deb=$(download "$KVER"); then
    # Debian drops superseded kernel ABIs from the archive: fall back to today's.
    [ -z "${KIOSK_VM_KERNEL:-}" ] || die "apt-get download linux-image-$KVER failed"
    new=$(resolve_kver)
    [ "$new" != "$KVER" ] || die "apt-get download linux-image-$KVER failed"
    log "linux-image-$KVER is gone from the archive; using $new"
    KVER=$new KEY="$(inputs_hash) $new" KROOT=$CACHE/kernel-$new
    deb=$(download "$KVER") || die "apt-get download linux-image-$KVER failed"
  fi
  log "extracting $(basename "$deb")"
  rm -rf "$KROOT.tmp" "$KROOT"
  dpkg-deb -x "$deb" "$KROOT.tmp"
  depmod -b "$KROOT.tmp" "$KVER"
  mv "$KROOT.tmp" "$KROOT"
fi

# --- vmlinux ELF from the bzImage's xz payload ---------------------------------
VMLINUX=$CACHE/vmlinux-$KVER
is_elf() { [ "$(head -c4 "$1" 2>/dev/null | od -An -tx1 | tr -d ' \n')" = 7f454c46 ]; }
if ! is_elf "$VMLINUX"; then
  log "unpacking vmlinux"
  z=$KROOT/boot/vmlinuz-$KVER
  off=$(LC_ALL=C grep -obUaP '\xFD7zXZ\x00' "$z" | head -n1 | cut -d: -f1)
  [ -n "$off" ] || die "no xz payload in $z"
  tail -c +"$((off + 1))" "$z" | xz -dc > "$VMLINUX.tmp" 2>/dev/null || true  # trailing data: ignore
  is_elf "$VMLINUX.tmp" || die "payload of $z is not an ELF"
  mv "$VMLINUX.tmp" "$VMLINUX"
fi

# --- initramfs -----------------------------------------------------------------
INITRD=$CACHE/initramfs-$KVER.cpio
if [ "$FORCE" = 1 ] || [ ! -s "$CACHE/stamp" ] || [ "$(cat "$CACHE/stamp")" != "$KEY" ] || [ ! -s "$INITRD" ]; then
  log "building initramfs"
  D=$CACHE/initramfs.d
  rm -rf "$D"
  mkdir -p "$D"/{bin,dev,proc,sys,lower,rw,newroot,ctl,lib/modules}
  cp /bin/busybox "$D/bin/busybox"
  { ldd "$D/bin/busybox" 2>&1 || true; } | grep -q 'not a dynamic' || die "/bin/busybox is not static (install busybox-static)"
  for app in $("$D/bin/busybox" --list); do
    [ "$app" = busybox ] || ln -s busybox "$D/bin/$app"
  done
  : > "$D/modules.list"
  for m in $INITRD_MODULES; do
    modprobe -d "$KROOT" -S "$KVER" --show-depends "$m" ||
      die "module $m not found in $KVER"
  done | awk '$1 == "insmod" && !seen[$2]++ {print $2}' | while read -r ko; do
    # Without the appended signature (objcopy drops trailing data): saves the
    # RSA/SHA256 check per module, noticeable under TCG. The kernel only taints.
    objcopy "$ko" "$D/lib/modules/$(basename "$ko")"
    basename "$ko" >> "$D/modules.list"
  done
  grep -q 'virtio-gpu.ko' "$D/modules.list" || die "module list incomplete"
  install -m 0755 "$HERE/guest/init" "$D/init"
  echo "$KVER" > "$D/kver"
  (cd "$D" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0) > "$INITRD.tmp"
  mv "$INITRD.tmp" "$INITRD"
  rm -rf "$D"
fi

# --- reference libdrm program ---------------------------------------------------------
log "building modeset"
gcc -O2 -Wall -Wextra -o "$CACHE/modeset.tmp" "$HERE/ref/modeset.c" $(pkg-config --cflags --libs libdrm)
mv "$CACHE/modeset.tmp" "$CACHE/modeset"
gcc -O2 -Wall -Wextra -o "$CACHE/stamp-exec.tmp" "$HERE/ref/stamp-exec.c"
mv "$CACHE/stamp-exec.tmp" "$CACHE/stamp-exec"

echo "$KVER" > "$CACHE/kernel.version"
echo "$KEY" > "$CACHE/stamp"
log "ready"

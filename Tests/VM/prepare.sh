#!/usr/bin/env bash
# prepare.sh — build the cache that run-in-vm.sh boots from. Idempotent; a
# second run with nothing changed returns in a few milliseconds.
#
#   Tests/VM/prepare.sh [--arch amd64|arm64] [--force] [--update-kernel] [--quiet]
#
# Cache dir: $KIOSK_VM_CACHE, default <repo>/.build-vm/ (git-ignored via .build-*/); with
# --arch arm64 its arm64/ subdirectory, which also holds (see "arm64" below):
#   apt/                       an apt configuration of its own (sources, lists, archives, an
#                              empty dpkg status): Debian 13's arm64 packages, the host's apt untouched
#   rootfs/, rootfs.key        the guest's arm64 root, dpkg-deb -x of ROOTFS_PKGS' closure, and
#                              the hash of what it was made from
#   uinput-touch               Tests/VM/ref/uinput-touch.c for aarch64 (modeset, stamp-exec too)
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
# `linux-image-amd64` (`linux-image-arm64`) depends on today (--update-kernel re-asks apt).
# Host packages the harness needs are apt-get installed when missing (root).
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
CACHE=${KIOSK_VM_CACHE:-$REPO/.build-vm}
FORCE=0 UPDATE_KERNEL=0 QUIET=0 ARCH=amd64
while [ $# -gt 0 ]; do
  a=$1; shift
  case $a in
    --arch) ARCH=${1:-}; shift ;;
    --force) FORCE=1 ;;
    --update-kernel) UPDATE_KERNEL=1 ;;
    --quiet|-q) QUIET=1 ;;
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    *) echo "prepare.sh: unknown option $a" >&2; exit 2 ;;
  esac
done
case $ARCH in amd64|arm64) ;; *) echo "prepare.sh: --arch must be amd64 or arm64" >&2; exit 2 ;; esac
log() { [ "$QUIET" = 1 ] || echo "prepare: $*" >&2; }
die() { echo "prepare: ERROR: $*" >&2; exit 1; }

# Modules loaded by the initramfs, dependencies resolved from modules.dep.
# (i2c-stub / mxc4005 / anything else: `modprobe` inside the guest, the
# module tree is bind-mounted at /lib/modules/$KVER there.)
INITRD_MODULES="virtio_pci 9pnet_virtio 9p overlay evdev virtio_input uinput i2c-dev bochs virtio-gpu"
HOST_PKGS="qemu-system-x86 busybox-static kmod xz-utils cpio gcc libc6-dev libdrm-dev pkg-config i2c-tools udev python3"
# Per architecture: the kernel's metapackage, the C compiler and objcopy for the guest's
# programs, how they find libdrm, the busybox of the initramfs. apt-get and apt-cache go
# through "${APTO[@]}" (empty: the host's own configuration).
KMETA=linux-image-amd64 CC=gcc OBJCOPY=objcopy BUSYBOX=/bin/busybox
APTO=()
if [ "$ARCH" = arm64 ]; then
  # arm64: qemu-system-aarch64 (-M virt, TCG), Debian 13's arm64 kernel and a root assembled
  # from Debian 13's arm64 packages (the guest cannot use the host's root). Trixie, not the
  # host's bookworm: the arm64 kiosk-hud is built against Debian 13's sysroot
  # (Tools/cross-build.sh), so its glibc (2.41) is the one it needs, and an arm64 board is
  # installed with today's Debian (or Raspberry Pi OS, its derivative).
  CACHE=$CACHE/arm64
  INITRD_MODULES="virtio_pci 9pnet_virtio 9p overlay evdev virtio_input uinput i2c-dev virtio-gpu"
  HOST_PKGS="qemu-system-arm qemu-efi-aarch64 gcc-aarch64-linux-gnu libc6-dev-arm64-cross libdrm-dev busybox-static kmod xz-utils cpio python3"
  KMETA=linux-image-arm64 CC=aarch64-linux-gnu-gcc OBJCOPY=aarch64-linux-gnu-objcopy BUSYBOX=$CACHE/rootfs/bin/busybox
  # What the guest scripts and kiosk-hud need (and their dependencies); Debian's plymouth client
  # is unpacked without its own (systemd, initramfs-tools: its client needs libply alone).
  ROOTFS_PKGS="bash coreutils grep sed mawk findutils util-linux kmod udev busybox-static
    libdrm2 libinput10 libudev1 libfreetype6 libpng16-16t64 zlib1g fonts-dejavu-core"
  ROOTFS_NODEPS="plymouth libplymouth5"
  A=$CACHE/apt
  APTO=(-o "Dir::Etc::SourceList=$A/sources.list" -o "Dir::Etc::SourceParts=$A/none"
        -o "Dir::Etc::Preferences=$A/none/prefs" -o "Dir::Etc::PreferencesParts=$A/none"
        -o "Dir::State=$A/state" -o "Dir::State::Lists=$A/lists" -o "Dir::State::status=$A/status"
        -o "Dir::Cache=$A/cache" -o APT::Architecture=arm64 -o "APT::Architectures::=arm64"
        -o Debug::NoLocking=1 -o APT::Sandbox::User=root)
fi

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
  { cat "$HERE/prepare.sh" "$HERE/guest/init" "$HERE/ref/modeset.c" "$HERE/ref/stamp-exec.c"
    [ "$ARCH" = amd64 ] || cat "$HERE/ref/uinput-touch.c"; } | sha256sum | cut -c1-16
}
# What run-in-vm.sh boots: the PVH ELF on x86, the kernel package's own image (gzip'd Image,
# QEMU unpacks it) on arm64.
boot_kernel() { if [ "$ARCH" = amd64 ]; then echo "$CACHE/vmlinux-$1"; else echo "$CACHE/kernel-$1/boot/vmlinuz-$1"; fi; }
KEY="$(inputs_hash) $KVER"
if [ "$FORCE" = 0 ] && [ -n "$KVER" ] && [ -s "$CACHE/stamp" ] &&
   [ "$(cat "$CACHE/stamp")" = "$KEY" ] &&
   [ -s "$(boot_kernel "$KVER")" ] && [ -s "$CACHE/initramfs-$KVER.cpio" ] &&
   [ -x "$CACHE/modeset" ] && [ -x "$CACHE/stamp-exec" ] &&
   { [ "$ARCH" = amd64 ] && command -v qemu-system-x86_64 >/dev/null ||
     [ "$ARCH" = arm64 ] && [ -e "$CACHE/rootfs/bin/bash" ] && command -v qemu-system-aarch64 >/dev/null; }; then
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

if [ "$ARCH" = arm64 ]; then
  mkdir -p "$A/none" "$A/state" "$A/lists/partial" "$A/cache/archives/partial"
  [ -e "$A/status" ] || : > "$A/status"
  {
    for suite in trixie trixie-updates; do
      echo "deb [arch=arm64 signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian $suite main"
    done
    echo "deb [arch=arm64 signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian-security trixie-security main"
  } > "$A/sources.list"
  ls "$A"/lists/*_trixie_main_binary-arm64_Packages* >/dev/null 2>&1 || { log "apt-get update (arm64, own configuration)"; apt-get "${APTO[@]}" update -qq >/dev/null || die "apt-get update (arm64) failed"; }
fi
resolve_kver() {  # the ABI name $KMETA depends on today
  local pkg
  dep() { apt-cache "${APTO[@]}" depends "$KMETA" 2>/dev/null | awk '/Depends: linux-image-[0-9]/{print $2; exit}'; }
  pkg=$(dep)
  if [ -z "$pkg" ]; then apt-get "${APTO[@]}" update -qq >/dev/null 2>&1 || true; pkg=$(dep); fi
  [ -n "$pkg" ] || die "cannot resolve the kernel package behind $KMETA (apt-cache depends)"
  echo "${pkg#linux-image-}"
}
download() {  # download KVER -> prints the .deb path
  local deb
  deb=$(ls "$CACHE"/debs/linux-image-"$1"_*.deb 2>/dev/null | head -n1 || true)
  if [ -z "$deb" ]; then
    log "downloading linux-image-$1"
    (cd "$CACHE/debs" && apt-get "${APTO[@]}" download "linux-image-$1" >/dev/null 2>&1) ||
      { apt-get "${APTO[@]}" update -qq >/dev/null 2>&1 || true
        (cd "$CACHE/debs" && apt-get "${APTO[@]}" download "linux-image-$1" >/dev/null 2>&1); } || return 1
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
  # Debian 13's package has its modules in /usr/lib/modules (merged /usr).
  [ -d "$KROOT.tmp/lib" ] || ln -s usr/lib "$KROOT.tmp/lib"
  depmod -b "$KROOT.tmp" "$KVER"
  mv "$KROOT.tmp" "$KROOT"
fi

# --- vmlinux ELF from the bzImage's xz payload ---------------------------------
VMLINUX=$CACHE/vmlinux-$KVER
is_elf() { [ "$(head -c4 "$1" 2>/dev/null | od -An -tx1 | tr -d ' \n')" = 7f454c46 ]; }
if [ "$ARCH" = amd64 ] && ! is_elf "$VMLINUX"; then
  log "unpacking vmlinux"
  z=$KROOT/boot/vmlinuz-$KVER
  off=$(LC_ALL=C grep -obUaP '\xFD7zXZ\x00' "$z" | head -n1 | cut -d: -f1)
  [ -n "$off" ] || die "no xz payload in $z"
  tail -c +"$((off + 1))" "$z" | xz -dc > "$VMLINUX.tmp" 2>/dev/null || true  # trailing data: ignore
  is_elf "$VMLINUX.tmp" || die "payload of $z is not an ELF"
  mv "$VMLINUX.tmp" "$VMLINUX"
fi

# --- arm64: the guest's root, from Debian's arm64 packages ---------------------------
# No maintainer scripts run: what they would have made that the guest needs is made here
# (merged /usr, awk and sh, the accounts and groups udev's rules name, mount points).
# Rebuilt when the package lists or ROOTFS_REV (bumped when the steps below change) do.
ROOTFS=$CACHE/rootfs ROOTFS_REV=2
RKEY=$(echo "$ROOTFS_REV ${ROOTFS_PKGS:-} ${ROOTFS_NODEPS:-}" | tr -s ' \n' ' ' | sha256sum | cut -c1-16)
if [ "$ARCH" = arm64 ] && { [ "$FORCE" = 1 ] || [ "$(cat "$ROOTFS.key" 2>/dev/null)" != "$RKEY" ] || [ ! -e "$ROOTFS/bin/bash" ]; }; then
  log "assembling the arm64 root (apt-get install --download-only, dpkg-deb -x)"
  AR=$A/cache/archives
  rm -f "$AR"/*.deb
  apt-get "${APTO[@]}" install --download-only -y -qq --no-install-recommends $ROOTFS_PKGS >/dev/null ||
    { apt-get "${APTO[@]}" update -qq >/dev/null 2>&1 || true
      apt-get "${APTO[@]}" install --download-only -y -qq --no-install-recommends $ROOTFS_PKGS >/dev/null; } ||
    die "apt-get install --download-only (arm64) $ROOTFS_PKGS failed"
  (cd "$AR" && apt-get "${APTO[@]}" download $ROOTFS_NODEPS >/dev/null 2>&1) || die "apt-get download (arm64) $ROOTFS_NODEPS failed"
  T=$ROOTFS.tmp
  rm -rf "$T"; mkdir -p "$T"
  for deb in "$AR"/*.deb; do dpkg-deb -x "$deb" "$T" || die "dpkg-deb -x $deb failed"; done
  for d in bin sbin lib; do
    if [ -d "$T/$d" ] && [ ! -L "$T/$d" ]; then mkdir -p "$T/usr/$d"; cp -a "$T/$d/." "$T/usr/$d/"; rm -rf "${T:?}/$d"; fi
    ln -s "usr/$d" "$T/$d"
  done
  ln -sf mawk "$T/usr/bin/awk"; ln -sf bash "$T/usr/bin/sh"
  mkdir -p "$T"/{proc,sys,dev,run,tmp,root,var/tmp,etc/udev/rules.d}
  chmod 1777 "$T/tmp" "$T/var/tmp"
  printf '%s\n' 'root:x:0:0:root:/root:/bin/bash' 'nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin' > "$T/etc/passwd"
  printf '%s\n' root:x:0: tty:x:5: disk:x:6: lp:x:7: kmem:x:15: dialout:x:20: cdrom:x:24: audio:x:29: \
    tape:x:26: video:x:44: input:x:101: kvm:x:102: render:x:103: sgx:x:104: nogroup:x:65534: > "$T/etc/group"
  echo kiosk-vm > "$T/etc/hostname"
  rm -rf "$ROOTFS"; mv "$T" "$ROOTFS"
  echo "$RKEY" > "$ROOTFS.key"
fi

# --- initramfs -----------------------------------------------------------------
INITRD=$CACHE/initramfs-$KVER.cpio
if [ "$FORCE" = 1 ] || [ ! -s "$CACHE/stamp" ] || [ "$(cat "$CACHE/stamp")" != "$KEY" ] || [ ! -s "$INITRD" ]; then
  log "building initramfs"
  D=$CACHE/initramfs.d
  rm -rf "$D"
  mkdir -p "$D"/{bin,dev,proc,sys,lower,rw,newroot,ctl,lib/modules}
  cp "$BUSYBOX" "$D/bin/busybox"
  { ldd "$D/bin/busybox" 2>&1 || true; } | grep -q 'not a dynamic' || die "$BUSYBOX is not static (install busybox-static)"
  # The applets of the host's busybox-static (Debian's arm64 one is the same build).
  for app in $(/bin/busybox --list); do
    [ "$app" = busybox ] || ln -s busybox "$D/bin/$app"
  done
  : > "$D/modules.list"
  for m in $INITRD_MODULES; do
    modprobe -d "$KROOT" -S "$KVER" --show-depends "$m" ||
      die "module $m not found in $KVER"
  done | awk '$1 == "insmod" && !seen[$2]++ {print $2}' | while read -r ko; do
    # Without the appended signature (objcopy drops trailing data): saves the
    # RSA/SHA256 check per module, noticeable under TCG. The kernel only taints.
    # Debian 13's modules are xz-compressed: unpacked first (no decompression in the guest).
    k=$(basename "${ko%.xz}")
    case $ko in *.xz) xz -dc "$ko" > "$D/$k.tmp"; ko=$D/$k.tmp ;; esac
    "$OBJCOPY" "$ko" "$D/lib/modules/$k"
    rm -f "$D/$k.tmp"
    echo "$k" >> "$D/modules.list"
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
if [ "$ARCH" = amd64 ]; then
  DRM=($(pkg-config --cflags --libs libdrm))
else
  # The host's libdrm headers (2.4.114; the guest's 2.4.124 keeps their ABI) apart from the host's own
  # /usr/include; linked against the arm64 root's libdrm.so.2. uinput-touch is built here too.
  mkdir -p "$CACHE/include"
  cp /usr/include/xf86drm.h /usr/include/xf86drmMode.h "$CACHE/include/"
  cp -r /usr/include/libdrm "$CACHE/include/"
  # The guest's libdrm wants glibc 2.38 symbols the cross compiler's (2.36) lacks: the guest's
  # own glibc resolves them at run time.
  DRM=(-I"$CACHE/include" -I"$CACHE/include/libdrm" "$ROOTFS/usr/lib/aarch64-linux-gnu/libdrm.so.2" -Wl,--allow-shlib-undefined)
  $CC -O2 -Wall -o "$CACHE/uinput-touch.tmp" "$HERE/ref/uinput-touch.c" || die "$CC uinput-touch.c failed"
  mv "$CACHE/uinput-touch.tmp" "$CACHE/uinput-touch"
fi
$CC -O2 -Wall -Wextra -o "$CACHE/modeset.tmp" "$HERE/ref/modeset.c" "${DRM[@]}" || die "$CC modeset.c failed"
mv "$CACHE/modeset.tmp" "$CACHE/modeset"
$CC -O2 -Wall -Wextra -o "$CACHE/stamp-exec.tmp" "$HERE/ref/stamp-exec.c" || die "$CC stamp-exec.c failed"
mv "$CACHE/stamp-exec.tmp" "$CACHE/stamp-exec"

echo "$KVER" > "$CACHE/kernel.version"
echo "$KEY" > "$CACHE/stamp"
log "ready"

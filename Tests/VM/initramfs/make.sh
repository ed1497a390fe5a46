#!/bin/bash
# make.sh KIOSK_HUD DEFAULTS OUT [--deb DEB] [--cache DIR] [--without-hook | --unreadable PATH] — the test guest's initramfs,
# made by the host's own mkinitramfs (initramfs-tools) for the guest's kernel (prepare.sh's cache),
# with kiosk-hud's hook and scripts from dist/initramfs-tools (KIOSK_HUD installed at
# /usr/bin/kiosk-hud in it, DEFAULTS as its /etc/default/kiosk-hud) and the guest's plumbing (this
# directory: the 9p root under an overlay, the set-up run, the hold before the root is mounted,
# `--hold`'s drivers blacklisted). --without-hook: the same without kiosk-hud, the display's driver
# listed instead (the size kiosk-hud adds, a boot without it). --unreadable PATH: a picture the
# settings name (e.g. --logo's) emptied in the initramfs after kiosk-hud's hook copied it
# (hooks/kiosk-vm-unreadable), so that the initramfs's daemon fails to start while the real
# root's reads it. --deb DEB: kiosk-hud's hook, scripts and program as the package installs them
# (/usr/share/initramfs-tools, /usr/bin/kiosk-hud: what its dpkg trigger's update-initramfs
# runs; the package must ask for that trigger) instead of dist/'s and KIOSK_HUD.
# --cache DIR: the hook's KIOSK_HUD_CACHE (the glyphs and the initramfs's first frame kept by an
# earlier boot's daemon; default: the host's /var/cache/kiosk-hud).
# Prints OUT's size in bytes.
# Root only: the kernel's modules are bind-mounted at /lib/modules/KVER in a mount namespace of
# its own (the host's /lib/modules is not touched).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../../.." && pwd)
CACHE=${KIOSK_VM_CACHE:-$REPO/.build-vm}
BIN=$1 DEFAULTS=$2 OUT=$3 HOOK=yes UNREADABLE= DEB= CACHE_DIR=
shift 3
while [ $# -gt 0 ]; do
  case $1 in
    --without-hook) HOOK=no ;;
    --deb) [ $# -ge 2 ] || { echo "make.sh: --deb needs a package" >&2; exit 2; }; DEB=$2; shift ;;
    --cache) [ $# -ge 2 ] || { echo "make.sh: --cache needs a directory" >&2; exit 2; }; CACHE_DIR=$2; shift ;;
    --unreadable) [ $# -ge 2 ] || { echo "make.sh: --unreadable needs a path" >&2; exit 2; }; UNREADABLE=$2; shift ;;
    *) echo "make.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
[ -z "$UNREADABLE" ] || [ "$HOOK" = yes ] || { echo "make.sh: --unreadable needs kiosk-hud's hook" >&2; exit 2; }
command -v mkinitramfs >/dev/null || { echo "make.sh: no mkinitramfs (apt-get install initramfs-tools)" >&2; exit 1; }
# The guest's kernel and its modules: prepare.sh's cache (made on a fresh checkout; a no-op when fresh).
"$HERE/../prepare.sh" --quiet || { echo "make.sh: Tests/VM/prepare.sh failed" >&2; exit 1; }
KVER=$(cat "$CACHE/kernel.version")
MODS=$(realpath "$CACHE/kernel-$KVER/lib/modules/$KVER")
BOOTDIR=$(realpath "$CACHE/kernel-$KVER/boot")
conf=$(mktemp -d) unpacked=$(mktemp -d)
trap 'rm -rf "$conf" "$unpacked"' EXIT
SOURCE=$REPO/dist/initramfs-tools
if [ -n "$DEB" ]; then
  dpkg-deb -x "$DEB" "$unpacked" || { echo "make.sh: cannot unpack $DEB" >&2; exit 1; }
  dpkg-deb --ctrl-tarfile "$DEB" | tar -xO ./triggers 2>/dev/null | grep -qx 'activate-noawait update-initramfs' ||
    { echo "make.sh: $DEB does not trigger update-initramfs" >&2; exit 1; }
  SOURCE=$unpacked/usr/share/initramfs-tools BIN=$unpacked/usr/bin/kiosk-hud
  [ -x "$SOURCE/hooks/kiosk-hud" ] && [ -x "$BIN" ] || { echo "make.sh: $DEB has no initramfs hook or program" >&2; exit 1; }
fi
cp -r "$HERE/initramfs.conf" "$HERE/modules" "$HERE/scripts" "$conf/"
mkdir -p "$conf/hooks" "$conf/conf.d"
if [ "$HOOK" = yes ]; then
  cp -r "$SOURCE/." "$conf/"
  if [ -n "$UNREADABLE" ]; then
    install -m 0755 "$HERE/hooks/kiosk-vm-unreadable" "$conf/hooks/kiosk-vm-unreadable"
    export KIOSK_VM_UNREADABLE=$UNREADABLE
  fi
else
  # The display's driver as a board's initramfs has it without the hook (the guest's udev does
  # not load drivers: its module set is fixed).
  echo bochs >> "$conf/modules"
fi
export KIOSK_HUD_INITRAMFS_CONF=$conf/kiosk-hud.conf
{ cat "$HERE/kiosk-hud.conf"; printf 'KIOSK_HUD_BINARY=%q\nKIOSK_HUD_PATH=/usr/bin/kiosk-hud\nKIOSK_HUD_DEFAULTS=%q\n' "$BIN" "$DEFAULTS"
  [ -z "$CACHE_DIR" ] || printf 'KIOSK_HUD_CACHE=%q\n' "$CACHE_DIR"; } > "$KIOSK_HUD_INITRAMFS_CONF"
# (A container may have no /lib/modules at all: an empty one is what a kernel package makes.)
[ -d /lib/modules ] || mkdir -p /lib/modules
unshare -m sh -ec '
  mount -t tmpfs tmpfs /lib/modules
  mkdir -p "/lib/modules/$1"
  mount --bind "$2" "/lib/modules/$1"
  mount --bind "$3" /boot
  mkinitramfs -d "$4" -o "$5" "$1"
' sh "$KVER" "$MODS" "$BOOTDIR" "$conf" "$OUT" >&2
stat -c %s "$OUT"

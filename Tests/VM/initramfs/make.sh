#!/bin/bash
# make.sh KIOSK_HUD DEFAULTS OUT [--without-hook] — the test guest's initramfs, made by the host's
# own mkinitramfs (initramfs-tools) for the guest's kernel (prepare.sh's cache), with kiosk-hud's
# hook and scripts from dist/initramfs-tools (KIOSK_HUD installed at /usr/bin/kiosk-hud in it,
# DEFAULTS as its /etc/default/kiosk-hud) and the guest's plumbing (this directory: the 9p root
# under an overlay, the set-up run, the hold before the root is mounted). --without-hook: the
# same without kiosk-hud, the display's driver listed instead (the size kiosk-hud adds, a boot
# without it). Prints OUT's size in bytes.
# Root only: the kernel's modules are bind-mounted at /lib/modules/KVER in a mount namespace of
# its own (the host's /lib/modules is not touched).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../../.." && pwd)
CACHE=${KIOSK_VM_CACHE:-$REPO/.build-vm}
BIN=$1 DEFAULTS=$2 OUT=$3 HOOK=yes
[ "${4:-}" = --without-hook ] && HOOK=no
command -v mkinitramfs >/dev/null || { echo "make.sh: no mkinitramfs (apt-get install initramfs-tools)" >&2; exit 1; }
# The guest's kernel and its modules: prepare.sh's cache (made on a fresh checkout; a no-op when fresh).
"$HERE/../prepare.sh" --quiet || { echo "make.sh: Tests/VM/prepare.sh failed" >&2; exit 1; }
KVER=$(cat "$CACHE/kernel.version")
MODS=$(realpath "$CACHE/kernel-$KVER/lib/modules/$KVER")
BOOTDIR=$(realpath "$CACHE/kernel-$KVER/boot")
conf=$(mktemp -d)
trap 'rm -rf "$conf"' EXIT
cp -r "$HERE/initramfs.conf" "$HERE/modules" "$HERE/scripts" "$conf/"
mkdir -p "$conf/hooks" "$conf/conf.d"
if [ "$HOOK" = yes ]; then
  cp -r "$REPO/dist/initramfs-tools/." "$conf/"
else
  # The display's driver as a board's initramfs has it without the hook (the guest's udev does
  # not load drivers: its module set is fixed).
  echo bochs >> "$conf/modules"
fi
export KIOSK_HUD_INITRAMFS_CONF=$conf/kiosk-hud.conf
{ cat "$HERE/kiosk-hud.conf"; printf 'KIOSK_HUD_BINARY=%q\nKIOSK_HUD_PATH=/usr/bin/kiosk-hud\nKIOSK_HUD_DEFAULTS=%q\n' "$BIN" "$DEFAULTS"; } > "$KIOSK_HUD_INITRAMFS_CONF"
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

#!/bin/bash
# setup.sh PACKAGE.deb KIOSK_APP screens|none reboot|poweroff — the set-up of the shutdown test
# (Tests/KioskDRMTests/VMShutdownTests.swift), run by `run-in-vm.sh --systemd` in the guest's
# root before systemd boots it as PID 1 (the host's Debian 12 under a tmpfs overlay, as the boot
# test's Tests/VM/boot/setup.sh says: what is written here lasts for this boot only).
#
# The same boot in every run: kiosk-hud's package installed (dpkg -i: its postinst enables the
# splash and the shutdown screens), the boot splash itself masked (the boot suite tests it; here
# the boot is the kiosk app's alone, and short), a kiosk app from
# dist/systemd/kiosk-app.service.example whose program is KIOSK_APP (ref/kiosk-app.c: DRM
# master, one colour, held until SIGTERM). `none`: the shutdown screens masked too — the same
# boot without kiosk-hud's units, the shutdown to compare with.
#   kiosk-vm-warm.service  (screens) before the app: the screen's daemon run once with the
#        unit's own environment and arguments, until its first frame is in the frame cache
#        (warm.sh): a board's first shutdown writes it, every later one starts from it — this
#        is a later one
#   kiosk-vm-go.service    go.sh: once the app has drawn and the boot is finished, a
#        screendump, then the host asked to take screendumps at a fixed rate until QEMU exits
#        (vmhost.py's shutdown-watch), then `systemctl reboot|poweroff`
# Prints "ok NAME" / "FAIL NAME: why" / "info NAME: ...".
set -euo pipefail
DEB=$1 APP=$2 SCREENS=$3 HOW=$4
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../../.." && pwd)
DIST=$REPO/dist
: "${VM_OUT:?}" "${KIOSK_VM_CTL:?}" "${KIOSK_VM_GUEST:?}"
U=/etc/systemd/system
case $HOW in reboot) MODE=reboot ;; poweroff) MODE=shutdown ;; *) echo "FAIL setup-installed: HOW is reboot or poweroff, not $HOW"; exit 1 ;; esac

# --- a clean system, as the boot test's -------------------------------------------------------
. "$KIOSK_VM_GUEST/clean-system.sh"

# --- kiosk-hud's package; the splash masked; the screens masked for `none` ----------------------
if ! dpkg -i "$DEB" > "$VM_OUT/dpkg-$HOW-$SCREENS.log" 2>&1; then echo "FAIL setup-installed: dpkg -i: $(tail -5 "$VM_OUT/dpkg-$HOW-$SCREENS.log" | tr '\n' ' ')"; fi
systemctl mask kiosk-hud.service kiosk-hud.socket kiosk-hud-progress.service kiosk-hud-quit.service 2>/dev/null
SCREEN_UNITS="kiosk-hud-poweroff.service kiosk-hud-reboot.service kiosk-hud-halt.service kiosk-hud-kexec.service"
# shellcheck disable=SC2086
[ "$SCREENS" = none ] && systemctl mask $SCREEN_UNITS 2>/dev/null
# The look: text (the label in the bezel, no spinner: a still picture to compare, and no
# animation taking the guest's one slow CPU from the shutdown); both front ends, as at boot.
cat > /etc/default/kiosk-hud <<'DEFAULT'
KIOSK_HUD_ARGS="--scale 1 --plymouth-shutdown-mode text --plymouth-reboot-mode text"
KIOSK_HUD_PLYMOUTH="--plymouth --plymouth-boot-duration none"
DEFAULT
[ -e /usr/bin/plymouth ] || ln -s kiosk-hud /usr/bin/plymouth

# --- the kiosk app: the example unit, the stand-in as its program -------------------------------
install -m 0644 "$DIST/systemd/kiosk-app.service.example" "$U/kiosk-app.service"
install -d /usr/local/bin
install -m 0755 "$APP" /usr/local/bin/kiosk-app
systemctl enable kiosk-app.service 2>/dev/null

cat > /etc/kiosk-vm.env <<ENV
VM_OUT=$VM_OUT
KIOSK_VM_CTL=$KIOSK_VM_CTL
KIOSK_VM_GUEST=$KIOSK_VM_GUEST
KIOSK_VM_HOW=$HOW
KIOSK_VM_SCREENS=$SCREENS
ENV
OUTPUT="StandardOutput=append:$KIOSK_VM_CTL/stdout
StandardError=append:$KIOSK_VM_CTL/stderr"

if [ "$SCREENS" = screens ]; then
  cat > "$U/kiosk-vm-warm.service" <<UNIT
# The frame cache of the $MODE screen, written before the app starts: its daemon run with the
# unit's environment file and arguments (systemd expands them the same way), until its first
# frame is cached.
[Unit]
Description=Shutdown test: the $MODE screen's frame cache
Before=kiosk-app.service

[Service]
Type=oneshot
TimeoutStartSec=200
EnvironmentFile=-/etc/default/kiosk-hud
EnvironmentFile=/etc/kiosk-vm.env
ExecStart=/bin/bash $HERE/warm.sh /usr/bin/kiosk-hud daemon --plymouth-mode $MODE --retain --no-input \$KIOSK_HUD_PLYMOUTH \$KIOSK_HUD_ARGS
$OUTPUT

[Install]
WantedBy=multi-user.target
UNIT
  systemctl enable kiosk-vm-warm.service 2>/dev/null
fi
cat > "$U/kiosk-vm-go.service" <<UNIT
# The test's shutdown, once the app runs. Type=exec and no default dependencies: it waits for the
# boot to finish, so it must not be part of what the boot waits for.
[Unit]
Description=Shutdown test: systemctl $HOW
DefaultDependencies=no
After=kiosk-app.service

[Service]
Type=exec
EnvironmentFile=/etc/kiosk-vm.env
ExecStart=/bin/bash $HERE/go.sh
$OUTPUT

[Install]
WantedBy=multi-user.target
UNIT
systemctl enable kiosk-vm-go.service 2>/dev/null

# --- what was installed ---------------------------------------------------------------------------
want=enabled; [ "$SCREENS" = none ] && want=masked
ok=1
for u in $SCREEN_UNITS; do [ "$(systemctl is-enabled "$u" 2>/dev/null)" = "$want" ] || ok=0; done
[ -x /usr/bin/kiosk-hud ] && [ "$ok" = 1 ] && [ -L "$U/multi-user.target.wants/kiosk-app.service" ] && echo "ok setup-installed" ||
  echo "FAIL setup-installed: screens not $want: $(for u in $SCREEN_UNITS; do echo "$u=$(systemctl is-enabled "$u" 2>&1)"; done | tr '\n' ' ')"
echo "info setup: $HOW, the shutdown screens $want"

#!/bin/bash
# setup.sh PACKAGE.deb KIOSK_APP screens|none reboot|poweroff|update — the set-up of the shutdown test
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
# `update`: an offline update's boot instead (/system-update there: systemd boots
# system-update.target, as after PackageKit's or apt's offline-update preparation), with the boot
# splash running (not masked) and answering Plymouth's socket, and no app:
#   kiosk-vm-update.service  (wanted by system-update.target) update.sh: the update's screen
#        driven as an update tool does (`plymouth change-mode --updates`, `plymouth
#        system-update --progress=40`), a screendump of it, then /system-update removed and
#        `systemctl reboot` under the host's screendumps, as go.sh
# Prints "ok NAME" / "FAIL NAME: why" / "info NAME: ...".
set -euo pipefail
DEB=$1 APP=$2 SCREENS=$3 HOW=$4
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../../.." && pwd)
DIST=$REPO/dist
: "${VM_OUT:?}" "${KIOSK_VM_CTL:?}" "${KIOSK_VM_GUEST:?}"
U=/etc/systemd/system
case $HOW in reboot|update) MODE=reboot ;; poweroff) MODE=shutdown ;; *) echo "FAIL setup-installed: HOW is reboot, poweroff or update, not $HOW"; exit 1 ;; esac

# --- a clean system, as the boot test's -------------------------------------------------------
. "$KIOSK_VM_GUEST/clean-system.sh"

# --- kiosk-hud's package; the splash masked; the screens masked for `none` ----------------------
if ! dpkg -i "$DEB" > "$VM_OUT/dpkg-$HOW-$SCREENS.log" 2>&1; then echo "FAIL setup-installed: dpkg -i: $(tail -5 "$VM_OUT/dpkg-$HOW-$SCREENS.log" | tr '\n' ' ')"; fi
[ "$HOW" = update ] || systemctl mask kiosk-hud.service kiosk-hud.socket kiosk-hud-progress.service kiosk-hud-quit.service 2>/dev/null
SCREEN_UNITS="kiosk-hud-poweroff.service kiosk-hud-reboot.service kiosk-hud-halt.service kiosk-hud-kexec.service"
# shellcheck disable=SC2086
[ "$SCREENS" = none ] && systemctl mask $SCREEN_UNITS 2>/dev/null
# The look: text (the label in the bezel, no spinner: a still picture to compare, and no
# animation taking the guest's one slow CPU from the shutdown); both front ends, as at boot.
# The update's boot: no unit statuses on the details line and no animation, so that the update's
# screen is one known picture (`kiosk-hud render` of it).
EXTRA=
[ "$HOW" = update ] && EXTRA=" --plymouth-status none --animation-duration 0"
cat > /etc/default/kiosk-hud <<DEFAULT
KIOSK_HUD_ARGS="--scale 1 --plymouth-shutdown-mode text --plymouth-reboot-mode text$EXTRA"
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

# script_unit NAME DESCRIPTION TYPE AFTER WANTED_BY SCRIPT [UNIT_LINE]: the test's unit NAME that
# runs SCRIPT (bash, with the test's environment, its output the harness's), enabled.
script_unit() {
  cat > "$U/$1" <<UNIT
[Unit]
Description=Shutdown test: $2
DefaultDependencies=no
After=$4
${7:-}

[Service]
Type=$3
EnvironmentFile=/etc/kiosk-vm.env
ExecStart=/bin/bash $HERE/$6
$OUTPUT

[Install]
WantedBy=$5
UNIT
  systemctl enable "$1" 2>/dev/null
}

if [ "$HOW" = update ]; then
  # The offline update: its screen through Plymouth's socket, then the reboot, as an update tool.
  # Ordered before system-update.target, as systemd.offline-updates(7) asks: once the target is
  # reached, system-update-cleanup.service removes the link and the machine restarts. The link
  # dangles (the update's files are elsewhere): the follower's conditions must catch that too.
  ln -s /var/cache/kiosk-vm-update /system-update
  script_unit kiosk-vm-update.service "an offline update" oneshot "sysinit.target kiosk-hud.service" \
    system-update.target update.sh "Requires=sysinit.target
Before=system-update.target"
elif [ "$SCREENS" = screens ]; then
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
ExecStart=/bin/bash $HERE/warm.sh /usr/bin/kiosk-hud daemon --plymouth-mode $MODE --retain --no-input --idle-after-first-frame \$KIOSK_HUD_PLYMOUTH \$KIOSK_HUD_ARGS
$OUTPUT

[Install]
WantedBy=multi-user.target
UNIT
  systemctl enable kiosk-vm-warm.service 2>/dev/null
fi
# The test's shutdown, once the app runs. Type=exec and no default dependencies: it waits for the
# boot to finish, so it must not be part of what the boot waits for.
[ "$HOW" = update ] || script_unit kiosk-vm-go.service "systemctl $HOW" exec kiosk-app.service multi-user.target go.sh

# --- what was installed ---------------------------------------------------------------------------
want=enabled; [ "$SCREENS" = none ] && want=masked
ok=1
for u in $SCREEN_UNITS; do [ "$(systemctl is-enabled "$u" 2>/dev/null)" = "$want" ] || ok=0; done
if [ "$HOW" = update ]; then
  for u in kiosk-hud.service kiosk-vm-update.service; do [ "$(systemctl is-enabled "$u" 2>/dev/null)" = enabled ] || ok=0; done
  [ -L /system-update ] || ok=0
fi
[ -x /usr/bin/kiosk-hud ] && [ "$ok" = 1 ] && [ -L "$U/multi-user.target.wants/kiosk-app.service" ] && echo "ok setup-installed" ||
  echo "FAIL setup-installed: screens not $want: $(for u in $SCREEN_UNITS; do echo "$u=$(systemctl is-enabled "$u" 2>&1)"; done | tr '\n' ' ')"
echo "info setup: $HOW, the shutdown screens $want"

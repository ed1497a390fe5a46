#!/bin/bash
# setup.sh KIOSK_HUD|PACKAGE.deb KIOSK_APP [WORK_STEPS [WORK_SECONDS [LATE_DRM [LATE_WHEN [APP_AS]]]]] — the set-up of the boot test
# (Tests/KioskDRMTests/VMBootTests.swift), run by `run-in-vm.sh --systemd` in the guest's root
# before systemd boots it as PID 1. That root is the host's Debian 12 (9p, read-only) under a
# tmpfs overlay, so what is written here lasts for this boot only.
#
# It installs kiosk-hud as the README says — `dpkg -i` of the package VMBootTests makes with
# Tools/make-deb.sh (its postinst enables kiosk-hud.service, the socket and the progress
# follower), or with a bare binary dist/README.md's steps (the binary, dist's units in
# /etc/systemd/system, `systemctl enable kiosk-hud.service`) — then /etc/default/kiosk-hud (an
# initramfs boot's: KIOSK_VM_DEFAULTS, the file its initramfs was made with), and a kiosk app from
# dist/systemd/kiosk-app.service.example, unedited, whose /usr/local/bin/kiosk-app is app.sh
# (around KIOSK_APP, the C stand-in ref/kiosk-app.c). Then what makes it a test:
#   kiosk-vm-work1..N.service  WORK_STEPS (default 6) oneshots of WORK_SECONDS (default 1.5)
#        in a row: stand-ins for what a kiosk app waits for (the network, a mount); the app and
#        kiosk-hud-quit.service are ordered after the last, with drop-ins, as dist/README.md says.
#        The first waits until watch.py sees the HUD (at most 240 s), so that the HUD is on
#        screen while they work whatever the guest's speed
#   kiosk-vm-watch.service     watch.py: the HUD while the boot runs (status + screendumps),
#        ordered before the handover so that it never talks to the socket after it
#   kiosk-app.service.d/gap.conf  a screendump (shot.sh) after the handover, before the app's
#        program starts
#   kiosk-vm-end.service       end.sh: once the app has drawn, the checks, the journal, rc, and
#        the power off
#   kiosk-vm-late-drm.service  with LATE_DRM (`run-in-vm.sh --hold bochs`): the real DRM driver
#        loaded late (udev may not load it: blacklisted for aliases). LATE_WHEN `frame` (a UEFI
#        boot, --efi): 1 s after the daemon's first frame, as vc4 comes after the firmware's
#        framebuffer on a Pi — the daemon starts on efifb and must follow. `waiting` (no firmware
#        framebuffer): once the daemon said it waits for a display (--wait-display, 30 s by a
#        drop-in as the unit's comment says) — it must show once the card is there
# The host's own unit enablement (/etc/systemd/system) is not this system's: it starts empty but
# for a getty on tty1 (Debian's preset), with multi-user.target as the default, as a kiosk
# image has it. /var/cache/kiosk-hud starts empty too (a first boot: no frame or glyph cache).
# Prints "ok NAME" / "FAIL NAME: why" / "info NAME: ...".
set -euo pipefail
HUD=$1 APP=$2 STEPS=${3:-6} SECONDS_EACH=${4:-1.5} LATE_DRM=${5:-} LATE_WHEN=${6:-frame} APP_AS=${7:-example}
BOOT=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$BOOT/../../.." && pwd)
DIST=$REPO/dist
: "${VM_OUT:?}" "${KIOSK_VM_CTL:?}" "${KIOSK_VM_GUEST:?}"
U=/etc/systemd/system

# --- a clean system (the guest's clean-system.sh) ---------------------------------------------------
. "$KIOSK_VM_GUEST/clean-system.sh"

# --- kiosk-hud: the package (Tools/make-deb.sh), as the README installs it — its postinst enables
# the splash, the socket and the follower (deb-systemd-helper, as on a board); or a bare binary
# with dist's units, as dist/README.md's steps without the package ----------------------------
case $HUD in
  *.deb)
    if ! dpkg -i "$HUD" > "$VM_OUT/dpkg.log" 2>&1; then echo "FAIL setup-installed: dpkg -i: $(tail -5 "$VM_OUT/dpkg.log" | tr '\n' ' ')"; fi
    ;;
  *)
    install -m 0755 "$HUD" /usr/bin/kiosk-hud
    for f in kiosk-hud.socket kiosk-hud.service kiosk-hud-progress.service kiosk-hud-quit.service; do
      install -m 0644 "$DIST/systemd/$f" "$U/$f"
    done
    systemctl enable kiosk-hud.service
    ;;
esac
# The HUD's options; the label is quoted, as the unit's comment says a value with spaces is.
# --scale 1: `kiosk-hud render` draws the same picture (the panel's EDID size would choose
# another scale on the display).
echo "KIOSK_HUD_ARGS=\"--mode bar --label 'Starting up' --scale 1\"" > /etc/default/kiosk-hud
# Both front ends at once: the control socket (the follower, watch.py, the handover's
# `ctl update`) and Plymouth's socket (docs/plymouth.md): PID 1 writes each unit it starts
# there, and the handover below is `plymouth quit --retain-splash`, as a display manager does.
# kiosk-hud stands in for /usr/bin/plymouth (a link named plymouth; Debian 12 here has none).
# The boot estimate off (`--plymouth-boot-duration none`): it moves the bar every 0.25 s, and
# the pictures are compared only when two statuses around a screendump agree (the estimate is
# tested in PlymouthServerTests and PlymouthCommandTests); the bar follows systemd's Progress.
echo "KIOSK_HUD_PLYMOUTH=\"--plymouth --plymouth-boot-duration none\"" >> /etc/default/kiosk-hud
# A boot from an initramfs made with kiosk-hud's hook (run-in-vm.sh --initrd): the options that
# initramfs was made with (--env KIOSK_VM_DEFAULTS=FILE: these lines, a longer display wait,
# a logo), as on a board, where the hook copies the root's own /etc/default/kiosk-hud.
if [ -n "${KIOSK_VM_DEFAULTS:-}" ]; then
  install -m 0644 "$KIOSK_VM_DEFAULTS" /etc/default/kiosk-hud
fi
[ -e /usr/bin/plymouth ] || ln -s kiosk-hud /usr/bin/plymouth

# --- the kiosk app: the example unit as it is, the stand-in program at its ExecStart -----------------
# APP_AS=display-manager: the app is a display manager instead, its unit ordered as Debian's
# lightdm.service is (after systemd-user-sessions and plymouth-quit, nothing of kiosk-hud's) and
# enabled as lightdm is, by its alias display-manager.service, with graphical.target the default:
# only the package's display-manager.service.d/kiosk-hud.conf puts it after the handover. The
# unit keeps the name kiosk-app.service, so the checks (app.sh, end.sh) are the same.
install -d /usr/local/bin
install -m 0755 "$BOOT/app.sh" /usr/local/bin/kiosk-app
install -m 0755 "$APP" /usr/local/bin/kiosk-app-draw
if [ "$APP_AS" = display-manager ]; then
  cat > "$U/kiosk-app.service" <<UNIT
# A display manager's unit, as Debian's lightdm.service: no order of its own against kiosk-hud.
[Unit]
Description=Kiosk app as a display manager
After=systemd-user-sessions.service
Conflicts=plymouth-quit.service
After=plymouth-quit.service
OnFailure=plymouth-quit.service

[Service]
ExecStart=/usr/local/bin/kiosk-app
Restart=always

[Install]
Alias=display-manager.service
UNIT
  systemctl enable kiosk-app.service
  systemctl set-default graphical.target >/dev/null 2>&1
else
  install -m 0644 "$DIST/systemd/kiosk-app.service.example" "$U/kiosk-app.service"
  systemctl enable kiosk-app.service
fi

# --- what the test adds ---------------------------------------------------------------------------
# The environment of the test's scripts (the app's too: its unit is the example, unchanged).
cat > /etc/kiosk-vm.env <<EOF
VM_OUT=$VM_OUT
KIOSK_VM_CTL=$KIOSK_VM_CTL
KIOSK_VM_GUEST=$KIOSK_VM_GUEST
KIOSK_VM_BOOT=$BOOT
KIOSK_VM_WORK_STEPS=$STEPS
KIOSK_VM_LATE_DRM=$LATE_DRM
KIOSK_VM_LATE_WHEN=$LATE_WHEN
EOF
# Their output goes to the harness's stdout and stderr (streamed to the host).
OUTPUT="StandardOutput=append:$KIOSK_VM_CTL/stdout
StandardError=append:$KIOSK_VM_CTL/stderr"

# The app's other dependencies: a chain of oneshots; the last one marks that it is done.
prev=
for i in $(seq "$STEPS"); do
  cat > "$U/kiosk-vm-work$i.service" <<EOF
# A stand-in for what a kiosk app waits for (the network, a mount): $SECONDS_EACH s of work.
[Unit]
Description=Kiosk app dependency $i of $STEPS
${prev:+After=$prev}

[Service]
Type=oneshot
RemainAfterExit=yes
TimeoutStartSec=300
$([ "$i" = 1 ] && echo "ExecStartPre=-/usr/bin/timeout 240 /bin/sh -c 'until [ -e /run/kiosk-vm-watching ]; do sleep 0.5; done'")
ExecStart=/bin/sleep $SECONDS_EACH
$([ "$i" = "$STEPS" ] && echo "ExecStartPost=/usr/bin/touch /run/kiosk-vm-work.done")

[Install]
WantedBy=multi-user.target
EOF
  prev=kiosk-vm-work$i.service
done
# The drop-ins dist/README.md asks for when the app waits for more than basic.target.
for u in kiosk-app.service kiosk-hud-quit.service; do
  mkdir -p "$U/$u.d"
  printf '[Unit]\nWants=%s\nAfter=%s\n' "$prev" "$prev" > "$U/$u.d/after.conf"
done
# A screendump once the handover is done, before the app's program runs: the splash's last
# frame must be on screen (its keeper holds it; nothing may take the CRTC back meanwhile).
printf '[Service]\nExecStartPre=/bin/bash %s/shot.sh boot-gap\n' "$BOOT" > "$U/kiosk-app.service.d/gap.conf"
# The handover through Plymouth's protocol: the quit unit's `ctl quit --retain` replaced by what
# a display manager's unit runs (its other steps stay: the follower stopped, the bar filled).
printf '[Service]\nExecStart=\nExecStart=/usr/bin/plymouth quit --retain-splash\n' > "$U/kiosk-hud-quit.service.d/plymouth.conf"

cat > "$U/kiosk-vm-watch.service" <<EOF
# The test's eyes during the boot: watch.py. Before the handover, so that its one connection to
# the daemon is closed before kiosk-hud-quit.service runs (a connection after it would start
# the daemon again through the socket).
[Unit]
Description=Boot test: the HUD during the boot
DefaultDependencies=no
Before=kiosk-hud-quit.service

[Service]
Type=oneshot
EnvironmentFile=/etc/kiosk-vm.env
ExecStart=/usr/bin/python3 $BOOT/watch.py
TimeoutStartSec=330
$OUTPUT

[Install]
WantedBy=multi-user.target
EOF
cat > "$U/kiosk-vm-end.service" <<EOF
# The end of the test: end.sh, once the app runs. Type=exec and no default dependencies: it
# waits for the boot to finish, so it must not be part of what the boot waits for.
[Unit]
Description=Boot test: checks and power off
DefaultDependencies=no
After=kiosk-app.service

[Service]
Type=exec
EnvironmentFile=/etc/kiosk-vm.env
ExecStart=/bin/bash $BOOT/end.sh
$OUTPUT

[Install]
WantedBy=multi-user.target
EOF
systemctl enable kiosk-vm-watch.service kiosk-vm-end.service $(seq -f 'kiosk-vm-work%g.service' "$STEPS") 2>/dev/null
if [ -n "$LATE_DRM" ]; then
  if [ "$LATE_WHEN" = waiting ]; then
    # A board profile that matches on the display, as the Pi's do on DSI-1 and 800x480: at the
    # daemon's start there is no card, so detection must choose it once the card is there. The
    # look is generic's (the screendumps are compared with generic's renders).
    mkdir -p /etc/kiosk-hud/boards
    printf '%s\n' 'name = "qemu-panel"' '[match]' 'drm_driver = ["bochs-drm"]' 'connector = ["Virtual-1"]' 'mode = ["800x480"]' \
      > /etc/kiosk-hud/boards/qemu-panel.toml
  fi
  echo "blacklist $LATE_DRM" > /etc/modprobe.d/kiosk-vm-late-drm.conf   # udev's autoload: aliases only
  if [ "$LATE_WHEN" = frame ]; then
    # After the splash's first frame (kiosk-hud.service is Type=notify: active once it is on screen).
    after=After=kiosk-hud.service wait="ExecStartPre=/bin/sleep 1"
  else
    # Once the daemon says it waits for a display (it is not active before its first frame).
    after=After=kiosk-hud.socket
    # The daemon waits 8 s by default (the unit gives no --wait-display); journald's lag and
    # modprobe under TCG take ~3 of them, more on a loaded host: what the unit's comment gives a
    # board whose display comes late, --wait-display in the command line (here a drop-in), 30 s.
    exec=$(cat /lib/systemd/system/kiosk-hud.service "$U/kiosk-hud.service" 2>/dev/null | grep -m1 '^ExecStart=/usr/bin/kiosk-hud daemon ' | sed 's| daemon | daemon --wait-display 30 |' || true)
    [ -n "$exec" ] || echo "FAIL setup-installed: kiosk-hud.service has no ExecStart= with kiosk-hud daemon"
    mkdir -p "$U/kiosk-hud.service.d"
    printf '[Service]\nExecStart=\n%s\n' "$exec" > "$U/kiosk-hud.service.d/wait.conf"
    wait="ExecStartPre=/usr/bin/timeout 120 /bin/sh -c 'until journalctl -b -q -u kiosk-hud.service | grep -q \"waiting up to\"; do sleep 0.2; done'"
  fi
  cat > "$U/kiosk-vm-late-drm.service" <<EOF
# The real DRM driver, late ($LATE_WHEN): as vc4 loads after the firmware's framebuffer, or a
# driver after the splash started with no display at all.
[Unit]
Description=Boot test: $LATE_DRM loaded late
DefaultDependencies=no
$after

[Service]
Type=oneshot
TimeoutStartSec=150
$wait
ExecStart=/sbin/modprobe $LATE_DRM
$OUTPUT

[Install]
WantedBy=sysinit.target
EOF
  systemctl enable kiosk-vm-late-drm.service 2>/dev/null
fi

# --- what was installed --------------------------------------------------------------------------
ok() { echo "ok $1"; }
[ -x /usr/bin/kiosk-hud ] && [ -L "$U/sockets.target.wants/kiosk-hud.socket" ] && [ -L "$U/sysinit.target.wants/kiosk-hud.service" ] &&
  [ -L "$U/sysinit.target.wants/kiosk-hud-progress.service" ] &&
  { [ -L "$U/multi-user.target.wants/kiosk-app.service" ] || { [ "$APP_AS" = display-manager ] && [ -L "$U/display-manager.service" ]; }; } &&
  ok setup-installed ||
  echo "FAIL setup-installed: $(ls -R "$U" | tr '\n' ' ')"
echo "info setup: kiosk-hud $(stat -c %s /usr/bin/kiosk-hud) bytes; units: $(cd "$U" && echo *.service *.socket)"

#!/bin/bash
# end.sh — the end of the boot test (kiosk-vm-end.service, made by Tests/VM/boot/setup.sh; starts
# once kiosk-app.service has started): waits until the app has drawn (app.sh) and the boot is
# finished, then checks what systemd and the journal say of our units, writes the times the
# host logs, the journal, and $KIOSK_VM_CTL/rc, and powers the VM off.
# Prints "ok NAME" / "FAIL NAME: why" / "info NAME: ..."; appends "time NAME SECONDS" lines
# (CLOCK_MONOTONIC, the boot clock: 0 is the kernel's start) and "end" to $VM_OUT/manifest.
set -u
M=$VM_OUT/manifest
ok() { echo "ok $1"; }
fail() { echo "FAIL $1: $2"; }
info() { echo "info $1: $2"; }
OURS=(kiosk-hud.socket kiosk-hud.service kiosk-hud-progress.service kiosk-hud-quit.service kiosk-app.service)

# --- the app has drawn; the boot is finished --------------------------------------------------------
for _ in $(seq 600); do [ -e /run/kiosk-vm-app.drawn ] && break; sleep 0.1; done
[ -e /run/kiosk-vm-app.drawn ] || fail app-done "app.sh did not get to its picture within 60 s"
state=$(timeout 90 systemctl is-system-running --wait 2>&1)
info system "is-system-running: $state"
[ "$state" = running ] && ok boot-finished || fail boot-finished "is-system-running says '$state'; failed units: $(systemctl --failed --plain --no-legend | tr '\n' ' ')"

# --- our units -------------------------------------------------------------------------------------------
# Each is not failed; and each is where the handover leaves it: the socket listening (a later
# `ctl` starts the daemon again), the daemon, the follower and the handover done, the app running.
declare -A want=([kiosk-hud.socket]=active [kiosk-hud.service]=inactive [kiosk-hud-progress.service]=inactive
                 [kiosk-hud-quit.service]=inactive [kiosk-app.service]=active)
for u in "${OURS[@]}"; do
  if systemctl --quiet is-failed "$u"; then fail "not-failed-$u" "$(systemctl status --no-pager "$u" 2>&1 | tail -5 | tr '\n' ' ')"
  else ok "not-failed-$u"; fi
  s=$(systemctl show -p ActiveState --value "$u")/$(systemctl show -p Result --value "$u")
  [ "$s" = "${want[$u]}/success" ] && ok "state-$u" || fail "state-$u" "want ${want[$u]}/success, got $s"
done
# The handover ran: its ExecCondition passed (so `ctl quit --retain`, its ExecStart, was started)
# and that exited 0.
r=$(systemctl show -p ExecMainStartTimestampMonotonic --value kiosk-hud-quit.service)/$(systemctl show -p ExecMainStatus --value kiosk-hud-quit.service)
[[ $r =~ ^[1-9][0-9]*/0$ ]] && ok handover-ran || fail handover-ran "kiosk-hud-quit.service ExecMainStartTimestampMonotonic/ExecMainStatus: $r"
# Started by sysinit.target (kiosk-hud.service's [Install]; no udev rule any more), the follower too.
by=$(systemctl show -p WantedBy --value kiosk-hud.service)
info started-by "kiosk-hud.service WantedBy=$by"
[[ " $by " == *" sysinit.target "* ]] && ok started-by-sysinit || fail started-by-sysinit "sysinit.target does not want kiosk-hud.service: $by"
[[ " $(systemctl show -p WantedBy --value kiosk-hud-progress.service) " == *" sysinit.target "* ]] &&
  ok follower-by-sysinit || fail follower-by-sysinit "$(systemctl show -p WantedBy kiosk-hud-progress.service)"

# --- the journal ------------------------------------------------------------------------------------------
journalctl -b -o short-monotonic --no-pager > "$VM_OUT/journal.txt" 2>&1
units=(); for u in "${OURS[@]}"; do units+=(-u "$u"); done
journalctl -b -o short-monotonic --no-pager "${units[@]}" > "$VM_OUT/journal-units.txt" 2>&1
bad=$(grep -E 'Failed|failed|status=[1-9]|code=(killed|dumped)|Skipped|[Tt]imed out|Error:|[Ww]arning:' "$VM_OUT/journal-units.txt")
[ -z "$bad" ] && ok journal-clean || fail journal-clean "$(echo "$bad" | head -5 | tr '\n' '|')"
bad=$(grep -E '(kiosk-hud|kiosk-app)[^ ]*: Failed' "$VM_OUT/journal.txt")
[ -z "$bad" ] && ok journal-no-failed || fail journal-no-failed "$(echo "$bad" | head -5 | tr '\n' '|')"
grep -h 'first-frame\|kiosk-hud: output\|retain:\|kiosk-hud: done\|follow-boot:' "$VM_OUT/journal-units.txt" | sed 's/^/info journal: /'
grep -q 'first-frame exec_ms=' "$VM_OUT/journal-units.txt" && ok daemon-first-frame || fail daemon-first-frame "no first-frame line"
grep -q 'kiosk-hud: done' "$VM_OUT/journal-units.txt" && ok daemon-done || fail daemon-done "no 'kiosk-hud: done' line"
grep -q 'follow-boot: following' "$VM_OUT/journal-units.txt" && ok follower-started ||
  fail follower-started "no 'follow-boot: following' line"
# The --retain keeper: gone once the app's picture replaced the last frame.
keeper=$(sed -n 's/.*keeper pid \([0-9]*\).*/\1/p' "$VM_OUT/journal-units.txt" | head -1)
if [ -z "$keeper" ]; then fail keeper "the daemon did not say it left a keeper"
else
  for _ in $(seq 30); do [ -d "/proc/$keeper" ] || break; sleep 0.1; done
  [ -d "/proc/$keeper" ] && fail keeper-exited "keeper $keeper still runs after the app drew" || ok keeper-exited
fi

# --- the splash from the initramfs (run-in-vm.sh --initrd: Tests/VM/initramfs/make.sh's, with the hook) ---
# The display's driver held (run-in-vm.sh --hold: kiosk_vm.hold= on the kernel command line), the
# initramfs's hold did not wait for a frame: the root came while the daemon waited for its display.
HELD=$(sed -n 's/.*kiosk_vm\.hold=\([^ ]*\).*/\1/p' /proc/cmdline)
IJ=$VM_OUT/journal-initramfs.txt
if [ -e "$KIOSK_VM_CTL/initramfs-unreadable" ]; then
  # The initramfs's daemon could not start (make.sh --unreadable: a picture its settings name
  # emptied in the initramfs): it ended with that error, and nothing of it reached the real root —
  # no marker after switch-root, so kiosk-hud.socket listened from the start (its
  # ConditionPathExists=! held) and kiosk-hud.service started a daemon of its own on it.
  bad=$(cat "$KIOSK_VM_CTL/initramfs-unreadable")
  cp /run/kiosk-hud/initramfs.log "$IJ" 2>/dev/null || echo "(no /run/kiosk-hud/initramfs.log)" > "$IJ"
  sed 's/^/info initramfs-log: /' "$IJ" | head -40
  grep '^Error: ' "$IJ" | grep -qF "$bad" && ! grep -q 'initramfs: the new root is' "$IJ" && ok initramfs-daemon-failed ||
    fail initramfs-daemon-failed "no error naming $bad in its log, or it got to the new root: $(tail -5 "$IJ" | tr '\n' '|')"
  sock_at=$(systemctl show -p ActiveEnterTimestampMonotonic --value kiosk-hud.socket)
  exec_at=$(systemctl show -p ExecMainStartTimestampMonotonic --value kiosk-hud.service)
  if [ ! -e /run/kiosk-hud/initramfs.pid ] && [ "$(systemctl show -p ConditionResult --value kiosk-hud.socket)" = yes ] &&
     [ "${sock_at:-0}" -gt 0 ] && [ "${sock_at:-0}" -lt "${exec_at:-0}" ] && ! grep -q 'kiosk-hud: initramfs:' "$VM_OUT/journal-units.txt"; then
    ok initramfs-marker-gone
  else
    fail initramfs-marker-gone "marker: $(cat /run/kiosk-hud/initramfs.pid 2>&1); kiosk-hud.socket active at $sock_at µs, the daemon's exec at $exec_at µs; journal: $(grep 'initramfs:' "$VM_OUT/journal-units.txt" | head -3 | tr '\n' '|')"
  fi
  grep -q 'kiosk-hud: control socket: listening on the socket systemd passed' "$VM_OUT/journal-units.txt" && ok root-daemon-on-socket ||
    fail root-daemon-on-socket "$(grep 'control socket' "$VM_OUT/journal-units.txt" | head -3 | tr '\n' '|')"
elif [ -e "$KIOSK_VM_CTL/initramfs-pid" ] && [ "$(cat "$KIOSK_VM_CTL/initramfs-pid")" != none ]; then
  ipid=$(cat "$KIOSK_VM_CTL/initramfs-pid")
  cp /run/kiosk-hud/initramfs.log "$IJ" 2>/dev/null || echo "(no /run/kiosk-hud/initramfs.log)" > "$IJ"
  if [ -n "$HELD" ]; then
    # Its status at the hold had no display, and the initramfs's program (its log ends at the
    # execve: from there the daemon logs to the journal) took the new root and carried on
    # without having shown anything.
    if grep -q '"displays":\[\]' "$KIOSK_VM_CTL/initramfs-status.json" 2>/dev/null && grep -q 'initramfs: the new root is' "$IJ" &&
       grep -q 'initramfs: carrying on as' "$IJ" && ! grep -qE 'kiosk-hud: (output card=|first-frame )' "$IJ"; then ok initramfs-waiting-at-root
    else fail initramfs-waiting-at-root "pid '$ipid', status: $(head -c 300 "$KIOSK_VM_CTL/initramfs-status.json" 2>/dev/null); log: $(grep -E 'initramfs:|output card=|first-frame ' "$IJ" | tr '\n' '|')"; fi
  elif [ -s "$KIOSK_VM_CTL/initramfs-status.json" ] && grep -q '"displays":\[{' "$KIOSK_VM_CTL/initramfs-status.json" &&
     ! grep -q root-mounted-too-early "$KIOSK_VM_CTL/initramfs-status.json"; then ok initramfs-hud-before-root
  else fail initramfs-hud-before-root "pid '$ipid', status: $(head -c 300 "$KIOSK_VM_CTL/initramfs-status.json" 2>/dev/null)"; fi
  cp "$KIOSK_VM_CTL/initramfs-status.json" "$VM_OUT/" 2>/dev/null || true
  grep -q "initramfs: its daemon carries on as /usr/bin/kiosk-hud (pid $ipid)" "$VM_OUT/journal-units.txt" && ok initramfs-carried-over ||
    fail initramfs-carried-over "initramfs pid $ipid; journal: $(grep 'initramfs:' "$VM_OUT/journal-units.txt" | tr '\n' '|')"
  grep -h 'kiosk-hud: initramfs:' "$VM_OUT/journal-units.txt" | sed 's/^/info journal: /'
  # The initramfs's first frame, kept by the carried-over daemon for the next initramfs
  # (initramfs-frame-KEY.bin): the next boot's make.sh --cache puts it in.
  grep -h 'frame cache:' "$IJ" "$VM_OUT/journal-units.txt" | sed 's/^/info frame-cache: /'
  if ls /var/cache/kiosk-hud/initramfs-frame-*.bin >/dev/null 2>&1; then
    mkdir -p "$VM_OUT/frame-cache" && cp /var/cache/kiosk-hud/initramfs-frame-*.bin "$VM_OUT/frame-cache/"
  fi
  # The late card shown by that same process, carried on.
  if [ -n "$HELD" ]; then
    grep -q "kiosk-hud\[$ipid\]: kiosk-hud: output card=/dev/dri/card0 driver=bochs-drm" "$VM_OUT/journal-units.txt" && ok late-card-by-initramfs-daemon ||
      fail late-card-by-initramfs-daemon "initramfs pid $ipid; journal: $(grep -E 'kiosk-hud: (output|display)' "$VM_OUT/journal-units.txt" | head -5 | tr '\n' '|')"
  fi
  sed 's/^/info initramfs-log: /' "$IJ" | head -40
  # The daemon's own time of its first frame in the initramfs (CLOCK_MONOTONIC, its log line's at_s).
  sed -n 's/.*kiosk-hud: first-frame exec_ms=.* at_s=\([0-9.]*\).*/time initramfs-first-frame \1/p' "$IJ" | head -1 >> "$M"
fi
# No daemon's marker by the hold's end: what its log said by then.
if [ "$(cat "$KIOSK_VM_CTL/initramfs-pid" 2>/dev/null)" = none ]; then
  sed 's/^/info initramfs-early-log: /' "$KIOSK_VM_CTL/initramfs-early.log" 2>/dev/null | head -20
fi
[ -e "$KIOSK_VM_CTL/initramfs-pid" ] &&
  sed -n 's/^\(initramfs-hold\|initramfs-frame\|initramfs-status\|cmd-start\|cmd-end\) \([0-9.]*\)$/time \1 \2/p' "$KIOSK_VM_CTL/timing" >> "$M"

# --- the driver late (setup.sh's LATE_DRM) with no firmware framebuffer: the daemon waited --------------
if [ -n "${KIOSK_VM_LATE_DRM:-}" ] && [ "${KIOSK_VM_LATE_WHEN:-}" = waiting ]; then
  J=$VM_OUT/journal-units.txt
  grep -q 'kiosk-hud: display: none yet .*waiting up to' "$J" && ok waited-for-display ||
    fail waited-for-display "$(grep 'kiosk-hud: display' "$J" | head -3 | tr '\n' '|')"
  grep -q 'kiosk-hud: output card=/dev/dri/card0 driver=bochs-drm' "$J" && ok shown-on-late-card ||
    fail shown-on-late-card "$(grep -E 'kiosk-hud: (display|output)' "$J" | head -5 | tr '\n' '|')"
  # setup.sh's qemu-panel profile matches on the card's driver, connector and mode: generic at
  # the start (no card), then chosen when the card opened, before anything was drawn on it.
  grep -q 'kiosk-hud: board generic ([^)]*): no profile matches .*qemu-panel waits for the display' "$J" &&
    grep -q 'kiosk-hud: board qemu-panel (/etc/kiosk-hud/boards/qemu-panel.toml): detected, .* (detected again when /dev/dri/card0 opened)' "$J" &&
    ok board-detected-at-display || fail board-detected-at-display "$(grep 'kiosk-hud: board' "$J" | head -3 | tr '\n' '|')"
  grep -h 'kiosk-hud: board' "$J" | sed 's/^/info journal: /'
  grep -h 'kiosk-hud: display' "$J" | sed 's/^/info journal: /'
fi

# --- a UEFI boot (setup.sh's LATE_DRM): the daemon started on efifb and followed the real driver --------
if [ -n "${KIOSK_VM_LATE_DRM:-}" ] && [ "${KIOSK_VM_LATE_WHEN:-}" = frame ]; then
  grep -q 'kiosk-hud: display: on EFI VGA /dev/fb0' "$VM_OUT/journal-units.txt" && ok started-on-efifb ||
    fail started-on-efifb "$(grep 'kiosk-hud: display' "$VM_OUT/journal-units.txt" | head -3 | tr '\n' '|')"
  sw=$(grep -c 'display-switch from="EFI VGA /dev/fb0" to="bochs-drm /dev/dri/card0"' "$VM_OUT/journal-units.txt")
  [ "$sw" = 1 ] && ok switched-to-card || fail switched-to-card "$sw switch lines: $(grep 'kiosk-hud: display' "$VM_OUT/journal-units.txt" | tr '\n' '|')"
  grep -h 'kiosk-hud: display' "$VM_OUT/journal-units.txt" | sed 's/^/info journal: /'
  at=$(sed -n 's/.*display-switch .* at_s=\([0-9.]*\).*/\1/p' "$VM_OUT/journal-units.txt" | head -1)
  [ -n "$at" ] && echo "time display-switch $at" >> "$M"
  dmesg | sed -n 's/^\[ *\([0-9.]*\)\] fb0: EFI VGA frame buffer device.*/time efifb-registered \1/p' | head -1 >> "$M"
  dmesg | sed -n 's/^\[ *\([0-9.]*\)\] bochs-drm .*vgaarb: deactivate vga console.*/time takeover \1/p' | head -1 >> "$M"
fi

# --- times (monotonic seconds) ------------------------------------------------------------------------------
mono() {  # mono NAME UNIT PROPERTY: a *TimestampMonotonic property (µs) as seconds
  local v; v=$(systemctl show -p "$3" --value ${2:+"$2"})
  [ -n "$v" ] && [ "$v" != 0 ] && printf 'time %s %d.%06d\n' "$1" $((v / 1000000)) $((v % 1000000)) >> "$M"
}
mono systemd '' UserspaceTimestampMonotonic
mono boot-finished '' FinishTimestampMonotonic
mono udev-trigger-done systemd-udev-trigger.service ActiveEnterTimestampMonotonic
mono daemon-exec kiosk-hud.service ExecMainStartTimestampMonotonic
mono daemon-start kiosk-hud.service InactiveExitTimestampMonotonic
mono daemon-ended kiosk-hud.service InactiveEnterTimestampMonotonic
mono follower-exec kiosk-hud-progress.service ExecMainStartTimestampMonotonic
mono basic-target basic.target ActiveEnterTimestampMonotonic
# systemd's own start-up before the first unit starts: generators, then loading the units.
mono generators-done '' GeneratorsFinishTimestampMonotonic
mono units-loaded '' UnitsLoadFinishTimestampMonotonic
mono socket-listening kiosk-hud.socket ActiveEnterTimestampMonotonic
mono work-done "kiosk-vm-work${KIOSK_VM_WORK_STEPS}.service" ActiveEnterTimestampMonotonic
mono handover-start kiosk-hud-quit.service InactiveExitTimestampMonotonic
mono handover-done kiosk-hud-quit.service InactiveEnterTimestampMonotonic
mono app-exec kiosk-app.service ExecMainStartTimestampMonotonic
[ -n "${KIOSK_VM_LATE_DRM:-}" ] && mono late-drm-loaded kiosk-vm-late-drm.service InactiveEnterTimestampMonotonic
grep -h 'kiosk-app: \(master\|drawn\)' "$VM_OUT/app.log" | sed -n 's/kiosk-app: \([a-z]*\).* t=\([0-9.]*\).*/time app-\1 \2/p' >> "$M"
# The daemon's first frame: the journal's time of its first-frame line, and exec_ms in it.
sed -n 's/^\[ *\([0-9.]*\)\] .*first-frame exec_ms=\([0-9.]*\).*/time first-frame-logged \1\nvalue first-frame-exec-ms \2/p' \
  "$VM_OUT/journal-units.txt" | head -2 >> "$M"
# ... and when it was on screen (at_s: the daemon's CLOCK_MONOTONIC, the clock of systemd's
# *TimestampMonotonic), against sysinit.target reached and the daemon's READY=1 (Type=notify:
# the unit went active then).
mono sysinit-target sysinit.target ActiveEnterTimestampMonotonic
mono daemon-ready kiosk-hud.service ActiveEnterTimestampMonotonic
ff=$(sed -n 's/.*first-frame exec_ms=.* at_s=\([0-9.]*\).*/\1/p' "$VM_OUT/journal-units.txt" | head -1)
si=$(systemctl show -p ActiveEnterTimestampMonotonic --value sysinit.target)
if [ -n "$ff" ] && [ -n "$si" ] && [ "$si" != 0 ]; then
  echo "time first-frame $ff" >> "$M"
  ff_us=$(echo "$ff" | tr -d .)
  info first-frame "on screen at $ff s, sysinit.target at $((si / 1000000)).$(printf %06d $((si % 1000000))) s"
  [ "$((10#$ff_us))" -lt "$si" ] && ok first-frame-before-sysinit ||
    fail first-frame-before-sysinit "first frame at $ff s, sysinit.target reached at $si µs"
else
  fail first-frame-before-sysinit "no time: first frame '$ff', sysinit.target '$si'"
fi

# --- after the handover, an initramfs whose daemon failed: the socket starts a daemon ------------------
# (Last: it starts kiosk-hud.service again, whose times and state are read above.) A `ctl status`,
# as a monitoring script's, is answered by a daemon kiosk-hud.socket started (a new main pid, not
# the boot's), hidden: the boot's handover is remembered beside the socket.
if [ -e "$KIOSK_VM_CTL/initramfs-unreadable" ]; then
  boot_pid=$(systemctl show -p ExecMainPID --value kiosk-hud.service)
  reply=$(timeout 90 /usr/bin/kiosk-hud ctl status 2>&1); rc=$?
  now_pid=$(systemctl show -p MainPID --value kiosk-hud.service)
  info socket-after-handover "ctl status exit $rc, kiosk-hud.service $(systemctl show -p ActiveState --value kiosk-hud.service) pid $now_pid (the boot's $boot_pid): $(echo "$reply" | head -c 300)"
  if [ "$rc" = 0 ] && [[ $reply == *'"visible":false'* ]] && [ "$(systemctl show -p ActiveState --value kiosk-hud.service)" = active ] &&
     [ "${now_pid:-0}" != 0 ] && [ "$now_pid" != "$boot_pid" ]; then ok socket-after-handover
  else fail socket-after-handover "ctl status exit $rc: $(echo "$reply" | head -c 300); kiosk-hud.service pid $now_pid, the boot's $boot_pid"; fi
  journalctl -b -o short-monotonic --no-pager -u kiosk-hud.service -u kiosk-hud.socket --since "-2min" 2>/dev/null | tail -8 | sed 's/^/info journal-after-handover: /'
fi

# --- the frame cache across an upgrade --------------------------------------------------------------------
# The package's postinst as dpkg runs it on an upgrade (`configure OLD-VERSION`), kiosk-hud's file
# changed as an upgrade changes it (its time: to the kept frames, another program):
# `kiosk-hud frame-cache renew` draws each kept frame again, offscreen, from what its file records,
# and finds the picture drawn on the card (the daemon's, the initramfs's): each is this program's
# now. (Last: it rewrites the kept files; the initramfs's was copied out above. No kept frame at
# all — the firmware framebuffer's boot draws its first frame on fbdev — is no failure.)
touch -d 2001-01-01 /usr/bin/kiosk-hud
renew=$(DPKG_MAINTSCRIPT_PACKAGE=kiosk-hud DPKG_MAINTSCRIPT_NAME=postinst /var/lib/dpkg/info/kiosk-hud.postinst configure 0.9.0 2>&1)
printf '%s\n' "$renew" | sed 's/^/info frame-cache-renew: /'
if ! printf '%s\n' "$renew" | grep '\.bin: ' | grep -qv 'renewed (the same picture)\|left (the first frame of `run`'; then
  ok frame-cache-renewed
else
  fail frame-cache-renewed "$(printf '%s' "$renew" | tr '\n' '|')"
fi

echo end >> "$M"
echo 0 > "$KIOSK_VM_CTL/rc.tmp" && mv "$KIOSK_VM_CTL/rc.tmp" "$KIOSK_VM_CTL/rc"
sync
systemctl poweroff --force --force

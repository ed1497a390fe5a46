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
# Started by the udev rule: the connector's device unit wants the daemon and the follower.
by=$(systemctl show -p WantedBy --value kiosk-hud.service)
info started-by "kiosk-hud.service WantedBy=$by"
[[ $by == *drm-card0-card0*.device* ]] && ok started-by-udev || fail started-by-udev "no DRM connector device wants kiosk-hud.service: $by"
[[ $(systemctl show -p WantedBy --value kiosk-hud-progress.service) == *drm-card0-card0*.device* ]] &&
  ok follower-by-udev || fail follower-by-udev "$(systemctl show -p WantedBy kiosk-hud-progress.service)"

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

# --- times (monotonic seconds) ------------------------------------------------------------------------------
mono() {  # mono NAME UNIT PROPERTY: a *TimestampMonotonic property (µs) as seconds
  local v; v=$(systemctl show -p "$3" --value ${2:+"$2"})
  [ -n "$v" ] && [ "$v" != 0 ] && printf 'time %s %d.%06d\n' "$1" $((v / 1000000)) $((v % 1000000)) >> "$M"
}
mono systemd '' UserspaceTimestampMonotonic
mono boot-finished '' FinishTimestampMonotonic
mono udev-trigger-done systemd-udev-trigger.service ActiveEnterTimestampMonotonic
mono daemon-exec kiosk-hud.service ExecMainStartTimestampMonotonic
mono daemon-ended kiosk-hud.service InactiveEnterTimestampMonotonic
mono follower-exec kiosk-hud-progress.service ExecMainStartTimestampMonotonic
mono basic-target basic.target ActiveEnterTimestampMonotonic
mono work-done "kiosk-vm-work${KIOSK_VM_WORK_STEPS}.service" ActiveEnterTimestampMonotonic
mono handover-start kiosk-hud-quit.service InactiveExitTimestampMonotonic
mono handover-done kiosk-hud-quit.service InactiveEnterTimestampMonotonic
mono app-exec kiosk-app.service ExecMainStartTimestampMonotonic
grep -h 'kiosk-app: \(master\|drawn\)' "$VM_OUT/app.log" | sed -n 's/kiosk-app: \([a-z]*\).* t=\([0-9.]*\).*/time app-\1 \2/p' >> "$M"
# The daemon's first frame: the journal's time of its first-frame line, and exec_ms in it.
sed -n 's/^\[ *\([0-9.]*\)\] .*first-frame exec_ms=\([0-9.]*\).*/time first-frame-logged \1\nvalue first-frame-exec-ms \2/p' \
  "$VM_OUT/journal-units.txt" | head -2 >> "$M"

echo end >> "$M"
echo 0 > "$KIOSK_VM_CTL/rc.tmp" && mv "$KIOSK_VM_CTL/rc.tmp" "$KIOSK_VM_CTL/rc"
sync
systemctl poweroff --force --force

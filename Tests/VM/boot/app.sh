#!/bin/bash
# /usr/local/bin/kiosk-app in the boot test (installed by Tests/VM/boot/setup.sh): the program of
# kiosk-app.service, which is dist/systemd/kiosk-app.service.example unchanged. It runs the
# stand-in app (kiosk-app-draw, ref/kiosk-app.c) and takes the screendumps of the handover:
#   1. kiosk-app-draw opens the card and becomes DRM master, then waits for SIGUSR1;
#   2. what systemd says of the splash meanwhile (the daemon must have exited before the app);
#   3. screendump "boot-handover": nothing has drawn since the daemon quit, so the screen must
#      still show the splash's last frame (kept by its --retain keeper) — no black flash;
#   4. SIGUSR1: the app draws one colour; screendump "boot-app"; /run/kiosk-vm-app.drawn;
#   5. the app holds its picture: this script waits for it (the unit's main process).
# Its ok/FAIL/info lines go to the harness's stdout; the app's own to the journal, the console
# and $VM_OUT/app.log.
set -u
set -a; . /etc/kiosk-vm.env; set +a
. "$KIOSK_VM_GUEST/lib.sh"
say() { echo "$*" >> "$KIOSK_VM_CTL/stdout"; }
up() { local u; read -r u _ < /proc/uptime; echo "$u"; }
M=$VM_OUT/manifest
LOG=$VM_OUT/app.log
echo "time app-start $(up)" >> "$M"

# 1. the app, master but not drawing yet. Its output: the journal (this unit's) and a file to
# follow.
: > "$LOG"
/usr/local/bin/kiosk-app-draw -w 20 > >(tee "$LOG") 2>&1 &
APP=$!

# 2. the splash has gone: the daemon inactive, the handover done (asked while the app starts).
states=$(systemctl is-active kiosk-hud.service kiosk-hud-progress.service kiosk-hud-quit.service | tr '\n' ' ')
say "info app-start: kiosk-hud.service kiosk-hud-progress.service kiosk-hud-quit.service: $states"
[[ $states == "inactive inactive inactive " ]] && say "ok app-after-handover" ||
  say "FAIL app-after-handover: want the daemon, the follower and the handover inactive, got: $states"

wait_line() {  # wait_line PATTERN SECONDS: until the app's log has a line matching PATTERN
  local n=$(( $2 * 50 )) l
  while [ "$n" -gt 0 ]; do
    while IFS= read -r l; do [[ $l == *"$1"* ]] && return 0; done < "$LOG"
    kill -0 "$APP" 2>/dev/null || return 1
    vm_sleep 0.02; n=$((n - 1))
  done
  return 1
}
if ! wait_line "kiosk-app: master" 20; then
  say "FAIL app-master: $(tr '\n' ' ' < "$LOG")"
  wait "$APP"; exit $?
fi
say "ok app-master"
say "info app-master: $(grep -h 'kiosk-app: master' "$LOG")"

# 3. between the daemon's end and the app's first picture.
if f=$(vm_screendump boot-handover); then
  printf 'shot\t%s\t%s\n' "${f##*/}" "$(up)" >> "$M"
else
  say "FAIL handover-screendump: $f"
fi

# 4. the app's picture.
kill -USR1 "$APP"
if wait_line "kiosk-app: drawn" 20; then
  say "ok app-drawn"
  say "info app-drawn: $(grep -h 'kiosk-app: drawn' "$LOG")"
  vm_sleep 0.2
  if f=$(vm_screendump boot-app); then printf 'shot\t%s\t%s\n' "${f##*/}" "$(up)" >> "$M"; else say "FAIL app-screendump: $f"; fi
else
  say "FAIL app-drawn: $(tr '\n' ' ' < "$LOG")"
fi
touch /run/kiosk-vm-app.drawn

# 5. hold (until the power goes).
wait "$APP"

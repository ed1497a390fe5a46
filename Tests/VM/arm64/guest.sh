#!/bin/bash
# Tests/VM/arm64/guest.sh — the in-guest half of Tests/KioskDRMTests/VMArm64Tests.swift: the
# aarch64 kiosk-hud on an arm64 kernel (run-in-vm.sh --arch arm64 --gpu virtio: virtio-gpu-pci,
# virtio_gpu, 800x480), one boot for all of it.
#
#   guest.sh KIOSK_HUD UINPUT_TOUCH MODESET BX BY RX RY RUN_LABEL
#     BX BY  the Cancel button's centre (uinput device coordinates, 0..4095) in show's HUD
#            (SHOW below); RX RY the same while `run --label RUN_LABEL` runs (the host found
#            both with `kiosk-hud render --print-layout`)
#
#   a. `show` of SHOW: a screendump of it; b. finger down on Cancel: a screendump (drawn pressed),
#      lifted: `--on-button exit` exits 10;
#   c. `daemon --plymouth`: screendumps after `kiosk-hud ctl` and Debian's `plymouth` client
#      requests; `plymouth quit` ends it (exit 0);
#   d. `run --label RUN_LABEL -- sleep 600`: a tap on Cancel, exit 130;
#   f. exec → first frame, kiosk-hud (as it starts by default: the frame cache; and with
#      --no-frame-cache) next to modeset in alternate rounds (stamp-exec), and kiosk-hud's RSS.
# Prints "ok NAME", "FAIL NAME: why", "info NAME: ..."; $VM_OUT/manifest lists the screendumps as
# "shot<TAB>FILE<TAB>render args..." (the host renders those and compares), "timing NAME MS..."
# and "rss KB" lines, and "end".
set -u
HUD=$1 UINPUT=$2 MODESET=$3 BX=$4 BY=$5 RX=$6 RY=$7 RUN_LABEL=$8
. "$KIOSK_VM_GUEST/lib.sh"
OUT=$VM_OUT
M=$OUT/manifest
: > "$M"
W=$(mktemp -d /tmp/arm64.XXXXXX)
SHOW=(--mode annular --progress 0.6 --label KioskHUD --button Cancel --scale 1)
ok() { echo "ok $1"; }
fail() { echo "FAIL $1: $2"; }
info() { echo "info $1: $2"; }
oneline() { tr '\n' ' ' < "$1" | cut -c1-400; }
up() { local u; read -r u _ < /proc/uptime; echo "$u"; }
shot() {  # shot NAME RENDER-ARGS...: a screendump, listed with the render options it must equal
  local f a name=$1; shift
  if f=$(vm_screendump "arm64-$name"); then
    { printf 'shot\t%s' "${f##*/}"; for a in "$@"; do printf '\t%s' "$a"; done; echo; } >> "$M"
  else
    fail "$name-screendump" "$f"
  fi
}
# bg NAME LINE-REGEX SECONDS CMD...: CMD in the background (PID), its output in $OUT/NAME.log
# (LOG); returns once a line matches LINE-REGEX.
bg() {
  local name=$1 re=$2 secs=$3; shift 3
  LOG=$OUT/$name.log
  local t0; t0=$(up)
  "$@" > "$LOG" 2>&1 &
  PID=$!
  if vm_wait_log "$LOG" "$re" "$secs"; then info "$name-start" "'$re' after $(awk "BEGIN{print $(up) - $t0}") s"; return 0; fi
  fail "$name-start" "no '$re' in $secs s: $(tail -5 "$LOG" | tr '\n' ' ')"
  kill -TERM $PID 2>/dev/null; wait $PID 2>/dev/null
  return 1
}
# finish NAME WANT SECONDS: waits for PID's exit (SIGKILL after SECONDS) and checks its status.
finish() {
  local n=$(( $3 * 20 )) rc
  while kill -0 $PID 2>/dev/null && [ $n -gt 0 ]; do vm_sleep 0.05; n=$((n - 1)); done
  kill -0 $PID 2>/dev/null && { kill -KILL $PID; fail "$1" "still running after $3 s; killed"; }
  wait $PID; rc=$?
  if [ "$rc" = "$2" ]; then ok "$1"; else fail "$1" "exit $rc, want $2: $(tail -4 "$LOG" | tr '\n' ' ')"; fi
}

info setup "$(uname -m) $(uname -r); $(cat /sys/class/drm/card0-Virtual-1/modes 2>/dev/null | head -1); $(cat /proc/fb | tr '\n' ' ')"

# --- the uinput touch screen (before the HUDs start: their seat has it) --------------------------
vm_touch_start "$UINPUT" kiosk-arm64-touch && ok uinput || fail uinput "no device: $(oneline "$VM_TOUCH_DIR/log")"
SYSTEMD_IGNORE_CHROOT=1 udevadm settle --timeout=10

# --- a, b: show on virtio-gpu; Cancel pressed (drawn so), lifted: exit 10 ------------------------
if bg show 'kiosk-hud: input: listening' 120 "$HUD" show "${SHOW[@]}" --on-button exit --duration 120; then
  grep -h 'kiosk-hud: output\|first-frame' "$LOG" | sed 's/^/info show-log: /'
  grep -q 'first-frame' "$LOG" && ok show-first-frame || fail show-first-frame "$(oneline "$LOG")"
  vm_sleep 0.5
  shot show "${SHOW[@]}"
  vm_touch "down $BX $BY"
  vm_sleep 0.7
  shot pressed "${SHOW[@]}" --pressed
  vm_touch up
  finish show-button-exit 10 20
fi

# --- c: the daemon, driven by kiosk-hud ctl and by Debian's plymouth client ----------------------
SOCK=$W/control.sock
ctl() { "$HUD" ctl "$1" --socket "$SOCK" "${@:2}"; }
# step NAME CMD...: a request (exit 0 expected); then, once a ping is answered after it (the frame
# is drawn and queued) and virtio-gpu's commit has landed, a screendump of the state STATE.
STATE=(--mode text --label Booting --scale 1)
step() {
  local name=$1; shift
  if "$@" > "$W/req.out" 2>&1; then ok "daemon-$name"; else fail "daemon-$name" "$* exit $?: $(oneline "$W/req.out")"; fi
  ctl ping >/dev/null 2>&1
  vm_sleep 1
  shot "daemon-$name" "${STATE[@]}"
}
if bg daemon 'first-frame' 120 "$HUD" daemon --socket "$SOCK" --plymouth --plymouth-boot-duration none --animation-duration 0 "${STATE[@]}"; then
  vm_wait_log "$LOG" 'control socket: listening' 30 || fail daemon-socket "$(oneline "$LOG")"
  vm_sleep 0.5
  shot daemon-start "${STATE[@]}"
  if plymouth --ping; then ok plymouth-ping; else fail plymouth-ping "plymouth --ping exit $?"; fi
  STATE=(--mode bar --progress 0.42 --label Booting --scale 1)
  step plymouth-system-update plymouth system-update --progress=42
  STATE=(--mode bar --progress 0.75 --label Booting --scale 1)
  step ctl-update ctl update --progress 0.75
  STATE=(--mode bar --progress 0.75 --label "Please wait" --scale 1)
  step plymouth-message plymouth display-message "--text=Please wait"
  s=$(ctl status 2>&1)
  [[ $s == *'"progress":0.75'* ]] && ok daemon-status || fail daemon-status "$s"
  plymouth quit > "$W/req.out" 2>&1 && ok plymouth-quit || fail plymouth-quit "exit $?: $(oneline "$W/req.out")"
  finish daemon-exit 0 20
fi

# --- d: run, a tap on Cancel: exit 130 -----------------------------------------------------------
if bg run 'kiosk-hud: input: listening' 120 "$HUD" run --label "$RUN_LABEL" --scale 1 -- sleep 600; then
  vm_sleep 0.5
  vm_touch "down $RX $RY"
  vm_sleep 0.1
  vm_touch up
  finish run-cancel 130 30
  grep -h 'run: ' "$LOG" | sed 's/^/info run-log: /'
fi
vm_touch_stop

# --- f: exec → first frame next to modeset (same boot), RSS ---------------------------------------
# As the x86 display suite measures it (Tests/VM/drm/guest.sh): stamp-exec sets KIOSK_EXEC_T0_NS
# before execv, each program's output goes to a file read after it exits; round 1 warms the page
# cache and kiosk-hud's caches.
STAMP=$(dirname "$MODESET")/stamp-exec
value() { sed -n "s/.*$1=\([0-9.]*\).*/\1/p" "$2" | head -1; }
t_c=() t_k=() t_d=()
T=$W/timing.out
for i in 1 2 3 4 5 6; do
  "$STAMP" "$MODESET" 0x000000 > "$T" 2>&1; c=$(value t_exec_ms "$T")
  "$STAMP" "$HUD" show --duration 0 "${SHOW[@]}" > "$T" 2>&1; k=$(value 'first-frame exec_ms' "$T")
  [ $i -gt 1 ] && ! grep -q source=frame-cache "$T" && info timing-frame-cache "round $i: $(grep first-frame "$T")"
  "$STAMP" "$HUD" show --duration 0 --no-frame-cache "${SHOW[@]}" > "$T" 2>&1; d=$(value 'first-frame exec_ms' "$T")
  [ $i -gt 1 ] && t_c+=("$c") && t_k+=("$k") && t_d+=("$d")
done
info timing "modeset_exec_ms=${t_c[*]} kiosk_hud_exec_ms=${t_k[*]} kiosk_hud_drawn_exec_ms=${t_d[*]}"
[ ${#t_c[@]} = 5 ] && [ -n "${t_k[4]:-}" ] && ok timing || fail timing "missing values"
echo "timing modeset ${t_c[*]}" >> "$M"
echo "timing kiosk-hud ${t_k[*]}" >> "$M"
echo "timing kiosk-hud-drawn ${t_d[*]}" >> "$M"
if bg rss 'first-frame' 60 "$HUD" show --duration 30 --label Spinning --scale 1; then
  vm_sleep 1.5   # both scanout buffers in use by now
  rss=$(sed -n "s/^VmRSS:[[:space:]]*\([0-9]*\) kB/\1/p" /proc/$PID/status)
  info rss "VmRSS=$rss kB ($(grep -E '^Rss(Anon|File|Shmem)' /proc/$PID/status | tr -s ' \t' ' ' | tr '\n' ' '))"
  echo "rss $rss" >> "$M"
  [ -n "$rss" ] && ok rss || fail rss "no VmRSS"
  kill -TERM $PID; finish rss-quit 0 10
fi
echo end >> "$M"
exit 0

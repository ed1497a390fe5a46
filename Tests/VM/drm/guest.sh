#!/bin/bash
# Tests/VM/drm/guest.sh — the in-guest half of the KioskDRM real-kernel suite (run by
# Tests/KioskDRMTests/VMDisplayTests.swift through Tests/VM/run-in-vm.sh, one boot per GPU).
#
#   guest.sh KIOSK_HUD_BINARY MODESET_BINARY
#
# Runs `kiosk-hud show` on real KMS (bochs-drm or virtio-gpu, $KIOSK_VM_GPU) many ways and
# prints one line per check: "ok NAME", "FAIL NAME: why", "info NAME: ...". Screendumps go to
# $VM_OUT/NAME[-hHEAD].ppm and are listed in $VM_OUT/manifest ("shot FILE HEAD ROTATION KIND"),
# the HUD options of each KIND as "kind KIND ARGS..."; the host renders the same HUDs offscreen
# and compares (it knows nothing else about this script).
set -u
HUD=$1 MODESET=$2
GPU=${KIOSK_VM_GPU:-bochs}
. "$KIOSK_VM_GUEST/lib.sh"
OUT=$VM_OUT
M=$OUT/manifest
: > "$M"
HEADS=1
[ -e /sys/class/drm/card0-Virtual-2 ] && [ "$(cat /sys/class/drm/card0-Virtual-2/status)" = connected ] && HEADS=2

ok() { echo "ok $GPU/$1"; }
fail() { echo "FAIL $GPU/$1: $2"; }
info() { echo "info $GPU/$1: $2"; }

STATIC=(--mode annular --progress 0.6 --label KioskHUD --details real-KMS)
SPIN=(--label Spinning)
echo "kind static ${STATIC[*]}" >> "$M"
echo "kind spinner ${SPIN[*]}" >> "$M"
echo "kind green solid:00ff00" >> "$M"
echo "kind red solid:ff0000" >> "$M"

PID=
start() {  # start NAME ARGS... : kiosk-hud show in the background, log $OUT/NAME.log; waits for the first frame
  local name=$1; shift
  LOG=$OUT/$name.log
  "$HUD" show "$@" > "$LOG" 2>&1 &
  PID=$!
  local i
  for i in $(seq 600); do
    grep -q 'first-frame' "$LOG" && return 0
    kill -0 $PID 2>/dev/null || break
    vm_sleep 0.05
  done
  fail "$name" "no first frame: $(tail -3 "$LOG" | tr '\n' ' ')"
  return 1
}
stop() {  # stop NAME : SIGTERM, expect exit 0 and the "done" line
  local name=$1 rc
  kill -TERM $PID 2>/dev/null
  wait $PID; rc=$?
  if [ $rc = 0 ] && grep -q 'kiosk-hud: done' "$LOG"; then ok "$name-quit"; else fail "$name-quit" "exit $rc: $(tail -2 "$LOG" | tr '\n' ' ')"; fi
}
shot() {  # shot NAME ROTATION KIND [HEAD]
  local f
  if f=$(vm_screendump "$GPU-$1" ${4:-}); then
    echo "shot ${f##*/} ${4:-0} $2 $3" >> "$M"
  else
    fail "$1-screendump" "$f"
  fi
}
shots() {  # shots NAME ROTATION KIND : every head
  local h
  if [ "$HEADS" = 2 ]; then for h in 0 1; do shot "$1-h$h" "$2" "$3" $h; done; else shot "$1" "$2" "$3"; fi
}
logvalue() { sed -n "s/.*$2=\([^ ]*\).*/\1/p" "$1" | tail -1; }
wait_log() { vm_wait_log "$LOG" "$@"; }   # wait_log PATTERN SECONDS

info setup "heads=$HEADS $(cat /sys/class/drm/card0-Virtual-1/modes 2>/dev/null | head -1)"

# --- 1. the static HUD, rotation 0: equals the offscreen render ------------------------------------
if start static --check-scanout "${STATIC[@]}"; then
  ok static-first-frame
  grep -h 'kiosk-hud: output' "$LOG" | sed "s/^/info $GPU\/output: /"
  grep -h 'first-frame' "$LOG" | sed "s/^/info $GPU\/static: /"
  vm_sleep 0.3
  shots static 0 static
  stop static
  grep -q 'scanout_violations=0' "$LOG" && ok static-no-scanout-writes || fail static-no-scanout-writes "$(grep done "$LOG")"
  vm_sleep 0.2
  shot after-quit 0 console   # the console is back (the host checks it is not the HUD)
fi

# --- 1b. the frame cache: a second start with the same options shows the first frame from the C
# constructor (before the Swift runtime), then takes that buffer over and flips to its own first
# frame. kiosk-hud compares the two (the hash of the scanout bytes) and logs "differed" if the
# cached picture was not what it drew; the screendump must equal the render as before, and the
# console must come back after quitting (the CRTC state saved by the C side).
CACHE=/tmp/kiosk-frame-cache
rm -rf "$CACHE"
EARLY=(--check-scanout --glyph-cache "$CACHE" "${STATIC[@]}")
if start early-first "${EARLY[@]}"; then
  wait_log 'frame cache: written' 5 && ok early-cache-written || fail early-cache-written "$(grep -h 'frame cache\|first-frame' "$LOG" | tr '\n' ' ')"
  stop early-first
fi
if start early "${EARLY[@]}"; then
  grep -q 'the early frame was taken over' "$LOG" && grep -q 'source=frame-cache' "$LOG" && ok early-frame-shown ||
    fail early-frame-shown "$(grep -h 'frame cache\|first-frame' "$LOG" | tr '\n' ' ')"
  grep -q 'differed' "$LOG" && fail early-frame-equals-drawn "$(grep differed "$LOG")" || ok early-frame-equals-drawn
  grep -h 'first-frame exec' "$LOG" | sed "s/^/info $GPU\/early: /"
  vm_sleep 0.3
  shots early 0 static
  stop early
  grep -q 'scanout_violations=0' "$LOG" && ok early-no-scanout-writes || fail early-no-scanout-writes "$(grep done "$LOG")"
  vm_sleep 0.2
  shot early-after-quit 0 console
fi
# A file the frame was drawn from changed (here the board profile): not shown, drawn as usual, rewritten.
printf 'name = "vm-board"\n' > "$OUT/board-early.toml"
EB=(--duration 0 --glyph-cache "$CACHE" --board "$OUT/board-early.toml" "${STATIC[@]}")
"$HUD" show "${EB[@]}" > "$OUT/early-board-1.log" 2>&1
printf 'name = "vm-board-2"\n' > "$OUT/board-early.toml"
"$HUD" show "${EB[@]}" > "$OUT/early-board-2.log" 2>&1
grep -q "board-early.toml: changed" "$OUT/early-board-2.log" && grep -q 'source=drawn' "$OUT/early-board-2.log" &&
  grep -q 'frame cache: written' "$OUT/early-board-2.log" && ok early-changed-file-not-shown ||
  fail early-changed-file-not-shown "$(grep -h 'frame cache\|first-frame' "$OUT/early-board-2.log" | tr '\n' ' ')"

# --- 2. rotations ------------------------------------------------------------------------------
for r in 90 180 270; do
  if start rot$r --rotate $r "${STATIC[@]}"; then
    grep -q "rotation=$r (override)" "$LOG" && ok rot$r-logged || fail rot$r-logged "$(grep output "$LOG" | head -1)"
    vm_sleep 0.2
    shots rot$r $r static
    stop rot$r
  fi
done

# --- 2b. the board profile's [display] rotation (the command line would override it) -----------------
printf 'name = "vm-board"\n[display]\nrotation = 180\n' > "$OUT/board-r180.toml"
BOARD=(--board "$OUT/board-r180.toml" "${STATIC[@]}")
echo "kind board ${BOARD[*]}" >> "$M"
if start board "${BOARD[@]}"; then
  grep -q "rotation=180 (override)" "$LOG" && ok board-rotation || fail board-rotation "$(grep output "$LOG" | head -1)"
  vm_sleep 0.2
  shots board 180 board
  stop board
fi

# --- 3. spinner: page flips counted over N frames, none drawn into the visible buffer ---------------
# 10 s: at 12 frames a second that is ~120 presents; a guest short of CPU (a loaded CI host)
# completes fewer flips (more presents coalesce while one is in flight), still well over 20.
if start spin --check-scanout --duration 10 "${SPIN[@]}"; then
  vm_sleep 1
  shots spin-a 0 spinner
  vm_sleep 0.4
  shots spin-b 0 spinner
  wait $PID; rc=$?
  d=$(grep 'kiosk-hud: done' "$LOG")
  flips=$(logvalue "$LOG" flips) presents=$(logvalue "$LOG" presents) coalesced=$(logvalue "$LOG" coalesced)
  info spin "$d"
  # Every present is a flip, a first frame, or replaced by a later one while a flip was in flight.
  if [ $rc = 0 ] && [ -n "$flips" ] && [ "$flips" -ge 20 ] && [ $((presents - flips - coalesced)) = "$HEADS" ]; then
    ok spin-flips
  else
    fail spin-flips "exit $rc, want >= 20 flips and presents - flips - coalesced = $HEADS (first frames): $d"
  fi
  grep -q 'scanout_violations=0 ' <<<"$d" && ok spin-no-scanout-writes || fail spin-no-scanout-writes "$d"
  grep -q 'flip_timeouts=0 ' <<<"$d" && ok spin-flip-events || fail spin-flip-events "$d"
  grep -q 'page_flip=yes' <<<"$d" && ok spin-page-flip || fail spin-page-flip "$d"
fi

# --- 4. --retain: the frame stays after exit; the next program takes over ------------------------------
LOG=$OUT/retain.log
"$HUD" show --retain --duration 0.5 "${STATIC[@]}" > "$LOG" 2>&1; rc=$?
keeper=$(sed -n 's/.*keeper pid \([0-9]*\).*/\1/p' "$LOG")
if [ $rc = 0 ] && [ -n "$keeper" ] && kill -0 "$keeper" 2>/dev/null; then ok retain-exit; else fail retain-exit "exit $rc: $(tr '\n' ' ' < "$LOG")"; fi
vm_sleep 0.3
shots retain 0 static
"$MODESET" -s 3 0x00ff00 > $OUT/handover.log 2>&1 &
MP=$!
for i in $(seq 100); do grep -q 'modeset: ready' $OUT/handover.log && break; vm_sleep 0.05; done
if grep -q 'modeset: ready' $OUT/handover.log; then ok handover-modeset; else fail handover-modeset "$(cat $OUT/handover.log)"; fi
shot handover 0 green 0
if [ "$HEADS" = 1 ] && [ -n "$keeper" ]; then
  for i in $(seq 40); do kill -0 "$keeper" 2>/dev/null || break; vm_sleep 0.05; done
  if kill -0 "$keeper" 2>/dev/null; then fail handover-keeper-exits "keeper $keeper still there"; else ok handover-keeper-exits; fi
elif [ -n "$keeper" ]; then
  # Two heads: modeset took head 0 only, so the keeper still holds head 1's frame.
  vm_sleep 0.3
  if kill -0 "$keeper" 2>/dev/null; then ok handover-keeper-holds-head1; else fail handover-keeper-holds-head1 "keeper gone"; fi
  shot handover-h1 0 static 1
  kill "$keeper" 2>/dev/null
fi
kill -TERM $MP 2>/dev/null; wait $MP 2>/dev/null

# --- 5. VT switch away and back: drop master, someone else shows, redraw on return --------------------
if command -v busybox >/dev/null && start vt "${STATIC[@]}"; then
  if grep -q 'vt: following switches on tty' "$LOG"; then
    busybox chvt 2
    if wait_log 'VT switch away' 5; then ok vt-release; else fail vt-release "$(tail -2 "$LOG" | tr '\n' ' ')"; fi
    "$MODESET" -s 1 0xff0000 > $OUT/vt-modeset.log 2>&1 &
    MP=$!
    for i in $(seq 100); do grep -q 'modeset: ready' $OUT/vt-modeset.log && break; vm_sleep 0.05; done
    grep -q 'modeset: ready' $OUT/vt-modeset.log && ok vt-other-program-master || fail vt-other-program-master "$(cat $OUT/vt-modeset.log)"
    shot vt-away 0 red 0
    wait $MP
    busybox chvt 1
    if wait_log 'display is ours again' 5; then ok vt-acquire; else fail vt-acquire "$(tail -3 "$LOG" | tr '\n' ' ')"; fi
    vm_sleep 0.3
    shots vt-back 0 static
  else
    info vt "no VT here: $(grep 'vt:' "$LOG")"
  fi
  stop vt
fi

# --- 6. hotplug (two heads): Virtual-2 goes away and comes back; head 0 keeps going -------------------
if [ "$HEADS" = 2 ]; then
  S=/sys/class/drm/card0-Virtual-2/status
  if start hotplug "${SPIN[@]}"; then
    # virtio-gpu does not poll connectors, so a forced status change sends no uevent by itself:
    # send the "change" uevent the kernel's poll helper would (what udevadm trigger does).
    echo off > $S; echo change > /sys/class/drm/card0/uevent
    if wait_log 'Virtual-2 gone' 5; then ok hotplug-gone; else fail hotplug-gone "$(tail -3 "$LOG" | tr '\n' ' ')"; fi
    vm_sleep 0.3
    shot hotplug-gap-a 0 spinner 0
    vm_sleep 0.4
    shot hotplug-gap-b 0 spinner 0
    kill -0 $PID 2>/dev/null && ok hotplug-others-continue || fail hotplug-others-continue "kiosk-hud exited"
    echo on > $S; echo change > /sys/class/drm/card0/uevent   # "on": its state before (video=...e)
    if wait_log 'Virtual-2 connected' 5; then ok hotplug-back; else fail hotplug-back "$(tail -3 "$LOG" | tr '\n' ' ')"; fi
    vm_sleep 0.6
    shot hotplug-back-h1 0 spinner 1
    stop hotplug
    info hotplug "$(grep 'kiosk-hud: done' "$LOG")"
  fi
fi

# --- 7. fbdev fallback (bochs: drm's fbdev emulation on /dev/fb0) ----------------------------------
if [ "$GPU" = bochs ] && [ -c /dev/fb0 ]; then
  if start fbdev --fbdev /dev/fb0 "${STATIC[@]}"; then
    grep -h 'fbdev' "$LOG" | sed "s/^/info $GPU\/fbdev: /"
    vm_sleep 0.4   # fbdev emulation flushes its shadow every 50 ms
    shot fbdev 0 static
    stop fbdev
  fi
  # Pan-based double buffering: reload drm_kms_helper so the fbdev emulation allocates a
  # double-height virtual screen (drm_fbdev_overalloc=200); its pan_display then moves the CRTC.
  for v in /sys/class/vtconsole/vtcon*; do grep -q "frame buffer" $v/name && echo 0 > $v/bind; done
  if rmmod bochs virtio_gpu drm_vram_helper drm_ttm_helper drm_kms_helper 2>/dev/null &&
     modprobe drm_kms_helper drm_fbdev_overalloc=200 && modprobe bochs; then
    for i in $(seq 40); do [ -c /dev/fb0 ] && [ -c /dev/dri/card0 ] && break; vm_sleep 0.05; done
    for v in /sys/class/vtconsole/vtcon*; do grep -q "frame buffer" $v/name && echo 1 > $v/bind; done
    info fbdev-pan "virtual_size=$(cat /sys/class/graphics/fb0/virtual_size)"
    if start fbdev-pan --fbdev /dev/fb0 --duration 20 "${SPIN[@]}"; then
      grep -q 'two buffers, pan-flipped' "$LOG" && ok fbdev-pan-double-buffered || fail fbdev-pan-double-buffered "$(grep fbdev "$LOG" | head -2 | tr '\n' ' ')"
      vm_sleep 0.6
      shot fbdev-pan-a 0 spinner
      vm_sleep 0.4
      shot fbdev-pan-b 0 spinner
      stop fbdev-pan
      d=$(grep 'kiosk-hud: done' "$LOG"); info fbdev-pan "$d"
      pans=$(logvalue "$LOG" pans)
      [ -n "$pans" ] && [ "$pans" -ge 5 ] && ok fbdev-pans || fail fbdev-pans "$d"
    fi
  else
    fail fbdev-pan-reload "cannot reload drm_kms_helper with drm_fbdev_overalloc=200"
  fi
fi

# --- 8. exec -> first frame, as a ratio to the C modeset program; RSS -----------------------------
# stamp-exec (built beside modeset) sets KIOSK_EXEC_T0_NS just before execv: both programs then
# report exec -> first frame exactly, without the shell's fork (/proc/self/stat's starttime, the
# fallback, has 10 ms resolution and counts the fork). Each writes to a file that is read after it
# exits: a filter on a pipe (sed, grep) would start at the same moment and share the one vCPU
# with the program being timed (it added 80 ms to modeset's 90 and 180 ms to kiosk-hud's 250).
# Alternating rounds; the first warms the page cache and kiosk-hud's glyph cache (as every boot
# after the first does).
STAMP=$(dirname "$MODESET")/stamp-exec
[ -x "$STAMP" ] || STAMP=
# kiosk-hud runs twice per round: as it starts by default (the frame cache, warmed by the first
# round, shows the first frame from the C constructor), and with --no-frame-cache (the first frame
# drawn by the Swift side: runtime, options, display, layout, drawing).
t_c=() t_k=() t_m=() t_d=()
TOUT=/tmp/kiosk-timing.out
for i in $(seq 1 13); do
  $STAMP "$MODESET" 0x000000 > "$TOUT" 2>&1
  c=$(sed -n 's/.*t_exec_ms=\([0-9.]*\).*/\1/p' "$TOUT")
  $STAMP "$HUD" show --duration 0 "${STATIC[@]}" > "$TOUT" 2>&1
  line=$(grep 'first-frame exec_ms=' "$TOUT")
  k=$(echo "$line" | sed -n 's/.*first-frame exec_ms=\([0-9.]*\).*/\1/p')
  [ $i -gt 1 ] && ! echo "$line" | grep -q source=frame-cache && fail timing-frame-cache "round $i: $line"
  $STAMP "$HUD" show --duration 0 --no-frame-cache "${STATIC[@]}" > "$TOUT" 2>&1
  line=$(grep 'first-frame exec_ms=' "$TOUT")
  d=$(echo "$line" | sed -n 's/.*first-frame exec_ms=\([0-9.]*\).*/\1/p')
  m=$(echo "$line" | sed -n 's/.* main_ms=\([0-9.]*\).*/\1/p')
  [ $i -eq 13 ] && grep -h 'first-frame phases' "$TOUT" | sed "s/^/info $GPU\/timing: /"
  [ $i -gt 1 ] && t_c+=("$c") && t_k+=("$k") && t_m+=("$m") && t_d+=("$d")
done
info timing "modeset_exec_ms=${t_c[*]} kiosk_hud_exec_ms=${t_k[*]} kiosk_hud_drawn_exec_ms=${t_d[*]} kiosk_hud_drawn_main_ms=${t_m[*]} (stamp-exec: ${STAMP:-none})"
echo "timing modeset ${t_c[*]}" >> "$M"
echo "timing kiosk-hud ${t_k[*]}" >> "$M"
echo "timing kiosk-hud-drawn ${t_d[*]}" >> "$M"
if start rss --duration 30 --connector Virtual-1 "${SPIN[@]}"; then
  vm_sleep 1   # both scanout buffers in use by now
  rss=$(sed -n "s/^VmRSS:[[:space:]]*\([0-9]*\) kB/\1/p" /proc/$PID/status)
  info rss "VmRSS=${rss} kB ($(grep -E '^Rss(Anon|File|Shmem)' /proc/$PID/status | tr -s ' \t' ' ' | tr '\n' ' ')) $(grep -h 'kiosk-hud: output' "$LOG" | head -1 | sed 's/.*mode=\([^ ]*\).*/mode=\1/')"
  echo "rss $rss" >> "$M"
  stop rss
fi
echo "end" >> "$M"
exit 0

#!/bin/bash
# Tests/VM/takeover/guest.sh — the in-guest half of the takeover test (#19), run by
# Tests/KioskDRMTests/VMTakeoverTests.swift through `run-in-vm.sh --efi --hold bochs`: the
# firmware's efifb is /dev/fb0, bochs-drm is held back.
#
#   guest.sh KIOSK_HUD_BINARY
#
# The arm64 guest (Tests/KioskDRMTests/VMArm64Tests.swift: run-in-vm.sh --arch arm64 --efi --hold
# virtio-gpu, AAVMF's framebuffer a ramfb) sets KIOSK_TAKEOVER_DRIVER=virtio-gpu (the module),
# KIOSK_TAKEOVER_CARD=virtio_gpu (the card's driver as the HUD logs it) and KIOSK_TAKEOVER_HEAD=0
# (the card's screendumps from virtio-gpu's head 0, not the firmware's console) and
# KIOSK_TAKEOVER_DMESG (the kernel's line for the card's registration: there is no takeover line).
#
# `kiosk-hud show` (no --card/--fbdev) starts on efifb; screendumps; `modprobe bochs` (efifb is
# unregistered, card0 and bochs's own fb0 appear); the HUD must follow to card0 (one
# display-switch line); screendumps right after and a moment later. Prints "ok NAME",
# "FAIL NAME: why", "info NAME: ..."; the screendumps are listed in $VM_OUT/manifest
# ("shot FILE WHEN") with the HUD's options ("kind ARGS..."), for the host to compare with
# `kiosk-hud render` at each size.
set -u
HUD=$1
DRIVER=${KIOSK_TAKEOVER_DRIVER:-bochs} CARD=${KIOSK_TAKEOVER_CARD:-bochs-drm} HEAD=${KIOSK_TAKEOVER_HEAD:-}
. "$KIOSK_VM_GUEST/lib.sh"
OUT=$VM_OUT
M=$OUT/manifest
: > "$M"
ARGS=(--label Takeover --details "efifb-to-$DRIVER" --scale 1)
echo "kind ${ARGS[*]}" >> "$M"
up() { local u; read -r u _ < /proc/uptime; echo "$u"; }
ok() { echo "ok $1"; }
fail() { echo "FAIL $1: $2"; }
info() { echo "info $1: $2"; }
shot() {  # shot NAME WHEN [HEAD]
  local f
  if f=$(vm_screendump "$1" ${3:-}); then echo "shot ${f##*/} $2" >> "$M"; else fail "$1-screendump" "$f"; fi
}

[ -e /dev/fb0 ] && [ ! -e /dev/dri/card0 ] && ok "efifb-alone" || fail "efifb-alone" "$(cat /proc/fb; ls /dev/dri 2>&1)"
info fb "$(cat /proc/fb | tr '\n' ' ')"
LOG=$OUT/show.log
T_EXEC=$(up)
"$HUD" show "${ARGS[@]}" > "$LOG" 2>&1 &
PID=$!
for _ in $(seq 600); do grep -q 'first-frame' "$LOG" && break; kill -0 $PID 2>/dev/null || break; vm_sleep 0.05; done
if grep -q 'first-frame' "$LOG"; then ok "first-frame-on-efifb"; else fail "first-frame-on-efifb" "$(tail -5 "$LOG" | tr '\n' ' ')"; fi
grep -q 'display: on EFI VGA /dev/fb0' "$LOG" && ok "started-on-efifb" || fail "started-on-efifb" "$(grep display: "$LOG" | tr '\n' ' ')"
vm_sleep 0.5
shot before efifb

T0=$(up)
modprobe "$DRIVER" || fail modprobe "modprobe $DRIVER failed"
for _ in $(seq 400); do grep -q '^kiosk-hud: display-switch\|display-switch ' "$LOG" && break; vm_sleep 0.025; done
T1=$(up)
shot after card0 $HEAD
vm_sleep 0.25
shot later card0 $HEAD
vm_sleep 0.3
shot later2 card0 $HEAD
if grep -q "display-switch from=\"EFI VGA /dev/fb0\" to=\"$CARD /dev/dri/card0\"" "$LOG"; then
  ok "switched"
else
  fail "switched" "$(grep -E 'display|output' "$LOG" | tr '\n' ' ')"
fi
info switch "modprobe at ${T0}s, switch line seen at ${T1}s: $(grep -o 'display-switch .*' "$LOG")"
echo "timing modprobe-to-switch-line $(awk "BEGIN{print $T1 - $T0}")" >> "$M"
grep -o 'gap_ms=[0-9]*' "$LOG" | sed 's/gap_ms=/timing gap_ms /' >> "$M"
# Boot timings for Tests/VM/takeover/measure.sh, all on the kernel log's clock: efifb registered,
# the HUD's first frame on it, bochs-drm taking the hardware over (its vgaarb line comes right
# after efifb is removed), the HUD's first frame on card0. CLOCK_MONOTONIC (the HUD's at_s) is
# put on that clock by a mark written to /dev/kmsg with the monotonic time beside it.
# The arm64 root has no python3: /proc/uptime (the same clock in a guest that never suspends,
# to 10 ms) is its mark.
if command -v python3 >/dev/null; then
  python3 -c 'import time; t = time.monotonic(); open("/dev/kmsg", "w").write(f"kiosk-clock-mark {t:.6f}\n")'
else
  echo "kiosk-clock-mark $(up)" > /dev/kmsg
fi
dm() { dmesg | grep -m1 -E "$1" | sed -E 's/^\[ *([0-9.]+)\].*/\1/'; }
MARK=$(dmesg | grep -m1 'kiosk-clock-mark' | sed -E 's/^\[ *([0-9.]+)\].*kiosk-clock-mark ([0-9.]+)/\1 \2/')
OFF=$(awk -v m="$MARK" 'BEGIN{split(m, a, " "); print a[1] - a[2]}')
FF=$(grep -m1 -o 'first-frame exec_ms.* at_s=[0-9.]*' "$LOG" | sed 's/.*at_s=//')
SW=$(grep -m1 -o 'display-switch .* at_s=[0-9.]*' "$LOG" | sed 's/.*at_s=//')
{
  echo "timing clock-offset-s $OFF"
  echo "timing efifb-registered-s $(dm 'fb0: EFI VGA frame buffer device')"
  echo "timing hud-exec-s $T_EXEC"
  [ -n "$FF" ] && echo "timing first-frame-on-efifb-s $(awk "BEGIN{print $FF + $OFF}")"
  echo "timing takeover-s $(dm "${KIOSK_TAKEOVER_DMESG:-bochs-drm .*vgaarb: deactivate vga console}")"
  [ -n "$SW" ] && echo "timing first-frame-on-card0-s $(awk "BEGIN{print $SW + $OFF}")"
} >> "$M"
kill -TERM $PID 2>/dev/null
wait $PID; rc=$?
if [ $rc = 0 ]; then ok "quit"; else fail "quit" "exit $rc: $(tail -3 "$LOG" | tr '\n' ' ')"; fi
info log "$(grep -E 'display|output|first-frame ' "$LOG" | tr '\n' '|')"
echo end >> "$M"

#!/bin/bash
# wait-display.sh KIOSK_HUD — the in-guest half of Tests/KioskDRMTests/VMWaitDisplayTests.swift
# (run-in-vm.sh --gpu none): `kiosk-hud daemon --wait-display` on a real kernel whose display
# appears while it waits — a bochs-display PCI device hot-plugged through QMP (device_add, ACPI
# PCI hotplug), so the kernel makes /dev/dri/card0 and its connector with the daemon already
# running, as a display driver loaded by udev's coldplug does at boot.
#   1. no display: `daemon --wait-display 1` gives up after 1 s with its one line and exits 1
#      (no fbdev either);
#   2. `daemon --wait-display 60`: ctl ping and an update (progress 0.3, a label) are answered
#      while it waits, status shows no display; the device is plugged; the daemon opens it and
#      draws — the first frame shows the update; a screendump once ctl ping says it is drawn
#      (the host compares it with `kiosk-hud render` of that state); ctl quit, exit 0.
# Prints "ok NAME", "FAIL NAME: why", "info NAME: ..."; "shot<TAB>FILE<TAB>render args..." and
# "time NAME SECONDS" lines in $VM_OUT/manifest, then "end".
set -u
HUD=$1
. "$KIOSK_VM_GUEST/lib.sh"
OUT=$VM_OUT
M=$OUT/manifest
: > "$M"
W=$(mktemp -d /tmp/wait.XXXXXX)
ok() { echo "ok $1"; }
fail() { echo "FAIL $1: $2"; }
info() { echo "info $1: $2"; }
uptime_s() { cut -d' ' -f1 /proc/uptime; }

[ ! -e /dev/dri/card0 ] && ok no-display-at-start || fail no-display-at-start "$(ls /dev/dri)"

# --- 1. nothing comes: one line, the usual failure ----------------------------------------------
"$HUD" daemon --wait-display 1 --no-input --socket "$W/a.sock" 2> "$OUT/giveup.log"; rc=$?
grep -q '^kiosk-hud: display: none appeared within 1.0 s (no DRM device (/dev/dri/card\*)); going on as without --wait-display$' "$OUT/giveup.log" &&
  [ "$rc" = 1 ] && tail -1 "$OUT/giveup.log" | grep -q '^Error: cannot open the display: ' && ok gives-up ||
  fail gives-up "exit $rc: $(tr '\n' '|' < "$OUT/giveup.log")"

# --- 2. the display comes while the daemon waits ------------------------------------------------
S=$W/c.sock
"$HUD" daemon --wait-display 60 --no-input --socket "$S" --mode bar --label Waiting --scale 1 2> "$OUT/daemon.log" &
pid=$!
up=
for _ in $(seq 300); do "$HUD" ctl ping --socket "$S" 2>/dev/null && { up=1; break; }; sleep 0.1; done
[ -n "$up" ] && ok ping-while-waiting || fail ping-while-waiting "$(tr '\n' '|' < "$OUT/daemon.log")"
"$HUD" ctl update --socket "$S" --progress 0.3 --label 'Half way' && ok update-while-waiting || fail update-while-waiting "exit $?"
st=$("$HUD" ctl status --socket "$S")
[[ $st == *'"label":"Half way"'* && $st == *'"displays":[]'* ]] && ok status-while-waiting || fail status-while-waiting "$st"
grep -q 'first-frame' "$OUT/daemon.log" && fail no-frame-before "a first frame before the display existed"

t_plug=$(uptime_s)
r=$(vm_qmp '{"execute":"device_add","arguments":{"driver":"bochs-display","id":"late","bus":"pci.0","addr":"0x9","xres":800,"yres":480}}')
info device_add "$r"
if vm_wait_log "$OUT/daemon.log" 'first-frame exec_ms=' 60; then ok display-appeared
else fail display-appeared "$(tr '\n' '|' < "$OUT/daemon.log")"; fi
grep -q 'kiosk-hud: display: appeared after ' "$OUT/daemon.log" && ok appeared-line || fail appeared-line "$(tr '\n' '|' < "$OUT/daemon.log")"
"$HUD" ctl ping --socket "$S" >/dev/null && sleep 0.2
vm_screendump wait-first.ppm >/dev/null && printf 'shot\twait-first.ppm\t--mode\tbar\t--progress\t0.3\t--label\tHalf way\t--scale\t1\n' >> "$M"
grep -h 'display:\|first-frame\|kiosk-hud: output' "$OUT/daemon.log" | sed 's/^/info daemon-log: /'
ff=$(sed -n 's/.*first-frame exec_ms=.* at_s=\([0-9.]*\).*/\1/p' "$OUT/daemon.log" | head -1)
echo "time plugged $t_plug" >> "$M"
[ -n "$ff" ] && echo "time first-frame $ff" >> "$M"
"$HUD" ctl quit --socket "$S" >/dev/null
wait $pid; rc=$?
[ "$rc" = 0 ] && ok daemon-quit || fail daemon-quit "exit $rc"
echo end >> "$M"

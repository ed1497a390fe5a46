#!/bin/bash
# Tests/VM/takeover/daemon.sh — the daemon through the takeover, with a program that takes the
# new card first (#19): run by Tests/KioskDRMTests/VMTakeoverTests.swift through
# `run-in-vm.sh --efi --hold bochs`: the firmware's efifb is /dev/fb0, bochs-drm is held back.
#
#   daemon.sh KIOSK_HUD MODESET [BACK_WITHIN]
#
# 1. `kiosk-hud daemon` (no --card/--fbdev) starts on efifb; a screendump at a known progress.
# 2. A client sends progress updates over one connection, one after another, from now until the
#    HUD is back on the new card (every reply must be "ok"; each reply's wait is timed).
# 3. efifb is unbound (as the new driver's probe does it): the daemon lets go of it and waits
#    with no display, still answering. Then it is stopped (SIGSTOP) for the moment it takes to
#    load bochs-drm and to let the C modeset client (Tests/VM/ref/modeset.c) become card0's
#    master and set a mode of its own, as a console helper or a splash would; the daemon goes on
#    (SIGCONT), finds card0 held and says so; screendumps show the client's red. (Stopped while
#    it still had efifb open, the new card's first master shows black: bochs-drm cannot claim
#    the framebuffer's memory while the old fbdev is open — a state no running HUD leaves.)
# 4. The client lets go (SIGTERM: it puts the CRTC back as it found it and exits); the daemon
#    must have card0 again within LIMIT seconds (default 1; its "switching to" line: the card
#    opened, master taken), then show on it with our mode (its display-switch line, the shots).
#    While card0 is held, psplash's FIFO gets `MSG Switching` (the label).
# 5. The updates stop with a last one (progress FINAL); `ctl status` must say FINAL and the
#    FIFO's label; screendumps right after and a moment later must equal `kiosk-hud render` of
#    that state at card0's size.
# Prints "ok NAME", "FAIL NAME: why", "info NAME: ..."; $VM_OUT/manifest lists "kind ARGS...",
# "shot FILE WHAT [PROGRESS LABEL]" and "timing NAME VALUE" for the host.
set -u
HUD=$1 MODESET=$2 LIMIT=${3:-1.0}
. "$KIOSK_VM_GUEST/lib.sh"
OUT=$VM_OUT
M=$OUT/manifest
: > "$M"
W=$(mktemp -d /tmp/takeover-daemon.XXXXXX)
SOCK=$W/control.sock
LOG=$OUT/daemon.log
ARGS=(--mode bar --details efifb-to-bochs-drm --scale 1)
echo "kind ${ARGS[*]}" >> "$M"
up() { local u; read -r u _ < /proc/uptime; echo "$u"; }
ok() { echo "ok $1"; }
fail() { echo "FAIL $1: $2"; }
info() { echo "info $1: $2"; }
shot() {  # shot NAME WHAT [PROGRESS LABEL]
  local f
  if f=$(vm_screendump "$1"); then echo "shot ${f##*/} ${*:2}" >> "$M"; else fail "$1-screendump" "$f"; fi
}
wait_log() { vm_wait_log "$LOG" "$@"; }   # wait_log PATTERN SECONDS
ctl() { "$HUD" ctl "$1" --socket "$SOCK" "${@:2}"; }

"$HUD" daemon --socket "$SOCK" --psplash-fifo "$W/psplash_fifo" "${ARGS[@]}" --label Updating --progress 0.1 > "$LOG" 2>&1 &
PID=$!
wait_log 'first-frame' 30 && ok "first-frame-on-efifb" || fail "first-frame-on-efifb" "$(tail -5 "$LOG" | tr '\n' ' ')"
grep -q 'display: on EFI VGA /dev/fb0' "$LOG" && ok "started-on-efifb" || fail "started-on-efifb" "$(grep display: "$LOG" | tr '\n' ' ')"
vm_sleep 0.3
shot before efifb 0.1 Updating

# The client: updates until $W/stop exists, then the last one (FINAL); one line of results.
FINAL=0.875
python3 - "$SOCK" "$W/stop" "$FINAL" > "$W/updater.out" 2> "$W/updater.err" <<'EOF' &
import json, os, socket, sys, time
path, stop, final = sys.argv[1], sys.argv[2], float(sys.argv[3])
s = socket.socket(socket.AF_UNIX); s.connect(path)
f = s.makefile("rwb", buffering=0)
sent = okay = 0; errors = []; worst = 0.0; waits = []
def request(i, p):
    global sent, okay, worst
    t = time.monotonic()
    f.write(json.dumps({"v": 1, "op": "update", "id": i, "progress": p, "animated": False}).encode() + b"\n")
    sent += 1
    line = f.readline()
    dt = time.monotonic() - t
    waits.append(dt); worst = max(worst, dt)
    r = json.loads(line) if line else {}
    if r.get("ok") is True and r.get("id") == i: okay += 1
    else: errors.append(line.decode(errors="replace").strip() or "EOF")
request(0, 0.1)
open(stop + ".ready", "w").close()
i = 0
while not os.path.exists(stop):
    i += 1
    request(i, round(0.1 + (i % 700) / 1000, 3))
    time.sleep(0.02)
request(i + 1, final)
waits.sort()
print(f"sent={sent} ok={okay} errors={len(errors)} worst_ms={worst*1000:.0f} median_ms={waits[len(waits)//2]*1000:.1f} first_error={errors[0] if errors else '-'}")
EOF
UPD=$!
for _ in $(seq 1200); do [ -e "$W/stop.ready" ] && break; kill -0 $UPD 2>/dev/null || break; vm_sleep 0.025; done
[ -e "$W/stop.ready" ] || fail "updater-started" "$(head -c 300 "$W/updater.err")"
vm_sleep 0.5

# efifb unregistered first (as the new driver's probe does): the daemon lets go of it and waits
# with its state; the updates go on.
EFIFB=$(ls -d /sys/bus/platform/drivers/efi-framebuffer/efi-framebuffer.* 2>/dev/null | head -1)
if [ -n "$EFIFB" ]; then echo "${EFIFB##*/}" > /sys/bus/platform/drivers/efi-framebuffer/unbind; else
  fail "efifb-unbind" "no efi-framebuffer device: $(ls /sys/bus/platform/drivers 2>&1 | tr '\n' ' ')"
fi
if wait_log 'EFI VGA /dev/fb0 is gone' 10; then ok "daemon-lets-go-of-efifb"; else
  fail "daemon-lets-go-of-efifb" "$(grep display "$LOG" | tr '\n' '|')"
fi
vm_sleep 0.5

# The daemon stopped while bochs-drm loads and the client takes card0 first.
kill -STOP $PID
T_STOP=$(up)
modprobe bochs || fail modprobe "modprobe bochs failed"
for _ in $(seq 200); do [ -e /dev/dri/card0 ] && break; vm_sleep 0.025; done
"$MODESET" -D /dev/dri/card0 -s 60 0xff0000 > "$OUT/modeset.out" 2>&1 &
MS=$!
for _ in $(seq 400); do grep -q 'modeset: ready' "$OUT/modeset.out" && break; vm_sleep 0.025; done
grep -q 'modeset: ready' "$OUT/modeset.out" && ok "client-took-card0" || fail "client-took-card0" "$(tr '\n' ' ' < "$OUT/modeset.out")"
shot client client
kill -CONT $PID
T_CONT=$(up)
if wait_log 'is held by another program' 5; then ok "daemon-sees-card0-held"; else
  fail "daemon-sees-card0-held" "$(grep display "$LOG" | tr '\n' '|')"
fi
shot taken client
# psplash's FIFO answers too while there is no display: the label it sets must be shown later.
printf 'MSG Switching\0' > "$W/psplash_fifo"
vm_sleep 0.5
kill -0 $PID 2>/dev/null && ok "daemon-alive-while-held" || fail "daemon-alive-while-held" "it exited"

# The client lets go: the daemon must take the card within LIMIT seconds (it asks every 0.1 s: a
# master that goes sends no uevent). The bound is on that retry — the card opened, the line
# "switching to" — not on the first frame after it, which is the renderer's time under TCG on
# a loaded host (0.2-0.7 s alone, 2-3 s with other guests running: a timed test would measure
# the host); the frame itself is checked below (the display-switch line, the screendumps).
kill -TERM $MS
wait $MS
T_REL=$(up)
grep -q 'modeset: restored' "$OUT/modeset.out" || info modeset "$(tr '\n' ' ' < "$OUT/modeset.out")"
if wait_log 'display: switching to ' 10; then T_BACK=$(up); else T_BACK=; fi
if [ -n "$T_BACK" ]; then
  BACK=$(awk "BEGIN{print $T_BACK - $T_REL}")
  echo "timing release-to-open $BACK" >> "$M"
  if awk "BEGIN{exit !($BACK < $LIMIT)}"; then ok "back-in-time"; else fail "back-in-time" "${BACK}s after the client let go (limit ${LIMIT}s)"; fi
else
  fail "back-in-time" "no switching line: $(grep display "$LOG" | tr '\n' '|')"
fi
wait_log 'display-switch ' 20 || true
if grep -q 'display-switch from="EFI VGA /dev/fb0" to="bochs-drm /dev/dri/card0"' "$LOG"; then ok "switched"; else
  fail "switched" "$(grep -E 'display' "$LOG" | tr '\n' '|')"
fi

# The updates stop with FINAL; every one was answered "ok".
touch "$W/stop"
wait $UPD
R=$(cat "$W/updater.out")
info updates "$R $(head -c 300 "$W/updater.err" | tr '\n' ' ')"
if [[ $R =~ sent=([0-9]+)\ ok=([0-9]+)\ errors=0 ]] && [ "${BASH_REMATCH[1]}" = "${BASH_REMATCH[2]}" ] && [ "${BASH_REMATCH[1]}" -gt 20 ]; then
  ok "every-update-answered"
else
  fail "every-update-answered" "$R"
fi
[[ $R =~ worst_ms=([0-9]+) ]] && echo "timing update-worst-reply-ms ${BASH_REMATCH[1]}" >> "$M"
ST=$(ctl status 2>&1)
if [[ $ST == *'"progress":'"$FINAL"* ]]; then ok "status-has-last-progress"; else fail "status-has-last-progress" "$ST"; fi
if [[ $ST == *'"label":"Switching"'* ]]; then ok "status-has-fifo-label"; else fail "status-has-fifo-label" "$ST"; fi
vm_sleep 0.3
shot after card0 "$FINAL" Switching
vm_sleep 0.3
shot later card0 "$FINAL" Switching
echo "timing stopped-s $(awk "BEGIN{print $T_CONT - $T_STOP}")" >> "$M"
grep -o 'gap_ms=[0-9]*' "$LOG" | sed 's/gap_ms=/timing gap_ms /' >> "$M"

ctl quit > /dev/null 2>&1 || kill -TERM $PID
wait $PID; rc=$?
if [ $rc = 0 ]; then ok "quit"; else fail "quit" "exit $rc: $(tail -3 "$LOG" | tr '\n' ' ')"; fi
info log "$(grep -E 'display|output|first-frame ' "$LOG" | tr '\n' '|')"
echo end >> "$M"

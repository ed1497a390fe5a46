#!/bin/bash
# daemon.sh KIOSK_HUD UINPUT_TOUCH BX BY TAP_PROGRESS TAP_LABEL MODESET — the in-guest half of Tests/KioskDRMTests/VMDaemonTests.swift
# (run-in-vm.sh --gpu bochs, 800x480): `kiosk-hud daemon` on real KMS driven by `kiosk-hud ctl`, one boot.
#   BX BY  the button's centre in uinput device coordinates (0..4095), rotation 0, when the HUD
#          shows TAP_PROGRESS and TAP_LABEL (no details): the host found it with render --print-layout
# Scenarios:
#   1. the daemon starts (annular, a label, --button Cancel); ctl update --progress 0.25/0.5/0.75/1.0
#      and label/details changes; a screendump after each (the host compares it with
#      `kiosk-hud render` of the same state);
#   2. ctl status: JSON naming the connector and its size, "active":true;
#   3. timings: ctl update / ctl ping wall time (exec included) and the protocol's own
#      request → reply latency (one connection, python: update, update until its frame is drawn,
#      ping), 20 requests each, medians; "info" lines;
#   4. an update that makes the bezel smaller (shorter label, no details): screendump; then a
#      whole-frame redraw (a style change and back) and another;
#   5. a uinput tap on the button ends a waiting `ctl wait-button` (exit 0); with nobody tapping
#      `ctl wait-button --timeout` exits 1;
#   6. ctl quit --retain: the daemon exits 0, the keeper holds the last frame (screendump).
#   7. a daemon started --hidden opens no display (MODESET, Tests/VM/ref/modeset.c, takes card0
#      meanwhile); `ctl show` while that client has the card: not active, a tap presses nothing,
#      the screen is the client's green ("solid" in the manifest); the client gone, the next show
#      is on screen (a shot) and the tap presses the button; `ctl hide`: the card is let go.
# Prints "ok NAME", "FAIL NAME: why", "info NAME: ..."; the screendumps are listed in
# $VM_OUT/manifest as "shot<TAB>FILE<TAB>render args..." (tab-separated: labels have spaces).
set -u
HUD=$1 UINPUT=$2 BX=$3 BY=$4 TAP_PROGRESS=$5 TAP_LABEL=$6 MODESET=$7
. "$KIOSK_VM_GUEST/lib.sh"
OUT=$VM_OUT
M=$OUT/manifest
: > "$M"
W=$(mktemp -d /tmp/daemon.XXXXXX)
SOCK=$W/control.sock
LOG=$OUT/daemon.log

ok() { echo "ok $1"; }
fail() { echo "FAIL $1: $2"; }
info() { echo "info $1: $2"; }
udev() { SYSTEMD_IGNORE_CHROOT=1 udevadm "$@"; }
# Microseconds now (bash's $EPOCHREALTIME: no fork).
now_us() { local t=${EPOCHREALTIME/./}; echo $((10#$t)); }
# median V...: the middle value (integers, sorted by sort -n).
median() { printf '%s\n' "$@" | sort -n | sed -n "$(( ($# + 1) / 2 ))p"; }
ms() { local us=$1; printf '%d.%02d' $((us / 1000)) $(((us % 1000) / 10)); }
oneline() { tr '\n' ' ' < "$1" | cut -c1-400; }
wait_log() { vm_wait_log "$LOG" "$@"; }   # wait_log PATTERN SECONDS
ctl() { "$HUD" ctl "$1" --socket "$SOCK" "${@:2}"; }

# --- the HUD's state, as the daemon should have it; each shot records it as render options --------
MODE=annular PROGRESS=0 LABEL=Starting DETAILS= BUTTON=Cancel
state_args() {
  STATE=(--mode "$MODE" --progress "$PROGRESS" --label "$LABEL" --button "$BUTTON" --scale 1)
  [ -n "$DETAILS" ] && STATE+=(--details "$DETAILS")
  return 0
}
shot() {  # shot NAME: a screendump of the current state, listed with the state's render options
  local f a
  # The daemon replies before it draws: a ping answered after the request means its frame is
  # drawn and the flip queued; then let bochs' commit land. The emulated guest runs beside the
  # rest of the test suite, so the wait is generous (0.3 s failed under load).
  ctl ping >/dev/null 2>&1 || true
  vm_sleep 1
  if f=$(vm_screendump "daemon-$1"); then
    state_args
    { printf 'shot\t%s' "${f##*/}"; for a in "${STATE[@]}"; do printf '\t%s' "$a"; done; echo; } >> "$M"
  else
    fail "$1-screendump" "$f"
  fi
}
# update NAME CTL-OPTIONS...: ctl update (exit 0 expected), then a screendump of the new state.
# The caller sets the state variables to what the options say.
update() {
  local name=$1 rc; shift
  ctl update "$@" > "$W/ctl.out" 2>&1; rc=$?
  if [ $rc = 0 ]; then ok "update-$name"; else fail "update-$name" "ctl update $* exit $rc: $(oneline "$W/ctl.out")"; fi
  shot "$name"
}

# --- the uinput touch screen (before the daemon, so its seat has it at start) -------------------
mkfifo "$W/t.in"
"$UINPUT" --name kiosk-daemon-touch < "$W/t.in" > "$W/t.log" 2>&1 &
TPID=$!
exec {TFD}> "$W/t.in"
SENT=0
count_lines() { local c=0 l; while IFS= read -r l; do [[ $l =~ $2 ]] && c=$((c + 1)); done < "$1"; echo $c; }
touch_dev() {  # touch_dev CMD...: one command per argument; waits until the device has sent them
  local c n=250
  for c in "$@"; do echo "$c" >&"$TFD"; SENT=$((SENT + 1)); done
  while [ "$(count_lines "$W/t.log" '^done')" -lt "$SENT" ] && [ $n -gt 0 ]; do vm_sleep 0.02; n=$((n - 1)); done
}
for _ in $(seq 250); do grep -q '^device ' "$W/t.log" && break; vm_sleep 0.02; done
grep -q '^device ' "$W/t.log" || fail uinput "no device: $(oneline "$W/t.log")"
udev settle --timeout=10

CONN= CMODE=
for c in /sys/class/drm/card0-*; do
  [ "$(cat "$c/status" 2>/dev/null)" = connected ] && { CONN=${c##*/card0-}; CMODE=$(head -1 "$c/modes"); break; }
done
info setup "connector=$CONN mode=$CMODE"

# --- 1. start on real KMS ----------------------------------------------------------------------------
: > "$LOG"
T0=$(now_us)
"$HUD" daemon --socket "$SOCK" --mode "$MODE" --progress "$PROGRESS" --label "$LABEL" --button "$BUTTON" --scale 1 > "$LOG" 2>&1 &
DPID=$!
if wait_log 'control socket: listening' 60 && wait_log 'first-frame' 60 && wait_log 'input: listening' 60; then
  ok daemon-started
  info daemon-start "ready (socket, first frame, input) after $(ms $(( $(now_us) - T0 ))) ms"
  grep -h 'kiosk-hud: output\|first-frame\|input: listening' "$LOG" | sed 's/^/info daemon-log: /'
else
  fail daemon-started "$(oneline "$LOG")"
  kill -TERM $DPID 2>/dev/null
  echo end >> "$M"; exit 0
fi
ctl ping > "$W/ctl.out" 2>&1 && ok ctl-ping || fail ctl-ping "exit $?: $(oneline "$W/ctl.out")"
shot start

# --- 1b. progress, then label and details ----------------------------------------------------------
for p in 0.25 0.5 0.75 1.0; do
  PROGRESS=$p
  update "progress-$p" --progress "$p"
done
LABEL=Installing
update label --label "$LABEL"
LABEL=Verifying DETAILS="Step 3 of 3: checking the image"
update label-details --label "$LABEL" --details "$DETAILS"
PROGRESS=0.6 LABEL="Almost done"
update progress-label --progress "$PROGRESS" --label "$LABEL"

# --- 2. status -----------------------------------------------------------------------------------
if ctl status > "$OUT/status.json" 2> "$W/ctl.err"; then
  S=$(< "$OUT/status.json")
  info status "$S"
  [[ $S == *'"active":true'* ]] && ok status-active || fail status-active "$S"
  w=${CMODE%x*} h=${CMODE#*x}
  [[ $S == *"\"displays\":[{\"name\":\"$CONN\",\"width\":$w,\"height\":$h,"* ]] && ok status-display ||
    fail status-display "want $CONN ${w}x$h in: $S"
  [[ $S == *"\"progress\":0.6,\"label\":\"Almost done\""* ]] && ok status-content || fail status-content "$S"
else
  fail status "exit $?: $(oneline "$W/ctl.err")"
fi

# --- 3. timings: 20 requests each --------------------------------------------------------------------
# ctl as a shell script runs it: fork + exec + the request + the reply + exit.
t_upd=() t_ping=() bad=0
for i in $(seq 20); do
  t=$(now_us); ctl update --progress "0.$((i + 10))" > /dev/null 2>&1 || bad=$((bad + 1)); t_upd+=($(( $(now_us) - t )))
  t=$(now_us); ctl ping > /dev/null 2>&1 || bad=$((bad + 1)); t_ping+=($(( $(now_us) - t )))
done
[ $bad = 0 ] && ok ctl-repeated || fail ctl-repeated "$bad of 40 ctl calls failed"
info ctl-latency "kiosk-hud ctl update (fork+exec to exit) median $(ms "$(median "${t_upd[@]}")") ms; ctl ping median $(ms "$(median "${t_ping[@]}")") ms (20 each)"
echo "timing ctl-update-us ${t_upd[*]}" >> "$M"
echo "timing ctl-ping-us ${t_ping[*]}" >> "$M"
# The protocol itself: one connection, a request written → its reply line read, per request.
/usr/bin/python3 - "$SOCK" > "$W/proto.out" 2>&1 <<'EOF'
import json, socket, sys, time
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.connect(sys.argv[1])
f = s.makefile("rb")
def rtt(req):
    t = time.monotonic_ns()
    s.sendall((json.dumps(req, separators=(",", ":")) + "\n").encode())
    reply = json.loads(f.readline())
    dt = (time.monotonic_ns() - t) // 1000
    if not reply.get("ok"):
        raise SystemExit("error reply: %r" % reply)
    return dt
# The daemon replies, then draws at the start of its next loop turn, before it reads again: a
# ping sent once the update's reply is in is answered after that frame is drawn and queued.
upd, drawn = [], []
for i in range(20):
    u = rtt({"v": 1, "op": "update", "progress": (i + 30) / 100, "id": i})
    upd.append(u)
    drawn.append(u + rtt({"v": 1, "op": "ping", "id": 100 + i}))
ping = [rtt({"v": 1, "op": "ping", "id": 200 + i}) for i in range(20)]
print("update-us", *upd)
print("drawn-us", *drawn)
print("ping-us", *ping)
EOF
if [ $? = 0 ]; then
  read -r _ pu < <(grep '^update-us' "$W/proto.out")
  read -r _ pd < <(grep '^drawn-us' "$W/proto.out")
  read -r _ pp < <(grep '^ping-us' "$W/proto.out")
  ok protocol-latency
  # shellcheck disable=SC2086
  info protocol-latency "on one connection, medians of 20: update → its reply $(ms "$(median $pu)") ms; update → the reply of a ping sent after it (the frame drawn and queued) $(ms "$(median $pd)") ms; ping alone $(ms "$(median $pp)") ms"
  echo "timing proto-update-us $pu" >> "$M"
  echo "timing proto-drawn-us $pd" >> "$M"
  echo "timing proto-ping-us $pp" >> "$M"
else
  fail protocol-latency "$(oneline "$W/proto.out")"
fi
PROGRESS=0.49   # the last update above
shot after-timing

# --- 4. the bezel shrinks: a shorter label, no details (the old bezel's pixels must be cleared) -------
PROGRESS=$TAP_PROGRESS LABEL=$TAP_LABEL DETAILS=
update shrink --progress "$PROGRESS" --label "$LABEL" --details ""
# A style change redraws the whole frame (the renderer forgets its last frame); changed and back,
# it leaves the look as it was: the checks after this one stand on their own whatever "shrink" showed.
if ctl style --corner-radius 6 > "$W/ctl.out" 2>&1 && ctl style --corner-radius 5 >> "$W/ctl.out" 2>&1; then
  ok style-redraw
else
  fail style-redraw "$(oneline "$W/ctl.out")"
fi
shot redrawn

# --- 5. the button: a tap reaches a waiting ctl wait-button --------------------------------------
"$HUD" ctl wait-button --socket "$SOCK" --timeout 60 > "$W/wait.out" 2>&1 &
WPID=$!
# It has subscribed once the daemon counts two clients (it and this status request).
for _ in $(seq 100); do
  [[ $(ctl status 2>/dev/null) == *'"clients":2'* ]] && break
  vm_sleep 0.1
done
[[ $(ctl status 2>/dev/null) == *'"clients":2'* ]] && ok wait-button-subscribed || fail wait-button-subscribed "the daemon does not count the waiting client"
kill -0 $WPID 2>/dev/null && ok wait-button-waits || fail wait-button-waits "exited early: $(oneline "$W/wait.out")"
t=$(now_us)
touch_dev "tap $BX $BY"
# Liveness, not speed (TCG on a loaded CI host: 4.8 s once while ctl's own start took 1.7 s):
# a wall-clock bound of 20 s; the time itself is the info line below.
vm_wait_gone $WPID 20 0.02 || { kill -TERM $WPID; fail wait-button-tap "still waiting 20 s after the tap; killed"; }
wait $WPID; rc=$?
info wait-button "exit $rc $(ms $(( $(now_us) - t ))) ms after the tap was sent"
[ $rc = 0 ] && ok wait-button-tap || fail wait-button-tap "exit $rc, want 0: $(oneline "$W/wait.out")"
kill -0 $DPID 2>/dev/null && ok daemon-survives-button || fail daemon-survives-button "the daemon exited: $(tail -3 "$LOG" | tr '\n' ' ')"
shot after-tap
# ... and nobody taps: --timeout 1 → exit 1, after a second.
t=$(now_us)
"$HUD" ctl wait-button --socket "$SOCK" --timeout 1 > "$W/wait.out" 2>&1; rc=$?
el=$(( $(now_us) - t ))
info wait-button-timeout "exit $rc after $(ms $el) ms"
[ $rc = 1 ] && [ $el -ge 1000000 ] && ok wait-button-timeout || fail wait-button-timeout "exit $rc after $(ms $el) ms, want 1 after >= 1000 ms: $(oneline "$W/wait.out")"

# --- 6. quit --retain: the daemon ends, the keeper holds the last frame -----------------------------
PROGRESS=1.0 LABEL="Update complete" DETAILS="Restarting in a moment"   # a bezel at least as large
update final --progress "$PROGRESS" --label "$LABEL" --details "$DETAILS"
ctl quit --retain > "$W/ctl.out" 2>&1 && ok ctl-quit || fail ctl-quit "exit $?: $(oneline "$W/ctl.out")"
t=$(now_us)
vm_wait_gone $DPID 30 || { kill -TERM $DPID; fail daemon-quit "still running 30 s after quit; killed"; }
info daemon-quit "ended $(ms $(( $(now_us) - t ))) ms after quit's reply"
wait $DPID; rc=$?
grep -h 'control socket:\|retain\|done' "$LOG" | sed 's/^/info daemon-log: /'
[ $rc = 0 ] && grep -q 'kiosk-hud: done' "$LOG" && ok daemon-quit || fail daemon-quit "exit $rc: $(tail -3 "$LOG" | tr '\n' ' ')"
keeper=$(sed -n 's/.*keeper pid \([0-9]*\).*/\1/p' "$LOG")
[ -n "$keeper" ] && kill -0 "$keeper" 2>/dev/null && ok retain-keeper || fail retain-keeper "no keeper: $(grep -h retain "$LOG")"
ctl ping > "$W/ctl.out" 2>&1; rc=$?
[ $rc = 69 ] && ok ctl-after-quit-no-daemon || fail ctl-after-quit-no-daemon "ctl ping exit $rc, want 69: $(oneline "$W/ctl.out")"
[ -e "$SOCK" ] && info socket "the socket file is still there after quit" || ok socket-removed
vm_sleep 0.2
shot retained
[ -n "$keeper" ] && kill "$keeper" 2>/dev/null

# --- 7. a daemon started hidden leaves the display alone (as one socket-activated after the boot's
# handover does while the kiosk app's compositor has the card): no display opened, DRM master
# free for another program; asked to show while that program has the card, it shows nothing and
# a tap presses nothing; once the card is free the next show is on screen and the tap works;
# hidden again, it lets the card go.
vm_sleep 0.3
HLOG=$OUT/daemon-hidden.log
hlog() { vm_wait_log "$HLOG" "$@"; }
MODE=annular PROGRESS=$TAP_PROGRESS LABEL=$TAP_LABEL DETAILS= BUTTON=Cancel
"$HUD" daemon --socket "$SOCK" --hidden --no-frame-cache --grace-time 0 --mode "$MODE" --progress "$PROGRESS" --label "$LABEL" \
  --button "$BUTTON" --scale 1 > "$HLOG" 2>&1 &
HPID=$!
if hlog 'control socket: listening' 60 && ctl ping > /dev/null 2>&1; then ok hidden-started; else fail hidden-started "$(oneline "$HLOG")"; fi
if grep -q 'display: not opened while hidden' "$HLOG" && ! grep -q 'kiosk-hud: output ' "$HLOG"; then ok hidden-no-display; else
  fail hidden-no-display "$(grep -E 'display|output' "$HLOG" | tr '\n' '|')"
fi
"$MODESET" -D /dev/dri/card0 -s 120 0x00ff00 > "$W/modeset.out" 2>&1 &
MS=$!
for _ in $(seq 400); do grep -q 'modeset: ready' "$W/modeset.out" && break; vm_sleep 0.025; done
grep -q 'modeset: ready' "$W/modeset.out" && ok hidden-leaves-master || fail hidden-leaves-master "another program could not take card0: $(oneline "$W/modeset.out")"
ctl show > "$W/ctl.out" 2>&1 || fail held-show "exit $?: $(oneline "$W/ctl.out")"
if hlog 'belongs to another program' 10; then ok held-logged; else fail held-logged "$(grep display "$HLOG" | tr '\n' '|')"; fi
ST=$(ctl status 2>&1)
[[ $ST == *'"active":false'* ]] && ok held-not-active || fail held-not-active "$ST"
"$HUD" ctl wait-button --socket "$SOCK" --timeout 3 > "$W/wait.out" 2>&1 &
WPID=$!
vm_sleep 0.5
touch_dev "tap $BX $BY"
wait $WPID; rc=$?
[ $rc = 1 ] && ok held-tap-presses-nothing || fail held-tap-presses-nothing "ctl wait-button exit $rc (0: a tap pressed a button nobody sees)"
if f=$(vm_screendump "daemon-held"); then printf 'solid\t%s\t00ff00\n' "${f##*/}" >> "$M"; else fail held-screendump "$f"; fi
kill -TERM $MS; wait $MS
ctl show > "$W/ctl.out" 2>&1 || fail shown-show "exit $?: $(oneline "$W/ctl.out")"
if hlog 'display: opened to show' 30 && hlog 'input: listening' 60; then ok shown-after-release; else fail shown-after-release "$(grep -E 'display|input' "$HLOG" | tr '\n' '|')"; fi
ST=$(ctl status 2>&1)
[[ $ST == *'"active":true'* ]] && ok shown-active || fail shown-active "$ST"
shot hidden-shown
"$HUD" ctl wait-button --socket "$SOCK" --timeout 20 > "$W/wait.out" 2>&1 &
WPID=$!
vm_sleep 0.5
touch_dev "tap $BX $BY"
vm_wait_gone $WPID 20 0.02 || kill -TERM $WPID
wait $WPID; rc=$?
[ $rc = 0 ] && ok shown-tap || fail shown-tap "ctl wait-button exit $rc: $(oneline "$W/wait.out")"
ctl hide > /dev/null 2>&1
if hlog 'letting it go' 15; then ok hidden-lets-go; else fail hidden-lets-go "$(grep display "$HLOG" | tr '\n' '|')"; fi
"$MODESET" -D /dev/dri/card0 -s 0 0x0000ff > "$W/modeset.out" 2>&1 && ok master-free-after-hide || fail master-free-after-hide "$(oneline "$W/modeset.out")"
ctl quit > /dev/null 2>&1
vm_wait_gone $HPID 30 || kill -TERM $HPID
wait $HPID; rc=$?
[ $rc = 0 ] && ok hidden-quit || fail hidden-quit "exit $rc: $(tail -3 "$HLOG" | tr '\n' ' ')"
grep -h 'display' "$HLOG" | sed 's/^/info hidden-log: /'

echo "quit" >&"$TFD"; exec {TFD}>&-; wait $TPID 2>/dev/null
echo end >> "$M"
exit 0

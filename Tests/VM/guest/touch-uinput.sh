#!/bin/bash
# touch-uinput.sh KIOSK_HUD UINPUT_TOUCH OUTDIR — the in-guest half of the real-kernel input
# test (Tests/KioskInputTests/VMTouchTests.swift, via run-in-vm.sh --tablet). Creates uinput
# touch screens with Tests/VM/ref/uinput-touch (device range 0..4095), runs `kiosk-hud touch`
# against them (path and udev backends, hotplug, rotations, calibration matrices — ours and
# udev's LIBINPUT_CALIBRATION_MATRIX —, an output binding, a device removed mid-touch, keys)
# and taps the virtio-tablet through QMP. Few kiosk-hud starts: each costs ~1 s under TCG. Each scenario's stdout/stderr/exit code land in
# OUTDIR/NAME.out, .err, .rc; the Swift test checks them. Prints "ran NAME rc=N Tms" and
# "FAIL NAME: why" (harness problems only); exit 0 unless a scenario could not be set up.
set -u
BIN=$1 UINPUT=$2 OUT=$3
. "${0%/*}/lib.sh"
W=$(mktemp -d /tmp/touch.XXXXXX)
FAILS=0
fail() { echo "FAIL $1: $2"; FAILS=$((FAILS + 1)); }
# udevadm refuses to act in a chroot unless told (guest/init does the same).
udev() { SYSTEMD_IGNORE_CHROOT=1 udevadm "$@"; }
now_ms() { local t; read -r t _ < /proc/uptime; t=${t/./}; echo $((10#$t * 10)); }

# wait_line FILE REGEX [SECONDS]: until a line of FILE matches (no forks: TCG).
wait_line() {
  local f=$1 re=$2 n=$(( ${3:-10} * 50 )) l
  while [ "$n" -gt 0 ]; do
    if [ -f "$f" ]; then while IFS= read -r l; do [[ $l =~ $re ]] && return 0; done < "$f"; fi
    vm_sleep 0.02; n=$((n - 1))
  done
  return 1
}
# wait_out N: until the running scenario has printed N lines (events of one device are in
# order, but two devices' could swap if both were pending in one dispatch).
wait_out() {
  local n=500
  while [ "$(count_lines "$OUT/$TNAME.out" '.')" -lt "$1" ] && [ $n -gt 0 ]; do vm_sleep 0.02; n=$((n - 1)); done
}
count_lines() { local c=0 l; while IFS= read -r l; do [[ $l =~ $2 ]] && c=$((c + 1)); done < "$1"; echo $c; }

declare -A DEV_FD DEV_PID DEV_NODE DEV_SENT
# dev_start KEY NAME [uinput-touch options]: a device fed from a fifo; DEV_NODE[KEY] its node.
dev_start() {
  local key=$1 name=$2 fd; shift 2
  mkfifo "$W/$key.in"
  "$UINPUT" --name "$name" "$@" < "$W/$key.in" > "$W/$key.log" 2>&1 &
  DEV_PID[$key]=$!
  exec {fd}> "$W/$key.in"
  DEV_FD[$key]=$fd DEV_SENT[$key]=0
  wait_line "$W/$key.log" '^device ' 10 || { fail "dev-$key" "no device: $(< "$W/$key.log")"; return 1; }
  DEV_NODE[$key]=$(while read -r a b; do [ "$a" = device ] && echo "$b"; done < "$W/$key.log")
}
# dev KEY COMMAND...: send commands (one per argument) and wait until the device has written them.
dev() {
  local key=$1 c; shift
  for c in "$@"; do echo "$c" >&"${DEV_FD[$key]}"; DEV_SENT[$key]=$(( DEV_SENT[$key] + 1 )); done
  local n=250
  while [ "$(count_lines "$W/$key.log" '^done')" -lt "${DEV_SENT[$key]}" ] && [ $n -gt 0 ]; do vm_sleep 0.02; n=$((n - 1)); done
}
dev_quit() { local key=$1; echo quit >&"${DEV_FD[$key]}"; exec {DEV_FD[$key]}>&-; wait "${DEV_PID[$key]}"; }

# touch_start NAME ARGS...: `kiosk-hud touch ARGS` in the background, returns once it listens.
touch_start() {
  TNAME=$1; shift
  T0=$(now_ms)
  : > "$OUT/$TNAME.err"
  "$BIN" touch "$@" > "$OUT/$TNAME.out" 2> "$OUT/$TNAME.err" &
  TPID=$!
  wait_line "$OUT/$TNAME.err" '^touch: listening' 15 || fail "$TNAME" "not listening: $(< "$OUT/$TNAME.err")"
  TL=$(( $(now_ms) - T0 ))
}
# touch_wait: until it exits (its --count / --timeout end it).
touch_wait() {
  wait "$TPID"; local rc=$?
  echo "$rc" > "$OUT/$TNAME.rc"
  echo "ran $TNAME rc=$rc $(( $(now_ms) - T0 ))ms (listening after ${TL}ms)"
}

udev settle --timeout=10 2>/dev/null
[ -e /dev/uinput ] || { fail uinput "no /dev/uinput"; exit 1; }

# A udev rule giving one device a LIBINPUT_CALIBRATION_MATRIX (180°), before it exists.
mkdir -p /etc/udev/rules.d
echo 'ACTION=="add|change", KERNEL=="event*", ATTRS{name}=="kiosk-touch-cal", ENV{LIBINPUT_CALIBRATION_MATRIX}="-1 0 1 0 -1 1"' \
  > /etc/udev/rules.d/99-kiosk-touch-cal.rules
udev control --reload

dev_start a kiosk-touch-a || exit 1
udev settle --timeout=10
A=${DEV_NODE[a]}
echo "info device a $A"

# 1. Path backend, no rotation, panel 800x480: a tap, a drag, two fingers.
touch_start path-r0 --input "$A" --size 800x480 --count 18 --timeout 20
dev a "tap 2048 2048" "down 1024 1024" "move 3072 3072" "up" \
      "down 1024 1024 0" "down 3072 3072 1" "up 0" "up 1"
touch_wait

# 2. Rotation 90 (the picture is 480x800), and 270 with our calibration matrix (shrink to the
#    middle half) applied first: calibration is in sensor space, rotation after it.
touch_start path-r90 --input "$A" --size 800x480 --rotate 90 --count 4 --timeout 15
dev a "tap 1024 1024"
touch_wait
touch_start path-matrix-r270 --input "$A" --size 800x480 --rotate 270 --touch-matrix 0.5,0,0.25,0,0.5,0.25 --count 4 --timeout 15
dev a "tap 1024 1024"
touch_wait

# 3. udev backend with hotplug: devices created while it listens; udev's matrix applies by
#    itself; a device removed with a finger down.
touch_start seat-hotplug --seat seat0 --size 800x480 --count 12 --timeout 20
dev_start b kiosk-touch-b || exit 1
wait_line "$OUT/seat-hotplug.err" 'added .*kiosk-touch-b' 10 || fail seat-hotplug "b not added"
dev b "tap 2048 1024"
wait_out 4
dev_start cal kiosk-touch-cal || exit 1
wait_line "$OUT/seat-hotplug.err" 'added .*kiosk-touch-cal' 10 || fail seat-hotplug "cal not added"
dev cal "tap 1024 1024"
wait_out 8
dev_start r kiosk-touch-r || exit 1
wait_line "$OUT/seat-hotplug.err" 'added .*kiosk-touch-r' 10 || fail seat-hotplug "r not added"
dev r "down 2048 2048"
dev_quit r
touch_wait

# 4. Binding (a belongs to another output: only b and cal count on DSI-1), and --touch-matrix
#    replacing udev's matrix (identity: cal's raw coordinates again).
touch_start seat-bind --seat seat0 --size 800x480 --output DSI-1 --bind-touch kiosk-touch-a=HDMI-A-1 \
  --touch-matrix 1,0,0,0,1,0 --count 8 --timeout 15
dev a "tap 2048 2048"
dev b "tap 1024 3072"
wait_out 4
dev cal "tap 1024 1024"
touch_wait

# 5. The virtio-tablet (absolute pointer, 0..32767) through QMP: a tap in the middle; then keys.
dev_start k kiosk-keys --keys || exit 1
udev settle --timeout=10
touch_start tablet-keys --seat seat0 --size 800x480 --count 11 --timeout 15
vm_pointer tap 16384 16384 || fail tablet "pointer request failed"
# QMP's "ok" comes before the guest has the events: keys only once the release is printed.
wait_line "$OUT/tablet-keys.out" '^button released' 10 || fail tablet "no button release: $(< "$OUT/tablet-keys.out")"
dev k "key 28" "key 57" "key 1" "key 96"
touch_wait

for k in a b cal k; do dev_quit "$k"; done
echo "info $FAILS setup failures"
[ "$FAILS" = 0 ]

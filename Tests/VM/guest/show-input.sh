#!/bin/bash
# show-input.sh KIOSK_HUD UINPUT_TOUCH BX BY OX OY RX RY TX TY — the in-guest half of
# Tests/KioskDRMTests/VMShowInputTests.swift (run-in-vm.sh --gpu bochs --tablet, 800x480):
# `kiosk-hud show` on real KMS taking input and tilt, one boot.
#   BX BY  the button's centre, uinput device coordinates (0..4095), rotation 0
#   OX OY  a point outside the bezel (device coordinates)
#   RX RY  the button's centre with --rotate 90 (device coordinates)
#   TX TY  the button's centre for the virtio-tablet (0..32767)
# Scenarios: the pressed button's screendump, then lifting → exit 10; a tap outside → nothing
# (exit 0 at --duration); --on-tap-outside exit → 11; --rotate 90 → 10; --on-button hide → 0
# after the hide; the tablet (QMP) → 10; mxc4005 on i2c-stub: level / tilted right / level
# again screendumps. Prints "ok NAME", "FAIL NAME: why", "info ..."; screendumps listed in
# $VM_OUT/manifest as "shot FILE ROTATION KIND" (the host renders KIND and compares).
set -u
BIN=$1 UINPUT=$2 BX=$3 BY=$4 OX=$5 OY=$6 RX=$7 RY=$8 TX=$9 TY=${10}
. "$KIOSK_VM_GUEST/lib.sh"
OUT=$VM_OUT
M=$OUT/manifest
: > "$M"
W=$(mktemp -d /tmp/show-input.XXXXXX)
HUDARGS=(--mode annular --progress 0.6 --label KioskHUD --button Cancel --scale 1)
ok() { echo "ok $1"; }
fail() { echo "FAIL $1: $2"; }
info() { echo "info $1: $2"; }
now_ms() { local t; read -r t _ < /proc/uptime; t=${t/./}; echo $((10#$t * 10)); }
udev() { SYSTEMD_IGNORE_CHROOT=1 udevadm "$@"; }

# --- the accelerometer first (level), so the tilt scenario finds it at start ---------------------
modprobe i2c-stub chip_addr=0x15 2>"$W/mp.err" && modprobe mxc4005 2>>"$W/mp.err" || fail modprobe "$(cat "$W/mp.err")"
bus=
for d in /sys/bus/i2c/devices/i2c-*; do [ "$(cat "$d/name" 2>/dev/null)" = "SMBus stub driver" ] && bus=${d##*-}; done
set_axis() { local w=$(( ($2 & 0xfff) << 4 )); i2cset -f -y "$bus" 0x15 "$1" $(( w >> 8 )) && i2cset -f -y "$bus" 0x15 $(( $1 + 1 )) $(( w & 0xff )); }
accel() { set_axis 0x03 "$1"; set_axis 0x05 "$2"; set_axis 0x07 "$3"; }
if [ -n "$bus" ]; then
  i2cset -f -y "$bus" 0x15 0x0e 0x02
  accel 0 0 1024
  echo mxc4005 0x15 > "/sys/bus/i2c/devices/i2c-$bus/new_device"
else
  fail i2c-stub-bus "no 'SMBus stub driver' adapter"
fi

# --- the uinput touch screen, fed from a fifo --------------------------------------------------
mkfifo "$W/t.in"
"$UINPUT" --name kiosk-show-touch < "$W/t.in" > "$W/t.log" 2>&1 &
TPID=$!
exec {TFD}> "$W/t.in"
SENT=0
count_lines() { local c=0 l; while IFS= read -r l; do [[ $l =~ $2 ]] && c=$((c + 1)); done < "$1"; echo $c; }
touch_dev() {  # touch_dev CMD...: one command per argument; waits until done
  local c n=250
  for c in "$@"; do echo "$c" >&"$TFD"; SENT=$((SENT + 1)); done
  while [ "$(count_lines "$W/t.log" '^done')" -lt "$SENT" ] && [ $n -gt 0 ]; do vm_sleep 0.02; n=$((n - 1)); done
}
for _ in $(seq 250); do grep -q '^device ' "$W/t.log" && break; vm_sleep 0.02; done
grep -q '^device ' "$W/t.log" || fail uinput "no device: $(cat "$W/t.log")"
udev settle --timeout=10

PID= LOG=
start() {  # start NAME ARGS...: show in the background; returns once its input listens
  local name=$1 i; shift
  LOG=$OUT/$name.log
  T0=$(now_ms)
  "$BIN" show "$@" > "$LOG" 2>&1 &
  PID=$!
  for i in $(seq 600); do
    grep -q 'kiosk-hud: input: listening' "$LOG" && { TL=$(( $(now_ms) - T0 )); vm_sleep 0.1; return 0; }
    kill -0 $PID 2>/dev/null || break
    vm_sleep 0.05
  done
  fail "$name" "input not listening: $(tail -3 "$LOG" | tr '\n' ' ')"
  return 1
}
finish() {  # finish NAME WANT_RC [SECONDS]: waits for the exit (kills it after SECONDS)
  local name=$1 want=$2 n=$(( ${3:-15} * 20 )) rc
  while kill -0 $PID 2>/dev/null && [ $n -gt 0 ]; do vm_sleep 0.05; n=$((n - 1)); done
  kill -0 $PID 2>/dev/null && { kill -TERM $PID; fail "$name" "still running; killed"; }
  wait $PID; rc=$?
  info "$name" "exit $rc after $(( $(now_ms) - T0 )) ms (input listening after $TL ms); $(grep -h 'kiosk-hud: done' "$LOG")"
  if [ "$rc" = "$want" ] && grep -q 'kiosk-hud: done' "$LOG"; then ok "$name"; else fail "$name" "exit $rc, want $want: $(tail -4 "$LOG" | tr '\n' ' ')"; fi
}
shot() {  # shot NAME ROTATION KIND
  local f
  if f=$(vm_screendump "$1"); then echo "shot ${f##*/} $2 $3" >> "$M"; else fail "$1-screendump" "$f"; fi
}

# (a)+(d) finger down on the button: drawn pressed (screendump); lifted: exit 10.
if start button-touch "${HUDARGS[@]}" --on-button exit --duration 30; then
  grep -h 'kiosk-hud: input' "$LOG" | sed 's/^/info log: /'
  touch_dev "down $BX $BY"
  vm_sleep 0.5
  shot pressed 0 pressed
  touch_dev "up"
  finish button-touch 10
fi

# (b) a tap outside the bezel: nothing fires; --duration ends it with 0.
if start outside-none "${HUDARGS[@]}" --duration 4; then
  touch_dev "tap $OX $OY"
  finish outside-none 0
fi
# ... and with --on-tap-outside exit: 11.
if start outside-exit "${HUDARGS[@]}" --on-tap-outside exit --duration 30; then
  touch_dev "tap $OX $OY"
  finish outside-exit 11
fi

# (c) rotated 90°: the button where the rotated picture has it.
if start rotated "${HUDARGS[@]}" --rotate 90 --duration 30; then
  touch_dev "tap $RX $RY"
  finish rotated 10
fi

# --on-button hide: hidden (animated), then exit 0 well before --duration.
if start hide "${HUDARGS[@]}" --on-button hide --duration 30; then
  touch_dev "tap $BX $BY"
  finish hide 0 10
  grep -q 'button: hiding' "$LOG" && ok hide-logged || fail hide-logged "$(tail -3 "$LOG" | tr '\n' ' ')"
fi

# (e) the virtio-tablet through QMP (libinput: an absolute pointer): a click on the button.
if start tablet "${HUDARGS[@]}" --duration 30; then
  vm_pointer tap "$TX" "$TY" || fail tablet "pointer request failed"
  finish tablet 10
fi
kill -TERM $TPID 2>/dev/null; exec {TFD}>&-

# Tilt on real KMS: level (centred), right edge down 45° (+depth px), level again.
if [ -n "$bus" ]; then
  if start tilt "${HUDARGS[@]}" --on-button none --depth 10 --no-reduce-motion --rate 30 --duration 60; then
    for _ in $(seq 100); do grep -q 'using iio:device' "$LOG" && break; vm_sleep 0.05; done
    grep -q 'using iio:device' "$LOG" && ok tilt-attached || fail tilt-attached "$(grep -h tilt "$LOG" | tr '\n' ' ')"
    vm_sleep 1
    shot tilt-level 0 level
    accel -724 0 724
    vm_sleep 2.5
    shot tilt-right 0 right
    accel 0 0 1024
    vm_sleep 2.5
    shot tilt-level-again 0 level
    kill -TERM $PID
    finish tilt 0
  fi
fi
echo "end" >> "$M"

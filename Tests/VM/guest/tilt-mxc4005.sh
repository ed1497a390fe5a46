#!/bin/bash
# tilt-mxc4005.sh KIOSK_HUD [DEPTH] — the in-guest half of the real-kernel tilt test
# (Tests/KioskIIOTests/VMTiltTests.swift, via run-in-vm.sh). A real IIO driver (mxc4005) on
# i2c-stub; `kiosk-hud tilt` reads it through sysfs while i2cset tilts the "board":
#   level → 0 0; right edge down 45° → +DEPTH 0; left → -DEPTH 0; top edge down → 0 -DEPTH;
#   bottom → 0 +DEPTH; 15° right → the linear part; the device deleted → eases back to 0;
#   added again → re-attached and tracking.
# Prints "ok NAME", "FAIL NAME: reason" and "info ..." lines; exit 0 only if all passed.
set -u
BIN=$1 DEPTH=${2:-10}
FAILS=0
ok() { echo "ok $1"; }
fail() { echo "FAIL $1: $2"; FAILS=$((FAILS + 1)); }
T0=$(date +%s%N)
elapsed() { echo $(( ($(date +%s%N) - T0) / 1000000 ))ms; }

modprobe i2c-stub chip_addr=0x15 2>/tmp/mp.err && modprobe mxc4005 2>>/tmp/mp.err || { fail modprobe "$(cat /tmp/mp.err)"; exit 1; }
bus=
for d in /sys/bus/i2c/devices/i2c-*; do
  [ "$(cat "$d/name" 2>/dev/null)" = "SMBus stub driver" ] && bus=${d##*-}
done
[ -n "$bus" ] || { fail i2c-stub-bus "no 'SMBus stub driver' adapter"; exit 1; }

# raw = sign_extend_12(((upper << 8) | lower) >> 4); X 0x03/0x04, Y 0x05/0x06, Z 0x07/0x08.
set_axis() { local w=$(( ($2 & 0xfff) << 4 )); i2cset -f -y "$bus" 0x15 "$1" $(( w >> 8 )) && i2cset -f -y "$bus" 0x15 $(( $1 + 1 )) $(( w & 0xff )); }
# accel X Y Z in counts (1024 = 1 g at ±2 g; in_accel_scale 0.009582 m/s² per count).
accel() { set_axis 0x03 "$1"; set_axis 0x05 "$2"; set_axis 0x07 "$3"; }

add_device() {  # -> sets IIO to the mxc4005's sysfs dir
  echo mxc4005 0x15 > "/sys/bus/i2c/devices/i2c-$bus/new_device"
  IIO=
  for _ in $(seq 100); do
    for d in /sys/bus/iio/devices/iio:device*; do
      [ "$(cat "$d/name" 2>/dev/null)" = mxc4005 ] && IIO=$d
    done
    [ -n "$IIO" ] && return 0
    sleep 0.05
  done
  return 1
}

i2cset -f -y "$bus" 0x15 0x0e 0x02     # DEVICE_ID
accel 0 0 1024                          # level, face up
add_device || { fail mxc4005-iio "no IIO device named mxc4005: $(dmesg | tail -3 | tr '\n' ' ')"; exit 1; }
ok mxc4005-iio
echo "info $IIO raw $(cat "$IIO/in_accel_x_raw") $(cat "$IIO/in_accel_y_raw") $(cat "$IIO/in_accel_z_raw") scale $(cat "$IIO/in_accel_scale")"

OUT=/tmp/tilt.out ERR=/tmp/tilt.err
"$BIN" tilt --depth "$DEPTH" --rate 30 --duration 120 >"$OUT" 2>"$ERR" &
PID=$!

# offset -> "DX DY" of the last printed sample, rounded to whole points (what the HUD draws).
offset() { awk '!/^#/ && NF == 6 { x = $5; y = $6 } END { if (x == "") exit 1; printf "%d %d\n", (x < 0 ? -int(-x + 0.5) : int(x + 0.5)), (y < 0 ? -int(-y + 0.5) : int(y + 0.5)) }' "$OUT"; }
# expect NAME "DX DY" [SECONDS]: waits until the printed offset is that.
expect() {
  local name=$1 want=$2 limit=${3:-8} start got
  start=$(date +%s%N)
  while :; do
    got=$(offset 2>/dev/null)
    if [ "$got" = "$want" ]; then ok "$name"; echo "info $name: offset $got after $(( ($(date +%s%N) - start) / 1000000 ))ms"; return 0; fi
    if [ $(( ($(date +%s%N) - start) / 1000000000 )) -ge "$limit" ] || ! kill -0 $PID 2>/dev/null; then
      fail "$name" "offset '${got:-none}', want '$want' (last lines: $(tail -n 2 "$OUT" | tr '\n' '|'); stderr: $(tr '\n' '|' <"$ERR"))"
      return 1
    fi
    sleep 0.1
  done
}

D=$DEPTH
expect level "0 0" 15                 # includes the program's start
accel -724 0 724;  expect right-45 "$D 0"      # right edge down: the reading's x goes negative
accel 0 0 1024;    expect level-again "0 0"
accel 724 0 724;   expect left-45 "-$D 0"
accel 0 -724 724;  expect top-down-45 "0 -$D"
accel 0 724 724;   expect bottom-down-45 "0 $D"
accel -265 0 989;  expect right-15 "$(awk -v d="$D" 'BEGIN { printf "%d", (15 - 1.5) / 28.5 * d + 0.5 }') 0"
accel 0 0 1024;    expect level-3 "0 0"

# The device goes away while tilted: the offset eases back to centre; it comes back: tracking.
accel -724 0 724;  expect right-before-removal "$D 0"
echo 0x15 > "/sys/bus/i2c/devices/i2c-$bus/delete_device"
expect eased-back-after-removal "0 0"
grep -q "lost" "$ERR" && ok lost-logged || fail lost-logged "no 'lost' line: $(tr '\n' '|' <"$ERR")"
add_device || fail re-add "mxc4005 did not come back"
expect reattached "$D 0" 10
[ "$(grep -c 'using iio:device' "$ERR")" = 2 ] && ok reattach-logged || fail reattach-logged "$(tr '\n' '|' <"$ERR")"
accel 0 0 1024;    expect level-after-reattach "0 0"

kill -TERM $PID 2>/dev/null; wait $PID 2>/dev/null
echo "info samples printed: $(grep -vc '^#' "$OUT"), total $(elapsed)"
sed 's/^/info stderr: /' "$ERR"
echo "info $FAILS failed"
[ "$FAILS" = 0 ]

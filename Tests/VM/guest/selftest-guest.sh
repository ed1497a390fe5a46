#!/bin/bash
# selftest-guest.sh GPU MODESET COLOR [COLOR2] — the in-guest half of
# Tests/VM/selftest.sh (runs under run-in-vm.sh). Prints "ok NAME",
# "FAIL NAME: reason" and "info ..." lines; the host side counts them and
# checks the screendumps it finds in $VM_OUT.
GPU=$1 MODESET=$2 COLOR=$3 COLOR2=${4:-}
H=$KIOSK_VM_GUEST
ok() { echo "ok $GPU/$1"; }
fail() { echo "FAIL $GPU/$1: $2"; }
check() { local n=$1; shift; if "$@" >/dev/null 2>&1; then ok "$n"; else fail "$n" "'$*' failed"; fi; }

want_driver=bochs-drm
[ "$GPU" = virtio ] && want_driver=virtio_gpu

# --- DRM ---------------------------------------------------------------------
check card0 test -c /dev/dri/card0
if pidof systemd-udevd >/dev/null; then ok udevd-running; else fail udevd-running "no systemd-udevd process"; fi
info=$(udevadm info /dev/dri/card0 2>&1)
if echo "$info" | grep -q '^S: dri/by-path/'; then ok udev-card0
else fail udev-card0 "udevadm info /dev/dri/card0: no by-path link (not processed by udev?): $(echo "$info" | head -3 | tr '\n' ' ')"; fi

# modeset holds COLOR on head 0 while the host takes a screendump
show() {  # show LOG ARGS... -> starts modeset in the background, waits for "ready"
  local log=$1; shift
  "$MODESET" "$@" >"$log" 2>&1 &
  MPID=$!
  for _ in $(seq 400); do
    grep -q 'modeset: ready' "$log" && return 0
    kill -0 $MPID 2>/dev/null || break
    sleep 0.05
  done
  return 1
}
stop() { kill $MPID 2>/dev/null; wait $MPID 2>/dev/null; }

if show /tmp/modeset0.log -s 60 "$COLOR"; then
  ok modeset
  drv=$(sed -n 's/.*driver=\([^ ]*\).*/\1/p' /tmp/modeset0.log)
  if [ "$drv" = "$want_driver" ]; then ok driver-name; else fail driver-name "DRM driver is '$drv', want $want_driver"; fi
  echo "info $GPU/modeset: $(grep -h 'modeset: ' /tmp/modeset0.log | grep -v ready | sed 's/modeset: //' | tr '\n' ' ')"
  if f=$("$H/screendump.sh" head0 2>&1); then ok screendump-request; else fail screendump-request "$f"; fi
  stop
  grep -q 'modeset: restored' /tmp/modeset0.log && ok modeset-restore || fail modeset-restore "$(tail -1 /tmp/modeset0.log)"
else
  fail modeset "$(cat /tmp/modeset0.log)"; fail driver-name "modeset failed"; stop
fi

if [ -n "$COLOR2" ]; then   # second head (virtio --outputs 2)
  if show /tmp/modeset1.log -o 1 -s 60 "$COLOR2"; then
    ok modeset-head1
    if f=$("$H/screendump.sh" head1 1 2>&1); then ok screendump-head1-request; else fail screendump-head1-request "$f"; fi
    stop
  else
    fail modeset-head1 "$(cat /tmp/modeset1.log)"; stop
  fi
fi

# --- input -----------------------------------------------------------------------
check uinput-node test -c /dev/uinput
if ( exec 3<>/dev/uinput ) 2>/dev/null; then ok uinput-open; else fail uinput-open "cannot open /dev/uinput read-write"; fi
tablet=
for e in /sys/class/input/event*; do
  grep -qi tablet "$e/device/name" 2>/dev/null && tablet=/dev/input/${e##*/}
done
if [ -n "$tablet" ]; then   # only when run with --tablet
  timeout 5 cat "$tablet" > /tmp/ev.bin &
  cpid=$!
  sleep 0.2
  if "$H/pointer.sh" 16384 8192 2>/tmp/ptr.err; then
    sleep 0.3
    kill $cpid 2>/dev/null; wait $cpid 2>/dev/null
    n=$(stat -c %s /tmp/ev.bin)
    # tap = abs x, abs y, SYN, BTN down, SYN, BTN up, SYN = 7 events of 24 bytes
    if [ "$n" -ge 168 ]; then ok pointer-tap; else fail pointer-tap "only $n bytes of events from $tablet"; fi
  else
    kill $cpid 2>/dev/null; fail pointer-tap "$(cat /tmp/ptr.err)"
  fi
fi

# --- I2C stub + MXC4005 accelerometer ------------------------------------------------
if modprobe i2c-stub chip_addr=0x15 2>/tmp/mp.err && modprobe mxc4005 2>>/tmp/mp.err; then
  ok modprobe-i2c-stub-mxc4005
else
  fail modprobe-i2c-stub-mxc4005 "$(cat /tmp/mp.err)"
fi
bus=
for d in /sys/bus/i2c/devices/i2c-*; do
  [ "$(cat "$d/name" 2>/dev/null)" = "SMBus stub driver" ] && bus=${d##*-}
done
if [ -n "$bus" ]; then
  ok i2c-stub-bus
  i2cset -f -y "$bus" 0x15 0x0e 0x02   # DEVICE_ID, as a real MXC4005XC reports
  echo mxc4005 0x15 > "/sys/bus/i2c/devices/i2c-$bus/new_device"
  iio=
  for _ in $(seq 50); do
    for d in /sys/bus/iio/devices/iio:device*; do
      [ "$(cat "$d/name" 2>/dev/null)" = mxc4005 ] && iio=$d
    done
    [ -n "$iio" ] && break
    sleep 0.05
  done
  if [ -n "$iio" ]; then
    ok mxc4005-iio; echo "info $GPU/mxc4005: $iio on i2c-$bus"
    # raw = sign_extend(((UPPER << 8) | LOWER) >> 4, 12 bits); X 0x03/0x04 Y 0x05/0x06 Z 0x07/0x08
    set_axis() {  # set_axis UPPER_REG VALUE(-2048..2047)
      local w=$(( ($2 & 0xfff) << 4 ))
      i2cset -f -y "$bus" 0x15 "$1" $(( w >> 8 )) && i2cset -f -y "$bus" 0x15 $(( $1 + 1 )) $(( w & 0xff ))
    }
    x0=$(cat "$iio/in_accel_x_raw" 2>&1)
    if [[ $x0 =~ ^-?[0-9]+$ ]]; then ok accel-x-readable; else fail accel-x-readable "$x0"; fi
    set_axis 0x03 1024; set_axis 0x05 -512; set_axis 0x07 291
    got="$(cat "$iio/in_accel_x_raw") $(cat "$iio/in_accel_y_raw") $(cat "$iio/in_accel_z_raw")"
    if [ "$got" = "1024 -512 291" ]; then ok "accel-i2cset-xyz"; else fail accel-i2cset-xyz "read '$got', want '1024 -512 291'"; fi
    scale=$(cat "$iio/in_accel_scale" 2>&1)
    [ "$scale" = 0.009582 ] && ok accel-scale || fail accel-scale "in_accel_scale=$scale"
  else
    fail mxc4005-iio "no IIO device named mxc4005 after new_device: $(dmesg | tail -3 | tr '\n' ' ')"
  fi
else
  fail i2c-stub-bus "no 'SMBus stub driver' adapter in /sys/bus/i2c/devices"
fi
exit 0

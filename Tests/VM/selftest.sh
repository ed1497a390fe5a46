#!/usr/bin/env bash
# selftest.sh — prove the VM harness works for real: boots once per GPU
# (bochs, and virtio with 2 heads), both VMs in parallel, and checks
#   /dev/dri/card0, the DRM driver name (modeset.c), udevd + udev-processed
#   card0, modeset.c puts a solid colour up and a host screendump taken while
#   it runs has that colour at the centre pixel (2nd head too on virtio),
#   /dev/uinput, pointer taps via QMP reach the virtio-tablet (bochs run),
#   modprobe i2c-stub + mxc4005 bind as iio device, i2cset moves x/y/z.
# Prints "ok NAME" / "FAIL NAME: reason", then "N passed, N failed".
# Exit 0 only if all passed. If the VM cannot run at all (prepare/QEMU/boot
# failure) that is a loud failure — or, with KIOSK_VM_ALLOW_SKIP=1, a printed
# SKIP (exit 0).
#
#   Tests/VM/selftest.sh [--serial] [--keep-out DIR]
set -uo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
CACHE=${KIOSK_VM_CACHE:-$REPO/.build-vm}
SERIAL=0 KEEP_OUT=
while [ $# -gt 0 ]; do
  case $1 in
    --serial) SERIAL=1; shift ;;
    --keep-out) KEEP_OUT=$2; shift 2 ;;
    *) echo "usage: selftest.sh [--serial] [--keep-out DIR]" >&2; exit 2 ;;
  esac
done

T0=$(date +%s.%N)
PASS=0 FAIL=0
ok() { echo "ok $1"; PASS=$((PASS + 1)); }
fail() { echo "FAIL $1: $2"; FAIL=$((FAIL + 1)); }
cannot_run() {
  if [ "${KIOSK_VM_ALLOW_SKIP:-0}" = 1 ]; then
    echo "SKIP: the VM cannot run here: $1" | tee /dev/stderr
    echo "0 passed, 0 failed, 1 skipped"
    exit 0
  fi
  echo "selftest: ERROR: the VM cannot run here: $1" >&2
  echo "FAIL vm: $1"
  echo "$PASS passed, $((FAIL + 1)) failed"
  exit 1
}

if ! "$HERE/prepare.sh"; then cannot_run "prepare.sh failed"; fi
command -v qemu-system-x86_64 >/dev/null || cannot_run "qemu-system-x86_64 missing"

if [ -n "$KEEP_OUT" ]; then WORK=$(mkdir -p "$KEEP_OUT" && cd "$KEEP_OUT" && pwd)
else WORK=$(mktemp -d /tmp/kiosk-vm-selftest.XXXXXX); trap 'rm -rf "$WORK"' EXIT; fi

# GPU  extra-args  colour-head0  colour-head1
RUNS=("bochs|--tablet|0x3366cc|" "virtio|--outputs 2|0xcc6633|0x22aa44")

start_run() {
  local gpu extra c0 c1
  IFS='|' read -r gpu extra c0 c1 <<<"$1"
  mkdir -p "$WORK/$gpu"
  # shellcheck disable=SC2086
  "$HERE/run-in-vm.sh" --gpu "$gpu" $extra --out "$WORK/$gpu" --timeout 180 -v -- \
    "$HERE/guest/selftest-guest.sh" "$gpu" "$CACHE/modeset" "$c0" $c1 \
    >"$WORK/$gpu.log" 2>"$WORK/$gpu.err"
  echo $? >"$WORK/$gpu.rc"
}

# centre_pixel FILE.ppm -> "rrggbb WxH" (binary P6 as written by QEMU)
centre_pixel() {
  python3 - "$1" <<'EOF'
import sys
d = open(sys.argv[1], "rb").read()
fields, pos = [], 0
while len(fields) < 4:                      # magic, width, height, maxval
    while d[pos:pos+1].isspace(): pos += 1
    if d[pos:pos+1] == b"#":
        pos = d.index(b"\n", pos); continue
    end = pos
    while not d[end:end+1].isspace(): end += 1
    fields.append(d[pos:end]); pos = end
assert fields[0] == b"P6" and fields[3] == b"255", fields
w, h = int(fields[1]), int(fields[2])
px = d[pos + 1:]
i = ((h // 2) * w + w // 2) * 3
print(px[i:i+3].hex(), "%dx%d" % (w, h))
EOF
}

check_shot() {  # check_shot NAME FILE 0xRRGGBB
  local name=$1 f=$2 want=${3#0x} got
  if [ ! -s "$f" ]; then fail "$name" "no screendump $f"; return; fi
  got=$(centre_pixel "$f" 2>&1) || { fail "$name" "cannot parse $f: $got"; return; }
  if [ "${got%% *}" = "$want" ]; then ok "$name"; echo "info $name: ${got#* } centre $want"
  else fail "$name" "centre pixel ${got%% *} (${got#* }), want $want"; fi
}

if [ "$SERIAL" = 1 ]; then
  for r in "${RUNS[@]}"; do start_run "$r"; done
else
  pids=()
  for r in "${RUNS[@]}"; do start_run "$r" & pids+=($!); done
  wait "${pids[@]}"
fi

booted=0
for r in "${RUNS[@]}"; do
  IFS='|' read -r gpu extra c0 c1 <<<"$r"
  rc=$(cat "$WORK/$gpu.rc")
  timing=$(grep -h 'guest uptime at' "$WORK/$gpu.err" | sed 's/^run-in-vm: //')
  [ -n "$timing" ] && echo "info $gpu/boot: $timing"
  if [ "$rc" = 125 ] || [ "$rc" = 124 ] || ! grep -q '^\(ok\|FAIL\) ' "$WORK/$gpu.log"; then
    fail "$gpu/vm" "run-in-vm.sh exit $rc; its stderr:"
    sed 's/^/    /' "$WORK/$gpu.err" | tail -n 40
    continue
  fi
  booted=$((booted + 1))
  while IFS= read -r line; do
    case $line in
      "ok "*) ok "${line#ok }" ;;
      "FAIL "*) l=${line#FAIL }; fail "${l%%: *}" "${l#*: }" ;;
      "info "*) echo "$line" ;;
    esac
  done <"$WORK/$gpu.log"
  [ "$rc" = 0 ] || fail "$gpu/guest-exit" "selftest-guest.sh exit $rc: $(tail -n 5 "$WORK/$gpu.err")"
  check_shot "$gpu/screendump-centre" "$WORK/$gpu/head0.ppm" "$c0"
  [ -n "$c1" ] && check_shot "$gpu/screendump-head1-centre" "$WORK/$gpu/head1.ppm" "$c1"
done
if [ "$booted" = 0 ]; then
  echo "selftest: ERROR: no VM booted; see above" >&2
  [ "${KIOSK_VM_ALLOW_SKIP:-0}" = 1 ] && cannot_run "no VM booted (see above)"
fi

echo "info total selftest time: $(awk "BEGIN{printf \"%.1f\", $(date +%s.%N) - $T0}")s"
[ "$FAIL" = 0 ] || echo "selftest: $FAIL check(s) FAILED" >&2
echo "$PASS passed, $FAIL failed"
[ "$FAIL" = 0 ]

#!/usr/bin/env bash
# run.sh — the boot benchmark (#28): the same Debian 12 guest (`run-in-vm.sh --systemd`: the
# host's root over 9p under a tmpfs overlay, systemd as PID 1, bochs-drm at 800x480, under TCG)
# booted ROUNDS times with each splash, alternated, one guest at a time:
#   none          no splash
#   plymouth      Debian's Plymouth, spinner theme, started by its own units (setup.sh)
#   kiosk-first   kiosk-hud's package, first boot: an empty /var/cache/kiosk-hud (drawn)
#   kiosk-cached  kiosk-hud's package, a later boot: kiosk-first's /var/cache/kiosk-hud (frame cache)
# For each boot: the first content on screen (host QMP screendumps every PERIOD ms, bench.py) and
# multi-user.target reached (systemd), on the guest's clock from kernel start. Prints one row per
# boot, then a Markdown table with medians and spread and the goals (bench.py table).
#
#   Tests/VM/bootbench/run.sh [-n ROUNDS] [--kinds none,plymouth,kiosk-first,kiosk-cached]
#       [--binary KIOSK_HUD] [--out DIR] [--period-ms MS] [--efi]
#
# --binary: the kiosk-hud to package (default .build/release/kiosk-hud: measure a release build,
# `swift build -c release --product kiosk-hud`). --out: where each boot's files stay (default a
# new /var/tmp/kiosk-bootbench.XXXXXX; not under /tmp, which the booted guest empties). --efi:
# UEFI firmware (efifb first, then bochs-drm). Plymouth's .debs are `apt-get download`ed into
# $KIOSK_VM_CACHE/bootbench-debs and installed in the guest's overlay only, never on the host.
# Every kind boots with the same kernel command line added: `quiet splash
# plymouth.ignore-serial-consoles` (Plymouth draws nothing with only a serial console= else), and
# $BOOTBENCH_APPEND (e.g. plymouth.debug: end.sh keeps /var/log/plymouth-debug.log).
# Exit status: 0 when every guest ran to its end (end.sh), 1 otherwise.
set -uo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../../.." && pwd)
N=3 KINDS=none,plymouth,kiosk-first,kiosk-cached BIN=$REPO/.build/release/kiosk-hud OUT= PERIOD=100 EFI=()
while [ $# -gt 0 ]; do
  case $1 in
    -n) N=$2; shift 2 ;;
    --kinds) KINDS=$2; shift 2 ;;
    --binary) BIN=$2; shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    --period-ms) PERIOD=$2; shift 2 ;;
    --efi) EFI=(--efi); shift ;;
    *) echo "usage: run.sh [-n ROUNDS] [--kinds LIST] [--binary KIOSK_HUD] [--out DIR] [--period-ms MS] [--efi]" >&2; exit 2 ;;
  esac
done
PY=/usr/bin/python3; [ -x "$PY" ] || PY=python3
[ -x "$BIN" ] || { echo "run.sh: no kiosk-hud at $BIN" >&2; exit 2; }
[ -n "$OUT" ] || OUT=$(mktemp -d /var/tmp/kiosk-bootbench.XXXXXX)
mkdir -p "$OUT"; OUT=$(cd "$OUT" && pwd)
CACHE=${KIOSK_VM_CACHE:-$REPO/.build-vm}
DEBS=$CACHE/bootbench-debs
if ! ls "$DEBS"/plymouth_*.deb "$DEBS"/plymouth-themes_*.deb >/dev/null 2>&1; then
  mkdir -p "$DEBS"
  # Plymouth and what the host's root lacks of its dependencies (Debian 12).
  (cd "$DEBS" && apt-get download -q plymouth plymouth-themes libplymouth5 plymouth-label fonts-cantarell) >&2 ||
    { echo "run.sh: apt-get download of Plymouth failed" >&2; exit 2; }
fi
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
DEB=$("$REPO/Tools/make-deb.sh" --binary "$BIN" --version 1.0.0 --out "$OUT" --compress gzip | tail -1)
[ -f "$DEB" ] || { echo "run.sh: Tools/make-deb.sh failed" >&2; exit 2; }

# One guest at a time on this host: a slot of the suites' own (VMSlots: /tmp/kiosk-vm-slots/N).
slot() {
  mkdir -p /tmp/kiosk-vm-slots 2>/dev/null; chmod 1777 /tmp/kiosk-vm-slots 2>/dev/null
  while true; do
    for k in $(seq 0 $(( ${KIOSK_VM_JOBS:-$(nproc)} - 1 ))); do
      exec 9>>"/tmp/kiosk-vm-slots/$k" && flock -n 9 && return 0
      exec 9>&-
    done
    sleep 0.2
  done
}

RESULTS=$OUT/results.tsv
printf 'round\tkind\tfirst\tfirst_err\tmulti-user\tsystemd\tsysinit\tsplash-exec\tsplash-frame\tsplash-ready\tsplash-quit\tphases\n' > "$RESULTS"
printf 'round\tkind\tfirst\terr\tmulti-user\tsystemd\tsysinit\tsplash-exec\tframe\tready\tquit\n' >&2
status=0
for r in $(seq "$N"); do
  for kind in ${KINDS//,/ }; do
    d=$OUT/r$r-$kind
    rm -rf "$d"; mkdir -p "$d"
    case $kind in
      none) setup=(none) ;;
      plymouth) setup=(plymouth "$DEBS") ;;
      kiosk-first) setup=(kiosk "$DEB") ;;
      kiosk-cached)
        setup=(kiosk "$DEB")
        src=$(ls -d "$OUT"/r*-kiosk-first/cache-out 2>/dev/null | tail -1)
        [ -n "$src" ] && cp -a "$src" "$d/cache-in" ;;
      *) echo "run.sh: unknown kind $kind" >&2; exit 2 ;;
    esac
    sock=$(mktemp -u /tmp/kiosk-bootbench-qmp.XXXXXX)
    slot
    "$PY" "$HERE/bench.py" sample "$sock" "$d" "$PERIOD" &
    spid=$!
    KIOSK_VM_APPEND="quiet splash plymouth.ignore-serial-consoles ${BOOTBENCH_APPEND:-}" \
    KIOSK_VM_QEMU_ARGS="-global VGA.xres=800 -global VGA.yres=480" \
      "$REPO/Tests/VM/run-in-vm.sh" --systemd --gpu bochs "${EFI[@]}" --out "$d" --qmp "$sock" --timeout 420 -- \
      bash "$HERE/setup.sh" "${setup[@]}" > "$d/guest.out" 2> "$d/guest.err"
    rc=$?
    touch "$d/vm-done"
    wait "$spid"
    exec 9>&-
    rm -f "$sock"
    line=$("$PY" "$HERE/bench.py" row "$d" "$kind" "$r")
    echo "$line" >> "$RESULTS"
    echo "$line" | cut -f1-11 >&2
    if [ "$rc" != 0 ] || ! grep -q '^end$' "$d/times" 2>/dev/null; then
      echo "run.sh: round $r $kind: the VM run failed ($rc); files in $d" >&2; status=1
    fi
  done
done
"$PY" "$HERE/bench.py" table "$RESULTS"
echo "files in $OUT" >&2
exit $status

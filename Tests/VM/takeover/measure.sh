#!/usr/bin/env bash
# measure.sh — the display switch's timings over several boots (#19), for docs/measurements.md:
# Tests/VM/takeover/guest.sh under `run-in-vm.sh --efi --hold bochs` (UEFI firmware, efifb, then
# bochs-drm loaded by the script), once per boot, with the kiosk-hud binary given (measure a
# release build: `swift build -c release --product kiosk-hud`).
#
#   Tests/VM/takeover/measure.sh [-n BOOTS] KIOSK_HUD
#
# Prints one row per boot and the medians; every time is on the guest's kernel-log clock:
#   efifb      efifb registered (kernel start = 0)
#   exec       the HUD started (the guest's init starts it as soon as its set-up is done)
#   first      the HUD's first frame on efifb
#   takeover   bochs-drm took the hardware over (its vgaarb line, right after efifb is removed)
#   back       the HUD's first frame on bochs-drm's card0
#   off_ms     takeover → back: the longest time the HUD was off screen
#   gap_ms     the HUD's own account: last frame on efifb → first frame on card0
# Timings under QEMU TCG are not a board's; compare them with each other, not with hardware.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
N=5
[ "${1:-}" = -n ] && { N=$2; shift 2; }
BIN=${1:?usage: measure.sh [-n BOOTS] KIOSK_HUD}
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
ROWS=$(mktemp)
trap 'rm -f "$ROWS"' EXIT
printf '%-5s %8s %8s %8s %9s %8s %8s %8s\n' boot efifb exec first takeover back off_ms gap_ms
for i in $(seq "$N"); do
  out=$(mktemp -d "${TMPDIR:-/var/tmp}/kiosk-takeover-measure.XXXXXX")
  if ! "$HERE/../run-in-vm.sh" --efi --hold bochs --out "$out" --timeout 300 -- \
      bash "$HERE/guest.sh" "$BIN" > "$out/guest.out" 2> "$out/guest.err"; then
    echo "boot $i: the VM run failed; files in $out" >&2; continue
  fi
  if grep -q '^FAIL' "$out/guest.out"; then echo "boot $i: $(grep '^FAIL' "$out/guest.out" | head -3)" >&2; fi
  awk -v boot="$i" '
    $1 == "timing" { t[$2] = $3 }
    END {
      off = (t["first-frame-on-card0-s"] - t["takeover-s"]) * 1000
      printf "%-5s %8.3f %8.3f %8.3f %9.3f %8.3f %8.0f %8.0f\n", boot, t["efifb-registered-s"], t["hud-exec-s"],
        t["first-frame-on-efifb-s"], t["takeover-s"], t["first-frame-on-card0-s"], off, t["gap_ms"]
    }' "$out/manifest" | tee -a "$ROWS"
  rm -rf "$out"
done
sort -k1,1 "$ROWS" | awk '
  { for (c = 2; c <= 8; c++) v[c, NR] = $c; n = NR }
  END {
    if (n == 0) exit 1
    printf "%-5s", "median"
    for (c = 2; c <= 8; c++) {
      m = 0; for (i = 1; i <= n; i++) a[i] = v[c, i]
      for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { x = a[i]; a[i] = a[j]; a[j] = x }
      m = (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
      printf (c == 5 ? " %9.3f" : (c >= 7 ? " %8.0f" : " %8.3f")), m
    }
    printf "\n%-5s", "max"
    for (c = 2; c <= 8; c++) { mx = v[c, 1]; for (i = 2; i <= n; i++) if (v[c, i] > mx) mx = v[c, i]; printf (c == 5 ? " %9.3f" : (c >= 7 ? " %8.0f" : " %8.3f")), mx }
    printf "\n"
  }'

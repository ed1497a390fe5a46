#!/usr/bin/env bash
# Re-makes the pictures in README.md with `kiosk-hud render` (run from the package root).
set -euo pipefail
swift build -c release --product kiosk-hud >/dev/null
hud=.build/release/kiosk-hud
out=docs/images
mkdir -p "$out"
common=(--size 300x200 --scale 1 --label "Loading…" --details "Updating firmware 3 of 7" --button Cancel)
for m in indeterminate determinate annular bar text success error; do
    "$hud" render "${common[@]}" --mode "$m" --progress 0.6 --phase 3 --out "$out/$m.png"
done
"$hud" render --size 300x200 --mode annular --progress 0.35 --label "Provisioning" --background gradient --theme dark \
    --out "$out/annular-dark-gradient.png"
"$hud" render --scene bench --out "$out/bench-800x480.png"
python3 Tools/theme-logo.py "$out/theme-logo.png"
"$hud" render --size 400x240 --scale 1 --mode bar --progress 0.6 --label "Starting…" --theme dark --underlay-color "#101418" \
    --logo "$out/theme-logo.png" --logo-placement alone --logo-size 48 --out "$out/themed-splash.png"

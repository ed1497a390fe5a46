#!/usr/bin/env bash
# In the VM (Tools/link-order/make.sh): kiosk-hud on real KMS under callgrind, the ways it runs
# on a board: the static HUD to its first frame, and the spinner with a button for some seconds
# (page flips, damage copies, input). Each first runs once outside callgrind, so that its text
# comes from the glyph cache as on every boot after the first. (Under valgrind /proc/self/exe is
# valgrind's own binary, so the frame cache never matches: every run draws its first frame, and
# the few functions of the early-frame takeover are left to the cold code.) Writes $VM_OUT/*.callgrind.
set -u
HUD=$1
cg() { local name=$1; shift; "$HUD" show --duration 0 "${@:4}" > /dev/null 2>&1;  # args: show --duration N ...
    valgrind --tool=callgrind --demangle=no --callgrind-out-file="$VM_OUT/$name.callgrind" "$HUD" "$@" > "$VM_OUT/$name.log" 2>&1; }
cg static show --duration 0 --mode annular --progress 0.6 --label KioskHUD --details real-KMS
cg spin show --duration 25 --label Spinning --button Cancel
cg bar show --duration 30 --mode bar --progress 0.3 --label Updating --details "Step 2 of 5" --rotate 90
grep -h 'first-frame\|done' "$VM_OUT"/*.log

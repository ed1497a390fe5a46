#!/usr/bin/env bash
# Re-makes Sources/kiosk-hud/link-order.txt: the functions kiosk-hud runs at start-up and while
# showing, which the linker places first (Sources/kiosk-hud/LinkOrder.md). Run from the package
# root after changes to the start-up path; needs valgrind (apt-get install valgrind) and the
# QEMU harness (Tests/VM). About three minutes.
set -euo pipefail
command -v valgrind >/dev/null || { echo "make.sh: needs valgrind (apt-get install valgrind)" >&2; exit 1; }
swift build -c release --product kiosk-hud >/dev/null
work=$(mktemp -d /tmp/kiosk-link-order.XXXXXX)
trap 'rm -rf "$work"' EXIT
# callgrind reads the symbol table; the DWARF of a static Swift runtime only slows it down.
strip -g .build/release/kiosk-hud -o "$work/kiosk-hud"
# On the host: the command line, the built-in profile, text and the offscreen path of `render`.
valgrind --tool=callgrind --demangle=no --callgrind-out-file="$work/render.callgrind" "$work/kiosk-hud" render \
    --mode annular --progress 0.6 --label "Loading…" --details "Updating firmware 3 of 7" --button Cancel \
    --out "$work/render.png" > /dev/null 2>&1
# In the VM: real KMS, page flips, input (800x480, as the measurements).
KIOSK_VM_QEMU_ARGS="-global virtio-vga.xres=800 -global virtio-vga.yres=480" \
    Tests/VM/run-in-vm.sh --gpu virtio --out "$work" --timeout 900 -- bash Tools/link-order/guest.sh "$work/kiosk-hud"
python3 Tools/link-order/funcs.py "$work/kiosk-hud" "$work/static.callgrind" "$work/spin.callgrind" \
    "$work/bar.callgrind" "$work/render.callgrind" > Sources/kiosk-hud/link-order.txt
echo "Sources/kiosk-hud/link-order.txt: $(wc -l < Sources/kiosk-hud/link-order.txt) functions"
# SwiftPM does not know the list is an input of the link: drop the binary so the next build links.
rm -f .build/release/kiosk-hud .build/debug/kiosk-hud

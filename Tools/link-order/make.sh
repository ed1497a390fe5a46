#!/usr/bin/env bash
# Re-makes Sources/kiosk-hud/link-order.txt: the functions kiosk-hud runs at start-up and while
# showing, which the linker places first (Sources/kiosk-hud/LinkOrder.md).
#
#   Tools/link-order/make.sh           profile kiosk-hud and write the list again (two to three
#                                      minutes): under callgrind on the host (`render`) and in the
#                                      QEMU harness on real KMS (Tests/VM, which boots a VM)
#   Tools/link-order/make.sh --prune   only drop the entries the release binary no longer defines
#                                      (under a minute; seconds when the release build is up to date)
#
# The full run is the right one after changes to the start-up or frame path, and the one the
# link-order test (Tests/KioskLinkOrderTests) names when entries are stale. --prune is enough
# after a rename alone: the renamed function is then missing from the list (it lands among the
# cold code, which costs memory, not correctness) until the next full run.
#
# Both build kiosk-hud in release with the test's scratch path (.build-release-check, so the test
# does not build again), and write only symbols that binary defines. The full run needs valgrind
# (apt-get installed here when missing, as root) and the QEMU harness's packages (Tests/VM/prepare.sh
# installs those). --scratch-path DIR builds elsewhere.
set -euo pipefail
cd "$(dirname "$0")/../.."
die() { echo "make.sh: $*" >&2; exit 1; }
scratch=.build-release-check mode=full
while [ $# -gt 0 ]; do
    case $1 in
        --prune) mode=prune ;;
        --scratch-path) [ $# -ge 2 ] || die "--scratch-path needs a directory"; scratch=$2; shift ;;
        -h|--help) sed -n '2,19p' "$0"; exit 0 ;;
        *) die "unknown option $1 (make.sh [--prune] [--scratch-path DIR])" ;;
    esac
    shift
done
list=Sources/kiosk-hud/link-order.txt

if [ $mode = full ] && ! command -v valgrind >/dev/null; then
    [ "$(id -u)" = 0 ] || die "needs valgrind: apt-get install valgrind (as root), then run again"
    echo "make.sh: installing valgrind" >&2
    apt-get update -qq >/dev/null || die "apt-get update failed"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends valgrind >/dev/null ||
        die "apt-get install valgrind failed"
fi

if ! log=$(swift build -c release --product kiosk-hud --scratch-path "$scratch" 2>&1); then
    echo "$log" >&2
    die "the release build of kiosk-hud failed"
fi
bin=$scratch/release/kiosk-hud
work=$(mktemp -d /tmp/kiosk-link-order.XXXXXX)
trap 'rm -rf "$work"' EXIT

if [ $mode = prune ]; then
    # The entries as lld reads them (trimmed; no blank or # lines), each once, in order; those
    # the binary does not define go to $work/gone.
    nm --defined-only --just-symbols "$bin" > "$work/defined"
    awk -v gone="$work/gone" 'NR == FNR { d[$0] = 1; next }
        { gsub(/^[ \t\r]+|[ \t\r]+$/, "") } $0 == "" || /^#/ || seen[$0]++ { next }
        $0 in d { print; next } { print > gone }' "$work/defined" "$list" > "$work/list"
    touch "$work/gone"
    while IFS= read -r n; do
        base=$(sed "s/'[0-9]*\$//" <<< "$n") d=
        case $base in
            '$s'*) d=$(swift demangle --simplified --compact "$base" 2>/dev/null) || d= ;;
            _Z*) d=$(c++filt "$base" 2>/dev/null) || d= ;;
        esac
        if [ -n "$d" ] && [ "$d" != "$base" ]; then echo "  $n  (${d}${n#"$base"})"; else echo "  $n"; fi
    done < "$work/gone"
    echo "$list: $(wc -l < "$work/gone") entries dropped, $(wc -l < "$work/list") left"
else
    # callgrind reads the symbol table; the DWARF of a static Swift runtime only slows it down.
    strip -g "$bin" -o "$work/kiosk-hud"
    # On the host: the command line, the built-in profile, text and the offscreen path of `render`.
    valgrind --tool=callgrind --demangle=no --callgrind-out-file="$work/render.callgrind" "$work/kiosk-hud" render \
        --mode annular --progress 0.6 --label "Loading…" --details "Updating firmware 3 of 7" --button Cancel \
        --out "$work/render.png" > /dev/null 2>&1
    # In the VM: real KMS, page flips, input (800x480, as the measurements).
    KIOSK_VM_QEMU_ARGS="-global virtio-vga.xres=800 -global virtio-vga.yres=480" \
        Tests/VM/run-in-vm.sh --gpu virtio --out "$work" --timeout 900 -- bash Tools/link-order/guest.sh "$work/kiosk-hud"
    # Only names the binary defines (funcs.py says on stderr what it dropped).
    python3 Tools/link-order/funcs.py "$work/kiosk-hud" "$work/static.callgrind" "$work/spin.callgrind" \
        "$work/bar.callgrind" "$work/render.callgrind" > "$work/list"
    echo "$list: $(wc -l < "$work/list") functions"
fi
[ -s "$work/list" ] || die "the new list is empty; $list left as it was"
cp "$work/list" "$list"
# SwiftPM does not know the list is an input of the link: drop the binaries so the next builds link.
rm -f .build*/release/kiosk-hud .build*/debug/kiosk-hud "$scratch/release/kiosk-hud"

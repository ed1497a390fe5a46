#!/usr/bin/env bash
# Tools/measure-toolchains.sh — the release kiosk-hud from each compiler side by side, for
# docs/measurements.md: this machine's Swift (x86-64), Debian 13's swiftlang 6.0.3 (x86-64, in
# the Debian 13 root) and the arm64 cross build (6.0.3). Prints a table.
#
#   Tools/measure-toolchains.sh
#
# For each: file size and the loaded segments' sizes (readelf), how many of link-order.txt's
# functions it has (the rest lld skips: a name the other compiler mangles or inlines differently),
# and, for the x86-64 ones, the instructions from exec to exit of `show --offscreen - --duration 0`
# (callgrind, on a copy without debug info: valgrind refuses Swift's) and the peak RSS (VmHWM).
# Both x86-64 binaries run here, in the same environment and with the same FreeType and fonts
# (the host's: the 6.0.3 one links only glibc ≥ 2.36 too).
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/.." && pwd)
cd "$REPO"
command -v valgrind >/dev/null || { apt-get update -qq >/dev/null; DEBIAN_FRONTEND=noninteractive apt-get install -y -qq valgrind >/dev/null; }

swift build -c release --product kiosk-hud >&2
host=$(swift build -c release --show-bin-path)/kiosk-hud
root=$("$HERE/debian13.sh" root)
"$HERE/debian13.sh" run swift build -c release --product kiosk-hud --scratch-path /src/.build-release >&2
deb13=$root/src/.build-release/release/kiosk-hud
arm64=$("$HERE/cross-build.sh" arm64)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

ordered=$(grep -v '^#' Sources/kiosk-hud/link-order.txt | grep -c .)
row() {  # NAME BINARY RUNS-HERE
    local name=$1 bin=$2 size segs found ir="-" rss="-"
    size=$(stat -c %s "$bin")
    segs=$(LC_ALL=C readelf -lW "$bin" | awk '$1 == "LOAD" {s += strtonum($6)} END {printf "%d", s}')
    found=$(LC_ALL=C nm --defined-only "$bin" 2>/dev/null | awk '{print $3}' | sort -u |
            comm -12 - <(grep -v '^#' Sources/kiosk-hud/link-order.txt | sort -u) | wc -l)
    if [ "$3" = yes ]; then
        cp "$bin" "$work/k" && strip --strip-debug "$work/k"
        HOME=$work valgrind --tool=callgrind --callgrind-out-file="$work/cg" "$work/k" show --offscreen - --duration 0 \
            --glyph-cache none --no-frame-cache > /dev/null 2> "$work/vg"
        ir=$(awk '/^summary:/ {print $2}' "$work/cg")
        # The peak after the first frame, read while it still shows (--duration 1).
        HOME=$work "$bin" show --offscreen - --duration 1 --glyph-cache none --no-frame-cache > /dev/null 2>&1 &
        sleep 0.6
        rss=$(awk '/^VmHWM/ {print $2}' /proc/$!/status)
        wait
    fi
    printf '%-24s %10s %12s %14s %14s %10s\n' "$name" "$size" "$segs" "$found/$ordered" "$ir" "$rss"
}
printf '%-24s %10s %12s %14s %14s %10s\n' build "file B" "loaded B" "link order" "instructions" "VmHWM kB"
row "x86-64, $(swift --version 2>&1 | sed -n 's/.*Swift version \([0-9.]*\).*/\1/p' | head -1)" "$host" yes
row "x86-64, 6.0.3 (Debian 13)" "$deb13" yes
row "arm64, 6.0.3 (Debian 13)" "$arm64" no

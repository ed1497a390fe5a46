#!/usr/bin/env bash
# Tools/measure-toolchains.sh — the release kiosk-hud from each compiler side by side, for
# docs/measurements.md: this machine's Swift (x86-64), Debian 13's swiftlang 6.0.3 (x86-64, in
# the Debian 13 root) and the arm64 cross build (6.0.3). Prints a table.
#
#   Tools/measure-toolchains.sh
#
# For each: file size, .text, how many of link-order.txt's functions it has (the rest lld skips:
# names the other compiler mangles or inlines differently), the glibc it asks for; for the x86-64
# ones, the instructions from exec to exit of `show --offscreen - --duration 0` (callgrind, on a
# copy without debug info: valgrind refuses Swift's) and VmHWM/RssFile after the first frame.
# Both x86-64 binaries run in the Debian 13 root (a binary built there needs its glibc 2.38), so
# they meet the same glibc, FreeType and fonts; valgrind is added to the root for this.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/.." && pwd)
cd "$REPO"

swift build -c release --product kiosk-hud >&2
host=$(swift build -c release --show-bin-path)/kiosk-hud
root=$("$HERE/debian13.sh" root)
"$HERE/debian13.sh" run swift build -c release --product kiosk-hud --scratch-path /src/.build-release-check >&2
deb13=$root/src/.build-release-check/release/kiosk-hud
arm64=$("$HERE/cross-build.sh" arm64 | tail -1)

stage=/tmp/kiosk-measure
rm -rf "$root$stage" && mkdir -p "$root$stage"
cp "$host" "$root$stage/k-host" && cp "$deb13" "$root$stage/k-deb13"
strip --strip-debug "$root$stage/k-host" "$root$stage/k-deb13"
"$HERE/debian13.sh" run sh -c "
    command -v valgrind >/dev/null || apt-get install -y -qq valgrind >/dev/null
    cd $stage; export HOME=$stage
    for k in k-host k-deb13; do
        for i in 1 2; do
            valgrind --tool=callgrind --callgrind-out-file=cg \"./\$k\" show --offscreen - --duration 0 --glyph-cache none --no-frame-cache >/dev/null 2>&1
            awk '/^summary:/ {print \$2}' cg >> \$k.ir
        done
        for i in 1 2 3; do
            \"./\$k\" show --offscreen - --duration 1 --glyph-cache none --no-frame-cache >/dev/null 2>&1 &
            sleep 0.6
            awk '/^VmHWM|^RssFile/ {printf \"%s \", \$2} END {print \"\"}' /proc/\$!/status >> \$k.rss
            wait
        done
    done" >&2

ordered=$(grep -v '^#' Sources/kiosk-hud/link-order.txt | sort -u)
row() {  # NAME BINARY [KEY]
    local name=$1 bin=$2 text found glibc ir="-" rss="-"
    text=$(LC_ALL=C size -A "$bin" | awk '$1 == ".text" {print $2}')
    found=$(LC_ALL=C nm --defined-only "$bin" | awk '{print $3}' | sort -u | comm -12 - <(echo "$ordered") | wc -l)
    glibc=$(LC_ALL=C readelf -V "$bin" | grep -o 'GLIBC_[0-9][0-9.]*' | sort -uV | tail -1)
    if [ -n "${3:-}" ]; then
        ir=$(paste -sd/ "$root$stage/$3.ir")
        rss=$(awk '{print $1 "/" $2}' "$root$stage/$3.rss" | paste -sd' ')
    fi
    printf '%-26s %10s %9s %11s %11s  %-21s %s\n' "$name" "$(stat -c %s "$bin")" "$text" "$found/$(echo "$ordered" | wc -l)" "$glibc" "$ir" "$rss"
}
printf '%-26s %10s %9s %11s %11s  %-21s %s\n' build "file B" ".text B" "link order" glibc "instructions" "VmHWM/RssFile kB"
row "x86-64, $(swift --version 2>&1 | sed -n 's/.*Swift version \([0-9.]*\).*/\1/p' | head -1)" "$host" k-host
row "x86-64, 6.0.3 (Debian 13)" "$deb13" k-deb13
row "arm64, 6.0.3 (Debian 13)" "$arm64"

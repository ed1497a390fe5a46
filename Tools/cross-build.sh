#!/usr/bin/env bash
# Tools/cross-build.sh — kiosk-hud for an arm64 board, built on an x86-64 Debian machine from
# Debian's own packages only: Debian 13's amd64 swiftlang (6.0.3) as the compiler, the arm64
# standard library and runtime of the same version and an arm64 sysroot (Tools/debian13.sh).
#
#   Tools/cross-build.sh arm64 [--product NAME]… [-c release|debug] [-j JOBS] [--deb] [--out DIR]
#
# --product: kiosk-hud (the default), kiosk-hud-bench, … — each is copied to DIR. -j: SwiftPM's jobs.
# --deb: also kiosk-hud_VERSION_arm64.deb (Tools/make-deb.sh; its manual pages come from running
# the arm64 binary under qemu-user with the sysroot's loader, so qemu-user-static is installed
# when missing). --out: default <repo>/.build-cross/arm64. The last line printed is the path of
# the first product (of the .deb with --deb).
#
# The first run makes the Debian 13 root (~3 min) and the sysroot (~20 s: swiftlang:arm64 is a
# 400 MB download of which only the resource folders are kept); the build itself (122 s from
# nothing on 2 cores) is SwiftPM's with a Swift SDK bundle of the sysroot and its Swift
# resources, lld as the linker, and everything else as Package.swift says (the static Swift
# runtime, libstdc++.a and libgcc_eh.a, the link order): the same program as the x86-64 build's.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/.." && pwd)
die() { echo "cross-build.sh: $*" >&2; exit 1; }
usage() { sed -n '6p' "$0" | sed 's/^# *//' >&2; exit 64; }

[ $# -ge 1 ] || usage
arch=$1; shift
case "$arch" in
arm64|aarch64) arch=arm64 triple=aarch64-unknown-linux-gnu qemu=qemu-aarch64-static ;;
*) die "no cross build for '$arch': Debian's swiftlang exists for amd64 and arm64 only (no armhf)" ;;
esac
products=() config=release deb=0 out="" jobs=()
while [ $# -gt 0 ]; do
    case "$1" in
    --product) products+=("$2"); shift 2 ;;
    -c) config=$2; shift 2 ;;
    -j) jobs=(-j "$2"); shift 2 ;;
    --deb) deb=1; shift ;;
    --out) out=$2; shift 2 ;;
    *) usage ;;
    esac
done
[ ${#products[@]} -gt 0 ] || products=(kiosk-hud)
out=${out:-$REPO/.build-cross/$arch}
mkdir -p "$out"
out=$(cd "$out" && pwd)

root=$("$HERE/debian13.sh" root)
sysroot=$("$HERE/debian13.sh" sysroot "$arch")
# A Swift SDK bundle (SwiftPM's way to name a target's sysroot and Swift resources; plain
# --triple/--sdk/-resource-dir flags leave some of the compiler's jobs with the host's glibc
# module map): the sysroot, the arm64 resource folders, lld.
bundle=$root/cross/sdks/kiosk-$arch.artifactbundle
mkdir -p "$bundle/sdk"
ln -sfn "$sysroot" "$bundle/sdk/sysroot"
cat > "$bundle/info.json" <<JSON
{"schemaVersion": "1.0", "artifacts": {"kiosk-$arch": {"type": "swiftSDK", "version": "1", "variants": [{"path": "sdk"}]}}}
JSON
cat > "$bundle/sdk/swift-sdk.json" <<JSON
{"schemaVersion": "4.0", "targetTriples": {"$triple": {"sdkRootPath": "sysroot",
 "swiftResourcesPath": "sysroot/usr/libexec/swift/lib/swift", "swiftStaticResourcesPath": "sysroot/usr/libexec/swift/lib/swift_static",
 "toolsetPaths": ["toolset.json"]}}}
JSON
cat > "$bundle/sdk/toolset.json" <<JSON
{"schemaVersion": "1.0", "swiftCompiler": {"extraCLIOptions": ["-use-ld=lld"]}}
JSON
scratch=/src/.build-$arch
flags=(-c "$config" --scratch-path "$scratch" --swift-sdks-path /cross/sdks --swift-sdk "kiosk-$arch" --static-swift-stdlib ${jobs[@]+"${jobs[@]}"})
for p in "${products[@]}"; do
    echo "cross-build.sh: swift build ${flags[*]} --product $p" >&2
    "$HERE/debian13.sh" run swift build "${flags[@]}" --product "$p" >&2
done
bin=$("$HERE/debian13.sh" run swift build "${flags[@]}" --show-bin-path)
for p in "${products[@]}"; do
    install -m 755 "$root$bin/$p" "$out/$p"
    machine=$(od -An -tu2 -j18 -N2 "$out/$p" | tr -d ' ')
    [ "$machine" = 183 ] || die "$out/$p is not an AArch64 program (ELF machine $machine)"
done
first=$out/${products[0]}
if [ "$deb" = 1 ]; then
    [ -x "$out/kiosk-hud" ] || die "--deb needs --product kiosk-hud"
    command -v "$qemu" >/dev/null || { apt-get update -qq >/dev/null; DEBIAN_FRONTEND=noninteractive apt-get install -y -qq qemu-user-static >/dev/null; }
    first=$(KIOSK_HUD_FOREIGN_RUN="$qemu -L $root$sysroot" "$REPO/Tools/make-deb.sh" --binary "$out/kiosk-hud" --out "$out")
fi
echo "$first"

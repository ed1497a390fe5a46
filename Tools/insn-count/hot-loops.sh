#!/bin/sh
# The disassembly check of the rasterizer's hot loops in a release binary (arm64 or x86-64): for
# each hot function, its loops (backward branches), their size and their vector instructions.
# docs/measurements.md "arm64: the hot loops' code" was made with it.
#
#   Tools/insn-count/hot-loops.sh BINARY      (e.g. .build-cross/arm64/kiosk-hud-bench)
#
# Needs a symbol table (not a stripped binary); llvm-objdump and swift-demangle from /opt/swift
# (which leaves some names of a Swift 6.0 binary mangled: the scanout copy is matched on both).
set -eu
bin=$1
tools=/opt/swift/usr/bin
here=$(cd "$(dirname "$0")" && pwd)
syms=$(mktemp)
trap 'rm -f "$syms"' EXIT
"$tools/llvm-nm" --defined-only "$bin" | awk '$2 ~ /[tTwW]/ { print $3 }' | sort -u > "$syms.m"
"$tools/swift-demangle" --simplified < "$syms.m" | paste "$syms.m" - > "$syms"
rm -f "$syms.m"
for f in "Blend.overSpan(" "Blend.blendSpan(" "Shader.linearOpaqueSpan(" "Blend.over565Span(" "Blend.blend565Span(" \
         "Canvas.drawMask(_:width:height:pitch:x:y:premultiplied" "CoverageTable.build(" "RoundedRectCoverage.at4(" \
         "Row32.fill(_:_:_:)" "Row16.fill(_:_:_:)" "ScanoutCopy.run<" "ScanoutCopyO3run" "Canvas.fillArcBand(" "denseRow<"; do
    grep -F "$f" "$syms" | grep -v -e "closure" -e "thunk" | while IFS="$(printf '\t')" read -r m d; do
        echo "== $d"
        "$tools/llvm-objdump" -d --no-show-raw-insn --disassemble-symbols="$m" "$bin" | python3 "$here/loops.py"
    done
done

#!/bin/sh
# Instructions per call of the benchmark scene's operations (shared/bench/scene.md §4), ours
# (kiosk-hud-bench) against the C peers (cairo, pixman), on arm64 and on x86-64, all counted by
# the same QEMU plugin (insn-count.c) under qemu-user: qemu-aarch64 for the arm64 programs,
# qemu-x86_64 -cpu max for the x86-64 ones. Prints a Markdown table (docs/measurements.md).
#
#   Tools/insn-count/run.sh --arm64-bench BIN --x86-bench BIN [--work DIR] [--size WxH] [--n N]
#                           [--ops "full …"] [--arches "arm64 x86"] [--who "ours cairo pixman"]
#
# Each count is (instructions of a run with N0 + N calls − those of a run with N0 calls) / N, so
# start-up, set-up and the first (cold) calls cancel: ours `--count K --only OP --sizes WxH`, the
# peers `cg MODE WxH K` (3 warm calls, then K). N = 100 covers one whole cycle of the ticks'
# progress (i mod 100). SWIFT_DETERMINISTIC_HASHING=1 keeps our runs repeatable.
#
# What it needs (made under --work, default /tmp/insn-count, if missing): QEMU with plugins
# (Debian's qemu-user, not qemu-user-static), gcc-aarch64-linux-gnu, an arm64 root with libc6,
# libfreetype6, libpng16, cairo and pixman (their -dev packages, fetched with an apt
# configuration of its own — never dpkg --add-architecture), and the peers built from
# ../shared/bench/peer (beside the checkout) for both architectures (the x86-64 ones need libcairo2-dev and
# libpixman-1-dev on the host). Font: fonts-dejavu-core on the host (qemu -L falls back to it).
# --arm64-ours-root: the root our arm64 program runs with, when it needs a newer glibc than
# Debian 12's (Tools/cross-build.sh links against Debian 13's: its sysroot, cross/arm64 in the
# root Tools/debian13.sh makes); the peers always run with the Debian 12 root they were built for.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
work=/tmp/insn-count
size=800x480
n=100
n0=10
ops="full full_blitbg tick_bezel tick_ring text2 el_gradient el_dim el_hud"
repo=$(cd "$here/../.." && pwd)
a64_bench=$repo/.build-cross/arm64/kiosk-hud-bench   # Tools/cross-build.sh arm64 --product kiosk-hud-bench
ours_root=
x86_bench=
arches="arm64 x86"
who_list="ours cairo pixman"
peer_src=$repo/../shared/bench/peer
while [ $# -gt 0 ]; do
    case $1 in
    --arm64-bench) a64_bench=$2; shift ;;
    --x86-bench) x86_bench=$2; shift ;;
    --work) work=$2; shift ;;
    --size) size=$2; shift ;;
    --n) n=$2; shift ;;
    --ops) ops=$2; shift ;;
    --arches) arches=$2; shift ;;
    --who) who_list=$2; shift ;;
    --peer-src) peer_src=$2; shift ;;
    --arm64-ours-root) ours_root=$2; shift ;;
    *) echo "usage: $0 --arm64-bench BIN --x86-bench BIN [--work DIR] [--size WxH] [--n N] [--ops LIST] [--arches LIST] [--who LIST] [--arm64-ours-root DIR]" >&2; exit 2 ;;
    esac
    shift
done
case $arches in *x86*) [ -n "$x86_bench" ] || { echo "run.sh: --x86-bench (an x86-64 release kiosk-hud-bench) is needed" >&2; exit 2; } ;; esac
mkdir -p "$work"
root=$work/arm64-root
ours_root=${ours_root:-$root}
plugin=$work/insn-count.so
export SWIFT_DETERMINISTIC_HASHING=1

gcc -shared -fPIC -O2 -Wall -o "$plugin" "$here/insn-count.c"

# --- the arm64 root: Debian 12's arm64 packages, unpacked (no dpkg database touched) ---
if [ ! -e "$root/usr/lib/aarch64-linux-gnu/libcairo.so" ]; then
    apt=$work/apt
    mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$root"
    : > "$apt/status"
    cat > "$apt/sources.list" <<EOF
deb [arch=arm64 signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian bookworm main
deb [arch=arm64 signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian bookworm-updates main
deb [arch=arm64 signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian-security bookworm-security main
EOF
    set -- -o APT::Architecture=arm64 -o APT::Architectures::=arm64 -o Dir::State="$apt" \
        -o Dir::State::Lists="$apt/lists" -o Dir::State::status="$apt/status" -o Dir::Cache="$apt/cache" \
        -o Dir::Etc::SourceList="$apt/sources.list" -o Dir::Etc::SourceParts=/dev/null \
        -o Dir::Etc::Parts=/dev/null -o Dir::Etc::PreferencesParts=/dev/null -o APT::Install-Recommends=false
    apt-get "$@" -qq update
    apt-get "$@" -y -qq --download-only install libc6-dev libcairo2-dev libpixman-1-dev libfreetype-dev \
        libpng-dev zlib1g-dev libgcc-s1 libstdc++6
    for d in "$apt"/cache/archives/*.deb; do dpkg-deb -x "$d" "$root"; done
    # Absolute symbolic links (libfoo.so -> /lib/…) made relative, so they resolve inside the root.
    find "$root" -type l -lname '/*' | while read -r l; do
        ln -sfn "$(realpath -m --relative-to="$(dirname "$l")" "$root$(readlink "$l")")" "$l"
    done
fi

# --- the peers, for both architectures ---
if [ ! -x "$work/peer-arm64/bin/hud_pixman" ]; then
    rm -rf "$work/peer-arm64" && cp -r "$peer_src" "$work/peer-arm64" && chmod -R u+w "$work/peer-arm64"
    PKG_CONFIG_SYSROOT_DIR=$root \
    PKG_CONFIG_LIBDIR=$root/usr/lib/aarch64-linux-gnu/pkgconfig:$root/usr/share/pkgconfig \
        make -s -C "$work/peer-arm64" bin/hud_cairo bin/hud_pixman \
        CC="aarch64-linux-gnu-gcc --sysroot=$root -Wl,-rpath-link=$root/lib/aarch64-linux-gnu:$root/usr/lib/aarch64-linux-gnu"
fi
if [ ! -x "$work/peer-x86/bin/hud_pixman" ]; then
    rm -rf "$work/peer-x86" && cp -r "$peer_src" "$work/peer-x86" && chmod -R u+w "$work/peer-x86"
    make -s -C "$work/peer-x86" bin/hud_cairo bin/hud_pixman
fi

# count ARCH PROGRAM ARGS… — the guest instructions of one run (K is substituted by the caller)
count() {
    arch=$1; shift
    f=$work/count.$$.out
    rm -f "$f"
    case $arch in
    arm64) qemu-aarch64 -L "$r" -plugin "$plugin,out=$f" "$@" > /dev/null ;;
    x86) qemu-x86_64 -cpu max -plugin "$plugin,out=$f" "$@" > /dev/null ;;
    esac || { echo "run.sh: $* failed" >&2; exit 1; }
    awk '$1 == "insns" { print $2 }' "$f"
}

# per ARCH WHO OP — instructions per call
per() {
    arch=$1 who=$2 op=$3
    case $op in
    tick_bezel) mode=tick ;; tick_ring) mode=tickring ;; text2) mode=text ;;
    el_gradient) mode=grad ;; el_dim) mode=dim ;; el_hud) mode=hud ;; *) mode=$op ;;
    esac
    if [ "$arch" = arm64 ]; then bench=$a64_bench peer=$work/peer-arm64/bin; else bench=$x86_bench peer=$work/peer-x86/bin; fi
    run() {
        case $who in
        ours) count "$arch" "$bench" --sizes "$size" --only "$op" --count "$1" ;;
        cairo) count "$arch" "$peer/hud_cairo" cg "$mode" "$size" "$1" ;;
        pixman) count "$arch" "$peer/hud_pixman" cg "$mode" "$size" "$1" ;;
        esac
    }
    case $who in ours) prog=$bench r=$ours_root ;; *) prog=$peer/hud_$who r=$root ;; esac
    # Kept per program (its checksum), op, size and N: a rerun only counts what changed.
    key=$work/counts/$arch-$who-$op-$size-$n0-$n-$(md5sum < "$prog" | cut -c1-12)
    if [ ! -s "$key" ]; then
        mkdir -p "$work/counts"
        a=$(run "$n0") b=$(run $((n0 + n)))
        echo $(((b - a) / n)) > "$key"
    fi
    cat "$key"
}

fmt() { awk -v v="$1" 'BEGIN { if (v == 0) printf "-"; else if (v >= 1e6) printf "%.2f M", v / 1e6; else printf "%.1f k", v / 1e3 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == 0 || b == 0) printf "-"; else printf "%.2f", a / b }'; }

echo "Instructions per call, $size (\`Tools/insn-count/run.sh\`; N = $n calls after $n0, QEMU 7.2 TCG + insn-count.so)"
echo
head="| op" rule="|---"
for arch in $arches; do
    a=$arch; [ "$a" = x86 ] && a=x86-64
    head="$head | $a ours | $a cairo | $a pixman | ours/cairo | ours/pixman" rule="$rule|---:|---:|---:|---:|---:"
done
echo "$head |"
echo "$rule|"
for op in $ops; do
    line="| $op"
    for arch in $arches; do
        o=0 c=0 p=0
        case " $who_list " in *" ours "*) o=$(per "$arch" ours "$op") ;; esac
        case " $who_list " in *" cairo "*) c=$(per "$arch" cairo "$op") ;; esac
        case " $who_list " in *" pixman "*) p=$(per "$arch" pixman "$op") ;; esac
        line="$line | $(fmt "$o") | $(fmt "$c") | $(fmt "$p") | $(ratio "$o" "$c") | $(ratio "$o" "$p")"
    done
    echo "$line |"
done

#!/usr/bin/env bash
# Tools/make-deb.sh — builds kiosk-hud_VERSION_ARCH.deb with dpkg-deb (no debhelper needed):
# Tools/install.sh with PREFIX=/usr into a staging root, the licence (dist/debian/copyright) and
# a Debian changelog for the version, then DEBIAN/ (control, conffiles, md5sums, and dist/debian's
# postinst, prerm and postrm).
#
#   [OUT=DIR] Tools/make-deb.sh [--binary PATH] [--version VERSION] [--out DIR] [--compress xz|gzip|none]
#
# --binary: package this kiosk-hud (default: build the release binary here). The architecture
# is the binary's own (ELF machine: amd64, arm64); one for another architecture than this
# machine's needs KIOSK_HUD_FOREIGN_RUN for its manual pages (Tools/install.sh; cross-build.sh
# sets it). --version: default kioskHUDVersion in Sources/KioskCLI/Version.swift (the one place
# the version is written: CHANGELOG.md's newest release, `kiosk-hud --version`), with
# +gitDATE.COMMIT in a git checkout; a version with a Debian revision (0.1.0-1) makes a non-native package, whose
# changelog is changelog.Debian.gz. --out, or OUT in the environment (--out wins): where the
# .deb goes, made if missing (default: the current directory). Relative paths, here and for
# --binary, are from the current directory. --compress: the data's compression (xz, Debian's
# default, takes a while on a debug binary). Prints the .deb's absolute path.
# Maintainer: $DEBFULLNAME <$DEBEMAIL> when set (set them to yours: the default address is a
# placeholder, which lintian reports as bogus-mail-host). Beside the .deb: the binary's debug
# information, kiosk-hud_VERSION_ARCH.debug (the packaged binary is stripped).
#
# Installs with `apt install ./kiosk-hud_*.deb` (pulling in its Depends), enables
# kiosk-hud.service (and its socket and progress follower); the splash starts at the next boot. `apt purge kiosk-hud` removes everything.
set -euo pipefail
caller=$PWD

binary="" version="" out=${OUT:-.} compress=xz
while [ $# -gt 0 ]; do
    case "$1" in
    --binary) binary=$2; shift 2 ;;
    --version) version=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --compress) compress=$2; shift 2 ;;
    *) echo "usage: [OUT=DIR] Tools/make-deb.sh [--binary PATH] [--version VERSION] [--out DIR] [--compress xz|gzip|none]" >&2; exit 64 ;;
    esac
done
# The caller's paths, before working from the checkout.
[ -n "$out" ] || { echo "make-deb.sh: an empty OUT or --out" >&2; exit 64; }
case "$out" in /*) ;; *) out=$caller/$out ;; esac
case "$binary" in /* | "") ;; *) binary=$caller/$binary ;; esac
cd "$(dirname "$0")/.."
if [ -z "$version" ]; then
    version=$(sed -n 's/^public let kioskHUDVersion = "\([^"]*\)"$/\1/p' Sources/KioskCLI/Version.swift)
    [ -n "$version" ] || { echo "make-deb.sh: no kioskHUDVersion in Sources/KioskCLI/Version.swift" >&2; exit 1; }
    if git rev-parse --git-dir >/dev/null 2>&1; then
        version="$version+git$(git log -1 --format=%cd --date=format:%Y%m%d).$(git rev-parse --short=8 HEAD)"
    fi
fi
if [ -z "$binary" ]; then
    swift build -c release --product kiosk-hud
    binary="$(swift build -c release --show-bin-path)/kiosk-hud"
fi

# The architecture from the ELF header's e_machine (offset 18, little-endian).
machine=$(od -An -tu2 -j18 -N2 "$binary" | tr -d ' ')
case "$machine" in
62) arch=amd64 ;;
183) arch=arm64 ;;
40) arch=armhf ;;
*) echo "make-deb.sh: $binary: unknown ELF machine $machine" >&2; exit 1 ;;
esac

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
root=$stage/root
# install.sh's one line of success is not ours to print; its errors are (a foreign binary with
# no KIOSK_HUD_FOREIGN_RUN to run it through, for instance).
if ! err=$(DESTDIR=$root PREFIX=/usr KIOSK_HUD_BINARY=$binary Tools/install.sh 2>&1 >/dev/null); then
    echo "$err" >&2
    echo "make-deb.sh: Tools/install.sh failed" >&2
    exit 1
fi
# The licence (DEP-5) and the Debian changelog. A version with a Debian revision (1.2.3-1) is a
# package of the upstream release: changelog.Debian.gz. Without one the package is native, and
# Debian's name for its changelog is changelog.gz (Policy 12.7; lintian says so otherwise). One
# entry, for this version, dated by SOURCE_DATE_EPOCH, else the commit's date, else now (so two
# builds of one commit give the same bytes).
doc=$root/usr/share/doc/kiosk-hud
install -m 644 dist/debian/copyright "$doc/copyright"
# The licence is copyright's (Debian's place for it): not install.sh's LICENSE beside it too
# (lintian: extra-license-file).
rm -f "$doc/LICENSE"
case "$version" in *-*) changelog=changelog.Debian ;; *) changelog=changelog ;; esac
when=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}
maintainer="${DEBFULLNAME:-KioskHUD maintainers} <${DEBEMAIL:-kiosk-hud@localhost}>"
cat > "$doc/$changelog" <<CHANGELOG
kiosk-hud ($version) unstable; urgency=medium

  * kiosk-hud $version, packaged by Tools/make-deb.sh.
    What changed in each release: CHANGELOG.md in the KioskHUD sources.

 -- $maintainer  $(LC_ALL=C date -u -R -d "@$when")
CHANGELOG
gzip -9n "$doc/$changelog"
chmod 644 "$doc/$changelog.gz"
# lintian's overrides. The shutdown screens are wanted by the targets that end a boot, as
# Debian's plymouth-poweroff.service & co. are (plymouth ships static links into their .wants;
# here [Install] WantedBy=, so that `systemctl enable|disable kiosk-hud.service` turns them on
# and off with the splash, through its Also=): lintian finds those targets unusual.
install -d -m 755 "$root/usr/share/lintian/overrides"
overrides=$root/usr/share/lintian/overrides/kiosk-hud
echo "# The shutdown screens are wanted by the targets that end a boot, as plymouth's units are." > "$overrides"
for t in halt kexec poweroff reboot; do
    echo "kiosk-hud: systemd-service-file-refers-to-unusual-wantedby-target $t.target [lib/systemd/system/kiosk-hud-$t.service]" >> "$overrides"
done
# A first Debian entry that closes no bug is what lintian expects of an upload to Debian's
# archive (an ITP); this package is not one.
if [ "$changelog" = changelog.Debian ]; then
    echo "kiosk-hud: initial-upload-closes-no-bugs [usr/share/doc/kiosk-hud/changelog.Debian.gz:1]" >> "$overrides"
fi
chmod 644 "$overrides"

# Stripped, as Debian ships binaries (lintian: unstripped-binary-or-object); the symbols and debug
# information are kept beside the .deb as kiosk-hud_VERSION_ARCH.debug, which gdb and the Swift
# backtracer find by the debug link, for a crash's backtrace. The binutils of the binary's
# architecture (gcc-aarch64-linux-gnu brings arm64's); without them the binary stays as built.
case "$arch" in amd64) prefix="" ;; arm64) prefix=aarch64-linux-gnu- ;; armhf) prefix=arm-linux-gnueabihf- ;; esac
mkdir -p "$out"
out=$(cd "$out" && pwd)
if command -v "${prefix}objcopy" >/dev/null; then
    debug="$out/kiosk-hud_${version}_${arch}.debug"
    "${prefix}objcopy" --only-keep-debug "$root/usr/bin/kiosk-hud" "$debug"
    chmod 644 "$debug"
    "${prefix}objcopy" --strip-unneeded --remove-section=.comment --add-gnu-debuglink="$debug" "$root/usr/bin/kiosk-hud"
else
    echo "make-deb.sh: no ${prefix}objcopy: the binary is packaged unstripped" >&2
fi

install -d -m 755 "$root/DEBIAN"
for s in postinst prerm postrm; do install -m 755 "dist/debian/$s" "$root/DEBIAN/$s"; done
echo /etc/default/kiosk-hud > "$root/DEBIAN/conffiles"
# initramfs-tools rebuilds the initramfs once dpkg is done (its trigger), with or without the
# hook: the splash goes into it on install and out of it on removal.
# And the postinst hears of Plymouth's client coming or going (the `plymouth` link it makes
# when Plymouth is not installed: dist/debian/postinst).
{
    echo "activate-noawait update-initramfs"
    echo "interest-noawait /usr/bin/plymouth"
    echo "interest-noawait /bin/plymouth"
} > "$root/DEBIAN/triggers"
chmod 644 "$root/DEBIAN/triggers"
(cd "$root" && find . -type f ! -path './DEBIAN/*' -printf '%P\0' | LC_ALL=C sort -z | xargs -0 md5sum) > "$root/DEBIAN/md5sums"

size=$(du -sk --exclude=DEBIAN "$root" | cut -f1)
# The glibc it needs: 2.36 for its packed relocations (DT_RELR), or the newest symbol version
# it asks for if that is newer (a binary built against Debian 13's glibc asks for 2.38: fmod,
# the C23 strtol family), so that apt refuses it where it cannot start.
glibc=$( { echo GLIBC_2.36; LC_ALL=C readelf -V "$binary" | grep -o 'GLIBC_[0-9][0-9.]*'; } | sort -uV | tail -1)
glibc=${glibc#GLIBC_}
# What kiosk-hud opens (it links only glibc, and opens the others with dlopen when it needs
# them): glibc as above; libinput10 and libudev1 for touch,
# libfreetype6 for text not in the glyph cache, libpng16-16 for pictures, libsystemd0 for
# `ctl follow-boot`, fonts-dejavu-core for the default font; libdrm2 for the display's device
# handling as the issue asks (kiosk-hud itself uses only the kernel's DRM ioctls). Recommended:
# libwayland-client0 for `--wayland` (the HUD over a running compositor), which a board without
# one never opens.
cat > "$root/DEBIAN/control" <<CONTROL
Package: kiosk-hud
Version: $version
Architecture: $arch
Maintainer: ${DEBFULLNAME:-KioskHUD maintainers} <${DEBEMAIL:-kiosk-hud@localhost}>
Installed-Size: $size
Depends: libc6 (>= $glibc), libdrm2, libinput10, libudev1, libfreetype6, libpng16-16, libsystemd0, fonts-dejavu-core
Recommends: libwayland-client0
Section: misc
Priority: optional
Description: progress HUD and boot splash for kiosk displays, drawn with DRM/KMS
 kiosk-hud puts an MBProgressHUD-style overlay (spinner, progress bar, label,
 a Cancel button) straight onto the screen of a kiosk board: DRM/KMS or fbdev,
 touch through libinput, tilt through an IIO accelerometer. It finds the
 board's profile by itself (kiosk-hud boards detect).
 .
 This package also makes it the boot splash: the daemon is enabled, started
 before sysinit.target (it waits for the display to appear), and shows systemd's
 boot progress until the kiosk app takes over (see
 /usr/share/doc/kiosk-hud/boot-splash.md).
CONTROL

deb="$out/kiosk-hud_${version}_${arch}.deb"
level=(); [ "$compress" = gzip ] && level=(-z1)
dpkg-deb --root-owner-group "-Z$compress" "${level[@]}" --build "$root" "$deb" >/dev/null
echo "$deb"

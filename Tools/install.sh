#!/usr/bin/env bash
# Tools/install.sh — installs kiosk-hud where Debian puts things: the release binary, the board
# profiles, the systemd units (dist/), the manual pages, the docs.
#
#   [PREFIX=/usr/local] [DESTDIR=] [KIOSK_HUD_BINARY=path] Tools/install.sh
#
# PREFIX=/usr is the package's layout (Tools/make-deb.sh):
#   /usr/bin/kiosk-hud
#   /usr/share/kiosk-hud/boards/*.toml         the profiles (kiosk-hud also has them built in)
#   /lib/systemd/system/kiosk-hud*.{socket,service}   (systemd's systemdsystemunitdir; the boot splash,
#                                              its handover and the shutdown screens)
#   /lib/systemd/system/display-manager.service.d/kiosk-hud.conf   the display manager after the handover
#   /usr/share/man/man1/kiosk-hud*.1.gz        made by `kiosk-hud --man COMMAND`
#   /usr/share/doc/kiosk-hud/                  LICENSE, README, dist/README, the protocol, Plymouth,
#                                              examples (the .deb: copyright for LICENSE)
#   /usr/share/initramfs-tools/{hooks,scripts/init-top,scripts/init-bottom}/kiosk-hud
#                                              the splash in the initramfs (docs/initramfs.md;
#                                              another PREFIX: /etc/initramfs-tools, where
#                                              initramfs-tools looks for the admin's own)
#   /etc/default/kiosk-hud                     the daemon's options (kept if there)
#   /etc/kiosk-hud/boards/                     your own profiles (empty)
# Another PREFIX (/usr/local by default) puts the units in PREFIX/lib/systemd/system (systemd
# looks there too) and points the units' ExecStart= at PREFIX/bin/kiosk-hud. (No udev rule: the
# daemon is started by sysinit.target and waits for the display itself, --wait-display.)
#
# Without KIOSK_HUD_BINARY it builds the release binary first (swift build -c release;
# SCRATCH_PATH sets --scratch-path). The manual pages are made by running the binary: a binary
# for another architecture runs through KIOSK_HUD_FOREIGN_RUN (a command put before it, e.g.
# `qemu-aarch64-static -L SYSROOT`, as Tools/cross-build.sh does); without it install.sh stops
# and says so rather than leave the pages out (KIOSK_HUD_MAN=none leaves them out on purpose).
# Nothing is started or enabled: that is the package's postinst (or the README's steps).
set -euo pipefail
cd "$(dirname "$0")/.."

PREFIX=${PREFIX:-/usr/local}
DESTDIR=${DESTDIR:-}
BIN=${KIOSK_HUD_BINARY:-}
if [ -z "$BIN" ]; then
    scratch=(); [ -n "${SCRATCH_PATH:-}" ] && scratch=(--scratch-path "$SCRATCH_PATH")
    swift build -c release --product kiosk-hud "${scratch[@]}"
    BIN="$(swift build -c release "${scratch[@]}" --show-bin-path)/kiosk-hud"
fi
[ -x "$BIN" ] || { echo "install.sh: $BIN is not an executable" >&2; exit 1; }

if [ "$PREFIX" = /usr ]; then
    unitdir=$(pkg-config --variable=systemdsystemunitdir systemd 2>/dev/null || true)
    unitdir=${unitdir:-/lib/systemd/system}
else
    unitdir=$PREFIX/lib/systemd/system
fi
D=$DESTDIR
share=$PREFIX/share

install -d "$D$PREFIX/bin" "$D$share/kiosk-hud/boards" "$D$unitdir" "$D$share/man/man1" \
    "$D$share/doc/kiosk-hud/examples" "$D/etc/kiosk-hud/boards" "$D/etc/default"
install -m 755 "$BIN" "$D$PREFIX/bin/kiosk-hud"
install -m 644 Boards/*.toml Boards/README.md "$D$share/kiosk-hud/boards/"

# The units name /usr/bin/kiosk-hud; another prefix gets its own path.
for u in dist/systemd/kiosk-hud.socket dist/systemd/kiosk-hud.service dist/systemd/kiosk-hud-progress.service \
         dist/systemd/kiosk-hud-quit.service dist/systemd/kiosk-hud-poweroff.service dist/systemd/kiosk-hud-reboot.service \
         dist/systemd/kiosk-hud-halt.service dist/systemd/kiosk-hud-kexec.service; do
    sed "s|/usr/bin/kiosk-hud|$PREFIX/bin/kiosk-hud|g" "$u" > "$D$unitdir/$(basename "$u")"
    chmod 644 "$D$unitdir/$(basename "$u")"
done
# The display manager after the handover (lightdm, gdm3, sddm: display-manager.service's drop-in).
install -d "$D$unitdir/display-manager.service.d"
install -m 644 dist/systemd/display-manager.service.d/kiosk-hud.conf "$D$unitdir/display-manager.service.d/"

# The initramfs (initramfs-tools reads /usr/share/initramfs-tools and /etc/initramfs-tools only).
if [ "$PREFIX" = /usr ]; then itdir=/usr/share/initramfs-tools; else itdir=/etc/initramfs-tools; fi
for f in hooks/kiosk-hud scripts/init-top/kiosk-hud scripts/init-bottom/kiosk-hud; do
    install -d "$D$itdir/$(dirname "$f")"
    install -m 755 "dist/initramfs-tools/$f" "$D$itdir/$f"
done

# Manual pages from the binary's own declarations (the same as --help).
if [ "${KIOSK_HUD_MAN:-}" != none ]; then
    run=()
    binary_machine=$(od -An -tu2 -j18 -N2 "$BIN" | tr -d ' ')
    case "$(uname -m)" in x86_64) host_machine=62 ;; aarch64) host_machine=183 ;; *) host_machine=unknown ;; esac
    if [ "$binary_machine" != "$host_machine" ]; then
        [ -n "${KIOSK_HUD_FOREIGN_RUN:-}" ] || {
            echo "install.sh: $BIN is for ELF machine $binary_machine, this is $(uname -m): set KIOSK_HUD_FOREIGN_RUN" \
                 "(e.g. 'qemu-aarch64-static -L SYSROOT') to make its manual pages, or KIOSK_HUD_MAN=none" >&2
            exit 1
        }
        read -r -a run <<< "$KIOSK_HUD_FOREIGN_RUN"
    fi
    for page in "" render show daemon ctl run plymouth touch tilt boards doctor theme frame-cache overlay; do
        name=kiosk-hud${page:+-$page}
        # shellcheck disable=SC2086 # an empty page is no argument
        "${run[@]}" "$BIN" --man $page > "$D$share/man/man1/$name.1"
        gzip -9nf "$D$share/man/man1/$name.1"
    done
fi

doc=$D$share/doc/kiosk-hud
install -m 644 LICENSE "$doc/LICENSE"
install -m 644 README.md "$doc/README.md"
install -m 644 dist/README.md "$doc/boot-splash.md"
install -m 644 docs/protocol.md docs/plymouth.md docs/initramfs.md docs/rauc.md docs/updates.md "$doc/"
sed "s|/usr/bin/kiosk-hud|$PREFIX/bin/kiosk-hud|g" dist/systemd/kiosk-app.service.example > "$doc/examples/kiosk-app.service"
chmod 644 "$doc/examples/kiosk-app.service"
# The documented drop-ins (docs/updates.md, docs/rauc.md, README), as NAME.service.d/FILE.conf.
for f in dist/systemd/examples/*.d/*.conf; do
    d=$(basename "$(dirname "$f")")
    install -d "$doc/examples/$d"
    sed "s|/usr/bin/kiosk-hud|$PREFIX/bin/kiosk-hud|g" "$f" > "$doc/examples/$d/$(basename "$f")"
    chmod 644 "$doc/examples/$d/$(basename "$f")"
done
install -m 644 dist/debian/kiosk-hud.default "$doc/examples/kiosk-hud.default"
# The daemon's options: a new file only (yours stays).
if [ ! -e "$D/etc/default/kiosk-hud" ]; then install -m 644 dist/debian/kiosk-hud.default "$D/etc/default/kiosk-hud"; fi

echo "installed kiosk-hud into ${DESTDIR:-/} with PREFIX=$PREFIX (units: $unitdir)" >&2

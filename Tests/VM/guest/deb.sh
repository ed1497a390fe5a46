#!/bin/bash
# deb.sh DEB — the in-guest half of Tests/KioskDRMTests/VMDebTests.swift (run-in-vm.sh --gpu bochs
# at 800x480): the package made by Tools/make-deb.sh, on a real kernel. The guest's root is the
# host's Debian 12 under a tmpfs overlay, so dpkg installs into a writable copy of a real system
# (its own dpkg database, the dependencies really installed) and nothing reaches the host.
#   1. dpkg -i: installed, kiosk-hud.socket and kiosk-hud.service enabled (deb-systemd-helper's links);
#   2. /usr/bin/kiosk-hud boards list and detect, run from the installed path: they find the
#      installed profiles (and your own in /etc/kiosk-hud/boards first), and detection reads the
#      real kernel's /sys: bochs-drm, Virtual-1 connected, its modes; a profile of your own that
#      matches this machine is chosen, and the one line of `show` says so;
#   3. dpkg -r: the program gone, only the configuration left (Debian keeps it until purge);
#   4. dpkg --purge: every place the package touches is as it was before step 1 (its caches in
#      /var/cache/kiosk-hud gone too).
# Prints "ok NAME", "FAIL NAME: why", "info NAME: ..."; detect's output in $VM_OUT/detect.txt.
set -u
DEB=$1
OUT=$VM_OUT
ok() { echo "ok $1"; }
fail() { echo "FAIL $1: $2"; }
info() { echo "info $1: $2"; }
check() { local name=$1; shift; if "$@"; then ok "$name"; else fail "$name" "$*"; fi; }

# Every place the package or its scripts write, with links' targets.
places="/usr/bin /usr/share/kiosk-hud /usr/share/doc/kiosk-hud /usr/share/man/man1 /lib/systemd/system
        /lib/udev/rules.d /etc/kiosk-hud /etc/default /etc/systemd/system /var/lib/systemd /var/cache/kiosk-hud"
snapshot() { for p in $places; do [ -e "$p" ] && find "$p" -printf '%p %y %l\n'; done | LC_ALL=C sort; }

if dpkg -s kiosk-hud >/dev/null 2>&1; then fail preconditions "kiosk-hud is already installed on the host"; exit 1; fi
# man-db's trigger would index every manual page over 9p under TCG (minutes): off for this
# guest, as man-db/auto-update=false does (the pages themselves are checked below).
rm -f /var/lib/man-db/auto-update
# The host's own runs may have left caches; the package's purge removes them, so start without.
rm -rf /var/cache/kiosk-hud
snapshot > /tmp/before

# 1. Installed.
if dpkg -i "$DEB" > "$OUT/install.log" 2>&1; then ok installed; else fail installed "$(tail -5 "$OUT/install.log")"; fi
check status [ "$(dpkg-query -W -f '${Status}' kiosk-hud 2>&1)" = "install ok installed" ]
check socket-enabled [ "$(readlink /etc/systemd/system/sockets.target.wants/kiosk-hud.socket)" = /lib/systemd/system/kiosk-hud.socket ]
check splash-enabled [ "$(readlink /etc/systemd/system/sysinit.target.wants/kiosk-hud.service)" = /lib/systemd/system/kiosk-hud.service ]
check unit-execstart grep -qx 'ExecStart=/usr/bin/kiosk-hud daemon $KIOSK_HUD_PLYMOUTH $KIOSK_HUD_ARGS' /lib/systemd/system/kiosk-hud.service
check man-page [ -s /usr/share/man/man1/kiosk-hud-boards.1.gz ]

# 2. Run from the installed path, on the real kernel's /sys.
/usr/bin/kiosk-hud boards list > "$OUT/list.txt" 2>&1
check list-places grep -qx '# looked in: /etc/kiosk-hud/boards, /usr/share/kiosk-hud/boards, built-in' "$OUT/list.txt"
check list-installed grep -q '^rpi-touch-display  *[/]usr/share/kiosk-hud/boards/rpi-touch-display.toml (hides built-in): ' "$OUT/list.txt"
/usr/bin/kiosk-hud boards detect > "$OUT/detect.txt" 2>&1
check detect-generic grep -qx 'Chosen: generic (/usr/share/kiosk-hud/boards/generic.toml): no profile matches (8 checked)' "$OUT/detect.txt"
cat > /etc/kiosk-hud/boards/qemu-vga.toml <<'EOF'
# QEMU's standard VGA (bochs-drm) at 800x480: a profile of one's own, found before the installed ones.
name = "qemu-vga"

[match]
drm_driver = ["bochs-drm"]
connector = ["Virtual-1"]
mode = ["800x480"]

[display]
size = "800x480"
scale = 1.0
EOF
/usr/bin/kiosk-hud boards detect > "$OUT/detect-own.txt" 2>&1
check detect-own grep -qx 'Chosen: qemu-vga (/etc/kiosk-hud/boards/qemu-vga.toml): the only match (3 rules)' "$OUT/detect-own.txt"
/usr/bin/kiosk-hud show --no-input --duration 0 --glyph-cache none --no-frame-cache --label Hi > "$OUT/show.log" 2>&1
check show-line grep -qx 'kiosk-hud: board qemu-vga (/etc/kiosk-hud/boards/qemu-vga.toml): detected, the most specific match (3 rules): DRM driver bochs-drm, connector Virtual-1 (connected), mode 800x480' "$OUT/show.log"
rm /etc/kiosk-hud/boards/qemu-vga.toml

# 3. Removed: the configuration stays (the options, the socket's enable link, now masked).
if dpkg -r kiosk-hud > "$OUT/remove.log" 2>&1; then ok removed; else fail removed "$(tail -5 "$OUT/remove.log")"; fi
check program-gone bash -c '[ ! -e /usr/bin/kiosk-hud ] && [ ! -e /usr/share/kiosk-hud ] && [ ! -e /etc/kiosk-hud ]'
snapshot > /tmp/removed
left=$(LC_ALL=C comm -13 /tmp/before /tmp/removed | awk '{print $1}' | tr '\n' ' ')
info after-remove "left until purge: $left"
check config-kept bash -c '[ -e /etc/default/kiosk-hud ] && [ "$(readlink /etc/systemd/system/kiosk-hud.socket)" = /dev/null ]'

# 4. Purged: nothing of it is left, not even what kiosk-hud cached meanwhile.
mkdir -p /var/cache/kiosk-hud && echo x > /var/cache/kiosk-hud/frame-0123456789abcdef.bin
if dpkg --purge kiosk-hud > "$OUT/purge.log" 2>&1; then ok purged; else fail purged "$(tail -5 "$OUT/purge.log")"; fi
snapshot > /tmp/after
if cmp -s /tmp/before /tmp/after; then ok nothing-left; else fail nothing-left "$(diff /tmp/before /tmp/after | head -20 | tr '\n' ' ')"; fi
check not-known bash -c '! dpkg-query -W kiosk-hud >/dev/null 2>&1'
echo end

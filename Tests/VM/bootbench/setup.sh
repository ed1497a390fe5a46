#!/bin/bash
# setup.sh KIND [ARG] — the set-up of one boot of the boot benchmark (Tests/VM/bootbench/run.sh),
# run by `run-in-vm.sh --systemd` in the guest's root before systemd boots it as PID 1. That root
# is the host's Debian 12 (9p, read-only) under a tmpfs overlay: what is installed here lasts for
# this boot only, and nothing reaches the host.
#   none              no splash: the distribution's units, a getty on tty1
#   plymouth DEBDIR   Debian's Plymouth: `dpkg -i` of the .debs run.sh downloaded (plymouth,
#                     libplymouth5, plymouth-themes, plymouth-label, fonts-cantarell), theme
#                     spinner (plymouth-set-default-theme, as an administrator picks one); its
#                     own units start it (plymouth-start.service in sysinit.target, the quit
#                     units in multi-user.target). The harness's initramfs has no Plymouth, so it
#                     starts in the real root, as on a Debian system whose initramfs lacks it
#   kiosk DEB         kiosk-hud's package (`dpkg -i`: its postinst enables the splash, the socket
#                     and the follower), /etc/default/kiosk-hud as the package ships it; with
#                     $VM_OUT/cache-in (a later boot) /var/cache/kiosk-hud is that of an earlier
#                     boot (the frame and glyph caches), else empty (a first boot)
# Every kind gets the same end: bootbench-end.service (end.sh) once multi-user.target is reached.
set -euo pipefail
KIND=$1 ARG=${2:-}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
: "${VM_OUT:?}" "${KIOSK_VM_CTL:?}"
U=/etc/systemd/system

# A clean system, as Tests/VM/boot/setup.sh makes it: the distribution's static units, a getty on
# tty1, multi-user.target by default, a fixed machine id, not a container.
. "$KIOSK_VM_GUEST/clean-system.sh"
# No initramfs is built here (the guest boots the harness's own): it would only cost time.
ln -sf /bin/true /usr/sbin/update-initramfs

case $KIND in
  none) ;;
  plymouth)
    if ! dpkg -i "$ARG"/*.deb > "$VM_OUT/dpkg.log" 2>&1; then
      echo "FAIL setup-installed: dpkg -i: $(tail -5 "$VM_OUT/dpkg.log" | tr '\n' ' ')"; exit 1
    fi
    plymouth-set-default-theme spinner
    [ -e /lib/systemd/system/sysinit.target.wants/plymouth-start.service ] ||
      { echo "FAIL setup-installed: no plymouth-start.service in sysinit.target.wants"; exit 1; }
    ;;
  kiosk)
    if ! dpkg -i "$ARG" > "$VM_OUT/dpkg.log" 2>&1; then
      echo "FAIL setup-installed: dpkg -i: $(tail -5 "$VM_OUT/dpkg.log" | tr '\n' ' ')"; exit 1
    fi
    # A board keeps its installation from one boot to the next; this guest installs the package
    # again at each boot, which would give the files the frame cache checks (the binary, the
    # board files and their directories: their inode, size and time) a new time, and the cached
    # frame would be refused ("changed"). The same time for them at every boot of one run (the
    # .deb's), and the same steps before (the same inodes in the overlay's fresh tmpfs).
    find /usr/bin/kiosk-hud /usr/share/kiosk-hud /etc/kiosk-hud -exec touch -h -d "@$(stat -c %Y "$ARG")" {} + 2>/dev/null || true
    if [ -d "$VM_OUT/cache-in" ]; then
      mkdir -p /var/cache/kiosk-hud && cp -a "$VM_OUT/cache-in/." /var/cache/kiosk-hud/
    fi
    [ -L "$U/sysinit.target.wants/kiosk-hud.service" ] ||
      { echo "FAIL setup-installed: kiosk-hud.service is not in sysinit.target.wants"; exit 1; }
    ;;
  *) echo "FAIL setup-installed: unknown kind $KIND"; exit 1 ;;
esac

cat > "$U/bootbench-end.service" <<UNIT
# The end of a benchmark boot: the timings, then the power off. Ordered after
# multi-user.target and not part of what it waits for.
[Unit]
Description=Boot benchmark: timings and power off
DefaultDependencies=no
After=multi-user.target

[Service]
Type=exec
Environment=VM_OUT=$VM_OUT KIOSK_VM_CTL=$KIOSK_VM_CTL BOOTBENCH_KIND=$KIND
ExecStart=/bin/bash $HERE/end.sh
StandardOutput=append:$KIOSK_VM_CTL/stdout
StandardError=append:$KIOSK_VM_CTL/stderr

[Install]
WantedBy=multi-user.target
UNIT
systemctl enable bootbench-end.service 2>/dev/null
echo "ok setup-installed $KIND"

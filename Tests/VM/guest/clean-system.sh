# clean-system.sh — sourced by the set-ups of the guests that boot with systemd (Tests/VM/boot,
# shutdown, bootbench setup.sh): a clean system in the guest's overlay. The host's own unit
# enablement (/etc/systemd/system) is not this system's: it starts empty but for the getty on
# tty1 Debian's presets enable (the VT the splash draws on), multi-user.target by default, no
# frame or glyph cache (a first boot), no journal, a fixed machine id (not a first boot for
# systemd-firstboot), and not a container.
rm -rf /etc/systemd/system/* /var/cache/kiosk-hud /var/log/journal/*
systemctl set-default multi-user.target >/dev/null 2>&1
systemctl enable getty@tty1.service 2>/dev/null
echo 6b696f736b6875642d626f6f74766d31 > /etc/machine-id
echo kiosk-vm > /etc/hostname
# The root is the host's: when the host is itself a container, its marker files would make
# systemd believe it runs in one ("Detected virtualization docker") and behave as in one — e.g.
# PID 1 sends nothing to Plymouth's socket in a container. This guest is a VM.
rm -f /.dockerenv /run/.containerenv
# man-db's trigger would index every manual page of the 9p root again (70 s under TCG): nothing a
# boot needs (as debconf's man-db/auto-update=false).
rm -f /var/lib/man-db/auto-update

#!/bin/bash
# go.sh — kiosk-vm-go.service (Tests/VM/shutdown/setup.sh): once the kiosk app has drawn and the
# boot is finished, a screendump ("$HOW-$SCREENS-before": the app's colour), the exit status for
# the harness, then the host asked to take a screendump every 100 ms until QEMU exits
# (vmhost.py's shutdown-watch: its time of the answer is the command's, the QMP SHUTDOWN event's
# the end), and `systemctl reboot|poweroff` at once. The console's log level up first, so that
# systemd-shutdown's last words (the killing spree) reach the serial console in both runs.
set -u
set -a; . /etc/kiosk-vm.env; set +a
. "$KIOSK_VM_GUEST/lib.sh"
say() { echo "$*" >> "$KIOSK_VM_CTL/stdout"; }
name=$KIOSK_VM_HOW-$KIOSK_VM_SCREENS

for _ in $(seq 600); do journalctl -q -b -u kiosk-app.service | grep -q 'kiosk-app: drawn' && break; sleep 0.1; done
journalctl -q -b -u kiosk-app.service | grep -q 'kiosk-app: drawn' && say "ok app-drawn" ||
  say "FAIL app-drawn: $(journalctl -q -b -u kiosk-app.service | tail -3 | tr '\n' '|')"
state=$(timeout 120 systemctl is-system-running --wait 2>&1)
[ "$state" = running ] && say "ok boot-finished" ||
  say "FAIL boot-finished: is-system-running says '$state'; failed units: $(systemctl --failed --plain --no-legend | tr '\n' ' ')"
say "info units: $(systemctl is-enabled kiosk-hud-poweroff.service kiosk-hud-reboot.service 2>&1 | tr '\n' ' ')"
vm_screendump "$name-before" > /dev/null || say "FAIL before-screendump"
sync
vm_sleep 1
dmesg -n 7
echo 0 > "$KIOSK_VM_CTL/rc.tmp" && mv "$KIOSK_VM_CTL/rc.tmp" "$KIOSK_VM_CTL/rc"
say "ok shutdown-started"
if vm_request shutdown-watch "$name" 100 > /dev/null; then
  exec systemctl "$KIOSK_VM_HOW"
fi
say "FAIL shutdown-watch: the host did not start its screendumps"
systemctl "$KIOSK_VM_HOW"

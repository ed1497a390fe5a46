#!/bin/bash
# update.sh — kiosk-vm-update.service (Tests/VM/shutdown/setup.sh, `update`): an offline update's
# own unit, in the boot systemd made system-update.target's because /system-update is there. As
# an update tool does it (PackageKit's pk-offline-update, for one): Plymouth's updates mode and
# the update's progress through Plymouth's socket, which the boot splash answers; then the
# update is done, /system-update removed, and the machine restarted. Between the two:
#   - "update-40": a screendump of the update's screen (the host compares it with `render`);
#   - the boot's progress follower did not start (kiosk-hud-progress.service's condition): only
#     the update moves the bar;
#   - the host asked for screendumps until QEMU exits (vmhost.py's shutdown-watch), as go.sh.
set -u
set -a; . /etc/kiosk-vm.env; set +a
. "$KIOSK_VM_GUEST/lib.sh"
say() { echo "$*" >> "$KIOSK_VM_CTL/stdout"; }
name=$KIOSK_VM_HOW-$KIOSK_VM_SCREENS

# The splash is up: kiosk-hud.service is ready (Type=notify: its first frame on screen).
s=
for _ in $(seq 300); do s=$(kiosk-hud ctl status 2>&1) && [[ $s == *'"active":true'* ]] && break; vm_sleep 0.1; done
[[ $s == *'"active":true'* ]] && say "ok splash-up" || say "FAIL splash-up: ctl status: ${s:0:300}"

st=$(systemctl show -P ConditionResult kiosk-hud-progress.service)/$(systemctl is-active kiosk-hud-progress.service)
[ "$st" = no/inactive ] && say "ok no-boot-follower" || say "FAIL no-boot-follower: kiosk-hud-progress.service's condition/state: $st"

if plymouth change-mode --updates && plymouth system-update --progress=40; then say "ok update-requests"
else say "FAIL update-requests: plymouth exit $?"; fi
# The daemon has applied both (Plymouth's client returns on the ack, sent once applied).
for _ in $(seq 100); do s=$(kiosk-hud ctl status 2>&1); [[ $s == *'"progress":0.4'* && $s == *'Installing updates'* ]] && break; vm_sleep 0.1; done
[[ $s == *'"progress":0.4'* && $s == *'Installing updates'* ]] && say "ok update-shown" || say "FAIL update-shown: ctl status: ${s:0:300}"
vm_sleep 0.5
vm_screendump "$name-before" > /dev/null || say "FAIL before-screendump"

rm -f /system-update
sync
dmesg -n 7
echo 0 > "$KIOSK_VM_CTL/rc.tmp" && mv "$KIOSK_VM_CTL/rc.tmp" "$KIOSK_VM_CTL/rc"
say "ok shutdown-started"
if vm_request shutdown-watch "$name" 100 > /dev/null; then
  exec systemctl --no-block reboot
fi
say "FAIL shutdown-watch: the host did not start its screendumps"
systemctl --no-block reboot

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

# until_status NAME TRIES TEXT…: `kiosk-hud ctl status` asked every 0.1 s, up to TRIES times,
# until it has every TEXT; "ok NAME", else "FAIL NAME" with the last status.
until_status() {
  local name=$1 tries=$2 s= t all
  shift 2
  for _ in $(seq "$tries"); do
    all=
    if s=$(kiosk-hud ctl status 2>&1); then
      all=1
      for t in "$@"; do [[ $s == *"$t"* ]] || all=; done
    fi
    [ -n "$all" ] && { say "ok $name"; return 0; }
    vm_sleep 0.1
  done
  say "FAIL $name: ctl status: ${s:0:300}"
}

# The splash is up: kiosk-hud.service is ready (Type=notify: its first frame on screen).
until_status splash-up 300 '"active":true'

st=$(systemctl show -P ConditionResult kiosk-hud-progress.service)/$(systemctl is-active kiosk-hud-progress.service)
[ "$st" = no/inactive ] && say "ok no-boot-follower" || say "FAIL no-boot-follower: kiosk-hud-progress.service's condition/state: $st"

if plymouth change-mode --updates && plymouth system-update --progress=40; then say "ok update-requests"
else say "FAIL update-requests: plymouth exit $?"; fi
# The daemon has applied both (Plymouth's client returns on the ack, sent once applied).
until_status update-shown 100 '"progress":0.4' 'Installing updates'
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

#!/bin/bash
# shot.sh NAME — a screendump in the boot test, listed in $VM_OUT/manifest as
# "shot<TAB>NAME.ppm<TAB>UPTIME" (the host compares it). Run by units (made by setup.sh), so it
# reads the test's environment from /etc/kiosk-vm.env itself.
set -a; . /etc/kiosk-vm.env; set +a
. "$KIOSK_VM_GUEST/lib.sh"
if f=$(vm_screendump "$1"); then
  read -r up _ < /proc/uptime
  printf 'shot\t%s\t%s\n' "${f##*/}" "$up" >> "$VM_OUT/manifest"
else
  echo "FAIL $1-screendump: $f" >> "$KIOSK_VM_CTL/stdout"
fi
exit 0   # a failed screendump is the test's failure, not the unit's

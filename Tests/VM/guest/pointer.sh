#!/bin/bash
# pointer.sh X Y                — tap (move, left button down, up) at X,Y
# pointer.sh tap|move|down|up X Y
# Inside the guest: the host sends QMP input-send-event to the virtio-tablet
# (run-in-vm.sh --tablet). X, Y are absolute 0..32767 across the screen.
. "${0%/*}/lib.sh"
vm_pointer "$@"

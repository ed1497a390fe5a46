#!/bin/bash
# screendump.sh NAME [HEAD] — inside the guest: have the host take a QMP
# screendump of what the (emulated) screen shows right now. Returns once the
# file exists; prints its path, $VM_OUT/NAME.ppm (NAME ending in .png -> PNG).
# HEAD picks a virtio-gpu output (0, 1, ...; run-in-vm.sh --outputs N).
[ $# -ge 1 ] && [ $# -le 2 ] || { echo "usage: screendump.sh NAME [HEAD]" >&2; exit 2; }
. "${0%/*}/lib.sh"
vm_screendump "$@"

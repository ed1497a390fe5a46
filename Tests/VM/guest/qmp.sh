#!/bin/bash
# qmp.sh JSON — inside the guest: send one raw QMP command via the host and
# print QEMU's JSON reply, e.g. qmp.sh '{"execute":"query-status"}'.
[ $# -eq 1 ] || { echo "usage: qmp.sh JSON" >&2; exit 2; }
. "${0%/*}/lib.sh"
vm_qmp "$1"

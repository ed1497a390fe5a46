#!/bin/bash
# warm.sh KIOSK_HUD daemon ARGS… — kiosk-vm-warm.service (Tests/VM/shutdown/setup.sh): runs the
# shutdown screen's daemon with the unit's arguments until its first frame is in the frame cache
# (the log's "frame cache: written"), then quits it (the console back, nothing retained).
set -u
say() { echo "$*" >> "$KIOSK_VM_CTL/stdout"; }
log=/run/kiosk-vm-warm.log
"$@" 2> "$log" &
pid=$!
for _ in $(seq 1800); do grep -q 'frame cache: written' "$log" && break; kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
if grep -q 'frame cache: written' "$log"; then say "ok frame-cache-written"
else say "FAIL frame-cache-written: $(tail -5 "$log" | tr '\n' '|')"; fi
grep -h 'first-frame\|frame cache' "$log" | sed 's/^/info warm: /' >> "$KIOSK_VM_CTL/stdout"
"$1" ctl quit > /dev/null 2>&1 || kill -INT "$pid"
wait "$pid"
exit 0

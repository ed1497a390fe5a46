#!/bin/bash
# warm.sh KIOSK_HUD daemon ARGS… — kiosk-vm-warm.service (Tests/VM/shutdown/setup.sh): runs the
# shutdown screen's daemon with the unit's arguments twice before the app starts, each until its
# first frame, then quits it (the console back, nothing retained):
#   1. drawn: its first frame written to the frame cache (the log's "frame cache: written") —
#      a board's first shutdown does this, every later one starts from it, as the test's does;
#   2. from the frame cache (the log's source=frame-cache), as the test's shutdown starts.
# After each first frame every thread of the daemon is at nice 19 (--idle-after-first-frame:
# the priority drops once the frame is on screen — in run 2 before the Swift code draws at all).
set -u
say() { echo "$*" >> "$KIOSK_VM_CTL/stdout"; }

# run NAME PATTERN: the daemon until PATTERN is in its log (up to 180 s); its pid in $pid.
run() {
  log=/run/kiosk-vm-warm-$1.log
  "${CMD[@]}" 2> "$log" &
  pid=$!
  for _ in $(seq 1800); do grep -q "$2" "$log" && break; kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
}
# nices PID: each thread's nice value (field 19 of its stat; 17 after the parenthesised name).
nices() { for t in /proc/"$1"/task/*/stat; do sed 's/.*) //' "$t" | cut -d' ' -f17; done | sort -u | tr '\n' ' '; }
# quit: the daemon asked to end, and reaped.
quit() { "${CMD[0]}" ctl quit > /dev/null 2>&1 || kill -INT "$pid"; wait "$pid"; }
CMD=("$@")

run drawn 'frame cache: written'
if grep -q 'frame cache: written' "$log"; then say "ok frame-cache-written"
else say "FAIL frame-cache-written: $(tail -5 "$log" | tr '\n' '|')"; fi
grep -h 'first-frame\|frame cache\|nice' "$log" | sed 's/^/info warm (drawn): /' >> "$KIOSK_VM_CTL/stdout"
n=$(nices "$pid")
[ "$n" = "19 " ] && grep -q 'the first frame is on screen: the rest at nice 19' "$log" && say "ok idle-after-drawn-frame" ||
  say "FAIL idle-after-drawn-frame: the threads' nice values: $n; $(grep nice "$log" | tr '\n' '|')"
quit

run cached 'source=frame-cache'
grep -h 'first-frame\|frame cache\|nice' "$log" | sed 's/^/info warm (cached): /' >> "$KIOSK_VM_CTL/stdout"
n=$(nices "$pid")
grep -q 'source=frame-cache' "$log" && grep -q "the frame cache's picture is on screen: the rest at nice 19" "$log" && [ "$n" = "19 " ] &&
  say "ok idle-after-cached-frame" ||
  say "FAIL idle-after-cached-frame: the threads' nice values: $n; $(grep 'nice\|first-frame\|frame cache' "$log" | tr '\n' '|')"
quit
exit 0

#!/bin/bash
# end.sh — bootbench-end.service (made by setup.sh): once multi-user.target is reached, the
# boot's timings into $VM_OUT/times (NAME SECONDS, CLOCK_MONOTONIC: kernel start = 0, the clock
# of systemd's *TimestampMonotonic), the daemon's first-frame lines, the frame cache for a later
# boot, three clock marks for the host (sync.N: the guest's CLOCK_MONOTONIC in ns when written;
# run.sh's sampler notes when each appears, which maps its screendumps onto this clock), then rc
# and the power off.
set -u
T=$VM_OUT/times
: > "$T"
mono() {   # mono NAME UNIT PROPERTY
  local v; v=$(systemctl show -p "$3" --value ${2:+"$2"} 2>/dev/null)
  [ -n "$v" ] && [ "$v" != 0 ] && printf '%s %d.%06d\n' "$1" $((v / 1000000)) $((v % 1000000)) >> "$T"
}
mono systemd '' UserspaceTimestampMonotonic
mono sysinit sysinit.target ActiveEnterTimestampMonotonic
mono basic basic.target ActiveEnterTimestampMonotonic
mono multi-user multi-user.target ActiveEnterTimestampMonotonic
case $BOOTBENCH_KIND in
  plymouth)
    mono splash-exec plymouth-start.service ExecMainStartTimestampMonotonic
    mono splash-ready plymouth-start.service ActiveEnterTimestampMonotonic
    mono splash-quit plymouth-quit-wait.service ActiveEnterTimestampMonotonic ;;
  kiosk)
    mono splash-exec kiosk-hud.service ExecMainStartTimestampMonotonic
    mono splash-ready kiosk-hud.service ActiveEnterTimestampMonotonic
    journalctl -b -q -o cat -u kiosk-hud.service > "$VM_OUT/daemon.log" 2>&1
    ff=$(sed -n 's/.*first-frame exec_ms=.* at_s=\([0-9.]*\).*/\1/p' "$VM_OUT/daemon.log" | head -1)
    [ -n "$ff" ] && echo "splash-frame $ff" >> "$T"
    grep -m1 'first-frame phases' "$VM_OUT/daemon.log" | sed 's/^.*first-frame phases/phases/' > "$VM_OUT/phases" || true
    rm -rf "$VM_OUT/cache-out"; cp -a /var/cache/kiosk-hud "$VM_OUT/cache-out" 2>/dev/null || true ;;
esac
cp /var/log/plymouth-debug.log "$VM_OUT/" 2>/dev/null || true
systemd-analyze > "$VM_OUT/analyze.txt" 2>&1 || true
journalctl -b -q -o short-monotonic > "$VM_OUT/journal.txt" 2>&1 || true
systemctl --failed --no-legend > "$VM_OUT/failed.txt" 2>&1 || true
# Builtins only between reading the clock and creating the file (no exec: ~60 ms under TCG); the
# host takes the moment the file appears, so its offset is the smallest of the three.
for i in 1 2 3; do
  while read -r a b ns _; do [ "$a $b" = "now at" ] && break; done < /proc/timer_list
  echo "$ns" > "$VM_OUT/sync.$i"
  sleep 0.3
done
echo end >> "$T"
echo 0 > "$KIOSK_VM_CTL/rc.tmp" && mv "$KIOSK_VM_CTL/rc.tmp" "$KIOSK_VM_CTL/rc"
sync
systemctl poweroff --force --force

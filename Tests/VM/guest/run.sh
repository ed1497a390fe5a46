#!/bin/bash
# run.sh KIOSK_HUD UINPUT_TOUCH BX BY LABEL — the in-guest half of Tests/KioskDRMTests/VMRunTests.swift
# (run-in-vm.sh --gpu bochs, 800x480): `kiosk-hud run -- CMD` on its own display (real KMS, real
# libinput), one boot.
#   BX BY  the Cancel button's centre in uinput device coordinates (0..4095), rotation 0, while
#          the HUD is indeterminate with LABEL and the button: the host found it with
#          render --print-layout
# Scenarios:
#   a. run --label LABEL -- sleep 600: a uinput tap on Cancel → "Cancelling…", the sleep ends by
#      SIGTERM, "Cancelled" (screendumps back to back from the SIGTERM's log line until run
#      exits), exit 130 within --kill-after (5) + 1 s;
#   b. run --notice-duration 2 -- sh -c 'for i in 1 2 3 4; do echo $((i*25))%; sleep 1; done'
#      (started once the HUD is up, through a fifo): the bar at 25, 50, 75 and 100 %
#      (screendumps from 0.4 s after each line reached run's stdout, when the 0.2 s easing has
#      settled, until the next line), then "Done" (screendumps), exit 0 two seconds after;
#   c. a child that obeys SIGTERM (bash, its trap records when TERM came) with a setsid'd
#      grandchild: tap → SIGTERM in the child, tap → run exited (exit 130); a child of this
#      script that records TERM the same way, sent SIGTERM by `kill`, is the reference (3 times);
#   d. after each run, /proc: nothing of the run is left (the command's group, its marked
#      sleeps, the setsid'd one);
#   e. a command that does not stop on SIGTERM (its trap only records it: a second tap → SIGTERM
#      figure) and a setsid'd grandchild that ignores it, --kill-after 2: "Cancelling…" until the
#      SIGKILL, then "Cancelled" (screendumps from the SIGTERM until run exits), both ended by
#      SIGKILL, exit 130.
# Prints "ok NAME", "FAIL NAME: why", "info NAME: ..."; $VM_OUT/manifest lists the screendumps as
# "shot<TAB>FILE<TAB>NAME[<TAB>µs after the lift]" (the host knows each NAME's state) and
# "timing NAME US..." lines.
set -u
HUD=$1 UINPUT=$2 BX=$3 BY=$4 LABEL=$5
. "$KIOSK_VM_GUEST/lib.sh"
OUT=$VM_OUT
W=$(mktemp -d /tmp/run.XXXXXX)
# What this script prints goes to the host through 9p (the control share), as do files in $OUT;
# under host I/O load a write there can block for seconds (20 s seen). So the output goes through
# a pipe (cat forwards it), the manifest is written in $W and copied at the end, and the times
# measured come from run's own log lines, stamped by a reader that only writes to $W.
exec {REAL_OUT}>&1
exec > >(cat >&"$REAL_OUT")
CATPID=$!
M=$W/manifest
: > "$M"

ok() { echo "ok $1"; }
fail() { echo "FAIL $1: $2"; }
info() { echo "info $1: $2"; }
udev() { SYSTEMD_IGNORE_CHROOT=1 udevadm "$@"; }
# Microseconds now (bash's $EPOCHREALTIME: no fork; the children's traps use the same clock).
now_us() { local t=${EPOCHREALTIME/./}; echo $((10#$t)); }
us_of() { local t=${1/./}; echo $((10#$t)); }   # "1234.567890" → microseconds
ms() { local us=$1 s=; [ "$us" -lt 0 ] && { s=-; us=$((-us)); }; printf '%s%d.%02d' "$s" $((us / 1000)) $(((us % 1000) / 10)); }
median() { printf '%s\n' "$@" | sort -n | sed -n "$(( ($# + 1) / 2 ))p"; }
oneline() { tr '\n' ' ' < "$1" | cut -c1-400; }
sleep_until() {  # sleep_until US: until now_us reaches US (no fork)
  local t=${EPOCHREALTIME/./} d frac
  d=$(( $1 - 10#$t ))
  [ $d -gt 0 ] || return 0
  printf -v frac '%06d' $((d % 1000000))
  vm_sleep "$((d / 1000000)).$frac"
}
# wait_line FILE REGEX SECONDS: until FILE has a line matching REGEX (no forks); sets SEEN_US.
wait_line() {
  local f=$1 re=$2 n=$(( $3 * 50 )) l
  while :; do
    if [ -e "$f" ]; then while IFS= read -r l; do [[ $l =~ $re ]] && { SEEN_US=$(now_us); return 0; }; done < "$f"; fi
    [ "$n" -le 0 ] && return 1
    vm_sleep 0.02; n=$((n - 1))
  done
}
# lap NAME: this part's wall time, for the "info guest-time" line at the end.
LAPS= LAP_US=$(now_us) START_US=$LAP_US
lap() { local t; t=$(now_us); LAPS+="$1 $(ms $((t - LAP_US))) ms, "; LAP_US=$t; }
count_lines() { local c=0 l; [ -e "$1" ] || { echo 0; return; }; while IFS= read -r l; do [[ $l =~ $2 ]] && c=$((c + 1)); done < "$1"; echo $c; }

# --- the uinput touch screen (before any run, so each run's seat has it at start) -------------
mkfifo "$W/t.in"
"$UINPUT" --name kiosk-run-touch < "$W/t.in" > "$W/t.log" 2>&1 &
TPID=$!
exec {TFD}> "$W/t.in"
SENT=0
touch_dev() {  # touch_dev CMD...: one command per argument; waits until the device has sent them
  local c n=250
  for c in "$@"; do echo "$c" >&"$TFD"; SENT=$((SENT + 1)); done
  while [ "$(count_lines "$W/t.log" '^done')" -lt "$SENT" ] && [ $n -gt 0 ]; do vm_sleep 0.02; n=$((n - 1)); done
}
for _ in $(seq 250); do grep -q '^device ' "$W/t.log" && break; vm_sleep 0.02; done
grep -q '^device ' "$W/t.log" || fail uinput "no device: $(oneline "$W/t.log")"
udev settle --timeout=10
# tap_button: finger down on Cancel, then up (the press fires on the lift); TAP_US = just before the lift.
tap_button() { touch_dev "down $BX $BY"; vm_sleep 0.05; TAP_US=$(now_us); touch_dev "up"; }

for c in /sys/class/drm/card0-*; do
  [ "$(cat "$c/status" 2>/dev/null)" = connected ] && { info setup "connector=${c##*/card0-} mode=$(head -1 "$c/modes")"; break; }
done

# --- stalls: the whole guest not running (the host busy elsewhere), seen by a heartbeat ------------
# A background loop wakes every 50 ms and logs "START_US GAP_US" when it woke more than 300 ms
# late; stall_us FROM TO sums the excess of the gaps that overlap [FROM, TO]. The time limits
# below allow for them (and say so): a starved VM is no fault of run's.
vm_sleep 0.01
( last=${EPOCHREALTIME/./}
  while :; do
    vm_sleep 0.05; now=${EPOCHREALTIME/./}
    [ $((10#$now - 10#$last)) -gt 300000 ] && echo "$((10#$last)) $((10#$now - 10#$last))" >> "$W/stalls"
    last=$now
  done ) &
HBPID=$!
stall_us() {
  local from=$1 to=$2 sum=0 a g
  [ -e "$W/stalls" ] || { echo 0; return; }
  while read -r a g; do [ $((a + g)) -gt "$from" ] && [ "$a" -lt "$to" ] && sum=$((sum + g - 50000)); done < "$W/stalls"
  echo $sum
}
# time_check NAME ELAPSED_US FROM_US MIN_US MAX_US WHAT: ok when ELAPSED (from FROM on) is at
# least MIN and, less the stalls in it, at most MAX.
time_check() {
  local st; st=$(stall_us "$3" $(( $3 + $2 )))
  [ "$st" -gt 0 ] && info "$1" "the guest stood still for $(ms "$st") ms of the $(ms "$2") ms (host load): not counted"
  if [ "$2" -ge "$4" ] && [ $(( $2 - st )) -le "$5" ]; then ok "$1"; else fail "$1" "$(ms "$2") ms (stood still $(ms "$st") ms) $6"; fi
}

# --- run in the background; its stdout in $W/NAME.out, its stderr in $W/NAME.log, each line
# stamped with the ms since the exec (by a reader that is this script's child: run, the child
# subreaper, ends every descendant of its own process when the command ends, and a reader set up
# by a process substitution in run's redirection would be one) -----------------------------------
RPID= ROUT= RLOG= CPID= RDPID=
start_run() {  # start_run NAME RUN-ARGS...: returns once its input listens (0) or it failed (1)
  local name=$1; shift
  ROUT=$W/$name.out RLOG=$W/$name.log CPID=
  rm -f "$W/err.fifo"; mkfifo "$W/err.fifo"; : > "$RLOG"
  T0=$(now_us)
  ( while IFS= read -r l; do t=${EPOCHREALTIME/./}; echo "+$(( (10#$t - T0) / 1000 ))ms $l"; done < "$W/err.fifo" > "$RLOG"
    t=${EPOCHREALTIME/./}; echo "+$(( (10#$t - T0) / 1000 ))ms (stderr closed: run exited)" >> "$RLOG" ) &
  RDPID=$!
  "$HUD" run "$@" > "$ROUT" 2> "$W/err.fifo" &
  RPID=$!
  if wait_line "$RLOG" 'kiosk-hud: input: listening' 60; then
    info "$name-start" "input listening $(ms $((SEEN_US - T0))) ms after the exec"
    CPID=$(sed -n 's/.*run: started .* (pid \([0-9]*\)).*/\1/p' "$RLOG")
    return 0
  fi
  fail "$name-start" "input not listening: $(oneline "$RLOG")"
  kill -TERM $RPID 2>/dev/null; wait $RPID 2>/dev/null; wait $RDPID 2>/dev/null
  return 1
}
# stamp_us REGEX: when run's log line matching REGEX was read (µs, this script's clock); 1 if none.
stamp_us() {
  local l
  while IFS= read -r l; do [[ $l =~ ^\+([0-9]+)ms\ .*$1 ]] && { echo $(( T0 + BASH_REMATCH[1] * 1000 )); return 0; }; done < "$RLOG"
  echo 1; return 1
}
# alive: run has not begun to exit (the reader ends when run's stderr closes, in its exit).
alive() { kill -0 $RDPID 2>/dev/null; }
# finish_run NAME WANT_RC SECONDS: waits for run's exit (kills it after SECONDS); sets RC and
# EXIT_US (when run's stderr closed, i.e. it exited, by the reader's stamp). Under a loaded host
# the process has been seen to stay over 15 s after its stderr closed (after "done": exit(2) in
# the kernel); when it stays over 2 s, its state and kernel stack meanwhile are logged.
finish_run() {
  local name=$1 want=$2 n=$(( $3 * 50 )) st stk seen= path= gone
  while kill -0 $RPID 2>/dev/null && [ $n -gt 0 ]; do
    if ! alive; then
      st=; IFS= read -r st 2>/dev/null < /proc/$RPID/stat; st=${st##*) }; st=${st%% *}
      mapfile -t stk 2>/dev/null < /proc/$RPID/stack
      st="$st ${stk[*]:0:4}"
      [ "$st" != "$seen" ] && { path+="+$(( ($(now_us) - T0) / 1000 ))ms $st; "; seen=$st; }
    fi
    vm_sleep 0.02; n=$((n - 1))
  done
  gone=$(now_us)
  kill -0 $RPID 2>/dev/null && { kill -KILL $RPID; fail "$name-exit" "still running after $3 s; killed"; }
  wait $RPID; RC=$?
  wait $RDPID 2>/dev/null
  EXIT_US=$(stamp_us 'stderr closed: run exited')
  [ $((gone - EXIT_US)) -gt 2000000 ] &&
    info "$name-exit-teardown" "stderr closed at +$(( (EXIT_US - T0) / 1000 ))ms, the process gone at +$(( (gone - T0) / 1000 ))ms: ${path:0:1200}"
  cp "$ROUT" "$RLOG" "$OUT/" 2>/dev/null
  grep -h 'run: \|kiosk-hud: done' "$RLOG" | sed "s/^/info $name-log: /"
  if [ "$RC" = "$want" ]; then ok "$name-exit"; else fail "$name-exit" "exit $RC, want $want: $(tail -4 "$RLOG" | tr '\n' ' ')"; fi
}
# shot NAME: a screendump now, listed under NAME (the host knows the state); run must still be
# running when it returns (after run exits fbcon takes the screen back).
shot() {
  local f
  if f=$(vm_screendump "run-$1"); then
    printf 'shot\t%s\t%s\n' "${f##*/}" "$1" >> "$M"
    alive || fail "$1-in-time" "run had exited when the screendump returned"
  else
    fail "$1-screendump" "$f"
  fi
}
# dump_until_exit NAME [PAUSE]: screendumps from now until run begins to exit (at most 10 s),
# PAUSE seconds apart (default: back to back),
# listed as "shot<TAB>FILE<TAB>NAME<TAB>T" (T: µs after the lift, the middle of the request); one
# that returns after run began to exit is dropped (the console may be back). Sets DUMPS.
dump_until_exit() {
  local name=$1 pause=${2:-0} t f end=$(( $(now_us) + 10000000 ))
  DUMPS=0
  while alive && [ "$(now_us)" -lt $end ]; do
    DUMPS=$((DUMPS + 1)) t=$(now_us)
    if f=$(vm_screendump "run-$name-$DUMPS"); then
      alive && printf 'shot\t%s\t%s\t%d\n' "${f##*/}" "$name" $(( (t + $(now_us)) / 2 - TAP_US )) >> "$M"
    else
      fail "$name-screendump" "$f"; break
    fi
    [ "$pause" = 0 ] || vm_sleep "$pause"
  done
}
# has_proc REGEX: a process whose command line (arguments joined by spaces) matches REGEX.
has_proc() {
  local p a
  for p in /proc/[0-9]*; do
    mapfile -d '' -t a 2>/dev/null < "$p/cmdline" && [ ${#a[@]} -gt 0 ] && [[ "${a[*]}" =~ $1 ]] && return 0
  done
  return 1
}
wait_proc() { local n=$(( $2 * 20 )); until has_proc "$1"; do n=$((n - 1)); [ $n -le 0 ] && return 1; vm_sleep 0.05; done; }
# leftovers NAME PGID REGEX: no process in the command's group PGID, none whose command line
# matches REGEX (arguments joined by spaces), none a zombie child of init (d).
leftovers() {
  local name=$1 pgid=$2 re=$3 p s rest st pp pg args found=
  for p in /proc/[0-9]*; do
    IFS= read -r s 2>/dev/null < "$p/stat" || continue
    rest=${s##*) }; read -r st pp pg _ <<< "$rest"
    args=
    if mapfile -d '' -t a 2>/dev/null < "$p/cmdline" && [ ${#a[@]} -gt 0 ]; then args="${a[*]}"; fi
    if { [ -n "$pgid" ] && [ "$pg" = "$pgid" ]; } || [[ -n $args && $args =~ $re ]] || { [ "$st" = Z ] && [ "$pp" = 1 ]; }; then
      found+="${p#/proc/}[$st ppid=$pp pgrp=$pg: $args] "
    fi
  done
  if [ -z "$found" ]; then ok "$name-nothing-left"; else fail "$name-nothing-left" "$found"; fi
}

lap setup
# --- a. Cancel on a command that sleeps: Cancelling…, Cancelled, exit 130 ---------------------
if start_run cancel --scale 1 --label "$LABEL" -- sleep 600; then
  [ -n "$CPID" ] && ok cancel-started || fail cancel-started "no 'started … (pid N)' line: $(oneline "$RLOG")"
  vm_sleep 0.2
  shot cancel-running
  tap_button
  # Once the SIGTERM is logged, screendumps back to back until run exits: the host checks that
  # they go (the HUD as before the tap, its new frame not drawn yet,) "Cancelling…" (at least
  # 1 s from the SIGTERM), "Cancelled" (1.5 s), each exactly one of those states.
  if wait_line "$RLOG" 'run: cancel: SIGTERM sent' 5; then
    TERM_US=$(stamp_us 'run: cancel: SIGTERM sent')
    dump_until_exit cancel-seq
    ok cancel-sigterm
    info cancel-sigterm "run logged the SIGTERM $(ms $((TERM_US - TAP_US))) ms after the lift; $DUMPS screendumps from then on"
    grep -q 'run: sleep ended: killed by SIGTERM' "$RLOG" && ok cancel-sleep-ended || fail cancel-sleep-ended "$(oneline "$RLOG")"
  else
    fail cancel-sigterm "no SIGTERM 5 s after the tap: $(oneline "$RLOG")"
  fi
  finish_run cancel 130 60
  el=$((EXIT_US - TAP_US))
  info cancel-exit "exit $RC $(ms $el) ms after the tap (1 s \"Cancelling…\" at least + 1.5 s \"Cancelled\")"
  echo "timing cancel-exit-us $el" >> "$M"
  time_check cancel-exit-time $el $TAP_US 0 6000000 "after the tap, want <= kill-after (5 s) + 1 s"
  [ -n "$CPID" ] && leftovers cancel "$CPID" '^sleep 600$'
fi

lap a
# --- b. progress from the output: the bar at 25/50/75/100 %, then Done, exit 0 -----------------
# The command waits on a fifo until the HUD is up: run starts it before its first frame, which
# takes ~0.8 s under TCG (layout and the first present), so "25%" would reach run just before
# "50%" and the bar would never settle at 25 % on screen.
# Each value: screendumps from 0.4 s after its line reached run's stdout (the 0.2 s easing has
# settled) until the next line comes (or the command's end is logged), one after another; the
# host wants at least one equal to the bar at that value. "Done": from 0.3 s after the end to
# 1.7 s (of --notice-duration 2), at least one equal.
mkfifo "$W/progress.gate"
if start_run progress --scale 1 --notice-duration 2 -- sh -c 'read _ < "$0"; for i in 1 2 3 4; do echo $((i*25))%; sleep 1; done' "$W/progress.gate"; then
  echo go > "$W/progress.gate"
  i=0 seq=0
  for p in 25 50 75 100; do
    i=$((i + 1))
    if ! wait_line "$ROUT" "^$p%\$" 20; then fail "progress-$p" "no '$p%' line: $(oneline "$ROUT")"; break; fi
    sleep_until $((SEEN_US + 400000))
    case $p in 25) name=progress-0.25 ;; 50) name=progress-0.5 ;; 75) name=progress-0.75 ;; 100) name=progress-1.0 ;; esac
    n=0
    while alive; do
      if [ $p = 100 ]; then grep -q 'run: sh ended' "$RLOG" && break; else [ "$(count_lines "$ROUT" '%$')" -gt $i ] && break; fi
      seq=$((seq + 1)) n=$((n + 1))
      if f=$(vm_screendump "run-progress-$seq"); then printf 'shot\t%s\t%s\n' "${f##*/}" "$name" >> "$M"; else fail "$name-screendump" "$f"; break; fi
      vm_sleep 0.05
    done
    [ $n -gt 0 ] && ok "$name-window" || fail "$name-window" "no screendump between this line and the next"
  done
  if wait_line "$RLOG" 'run: sh ended: exit status 0' 10; then
    ENDED_US=$(stamp_us 'run: sh ended')
    ok progress-command-ended
    sleep_until $((ENDED_US + 300000))
    while alive && [ "$(now_us)" -lt $((ENDED_US + 1700000)) ]; do
      seq=$((seq + 1))
      if f=$(vm_screendump "run-progress-$seq"); then
        alive && printf 'shot\t%s\tdone\n' "${f##*/}" >> "$M"
      else
        fail done-screendump "$f"; break
      fi
      vm_sleep 0.1
    done
  else
    fail progress-command-ended "$(oneline "$RLOG")"
  fi
  finish_run progress 0 60
  el=$((EXIT_US - ENDED_US))
  info progress-exit "exit $RC $(ms $el) ms after the command ended (--notice-duration 2)"
  time_check progress-notice-time $el $ENDED_US 1500000 4500000 "from the end to the exit, want ~2 s of \"Done\" (1.5 … 4.5 s)"
  [ -n "$CPID" ] && leftovers progress "$CPID" '^sh -c read _'
fi

lap b
# --- c. SIGTERM latency: a child whose trap records when TERM came ------------------------------
# $1: where the trap writes $EPOCHREALTIME; $2: "ready" once the trap is set; $3, $4: how long
# its two sleeps last (they name them in /proc). The setsid'd grandchild (sleep $3) leaves the
# group: run, the child subreaper, must end it too.
CHILD='trap "echo \$EPOCHREALTIME > $1; exit 0" TERM; (setsid sleep $3 &); sleep $4 & echo ready > $2; wait'
# The reference: a child of this script that waits and records TERM the same way (a trap run when
# `wait` returns), sent SIGTERM by `kill` 3 times; USR1 ends it.
REF='trap "echo \$EPOCHREALTIME >> $1; kill \$!" TERM; trap "kill \$!; exit 0" USR1; echo ready > $2; while :; do sleep 611 & wait $!; done'
refs=()
rm -f "$W/ref.term" "$W/ref.ready"
bash -c "$REF" ref "$W/ref.term" "$W/ref.ready" &
cp=$!
if wait_line "$W/ref.ready" ready 10; then
  for k in 1 2 3; do
    vm_sleep 0.1
    t=$(now_us); kill -TERM $cp
    n=50; while [ "$(count_lines "$W/ref.term" .)" -lt $k ] && [ $n -gt 0 ]; do vm_sleep 0.02; n=$((n - 1)); done
    mapfile -t lines < "$W/ref.term"
    [ ${#lines[@]} -ge $k ] || { fail term-reference "no TERM recorded"; break; }
    refs+=($(( $(us_of "${lines[k - 1]}") - t )))
  done
else
  fail term-reference "the reference child did not start"
fi
kill -USR1 $cp; wait $cp
[ ${#refs[@]} = 3 ] && { ok term-reference; echo "timing shell-term-us ${refs[*]}" >> "$M"; }
info term-reference "kill -TERM → the trap ran: $(for r in "${refs[@]}"; do printf '%s ms ' "$(ms $r)"; done)"

rm -f "$W/run.term" "$W/run.ready"
if start_run term --scale 1 --label "$LABEL" -- bash -c "$CHILD" child "$W/run.term" "$W/run.ready" 602 601; then
  wait_line "$W/run.ready" ready 10 || fail term-child-ready "the child did not start"
  tap_button
  if wait_line "$W/run.term" . 5; then
    lat=$(( $(us_of "$(< "$W/run.term")") - TAP_US ))
    ok term-child
    info term-child "the lift → SIGTERM in the child: $(ms $lat) ms (kill -TERM from a shell: median $(ms "$(median "${refs[@]}")") ms)"
    echo "timing tap-term-us $lat" >> "$M"
  else
    fail term-child "no TERM recorded 5 s after the tap: $(oneline "$RLOG")"
  fi
  finish_run term 130 60
  el=$((EXIT_US - TAP_US))
  info term-exit "the lift → run exited: $(ms $el) ms"
  echo "timing tap-exit-us $el" >> "$M"
  time_check term-exit-time $el $TAP_US 0 6000000 "after the tap, want <= kill-after (5 s) + 1 s"
  grep -q 'SIGKILL' "$RLOG" && fail term-no-sigkill "a child that obeys SIGTERM got SIGKILL: $(oneline "$RLOG")" || ok term-no-sigkill
  [ -n "$CPID" ] && leftovers term "$CPID" '^sleep 60[12]$|^bash -c trap'
fi

lap c
# --- e. a command and a setsid'd grandchild that do not stop on SIGTERM: SIGKILL after --kill-after 2 ---
# The command (bash) only records the TERM ($1) and goes on waiting for its sleep 604, which
# ignores TERM, as does the setsid'd sleep 603. "Cancelling…" stays until the SIGKILL, 2 s:
# screendumps from the SIGTERM until run exits must show it, then "Cancelled" (1.5 s).
STUCK='trap "echo \$EPOCHREALTIME > $1" TERM; (setsid sh -c "trap \"\" TERM; exec sleep 603" &); (trap "" TERM; exec sleep 604) & echo ready > $2; while kill -0 $! 2>/dev/null; do wait $!; done'
rm -f "$W/kill.term" "$W/kill.ready"
if start_run kill --scale 1 --kill-after 2 --label "$LABEL" -- bash -c "$STUCK" stuck "$W/kill.term" "$W/kill.ready"; then
  wait_line "$W/kill.ready" ready 10 && wait_proc '^sleep 603$' 10 && wait_proc '^sleep 604$' 10 && ok kill-started ||
    fail kill-started "no sleep 603 and 604"
  tap_button
  if wait_line "$RLOG" 'run: cancel: SIGTERM sent' 5; then
    dump_until_exit kill-seq 0.2
    info kill-sigterm "$DUMPS screendumps from the SIGTERM on"
  else
    fail kill-sigterm "no SIGTERM 5 s after the tap: $(oneline "$RLOG")"
  fi
  if [ -s "$W/kill.term" ]; then
    lat=$(( $(us_of "$(< "$W/kill.term")") - TAP_US ))
    info kill-term "the lift → SIGTERM in the command: $(ms $lat) ms"
    echo "timing tap-term-stuck-us $lat" >> "$M"
  fi
  finish_run kill 130 60
  el=$((EXIT_US - TAP_US))
  info kill-exit "the lift → run exited: $(ms $el) ms (SIGKILL 2 s after the SIGTERM, then 1.5 s \"Cancelled\")"
  echo "timing kill-exit-us $el" >> "$M"
  time_check kill-exit-time $el $TAP_US 3400000 7000000 "after the tap, want 3.5 s (--kill-after 2 + 1.5 s) … 7 s"
  [ -s "$W/kill.term" ] && grep -q 'still running 2.0 s after SIGTERM: SIGKILL' "$RLOG" && grep -q 'run: bash ended: killed by SIGKILL' "$RLOG" &&
    ok kill-sigkill || fail kill-sigkill "TERM recorded: $(cat "$W/kill.term" 2>/dev/null); $(oneline "$RLOG")"
  [ -n "$CPID" ] && leftovers kill "$CPID" '^sleep 60[34]$|^bash -c trap'
fi

lap e
kill $HBPID 2>/dev/null; wait $HBPID 2>/dev/null
[ -e "$W/stalls" ] && info stalls "the guest stood still (heartbeat gaps, ms after the start: length): $(while read -r a g; do printf '%s: %s ms, ' "$(ms $((a - START_US)))" "$(ms $g)"; done < "$W/stalls")"
info guest-time "${LAPS}all $(ms $(( $(now_us) - START_US ))) ms"
echo "quit" >&"$TFD"; exec {TFD}>&-; wait $TPID 2>/dev/null
echo end >> "$M"
cp "$M" "$OUT/manifest"
exec >&"$REAL_OUT"   # cat ends once every writer has closed the pipe (2 s at most)
for _ in $(seq 100); do kill -0 $CATPID 2>/dev/null || break; vm_sleep 0.02; done
kill $CATPID 2>/dev/null
exit 0

# shellcheck shell=bash
# lib.sh — bash functions for tests running inside run-in-vm.sh's guest.
#   . "$KIOSK_VM_GUEST/lib.sh"
#   vm_request KIND ARGS...     raw request to the host helper (vmhost.py); the
#                               answer's detail goes to stdout; 0 ok, 1 error, 2 timeout
#   vm_screendump NAME [HEAD]   QMP screendump -> prints $VM_OUT/NAME.ppm (.png if NAME ends so)
#   vm_pointer [tap|move|down|up] X Y   virtio-tablet event, X/Y absolute 0..32767
#   vm_qmp JSON                 one raw QMP command, prints QEMU's JSON reply
#   vm_wait_log FILE REGEX SECS until FILE has a line matching REGEX (ERE); 1 after SECS
#   vm_sleep SECONDS            sleep without a fork
#   vm_touch_start UINPUT NAME  a touch screen (Tests/VM/ref/uinput-touch built for the guest)
#                               fed from a fifo; returns once its node is there (1 after 10 s)
#   vm_touch CMD...             send it commands ("down X Y", "up", "tap X Y", …; one per
#                               argument), return once it has written them; vm_touch_stop ends it
# No external commands on the request path (a fork+exec costs ~60 ms under TCG).
# Protocol: write "$KIOSK_VM_CTL/req/ID.req" = one line ending in "\n" (the
# host ignores it until the newline is there), wait for ID.done = "ok [DETAIL]"
# or "error MESSAGE". Timeout: KIOSK_VM_REQ_TIMEOUT seconds (default 60).

vm_sleep() {  # fork-free sleep (bash read -t on a pipe nobody writes)
  [ -n "${_vm_sleep_fd:-}" ] || exec {_vm_sleep_fd}<> <(:)
  read -r -t "$1" -u "$_vm_sleep_fd" _ || true
}

vm_wait_log() {  # vm_wait_log FILE REGEX SECONDS: until FILE has a line matching the extended REGEX (no forks)
  local f=$1 re=$2 n=$(( ${3%.*} * 40 )) l
  while [ "$n" -gt 0 ]; do
    if [ -r "$f" ]; then while IFS= read -r l; do [[ $l =~ $re ]] && return 0; done < "$f"; fi
    vm_sleep 0.025; n=$((n - 1))
  done
  return 1
}

vm_wait_gone() {  # vm_wait_gone PID SECONDS [STEP]: until PID has ended, bounded by the wall clock (no forks); 1 if it still runs
  local end=$(( 10#${EPOCHREALTIME/./} + $2 * 1000000 ))
  while kill -0 "$1" 2>/dev/null; do
    (( 10#${EPOCHREALTIME/./} < end )) || return 1
    vm_sleep "${3:-0.05}"
  done
}

vm_request() {
  local ctl=${KIOSK_VM_CTL:-} id req answer n=0 limit
  if [ -z "$ctl" ] || [ ! -d "$ctl/req" ]; then
    echo "vm_request: not inside run-in-vm.sh (KIOSK_VM_CTL unset)" >&2; return 2
  fi
  id="$$-$BASHPID-$RANDOM$RANDOM"
  req="$ctl/req/$id"
  printf '%s\n' "$*" > "$req.req" || return 2
  limit=$(( ${KIOSK_VM_REQ_TIMEOUT:-60} * 100 ))
  while [ ! -e "$req.done" ]; do
    n=$((n + 1))
    if [ "$n" -gt "$limit" ]; then
      echo "vm_request: no answer from the host for '$1' (is vmhost.py running?)" >&2; return 2
    fi
    vm_sleep 0.01
  done
  IFS= read -r answer < "$req.done"
  case $answer in
    ok*) answer=${answer#ok}; answer=${answer# }; [ -z "$answer" ] || printf '%s\n' "$answer"; return 0 ;;
    *) echo "vm_request: $answer" >&2; return 1 ;;
  esac
}

vm_screendump() {
  local name f
  name=$(vm_request screendump "$@") || return $?
  f="${VM_OUT:?VM_OUT unset}/$name"
  [ -s "$f" ] || { echo "vm_screendump: $f is missing" >&2; return 1; }
  printf '%s\n' "$f"
}

vm_pointer() {
  local op=tap
  case ${1:-} in tap|move|down|up) op=$1; shift ;; esac
  [ $# -eq 2 ] || { echo "usage: vm_pointer [tap|move|down|up] X Y" >&2; return 2; }
  vm_request pointer "$op" "$1" "$2" >/dev/null
}

vm_qmp() { vm_request qmp "$1"; }

vm_touch_start() {  # vm_touch_start UINPUT NAME (a dir for its fifo and log: VM_TOUCH_DIR, made here)
  VM_TOUCH_DIR=$(mktemp -d /tmp/vm-touch.XXXXXX) VM_TOUCH_SENT=0
  mkfifo "$VM_TOUCH_DIR/in"
  "$1" --name "$2" < "$VM_TOUCH_DIR/in" > "$VM_TOUCH_DIR/log" 2>&1 &
  VM_TOUCH_PID=$!
  exec {VM_TOUCH_FD}> "$VM_TOUCH_DIR/in"
  vm_wait_log "$VM_TOUCH_DIR/log" '^device ' 10
}

vm_touch() {
  local c l d n=250
  for c in "$@"; do echo "$c" >&"$VM_TOUCH_FD"; VM_TOUCH_SENT=$((VM_TOUCH_SENT + 1)); done
  while [ $n -gt 0 ]; do
    d=0; while IFS= read -r l; do [[ $l == done* ]] && d=$((d + 1)); done < "$VM_TOUCH_DIR/log"
    [ $d -ge "$VM_TOUCH_SENT" ] && return 0
    vm_sleep 0.02; n=$((n - 1))
  done
  return 1
}

vm_touch_stop() { echo quit >&"$VM_TOUCH_FD"; exec {VM_TOUCH_FD}>&-; wait "$VM_TOUCH_PID" 2>/dev/null; }

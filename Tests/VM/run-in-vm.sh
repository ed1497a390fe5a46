#!/usr/bin/env bash
# run-in-vm.sh — run one command inside a QEMU VM that boots Debian's own
# kernel (real DRM/KMS, uinput, IIO, udev), with the host's root filesystem as
# the guest's (read-only 9p + tmpfs overlay), so host-built binaries run as-is.
#
#   Tests/VM/run-in-vm.sh [options] [--] CMD [ARGS...]
#
# Options
#   --gpu bochs|virtio|none  display device (default bochs): bochs = -device VGA
#                            (bochs-drm), virtio = virtio-vga (virtio_gpu)
#   --outputs N              virtio-gpu heads (max_outputs), default 1; heads 2..N
#                            are forced on in the guest (video=Virtual-K:1024x768e)
#   --out DIR                host DIR, mounted read-write at the same path in the
#                            guest; $VM_OUT=DIR there. Without it $VM_OUT is a
#                            scratch dir that is thrown away.
#   --qmp SOCKET             also expose a QMP unix socket for host-side scripts
#   --tablet                 add a virtio-tablet (pointer via QMP input-send-event)
#   --mem MiB                guest RAM, default 2048
#   --smp N                  guest CPUs, default 1
#   --timeout SECONDS        kill QEMU and fail (exit 124) after this long; default 600
#   --env NAME=VALUE | NAME  pass a variable (NAME alone: the host's value); repeatable
#   --accel kvm|tcg          default: kvm if /dev/kvm works (not kvm_pvm), else tcg
#   --no-udev                don't start systemd-udevd in the guest
#   --udev-autoload          let udev modprobe drivers for devices (off by default)
#   --udev-full              replay add events for all devices, not just the
#                            drm graphics input misc iio i2c-dev subsystems
#   --systemd                boot systemd: CMD is the set-up, run in the guest's root
#                            before systemd starts there as PID 1 (exit 0 boots; other
#                            codes are ours at once); the boot's own units must write
#                            $KIOSK_VM_CTL/rc and power off (guest udev: systemd's own)
#   --efi                    boot through UEFI firmware (Debian's ovmf) and the kernel's EFI
#                            stub: the firmware's framebuffer is efifb (/dev/fb0) until a
#                            DRM driver takes the display over
#   --hold MOD[,MOD]         leave these drivers out of the initramfs's insmods (modprobe later)
#   --arch amd64|arm64       arm64: qemu-system-aarch64 -M virt (TCG), Debian's arm64 kernel and a
#                            root of Debian's arm64 packages (prepare.sh --arch arm64), not the
#                            host's; the host's repo, cache dir and cwd (and each --share DIR) are
#                            bind-mounted read-only at their own paths; --gpu virtio is virtio-gpu-pci;
#                            --efi boots AAVMF (qemu-efi-aarch64) with a ramfb for its framebuffer
#   --share DIR              arm64: one more host directory (read-only) at its own path
#   --console                print the guest console (kernel log) to stderr afterwards
#   --keep                   keep the per-run control dir (path printed to stderr)
#   -v, --verbose            print boot timing and the QEMU command line
#
# Exit status: CMD's own exit status; 124 timeout; 125 the VM/harness failed
# (message and console tail on stderr).
#
# Guest environment: env -i, then PATH HOME USER LOGNAME LANG LC_ALL TERM TZ and
# every KIOSK_* variable of the host, then --env ones, then:
#   VM_OUT=dir for outputs   KIOSK_VM=1   KIOSK_VM_GPU=bochs|virtio|none
#   KIOSK_VM_CTL=/run/kiosk-vm (control share)   KIOSK_VM_GUEST=<this dir>/guest
# The cwd is the host's cwd. stdin is /dev/null. stdout/stderr of CMD are
# streamed to ours (files on the control share, followed with tail).
#
# Host <-> guest requests (screendump, pointer input, raw QMP): the guest
# writes "$KIOSK_VM_CTL/req/ID.req", one line ending in a newline:
# "screendump NAME [HEAD]", "pointer tap|move|down|up X Y" or "qmp JSON"; the
# host helper vmhost.py (always started; polls every 20 ms, has its own QMP
# socket) carries it out and writes ID.done ("ok [DETAIL]" or "error MSG").
# Screendumps land in $VM_OUT/NAME(.ppm), complete before the "ok". Use
# guest/screendump.sh, guest/pointer.sh, guest/qmp.sh or the bash functions in
# guest/lib.sh rather than the raw protocol.
#
# Kernel/initramfs/modeset come from prepare.sh's cache ($KIOSK_VM_CACHE,
# default <repo>/.build-vm); prepare.sh is run first and is a no-op when fresh.
# Modules in the guest: the initramfs loads virtio/9p/overlay/drm (bochs,
# virtio-gpu)/evdev/virtio_input/uinput/i2c-dev; anything else via `modprobe`
# (e.g. modprobe i2c-stub chip_addr=0x15; modprobe mxc4005).
# Other knobs (env): KIOSK_VM_ACCEL=kvm|tcg, KIOSK_VM_APPEND="kernel args",
# KIOSK_VM_QEMU_ARGS="extra qemu args", KIOSK_VM_BIOS=seabios (default qboot).
set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
CACHE=${KIOSK_VM_CACHE:-$REPO/.build-vm}

GPU=bochs OUTPUTS=1 OUT='' QMP_USER='' TABLET=0 MEM=2048 SMP=1 TIMEOUT=600 ACCEL=${KIOSK_VM_ACCEL:-}
UDEV=1 AUTOLOAD=0 UDEV_TRIGGER='' BOOT='' CONSOLE=0 KEEP=0 VERBOSE=0 EFI=0 HOLD= ARCH=amd64
ENV_ARGS=() SHARES=() INITRD=''
usage() { sed -n "2,60p" "$0" >&2; exit "${1:-125}"; }
need() { [ $# -ge 2 ] || { echo "run-in-vm: $1 needs a value" >&2; exit 125; }; }
while [ $# -gt 0 ]; do
  case $1 in
    --gpu) need "$@"; GPU=$2; shift 2 ;;
    --outputs) need "$@"; OUTPUTS=$2; shift 2 ;;
    --out) need "$@"; OUT=$2; shift 2 ;;
    --qmp) need "$@"; QMP_USER=$2; shift 2 ;;
    --tablet) TABLET=1; shift ;;
    --mem) need "$@"; MEM=$2; shift 2 ;;
    --smp) need "$@"; SMP=$2; shift 2 ;;
    --timeout) need "$@"; TIMEOUT=$2; shift 2 ;;
    --env) need "$@"; ENV_ARGS+=("$2"); shift 2 ;;
    --accel) need "$@"; ACCEL=$2; shift 2 ;;
    --no-udev) UDEV=0; shift ;;
    --udev-autoload) AUTOLOAD=1; shift ;;
    --udev-full) UDEV_TRIGGER=all; shift ;;
    --systemd) BOOT=systemd; shift ;;
    --initrd) need "$@"; INITRD=$(realpath "$2"); BOOT=systemd; shift 2 ;;
    --efi) EFI=1; shift ;;
    --hold) need "$@"; HOLD=$2; shift 2 ;;
    --arch) need "$@"; ARCH=$2; shift 2 ;;
    --share) need "$@"; SHARES+=("$2"); shift 2 ;;
    --console) CONSOLE=1; shift ;;
    --keep) KEEP=1; shift ;;
    -v|--verbose) VERBOSE=1; shift ;;
    -h|--help) usage 0 ;;
    --) shift; break ;;
    -*) echo "run-in-vm: unknown option $1" >&2; exit 125 ;;
    *) break ;;
  esac
done
[ $# -ge 1 ] || { echo "run-in-vm: no command given" >&2; usage; }
CMD_SUMMARY="${*:1:3}"
case $GPU in bochs|virtio|none) ;; *) echo "run-in-vm: --gpu must be bochs, virtio or none" >&2; exit 125 ;; esac
[[ $OUTPUTS =~ ^[1-9][0-9]*$ ]] || { echo "run-in-vm: --outputs needs a number" >&2; exit 125; }
[ "$OUTPUTS" = 1 ] || [ "$GPU" = virtio ] || { echo "run-in-vm: --outputs needs --gpu virtio" >&2; exit 125; }

case $ARCH in amd64|arm64) ;; *) echo "run-in-vm: --arch must be amd64 or arm64" >&2; exit 125 ;; esac
[ "$ARCH/$GPU" != arm64/bochs ] || { echo "run-in-vm: --arch arm64 needs --gpu virtio or none" >&2; exit 125; }
[ "$ARCH/$BOOT" != arm64/systemd ] || { echo "run-in-vm: --systemd is x86 only" >&2; exit 125; }
"$HERE/prepare.sh" --quiet --arch "$ARCH" || { echo "run-in-vm: prepare.sh failed" >&2; exit 125; }
# The arch's own cache (kernel, initramfs, root); the slot locks stay shared.
ACACHE=$CACHE
[ "$ARCH" = arm64 ] && ACACHE=$CACHE/arm64

# At most KIOSK_VM_JOBS VMs at once (default 2, one per core of the build machine): test suites
# run in parallel, and several TCG guests on two cores starve each other into timeouts. The slot
# is held until this script and everything it started exit; --timeout counts from QEMU's start.
JOBS=${KIOSK_VM_JOBS:-2}
[[ $JOBS =~ ^[1-9][0-9]*$ ]] || { echo "run-in-vm: KIOSK_VM_JOBS needs a number" >&2; exit 125; }
while :; do
  for ((slot = 0; slot < JOBS; slot++)); do
    exec {SLOTFD}>"$CACHE/vm-slot-$slot.lock"
    if flock -n "$SLOTFD"; then break 2; fi
    exec {SLOTFD}>&-
  done
  sleep 0.2
done
KVER=$(cat "$ACACHE/kernel.version")
KMOD_DIR=$(realpath "$ACACHE/kernel-$KVER/lib/modules/$KVER")

if [ -z "$ACCEL" ]; then
  if [ -c /dev/kvm ] && [ -r /dev/kvm ] && [ -w /dev/kvm ] && [ ! -e /sys/module/kvm_pvm ]; then
    ACCEL=kvm
  else
    ACCEL=tcg
  fi
fi
[ "$ARCH" = arm64 ] && ACCEL=tcg   # an x86 host
# pauth-impdef: QEMU's own pointer-authentication hash instead of QARMA, much cheaper under TCG.
case $ACCEL/$ARCH in kvm/*) CPU=host ;; tcg/amd64) CPU=max ;; tcg/arm64) CPU=max,pauth-impdef=on ;; *) echo "run-in-vm: --accel kvm|tcg" >&2; exit 125 ;; esac

CTL=$(mktemp -d /tmp/kiosk-vm.XXXXXX)
mkdir -p "$CTL/req" "$CTL/out"
QPID='' HPID='' TPID1='' TPID2=''
cleanup() {
  for p in $QPID $HPID $TPID1 $TPID2; do kill "$p" 2>/dev/null; done
  if [ "$KEEP" = 1 ]; then echo "run-in-vm: control dir kept: $CTL" >&2; else rm -rf "$CTL"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

if [ -n "$OUT" ]; then
  mkdir -p "$OUT" || exit 125
  OUT=$(realpath "$OUT")
  case $OUT in *,*) echo "run-in-vm: --out path must not contain a comma (QEMU option syntax)" >&2; exit 125 ;; esac
  # A booted systemd empties /tmp (systemd-tmpfiles' D /tmp): the out share must live elsewhere.
  case $BOOT/$OUT/ in systemd//tmp/*) echo "run-in-vm: with --systemd, --out must not be under /tmp (use /var/tmp)" >&2; exit 125 ;; esac
  HOST_OUT=$OUT GUEST_OUT=$OUT
else
  HOST_OUT=$CTL/out GUEST_OUT=/run/kiosk-vm/out
fi

# --- the command script the guest runs (bash, via env -i) ---------------------
{
  printf 'export %q\n' "PATH=$PATH" "HOME=${HOME:-/root}"
  for v in USER LOGNAME LANG LC_ALL TERM TZ $(compgen -e | grep '^KIOSK_' || true); do
    [ -n "${!v+x}" ] && printf 'export %q\n' "$v=${!v}"
  done
  for e in "${ENV_ARGS[@]}"; do
    case $e in
      *=*) printf 'export %q\n' "$e" ;;
      *) [ -n "${!e+x}" ] && printf 'export %q\n' "$e=${!e}" ;;
    esac
  done
  printf 'export %q\n' "VM_OUT=$GUEST_OUT" KIOSK_VM=1 "KIOSK_VM_GPU=$GPU" \
    KIOSK_VM_CTL=/run/kiosk-vm "KIOSK_VM_GUEST=$HERE/guest"
  printf 'cd -- %q || { echo "run-in-vm: cannot cd to %s in the guest" >&2; exit 125; }\n' "$PWD" "$PWD"
  printf 'exec'; printf ' %q' "$@"; printf '\n'
} > "$CTL/cmd.sh"
{
  printf 'KMOD_DIR=%q\n' "$KMOD_DIR"
  printf 'OUT_DIR=%q\n' "$OUT"
  printf 'UDEV=%s\nUDEV_AUTOLOAD=%s\nUDEV_TRIGGER=%s\nBOOT=%s\n' "$UDEV" "$AUTOLOAD" "$UDEV_TRIGGER" "$BOOT"
  # arm64: the host directories the guest sees (from the hostfs share), at their own paths.
  if [ "$ARCH" = arm64 ]; then
    binds=$(for d in "$REPO" "$CACHE" "$PWD" "${SHARES[@]}"; do realpath -e "$d" || exit 1; done) ||
      { echo "run-in-vm: a --share directory does not exist" >&2; exit 125; }
    printf 'HOSTFS_BINDS=%q\n' "$(echo "$binds" | sort -u | tr '\n' ' ')"
  fi
} > "$CTL/vm.conf" || exit 125
: > "$CTL/stdout"; : > "$CTL/stderr"

# --- QEMU ---------------------------------------------------------------------
# qboot instead of SeaBIOS: ~0.3 s less firmware time; KIOSK_VM_BIOS=seabios to opt out.
BIOS=()
QBOOT=/usr/share/qemu/qboot.rom
[ "${KIOSK_VM_BIOS:-qboot}" = qboot ] && [ -f "$QBOOT" ] && BIOS=(-bios "$QBOOT")
APPEND="console=ttyS0 loglevel=4 panic=-1 rdinit=/init mitigations=off random.trust_cpu=on"
# QEMU enables virtio-gpu heads >1 only when a UI asks; force them on in the guest.
if [ "$GPU" = virtio ]; then
  for ((k = 2; k <= OUTPUTS; k++)); do APPEND+=" video=Virtual-$k:1024x768e"; done
fi
[ -n "$HOLD" ] && APPEND+=" kiosk_vm.hold=$HOLD"
# An initramfs of initramfs-tools' (Tests/VM/initramfs/make.sh): its /init mounts the host's root
# (9p) as the root file system; the guest's plumbing is in its own scripts.
[ -n "$INITRD" ] && APPEND+=" root=hostroot rootfstype=9p rootflags=trans=virtio,version=9p2000.L,msize=512000,cache=loose ro fsck.mode=skip"
APPEND+=" ${KIOSK_VM_APPEND:-}"
KERNEL=$CACHE/vmlinux-$KVER
if [ "$EFI" = 1 ] && [ "$ARCH" = amd64 ]; then
  OVMF=/usr/share/ovmf/OVMF.fd
  [ -f "$OVMF" ] || { echo "run-in-vm: --efi needs $OVMF (apt-get install ovmf)" >&2; exit 125; }
  BIOS=(-bios "$OVMF")
  KERNEL=$CACHE/kernel-$KVER/boot/vmlinuz-$KVER
fi
SYSTEM=(qemu-system-x86_64 -machine pc) ROOT=/ GPUDEV=virtio-vga
if [ "$ARCH" = arm64 ]; then
  # The root is the arm64 one; the host's / is a second share the initramfs binds from.
  SYSTEM=(qemu-system-aarch64 -machine virt) ROOT=$ACACHE/rootfs GPUDEV=virtio-gpu-pci BIOS=()
  KERNEL=$ACACHE/kernel-$KVER/boot/vmlinuz-$KVER
  APPEND=${APPEND/console=ttyS0/console=ttyAMA0}
  if [ "$EFI" = 1 ]; then
    # AAVMF: its code read-only, a copy of its variable store per run. Its virtio-gpu driver
    # only blits (no linear framebuffer, so no efifb): a ramfb is the firmware's screen.
    AAVMF=/usr/share/AAVMF/AAVMF_CODE.fd
    [ -f "$AAVMF" ] || { echo "run-in-vm: --efi needs $AAVMF (apt-get install qemu-efi-aarch64)" >&2; exit 125; }
    cp /usr/share/AAVMF/AAVMF_VARS.fd "$CTL/vars.fd"
    BIOS=(-drive "if=pflash,format=raw,unit=0,readonly=on,file=$AAVMF" -drive "if=pflash,format=raw,unit=1,file=$CTL/vars.fd"
          -device ramfb,id=fw0)
  fi
fi
Q=("${SYSTEM[@]}" -nodefaults -no-user-config -display none -no-reboot
   -accel "$ACCEL" -cpu "$CPU" -smp "$SMP" -m "$MEM"
   "${BIOS[@]}"
   -kernel "$KERNEL" -initrd "${INITRD:-$ACACHE/initramfs-$KVER.cpio}"
   -append "$APPEND"
   -serial "file:$CTL/console.log"
   -virtfs "local,path=$ROOT,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap"
   -virtfs "local,path=$CTL,mount_tag=kioskctl,security_model=none"
   -qmp "unix:$CTL/qmp.sock,server=on,wait=off")
[ "$ARCH" = arm64 ] && Q+=(-virtfs local,path=/,mount_tag=hostfs,security_model=none,readonly=on,multidevs=remap)
[ -n "$OUT" ] && Q+=(-virtfs "local,path=$OUT,mount_tag=kioskout,security_model=none")
case $GPU in
  bochs) Q+=(-device VGA,id=gpu0) ;;
  virtio) Q+=(-device "$GPUDEV,id=gpu0,max_outputs=$OUTPUTS") ;;
esac
[ "$TABLET" = 1 ] && Q+=(-device virtio-tablet-pci,id=tablet0)
[ -n "$QMP_USER" ] && Q+=(-qmp "unix:$QMP_USER,server=on,wait=off")
# shellcheck disable=SC2206
[ -n "${KIOSK_VM_QEMU_ARGS:-}" ] && Q+=($KIOSK_VM_QEMU_ARGS)
[ "$VERBOSE" = 1 ] && echo "run-in-vm: ${Q[*]}" >&2

PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
T0=$(date +%s.%N)
timeout -k 5 "$TIMEOUT" "${Q[@]}" >"$CTL/qemu.log" 2>&1 &
QPID=$!
"$PY" "$HERE/vmhost.py" "$CTL" "$HOST_OUT" "$QPID" 2>>"$CTL/vmhost.log" &
HPID=$!
tail -q -s 0.1 -n +1 -f --pid="$QPID" "$CTL/stdout" &
TPID1=$!
tail -q -s 0.1 -n +1 -f --pid="$QPID" "$CTL/stderr" >&2 &
TPID2=$!
wait "$QPID"; QRC=$?
QPID=
wait "$TPID1" "$TPID2" 2>/dev/null
TPID1='' TPID2=''
T1=$(date +%s.%N)
WALL=$(awk "BEGIN{printf \"%.2f\", $T1 - $T0}")

show_console() {
  echo "----- guest console (last ${1:-40} lines) -----" >&2
  if [ -s "$CTL/console.log" ]; then tail -n "${1:-40}" "$CTL/console.log" >&2; else echo "(empty)" >&2; fi
}
[ "$CONSOLE" = 1 ] && show_console 100000
if [ "$VERBOSE" = 1 ] && [ -s "$CTL/timing" ]; then
  echo "run-in-vm: guest uptime at: $(tr '\n' ' ' < "$CTL/timing")| qemu wall ${WALL}s ($ACCEL)" >&2
fi

# KIOSK_VM_COST_LOG=FILE: one line per guest — its wall and CPU time (QEMU's, as this shell's
# children), the command — to see where a test run's time goes (CI has two CPUs for all of it).
if [ -n "${KIOSK_VM_COST_LOG:-}" ]; then
  times > "$CTL/times"   # not in a pipe: a subshell has no children
  CPU=$(sed -n 2p "$CTL/times" | awk '{for (i = 1; i <= 2; i++) {split($i, a, "m"); sub("s", "", a[2]); t += a[1] * 60 + a[2]}; printf "%.1f", t}')
  printf '%s wall=%.1fs cpu=%ss %s\n' "$(date +%T)" "$WALL" "$CPU" "$CMD_SUMMARY" >> "$KIOSK_VM_COST_LOG" 2>/dev/null || true
fi

if [ "$QRC" = 124 ] || [ "$QRC" = 137 ]; then
  echo "run-in-vm: TIMEOUT: the VM ran longer than ${TIMEOUT}s and was killed" >&2
  show_console
  exit 124
fi
if [ -s "$CTL/rc" ]; then
  exit "$(cat "$CTL/rc")"
fi
echo "run-in-vm: VM FAILED: no exit code came back (qemu exit $QRC)" >&2
[ -s "$CTL/harness-error" ] && sed 's/^/run-in-vm: guest: /' "$CTL/harness-error" >&2
[ -s "$CTL/qemu.log" ] && sed 's/^/run-in-vm: qemu: /' "$CTL/qemu.log" >&2
show_console
exit 125

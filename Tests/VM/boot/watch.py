#!/usr/bin/python3
"""watch.py — the boot test's eyes while the guest boots (kiosk-vm-watch.service, made by
Tests/VM/boot/setup.sh; environment from /etc/kiosk-vm.env).

1. Waits, without touching the control socket, until systemd has started kiosk-hud.service —
   sysinit.target's doing (a connection before that would start it through the socket instead).
2. Opens one connection to /run/kiosk-hud/control.sock and asks `status` until the HUD is
   visible and the screen active.
3. Makes /run/kiosk-vm-watching, which the kiosk app's stand-in dependencies wait for, and
   samples until they are done (/run/kiosk-vm-work.done; the handover waits for them, and for
   this unit): `status`, `ping`, 0.1 s for the flip to land, a QMP screendump (the host's
   vmhost.py, guest/lib.sh's file protocol), `status` again. Each sample is a manifest line
   "shot<TAB>FILE<TAB>T<TAB>P1<TAB>P2<TAB>MODE<TAB>LABEL<TAB>D1<TAB>D2": T is CLOCK_MONOTONIC (the
   boot clock), P1 and P2 the progress, D1 and D2 the details line (PID 1's unit statuses through
   Plymouth's socket) the daemon reported before and after. When P1 == P2 and D1 == D2 the host
   compares the picture with `kiosk-hud render` of that state. A sample taken while the display
   changes hands (a UEFI boot: efifb, then the real driver's card) is not listed: the status
   before and after must name the same display, and a card appearing meanwhile, or a card there
   while the daemon still names the firmware's fbdev, means the switch is under way.

The daemon draws at the start of a loop turn, before it reads (docs/protocol.md): a `status`
read in the same turn as the follower's `update` is answered before that update's frame is
drawn, but the `ping` after it only once the frame is drawn and its flip queued.
Prints "ok NAME", "FAIL NAME: why", "info NAME: ...".
"""
import json
import os
import socket
import subprocess
import sys
import time

OUT = os.environ["VM_OUT"]
CTL = os.environ["KIOSK_VM_CTL"]
SOCK = "/run/kiosk-hud/control.sock"
STARTED = "/sys/fs/cgroup/system.slice/kiosk-hud.service"   # systemd makes it when the unit starts
WORK_DONE = "/run/kiosk-vm-work.done"
WATCHING = "/run/kiosk-vm-watching"
MANIFEST = os.path.join(OUT, "manifest")
CARD = "/sys/class/drm/card0"   # the real driver's card (a UEFI boot starts on efifb without it)


def now():
    return time.clock_gettime(time.CLOCK_MONOTONIC)


def shown(status):
    """The display(s) a status names, e.g. "Virtual-1" (bochs-drm's connector) or "fb0"."""
    return "+".join(d.get("name", "?") for d in status.get("displays") or [])


def say(kind, name, text=""):
    print("%s %s%s" % (kind, name, (": " + text) if text else ""), flush=True)


def manifest(*fields):
    with open(MANIFEST, "a") as f:
        f.write("\t".join(str(x) for x in fields) + "\n")


_requests = 0


def host_request(line, timeout=60):
    """One request to the host's helper (guest/lib.sh's protocol); its answer's detail."""
    global _requests
    _requests += 1
    base = os.path.join(CTL, "req", "watch-%d-%d" % (os.getpid(), _requests))
    with open(base + ".tmp", "w") as f:
        f.write(line + "\n")
    os.rename(base + ".tmp", base + ".req")
    end = now() + timeout
    while not os.path.exists(base + ".done"):
        if now() > end:
            raise RuntimeError("no answer from the host for %r" % line)
        time.sleep(0.01)
    with open(base + ".done") as f:
        answer = f.read().strip()
    if not answer.startswith("ok"):
        raise RuntimeError(answer)
    return answer[2:].strip()


class Daemon:
    def __init__(self):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(SOCK)
        self.file = self.sock.makefile("rb")
        self.id = 0

    def request(self, op):
        """The reply to `op`, or None when the daemon has closed the connection."""
        self.id += 1
        try:
            self.sock.sendall(b'{"v":1,"op":"%s","id":%d}\n' % (op.encode(), self.id))
            line = self.file.readline()
        except OSError:
            return None
        return json.loads(line) if line else None

    def status(self):
        return self.request("status")


def main():
    t0 = now()
    # 1. kiosk-hud.service started by systemd (a stat every 0.1 s: cheap for a booting guest).
    while not os.path.exists(STARTED):
        if now() - t0 > 240:
            say("FAIL", "daemon-started", "kiosk-hud.service did not start within 240 s")
            return
        time.sleep(0.1)
    t_start_seen = now()
    while subprocess.run(["systemctl", "is-active", "--quiet", "kiosk-hud.service"]).returncode != 0:
        if now() - t_start_seen > 60:
            say("FAIL", "daemon-started", "kiosk-hud.service not active 60 s after it started")
            return
        time.sleep(0.1)
    say("ok", "daemon-started")
    manifest("time", "watch-saw-daemon", "%.3f" % now())

    # 2. visible and active.
    d = Daemon()
    first = None
    while True:
        s = d.status()
        if s is None:
            say("FAIL", "hud-visible", "the daemon closed the connection")
            return
        first = first or now()
        if s.get("visible") and s.get("active"):
            break
        if now() - first > 60:
            say("FAIL", "hud-visible", json.dumps(s))
            return
        time.sleep(0.1)
    manifest("time", "watch-first-status", "%.3f" % first)
    say("ok", "hud-visible")
    disp = s.get("displays") or [{}]
    say("info", "status", "display %s %sx%s, content %s" % (disp[0].get("name"), disp[0].get("width"),
                                                          disp[0].get("height"), json.dumps(s.get("content"))))
    # One display: the connector at the size QEMU's EDID prefers (the harness's -global VGA.xres/yres).
    if len(s.get("displays") or []) == 1 and (disp[0].get("width"), disp[0].get("height")) == (800, 480):
        say("ok", "hud-display")
    else:
        say("FAIL", "hud-display", "want one display of 800x480: %s" % json.dumps(s.get("displays")))
    time.sleep(0.4)   # the show's fade-in (animation_duration 0.3 s)
    # The app's stand-in dependencies wait for this file: their work, and the progress it makes,
    # comes while the HUD is watched, however slow the guest was to get here.
    open(WATCHING, "w").close()

    # 3. samples until the app's dependencies are done.
    n = 0
    while True:
        done = os.path.exists(WORK_DONE)
        card_before = os.path.exists(CARD)
        s1 = d.status()
        # The ping is answered in the daemon's next loop turn, which first draws what the
        # updates before s1 asked for; then 0.1 s for that frame's flip to land.
        if s1 is None or d.request("ping") is None:
            say("FAIL", "samples", "the daemon closed the connection after %d samples" % n)
            break
        time.sleep(0.1)
        t = now()
        name = "boot-%02d" % n
        try:
            host_request("screendump " + name)
        except RuntimeError as e:
            say("FAIL", "screendump", str(e))
            break
        s2 = d.status()
        if s2 is None:
            say("FAIL", "samples", "the daemon closed the connection after %d samples" % n)
            break
        c1, c2 = s1["content"], s2["content"]
        card_after = os.path.exists(CARD)
        on_card = shown(s1).startswith("Virtual-")
        switching = shown(s1) != shown(s2) or not shown(s1) or card_before != card_after or (card_after and not on_card)
        if not switching:
            manifest("shot", name + ".ppm", "%.3f" % t, c1["progress"], c2["progress"],
                     c1["mode"], c1["label"], c1["details"], c2["details"])
        else:
            say("info", "sample", "%s taken while the display changed hands (%s, card0 %s → %s): not compared"
                % (name, " → ".join(shown(s) for s in (s1, s2)), card_before, card_after))
        n += 1
        if done or now() - t0 > 300:
            break
        time.sleep(0.1)
    d.sock.close()
    say("ok" if done else "FAIL", "samples-until-work-done", "%d samples" % n)
    manifest("time", "watch-end", "%.3f" % now())


if __name__ == "__main__":
    try:
        main()
    except Exception as e:  # reported, not raised: the boot goes on to the handover
        say("FAIL", "watch", "%s: %s" % (type(e).__name__, e))
    sys.exit(0)

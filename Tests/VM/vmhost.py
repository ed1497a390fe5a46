#!/usr/bin/env python3
"""Host side of run-in-vm.sh's guest requests (started by run-in-vm.sh).

    vmhost.py CTL_DIR HOST_OUT_DIR QEMU_PID

Talks QMP on CTL_DIR/qmp.sock and polls CTL_DIR/req/ every 20 ms for ID.req
files from the guest (see guest/lib.sh). Each holds one line, taken only once
its trailing newline is there:

    screendump NAME [HEAD]        -> HOST_OUT_DIR/NAME (".ppm" added unless it
                                     ends in .ppm or .png; png via format=png)
    pointer tap|move|down|up X Y  -> input-send-event, abs axes 0..32767
    qmp JSON                      -> sent verbatim, the reply is returned
    shutdown-watch NAME MS        -> from now until QEMU exits: a screendump
                                     every MS ms (HOST_OUT_DIR/NAME-NNN.ppm) and
                                     QMP's events, logged in HOST_OUT_DIR/NAME.times
                                     (for a guest about to shut down, whose own
                                     helpers die with it); answered at once

and answers with ID.done: "ok [DETAIL]" or "error MESSAGE" (written to
ID.done.tmp, then renamed). Exits when QEMU closes the QMP socket.

NAME.times, one line each, times in seconds of the host's wall clock (QMP's
event timestamps are that clock too):
    start T                       the request answered (the guest's command follows)
    shot FILE T_ASKED T_DONE      a screendump (the picture is QEMU's at about T_ASKED)
    event NAME T [REASON]         a QMP event (SHUTDOWN with -no-reboot ends it: a
                                  reset's reason is guest-reset, a power-off's guest-shutdown)
    end T                         QMP closed: QEMU has exited
"""
import json
import os
import select
import socket
import sys
import time

ctl, host_out, qpid = sys.argv[1], sys.argv[2], int(sys.argv[3])
req_dir = os.path.join(ctl, "req")
sock_path = os.path.join(ctl, "qmp.sock")


def log(*a):
    print("vmhost:", *a, file=sys.stderr, flush=True)


def qemu_alive():
    try:
        os.kill(qpid, 0)
        return True
    except ProcessLookupError:
        return False
    except PermissionError:
        return True


class QMPError(Exception):
    pass


class Watch:
    """shutdown-watch: screendumps at a fixed rate and QMP's events, until QEMU exits."""
    MAX_SHOTS = 3000

    def __init__(self, name, interval_ms):
        if name.startswith("/") or "/" in name or ".." in name or not name:
            raise ValueError("NAME must be a plain file name: %r" % name)
        self.name, self.interval = name, max(int(interval_ms), 10) / 1000.0
        self.log = open(os.path.join(host_out, name + ".times"), "w")
        self.count = 0
        self.due = time.time()
        self.line("start %.6f" % self.due)

    def line(self, text):
        self.log.write(text + "\n")
        self.log.flush()

    def event(self, msg):
        ts = msg.get("timestamp", {})
        t = ts.get("seconds", 0) + ts.get("microseconds", 0) / 1e6 if ts else time.time()
        reason = (msg.get("data") or {}).get("reason", "")
        self.line(("event %s %.6f %s" % (msg.get("event"), t, reason)).rstrip())

    def shoot(self, qmp):
        """One screendump if it is due; the seconds until the next."""
        now = time.time()
        if now < self.due:
            return self.due - now
        if self.count >= Watch.MAX_SHOTS:
            return 1.0
        f = "%s-%03d.ppm" % (self.name, self.count)
        asked = time.time()
        screendump(qmp, f)
        self.line("shot %s %.6f %.6f" % (f, asked, time.time()))
        self.count += 1
        self.due = max(self.due + self.interval, time.time())
        return max(self.due - time.time(), 0)


watch = None


class QMP:
    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        self.rfile = self.sock.makefile("rb")
        self.read_msg()  # greeting
        self.cmd("qmp_capabilities")

    def read_msg(self):
        line = self.rfile.readline()
        if not line:
            raise EOFError("QMP closed")
        return json.loads(line)

    def raw(self, msg):
        self.sock.sendall(json.dumps(msg).encode() + b"\n")
        while True:
            reply = self.read_msg()
            if "return" in reply or "error" in reply:
                return reply
            if "event" in reply and watch is not None:
                watch.event(reply)

    def cmd(self, execute, **args):
        msg = {"execute": execute}
        if args:
            msg["arguments"] = args
        reply = self.raw(msg)
        if "error" in reply:
            raise QMPError("%s: %s" % (execute, reply["error"].get("desc", reply["error"])))
        return reply["return"]


def connect():
    deadline = time.time() + 60
    while time.time() < deadline:
        if not qemu_alive():
            return None
        try:
            return QMP(sock_path)
        except (FileNotFoundError, ConnectionRefusedError, EOFError):
            time.sleep(0.05)
    log("could not connect to", sock_path)
    return None


def screendump(qmp, name, head=None):
    if name.startswith("/") or ".." in name.split("/") or not name:
        raise ValueError("NAME must be a relative path without '..': %r" % name)
    if not name.endswith((".ppm", ".png")):
        name += ".ppm"
    path = os.path.join(host_out, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = path + ".tmp"
    args = {"filename": tmp}
    if name.endswith(".png"):
        args["format"] = "png"
    if head is not None:
        args["device"] = "gpu0"
        args["head"] = int(head)
    qmp.cmd("screendump", **args)
    os.rename(tmp, path)
    return name


def pointer(qmp, op, x=None, y=None):
    def abs_events():
        if x is None or y is None:
            return []
        return [{"type": "abs", "data": {"axis": "x", "value": int(x)}},
                {"type": "abs", "data": {"axis": "y", "value": int(y)}}]

    def btn(down):
        return [{"type": "btn", "data": {"down": down, "button": "left"}}]

    if op == "move":
        seq = [abs_events()]
    elif op == "down":
        seq = [abs_events(), btn(True)]
    elif op == "up":
        seq = [abs_events(), btn(False)]
    elif op == "tap":
        seq = [abs_events(), btn(True), btn(False)]
    else:
        raise ValueError("pointer op must be tap|move|down|up, got %r" % op)
    for events in seq:
        if events:
            qmp.cmd("input-send-event", events=events)


def handle(qmp, line):
    parts = line.split(None, 1)
    if not parts:
        raise ValueError("empty request")
    kind, rest = parts[0], (parts[1] if len(parts) > 1 else "")
    if kind == "screendump":
        a = rest.split()
        return screendump(qmp, *a[:2])
    if kind == "pointer":
        a = rest.split()
        pointer(qmp, *a[:3])
        return ""
    if kind == "qmp":
        return json.dumps(qmp.raw(json.loads(rest)))
    if kind == "shutdown-watch":
        global watch
        a = rest.split()
        if len(a) != 2:
            raise ValueError("shutdown-watch NAME MS")
        watch = Watch(a[0], a[1])
        return ""
    raise ValueError("unknown request %r" % kind)


def main():
    qmp = connect()
    if qmp is None:
        return 1
    try:
        return serve(qmp)
    finally:
        if watch is not None:
            watch.line("end %.6f" % time.time())


def serve(qmp):
    while True:
        try:
            names = sorted(n for n in os.listdir(req_dir) if n.endswith(".req"))
        except FileNotFoundError:
            return 0
        for n in names:
            rid = n[:-4]
            p = os.path.join(req_dir, n)
            try:
                with open(p) as f:
                    line = f.read()
                if not line.endswith("\n"):
                    continue  # still being written; next poll
                os.unlink(p)
            except OSError:
                continue
            line = line.strip()
            try:
                answer = "ok " + str(handle(qmp, line))
            except EOFError:
                return 0
            except Exception as e:  # reported to the guest
                answer = "error %s" % e
            log(rid, repr(line), "->", answer[:200])
            done = os.path.join(req_dir, rid + ".done")
            with open(done + ".tmp", "w") as f:
                f.write(answer.rstrip() + "\n")
            os.rename(done + ".tmp", done)
        wait = 0.02
        if watch is not None:
            try:
                wait = min(wait, watch.shoot(qmp))
            except (EOFError, OSError):
                return 0  # QEMU is gone (or going: a screendump it could not take)
            except QMPError as e:
                log("shutdown-watch:", e)
        r, _, _ = select.select([qmp.sock], [], [], wait)
        if r:
            try:
                msg = qmp.read_msg()  # an event; EOF means QEMU is gone
            except (EOFError, OSError, ValueError):
                return 0
            if "event" in msg and watch is not None:
                watch.event(msg)


if __name__ == "__main__":
    sys.exit(main())

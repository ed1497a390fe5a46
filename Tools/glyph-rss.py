#!/usr/bin/env python3
"""What a daemon's text costs in memory: issue #24's requests, with VmRSS and VmHWM after each.

    Tools/glyph-rss.py KIOSK_HUD [label|details|many|names]

Starts `KIOSK_HUD daemon --offscreen - --glyph-cache none` (800x480) on a socket of its own,
sends the scenario's requests one at a time, and prints each reply's time as the client saw it
with the daemon's VmRSS and VmHWM (MB, /proc/PID/status):
  label    style label_size 500, then three updates of 341 distinct CJK ideographs each
  details  style details_size 500, then one update of 2,730 distinct ideographs
  many     style label_size 500, then sixty updates like label's
  names    3,000 updates of a label of 8 and details of 40 ideographs (default sizes), as a
           kiosk showing file names during a long update
The numbers before and after the glyph budget are at the top of Sources/KioskText/GlyphBudget.swift.
"""
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time

binary = sys.argv[1]
scenario = sys.argv[2] if len(sys.argv) > 2 else "label"
work = tempfile.mkdtemp(prefix="kiosk-glyph-rss.")
path = work + "/c.sock"
daemon = subprocess.Popen([binary, "daemon", "--offscreen", "-", "--socket", path, "--glyph-cache", "none",
                           "--mode", "annular", "--label", "Loading"],
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
for _ in range(200):
    if os.path.exists(path):
        break
    time.sleep(0.05)
time.sleep(0.3)
client = socket.socket(socket.AF_UNIX)
client.connect(path)
stream = client.makefile("rwb")


def memory():
    out = {}
    with open(f"/proc/{daemon.pid}/status") as f:
        for line in f:
            key = line.split(":")[0]
            if key in ("VmRSS", "VmHWM"):
                out[key] = int(line.split()[1]) // 1024
    return f"VmRSS {out['VmRSS']} MB, VmHWM {out['VmHWM']} MB"


def send(request):
    start = time.monotonic()
    stream.write((json.dumps(dict(v=1, **request), ensure_ascii=False) + "\n").encode())
    stream.flush()
    reply = json.loads(stream.readline())
    if not reply.get("ok"):
        sys.exit(f"glyph-rss.py: {request['op']}: {reply}")
    return time.monotonic() - start


def ideographs(count, skip):
    return "".join(chr(0x4E00 + (skip + n) % 20000) for n in range(count))


print(f"start: {memory()}")
if scenario in ("label", "many"):
    send(dict(op="style", label_size=500))
    updates = 3 if scenario == "label" else 60
    slowest = 0
    for n in range(updates):
        slowest = max(slowest, send(dict(op="update", label=ideographs(341, 341 * n))))
        if scenario == "label" or n % 20 == 19:
            print(f"update {n + 1}: slowest reply {slowest * 1000:.0f} ms, {memory()}")
elif scenario == "details":
    send(dict(op="style", details_size=500))
    took = send(dict(op="update", details=ideographs(2730, 0)))
    print(f"update: reply {took * 1000:.0f} ms, {memory()}")
elif scenario == "names":
    slowest = 0
    for n in range(3000):
        slowest = max(slowest, send(dict(op="update", label=ideographs(8, 8 * n), details=ideographs(40, 40 * n + 7))))
        if n % 1000 == 999:
            print(f"update {n + 1}: slowest reply {slowest * 1000:.0f} ms, {memory()}")
else:
    sys.exit(f"glyph-rss.py: unknown scenario {scenario} (label, details, many, names)")
time.sleep(0.5)
print(f"0.5 s later: {memory()}")
send(dict(op="quit"))
daemon.wait(timeout=10)
shutil.rmtree(work)

#!/usr/bin/env python3
"""The boot benchmark's host side (Tests/VM/bootbench/run.sh), three commands:

  bench.py sample QMP_SOCKET DIR PERIOD_MS
      While one guest boots: a QMP screendump every PERIOD_MS ms (the whole screen, the GPU's
      resolution) until the first with content — more than 150 of its bytes above 16, so that
      a text cursor (and the cursor cell at the top left) is not content but a splash, Plymouth's spinner or a
      login prompt is, and QEMU's own
      placeholder (its first screendump) is not (that frame is kept as DIR/first-content.ppm). Then it waits for the guest's clock marks DIR/sync.N
      (end.sh) and notes on this host's CLOCK_MONOTONIC when each appeared. Writes
      DIR/host-times: "first HOST_S", "before HOST_S" (the last black screendump), "sync.N HOST_S",
      "shots N".
  bench.py row DIR KIND ROUND
      One boot's figures as a tab-separated line: the first content on the guest's clock (kernel
      start = 0: the host's time of that screendump less the smallest host-minus-guest offset of
      the clock marks), its uncertainty (the time since the last black screendump), and end.sh's
      times (multi-user.target reached, ...), '-' where missing.
  bench.py table RESULTS.tsv
      The Markdown table (medians, min–max) and the goals, from the rows.
"""
import os, socket, json, sys, time, statistics

FIELDS = ["first", "first_err", "multi-user", "systemd", "sysinit", "splash-exec", "splash-frame", "splash-ready", "splash-quit"]
KINDS = {"none": "no splash", "plymouth": "Plymouth (spinner)", "kiosk-first": "kiosk-hud, first boot (drawn)",
         "kiosk-cached": "kiosk-hud, later boot (frame cache)"}


def qmp_connect(path, deadline):
    while time.monotonic() < deadline:
        try:
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.connect(path)
            f = s.makefile("rwb", buffering=0)
            f.readline()  # greeting
            f.write(b'{"execute":"qmp_capabilities"}\n')
            qmp_reply(f)
            return s, f
        except OSError:
            time.sleep(0.05)
    return None, None


def qmp_reply(f):
    while True:
        line = f.readline()
        if not line:
            raise EOFError
        msg = json.loads(line)
        if "return" in msg or "error" in msg:
            return msg


def content(path, placeholder):
    """True when the screendump has content and is not QEMU's own placeholder (its first one: "Guest
    has not initialized the display (yet).", drawn before the guest set any mode)."""
    with open(path, "rb") as fh:
        data = fh.read()
    if not placeholder:
        placeholder.append(data)
        return False
    if data == placeholder[0]:
        return False
    # P6\nW H\n255\n then the pixels
    parts = data.split(b"\n", 3)
    pixels = parts[3] if len(parts) == 4 else b""
    if not pixels:
        return False
    # The bytes above 16: more than 150 (50 white pixels) is content. A text cursor (8x2: 48
    # bytes) is not; Plymouth's spinner (a 32x32 throbber on black) and a login prompt are.
    # The console's cursor at its home (the top left text cell, 8x16: a block of 384 bytes after
    # Plymouth quits) is not content either: that cell is left out.
    w = int(parts[1].split()[0])
    cell = 16 * w * 3
    home = pixels[:cell]
    rest = b"".join(home[y * w * 3 + 48:(y + 1) * w * 3] for y in range(16)) + pixels[cell:]
    bright = len(rest.translate(None, bytes(range(17))))
    return bright > 150


def sample(sock, d, period_ms):
    period = float(period_ms) / 1000
    out = open(os.path.join(d, "host-times"), "w")
    s, f = qmp_connect(sock, time.monotonic() + 120)
    shot = os.path.join(d, ".shot.ppm")
    shots, before, first, placeholder = 0, None, None, []
    seen = {}
    try:
        if f is not None:
            nxt = time.monotonic()
            while first is None and not os.path.exists(os.path.join(d, "sync.1")):
                t0 = time.monotonic()
                f.write(json.dumps({"execute": "screendump", "arguments": {"filename": shot}}).encode() + b"\n")
                r = qmp_reply(f)
                t1 = time.monotonic()
                shots += 1
                if "return" in r and content(shot, placeholder):
                    first = (t0 + t1) / 2
                    os.replace(shot, os.path.join(d, "first-content.ppm"))
                else:
                    before = (t0 + t1) / 2
                nxt += period
                time.sleep(max(0.0, nxt - time.monotonic()))
    except (EOFError, OSError, ValueError):
        pass
    # The clock marks: polled every 5 ms until the third or 600 s.
    end = time.monotonic() + 600
    while len(seen) < 3 and time.monotonic() < end:
        for i in (1, 2, 3):
            if i not in seen and os.path.exists(os.path.join(d, "sync.%d" % i)):
                seen[i] = time.monotonic()
        if os.path.exists(os.path.join(d, "vm-done")):
            break
        time.sleep(0.005)
    if first is not None:
        out.write("first %.6f\n" % first)
    if before is not None:
        out.write("before %.6f\n" % before)
    for i, t in sorted(seen.items()):
        out.write("sync.%d %.6f\n" % (i, t))
    out.write("shots %d\n" % shots)
    out.close()
    if os.path.exists(shot):
        os.unlink(shot)


def kv(path):
    r = {}
    try:
        for line in open(path):
            p = line.split()
            if len(p) >= 2:
                r[p[0]] = p[1]
    except OSError:
        pass
    return r


def row(d, kind, rnd):
    host, guest = kv(os.path.join(d, "host-times")), kv(os.path.join(d, "times"))
    offsets = []
    for i in (1, 2, 3):
        try:
            g = int(open(os.path.join(d, "sync.%d" % i)).read().strip()) / 1e9
            offsets.append(float(host["sync.%d" % i]) - g)
        except (OSError, KeyError, ValueError):
            pass
    v = {}
    if offsets and "first" in host:
        v["first"] = float(host["first"]) - min(offsets)
        v["first_err"] = float(host["first"]) - float(host["before"]) if "before" in host else None
    for k in FIELDS[2:]:
        if k in guest:
            v[k] = float(guest[k])
    cells = [rnd, kind] + ["-" if v.get(k) is None else "%.3f" % v[k] for k in FIELDS]
    phases = ""
    try:
        phases = open(os.path.join(d, "phases")).read().strip()
    except OSError:
        pass
    print("\t".join(cells + [phases]))


def table(path):
    rows = {}
    for line in open(path):
        p = line.rstrip("\n").split("\t")
        if len(p) < 2 + len(FIELDS) or p[0] == "round":
            continue
        rows.setdefault(p[1], []).append(p)

    def vals(kind, field):
        i = 2 + FIELDS.index(field)
        return [float(r[i]) for r in rows.get(kind, []) if r[i] != "-"]

    def med(kind, field):
        si = 2 + FIELDS.index("systemd")
        i = 2 + FIELDS.index(field)
        v = [float(r[i]) - float(r[si]) for r in rows.get(kind, []) if r[i] != "-" and r[si] != "-"]
        return statistics.median(v) if v else None

    def cell(kind, field):
        v = vals(kind, field)
        if field != "systemd":
            # From systemd's start: before it the harness's set-up ran (dpkg -i), longer for
            # some kinds than for others; a board has none of it.
            s = dict((r[0], float(r[2 + FIELDS.index("systemd")])) for r in rows.get(kind, []) if r[2 + FIELDS.index("systemd")] != "-")
            i = 2 + FIELDS.index(field)
            v = [float(r[i]) - s[r[0]] for r in rows.get(kind, []) if r[i] != "-" and r[0] in s]
        if not v:
            return "–"
        return "%.2f s (%.2f–%.2f)" % (statistics.median(v), min(v), max(v))

    def vals_rel(kind, field):
        si, i = 2 + FIELDS.index("systemd"), 2 + FIELDS.index(field)
        return [None if r[i] == "-" or r[si] == "-" else float(r[i]) - float(r[si]) for r in rows.get(kind, [])]

    def splash_frame(kind):
        return "splash-ready" if kind == "plymouth" else "splash-frame"

    base = med("none", "multi-user")
    print("| boot | n | first content on screen | splash's first frame | multi-user.target | cost vs no splash | splash started | systemd started |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for kind in [k for k in KINDS if k in rows]:
        mu = med(kind, "multi-user")
        cost = "–" if kind == "none" or mu is None or base is None else "%+.2f s" % (mu - base)
        frame = "–" if kind == "none" else cell(kind, splash_frame(kind))
        print("| %s | %d | %s | %s | %s | %s | %s | %s |" % (KINDS[kind], len(rows[kind]), cell(kind, "first"), frame,
                                                          cell(kind, "multi-user"), cost, cell(kind, "splash-exec"), cell(kind, "systemd")))
    err = [float(r[3]) for k in rows for r in rows[k] if r[3] != "-"]
    print()
    print("Times from systemd's start as PID 1 (the guest's CLOCK_MONOTONIC; before it the harness's initramfs ran the set-up, "
          "which differs by kind; `systemd started` is from kernel start), median (min–max) over n boots; "
          "first content: host QMP screendumps of the whole screen, the first with > 150 bytes above 16 "
          "(median %.0f ms after the last black one)." % (1000 * statistics.median(err) if err else float("nan")))
    print("Splash's first frame: kiosk-hud's own `first-frame at_s` (the screendumps agree with it); Plymouth's "
          "plymouth-start.service active (plymouthd up and `plymouth show-splash` answered: its first frame, its theme's "
          "black background, is on screen by then).")
    # Plymouth's first picture: its first content on screen, or if that came later, the moment its
    # splash was up (the spinner theme's black background; the throbber may come later or never).
    ply = [min(a, b) for a, b in zip(vals_rel("plymouth", "first"), vals_rel("plymouth", "splash-ready")) if a is not None and b is not None]
    ply_first, ply_mu = (statistics.median(ply) if ply else None), med("plymouth", "multi-user")
    print()
    for kind in ("kiosk-first", "kiosk-cached"):
        ours, mu = med(kind, "first"), med(kind, "multi-user")
        if ours is not None and ply_first:
            r = ours / ply_first
            print("- goal, %s: first content %.2f s, %.2f× Plymouth's first picture %.2f s (≤ 0.5×): %s" %
                  (KINDS[kind], ours, r, ply_first, "met" if r <= 0.5 else "NOT met"))
        if mu is not None and ply_mu is not None and base is not None:
            pc, oc = ply_mu - base, mu - base
            if pc > 0:
                r = oc / pc
                print("- goal, %s: cost to multi-user.target %+.2f s, %.2f× Plymouth's %+.2f s (≤ 0.5×): %s" %
                      (KINDS[kind], oc, r, pc, "met" if r <= 0.5 else "NOT met"))
            else:
                print("- goal, %s: cost to multi-user.target %+.2f s; Plymouth's %+.2f s is not a cost: no ratio" % (KINDS[kind], oc, pc))


if __name__ == "__main__":
    cmd = sys.argv[1]
    if cmd == "sample":
        sample(sys.argv[2], sys.argv[3], sys.argv[4])
    elif cmd == "row":
        row(sys.argv[2], sys.argv[3], sys.argv[4])
    elif cmd == "table":
        table(sys.argv[2])

#!/usr/bin/env python3
# Writes the example logo the README's themed splash uses (docs/images/theme-logo.png): a light
# plate with a teal disc and two bars, anti-aliased (4x4 samples a pixel), RGBA. Standard library only.
import struct, sys, zlib

W, H, S = 160, 64, 4
PLATE, TEAL = (244, 244, 242), (17, 134, 127)

def in_round_rect(x, y, x0, y0, x1, y1, r):
    if x < x0 or x > x1 or y < y0 or y > y1:
        return False
    cx = min(max(x, x0 + r), x1 - r)
    cy = min(max(y, y0 + r), y1 - r)
    return (x - cx) ** 2 + (y - cy) ** 2 <= r * r

def sample(x, y):
    if not in_round_rect(x, y, 2, 2, W - 2, H - 2, 14):
        return None
    if (x - 34) ** 2 + (y - 32) ** 2 <= 20 ** 2:
        return TEAL
    if in_round_rect(x, y, 64, 18, 146, 30, 6) or in_round_rect(x, y, 64, 36, 120, 46, 5):
        return TEAL
    return PLATE

rows = bytearray()
for py in range(H):
    rows.append(0)
    for px in range(W):
        r = g = b = a = 0
        for sy in range(S):
            for sx in range(S):
                c = sample(px + (sx + 0.5) / S, py + (sy + 0.5) / S)
                if c:
                    r += c[0]; g += c[1]; b += c[2]; a += 1
        n = S * S
        rows += bytes([r // a if a else 0, g // a if a else 0, b // a if a else 0, 255 * a // n])

def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", W, H, 8, 6, 0, 0, 0)) \
    + chunk(b"IDAT", zlib.compress(bytes(rows), 9)) + chunk(b"IEND", b"")
with open(sys.argv[1] if len(sys.argv) > 1 else "docs/images/theme-logo.png", "wb") as f:
    f.write(png)

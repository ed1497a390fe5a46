#!/usr/bin/env python3
"""Summarise the loops of one disassembled function (llvm-objdump -d --no-show-raw-insn, aarch64
or x86-64): each backward branch's body, its size, how many of its instructions are SIMD, and
their distinct mnemonics. SIMD: on aarch64 an operand vN.<lanes> or qN (d and s registers are
scalar floating point); on x86-64 an xmm/ymm operand of a packed instruction (not …sd/…ss)."""
import re, sys
lines = [l for l in sys.stdin.read().splitlines() if re.match(r'\s*[0-9a-f]+:\s', l)]
ins = []
for l in lines:
    m = re.match(r'\s*([0-9a-f]+):\s+(\S+)\s*(.*)', l)
    if m: ins.append((int(m.group(1), 16), m.group(2), m.group(3)))
addr = {a: i for i, (a, _, _) in enumerate(ins)}
a64 = re.compile(r'\bq\d+\b|\bv\d+\.\d*[bhsd]\b|\bv\d+\b')
x86 = re.compile(r'%[xy]mm\d+')
scalar = ('movd', 'movq', 'cvtsi2sd', 'cvttsd2si', 'ucomisd', 'comisd', 'xorps', 'xorpd', 'andpd', 'andnpd', 'orpd',
          'movapd', 'movaps', 'cvtsi2ss', 'ucomiss')
def simd(mn, ops):
    if a64.search(ops): return True
    return bool(x86.search(ops)) and not re.search(r'(sd|ss)$', mn) and mn not in scalar
def isbr(mn): return mn.startswith('b') and not mn.startswith('bi') and not mn.startswith('bf') or mn in ('cbz', 'cbnz', 'tbz', 'tbnz') or (mn.startswith('j'))
print(f"  {len(ins)} instructions, {sum(1 for _, mn, o in ins if simd(mn, o))} SIMD")
for i, (a, mn, ops) in enumerate(ins):
    if isbr(mn) and mn not in ('bl', 'blr', 'br'):
        m = re.search(r'0x([0-9a-f]+)', ops)
        if m and int(m.group(1), 16) < a and int(m.group(1), 16) in addr:
            j = addr[int(m.group(1), 16)]
            body = ins[j:i + 1]
            if len(body) < 3: continue
            nv = [x for x in body if simd(x[1], x[2])]
            def tag(x):
                s = re.search(r'\.(\d+[bhsd])', x[2])
                return x[1] + ('.' + s.group(1) if s else '')
            print(f"  loop {body[0][0]:x}-{a:x}: {len(body)} insns, {len(nv)} SIMD: {' '.join(sorted({tag(x) for x in nv}))}")

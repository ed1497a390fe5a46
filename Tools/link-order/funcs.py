#!/usr/bin/env python3
"""The functions of one binary that ran, from callgrind output files (valgrind --demangle=no).

    funcs.py BINARY FILE.callgrind... > link-order.txt

Prints each mangled name once, in the order the files name them (callgrind lists a function
where it is first charged, which is close to the order of first execution).

Only symbols that BINARY defines are printed (`nm --defined-only`), because only those can
be ordered by the linker; the link-order test (Tests/KioskLinkOrderTests) fails on any other
entry. callgrind's own names are mapped or dropped:
  - `name'2`, `name'3`…: a recursion level of `name` (--separate-recs): counted as `name`;
  - `(below main)`, `0x…` (code with no symbol) and anything else BINARY does not define: dropped.
What was dropped is summarized on stderr.
"""
import re
import subprocess
import sys

pattern = re.compile(r'^(c?ob|c?fn)=\((\d+)\)(?: (.*))?$')
recursion = re.compile(r"'\d+$")


def functions(path, obj):
    objects, names, current = {}, {}, None
    for line in open(path, errors='replace'):
        m = pattern.match(line.rstrip('\n'))
        if not m:
            continue
        kind, ident, name = m.groups()
        if kind in ('ob', 'cob'):
            if name:
                objects[ident] = name
            if kind == 'ob':
                current = objects.get(ident)
        else:
            if name:
                names[ident] = name
            if kind == 'fn' and current and obj in current:
                yield names[ident]


def defined_symbols(binary):
    out = subprocess.run(['nm', '--defined-only', '--just-symbols', binary],
                         check=True, capture_output=True, text=True).stdout
    return set(out.split())


binary = sys.argv[1]
defined = defined_symbols(binary)
seen, mapped, dropped = set(), set(), []
for f in sys.argv[2:]:
    for raw in functions(f, binary):
        name = recursion.sub('', raw)
        if name != raw:
            mapped.add(raw)
        if name in seen:
            continue
        seen.add(name)
        if name in defined:
            print(name)
        else:
            dropped.append(raw)
print(f"funcs.py: {len(seen) - len(dropped)} functions; {len(mapped)} recursion levels (name'N) counted "
      f"as their function; {len(dropped)} names dropped, not defined in {binary}:", file=sys.stderr)
for name in dropped:
    print(f"  {name}", file=sys.stderr)

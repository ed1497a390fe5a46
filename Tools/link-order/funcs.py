#!/usr/bin/env python3
"""Functions of one object that ran, from callgrind output files (valgrind --demangle=no).

    funcs.py OBJECT_SUBSTRING FILE.callgrind... > link-order.txt

Prints each mangled name once, in the order the files name them (callgrind lists a function
where it is first charged, which is close to the order of first execution).
"""
import re
import sys

pattern = re.compile(r'^(c?ob|c?fn)=\((\d+)\)(?: (.*))?$')


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


seen = set()
for f in sys.argv[2:]:
    for n in functions(f, sys.argv[1]):
        if n not in seen and not n.startswith('0x'):
            seen.add(n)
            print(n)

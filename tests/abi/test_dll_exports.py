#!/usr/bin/env python3
"""iprof.dll exports what libiprof.so does: the names in the DLL's export
table (read from the PE file itself) are exactly the global names of
lib/libiprof.map, and the .def the build made from the map lists the same.
Run in the Windows build (cross/x86_64-w64-mingw32.ini); Linux's side of
the same check is test_symbols."""
import glob
import os
import re
import struct
import sys

sys.path.insert(0, os.path.join(os.environ['IPROF_SOURCE_DIR'], 'scripts'))
import importlib.util  # noqa: E402,I100

spec = importlib.util.spec_from_file_location(
    'map_to_def', os.path.join(os.environ['IPROF_SOURCE_DIR'], 'scripts', 'map-to-def.py'))
map_to_def = importlib.util.module_from_spec(spec)
spec.loader.exec_module(map_to_def)


def pe_exports(path):
    """The names of a PE file's export table."""
    with open(path, 'rb') as f:
        data = f.read()
    pe = struct.unpack_from('<I', data, 0x3c)[0]
    if data[pe:pe + 4] != b'PE\0\0':
        raise SystemExit('%s: not a PE file' % path)
    nsect = struct.unpack_from('<H', data, pe + 6)[0]
    opt_size = struct.unpack_from('<H', data, pe + 20)[0]
    opt = pe + 24
    magic = struct.unpack_from('<H', data, opt)[0]
    dirs = opt + (112 if magic == 0x20b else 96)  # PE32+ or PE32
    export_rva = struct.unpack_from('<I', data, dirs)[0]
    sections = []
    for i in range(nsect):
        s = opt + opt_size + 40 * i
        vsize, va, rawsize, raw = struct.unpack_from('<IIII', data, s + 8)
        sections.append((va, max(vsize, rawsize), raw))

    def off(rva):
        for va, size, raw in sections:
            if va <= rva < va + size:
                return rva - va + raw
        raise SystemExit('RVA %#x outside every section' % rva)

    e = off(export_rva)
    count, = struct.unpack_from('<I', data, e + 24)
    names_rva, = struct.unpack_from('<I', data, e + 32)
    names = []
    for i in range(count):
        rva, = struct.unpack_from('<I', data, off(names_rva) + 4 * i)
        o = off(rva)
        names.append(data[o:data.index(b'\0', o)].decode())
    return names


def main():
    src, build = os.environ['IPROF_SOURCE_DIR'], os.environ['IPROF_BUILD_DIR']
    with open(os.path.join(src, 'lib', 'libiprof.map'), encoding='utf-8') as f:
        mapped = set(map_to_def.map_symbols(f.read()))
    exported = set(pe_exports(os.path.join(build, 'lib', 'iprof.dll')))
    with open(os.path.join(build, 'lib', 'iprof.def'), encoding='utf-8') as f:
        lines = f.read().split('EXPORTS', 1)[1].split()
    failures = []
    for what, names in (('iprof.dll exports', exported), ('iprof.def lists', set(lines))):
        for n in sorted(names - mapped):
            failures.append('%s %s, which libiprof.map does not' % (what, n))
        for n in sorted(mapped - names):
            failures.append('%s not %s, which libiprof.map does' % (what, n))
    # The map itself is whole: one symbol per function the headers declare
    # (a map cut short would make every comparison above pass).
    declared = set()
    for h in glob.glob(os.path.join(src, 'include', 'iprof', '*.h')):
        with open(h, encoding='utf-8') as f:
            declared |= set(re.findall(r'IPROF_API[^;(]*?\b(iprof_\w+)\(', f.read()))
    if mapped != declared:
        failures.append('libiprof.map lists %d symbols, the headers declare %d functions'
                        % (len(mapped), len(declared)))
    for f in failures:
        print('FAIL:', f)
    print('%d symbols in libiprof.map, %d exported by iprof.dll' % (len(mapped), len(exported)))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())

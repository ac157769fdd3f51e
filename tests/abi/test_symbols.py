#!/usr/bin/env python3
"""Exported symbols = linker version script = public header declarations.

- the dynamic symbols defined by libiprof.so (nm -D), every one under the
  version node LIBIPROF_<soversion>;
- the global names of lib/libiprof.map (and the map is what
  scripts/gen-map.sh generates);
- the functions and variables that include/iprof/*.h declare (as the
  compiler sees them: gcc -aux-info on <iprof/iprof.h>);
are the same set, every name starts with iprof_, and the static library
defines no global symbol outside the iprof_ and ipi_ (internal) prefixes.
"""
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import abicheck as A  # noqa: E402


def dynamic_symbols(lib, node):
    out = A.run(['nm', '-D', '--defined-only', lib], quiet=True).stdout
    names, problems = set(), []
    for line in out.splitlines():
        parts = line.split()
        if len(parts) != 3:
            continue
        sym = parts[2]
        if parts[1] == 'A' and sym == node:
            continue  # the version node itself
        name, _, version = sym.partition('@@')
        if version != node:
            problems.append('%s is not under the version node %s' % (sym, node))
        names.add(name)
    return names, problems


def map_symbols(path):
    with open(path) as f:
        text = re.sub(r'/\*.*?\*/', '', f.read(), flags=re.S)
    m = re.search(r'(\w+)\s*\{\s*global:(.*?)local:\s*\*;\s*\};', text, re.S)
    if not m:
        A.fail('%s: no "NODE { global: ... local: *; };"' % path)
    return m.group(1), set(re.findall(r'(\w+)\s*;', m.group(2)))


def header_declarations(build, tmp):
    src = os.path.join(tmp, 'all.c')
    with open(src, 'w') as f:
        f.write(A.include_all())
    aux = os.path.join(tmp, 'aux.txt')
    A.run([A.need('gcc'), '-std=c11', '-fsyntax-only', '-aux-info', aux,
           '-I' + os.path.join(A.SOURCE_DIR, 'include'), '-I' + os.path.join(build, 'include'),
           src], quiet=True)
    inc = os.path.realpath(os.path.join(A.SOURCE_DIR, 'include', 'iprof'))
    names = {}
    with open(aux) as f:
        for line in f:
            m = re.match(r'/\* (\S+):\d+:\S+ \*/ (.*)', line)
            if not m:
                continue
            path = os.path.realpath(os.path.join(tmp, m.group(1)))
            if os.path.dirname(path) != inc:
                continue
            d = re.search(r'(\w+) \(', m.group(2))
            if d:
                names[d.group(1)] = os.path.basename(path)
    # Variables: the headers must not declare any (not in -aux-info).
    for h in A.PUBLIC_HEADERS[:-1]:
        with open(os.path.join(inc, h)) as f:
            for line in f:
                if re.match(r'\s*(IPROF_API\s+)?extern\b(?!\s*"C")', line):
                    names[line.strip()] = h + ' (a variable: export functions only)'
    return names


def main():
    build = A.build_dir()
    A.need('nm', 'gcc')
    lib = A.built_library(build)
    node, mapped = map_symbols(os.path.join(A.SOURCE_DIR, 'lib', 'libiprof.map'))
    exported, problems = dynamic_symbols(lib, node)
    soversion = (A.soname_of(lib) or '').rsplit('.so.', 1)[-1]
    if node != 'LIBIPROF_' + soversion:
        problems.append('version node %s does not match the SONAME (expected LIBIPROF_%s)'
                        % (node, soversion))
    with tempfile.TemporaryDirectory(prefix='iprof-symbols-') as tmp:
        declared = header_declarations(build, tmp)
    generated = A.run(['sh', os.path.join(A.SOURCE_DIR, 'scripts', 'gen-map.sh')],
                      quiet=True).stdout
    with open(os.path.join(A.SOURCE_DIR, 'lib', 'libiprof.map')) as f:
        if f.read() != generated:
            problems.append('lib/libiprof.map is not what scripts/gen-map.sh generates: '
                            'scripts/gen-map.sh > lib/libiprof.map')

    sets = {'exported by %s' % os.path.basename(lib): exported,
            'in lib/libiprof.map': mapped,
            'declared in include/iprof/*.h': set(declared)}
    everything = set().union(*sets.values())
    for name in sorted(everything):
        missing = [k for k, v in sets.items() if name not in v]
        if missing:
            where = declared.get(name)
            problems.append('%s%s: not %s' % (name, ' (%s)' % where if where else '',
                                              ', not '.join(missing)))
        if not name.startswith('iprof_'):
            problems.append('%s: public names start with iprof_' % name)

    static = os.path.join(build, 'lib', 'libiprof.a')
    if os.path.exists(static):
        out = A.run(['nm', '-g', '--defined-only', static], quiet=True).stdout
        for line in out.splitlines():
            parts = line.split()
            if len(parts) == 3 and not parts[2].startswith(('iprof_', 'ipi_')):
                problems.append('libiprof.a defines the global %s: internal symbols are '
                                'static or start with ipi_' % parts[2])
            elif len(parts) == 3 and parts[2].startswith('iprof_') and parts[2] not in mapped:
                problems.append('libiprof.a defines %s, which is not public' % parts[2])
    if problems:
        A.fail('symbol sets differ:\n  ' + '\n  '.join(problems))
    print('%d functions: exported under %s = lib/libiprof.map = declared in the headers; '
          'all iprof_*' % (len(exported), node))
    print('PASS')


if __name__ == '__main__':
    main()

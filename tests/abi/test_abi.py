#!/usr/bin/env python3
"""The built libiprof.so against the committed ABI baseline (docs/abi.md).

1. abidw describes the built library; abidiff compares it with
   abi/libiprof.so.N.abi, with the suppressions of abi/libiprof.abignore.
   - no change: pass;
   - only additions (functions, variables; a member appended to a versioned
     options struct is suppressed as compatible): pass, and print the report;
   - anything else (a removed or changed function, a struct member moved or
     retyped, abidiff's "incompatible" bit): fail. If the SONAME of the new
     library differs from the baseline's, the change is intended: the test
     says to regenerate the baseline with scripts/abi-baseline.sh, and keeps
     failing until that is committed.
2. The constants of the baseline's headers (abi/include: enum values and
   IPROF_* macros) keep their values in the current headers. Additions pass;
   the library version, the newest format and the struct version numbers may
   only grow.
"""
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import abicheck as A  # noqa: E402


def check_abi(build, tmp):
    lib = A.built_library(build)
    if not A.has_debug_info(lib):
        print('SKIP: %s has no debug information: abidw needs -g '
              '(buildtype debug or debugoptimized, the default)' % lib)
        sys.exit(A.SKIP)
    baseline = A.baseline_file()
    current = os.path.join(tmp, 'current.abi')
    A.abidw(lib, build, current)
    passed, verdict, message, report = A.judge(baseline, current, A.soname_of(lib))
    print('baseline %s, built %s: %s' % (os.path.relpath(baseline, A.SOURCE_DIR), lib, verdict))
    if report.strip():
        print(report)
    if not passed:
        A.fail(message)
    print(message)

CONSTANT_RE = re.compile(r'^\s*#\s*define\s+(IPROF_[A-Z0-9_]+)\s+\S', re.M)
ENUM_RE = re.compile(r'^\s*(IPROF_[A-Z0-9_]+)\s*=', re.M)
# Constants that may change, but only grow.
GROWING = re.compile(r'^IPROF_VERSION_(MAJOR|MINOR|PATCH|NUMBER)$|^IPROF_\w+_VERSION$')
# Not constants: include guards, the export macro, brace initialisers,
# strings that name the current release.
NOT_CONSTANT = re.compile(r'_H$|^IPROF_API$|_INIT$|^IPROF_VERSION_STRING$|^IPROF_FORMAT_LATEST$')


def constants(header_dir):
    names = []
    for h in A.PUBLIC_HEADERS:
        path = os.path.join(header_dir, 'iprof', h)
        if not os.path.exists(path):  # a header added after the baseline
            continue
        with open(path) as f:
            text = f.read()
        for n in CONSTANT_RE.findall(text) + ENUM_RE.findall(text):
            if not NOT_CONSTANT.search(n) and n not in names:
                names.append(n)
    return names


def print_constants(names, include_dirs, tmp, tag):
    src = os.path.join(tmp, 'constants_%s.c' % tag)
    with open(src, 'w') as f:
        f.write('#include <stdio.h>\n' + A.include_all() +
                'static void s(const char *n, const char *v) { printf("%s \\"%s\\"\\n", n, v); }\n'
                'static void i(const char *n, long long v) { printf("%s %lld\\n", n, v); }\n'
                '#define P(x) _Generic((x), char *: s, const char *: s, default: i)(#x, x)\n'
                'int main(void)\n{\n')
        for n in names:
            f.write('    P(%s);\n' % n)
        f.write('    return 0;\n}\n')
    exe = os.path.join(tmp, 'constants_' + tag)
    A.run([A.need('cc'), '-std=c11'] + ['-I' + d for d in include_dirs] + ['-o', exe, src],
          quiet=True)
    values = {}
    for line in A.run([exe], quiet=True).stdout.splitlines():
        name, value = line.split(' ', 1)
        values[name] = value
    return values


def check_constants(build, tmp):
    names = constants(A.BASELINE_HEADERS)
    old = print_constants(names, [A.BASELINE_HEADERS], tmp, 'old')
    # A constant that the current headers lost fails to compile here.
    p = A.run([A.need('cc'), '-std=c11', '-fsyntax-only',
               '-I' + os.path.join(A.SOURCE_DIR, 'include'), '-I' + os.path.join(build, 'include'),
               os.path.join(tmp, 'constants_old.c')], check=False, quiet=True)
    if p.returncode != 0:
        print(p.stdout)
        A.fail('constants of the baseline headers are missing from the current headers')
    new = print_constants(names, [os.path.join(A.SOURCE_DIR, 'include'),
                                  os.path.join(build, 'include')], tmp, 'new')
    bad = []
    for n in names:
        if old[n] == new[n]:
            continue
        if GROWING.search(n) and int(new[n]) > int(old[n]):
            print('%s: %s -> %s (may grow)' % (n, old[n], new[n]))
            continue
        bad.append('%s: %s in the baseline, %s now' % (n, old[n], new[n]))
    if bad:
        A.fail('constants changed their values:\n  ' + '\n  '.join(bad))
    print('%d constants of the baseline headers keep their values' % len(names))


def main():
    build = A.build_dir()
    A.need('abidw', 'abidiff', 'cc', 'readelf')
    with tempfile.TemporaryDirectory(prefix='iprof-abi-') as tmp:
        check_abi(build, tmp)
        check_constants(build, tmp)
    print('PASS')


if __name__ == '__main__':
    main()

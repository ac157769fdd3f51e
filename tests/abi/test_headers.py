#!/usr/bin/env python3
"""Each public header compiles on its own, twice included, as C99, C11 and
C17 (gcc, clang) and as C++11 and C++17 (g++, clang++), with warnings as
errors; in C++ its functions have C linkage (extern "C"); its *_INIT macros
initialise every member.

Each translation unit includes only the header under test (so the header
includes what it uses), takes the address of every function the header
declares (in C++ the object must then reference the unmangled names) and
defines a variable with each *_INIT macro of the header (a function-like
one with the sample arguments of INIT_ARGS, so that a new one must be given
some here; its type is the header's longest typedef named by the macro's
first words: IPROF_SOURCE_PATH_INIT(path) initialises an iprof_source).
"""
import os
import re
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import abicheck as A  # noqa: E402

WARNINGS = ['-Wall', '-Wextra', '-Wpedantic', '-pedantic-errors', '-Werror', '-Wundef',
            '-Wshadow', '-Wcast-qual', '-Wconversion', '-Wsign-conversion',
            '-Wmissing-declarations', '-Wredundant-decls']
C_WARNINGS = ['-Wstrict-prototypes', '-Wmissing-prototypes', '-Wold-style-definition',
              '-Wc++-compat']
CXX_WARNINGS = ['-Wold-style-cast', '-Wzero-as-null-pointer-constant', '-Wuseless-cast']
COMPILERS = [('gcc', 'c', ['c99', 'c11', 'c17']), ('clang', 'c', ['c99', 'c11', 'c17']),
             ('g++', 'c++', ['c++11', 'c++17']), ('clang++', 'c++', ['c++11', 'c++17'])]


def functions_of(header, build, tmp):
    """The functions declared in this header itself (gcc -aux-info)."""
    src = os.path.join(tmp, 'aux_%s.c' % header)
    with open(src, 'w') as f:
        f.write('#include <iprof/%s>\n' % header)
    aux = src + '.aux'
    A.run(['gcc', '-std=c11', '-fsyntax-only', '-aux-info', aux,
           '-I' + os.path.join(A.SOURCE_DIR, 'include'), '-I' + os.path.join(build, 'include'),
           src], quiet=True)
    names = []
    with open(aux) as f:
        for line in f:
            m = re.match(r'/\* (\S+):\d+:\S+ \*/ .*?(\w+) \(', line)
            if m and os.path.basename(m.group(1)) == header and \
                    os.path.basename(os.path.dirname(m.group(1))) == 'iprof':
                names.append(m.group(2))
    return names


# Sample arguments of the function-like *_INIT macros (constant
# expressions: the variables are file-scope), using what INIT_PRELUDE
# declares.
INIT_PRELUDE = {
    'iprof_header_test_read':
        'static int iprof_header_test_read(void *buf, size_t capacity, size_t *len, '
        'void *payload) { (void)buf; (void)capacity; (void)payload; *len = 0; return 0; }',
    'iprof_header_test_write':
        'static int iprof_header_test_write(const void *data, size_t len, void *payload) '
        '{ (void)data; (void)len; (void)payload; return 0; }',
    'iprof_header_test_payload': 'static int iprof_header_test_payload;',
}
INIT_ARGS = {
    'IPROF_SOURCE_BUFFER_INIT': '"{}", 2',
    'IPROF_SOURCE_PATH_INIT': '"profile.iprof"',
    'IPROF_SOURCE_FD_INIT': '0',
    'IPROF_SOURCE_CALLBACK_INIT': 'iprof_header_test_read, &iprof_header_test_payload',
    'IPROF_SINK_PATH_INIT': '"profile.iprof"',
    'IPROF_SINK_FD_INIT': '1',
    'IPROF_SINK_CALLBACK_INIT': 'iprof_header_test_write, &iprof_header_test_payload',
}


def init_macros(header, build):
    """(macro as used, type, variable name) of each *_INIT macro."""
    d = os.path.join(build, 'include') if header == 'version.h' else \
        os.path.join(A.SOURCE_DIR, 'include')
    with open(os.path.join(d, 'iprof', header)) as f:
        text = f.read()
    types = set(re.findall(r'\}\s*(iprof_\w+)\s*;', text))
    out = []
    for macro, stem, params in re.findall(r'#define (IPROF_(\w+)_INIT)(\()?', text):
        words = stem.lower().split('_')
        named = ['iprof_' + '_'.join(words[:n]) for n in range(len(words), 0, -1)]
        typ = next((t for t in named if t in types), 'iprof_' + stem.lower())
        if params:
            if macro not in INIT_ARGS:
                A.fail('%s: %s takes arguments: give it sample ones in INIT_ARGS'
                       % (header, macro))
            macro = '%s(%s)' % (macro, INIT_ARGS[macro])
        out.append((macro, typ, stem.lower()))
    return out


def unit(header, functions, inits, lang):
    lines = ['#include <iprof/%s>' % header, '#include <iprof/%s> /* include guard */' % header,
             '']
    for i, fn in enumerate(functions):
        lines.append('__typeof__(%s) *iprof_header_test_ref%d = &%s;' % (fn, i, fn))
    lines.extend(d for name, d in INIT_PRELUDE.items()
                 if any(name in macro for macro, _, _ in inits))
    for macro, typ, name in inits:
        lines.append('%s iprof_header_test_init_%s = %s;' % (typ, name, macro))
    lines.append('int iprof_header_test_unit(void);')
    lines.append('int iprof_header_test_unit(void) { return 0; }')
    return '\n'.join(lines) + '\n'


def main():
    build = A.build_dir()
    A.need('gcc', 'clang', 'g++', 'clang++', 'nm')
    headers = A.PUBLIC_HEADERS
    failures, count = [], 0
    with tempfile.TemporaryDirectory(prefix='iprof-headers-') as tmp:
        jobs = []
        for h in headers:
            fns = functions_of(h, build, tmp)
            inits = init_macros(h, build)
            print('%s: %d functions, %d *_INIT macros' % (h, len(fns), len(inits)))
            for cc, lang, stds in COMPILERS:
                src = os.path.join(tmp, '%s_%s.%s' % (h, cc, 'c' if lang == 'c' else 'cpp'))
                with open(src, 'w') as f:
                    f.write(unit(h, fns, inits, lang))
                for std in stds:
                    warns = WARNINGS + (C_WARNINGS if lang == 'c' else CXX_WARNINGS)
                    if cc.startswith('clang'):
                        warns = [w for w in warns if w not in ('-Wuseless-cast',)]
                    obj = '%s.%s.o' % (src, std)
                    jobs.append((h, cc, std, fns, lang, obj,
                                 [cc, '-std=' + std] + warns +
                                 ['-I' + os.path.join(A.SOURCE_DIR, 'include'),
                                  '-I' + os.path.join(build, 'include'),
                                  '-c', src, '-o', obj]))

        def compile_one(job):
            h, cc, std, fns, lang, obj, cmd = job
            p = A.run(cmd, check=False, quiet=True)
            if p.returncode != 0:
                return '%s with %s -std=%s:\n%s' % (h, cc, std, p.stdout)
            if lang == 'c++':
                undefined = A.run(['nm', '-u', obj], quiet=True).stdout.split()
                mangled = [s for s in undefined if s.startswith('_Z')]
                missing = [fn for fn in fns if fn not in undefined]
                if mangled or missing:
                    return ('%s with %s -std=%s: functions without C linkage (extern "C" '
                            'guards?): %s' % (h, cc, std, ' '.join(mangled + missing)))
            return None

        with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
            for r in pool.map(compile_one, jobs):
                count += 1
                if r:
                    failures.append(r)
    if failures:
        A.fail('%d of %d header compilations failed:\n' % (len(failures), count) +
               '\n'.join(failures))
    print('%d compilations: %d headers x C99/C11/C17 (gcc, clang), C++11/C++17 (g++, clang++), '
          '-Werror' % (count, len(headers)))
    print('PASS')


if __name__ == '__main__':
    main()

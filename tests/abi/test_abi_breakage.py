#!/usr/bin/env python3
"""The ABI check catches breakage: deliberately changed throwaway builds.

Copies include/ and lib/ to a temporary directory, builds the library as it
is (the reference) and in variants that each make one change, describes
each with abidw and judges it against the reference exactly as test_abi.py
judges the real build against the committed baseline. Every variant must
get the expected verdict: the breaking ones fail, additions and changes the
policy allows pass.
"""
import glob
import os
import re
import shutil
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import abicheck as A  # noqa: E402


def edit(root, path, old, new, count=1):
    p = os.path.join(root, path)
    with open(p) as f:
        text = f.read()
    if isinstance(old, re.Pattern):
        text, n = old.subn(new, text, count=count)
    else:
        n = text.count(old)
        text = text.replace(old, new, count)
    if n < 1:
        raise SystemExit('FAIL: variant edit found nothing to change in %s: %r '
                         '(update tests/abi/test_abi_breakage.py)' % (path, old))
    with open(p, 'w') as f:
        f.write(text)


def insert_member_middle(r):
    edit(r, 'include/iprof/iprof.h', re.compile(r'(typedef struct iprof_read_options \{\n'
                                                  r'\s*unsigned int version;[^\n]*\n)'),
         r'\1    unsigned int inserted;\n')


def retype_member(r):
    edit(r, 'include/iprof/iprof.h', re.compile(r'(typedef struct iprof_write_options \{.*?)'
                                                  r'size_t buffer_size;', re.S),
         r'\1unsigned int buffer_size;')


def change_parameter(r):
    edit(r, 'include/iprof/iprof.h', 'iprof_kind_name(int kind)', 'iprof_kind_name(long kind)')
    for c in glob.glob(os.path.join(r, 'lib', '**', '*.c'), recursive=True):
        try:
            edit(r, os.path.relpath(c, r), 'iprof_kind_name(int kind)', 'iprof_kind_name(long kind)')
        except SystemExit:
            pass


def add_parameter(r):
    # Functions 1.0 keeps (docs/api-1.0.md, section 2.2), so that the
    # variants outlive the removal of the 0.x ones.
    edit(r, 'include/iprof/iprof.h', 'iprof_context_bci(const iprof_context *ctx)',
         'iprof_context_bci(const iprof_context *ctx, int extra)')
    edit(r, 'lib/model/model_context.c', 'iprof_context_bci(const iprof_context *ctx)',
         'iprof_context_bci(const iprof_context *ctx, int extra)')
    edit(r, 'lib/model/model_context.c',
         re.compile(r'(iprof_context_bci\(const iprof_context \*ctx, int extra\)\n\{\n)'),
         r'\1    (void)extra;\n')


def remove_function(r):
    edit(r, 'lib/libiprof.map', '    iprof_model_remove_type;\n', '')


def add_function(r):
    edit(r, 'include/iprof/iprof.h', 'IPROF_API const char *iprof_version_string(void);',
         'IPROF_API const char *iprof_version_string(void);\n'
         'IPROF_API int iprof_abi_test_added(int x);')
    with open(os.path.join(r, 'lib', 'zz_added.c'), 'w') as f:
        f.write('#include <iprof/iprof.h>\nIPROF_API int iprof_abi_test_added(int x) '
                '{ return x + 1; }\n')
    edit(r, 'lib/libiprof.map', 'global:\n', 'global:\n    iprof_abi_test_added;\n')


def widen_member(r):
    edit(r, 'include/iprof/iprof.h', re.compile(r'(typedef struct iprof_write_options \{.*?)'
                                                  r'unsigned int flags;', re.S),
         r'\1size_t flags;')


def append_member(r):
    # docs/abi.md: options structs grow at their end under their version field.
    edit(r, 'include/iprof/iprof.h', re.compile(r'(typedef struct iprof_write_options \{.*?)'
                                                  r'(\} iprof_write_options;)', re.S),
         r'\1    size_t appended;\n\2')


def append_member_filled(r):
    # A struct the library fills grows at its end too (the caller's version
    # says which members it has room for).
    edit(r, 'include/iprof/iprof.h', re.compile(r'(typedef struct iprof_error_info \{.*?)'
                                                  r'(\} iprof_error_info;)', re.S),
         r'\1    uint64_t appended;\n\2')


def retype_member_source(r):
    edit(r, 'include/iprof/iprof.h', re.compile(r'(typedef struct iprof_source \{.*?)'
                                                  r'size_t len;', re.S),
         r'\1unsigned int len;')


def change_opaque_handle(r):
    # The layout of a handle is private: free to change.
    edit(r, 'lib/model/model.h', 'struct iprof_model {\n', 'struct iprof_model {\n    char padding[24];\n')


# The SONAME every variant keeps (the built library's, libiprof.so.N) and
# the next one, for the variant that bumps it without a new baseline.
SAME, BUMPED = 'same', 'bumped'

VARIANTS = [
    # name, edit, soname, expected verdict, expected to pass
    ('member inserted in the middle of iprof_read_options', insert_member_middle,
     SAME, 'incompatible', False),
    ('member of iprof_write_options retyped', retype_member, SAME, 'incompatible', False),
    ('parameter of iprof_kind_name retyped int -> long', change_parameter, SAME,
     'incompatible', False),
    ('parameter added to iprof_context_bci', add_parameter, SAME, 'incompatible', False),
    ('iprof_model_remove_type no longer exported', remove_function, SAME, 'incompatible',
     False),
    ('the same removal with the SONAME bumped (baseline not regenerated)', remove_function,
     BUMPED, 'incompatible', False),
    ('function added', add_function, SAME, 'additions', True),
    ('member appended to iprof_write_options', append_member, SAME, 'additions', True),
    ('member appended to iprof_error_info', append_member_filled, SAME, 'additions', True),
    ('member of iprof_source retyped', retype_member_source, SAME, 'incompatible', False),
    ('member of iprof_write_options widened, shifting the next', widen_member, SAME,
     'incompatible', False),
    ('layout of the opaque iprof_model changed', change_opaque_handle, SAME, 'same', True),
]


def sonames(build):
    """{SAME: the built library's SONAME, BUMPED: the next one}."""
    same = A.soname_of(A.built_library(build))
    base, _, n = same.rpartition('.so.')
    return {SAME: same, BUMPED: '%s.so.%d' % (base, int(n) + 1)}


def main():
    build = A.build_dir()
    A.need('abidw', 'abidiff', 'cc', 'readelf')
    version_dir = os.path.join(build, 'include')
    names = sonames(build)
    with tempfile.TemporaryDirectory(prefix='iprof-abi-breakage-') as tmp:
        def build_variant(i, change, soname):
            root = os.path.join(tmp, 'v%d' % i)
            for d in ('include', 'lib'):
                shutil.copytree(os.path.join(A.SOURCE_DIR, d), os.path.join(root, d))
            if change:
                change(root)
            lib = A.compile_library(root, version_dir, os.path.join(root, 'out'), soname)
            out = os.path.join(root, 'abi.xml')
            A.abidw(lib, build, out, root)
            return out

        jobs = [(0, None, names[SAME])] + [(i + 1, v[1], names[v[2]])
                                           for i, v in enumerate(VARIANTS)]
        with ThreadPoolExecutor(max_workers=4) as pool:
            abis = list(pool.map(lambda j: build_variant(*j), jobs))
        reference = abis[0]
        failures = []
        for (name, _, soname, want_verdict, want_pass), abi in zip(VARIANTS, abis[1:]):
            passed, verdict, message, report = A.judge(reference, abi, names[soname])
            ok = verdict == want_verdict and passed == want_pass
            print('%s %s: %s, %s (%s)' % ('ok  ' if ok else 'FAIL', name, verdict,
                                          'passes' if passed else 'fails', message))
            if not ok or not passed:
                print('    ' + report.strip().replace('\n', '\n    '))
            if not ok:
                failures.append('%s: got %s/%s, expected %s/%s'
                                % (name, verdict, passed, want_verdict, want_pass))
        if failures:
            A.fail('the ABI check misjudged:\n  ' + '\n  '.join(failures))
    print('PASS: every deliberate breakage is caught, additions pass')


if __name__ == '__main__':
    main()

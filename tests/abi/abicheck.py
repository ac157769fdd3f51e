"""Shared helpers of the ABI suite (tests/abi/test_*.py, scripts/abi-baseline.sh).

The tests run from `meson test` (IPROF_SOURCE_DIR and IPROF_BUILD_DIR set by
tests/meson.build) or by hand:

    python3 tests/abi/test_abi.py BUILD-DIR

A tool that is missing makes a test exit 77 (skipped, with the reason) when
run by hand, and fail when run from CI (CI set) or with IPROF_REQUIRE_TOOLS=1:
scripts/test.sh installs every tool the suite needs.
"""
import glob
import os
import re
import shutil
import subprocess
import sys

SKIP = 77

SOURCE_DIR = os.path.abspath(os.environ.get('IPROF_SOURCE_DIR')
                             or os.path.join(os.path.dirname(__file__), '..', '..'))
ABI_DIR = os.path.join(SOURCE_DIR, 'abi')
SUPPRESSIONS = os.path.join(ABI_DIR, 'libiprof.abignore')
BASELINE_HEADERS = os.path.join(ABI_DIR, 'include')
PUBLIC_HEADERS = ['iprof.h', 'stream.h', 'edit.h', 'transform.h', 'diff.h', 'analysis.h',
                  'version.h']


def include_all():
    """The #include lines of every public header: <iprof/iprof.h> is the
    core only, each advanced header says its own part of the API."""
    return ''.join('#include <iprof/%s>\n' % h for h in PUBLIC_HEADERS)


def build_dir():
    """The meson build directory: IPROF_BUILD_DIR, or the first argument."""
    d = os.environ.get('IPROF_BUILD_DIR') or (sys.argv[1] if len(sys.argv) > 1 else None)
    if not d:
        sys.exit('usage: %s BUILD-DIR (or set IPROF_BUILD_DIR)' % sys.argv[0])
    return os.path.abspath(d)


def tools_required():
    return bool(os.environ.get('CI') or os.environ.get('IPROF_REQUIRE_TOOLS'))


def need(*tools):
    """Return the paths of the tools; skip (by hand) or fail (CI) when one is missing."""
    paths = []
    for tool in tools:
        path = shutil.which(tool)
        if path is None:
            if tools_required():
                print('FAIL: %s is not installed (scripts/test.sh installs it)' % tool)
                sys.exit(1)
            print('SKIP: %s is not installed (scripts/test.sh installs it; '
                  'apt-get install abigail-tools doxygen clang pkg-config g++)' % tool)
            sys.exit(SKIP)
        paths.append(path)
    return paths if len(paths) > 1 else paths[0]


def run(cmd, check=True, quiet=False, **kw):
    """Run a command, capturing its output; on failure print it and exit 1 if check."""
    if not quiet:
        print('$ ' + ' '.join(str(c) for c in cmd), flush=True)
    p = subprocess.run([str(c) for c in cmd], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, universal_newlines=True, **kw)
    if check and p.returncode != 0:
        print(p.stdout)
        fail('%s exited with %d' % (cmd[0], p.returncode))
    return p


def fail(msg):
    print('FAIL: ' + msg, flush=True)
    sys.exit(1)


def built_library(build):
    lib = os.path.join(build, 'lib', 'libiprof.so')
    if not os.path.exists(lib):
        fail('%s does not exist: build the library first (ninja -C %s)' % (lib, build))
    return os.path.realpath(lib)


def soname_of(lib):
    out = run(['readelf', '-d', lib], quiet=True).stdout
    m = re.search(r'\(SONAME\)\s+Library soname: \[([^\]]+)\]', out)
    return m.group(1) if m else None


def baseline_file():
    """The committed baseline, abi/<SONAME>.abi; exactly one must exist."""
    found = sorted(glob.glob(os.path.join(ABI_DIR, 'libiprof.so.*.abi')))
    if len(found) != 1:
        fail('expected exactly one abi/libiprof.so.N.abi, found %s '
             '(scripts/abi-baseline.sh writes it)' % (found or 'none'))
    return found[0]


def baseline_soname(path):
    with open(path) as f:
        m = re.search(r"<abi-corpus [^>]*soname='([^']+)'", f.read())
    return m.group(1) if m else None


def baseline_symbols(path):
    """{name: version} of the functions and variables of an ABI XML file."""
    with open(path) as f:
        text = f.read()
    syms = {}
    for kind in ('function', 'variable'):
        m = re.search(r'<elf-%s-symbols>(.*?)</elf-%s-symbols>' % (kind, kind), text, re.S)
        if not m:
            continue
        for s in re.finditer(r"<elf-symbol name='([^']+)'(?: version='([^']*)')?", m.group(1)):
            syms[s.group(1)] = (kind, s.group(2) or '')
    return syms


def abidw(lib, build, out, src_root=SOURCE_DIR):
    """Describe the ABI of a built libiprof.so (same options as the baseline)."""
    abidw_exe = need('abidw')
    run([abidw_exe, '--no-corpus-path', '--no-comp-dir-path', '--no-show-locs',
         '--drop-undefined-syms', '--no-elf-needed', '--type-id-style', 'hash',
         '--headers-dir', os.path.join(src_root, 'include', 'iprof'),
         '--headers-dir', os.path.join(build, 'include', 'iprof'),
         '--drop-private-types', '--out-file', out, lib])


def has_debug_info(lib):
    return '.debug_info' in run(['readelf', '-S', '-W', lib], quiet=True).stdout


# abidiff's exit status is a bit field (abidiff(1)).
ABIDIFF_ERROR, ABIDIFF_USAGE_ERROR, ABIDIFF_ABI_CHANGE, ABIDIFF_ABI_INCOMPATIBLE_CHANGE = 1, 2, 4, 8


def abidiff(old, new):
    abidiff_exe = need('abidiff')
    p = run([abidiff_exe, '--suppressions', SUPPRESSIONS, '--no-show-locs', old, new], check=False)
    return p.returncode, p.stdout


def _counts(report, title):
    """(removed, changed, added) of a 'TITLE changes summary:' line, 0s if absent."""
    m = re.search(title + r' changes summary: (\d+) Removed[^,]*, (?:(\d+) Changed[^,]*, )?'
                  r'(\d+) Added', report)
    if not m:
        return (0, 0, 0)
    return (int(m.group(1)), int(m.group(2) or 0), int(m.group(3)))


def classify(rc, report):
    """'same', 'additions', 'changed' (needs review: not an addition) or 'incompatible'.

    Bit 3 (incompatible) is what abidiff knows to break every caller (a
    removed symbol). Bit 2 alone (an ABI change) is either pure additions,
    which are compatible, or changes to existing functions and types (a
    changed parameter, a struct member moved or retyped): those break
    callers too and count as incompatible here.
    """
    if rc & (ABIDIFF_ERROR | ABIDIFF_USAGE_ERROR):
        return 'error'
    if rc & ABIDIFF_ABI_INCOMPATIBLE_CHANGE:
        return 'incompatible'
    if rc == 0:
        return 'same'
    removed = changed = 0
    for title in ('Functions', 'Variables', 'Function symbols', 'Variable symbols'):
        r, c, _ = _counts(report, title)
        removed += r
        changed += c
    if removed or changed or re.search(r'^ELF SONAME changed|^ELF architecture changed',
                                       report, re.M):
        return 'incompatible'
    return 'additions'


# lib/platform's files for Windows, which lib/meson.build builds there instead
# of their POSIX pair.
WINDOWS_ONLY = ('win32.c', 'replace_win32.c')


def compile_library(src_root, version_h_dir, out_dir, soname, extra=()):
    """Build lib/**/*.c of src_root into out_dir/libiprof.so with cc, the way
    lib/meson.build does (hidden visibility, version script, -g). For
    throwaway variants in tests; the real library is meson's."""
    os.makedirs(out_dir, exist_ok=True)
    cc = need('cc')
    objs = []
    procs = []
    lib_dirs = sorted(d for d in glob.glob(os.path.join(src_root, 'lib', '*'))
                      if os.path.isdir(d))
    includes = [a for d in lib_dirs for a in ('-I', d)]
    for c in sorted(glob.glob(os.path.join(src_root, 'lib', '**', '*.c'), recursive=True)):
        if os.path.basename(c) in WINDOWS_ONLY:  # lib/meson.build picks them on Windows
            continue
        obj = os.path.join(out_dir, os.path.relpath(c, src_root).replace(os.sep, '_') + '.o')
        objs.append(obj)
        procs.append((c, subprocess.Popen(
            [cc, '-std=c11', '-g', '-O0', '-fPIC', '-fvisibility=hidden', '-DIPROF_BUILDING',
             '-D_POSIX_C_SOURCE=200809L', '-I', os.path.join(src_root, 'include'),
             '-I', version_h_dir, '-I', os.path.join(src_root, 'lib')] + includes + list(extra) +
            ['-c', c, '-o', obj], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            universal_newlines=True)))
    for c, p in procs:
        out, _ = p.communicate()
        if p.returncode != 0:
            print(out)
            fail('compiling %s failed' % c)
    lib = os.path.join(out_dir, 'libiprof.so')
    run([cc, '-shared', '-Wl,-soname,' + soname,
         '-Wl,--version-script=' + os.path.join(src_root, 'lib', 'libiprof.map'),
         '-o', lib] + objs + ['-lm'], quiet=True)
    return lib


# Structs that grow at their end under their version field (docs/abi.md);
# abi/libiprof.abignore hides them from abidiff and versioned_struct_changes()
# checks them.
VERSIONED_STRUCTS = ('iprof_read_options', 'iprof_read_callbacks', 'iprof_write_options',
                     'iprof_filter_options', 'iprof_diff_options', 'iprof_columns',
                     'iprof_merge_options', 'iprof_source', 'iprof_sink', 'iprof_error_info',
                     'iprof_read_result', 'iprof_diff_summary', 'iprof_diff_kind_summary',
                     'iprof_diff_change')


def struct_layouts(abi_xml):
    """{struct: (size in bits, [(offset, member name, type id)])} of VERSIONED_STRUCTS."""
    import xml.etree.ElementTree as ET
    root = ET.parse(abi_xml).getroot()
    by_id = {e.get('id'): e for e in root.iter() if e.get('id')}

    def describe(tid, depth=0):
        # Type ids (even hash-style ones) change when other types are added:
        # compare what they name instead.
        e = by_id.get(tid)
        if e is None or depth > 8:
            return str(tid)
        tag = e.tag.replace('-def', '').replace('-decl', '')
        if e.get('name'):
            return '%s %s' % (tag, e.get('name'))
        quals = ''.join(' ' + q for q in ('const', 'volatile', 'restrict') if e.get(q) == 'yes')
        if e.get('type-id'):
            return '%s%s(%s)' % (tag, quals, describe(e.get('type-id'), depth + 1))
        return '%s %s' % (tag, tid)

    layouts = {}
    for c in root.iter('class-decl'):
        name = c.get('name')
        if name in VERSIONED_STRUCTS and c.get('size-in-bits'):
            members = []
            for dm in c.findall('data-member'):
                v = dm.find('var-decl')
                members.append((int(dm.get('layout-offset-in-bits')), v.get('name'),
                                describe(v.get('type-id'))))
            layouts[name] = (int(c.get('size-in-bits')), members)
    return layouts


def versioned_struct_changes(baseline_abi, current_abi):
    """Problems with the versioned structs: each baseline member must still be
    there at the same offset with the same type; new members only after them."""
    old, new = struct_layouts(baseline_abi), struct_layouts(current_abi)
    problems, notes = [], []
    for name in VERSIONED_STRUCTS:
        if name not in old:
            continue
        if name not in new:
            problems.append('struct %s is gone' % name)
            continue
        (old_size, old_m), (new_size, new_m) = old[name], new[name]
        if new_m[:len(old_m)] != old_m:
            for i, m in enumerate(old_m):
                n = new_m[i] if i < len(new_m) else None
                if n != m:
                    problems.append('struct %s: member %s (offset %d, type %s) is now %s'
                                    % (name, m[1], m[0], m[2],
                                       '%s (offset %d, type %s)' % (n[1], n[0], n[2])
                                       if n else 'missing'))
                    break
        elif len(new_m) > len(old_m):
            notes.append('struct %s grew at its end: %s (%d -> %d bits)'
                         % (name, ', '.join(m[1] for m in new_m[len(old_m):]),
                            old_size, new_size))
        elif new_size != old_size:
            problems.append('struct %s changed size %d -> %d bits' % (name, old_size, new_size))
    return problems, notes


def judge(baseline_abi, current_abi, current_soname):
    """Compare a built library's ABI with a baseline: (passed, verdict, message, report)."""
    rc, report = abidiff(baseline_abi, current_abi)
    verdict = classify(rc, report)
    problems, notes = versioned_struct_changes(baseline_abi, current_abi)
    if problems:
        report += '\nVersioned structs (docs/abi.md):\n  ' + '\n  '.join(problems) + '\n'
        if verdict != 'error':
            verdict = 'incompatible'
    elif notes:
        report += '\nVersioned structs (docs/abi.md):\n  ' + '\n  '.join(notes) + '\n'
        if verdict == 'same':
            verdict = 'additions'
    old_soname = baseline_soname(baseline_abi)
    if verdict == 'error':
        return False, verdict, 'abidiff failed (exit %d)' % rc, report
    if old_soname != current_soname:
        return (False, verdict, 'the SONAME changed from %s to %s: regenerate the baseline on '
                'purpose with scripts/abi-baseline.sh and commit it (docs/abi.md)'
                % (old_soname, current_soname), report)
    if verdict == 'incompatible':
        return (False, verdict, 'incompatible ABI change against the baseline (abidiff exit %d; report above). '
                'Undo it, or make it on purpose: bump iprof_soversion in meson.build, start a new '
                'symbol version node, regenerate the baseline with scripts/abi-baseline.sh '
                '(docs/abi.md)' % rc, report)
    if verdict == 'additions':
        return (True, verdict, 'ABI additions only (compatible; list them in CHANGELOG.md; the '
                'baseline is regenerated at the next release)', report)
    return True, verdict, 'ABI identical to the baseline (after abi/libiprof.abignore)', report

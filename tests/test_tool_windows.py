#!/usr/bin/env python3
"""The iprof command on Windows (the mingw-w64 build, run through meson's
exe_wrapper, wine64): profiles pass through standard output and -o byte for
byte, with no CRLF (tools/main.c sets binary mode), for every corpus file
the native command round trips the same way. Skipped, saying why, without
the corpus."""
import os
import shlex
import subprocess
import sys
import tempfile

build, corpus = os.environ['IPROF_BUILD_DIR'], os.environ['IPROF_CORPUS_DIR']
# meson runs this script natively, so it runs the program as the cross
# file's exe_wrapper does: wine64 in the build directory's WINEPREFIX, the
# DLL's directory on WINEPATH (which meson test gives the C tests).
wrapper = shlex.split(os.environ.get('MESON_EXE_WRAPPER', '')) or ['/usr/lib/wine/wine64']
iprof = [*wrapper, os.path.join(build, 'tools', 'iprof.exe')]
env = dict(os.environ, WINEPATH=os.path.join(build, 'lib'), WINEDEBUG='-all',
           WINEPREFIX=os.environ.get('IPROF_WINEPREFIX', os.path.join(build, 'wineprefix')))


def run(*args):
    return subprocess.run([*iprof, *args], env=env, capture_output=True, timeout=600)


def main():
    if not os.path.isfile(os.path.join(corpus, 'README.md')):
        print('SKIP: no corpus at %s' % corpus)
        return 77
    names = ['jsonata-cli-0.4.0.iprof', 'binary-tree-legacy-0.2.0.iprof']
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            path = os.path.join(corpus, name)
            if not os.path.isfile(path):
                failures.append('%s: not in the corpus' % name)
                continue
            with open(path, 'rb') as f:
                original = f.read()
            p = run('cat', path)
            if p.returncode != 0:
                failures.append('cat %s: exit %d: %s' % (name, p.returncode, p.stderr))
            elif b'\r' in p.stdout or (name.endswith('0.4.0.iprof') and p.stdout != original):
                failures.append('cat %s: standard output is not the file byte for byte' % name)
            out = os.path.join(tmp, name)
            p = run('convert', '-o', out, path)
            if p.returncode != 0 or not os.path.isfile(out):
                failures.append('convert -o %s: exit %d: %s' % (name, p.returncode, p.stderr))
                continue
            with open(out, 'rb') as f:
                written = f.read()
            if b'\r' in written:
                failures.append('convert -o %s: CR in the output' % name)
            if name.endswith('0.4.0.iprof') and written != original:
                failures.append('convert -o %s: not the file byte for byte' % name)
            if [n for n in os.listdir(tmp) if n.startswith('.iprof-')]:
                failures.append('convert -o %s: a temporary file was left' % name)
        # A name no single-byte code page spells: the command's arguments
        # reach the library as UTF-8 (tools/main.c), the library the
        # system as UTF-16.
        wide = os.path.join(tmp, 'caf\u00e9-\u732b.iprof')
        p = run('convert', '-o', wide, os.path.join(corpus, names[0]))
        if p.returncode != 0 or not os.path.isfile(wide):
            failures.append('convert -o %s: exit %d: %s' % (ascii(wide), p.returncode, p.stderr))
        else:
            p = run('validate', wide)
            if p.returncode != 0:
                failures.append('validate %s: exit %d: %s' % (ascii(wide), p.returncode,
                                                             p.stderr))
    for f in failures:
        print('FAIL:', f)
    print('%d files, %d failures' % (len(names), len(failures)))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())

#!/usr/bin/env python3
"""Consumers build against the installed library and run.

1. `meson install --destdir` of the build directory into a temporary root.
2. tests/abi/consumer.c (cc) and tests/abi/consumer.cpp (g++, clang++) are
   built with nothing but `pkg-config --cflags --libs iprof` (pkg-config
   pointed at the root with PKG_CONFIG_LIBDIR and PKG_CONFIG_SYSROOT_DIR):
   linked dynamically (run with LD_LIBRARY_PATH on the installed libdir,
   checked to load the installed library by its SONAME, libiprof.so.N) and statically
   (`cc -static ... $(pkg-config --static ...)`, checked to need no
   libiprof at run time).
3. The old consumer: consumer.c compiled against the headers of the ABI
   baseline (abi/include) and linked against a stand-in library that has
   exactly the baseline's SONAME and versioned symbols (from
   abi/libiprof.so.N.abi) -- the binary a program built against the
   baseline release is -- then run against the newly installed library,
   with LD_BIND_NOW=1 so that every symbol it references must resolve.
"""
import glob
import json
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import abicheck as A  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
WARN = ['-Wall', '-Wextra', '-Wpedantic', '-Werror']


def install(build, root):
    A.run(['meson', 'install', '-C', build, '--no-rebuild', '--destdir', root])
    pcs = glob.glob(os.path.join(root, '**', 'pkgconfig', 'iprof.pc'), recursive=True)
    if len(pcs) != 1:
        A.fail('meson install did not install one iprof.pc: %s' % pcs)
    return os.path.dirname(pcs[0])


def pkg_config(env, *args):
    out = A.run(['pkg-config'] + list(args) + ['iprof'], env=env).stdout.split()
    print('  -> ' + ' '.join(out))
    return out


def needed(exe):
    return re.findall(r'\(NEEDED\)\s+Shared library: \[([^\]]+)\]',
                      A.run(['readelf', '-d', exe], quiet=True).stdout)


def run_consumer(exe, env, expect_lib):
    p = A.run(['ldd', exe], env=env, check=False, quiet=True)
    loaded = re.search(r'libiprof\.so\.\S+ => (\S+)', p.stdout)
    if expect_lib:
        if not loaded or os.path.realpath(loaded.group(1)) != os.path.realpath(expect_lib):
            A.fail('%s does not load the installed %s:\n%s' % (exe, expect_lib, p.stdout))
    elif loaded or any(n.startswith('libiprof') for n in needed(exe)):
        A.fail('%s was to be linked statically but needs libiprof:\n%s' % (exe, p.stdout))
    p = A.run([exe], env=env, check=False)
    print(p.stdout.rstrip())
    if p.returncode != 0 or ': ok' not in p.stdout:
        A.fail('%s failed (exit %d)' % (exe, p.returncode))


def stub_library(baseline, tmp):
    """A library with the baseline's SONAME and versioned symbols (empty bodies)."""
    syms = A.baseline_symbols(baseline)
    soname = A.baseline_soname(baseline)
    d = os.path.join(tmp, 'baseline-stub')
    os.makedirs(d)
    nodes = {}
    with open(os.path.join(d, 'stub.c'), 'w') as f:
        for name, (kind, version) in sorted(syms.items()):
            f.write('void %s(void) {}\n' % name if kind == 'function' else 'int %s;\n' % name)
            nodes.setdefault(version, []).append(name)
    with open(os.path.join(d, 'stub.map'), 'w') as f:
        for version, names in sorted(nodes.items()):
            f.write('%s {\nglobal:\n%s\nlocal: *;\n};\n'
                    % (version, ''.join('    %s;\n' % n for n in names)))
    lib = os.path.join(d, soname)
    A.run([A.need('cc'), '-shared', '-fPIC', '-Wl,-soname,' + soname,
           '-Wl,--version-script=' + os.path.join(d, 'stub.map'), '-o', lib,
           os.path.join(d, 'stub.c')])
    os.symlink(soname, os.path.join(d, 'libiprof.so'))
    return d, syms


def check_command_rpath(build, root):
    """The installed iprof finds its library under any prefix but /usr: its
    RUNPATH is the installed libdir (the dynamic linker searches /usr's)."""
    opts = {o['name']: o['value'] for o in json.loads(A.run(
        ['meson', 'introspect', build, '--buildoptions'], quiet=True).stdout)}
    prefix, libdir = opts['prefix'], opts['libdir']
    exe = os.path.join(root + prefix, opts['bindir'], 'iprof')
    dyn = A.run(['readelf', '-d', exe], quiet=True).stdout
    paths = re.findall(r'\((?:RUNPATH|RPATH)\)\s+Library (?:runpath|rpath): \[(.*)\]', dyn)
    want = [] if prefix in ('/usr', '/') else [os.path.join(prefix, libdir)]
    if paths != want:
        A.fail('installed iprof: run paths %s, want %s' % (paths, want))
    print('installed iprof: run path %s' % (want or 'none (system prefix)'))


def main():
    build = A.build_dir()
    cc, cxx, clangxx = A.need('cc', 'g++', 'clang++')
    A.need('pkg-config', 'meson', 'readelf', 'ldd')
    with tempfile.TemporaryDirectory(prefix='iprof-consumers-') as tmp:
        root = os.path.join(tmp, 'root')
        pcdir = install(build, root)
        env = dict(os.environ, PKG_CONFIG_LIBDIR=pcdir, PKG_CONFIG_SYSROOT_DIR=root)
        env.pop('PKG_CONFIG_PATH', None)
        cflags_libs = pkg_config(env, '--cflags', '--libs')
        static_flags = pkg_config(env, '--cflags', '--libs', '--static')
        soname = A.soname_of(A.built_library(build))
        libdirs = [f[2:] for f in cflags_libs if f.startswith('-L')]
        if not libdirs or not os.path.exists(os.path.join(libdirs[0], soname)):
            A.fail('pkg-config --libs does not point at the installed %s: %s'
                   % (soname, cflags_libs))
        installed = os.path.join(libdirs[0], soname)
        run_env = dict(os.environ, LD_LIBRARY_PATH=libdirs[0], LD_BIND_NOW='1')

        builds = [
            ('C, dynamic', [cc, '-std=c11'] + WARN + [os.path.join(HERE, 'consumer.c')]
             + cflags_libs, installed),
            ('C, static', [cc, '-std=c11', '-static'] + WARN +
             [os.path.join(HERE, 'consumer.c')] + static_flags, None),
            ('C++ (g++), dynamic', [cxx, '-std=c++17'] + WARN +
             [os.path.join(HERE, 'consumer.cpp')] + cflags_libs, installed),
            ('C++ (g++), static', [cxx, '-std=c++17', '-static'] + WARN +
             [os.path.join(HERE, 'consumer.cpp')] + static_flags, None),
            ('C++ (clang++), dynamic', [clangxx, '-std=c++17'] + WARN +
             [os.path.join(HERE, 'consumer.cpp')] + cflags_libs, installed),
        ]
        for i, (name, cmd, expect) in enumerate(builds):
            print('== %s' % name)
            exe = os.path.join(tmp, 'consumer%d' % i)
            A.run(cmd + ['-o', exe])
            run_consumer(exe, run_env, expect)

        print('== old consumer: built against the baseline, run against the new library')
        baseline = A.baseline_file()
        stub_dir, syms = stub_library(baseline, tmp)
        old = os.path.join(tmp, 'old-consumer')
        A.run([cc, '-std=c11'] + WARN + ['-I' + A.BASELINE_HEADERS,
                                          os.path.join(HERE, 'consumer.c'),
                                          '-L' + stub_dir, '-liprof', '-o', old])
        refs = A.run(['nm', '-D', '--undefined-only', old], quiet=True).stdout
        versioned = re.findall(r'(iprof_\w+)@(\w+)', refs)
        if not versioned or any(syms.get(n, (None, None))[1] != v for n, v in versioned):
            A.fail('the old consumer does not reference the baseline\'s versioned symbols:\n'
                   + refs)
        print('old consumer references %d baseline symbols (%s)'
              % (len(versioned), ', '.join(sorted({v for _, v in versioned}))))
        run_consumer(old, run_env, installed)
        check_command_rpath(build, root)
    print('PASS')


if __name__ == '__main__':
    main()

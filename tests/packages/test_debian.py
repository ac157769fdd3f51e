#!/usr/bin/env python3
"""The Debian packages (debian/), built and used as a Debian user would.

1. The tracked source tree is copied to a temporary directory (the build
   writes its .deb files beside the tree, never beside the checkout) and
   the commands of README.md's install:apt block run there, as written
   (tests/packages/readme.py; as root its `$sudo` is empty): build dependencies,
   `dpkg-buildpackage -us -uc -b` (DEB_BUILD_OPTIONS=nocheck: the suite
   runs the tests) and `apt-get install ../*.deb` -- the apt-get lines only
   when installing is allowed (4.).
2. `lintian --fail-on error` on the packages.
3. What each package holds: the library by its SONAME, the headers, static
   library and iprof.pc, the command and its man page, the bindings.
   libiprof-java needs a JDK 22 or later to build (bindings/java/build.sh
   finds one through JAVA_HOME or /usr/lib/jvm; Debian 12 has none): without
   one the packages are built with DEB_BUILD_PROFILES=nojava and the test
   says that libiprof-java was skipped.
4. Installed by the README's `apt-get install` on this machine when it runs
   as root with apt and none of the packages is installed yet -- removed
   again with `apt-get purge` whatever happens -- or else unpacked with
   `dpkg -x` into a throwaway root. Then, with nothing of the build directory in the
   environment: `iprof --version`, a consumer (tests/abi/consumer.c) built
   with pkg-config alone and run, a Python import that loads
   libiprof.so.1 by its SONAME and reads examples/fib.iprof, and the Java
   example of docs/bindings.md compiled against the installed jar and run,
   finding libiprof.so.1 by its SONAME, printing what `iprof stats` says.

meson runs it alone (is_parallel: false): while the packages are installed,
no other test may find the system copy instead of the build's.
"""
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', 'abi'))
sys.path.insert(0, HERE)
import abicheck as A  # noqa: E402
import readme  # noqa: E402

SRC = readme.SOURCE
PACKAGES = ['libiprof1', 'libiprof-dev', 'iprof', 'python3-iprof']
FIB = os.path.join(SRC, 'examples', 'fib.iprof')


def find_jdk():
    """The JDK 22+ bindings/java/build.sh would use, or None."""
    p = subprocess.run(['sh', os.path.join(SRC, 'bindings', 'java', 'build.sh'), 'jdk'],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
    if p.returncode != 0:
        print(p.stderr.strip() + ': libiprof-java is not built (DEB_BUILD_PROFILES=nojava)')
        return None
    return p.stdout.strip()


JDK = find_jdk()
if JDK:
    PACKAGES.append('libiprof-java')


def build(tmp, install):
    """The README's apt block in a copy of the tree: the .deb files, by name."""
    src = os.path.join(tmp, 'libiprof-' + readme.project_version())
    readme.copy_tree(src)
    env = dict(os.environ, DEB_BUILD_OPTIONS='nocheck parallel=%d' % (os.cpu_count() or 1),
               DEBIAN_FRONTEND='noninteractive', LIBIPROF=src)
    if JDK:
        env['JAVA_HOME'] = JDK
    else:
        env['DEB_BUILD_PROFILES'] = 'nojava'
    for k in ('IPROF_LIBRARY', 'LD_LIBRARY_PATH', 'PKG_CONFIG_PATH', 'CFLAGS', 'LDFLAGS'):
        env.pop(k, None)
    # -y: the README's lines ask; the test answers.
    env['APT_CONFIG'] = os.path.join(tmp, 'apt.conf')
    with open(env['APT_CONFIG'], 'w') as f:
        f.write('APT::Get::Assume-Yes "true";\n')
    skip = () if install else ('apt-get',)
    if not JDK:
        skip += ('apt-get install ../libiprof-java',)
    readme.run_block('apt', src, env, skip=skip)
    debs = {}
    for name in PACKAGES:
        found = glob.glob(os.path.join(tmp, '%s_%s_*.deb' % (name, readme.project_version())))
        if len(found) != 1:
            A.fail('dpkg-buildpackage made %s for %s' % (found, name))
        debs[name] = found[0]
    return debs


def contents(deb):
    p = subprocess.run('dpkg-deb --fsys-tarfile "%s" | tar -t' % deb, shell=True,
                       stdout=subprocess.PIPE, universal_newlines=True, check=True)
    return [l[1:] if l.startswith('.') else l for l in p.stdout.split() if not l.endswith('/')]


def check_contents(debs):
    v = readme.project_version()
    want = {
        'libiprof1': [r'/usr/lib/[^/]+/libiprof\.so\.1$', r'/usr/lib/[^/]+/libiprof\.so\.%s$'
                      % re.escape(v)],
        'libiprof-dev': [r'/usr/include/iprof/iprof\.h$', r'/usr/lib/[^/]+/libiprof\.a$',
                         r'/usr/lib/[^/]+/libiprof\.so$', r'/usr/lib/[^/]+/pkgconfig/iprof\.pc$'],
        'iprof': [r'/usr/bin/iprof$', r'/usr/share/man/man1/iprof\.1\.gz$',
                  r'/usr/share/bash-completion/completions/iprof$'],
        'python3-iprof': [r'/usr/lib/python3/dist-packages/iprof/__init__\.py$',
                          r'/usr/lib/python3/dist-packages/iprof/_lib\.py$'],
        'libiprof-java': [r'/usr/share/java/iprof-%s\.jar$' % re.escape(v),
                          r'/usr/share/java/iprof\.jar$'],
    }
    for name, patterns in want.items():
        if name not in debs:
            continue
        files = contents(debs[name])
        for pat in patterns:
            if not any(re.match(pat, f) for f in files):
                A.fail('%s lacks %s; it holds:\n  %s' % (name, pat, '\n  '.join(files)))
        # One package per file: the library is only in libiprof1, and so on.
        if name != 'libiprof1' and any('libiprof.so.1' in f for f in files):
            A.fail('%s holds the shared library too' % name)
    print('contents: every package holds its files')
    headers = [f for f in contents(debs['libiprof-dev']) if f.startswith('/usr/include/iprof/')]
    ours = sorted(os.path.basename(h) for h in headers)
    if ours != sorted(A.PUBLIC_HEADERS):
        A.fail('libiprof-dev headers %s, the public headers are %s' % (ours, A.PUBLIC_HEADERS))


def installed_before():
    return [p for p in PACKAGES if subprocess.run(
        ['dpkg-query', '-W', '-f=${Status}', p], stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL, universal_newlines=True).stdout.startswith('install ok')]


def clean_env(extra=None):
    env = {k: v for k, v in os.environ.items()
           if k not in ('IPROF_LIBRARY', 'LD_LIBRARY_PATH', 'PKG_CONFIG_PATH',
                        'PKG_CONFIG_LIBDIR', 'PKG_CONFIG_SYSROOT_DIR', 'PYTHONPATH')}
    env.update(extra or {})
    return env


def use(root, tmp):
    """The installed packages, from a user's shell: root is '' for a real
    installation, else the directory they were unpacked into."""
    libdir = glob.glob(root + '/usr/lib/*/libiprof.so.1')
    if len(libdir) != 1:
        A.fail('no libiprof.so.1 under %s/usr/lib' % root)
    lib = os.path.realpath(libdir[0])
    env = clean_env()
    if root:
        pcdir = glob.glob(root + '/usr/lib/*/pkgconfig')[0]
        env.update(LD_LIBRARY_PATH=os.path.dirname(libdir[0]), PKG_CONFIG_LIBDIR=pcdir,
                   PKG_CONFIG_SYSROOT_DIR=root,
                   PYTHONPATH=root + '/usr/lib/python3/dist-packages')
    iprof = root + '/usr/bin/iprof'
    p = A.run([iprof, '--version'], env=env, cwd=tmp)
    if p.stdout.strip() != 'iprof (libiprof) %s' % readme.project_version():
        A.fail('iprof --version printed %r' % p.stdout)
    p = A.run([iprof, 'stats', FIB], env=env, cwd=tmp)
    if 'version' not in p.stdout:
        A.fail('iprof stats printed %r' % p.stdout)

    flags = A.run(['pkg-config', '--cflags', '--libs', 'iprof'], env=env).stdout.split()
    exe = os.path.join(tmp, 'consumer')
    A.run([A.need('cc'), '-std=c11', '-Wall', '-Wextra', '-Wpedantic', '-Werror',
           os.path.join(SRC, 'tests', 'abi', 'consumer.c')] + flags + ['-o', exe], env=env)
    p = A.run([exe], env=env, cwd=tmp, check=False)
    if p.returncode != 0 or ': ok' not in p.stdout:
        A.fail('the consumer failed (exit %d): %s' % (p.returncode, p.stdout))
    ldd = A.run(['ldd', exe], env=env, quiet=True).stdout
    m = re.search(r'libiprof\.so\.1 => (\S+)', ldd)
    if not m or os.path.realpath(m.group(1)) != lib:
        A.fail('the consumer does not load the packaged %s:\n%s' % (lib, ldd))
    print('consumer: built with pkg-config alone, loads %s' % lib)

    # The binding finds the library by its SONAME (no IPROF_LIBRARY) and
    # imports from the package, not from the checkout.
    script = ('import iprof, sys\n'
              'm = iprof.load(sys.argv[1])\n'
              'maps = open("/proc/self/maps").read()\n'
              'libs = sorted({l.split()[-1] for l in maps.splitlines() if "libiprof.so" in l})\n'
              'print(iprof.__file__)\n'
              'print(" ".join(libs))\n'
              'print(m.version, len(m.types), len(m.methods))\n')
    p = A.run(['/usr/bin/python3', '-c', script, FIB], env=env, cwd=tmp)
    lines = p.stdout.splitlines()
    if len(lines) != 3 or not lines[0].startswith(root + '/usr/lib/python3/dist-packages/iprof/'):
        A.fail('python3 imported iprof from elsewhere: %r' % p.stdout)
    if [os.path.realpath(x) for x in lines[1].split()] != [lib]:
        A.fail('python3 loaded %r, not the packaged %s' % (lines[1], lib))
    stats = json.loads(A.run([iprof, 'stats', '--json', FIB], env=env, quiet=True).stdout)
    want = '%s %d %d' % (stats['version'], stats['types'], stats['methods'])
    if lines[2] != want or want != '1.1.0 17 10':
        A.fail('python3 read %r; iprof stats says %r (both should be 1.1.0 17 10)'
               % (lines[2], want))
    print('python3: iprof from %s loads %s and reads %s' % (lines[0], lines[1], lines[2]))
    if JDK:
        java(root, tmp, env, stats)


def java(root, tmp, env, stats):
    """docs/bindings.md's Java example against the installed jar, as a user builds it."""
    jar = root + '/usr/share/java/iprof.jar'
    example = os.path.join(SRC, 'bindings', 'java', 'examples', 'MergeHottest.java')
    classes = os.path.join(tmp, 'java-classes')
    A.run([JDK + '/bin/javac', '-p', jar, '--add-modules', 'org.libiprof', '-d', classes, example],
          env=env)
    out = os.path.join(tmp, 'merged.iprof')
    p = A.run([JDK + '/bin/java', '--enable-native-access=org.libiprof', '-p', jar, '--add-modules',
               'org.libiprof', '-cp', classes, 'MergeHottest', out, FIB, '1'],
              env=env, cwd=tmp)
    # No IPROF_LIBRARY in env: the binding finds libiprof.so.1 through the dynamic loader.
    line = 'version %s: %d types, %d methods, %d call counts' % (
        stats['version'], stats['types'], stats['methods'], stats['entries']['callCountProfiles'])
    if line not in p.stdout.splitlines():
        A.fail('the Java example against %s printed %r, not %r' % (jar, p.stdout, line))
    print('java: the example compiled against %s reads %s' % (jar, line))


def purge():
    A.run(['apt-get', 'purge', '-y', '-q'] + PACKAGES,
          env=dict(os.environ, DEBIAN_FRONTEND='noninteractive'))
    if installed_before():
        A.fail('apt-get purge left %s installed' % installed_before())


def check_packages(debs):
    print('built: ' + ' '.join(os.path.basename(d) for d in debs.values()))
    p = A.run(['lintian', '--fail-on', 'error'] + list(debs.values()), check=False)
    print(p.stdout)
    if p.returncode != 0 or re.search(r'^E: ', p.stdout, re.M):
        A.fail('lintian found errors')
    check_contents(debs)


def main():
    A.need('dpkg-buildpackage', 'dh', 'dh_python3', 'lintian', 'dpkg-deb', 'pkg-config', 'cc')
    if not os.path.exists('/usr/bin/python3'):
        A.fail('no /usr/bin/python3 (python3-iprof is for Debian\'s python3)')
    before = installed_before()
    install = os.geteuid() == 0 and shutil.which('apt-get') and not before
    with tempfile.TemporaryDirectory(prefix='iprof-debian-') as tmp:
        work = os.path.join(tmp, 'work')
        os.makedirs(work)
        if install:
            print('== installing with apt-get as README.md says (removed at the end)')
            try:
                debs = build(tmp, True)
                check_packages(debs)
                use('', work)
            finally:
                purge()
        else:
            why = ('already installed: %s' % ' '.join(before)) if before else 'not root'
            print('== unpacking with dpkg -x into a throwaway root (%s)' % why)
            debs = build(tmp, False)
            check_packages(debs)
            root = os.path.join(tmp, 'root')
            for n in PACKAGES:
                A.run(['dpkg-deb', '-x', debs[n], root])
            use(root, work)
    print('1 passed, 0 failed')


if __name__ == '__main__':
    main()

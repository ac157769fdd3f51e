#!/usr/bin/env python3
"""README.md's install blocks, run exactly as written, into a real system.

Every ```sh block of README.md's "Installing" (tests/packages/readme.py)
and the block that builds and runs the C example (run:hello) are run
verbatim with sh -e, each in a throwaway root (tests/packages/throwaway.py:
an overlay over / in a private mount namespace, chrooted into), so that
/usr/local, /usr, /etc/ld.so.cache and apt's database are written for real
while this machine stays as it was:

1. as root on a system without sudo: from source, then the C example
   built with pkg-config and run, the Rust block, the pip block and the
   Java block (JAVA_HOME set to the JDK 22+ bindings/java/build.sh finds);
2. as a user with passwordless sudo: the same, the Java block without
   JAVA_HOME when build.sh finds that JDK under /usr/lib/jvm anyway;
3. as that user, in a fresh root: the Debian packages (libiprof-java too),
   then the C example, Debian's python3 importing the packaged binding and
   a Java program on /usr/share/java/iprof.jar.
Without a JDK 22 or later the Java block is skipped and the Debian
packages are built with DEB_BUILD_PROFILES=nojava, saying so.

A root shell keeps this test's PATH (on a machine with pyenv, its python3
comes first, as for the README's reader); the user gets a login PATH and,
when rustup lives in root's home, its toolchains. After the blocks: the
files land where README.md says, the installed `iprof` runs, the example's
output is the one README.md shows, the new crate uses iprof for real, the
venv's binding and the jar load the installed libiprof.so.1 by its SONAME,
and the Java example prints what docs/bindings.md shows and writes the
bytes `iprof merge` writes.
Skipped, saying why, when not root or without unshare or overlayfs.
"""
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', 'abi'))
sys.path.insert(0, HERE)
import abicheck as A  # noqa: E402
import readme  # noqa: E402
import throwaway  # noqa: E402

USER = 'newcomer'
VERSION = readme.project_version()
MAIN_RS = '''use iprof::Reader;

fn main() {
    let model = Reader::new().unwrap().load_path("%s").unwrap();
    println!("{} {} {}", model.version(), model.type_count(), model.method_count());
}
'''
PACKAGES = ['libiprof1', 'libiprof-dev', 'iprof', 'python3-iprof', 'libiprof-java']
# A Java program of the reader's: what it reads, and which jar and libiprof
# the JVM loaded.
PROBE_JAVA = '''import java.nio.file.Files;
import java.nio.file.Path;
import java.util.TreeSet;
import org.libiprof.Model;

public class Probe {
    public static void main(String[] args) throws Exception {
        try (Model m = Model.load(Path.of(args[0]))) {
            System.out.println(m.version() + " " + m.typeCount() + " " + m.methodCount());
        }
        System.out.println(Model.class.getProtectionDomain().getCodeSource().getLocation().getPath());
        TreeSet<String> libs = new TreeSet<>();
        for (String line : Files.readAllLines(Path.of("/proc/self/maps"))) {
            if (line.contains("libiprof.so")) {
                libs.add(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        System.out.println(String.join(" ", libs));
    }
}
'''


def find_jdk(env):
    """The JDK 22+ bindings/java/build.sh finds with `env`, or None (its
    SKIP line printed)."""
    p = subprocess.run(['sh', os.path.join(readme.SOURCE, 'bindings', 'java', 'build.sh'), 'jdk'],
                       env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True)
    if p.returncode != 0:
        print(p.stderr.strip(), flush=True)
        return None
    return p.stdout.strip()


def docs_java_output():
    """The output docs/bindings.md shows for MergeHottest.java on fib.iprof
    with weights 2 and 1."""
    with open(os.path.join(readme.SOURCE, 'docs', 'bindings.md')) as f:
        m = re.search(r'MergeHottest\.java merged\.iprof\s+examples/fib\.iprof 2 examples/fib\.iprof 1`\),'
                      r' it prints:\n\n```\n(.*?)```\n', f.read(), re.S)
    if not m:
        A.fail('docs/bindings.md shows no output of MergeHottest.java on fib.iprof x 2, x 1')
    return m.group(1)


class Session:
    """One throwaway root and who runs the blocks in it."""

    def __init__(self, base, name, as_root, jdk=None):
        self.name = name
        self.t = throwaway.ThrowawayRoot(base, name)
        # The test answers apt's questions (a reader answers at the terminal).
        with open(self.t.path('/etc/apt/apt.conf.d/99iprof-test'), 'w') as f:
            f.write('APT::Get::Assume-Yes "true";\n')
        cargo = shutil.which('cargo')
        if as_root:
            self.t.remove_sudo()
            if self.t.run(['sh', '-c', 'command -v sudo'], env={'PATH': '/usr/bin:/bin'}).stdout:
                A.fail('%s: sudo is still there' % name)
            self.user, uid, gid, self.home = None, 0, 0, '/root'
            path = os.environ.get('PATH', '/usr/sbin:/usr/bin:/sbin:/bin')
            self.env = {'HOME': '/root', 'USER': 'root', 'LOGNAME': 'root', 'PATH': path}
            for k in ('PYENV_ROOT', 'RUSTUP_HOME', 'CARGO_HOME'):
                if k in os.environ:
                    self.env[k] = os.environ[k]
        else:
            self.user = USER
            uid, gid, self.home = self.t.add_sudoer(USER)
            path = '/usr/local/bin:/usr/bin:/bin'
            self.env = {'HOME': self.home, 'USER': USER, 'LOGNAME': USER}
            if cargo and os.path.realpath(cargo).startswith('/root/'):
                # rustup in root's home: its toolchains, readable by the user.
                os.chmod(self.t.path('/root'), 0o755)
                self.env['RUSTUP_HOME'] = os.environ.get('RUSTUP_HOME', '/root/.rustup')
                path = os.path.dirname(cargo) + ':' + path
            self.env['PATH'] = path
        if jdk:
            self.env['JAVA_HOME'] = jdk
        self.env.update(LANG='C.UTF-8', DEB_BUILD_OPTIONS='nocheck parallel=%d'
                        % (os.cpu_count() or 1), DEBIAN_FRONTEND='noninteractive')
        self.clean()
        # The checkout, as a reader's clone: theirs, in their home.
        self.src = os.path.join(self.home, 'src', 'libiprof-' + VERSION)
        readme.copy_tree(self.t.path(self.src))
        for d, dirs, files in os.walk(self.t.path(os.path.join(self.home, 'src'))):
            for n in [d] + [os.path.join(d, x) for x in dirs + files]:
                os.lchown(n, uid, gid)
        self.env['LIBIPROF'] = self.src
        who = 'root, no sudo' if as_root else '%s, with sudo' % USER
        print('== %s: a throwaway root (%s), PATH=%s' % (name, who, self.env['PATH']), flush=True)
        py = self.sh('command -v python3 || true').strip()
        print('   python3 on PATH: %s' % (py or 'none'), flush=True)

    def clean(self):
        """A system without libiprof, whatever this machine has installed (the
        lower layer is the live /): a leftover would pass for what a block
        installs, and a cache entry of ldconfig's for what ldconfig adds."""
        found = [p for p in PACKAGES if self.t.run(
            ['dpkg-query', '-W', '-f=${Status}', p]).stdout.startswith('install ok')]
        if found:
            self.t.run(['dpkg', '--purge'] + found)
        gone = []
        for pattern in ('/usr/local/lib/*/libiprof*', '/usr/local/lib/libiprof*',
                        '/usr/local/lib/*/pkgconfig/iprof.pc', '/usr/local/include/iprof',
                        '/usr/local/bin/iprof', '/usr/lib/*/libiprof*',
                        '/usr/share/java/iprof*.jar'):
            for f in glob.glob(self.t.path(pattern)):
                gone.append(f)
                shutil.rmtree(f) if os.path.isdir(f) and not os.path.islink(f) else os.remove(f)
        if found or gone:
            print('   removed what this machine had installed: %s'
                  % ' '.join(found + [f[len(self.t.root):] for f in gone]), flush=True)
        self.t.run(['ldconfig'])

    def sh(self, script, cwd=None, check=True):
        p = self.t.run(['sh', '-c', script], self.user, self.env, cwd or self.home)
        if check and p.returncode != 0:
            A.fail('%s: `%s` exited with %d:\n%s%s'
                   % (self.name, script, p.returncode, p.stdout, p.stderr))
        return p.stdout

    def block(self, name, cwd, skip=None):
        """Run README.md's block `name` as written (sh -e -x); its stdout.
        The line starting with `skip` (the Java package without a JDK 22+)
        is shown, not run."""
        text = readme.block_text(name)
        if skip:
            if text.count('\n' + skip) != 1:
                A.fail('README.md %s has no line %s' % (name, skip))
            print('(not run here) $ ' + skip, flush=True)
            text = text.replace('\n' + skip, '\n: ' + skip)
        script = '/tmp/readme-%s.sh' % name.replace(':', '-')
        with open(self.t.path(script), 'w') as f:
            f.write(text)
        os.chmod(self.t.path(script), 0o644)
        print('$ ' + text.rstrip('\n').replace('\n', '\n$ '), flush=True)
        started = time.time()
        p = self.t.run(['sh', '-e', '-x', script], self.user, self.env, cwd)
        took = time.time() - started
        tail = (p.stdout + p.stderr)[-3000:]
        if p.returncode != 0:
            print(p.stdout[-3000:] + p.stderr[-3000:])
            A.fail('%s: README.md %s exited with %d as written' % (self.name, name, p.returncode))
        print('   ok, %.0f s; its output ends: ...%s'
              % (took, tail[-160:].replace('\n', '\n      ')), flush=True)
        return p.stdout

    def close(self):
        self.t.close()


def check_hello(s, libdir):
    """The C example, built and run as README.md says, prints what README.md
    shows and loads the library installed in libdir."""
    out = s.block('run:hello', s.src)
    if out != readme.output_after('run:hello'):
        A.fail('%s: the example printed\n%s\nREADME.md shows\n%s'
               % (s.name, out, readme.output_after('run:hello')))
    ldd = s.sh('ldd ./hello', cwd=s.src)
    m = re.search(r'libiprof\.so\.1 => (\S+)', ldd)
    # /lib is /usr/lib on Debian 12: the same directory, by any name.
    if not m or s.sh('readlink -f %s' % os.path.dirname(m.group(1))) != \
            s.sh('readlink -f %s' % libdir):
        A.fail('%s: ./hello does not load libiprof.so.1 from %s:\n%s' % (s.name, libdir, ldd))
    print('   the C example runs, loading %s' % m.group(1), flush=True)


def from_source(s):
    s.block('install:source', s.src)
    libs = glob.glob(s.t.path('/usr/local/lib/*/libiprof.so.1'))
    if len(libs) != 1:
        A.fail('%s: no /usr/local/lib/*/libiprof.so.1 after the source install' % s.name)
    libdir = '/' + os.path.relpath(os.path.dirname(libs[0]), s.t.root)
    for f in ['/usr/local/include/iprof/iprof.h', '/usr/local/share/man/man1/iprof.1',
              '/usr/local/share/bash-completion/completions/iprof',
              libdir + '/pkgconfig/iprof.pc', libdir + '/libiprof.a']:
        if not os.path.exists(s.t.path(f)):
            A.fail('%s: meson install did not install %s' % (s.name, f))
    where = s.sh('command -v iprof; iprof --version').split('\n')
    if where[:2] != ['/usr/local/bin/iprof', 'iprof (libiprof) %s' % VERSION]:
        A.fail('%s: iprof on PATH: %r' % (s.name, where))
    check_hello(s, libdir)
    return libdir


def cargo(s):
    out = s.block('install:cargo', s.home)
    if out.strip().splitlines()[-1:] != ['Hello, world!']:
        A.fail('%s: cargo run printed %r' % (s.name, out))
    # The new crate uses iprof: a main.rs of the reader's, run again.
    crate = os.path.join(s.home, 'myprof')
    with open(s.t.path(crate + '/src/main.rs'), 'w') as f:
        f.write(MAIN_RS % os.path.join(s.src, 'examples', 'fib.iprof'))
    out = s.sh('cargo run --offline -q', cwd=crate)
    if out.split() != ['1.1.0', '17', '10']:
        A.fail('%s: the Rust program printed %r' % (s.name, out))
    print('   a new crate with iprof reads examples/fib.iprof: %s' % out.strip(), flush=True)


def pip(s, libdir):
    out = s.block('install:pip', s.home)
    if out.strip().splitlines()[-1:] != [VERSION]:
        A.fail('%s: the venv\'s iprof printed %r' % (s.name, out))
    script = ('import iprof, sys; m = iprof.load(sys.argv[1]); print(iprof.__file__); '
              'print(" ".join(sorted({l.split()[-1] for l in open("/proc/self/maps")'
              ' if "libiprof.so" in l}))); print(m.version, len(m.types), len(m.methods))')
    lines = s.sh('~/.venvs/iprof/bin/python -c \'%s\' "$LIBIPROF/examples/fib.iprof"'
                 % script).splitlines()
    if not lines[0].startswith(s.home + '/.venvs/iprof/'):
        A.fail('%s: the venv imported iprof from %s' % (s.name, lines[0]))
    real = s.sh('readlink -f %s/libiprof.so.1' % libdir).strip()
    if lines[1:] != [real, '1.1.0 17 10']:
        A.fail('%s: the venv\'s iprof loaded and read %r, not %s' % (s.name, lines[1:], real))
    print('   the venv\'s iprof loads %s' % real, flush=True)


def java_probe(s, jar, libdir):
    """A Java program on `jar` reads examples/fib.iprof through the
    libiprof.so.1 installed in libdir, found by its SONAME."""
    with open(s.t.path('/tmp/Probe.java'), 'w') as f:
        f.write(PROBE_JAVA)
    lines = s.sh('"$JAVA_HOME/bin/java" --enable-native-access=org.libiprof -p %s '
                 '--add-modules org.libiprof /tmp/Probe.java "$LIBIPROF/examples/fib.iprof"'
                 % jar).splitlines()
    real = s.sh('readlink -f %s/libiprof.so.1' % libdir).strip()
    if lines != ['1.1.0 17 10', jar, real]:
        A.fail('%s: a Java program on %s read, from the jar and library, %r, not %s'
               % (s.name, jar, lines, real))
    print('   a Java program on %s loads %s' % (jar, real), flush=True)


def java(s, libdir):
    """README.md's Java block: the jar built under ~, the docs' example run
    with it (fib.iprof x 2, x 1), printing what docs/bindings.md shows and
    writing what `iprof merge` writes."""
    out = s.block('install:java', s.src)
    jar = '%s/iprof-java/iprof-%s.jar' % (s.home, VERSION)
    want = 'built %s\n' % jar + docs_java_output()
    if out != want:
        A.fail('%s: the Java block printed\n%s\nnot\n%s' % (s.name, out, want))
    fib = '"$LIBIPROF/examples/fib.iprof"'
    if s.sh('iprof merge -w %s=3 %s | cmp - merged.iprof && echo same' % (fib, fib),
            cwd=s.src) != 'same\n':
        A.fail('%s: the Java example\'s merged.iprof is not what iprof merge writes' % s.name)
    print('   the Java example prints what docs/bindings.md shows and writes what '
          'iprof merge writes', flush=True)
    if 'JAVA_HOME' not in s.env:
        s.env['JAVA_HOME'] = find_jdk({'PATH': os.environ.get('PATH', '/usr/bin:/bin')})
    java_probe(s, jar, libdir)


def debian(s, jdk):
    packages = PACKAGES if jdk else PACKAGES[:-1]
    if not jdk:
        print('   libiprof-java is not built (no JDK 22 or later): DEB_BUILD_PROFILES=nojava',
              flush=True)
        s.env['DEB_BUILD_PROFILES'] = 'nojava'
    s.block('install:apt', s.src, skip=None if jdk else '$sudo apt-get install ../libiprof-java')
    status = s.sh('dpkg-query -W -f=\'${Package} ${Status}\\n\' %s' % ' '.join(packages))
    if sorted(status.split('\n')[:len(packages)]) != \
            sorted('%s install ok installed' % p for p in packages):
        A.fail('%s: after the apt block: %s' % (s.name, status))
    where = s.sh('command -v iprof; iprof --version').split('\n')
    if where[:2] != ['/usr/bin/iprof', 'iprof (libiprof) %s' % VERSION]:
        A.fail('%s: iprof on PATH: %r' % (s.name, where))
    libdir = os.path.dirname(s.sh('dpkg -L libiprof1 | grep "/libiprof.so.1$"').strip())
    check_hello(s, libdir)
    out = s.sh('cd /tmp && /usr/bin/python3 -c "import iprof; print(iprof.__file__, '
               'iprof.library_version())"')
    if out.split() != ['/usr/lib/python3/dist-packages/iprof/__init__.py', VERSION]:
        A.fail('%s: Debian\'s python3 imports %r' % (s.name, out))
    if jdk:
        s.env['JAVA_HOME'] = jdk
        java_probe(s, '/usr/share/java/iprof.jar', libdir)
    print('   the packages are installed and used', flush=True)


def main():
    # Every install block of README.md is run here: a new way needs its
    # session (and test_debian runs the Debian block as root too).
    ways = set(re.findall(r'^<!-- install:(\S+) -->$', readme.text(), re.M))
    if ways != {'apt', 'source', 'cargo', 'pip', 'java'}:
        A.fail('README.md\'s install blocks are %s; this test runs apt, source, cargo, pip and java'
               % ', '.join(sorted(ways)))
    why = throwaway.why_not()
    if why:
        print('SKIP: ' + why)
        sys.exit(throwaway.SKIP)
    A.need('meson', 'ninja', 'pkg-config', 'cc', 'cargo', 'sudo', 'runuser', 'dpkg-buildpackage')
    if not os.path.exists('/usr/bin/python3'):
        A.fail('no /usr/bin/python3')
    if not os.environ.get(throwaway.ENV_MARK):
        base = tempfile.mkdtemp(prefix='iprof-install-')
        try:
            throwaway.enter_namespace(base)
        finally:
            os.rmdir(base)
    base = throwaway.enter_namespace(None)
    subprocess.run(['mount', '-t', 'tmpfs', 'tmpfs', base], check=True)
    # The reader's JDK: JAVA_HOME names it for root; the user sets none when
    # build.sh finds the same one under /usr/lib/jvm (README.md says either).
    jdk = find_jdk(dict(os.environ))
    if not jdk:
        print('SKIP the Java block: no JDK 22 or later', flush=True)
    plain = {k: v for k, v in os.environ.items() if k != 'JAVA_HOME'}
    user_jdk = None if jdk and find_jdk(plain) == jdk else jdk
    only = os.environ.get('IPROF_INSTALL_ONLY')  # by hand: one session, to try it
    for name, as_root, ways, java_home in [
            ('root', True, ('source', 'cargo', 'pip'), jdk),
            ('user', False, ('source', 'cargo', 'pip'), user_jdk),
            ('user-apt', False, ('apt',), user_jdk)]:
        if only and name != only:
            continue
        started = time.time()
        s = Session(base, name, as_root, java_home)
        try:
            if 'source' in ways:
                libdir = from_source(s)
                cargo(s)
                pip(s, libdir)
                if jdk:
                    java(s, libdir)
            else:
                debian(s, jdk)
        finally:
            s.close()
        print('== %s: %.0f s' % (name, time.time() - started), flush=True)
    print('1 passed, 0 failed')


if __name__ == '__main__':
    main()

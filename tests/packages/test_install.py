#!/usr/bin/env python3
"""README.md's install:source, install:cargo, install:pip and install:java blocks, run as
written (tests/packages/readme.py) in a copy of the tree:

1. source: meson setup/compile/install, with DESTDIR set to a throwaway root
   (the README's `sudo meson install` then needs no root and touches nothing
   of this machine); the installed command runs, the library, headers,
   iprof.pc, man page and bash completion are where a user looks.
2. cargo: a new crate adds iprof by path and runs, linked through pkg-config
   against the library of 1. (PKG_CONFIG_SYSROOT_DIR); its main.rs, written
   by the test before `cargo run`, loads examples/fib.iprof ($IPROF_FILE).
3. pip: a venv under a throwaway $HOME, the binding installed offline with
   Debian's python3, importing and finding libiprof.so.0 of 1. by its SONAME.
4. java: the jar built under the throwaway $HOME and the docs' example run
   with it, finding libiprof.so.0 of 1. by its SONAME, with JAVA_HOME the
   JDK 22+ bindings/java/build.sh finds (skipped, saying so, without one).
"""
import glob
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', 'abi'))
sys.path.insert(0, HERE)
import abicheck as A  # noqa: E402
import readme  # noqa: E402

FIB = os.path.join(readme.SOURCE, 'examples', 'fib.iprof')
MAIN_RS = '''use iprof::Reader;

fn main() {
    let path = std::env::var("IPROF_FILE").expect("IPROF_FILE: a profile");
    let model = Reader::new().unwrap().load_path(&path).unwrap();
    println!("{} {} {}", model.version(), model.type_count(), model.method_count());
}
'''


def base_env(tmp, src):
    # A user's shell: nothing of the build, no pip settings of this machine.
    env = {k: v for k, v in os.environ.items()
           if k not in ('IPROF_LIBRARY', 'LD_LIBRARY_PATH', 'PKG_CONFIG_PATH', 'PYTHONPATH',
                        'IPROF_LIB_DIR', 'CARGO_TARGET_DIR', 'VIRTUAL_ENV', 'IPROF_BUILD_DIR')
           and not k.startswith('PIP_')}
    env['PIP_CONFIG_FILE'] = os.devnull
    # Debian's python3 first: the one with Debian's pip, setuptools and venv.
    env['PATH'] = '/usr/bin:/bin:' + env.get('PATH', '')
    env.update(LIBIPROF=src, HOME=os.path.join(tmp, 'home'))
    os.makedirs(env['HOME'], exist_ok=True)
    # cargo and rustup live in the real home's ~/.cargo.
    cargo = shutil.which('cargo', path=os.environ.get('PATH'))
    if cargo:
        env['PATH'] = os.path.dirname(cargo) + ':' + env['PATH']
        env.setdefault('RUSTUP_HOME', os.path.expanduser('~/.rustup'))
        env.setdefault('CARGO_HOME', os.path.expanduser('~/.cargo'))
    return env


def from_source(tmp, src, env):
    root = os.path.join(tmp, 'root')
    readme.run_block('source', src, dict(env, DESTDIR=root))
    libs = glob.glob(root + '/usr/local/lib/*/libiprof.so.0')
    if len(libs) != 1:
        A.fail('no libiprof.so.0 under %s/usr/local/lib' % root)
    libdir = os.path.dirname(libs[0])
    for f in ['/usr/local/include/iprof/iprof.h', '/usr/local/share/man/man1/iprof.1',
              '/usr/local/share/bash-completion/completions/iprof',
              libdir[len(root):] + '/pkgconfig/iprof.pc', libdir[len(root):] + '/libiprof.a']:
        if not os.path.exists(root + f):
            A.fail('meson install did not install %s' % f)
    run_env = dict(env, LD_LIBRARY_PATH=libdir)
    p = A.run([root + '/usr/local/bin/iprof', '--version'], env=run_env)
    if p.stdout.strip() != 'iprof (libiprof) %s' % readme.project_version():
        A.fail('the installed iprof says %r' % p.stdout)
    print('source: installed under %s/usr/local' % root)
    return root, libdir


def cargo(tmp, env, root, libdir):
    if not shutil.which('cargo', path=env['PATH']):
        A.fail('cargo is not installed')
    env = dict(env, PKG_CONFIG_SYSROOT_DIR=root, PKG_CONFIG_LIBDIR=libdir + '/pkgconfig',
               LD_LIBRARY_PATH=libdir, CARGO_TARGET_DIR=os.path.join(tmp, 'cargo-target'))
    work = os.path.join(tmp, 'rust')
    os.makedirs(work)

    def before(line, cwd):
        if line.startswith('cargo run'):
            with open(os.path.join(cwd, 'src', 'main.rs'), 'w') as f:
                f.write(MAIN_RS)

    outs = readme.run_block('cargo', work, dict(env, IPROF_FILE=FIB), before=before)
    last = outs[-1].strip().splitlines()[-1] if outs[-1].strip() else ''
    if last.split() != ['1.1.0', '17', '10']:
        A.fail('the Rust consumer printed %r' % outs[-1])
    print('cargo: a new crate uses iprof and reads %s' % last)


def pip(tmp, env, libdir):
    env = dict(env, LD_LIBRARY_PATH=libdir)
    outs = readme.run_block('pip', tmp, env)
    if outs[-1].strip() != readme.project_version():
        A.fail('the venv\'s iprof reports library version %r' % outs[-1])
    py = os.path.join(env['HOME'], '.venvs', 'iprof', 'bin', 'python')
    script = ('import iprof, sys\n'
              'm = iprof.load(sys.argv[1])\n'
              'print(iprof.__file__)\n'
              'maps = open("/proc/self/maps").read()\n'
              'print(" ".join(sorted({l.split()[-1] for l in maps.splitlines()'
              ' if "libiprof.so" in l})))\n'
              'print(m.version, len(m.types), len(m.methods))\n')
    p = A.run([py, '-c', script, FIB], env=env, cwd=tmp)
    lines = p.stdout.splitlines()
    if not lines[0].startswith(os.path.join(env['HOME'], '.venvs', 'iprof')):
        A.fail('the venv imported iprof from %s' % lines[0])
    if [os.path.realpath(x) for x in lines[1].split()] != \
            [os.path.realpath(os.path.join(libdir, 'libiprof.so.0'))]:
        A.fail('the venv\'s iprof loaded %s, not %s' % (lines[1], libdir))
    if lines[2].split() != ['1.1.0', '17', '10']:
        A.fail('the venv\'s iprof read %r' % lines[2])
    print('pip: %s loads %s' % (lines[0], lines[1]))


def java(tmp, env, libdir):
    p = subprocess.run(['sh', os.path.join(readme.SOURCE, 'bindings', 'java', 'build.sh'), 'jdk'],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
    if p.returncode != 0:
        print('SKIP java: %s' % p.stderr.strip())
        return
    env = dict(env, LD_LIBRARY_PATH=libdir, JAVA_HOME=p.stdout.strip())
    work = os.path.join(tmp, 'java')
    os.makedirs(work)
    outs = readme.run_block('java', work, env)
    lines = outs[-1].strip().splitlines()
    if 'version 1.1.0: 17 types, 10 methods, 9 call counts' not in lines or \
            lines[-1] != 'written merged.iprof' or not os.path.exists(os.path.join(work, 'merged.iprof')):
        A.fail('the Java example printed %r' % outs[-1])
    print('java: the example ran with the jar built in %s' % env['HOME'])


def main():
    A.need('meson', 'ninja', 'pkg-config', 'cc')
    if not os.path.exists('/usr/bin/python3'):
        A.fail('no /usr/bin/python3')
    with tempfile.TemporaryDirectory(prefix='iprof-install-') as tmp:
        src = os.path.join(tmp, 'libiprof')
        readme.copy_tree(src)
        env = base_env(tmp, src)
        root, libdir = from_source(tmp, src, env)
        cargo(tmp, env, root, libdir)
        pip(tmp, env, libdir)
        java(tmp, env, libdir)
    print('1 passed, 0 failed')


if __name__ == '__main__':
    main()

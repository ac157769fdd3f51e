"""The install commands of README.md ("Installing"), as the tests run them.

Each way is a ```sh block right after a line `<!-- install:NAME -->` (the
C example's build is `<!-- run:hello -->`, the recipes `<!-- recipe:NAME
-->`), its output, when README.md shows one, the plain ``` block after it.
run_block() runs a block as written, as one `sh -e` script, in a directory
of the test's choosing ($LIBIPROF set to the checkout by the caller);
test_install.py runs them in a throwaway root (throwaway.py).
"""
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'abi'))
from abicheck import SOURCE_DIR as SOURCE  # noqa: E402


def project_version():
    """meson.build's project version."""
    with open(os.path.join(SOURCE, 'meson.build')) as f:
        return re.search(r"project\('libiprof',[^)]*?version: '([^']+)'", f.read(), re.S).group(1)


def text():
    """README.md."""
    with open(os.path.join(SOURCE, 'README.md')) as f:
        return f.read()


def _find(name):
    """The ```sh block right after `<!-- NAME -->` ('install:source',
    'run:hello', 'recipe:merge'); a bare name is an install block."""
    if ':' not in name:
        name = 'install:' + name
    readme = text()
    m = re.search(r'<!-- %s -->\n```sh\n(.*?)```\n' % re.escape(name), readme, re.S)
    if not m:
        print('FAIL: README.md has no %s block' % name)
        sys.exit(1)
    return readme, m


def block_text(name):
    """The README block `name`, as written."""
    return _find(name)[1].group(1)


def block(name):
    """The command lines of the README block `name`."""
    return [line for line in block_text(name).splitlines() if line.strip()]


def output_after(name):
    """The output README.md shows for the block `name`: the plain ``` block
    that follows it."""
    readme, m = _find(name)
    out = re.match(r'\n*```\n(.*?)```\n', readme[m.end():], re.S)
    if not out:
        print('FAIL: README.md shows no output after the %s block' % name)
        sys.exit(1)
    return out.group(1)


def run_block(name, cwd, env, skip=()):
    """Run the block as written, as one sh -e script in cwd; lines whose
    command (after a leading `$sudo `) starts with one of `skip` are shown,
    not run. Returns its output."""
    lines = []
    for line in block_text(name).splitlines():
        if any(re.sub(r'^\$sudo ', '', line).startswith(s) for s in skip):
            print('(not run here) $ ' + line, flush=True)
            line = ': ' + line
        lines.append(line)
    print('$ ' + '\n$ '.join(lines), flush=True)
    p = subprocess.run(['sh', '-e', '-x', '-c', '\n'.join(lines) + '\n'], cwd=cwd, env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True)
    print(p.stdout[-4000:], flush=True)
    if p.returncode != 0:
        print('FAIL: README %s exited with %d' % (name, p.returncode))
        sys.exit(1)
    return p.stdout


def copy_tree(dst):
    """The files git tracks (or, without git, the tree minus build dirs)."""
    files = None
    if shutil.which('git') and os.path.isdir(os.path.join(SOURCE, '.git')):
        p = subprocess.run(['git', '-C', SOURCE, 'ls-files', '-z', '--cached', '--others',
                            '--exclude-standard'], stdout=subprocess.PIPE)
        if p.returncode == 0:
            files = [f for f in p.stdout.decode().split('\0') if f]
    if files is None:
        files = []
        for d, dirs, names in os.walk(SOURCE):
            dirs[:] = [x for x in dirs if not x.startswith(('build', '.', 'obj-'))]
            files += [os.path.relpath(os.path.join(d, n), SOURCE) for n in names]
    for f in files:
        src = os.path.join(SOURCE, f)
        if not os.path.lexists(src) or f.startswith('build'):
            continue
        os.makedirs(os.path.join(dst, os.path.dirname(f)), exist_ok=True)
        shutil.copy2(src, os.path.join(dst, f), follow_symlinks=False)

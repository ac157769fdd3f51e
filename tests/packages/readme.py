"""The install commands of README.md ("Installing"), as the tests run them.

Each way is a ```sh block right after a line `<!-- install:NAME -->`.
run_block() runs its lines one by one with sh in a directory of the test's
choosing, $LIBIPROF set to the checkout, and `sudo ` dropped where the test
is root or gives a DESTDIR instead (as documented in the tests).
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


def block(name):
    """The command lines of the README block `name`."""
    with open(os.path.join(SOURCE, 'README.md')) as f:
        text = f.read()
    m = re.search(r'<!-- install:%s -->\n```sh\n(.*?)```' % re.escape(name), text, re.S)
    if not m:
        print('FAIL: README.md has no install:%s block' % name)
        sys.exit(1)
    return [line for line in m.group(1).splitlines() if line.strip()]


def run_block(name, cwd, env, skip=(), before=None):
    """Run the block's lines in cwd (each must exit 0), minus `sudo `; lines
    starting with one of `skip` are shown, not run; before(line, cwd) is
    called before each line. Returns the outputs, one per line run."""
    outputs = []
    for line in block(name):
        if before:
            before(line, cwd)
        cmd = re.sub(r'(^|&& |; )sudo ', r'\1', line)
        if any(cmd.startswith(s) for s in skip):
            print('(not run here) $ ' + line, flush=True)
            continue
        print('$ ' + line, flush=True)
        # `cd` in a line carries over to the following lines, as in a shell.
        p = subprocess.run(['sh', '-c', cmd + '\nrc=$?; echo "@@cwd=$PWD"; exit $rc'],
                           cwd=cwd, env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           universal_newlines=True)
        out, _, where = p.stdout.rpartition('@@cwd=')
        print(out[-4000:], flush=True)
        if p.returncode != 0:
            print('FAIL: README install:%s: `%s` exited with %d' % (name, line, p.returncode))
            sys.exit(1)
        cwd = where.strip() or cwd
        outputs.append(out)
    return outputs


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

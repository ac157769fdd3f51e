"""A throwaway copy of this machine's system, for installing into for real.

ThrowawayRoot mounts an overlay over / (the lower layer, never written) with
its upper layer in a tmpfs, and runs commands chrooted into the merged tree:
/usr/local, /usr, /etc/ld.so.cache, apt's database and home directories are
written for real, and vanish with the tmpfs. It must run in a private mount
namespace (enter_namespace() re-runs the calling script under
`unshare --mount`), as root.
"""
import os
import shutil
import subprocess
import sys

SKIP = 77
ENV_MARK = 'IPROF_THROWAWAY_BASE'


def why_not():
    """Why a throwaway root cannot be made here, or None."""
    if os.geteuid() != 0:
        return ('not root: the README blocks install into a throwaway root, which needs root '
                '(CI runs as root)')
    if not shutil.which('unshare') or not shutil.which('chroot'):
        return 'unshare or chroot is missing (util-linux, coreutils)'
    with open('/proc/filesystems') as f:
        if 'overlay' not in f.read():
            return 'the kernel has no overlay file system'
    return None


def enter_namespace(base):
    """Outside the namespace: run this script again in a private mount
    namespace (mounts made there vanish with it) and exit with its status;
    inside: return. `base` is an empty directory for the mounts."""
    if os.environ.get(ENV_MARK):
        return os.environ[ENV_MARK]
    p = subprocess.run(['unshare', '--mount', '--propagation', 'private', 'true'],
                       stderr=subprocess.PIPE, universal_newlines=True)
    if p.returncode != 0:
        print('SKIP: unshare --mount does not work here: %s' % p.stderr.strip())
        sys.exit(SKIP)
    env = dict(os.environ, **{ENV_MARK: base})
    p = subprocess.run(['unshare', '--mount', '--propagation', 'private', '--',
                        sys.executable] + sys.argv, env=env)
    sys.exit(p.returncode)


class ThrowawayRoot:
    """An overlay of / under `<base>/<name>/merged`; close() unmounts it."""

    def __init__(self, base, name):
        top = os.path.join(base, name)
        for d in ('upper', 'work', 'merged'):
            os.makedirs(os.path.join(top, d))
        self.root = os.path.join(top, 'merged')
        p = subprocess.run(['mount', '-t', 'overlay', 'overlay', '-o',
                            'lowerdir=/,upperdir=%s/upper,workdir=%s/work' % (top, top),
                            self.root], stderr=subprocess.PIPE, universal_newlines=True)
        if p.returncode != 0:
            print('SKIP: cannot mount an overlay over /: %s' % p.stderr.strip())
            sys.exit(SKIP)
        subprocess.run(['mount', '-t', 'proc', 'proc', self.path('/proc')], check=True)
        subprocess.run(['mount', '--rbind', '/dev', self.path('/dev')], check=True)

    def path(self, p):
        """The host path of the throwaway root's `p`."""
        return os.path.join(self.root, p.lstrip('/'))

    def run(self, argv, user=None, env=None, cwd='/', stdin=subprocess.DEVNULL):
        """Run argv inside, as `user` (None: root), with exactly `env`, in
        cwd; returns the CompletedProcess (stdout and stderr apart)."""
        env = env or {}
        cmd = ['chroot', self.root]
        if user:
            cmd += ['runuser', '-u', user, '--']
        cmd += ['env', '-i'] + ['%s=%s' % kv for kv in sorted(env.items())]
        cmd += ['sh', '-c', 'cd "$1" && shift && exec "$@"', 'sh', cwd] + list(argv)
        return subprocess.run(cmd, stdin=stdin, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, universal_newlines=True)

    def add_sudoer(self, user):
        """A user with a home and passwordless sudo."""
        subprocess.run(['chroot', self.root, 'useradd', '-m', '-s', '/bin/sh', user], check=True)
        f = self.path('/etc/sudoers.d/' + user)
        with open(f, 'w') as out:
            out.write('%s ALL=(ALL) NOPASSWD: ALL\n' % user)
        os.chmod(f, 0o440)
        pw = self.run(['getent', 'passwd', user]).stdout.split(':')
        return int(pw[2]), int(pw[3]), pw[5]

    def remove_sudo(self):
        """A system without sudo (only in the throwaway root)."""
        for d in ('/usr/bin', '/bin', '/usr/sbin', '/sbin'):
            f = self.path(d + '/sudo')
            if os.path.lexists(f) and not os.path.islink(self.path(d)):
                os.remove(f)

    def close(self):
        subprocess.run(['umount', '-R', '-l', self.root])

"""Where `-o OUT` writes, for the commands that write profiles (cat, through
the library's path writer) and those that write reports (flame, through
tools/outfile.c): a symlink's final target is replaced and the links stay
links, a character device, a FIFO or /dev/stdout is written in place, a
directory or a symlink loop is refused, and an unprivileged user cannot
make a link write where they may not. Run as root and, where root can drop
privileges, as nobody.
"""
import os
import pwd
import shutil
import stat
import subprocess
import tempfile
import threading
import unittest

import tooltest
from tooltest import DATA, IPROF, run

SRC = os.path.join(DATA, "graalvm25.iprof")
with open(SRC, "rb") as f:
    DOC = f.read()
FLAME = (b"com.example.Main.main;com.example.Shape.area;com.example.Circle.area 42\n"
         b"com.example.Main.main;com.example.Shape.area;com.example.Square.area 20\n")
# (command, what it writes)
COMMANDS = [(["cat", SRC], DOC), (["flame", SRC], FLAME)]


class Output(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="iprof-output-")

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def path(self, name):
        return os.path.join(self.dir, name)

    def read(self, name):
        with open(self.path(name), "rb") as f:
            return f.read()

    def test_symlink_chain(self):
        for args, want in COMMANDS:
            with self.subTest(args[0]):
                real = self.path("real")
                with open(real, "wb") as f:
                    f.write(b"old")
                os.chmod(real, 0o640)
                os.symlink("real", self.path("l1"))
                os.symlink(self.path("l1"), self.path("l2"))
                code, out, err = run(*args, "-o", self.path("l2"))
                self.assertEqual((code, out, err), (0, b"", ""))
                self.assertEqual(self.read("real"), want)
                self.assertEqual(stat.S_IMODE(os.lstat(real).st_mode), 0o640)
                self.assertEqual(os.readlink(self.path("l1")), "real")
                self.assertEqual(os.readlink(self.path("l2")), self.path("l1"))
                self.assertEqual(sorted(os.listdir(self.dir)), ["l1", "l2", "real"])
                for name in ("l1", "l2", "real"):
                    os.unlink(self.path(name))

    def test_dangling_link_creates_its_target(self):
        for args, want in COMMANDS:
            with self.subTest(args[0]):
                os.symlink("new", self.path("link"))
                self.assertEqual(run(*args, "-o", self.path("link"))[0], 0)
                self.assertEqual(self.read("new"), want)
                self.assertTrue(os.path.islink(self.path("link")))
                os.unlink(self.path("link"))
                os.unlink(self.path("new"))

    def test_dev_stdout_is_written_in_place(self):
        for args, want in COMMANDS:
            with self.subTest(args[0]):
                # stdout a pipe, then a file opened for appending.
                code, out, err = run(*args, "-o", "/dev/stdout")
                self.assertEqual((code, out, err), (0, want, ""))
                log = self.path("log")
                with open(log, "wb") as f:
                    f.write(b"before;")
                with open(log, "ab") as f:
                    p = subprocess.run([IPROF] + args + ["-o", "/dev/stdout"], stdout=f,
                                       stderr=subprocess.PIPE)
                self.assertEqual(p.returncode, 0, p.stderr)
                self.assertEqual(self.read("log"), b"before;" + want)
                self.assertTrue(os.path.islink("/dev/stdout"))

    def test_descriptor_written_at_its_offset(self):
        # -o /dev/fd/3 writes at the descriptor's offset (here 0, over what
        # the file held) and leaves the caller's descriptor as it was (no
        # O_APPEND added to the file description it shares).
        import fcntl
        for args, want in COMMANDS:
            with self.subTest(args[0]):
                log = self.path("log")
                with open(log, "wb") as f:
                    f.write(b"X" * 5000)
                fd = os.open(log, os.O_RDWR)
                try:
                    p = subprocess.run([IPROF] + args + ["-o", "/dev/fd/%d" % fd],
                                       pass_fds=(fd,), stderr=subprocess.PIPE)
                    self.assertEqual(p.returncode, 0, p.stderr)
                    self.assertFalse(fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_APPEND)
                finally:
                    os.close(fd)
                self.assertEqual(self.read("log"), want + b"X" * (5000 - len(want)))

    def test_device_and_fifo(self):
        for args, want in COMMANDS:
            with self.subTest(args[0]):
                self.assertEqual(run(*args, "-o", "/dev/null")[:2], (0, b""))
                self.assertTrue(stat.S_ISCHR(os.stat("/dev/null").st_mode))
                fifo = self.path("fifo")
                os.mkfifo(fifo)
                got = []
                reader = threading.Thread(target=lambda: got.append(open(fifo, "rb").read()))
                reader.start()
                code = run(*args, "-o", fifo)[0]
                reader.join(30)
                self.assertEqual((code, got), (0, [want]))
                self.assertTrue(stat.S_ISFIFO(os.lstat(fifo).st_mode))
                os.unlink(fifo)

    def test_refused(self):
        os.mkdir(self.path("d"))
        os.symlink("loop_b", self.path("loop_a"))
        os.symlink("loop_a", self.path("loop_b"))
        for args, _ in COMMANDS:
            with self.subTest(args[0]):
                code, out, err = run(*args, "-o", self.path("d"))
                self.assertEqual((code, out), (2, b""))
                self.assertIn("directory", err)
                code, out, err = run(*args, "-o", self.path("loop_a"))
                self.assertEqual((code, out), (2, b""))
                self.assertIn("symbolic links", err)
        self.assertEqual(sorted(os.listdir(self.dir)), ["d", "loop_a", "loop_b"])

    def test_reports_refuse_a_compressed_name(self):
        # A profile named *.gz is compressed; a report is text and refuses
        # the name instead of writing text under it.
        code, out, err = run("cat", SRC, "-o", self.path("p.iprof.gz"))
        self.assertEqual((code, err), (0, ""))
        self.assertEqual(self.read("p.iprof.gz")[:2], b"\x1f\x8b")
        for args in (["flame", SRC], ["export", "--format", "speedscope", SRC], ["coverage", SRC],
                     ["show", SRC, "com.example.Main.main"]):
            with self.subTest(args[0]):
                code, out, err = run(*args, "-o", self.path("r.gz"))
                self.assertEqual((code, out), (2, b""), err)
                self.assertEqual(err, "iprof %s: %s: reports are written as text, not "
                                 "compressed: name OUT without .gz, or pipe -o - through gzip\n"
                                 % (args[0], self.path("r.gz")))
        # Refused before any input is read: a missing input is not reached.
        missing = self.path("missing.iprof")
        for args in (["flame", missing, "-o"], ["export", "--format", "firefox", missing, "-o"],
                     ["coverage", missing, "-o"], ["coverage", missing, "--lcov"],
                     ["show", missing, "m", "-o"], ["diff", missing, missing, "-o"],
                     ["fit", missing, missing, "-o"], ["fit", missing, missing, "--lcov"]):
            with self.subTest(args):
                code, out, err = run(*args, self.path("r.gz"))
                self.assertEqual((code, out), (2, b""), err)
                self.assertEqual(err, "iprof %s: %s: reports are written as text, not "
                                 "compressed: name OUT without .gz, or pipe -o - through gzip\n"
                                 % (args[0], self.path("r.gz")))
        self.assertEqual(sorted(os.listdir(self.dir)), ["p.iprof.gz"])

    def as_nobody(self):
        """The command prefix and environment that run as nobody (root), or
        as we are (another user)."""
        if os.geteuid() != 0:
            return [], None
        runuser = shutil.which("runuser") or shutil.which("setpriv")
        try:
            pwd.getpwnam("nobody")
        except KeyError:
            runuser = None
        if not runuser:
            self.skipTest("cannot run a command as nobody")
        prefix = ([runuser, "-u", "nobody", "--"] if runuser.endswith("runuser") else
                  [runuser, "--reuid=nobody", "--regid=nogroup", "--clear-groups"])
        return prefix, dict(os.environ)

    def test_read_only_file_of_ones_own(self):
        # A read-only file is refused, as `>` would refuse it, though its
        # directory would let a rename replace it.
        prefix, user_env = self.as_nobody()
        mine = self.path("mine")
        os.mkdir(mine)
        target = os.path.join(mine, "ro.iprof")
        with open(target, "wb") as f:
            f.write(b"read-only")
        os.chmod(target, 0o444)
        if os.geteuid() == 0:
            nobody = pwd.getpwnam("nobody")
            os.chown(mine, nobody.pw_uid, nobody.pw_gid)
            os.chown(target, nobody.pw_uid, nobody.pw_gid)
        os.chmod(self.dir, 0o755)
        for args, _ in COMMANDS:
            with self.subTest(args[0]):
                p = subprocess.run(prefix + [IPROF] + args + ["-o", target], env=user_env,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                self.assertEqual(p.returncode, 2, p.stderr)
                self.assertIn(b"Permission denied", p.stderr)
                with open(target, "rb") as f:
                    self.assertEqual(f.read(), b"read-only")
                self.assertEqual(os.listdir(mine), ["ro.iprof"])

    def test_when_the_system_refuses_to_link_an_unnamed_file(self):
        # Some sandboxes refuse linkat() through /proc, which names the
        # unnamed temporary file at the end: the library tries it first and
        # writes a named temporary file instead, rather than fail after
        # writing everything. An LD_PRELOAD shim plays that sandbox.
        cc = shutil.which("cc") or shutil.which("gcc")
        if not cc:
            self.skipTest("no C compiler for the linkat shim")
        shim_dir = tempfile.mkdtemp(prefix="iprof-shim-")
        self.addCleanup(shutil.rmtree, shim_dir, True)
        src, so = os.path.join(shim_dir, "shim.c"), os.path.join(shim_dir, "shim.so")
        with open(src, "w") as f:
            f.write("#include <errno.h>\n"
                    "int linkat(int a, const char *b, int c, const char *d, int e)\n"
                    "{ (void)a; (void)b; (void)c; (void)d; (void)e; errno = ENOENT; return -1; }\n")
        subprocess.run([cc, "-shared", "-fPIC", "-o", so, src], check=True)
        env = dict(os.environ, LD_PRELOAD=so)
        for args, want in COMMANDS:
            with self.subTest(args[0]):
                p = subprocess.run([IPROF] + args + ["-o", self.path("out")], env=env,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                if b"does not come first" in p.stderr:
                    self.skipTest("a sanitizer runtime cannot be preloaded after")
                self.assertEqual((p.returncode, p.stderr), (0, b""))
                self.assertEqual(self.read("out"), want)
                self.assertEqual(os.listdir(self.dir), ["out"])
                os.unlink(self.path("out"))

    def test_longest_name_and_owner(self):
        # A 255-byte name can be replaced (the temporary name is short); as
        # root, a replaced file keeps its owner and group.
        target = self.path("n" * 249 + ".iprof")
        for args, want in COMMANDS:
            with self.subTest(args[0]):
                with open(target, "wb") as f:
                    f.write(b"old")
                if os.geteuid() == 0:
                    os.chown(target, 65534, 65534)
                code, out, err = run(*args, "-o", target)
                self.assertEqual((code, err), (0, ""))
                self.assertEqual(self.read(os.path.basename(target)), want)
                if os.geteuid() == 0:
                    st = os.stat(target)
                    self.assertEqual((st.st_uid, st.st_gid), (65534, 65534))
                self.assertEqual(os.listdir(self.dir), [os.path.basename(target)])

    def test_unprivileged_link_into_a_protected_file(self):
        prefix, user_env = self.as_nobody()
        protected = self.path("protected")
        os.mkdir(protected)
        target = os.path.join(protected, "theirs.iprof")
        with open(target, "wb") as f:
            f.write(b"theirs")
        os.chmod(protected, 0o755)
        os.chmod(target, 0o644)
        writable = self.path("mine")
        os.mkdir(writable)
        os.chmod(writable, 0o777)
        os.chmod(self.dir, 0o755)
        link = os.path.join(writable, "link")
        os.symlink(target, link)
        for args, _ in COMMANDS:
            with self.subTest(args[0]):
                p = subprocess.run(prefix + [IPROF] + args + ["-o", link], env=user_env,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                self.assertEqual(p.returncode, 2, p.stderr)
                self.assertIn(b"Permission denied", p.stderr)
                with open(target, "rb") as f:
                    self.assertEqual(f.read(), b"theirs")
                self.assertEqual(os.readlink(link), target)
                self.assertEqual(os.listdir(protected), ["theirs.iprof"])


if __name__ == "__main__":
    raise SystemExit(tooltest.main(__name__))

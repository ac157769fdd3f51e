#!/usr/bin/env python3
"""Tests of `iprof flame`: exact folded stacks of the small hand-written
files of tests/data/ (flame-*.iprof), options and errors, the --html page's
embedded data, atomic output, the progress bar, and the folded total of a
corpus file. The page in a browser is tests/browser/flame.js.

Environment (set by meson, tests/meson.build):
  IPROF             the built iprof command (required)
  IPROF_SOURCE_DIR  the source tree (tests/data)
  IPROF_CORPUS_DIR  the real profiles (../shared/corpus); tests that need
                    them are skipped, saying why, when it is absent

Prints "N passed, N failed" last; exits 1 on failure, 77 if every test was
skipped. Python standard library only.
"""
import json
import os
import pty
import re
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tooltest  # noqa: E402
from tooltest import CORPUS, DATA, HERE, IPROF, SOURCE, corpus_file, run  # noqa: E402


def page_data(html):
    """The JSON of the page's flame-data script element."""
    m = re.search(rb'<script id="flame-data" type="application/json">(.*?)</script>', html,
                  re.S)
    assert m, "no flame-data element"
    return json.loads(m.group(1).decode("utf-8"))


# flame-small-1.0.0.iprof: samples of work at bci 5 and 7 merge (7); the
# count-0 sample of main is left out; ';' of an array type's name is ','.
SMALL = """\
Main.main;[Ljava.lang.Object,.clone 1
Main.main;com.example.App.<init> 2
Main.main;com.example.App.run 1
Main.main;com.example.App.run;com.example.App.parse 4
Main.main;com.example.App.run;com.example.App.work 7
Main.main;com.example.App.run;com.example.App.work;java.lang.String.hashCode 3
"""

SMALL_BCI = """\
Main.main:1;com.example.App.<init>:0 2
Main.main:3;com.example.App.run:10;com.example.App.work:2;java.lang.String.hashCode:0 3
Main.main:3;com.example.App.run:10;com.example.App.work:5 5
Main.main:3;com.example.App.run:10;com.example.App.work:7 2
Main.main:3;com.example.App.run:14;com.example.App.parse:1 4
Main.main:3;com.example.App.run:20 1
Main.main:5;[Ljava.lang.Object,.clone:0 1
"""

SMALL_CALLCOUNT = """\
Main.main 1
Main.main;com.example.App.run 1
com.example.App.run;com.example.App.work 20
com.example.App.work;java.lang.String.hashCode 100
"""

# flame-callcount-1.0.0.iprof has no samples: its call-count contexts.
CALLCOUNT = """\
Fib.fibonacci;java.io.PrintStream.print 5
Fib.main 1
Fib.main;Fib.fibonacci 1
Fib.main;Fib.fibonacci;java.io.PrintStream.print 12
"""


class FlameCase(unittest.TestCase):
    maxDiff = None

    def expect(self, args, code, out=b"", err="", stdin=None):
        got = run(*args, stdin=stdin)
        if isinstance(out, str):
            out = out.encode()
        self.assertEqual((got[0], got[1], got[2]), (code, out, err),
                         "iprof %s" % " ".join(args))


class CommandLine(FlameCase):
    def test_help(self):
        code, out, err = run("flame", "--help")
        self.assertEqual((code, err), (0, ""))
        self.assertTrue(out.startswith(b"Usage: iprof flame FILE "), out)
        for opt in (b"--kind", b"--bci", b"--html", b"--title", b"--output"):
            self.assertIn(opt, out)
        code, out, err = run("--help")
        self.assertIn(b"  flame FILE ", out)

    def test_version(self):
        code, out, err = run("flame", "--version")
        self.assertEqual((code, err), (0, ""))
        self.assertTrue(out.startswith(b"iprof (libiprof) "), out)

    def test_usage_errors(self):
        hint = "Try 'iprof flame --help' for more information.\n"
        self.expect(["flame"], 2, "", "iprof flame: no FILE given\n" + hint)
        self.expect(["flame", "a", "b"], 2, "", "iprof flame: only one FILE is allowed\n" + hint)
        self.expect(["flame", "x", "--kind", "cpu"], 2, "",
                    "iprof flame: unknown kind 'cpu' (sampling or callcount)\n" + hint)
        self.expect(["flame", "x", "--kind"], 2, "",
                    "iprof flame: option '--kind' needs a value\n" + hint)
        self.expect(["flame", "x", "--svg"], 2, "", "iprof flame: unknown option '--svg'\n" + hint)

    def test_invalid_and_missing_files(self):
        self.expect(["flame", "syntax-error.iprof"], 1, "",
                    "syntax-error.iprof:5:3: types[1]: expected a value after ','\n"
                    "syntax-error.iprof: damaged or cut short; to save what comes before the "
                    "damage: iprof repair syntax-error.iprof -o OUT\n")
        self.expect(["flame", "no-such.iprof"], 2, "",
                    "no-such.iprof: cannot open: No such file or directory\n")
        self.expect(["flame", "."], 2, "", ".: cannot read: it is a directory\n")

    @unittest.skipUnless(os.path.exists("/dev/full"), "no /dev/full")
    def test_stdout_write_error(self):
        with open("/dev/full", "wb") as full:
            p = subprocess.run([IPROF, "flame", "flame-small-1.0.0.iprof"], cwd=DATA,
                               stdout=full, stderr=subprocess.PIPE)
        self.assertEqual((p.returncode, p.stderr.decode()),
                         (2, "iprof: cannot write to standard output: No space left on device\n"))


class Folded(FlameCase):
    def test_sampling(self):
        self.expect(["flame", "flame-small-1.0.0.iprof"], 0, SMALL)
        self.expect(["flame", "--kind", "sampling", "flame-small-1.0.0.iprof"], 0, SMALL)

    def test_bci(self):
        self.expect(["flame", "--bci", "flame-small-1.0.0.iprof"], 0, SMALL_BCI)

    def test_callcount(self):
        self.expect(["flame", "--kind=callcount", "flame-small-1.0.0.iprof"], 0,
                    SMALL_CALLCOUNT)
        self.expect(["flame", "flame-callcount-1.0.0.iprof"], 0, CALLCOUNT)

    def test_no_samples_asked(self):
        self.expect(["flame", "--kind", "sampling", "flame-callcount-1.0.0.iprof"], 0, "")

    def test_stdin(self):
        with open(os.path.join(DATA, "flame-small-1.0.0.iprof"), "rb") as f:
            self.expect(["flame", "-"], 0, SMALL, stdin=f.read())

    def test_identical_stacks_sum_past_int64(self):
        # Two stacks of INT64_MAX summed: 2^64 - 2, in the folded line, the
        # page's data and both exports (their weights add up to their total).
        big = 9223372036854775807
        doc = ('{"version":"1.0.0","types":[{"id":0,"name":"p.A"},{"id":1,"name":"p.B"}],'
               '"methods":[{"id":1,"name":"m","signature":[0,0]},{"id":3,"name":"k",'
               '"signature":[1,0]}],"samplingProfiles":[{"ctx":"3:1<3:4<1:2","records":[%d]},'
               '{"ctx":"3:1<3:4<1:2","records":[%d]}]}' % (big, big)).encode()
        self.expect(["flame", "-"], 0, "p.A.m;p.B.k;p.B.k %d\n" % (2 * big), stdin=doc)
        code, out, err = run("export", "--format", "speedscope", "-", stdin=doc)
        prof = json.loads(out)["profiles"][0]
        self.assertEqual((code, prof["weights"], prof["endValue"]), (0, [2 * big], 2 * big))
        code, out, err = run("export", "--format", "firefox", "-", stdin=doc)
        self.assertEqual(json.loads(out)["threads"][0]["samples"]["weight"], [2 * big])
        code, out, err = run("flame", "--html", "-", stdin=doc)
        self.assertIn(b"[%d" % (2 * big), out)

    def test_other_files(self):
        # graal-1.0.0.iprof: one sample "2:3<1:-1" (A.n called by A.m).
        self.expect(["flame", "graal-1.0.0.iprof"], 0, "A.m;A.n 4\n")
        self.expect(["flame", "--bci", "graal-1.0.0.iprof"], 0, "A.m:-1;A.n:3 4\n")

    def test_output_file(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "out.folded")
            with open(out, "w") as f:
                f.write("old\n")
            self.expect(["flame", "flame-small-1.0.0.iprof", "-o", out], 0)
            with open(out) as f:
                self.assertEqual(f.read(), SMALL)
            self.assertEqual(os.listdir(tmp), ["out.folded"])  # no temporary file left
            self.assertEqual(os.stat(out).st_mode & 0o777, 0o666 & ~current_umask())
            # A failed read leaves OUT as it was.
            self.expect(["flame", "syntax-error.iprof", "-o", out], 1, "",
                        "syntax-error.iprof:5:3: types[1]: expected a value after ','\n"
                        "syntax-error.iprof: damaged or cut short; to save what comes before the "
                        "damage: iprof repair syntax-error.iprof -o OUT\n")
            with open(out) as f:
                self.assertEqual(f.read(), SMALL)
            self.assertEqual(os.listdir(tmp), ["out.folded"])
            # "-o -" is standard output.
            self.expect(["flame", "flame-small-1.0.0.iprof", "-o", "-"], 0, SMALL)
            missing = os.path.join(tmp, "no", "out")
            self.expect(["flame", "flame-small-1.0.0.iprof", "-o", missing], 2, "",
                        "iprof flame: %s: cannot create a temporary file next to it: No such "
                        "file or directory\n" % missing)


def current_umask():
    mask = os.umask(0)
    os.umask(mask)
    return mask


class Html(FlameCase):
    def page(self, *args):
        code, out, err = run("flame", "--html", *args)
        self.assertEqual((code, err), (0, ""))
        return out

    def test_page_is_self_contained(self):
        html = self.page("flame-small-1.0.0.iprof")
        self.assertTrue(html.startswith(b"<!DOCTYPE html>"), html[:40])
        self.assertTrue(html.endswith(b"</html>\n"))
        # No network: no URL, no external script, style, image or font.
        for needle in (b"http:", b"https:", b"//cdn", b"src=", b"<link", b"@import", b"url("):
            self.assertNotIn(needle, html)
        self.assertEqual(html.count(b"<script"), 2)
        self.assertIn(b"Content-Security-Policy", html)

    def test_data(self):
        data = page_data(self.page("flame-small-1.0.0.iprof"))
        self.assertEqual(data["title"], "flame-small-1.0.0.iprof")
        self.assertEqual((data["kind"], data["unit"]), ("sampling", "samples"))
        lines = ["%s %d" % (";".join(data["names"][i] for i in s[1:]), s[0])
                 for s in data["stacks"]]
        self.assertEqual("\n".join(lines) + "\n",
                         SMALL.replace("[Ljava.lang.Object,", "[Ljava.lang.Object;"))

    def test_escaping_and_title(self):
        html = self.page("flame-small-1.0.0.iprof", "--title", "</script><b>&")
        # Names and title with '<', '>' and '&' cannot end the script element.
        self.assertEqual(html.count(b"</script>"), 2)
        self.assertIn(b"com.example.App.\\u003cinit\\u003e", html)
        self.assertEqual(page_data(html)["title"], "</script><b>&")

    def test_callcount_page(self):
        data = page_data(self.page("flame-callcount-1.0.0.iprof"))
        self.assertEqual((data["kind"], data["unit"]), ("callcount", "calls"))
        self.assertEqual(sum(s[0] for s in data["stacks"]), 19)

    def test_empty_page(self):
        data = page_data(self.page("--kind", "sampling", "flame-callcount-1.0.0.iprof"))
        self.assertEqual((data["names"], data["stacks"]), ([], []))


class Progress(unittest.TestCase):
    def run_with_tty(self, delay):
        """Run flame with stderr on a terminal, each progress update slowed
        by `delay` ms (the bar shows after a second of work); returns (code,
        stderr bytes)."""
        master, slave = pty.openpty()
        env = dict(os.environ)
        env.pop("IPROF_PROGRESS_TEST_DELAY_MS", None)
        if delay:
            env["IPROF_PROGRESS_TEST_DELAY_MS"] = delay
        with open(os.devnull, "wb") as null:
            p = subprocess.Popen([IPROF, "flame", "flame-small-1.0.0.iprof"], cwd=DATA,
                                 stdout=null, stderr=slave, env=env)
        os.close(slave)
        chunks = []
        while True:
            try:
                b = os.read(master, 4096)
            except OSError:
                break
            if not b:
                break
            chunks.append(b)
        os.close(master)
        return p.wait(timeout=60), b"".join(chunks)

    def test_bar_on_a_terminal(self):
        code, err = self.run_with_tty("400")
        self.assertEqual(code, 0)
        self.assertIn(b"iprof flame: ", err)
        self.assertRegex(err, rb"iprof flame: (reading|stacks) \[[#.]{30}\] +[0-9]+%")
        self.assertTrue(err.endswith(b"\r\x1b[K"), err)  # erased at the end

    def test_no_bar_for_short_work(self):
        self.assertEqual(self.run_with_tty(""), (0, b""))

    def test_no_bar_without_terminal(self):
        env = dict(os.environ, IPROF_PROGRESS_TEST_DELAY_MS="400")
        self.assertEqual(run("flame", "flame-small-1.0.0.iprof", env=env)[2], "")


class Corpus(unittest.TestCase):
    def test_jsonata_total(self):
        path = corpus_file("jsonata-cli-0.4.0.iprof")
        code, out, err = run("flame", path)
        self.assertEqual((code, err), (0, ""))
        code, stats, err = run("stats", "--json", path)
        st = json.loads(stats)
        self.assertEqual(st["entries"]["samplingProfiles"], 161)
        lines = out.decode().splitlines()
        total = 0
        for line in lines:
            stack, count = line.rsplit(" ", 1)
            self.assertTrue(int(count) > 0, line)
            self.assertNotIn("", stack.split(";"), line)
            total += int(count)
        self.assertEqual(total, st["totals"]["samplingProfiles"])
        self.assertEqual(lines, sorted(set(lines)))  # sorted, identical stacks summed
        stacks = [line.rsplit(" ", 1)[0] for line in lines]
        self.assertEqual(len(stacks), len(set(stacks)))
        # Caller first: every stack starts at the native entry stub.
        self.assertTrue(all(s.startswith("com.oracle.svm.core.") for s in stacks), stacks[:3])
        # The page holds the same stacks.
        code, html, err = run("flame", "--html", path)
        data = page_data(html)
        self.assertEqual(sum(s[0] for s in data["stacks"]), total)


if __name__ == "__main__":
    sys.exit(tooltest.main(__name__))

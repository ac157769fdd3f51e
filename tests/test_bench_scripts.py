#!/usr/bin/env python3
"""Tests of the measuring scripts: scripts/bench-ab.py (alternating rounds
of two builds, medians and minimums) against fake bench programs whose
results are known, and scripts/perf-timeline.py on a hand-written `perf
script` text. Exact output; Python standard library only.

Environment (set by meson, tests/meson.build):
  IPROF_SOURCE_DIR  the source tree (scripts/)

Prints "N passed, N failed" last; exits 1 on failure.
"""
import os
import subprocess
import sys
import tempfile
import textwrap
import unittest

SOURCE = os.environ.get("IPROF_SOURCE_DIR",
                        os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
AB = os.path.join(SOURCE, "scripts", "bench-ab.py")
TIMELINE = os.path.join(SOURCE, "scripts", "perf-timeline.py")


def run(args, stdin=None):
    p = subprocess.run([sys.executable] + args, input=stdin, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    return p.returncode, p.stdout, p.stderr


# A bench program that prints the next of its build's wall times (one per
# call, from a file beside it), a fixed field, and $EXTRA's value when set.
FAKE = textwrap.dedent("""\
    #!%s
    import os, sys
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "times")) as f:
        times = f.read().split()
    with open(os.path.join(here, "calls"), "a+") as f:
        f.seek(0)
        n = len(f.read())
        f.write("x")
    if times[n] == "fail":
        sys.exit(3)
    extra = os.environ.get("EXTRA")
    print("noise line wall_s=99")
    print("RESULT task=fake wall_s=%%s peak_mib=10.5 args=%%d%%s" %% (
        times[n], len(sys.argv) - 1, " extra=" + extra if extra else ""))
    """) % sys.executable


def fake_build(root, name, times):
    bench = os.path.join(root, name, "bench")
    os.makedirs(bench)
    prog = os.path.join(bench, "fake")
    with open(prog, "w") as f:
        f.write(FAKE)
    os.chmod(prog, 0o755)
    with open(os.path.join(bench, "times"), "w") as f:
        f.write(" ".join(times))
    return os.path.join(root, name)


class BenchAB(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def test_medians_minimums_ratio(self):
        a = fake_build(self.tmp.name, "a", ["2.0", "1.0", "4.0"])
        b = fake_build(self.tmp.name, "b", ["1.5", "0.5", "1.0"])
        rc, out, err = run([AB, "--rounds", "3", a, b, "fake", "x", "y"])
        self.assertEqual(rc, 0, err)
        self.assertEqual(out.splitlines(), [
            "3 alternating rounds; medians (minimums)",
            "%-16s %22s %22s %8s" % ("field", "A " + a, "B " + b, "B/A"),
            "%-16s %22s %22s %8s" % ("wall_s", "2 (1)", "1 (0.5)", "x0.500"),
            "%-16s %22s %22s %8s" % ("peak_mib", "10.5 (10.5)", "10.5 (10.5)", "x1.000"),
            "%-16s %22s %22s %8s" % ("args", "2 (2)", "2 (2)", "x1.000"),
        ])

    def test_env_for_one_side(self):
        a = fake_build(self.tmp.name, "a", ["1.0", "1.0"])
        b = fake_build(self.tmp.name, "b", ["1.0", "1.0"])
        rc, out, err = run([AB, "--rounds", "1", "--env-b", "EXTRA=7", a, b, "fake"])
        self.assertEqual(rc, 0, err)
        # extra is in B's results only: not a field both sides have.
        self.assertNotIn("extra", out)
        rc, out, err = run([AB, "--rounds", "1", "--env-a", "EXTRA=4", "--env-b", "EXTRA=6",
                            a, b, "fake"])
        self.assertEqual(rc, 0, err)
        self.assertIn("%-16s %22s %22s %8s" % ("extra", "4 (4)", "6 (6)", "x1.500"),
                      out.splitlines())

    def test_failed_run(self):
        a = fake_build(self.tmp.name, "a", ["1.0", "fail"])
        b = fake_build(self.tmp.name, "b", ["1.0", "1.0"])
        rc, out, err = run([AB, "--rounds", "2", a, b, "fake"])
        self.assertEqual(rc, 1)
        self.assertEqual(out, "")
        self.assertIn("bench-ab: %s failed (exit 3, no RESULT line)" %
                      os.path.join(a, "bench", "fake"), err)

    def test_bad_arguments(self):
        rc, _, err = run([AB, "--rounds", "0", "x", "y", "fake"])
        self.assertEqual((rc, err.strip()), (1, "bench-ab: --rounds must be at least 1"))
        rc, _, err = run([AB, "--env-a", "NOVALUE", "x", "y", "fake"])
        self.assertEqual((rc, err.strip()), (1, "bench-ab: expected VAR=VALUE, got 'NOVALUE'"))


# Two threads: 100 (the first sample's: main) and two job threads, 200
# and 201, one after the other. Addresses from 0xffff... are the kernel's.
PERF = textwrap.dedent("""\
        100 1000.000:  55d0aa01 parse_member
        100 1000.010:  55d0aa01 parse_member
        200 1000.020:  7f00aa02 apply_batch
        200 1000.030:  ffffffff81000000 clear_page_erms
        100 1000.040:  55d0aa03 put_named
    a line that is not a sample
        100 1000.120:  55d0aa03 put_named
        201 1000.130:  7f00aa04 sort_slot
        201 1000.150:  7f00aa04 sort_slot
        201 1000.160:  ffffffff81000010 exc_page_fault
    """)


class PerfTimeline(unittest.TestCase):
    def test_windows(self):
        rc, out, err = run([TIMELINE, "--window", "0.1"], PERF)
        self.assertEqual(rc, 0, err)
        self.assertEqual(out.splitlines(), [
            "  0.00 main=3 k0% [parse_member:2,put_named:1]  "
            "jobs=2 k50% [apply_batch:1,clear_page_erms:1]",
            "  0.10 main=1 k0% [put_named:1]  jobs=3 k33% [sort_slot:2,exc_page_fault:1]",
        ])

    def test_span(self):
        with tempfile.NamedTemporaryFile("w", suffix=".txt") as f:
            f.write(PERF)
            f.flush()
            rc, out, err = run([TIMELINE, "--from", "0.015", "--to", "0.155", f.name])
        self.assertEqual(rc, 0, err)
        self.assertEqual(out.splitlines(), [
            "main 2 samples, kernel 0%",
            "       2 100.0% put_named",
            "jobs 4 samples, kernel 25%",
            "       2  50.0% sort_slot",
            "       1  25.0% apply_batch",
            "       1  25.0% clear_page_erms",
        ])

    def test_no_samples(self):
        rc, out, err = run([TIMELINE], "nothing here\n")
        self.assertEqual((rc, out), (1, ""))
        self.assertIn("no samples", err)


if __name__ == "__main__":
    result = unittest.main(exit=False, verbosity=2).result
    failed = len(result.failures) + len(result.errors)
    print("%d passed, %d failed" % (result.testsRun - failed, failed))
    sys.exit(1 if failed else 0)

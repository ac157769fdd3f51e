"""Shared pieces of the iprof command's test suites (test_tool.py,
test_flame.py, test_export.py, test_tool_diff.py, ...): where things are,
the corpus, running the command, and the runner that ends with
"N passed, N failed".

Environment (set by meson, tests/meson.build):
  IPROF             the built iprof command (required)
  IPROF_SOURCE_DIR  the source tree (tests/data)
  IPROF_CORPUS_DIR  the real profiles (../shared/corpus); tests that need
                    them are skipped, saying why, when it is absent
"""
import os
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.environ.get("IPROF_SOURCE_DIR") or os.path.dirname(HERE)
DATA = os.path.join(SOURCE, "tests", "data")
IPROF = os.path.abspath(os.environ["IPROF"]) if os.environ.get("IPROF") else ""
CORPUS = os.environ.get("IPROF_CORPUS_DIR", "")


def corpus_file(name):
    """The corpus file's path, or skip the test saying why."""
    if not CORPUS or not os.path.isfile(os.path.join(CORPUS, "README.md")):
        raise unittest.SkipTest("corpus folder absent (IPROF_CORPUS_DIR=%r)" % CORPUS)
    path = os.path.join(CORPUS, name)
    if not os.path.isfile(path):
        raise unittest.SkipTest("corpus file %s absent" % name)
    return path


def run(*args, stdin=None, cwd=DATA, env=None, timeout=300):
    """Run iprof in tests/data; returns (exit code, stdout bytes, stderr text)."""
    p = subprocess.run([IPROF] + list(args), input=stdin, cwd=cwd, env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
    return p.returncode, p.stdout, p.stderr.decode("utf-8", "replace")


def main(module_name):
    """Run the tests of a module; print "N passed, N failed" last. Exit
    status: 0, 1 on failure, 77 when everything was skipped."""
    if not IPROF or not os.access(IPROF, os.X_OK):
        print("IPROF is not set to the built iprof command; skipping")
        print("0 passed, 0 failed")
        return 77
    suite = unittest.defaultTestLoader.loadTestsFromModule(sys.modules[module_name])
    result = unittest.TextTestRunner(verbosity=2, stream=sys.stdout).run(suite)
    failed = len(result.failures) + len(result.errors) + len(result.unexpectedSuccesses)
    skipped = len(result.skipped)
    passed = result.testsRun - failed - skipped
    for test, why in result.skipped:
        print("skipped %s: %s" % (test.id(), why))
    print("%d passed, %d failed" % (passed, failed))
    if failed:
        return 1
    return 77 if passed == 0 else 0

#!/usr/bin/env python3
"""Run the Python binding tests with unittest.

    python3 bindings/python/tests/run.py [MODULE...]

Without arguments every tests/test_*.py module runs; with arguments, the
named modules (test_model, ...). Env: IPROF_LIBRARY (the shared library to
test; otherwise the package searches), IPROF_CORPUS_DIR (the real profiles;
tests that need them skip when absent).

Prints each failure, then a final line "N passed, N failed" (skipped tests
are counted on the line before). Exits 1 if anything failed, 77 (meson's
"skipped") if every test was skipped, 0 otherwise.
"""
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)


class Result(unittest.TextTestResult):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.passed = 0

    def addSuccess(self, test):
        super().addSuccess(test)
        self.passed += 1


def main(argv):
    loader = unittest.TestLoader()
    if argv:
        suite = unittest.TestSuite(loader.loadTestsFromName(name) for name in argv)
    else:
        suite = loader.discover(HERE, pattern="test_*.py", top_level_dir=HERE)
    runner = unittest.TextTestRunner(stream=sys.stdout, verbosity=2, resultclass=Result)
    result = runner.run(suite)
    failed = len(result.failures) + len(result.errors) + len(result.unexpectedSuccesses)
    skipped = len(result.skipped)
    for test, reason in result.skipped:
        print("skipped: %s: %s" % (test.id(), reason))
    print("%d skipped" % skipped)
    print("%d passed, %d failed" % (result.passed, failed))
    if failed:
        return 1
    if result.passed == 0 and skipped:
        return 77
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

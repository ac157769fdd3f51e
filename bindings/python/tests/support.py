"""Shared helpers of the Python binding tests: paths, the corpus, documents."""
import json
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE_ROOT = os.path.dirname(HERE)                      # bindings/python
SOURCE_ROOT = os.path.dirname(os.path.dirname(PACKAGE_ROOT))
if PACKAGE_ROOT not in sys.path:
    sys.path.insert(0, PACKAGE_ROOT)

import iprof  # noqa: E402  (after the path set-up)

FIB = os.path.join(SOURCE_ROOT, "examples", "fib.iprof")
DATA = os.path.join(SOURCE_ROOT, "tests", "data")
EXAMPLE = os.path.join(PACKAGE_ROOT, "examples", "example.py")
CORPUS = os.environ.get("IPROF_CORPUS_DIR") or os.path.join(SOURCE_ROOT, "..", "shared",
                                                              "corpus")
I64_MIN = -(1 << 63)
I64_MAX = (1 << 63) - 1


def corpus(name):
    """Path of a corpus file; skips the test, saying why, when it is absent."""
    path = os.path.join(CORPUS, name)
    if not os.path.isfile(path):
        raise unittest.SkipTest("corpus file %s absent (IPROF_CORPUS_DIR=%s)" % (name, CORPUS))
    return path


def data(name):
    """Path of a file of the repository's tests/data."""
    return os.path.join(DATA, name)


def data_bytes(name):
    """The bytes of a file of tests/data."""
    with open(data(name), "rb") as f:
        return f.read()


def doc(version="1.0.0", types=(), methods=(), **sections):
    """A minified document: types as (id, name), methods as (id, name,
    signature), sections by JSON key with (ctx, records) pairs."""
    d = {"version": version,
         "types": [{"id": i, "name": n} for i, n in types],
         "methods": [{"id": i, "name": n, "signature": list(s)} for i, n, s in methods]}
    for key, entries in sections.items():
        d[key] = [{"ctx": c, "records": list(r)} for c, r in entries]
    return json.dumps(d, separators=(",", ":")).encode()


# A small valid 1.0.0 document with int64 extremes everywhere a number can be.
EXTREMES = doc(
    types=[(I64_MIN, "Min"), (0, "int"), (I64_MAX, "Max")],
    methods=[(I64_MAX, "big", [I64_MIN, 0]), (1, "m", [I64_MAX, 0, I64_MIN])],
    callCountProfiles=[("%d:0<1:%d" % (I64_MAX, I64_MIN), [I64_MAX]),
                       ("1:0", [I64_MIN])],
    conditionalProfiles=[("1:%d" % I64_MAX, [I64_MIN, 0, I64_MAX, -1, I64_MAX, 1])],
    virtualInvokeProfiles=[("1:%d" % I64_MIN, [I64_MIN, I64_MAX, I64_MAX, I64_MIN])],
    monitorProfiles=[("0:0", [0, I64_MAX])],
    samplingProfiles=[("%d:%d" % (I64_MAX, I64_MAX), [I64_MAX])])

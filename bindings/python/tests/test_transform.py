"""Model.canonicalize(), Model.filter() (transform.h), gzip output and
input, and how they invalidate the objects taken before."""
import json
import os
import tempfile
import unittest

import support  # noqa: F401  (puts the package on sys.path)
import iprof
from iprof import Kind


def profile(reordered):
    """The same profile twice: as numbered by one file, and under other ids
    and in another order (with its call counts split across two adds)."""
    m = iprof.Model()
    if not reordered:
        for tid, name in ((0, "void"), (1, "A"), (2, "B")):
            m.add_type(tid, name)
        m.add_method(1, "main", [1, 0])
        m.add_method(2, "run", [1, 0, 2])
        m.add_method(3, "old", [1, 0])
        m.add_entry(Kind.CALL_COUNT, "1:0", [1])
        m.add_entry(Kind.CALL_COUNT, "2:0<1:5", [2])
        m.add_entry(Kind.CALL_COUNT, "3:0", [5])
        m.add_entry(Kind.CONDITIONAL, "2:7", [9, 1, 4, 3, 0, 6])
        m.add_entry(Kind.VIRTUAL_INVOKE, "2:3", [2, 4, 1, 7])
        m.add_entry(Kind.MONITOR, "0:0", [2, 1, 1, 3])
    else:
        for tid, name in ((40, "B"), (41, "void"), (42, "A")):
            m.add_type(tid, name)
        m.add_method(7, "old", [42, 41])
        m.add_method(8, "run", [42, 41, 40])
        m.add_method(9, "main", [42, 41])
        m.add_entry(Kind.CALL_COUNT, "7:0", [5])
        m.add_entry(Kind.CALL_COUNT, "8:0<9:5", [1])
        m.add_entry(Kind.CALL_COUNT, "9:0", [1])
        m.add_entry(Kind.CALL_COUNT, "8:0<9:5", [1])
        m.add_entry(Kind.CONDITIONAL, "8:7", [3, 0, 6, 9, 1, 4])
        m.add_entry(Kind.VIRTUAL_INVOKE, "8:3", [42, 7, 40, 4])
        m.add_entry(Kind.MONITOR, "0:0", [42, 3, 40, 1])
    return m


CANONICAL = {
    "version": "1.1.0",
    "types": [{"id": 0, "name": "A"}, {"id": 1, "name": "B"}, {"id": 2, "name": "void"}],
    "methods": [{"id": 1, "name": "main", "signature": [0, 2]},
                {"id": 2, "name": "old", "signature": [0, 2]},
                {"id": 3, "name": "run", "signature": [0, 2, 1]}],
    "callCountProfiles": [{"ctx": "1:0", "records": [1]}, {"ctx": "2:0", "records": [5]},
                          {"ctx": "3:0<1:5", "records": [2]}],
    "conditionalProfiles": [{"ctx": "3:7", "records": [3, 0, 6, 9, 1, 4]}],
    "virtualInvokeProfiles": [{"ctx": "3:3", "records": [0, 7, 1, 4]}],
    "monitorProfiles": [{"ctx": "0:0", "records": [0, 3, 1, 1]}],
    "samplingProfiles": [],
    "instanceOfProfiles": [],   # a model built in memory: GraalVM's spelling
}


def filter_model():
    """Types in packages com.foo, com.foo.impl, com.foobar, org and net; a
    method per type (5: unused); entries of four kinds."""
    m = iprof.Model()
    for tid, name in ((0, "void"), (1, "com.foo.Bar"), (2, "com.foo.impl.Baz"),
                      (3, "com.foobar.X"), (4, "org.Y"), (5, "net.Unused")):
        m.add_type(tid, name)
    for mid in range(1, 6):
        m.add_method(mid, "m%d" % mid, [mid, 0])
    m.add_entry(Kind.CALL_COUNT, "1:0", [100])
    m.add_entry(Kind.CALL_COUNT, "2:0", [50])
    m.add_entry(Kind.CALL_COUNT, "3:0", [30])
    m.add_entry(Kind.CALL_COUNT, "4:0<1:2", [20])    # callee org.Y, caller com.foo.Bar
    m.add_entry(Kind.SAMPLING, "1:1", [7])
    m.add_entry(Kind.SAMPLING, "3:1", [3])
    m.add_entry(Kind.MONITOR, "0:0", [0, 9])
    m.add_entry(Kind.VIRTUAL_INVOKE, "2:4", [1, 1, 2, 2])
    return m


def shape(m):
    """(call counts, sampling, monitor, virtual invokes, method ids, type ids)."""
    return ([e.ctx for e in m.call_count], [e.ctx for e in m.sampling], len(m.monitor),
            len(m.virtual_invoke), [x.id for x in m.methods], [t.id for t in m.types])


class CanonicalizeTest(unittest.TestCase):
    def test_two_numberings_write_the_same_bytes(self):
        with profile(False) as a, profile(True) as b:
            self.assertNotEqual(a.write(), b.write())
            a.canonicalize()
            b.canonicalize()
            self.assertEqual(a.write(), b.write())
            self.assertEqual(json.loads(a.write()), CANONICAL)
            once = a.write()
            a.canonicalize()                                  # idempotent
            self.assertEqual(a.write(), once)

    def test_canonical_write(self):
        """write(canonical=True) gives the canonical bytes without changing
        the model; threaded=True (sorting on a second thread) the same, on a
        model large enough for the second thread to run."""
        with profile(True) as small, iprof.Model() as big:
            for t in range(200):
                big.add_type(t, "T%03d" % ((t * 7) % 200))
            for i in range(9000):
                big.add_method((i * 7919) % 9000 + 1, "m%d" % (i % 37), [i % 200, (i * 3) % 200])
            for i in range(9000):
                big.add_entry(Kind.CALL_COUNT, "%d:0<%d:%d" % ((i * 31) % 9000 + 1, i % 9000 + 1,
                                                               i % 7), [i])
            for m in (small, big):
                before = m.write()
                got = m.write(canonical=True)
                self.assertEqual(m.write(canonical=True, threaded=True), got)
                self.assertEqual(m.write(), before)
                m.canonicalize()
                self.assertEqual(m.write(), got)
            self.assertEqual(json.loads(small.write()), CANONICAL)

    def test_invalidates_everything(self):
        with profile(True) as m:
            t, meth, e = m.types[0], m.methods[0], m.call_count[0]
            ctx = e.context
            m.canonicalize()
            for obj in (t, meth, e):
                self.assertFalse(obj.valid)
            for get in (lambda: t.name, lambda: meth.name, lambda: e.records,
                        lambda: ctx.frames, lambda: str(ctx)):
                with self.assertRaises(iprof.StaleError):
                    get()
            self.assertEqual(repr(ctx), "<iprof.Context (invalid)>")
            self.assertEqual(m.types[0].name, "A")
            self.assertEqual(m.call_count[2].context.describe(), "A.run:0 < A.main:5")

    def test_failure_leaves_the_model(self):
        # A leniently loaded file with a dangling method id.
        data = (b'{"version":"1.0.0","types":[{"id":0,"name":"int"}],"methods":[],'
                b'"callCountProfiles":[{"ctx":"7:0","records":[1]}],"conditionalProfiles":[],'
                b'"virtualInvokeProfiles":[],"monitorProfiles":[],"samplingProfiles":[]}')
        with iprof.load(data) as m:
            before = m.write(validate=False)
            with self.assertRaises(iprof.DanglingReferenceError):
                m.canonicalize()
            self.assertEqual(m.write(validate=False), before)
        m.close()
        with self.assertRaises(iprof.ClosedError):
            m.canonicalize()


ALL_METHODS, ALL_TYPES = [1, 2, 3, 4, 5], [0, 1, 2, 3, 4, 5]


class FilterTest(unittest.TestCase):
    def check(self, expected, kept=(ALL_METHODS, ALL_TYPES), **opts):
        """The filter leaves `expected`'s entries and the methods and types
        `kept` (all but those of dropped packages that nothing names);
        prune() then leaves `expected`'s methods and types."""
        with filter_model() as m:
            m.filter(**opts)
            self.assertEqual(shape(m), expected[:4] + tuple(kept), opts)
            m.prune()
            self.assertEqual(shape(m), expected, opts)

    def test_no_filter_changes_nothing(self):
        # Not even the method and type nothing names (prune's job).
        with filter_model() as m:
            before = m.write()
            m.filter()
            self.assertEqual(m.write(), before)
        self.check((["1:0", "2:0", "3:0", "4:0<1:2"], ["1:1", "3:1"], 1, 1,
                    [1, 2, 3, 4], [0, 1, 2, 3, 4]))

    def test_max_depth(self):
        # "4:0<1:2" cut to "4:0": its caller m1 stays (other entries name it).
        self.check((["1:0", "2:0", "3:0", "4:0"], ["1:1", "3:1"], 1, 1,
                    [1, 2, 3, 4], [0, 1, 2, 3, 4]), max_depth=1)
        with filter_model() as m:
            with self.assertRaises(ValueError):
                m.filter(max_depth=-1)

    def test_kinds(self):
        self.check((["1:0", "2:0", "3:0", "4:0<1:2"], [], 0, 0, [1, 2, 3, 4], [0, 1, 2, 3, 4]),
                   kinds=[Kind.CALL_COUNT])
        self.check(([], ["1:1", "3:1"], 1, 0, [1, 3], [0, 1, 3]),
                   kinds=["sampling", "monitorProfiles"])
        self.check(([], [], 1, 0, [], [0]), kinds=Kind.MONITOR)

    def test_packages(self):
        # com.foo keeps com.foo.Bar and com.foo.impl.Baz, not com.foobar.X;
        # the monitor entry is not judged.
        self.check((["1:0", "2:0"], ["1:1"], 1, 1, [1, 2], [0, 1, 2]),
                   keep_packages=["com.foo"])
        # A dropped package is gone from the file: its methods and types
        # (nothing left names them), and the org.Y entry too, as its caller
        # m1 is in com.foo (a trailing "." is ignored); m4, m5 and their
        # types stay until pruned.
        self.check((["3:0"], ["3:1"], 1, 0, [3], [0, 3]), ([3, 4, 5], [0, 3, 4, 5]),
                   drop_packages=["com.foo."])
        # Keep packages judge the callee only: the caller m1 stays.
        self.check((["4:0<1:2"], [], 1, 0, [1, 4], [0, 1, 4]), keep_packages=["org"])
        # The longest matching package decides; com.foo.Bar loses m1 but
        # stays: the virtual invoke's record names it.
        self.check((["2:0"], [], 1, 1, [2], [0, 1, 2]), ([2, 3, 4, 5], ALL_TYPES),
                   keep_packages=["com.foo.impl"], drop_packages=["com.foo"])
        self.check((["1:0", "2:0", "3:0"], ["1:1", "3:1"], 1, 1, [1, 2, 3], [0, 1, 2, 3]),
                   ([1, 2, 3, 5], [0, 1, 2, 3, 5]), keep_packages=["com"], drop_packages="org")

    def test_min_count(self):
        self.check((["1:0", "2:0", "3:0"], [], 0, 0, [1, 2, 3], [0, 1, 2, 3]), min_count=30)
        self.check((["1:0", "2:0", "3:0", "4:0<1:2"], ["1:1", "3:1"], 1, 1,
                    [1, 2, 3, 4], [0, 1, 2, 3, 4]), min_count=0)

    def test_top_percent(self):
        # call counts 100, 50, 30, 20 (200): 50% is reached at 100, 80% at 30;
        # sampling 7, 3: 50% at 7; monitor 9 and virtual invoke 3 stay.
        self.check((["1:0"], ["1:1"], 1, 1, [1, 2], [0, 1, 2]), top_percent=50)
        # 80%: call counts reach 160 at 30; sampling reaches 8 only at 3.
        self.check((["1:0", "2:0", "3:0"], ["1:1", "3:1"], 1, 1, [1, 2, 3], [0, 1, 2, 3]),
                   top_percent=80.0)
        self.check((["1:0", "2:0", "3:0", "4:0<1:2"], ["1:1", "3:1"], 1, 1,
                    [1, 2, 3, 4], [0, 1, 2, 3, 4]), top_percent=100)

    def test_combined(self):
        # kinds: call counts and samples; packages: 1:0, 2:0 and 1:1; minimum:
        # 100 and 50; top 60% of 150: 100.
        self.check((["1:0"], [], 0, 0, [1], [0, 1]),
                   kinds=[Kind.CALL_COUNT, Kind.SAMPLING], keep_packages=["com.foo"],
                   min_count=40, top_percent=60)

    def test_invalid_options_change_nothing(self):
        with filter_model() as m:
            before = m.write()
            with self.assertRaises(iprof.InvalidArgumentError):
                m.filter(top_percent=-1)
            with self.assertRaises(iprof.InvalidArgumentError):
                m.filter(top_percent=float("nan"))
            with self.assertRaises(ValueError):
                m.filter(kinds=[])
            with self.assertRaises(ValueError):
                m.filter(kinds=["nothing"])
            with self.assertRaises(ValueError):
                m.filter(keep_packages=["a\0b"])
            with self.assertRaises(iprof.LimitError):
                m.filter(min_count=1 << 63)
            self.assertEqual(m.write(), before)

    def test_invalidates_types_methods_entries(self):
        with filter_model() as m:
            t, meth, e = m.types[0], m.methods[0], m.sampling[0]
            ctx = m.call_count[0].context
            m.filter(min_count=1000)
            for obj in (t, meth, e):
                self.assertFalse(obj.valid)
            for get in (lambda: t.id, lambda: meth.name, lambda: e.records):
                with self.assertRaises(iprof.StaleError):
                    get()
            self.assertEqual(str(ctx), "1:0")                 # contexts stay
            self.assertEqual(shape(m), ([], [], 0, 0, ALL_METHODS, ALL_TYPES))
            m.prune()
            self.assertEqual(shape(m), ([], [], 0, 0, [], []))


class GzipTest(unittest.TestCase):
    def test_supported_is_a_bool(self):
        self.assertIsInstance(iprof.gzip_supported(), bool)

    def test_round_trip(self):
        if not iprof.gzip_supported():
            self.skipTest("this libiprof is built without zlib (iprof.gzip_supported() is False)")
        with profile(False) as m, tempfile.TemporaryDirectory() as tmp:
            plain = m.write()
            path = os.path.join(tmp, "p.iprof.gz")
            m.write(path)                                     # .gz: compressed
            with open(path, "rb") as f:
                data = f.read()
            self.assertEqual(data[:2], b"\x1f\x8b")
            for source in (path, data, open(path, "rb")):
                try:
                    with iprof.load(source, strict=True) as again:
                        self.assertEqual(again.write(), plain)
                finally:
                    if hasattr(source, "close"):
                        source.close()
            packed = m.write(gzip=True)                       # any sink with gzip=True
            self.assertEqual(packed, data)                    # no name, time 0
            with iprof.Writer(gzip=True) as w:
                w.write_model(m)
                self.assertEqual(w.getvalue(), data)
            self.assertEqual(iprof.validate(packed, strict=True), [])
            seen = []
            iprof.read(path, on_call_count=lambda e: seen.append(e.records[0]))
            self.assertEqual(seen, [1, 2, 5])
            with self.assertRaises(iprof.JSONSyntaxError):
                iprof.load(data[:len(data) // 2])

    def test_without_zlib(self):
        if iprof.gzip_supported():
            self.skipTest("this libiprof has gzip support (the failure without it is not "
                          "testable here)")
        with profile(False) as m:
            with self.assertRaises(iprof.InputOutputError):
                m.write(gzip=True)


if __name__ == "__main__":
    unittest.main()

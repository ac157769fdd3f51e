"""Model.columns: a kind's entries as memoryviews of the C model's arrays,
exact values, numpy over them without a copy, the corpus against the
per-entry accessors, and what a change or close does to views in use.

The numpy tests need numpy (Debian's python3-numpy, which scripts/test.sh
installs; meson runs this module with the python3 that imports it) and
skip, saying so, without it."""
import gc
import json
import unittest

import support  # noqa: F401  (puts the package on sys.path)
from support import corpus
import iprof
from iprof import Kind

try:
    import numpy
except ImportError:          # pragma: no cover - depends on the machine
    numpy = None


def sample():
    """As tests/test_columns.c: three conditional entries, one at a
    three-frame context."""
    m = iprof.Model()
    m.add_type(0, "T")
    m.add_type(5, "U")
    m.add_method(1, "m", [0, 0])
    m.add_method(2, "n", [0, 0])
    m.add_entry(Kind.CONDITIONAL, "1:0", [3, 0, 5, 3, 1, 2])
    m.add_entry(Kind.CONDITIONAL, "1:2<2:7", [9, 0, 11])
    m.add_entry(Kind.CONDITIONAL, "1:4<2:7<1:3", [4, 1, 40, 6, 0, 60, 8, 2, 80])
    m.add_entry(Kind.CALL_COUNT, "1:0", [7])
    return m


class ColumnsTest(unittest.TestCase):
    def test_exact_values(self):
        with sample() as m:
            c = m.columns(Kind.CONDITIONAL)
            self.assertEqual((len(c), c.record_count, c.frame_count), (3, 18, 6))
            self.assertEqual(c.records.tolist(),
                             [3, 0, 5, 3, 1, 2, 9, 0, 11, 4, 1, 40, 6, 0, 60, 8, 2, 80])
            self.assertEqual(c.offsets.tolist(), [0, 6, 9, 18])
            self.assertEqual(c.frames.tolist(), [1, 0, 1, 2, 2, 7, 1, 4, 2, 7, 1, 3])
            self.assertEqual(c.frame_offsets.tolist(), [0, 1, 3, 6])
            self.assertEqual((c.records.format, c.offsets.format), ("q", "Q"))
            self.assertTrue(c.records.readonly)
            self.assertEqual(str(c.context(2)), "1:4<2:7<1:3")
            self.assertEqual(c.context(1), m.conditional[1].context)
            with self.assertRaises(IndexError):
                c.context(3)
            empty = m.columns("samplingProfiles")
            self.assertEqual((len(empty), empty.records.tolist(), empty.offsets.tolist()),
                             (0, [], [0]))
            with self.assertRaises(ValueError):
                m.columns(17)

    def test_change_releases_views(self):
        with sample() as m:
            c = m.columns(Kind.CONDITIONAL)
            self.assertIs(m.columns("conditionalProfiles"), c)   # kept until a change
            records = c.records
            m.scale(2.0, Kind.CONDITIONAL)
            with self.assertRaises(ValueError):   # released memoryview
                records.tolist()
            with self.assertRaises(iprof.StateError):
                c.context(0)
            self.assertIsNot(m.columns(Kind.CONDITIONAL), c)
            c = m.columns(Kind.CONDITIONAL)
            self.assertEqual(c.records.tolist()[:6], [3, 0, 10, 3, 1, 4])
            m.close()
            with self.assertRaises(ValueError):
                c.records.tolist()

    def test_corpus_sums(self):
        path = corpus("jsonata-cli-0.4.0.iprof")
        with open(path, "rb") as f:
            doc = json.loads(f.read())
        with iprof.load(path) as m:
            for kind in (Kind.CALL_COUNT, Kind.CONDITIONAL, Kind.VIRTUAL_INVOKE,
                         Kind.MONITOR, Kind.SAMPLING):
                c = m.columns(kind)
                want = doc[kind.json_key]
                self.assertEqual(len(c), len(want))
                self.assertEqual(sum(c.records), sum(sum(e["records"]) for e in want))
                self.assertEqual(c.frame_count, sum(e["ctx"].count("<") + 1 for e in want))
                entries = m.profiles(kind)
                offs = c.offsets.tolist()
                recs = c.records.tolist()
                self.assertEqual([recs[offs[i]:offs[i + 1]] for i in range(len(c))],
                                 [list(e.records) for e in entries])
            # Python's json over the same file, as tests/test_columns.c.
            self.assertEqual(sum(m.columns(Kind.CALL_COUNT).records), 29253155013)


@unittest.skipIf(numpy is None, "numpy is not installed (Debian: python3-numpy)")
class NumpyTest(unittest.TestCase):
    def test_zero_copy(self):
        with sample() as m:
            c = m.columns(Kind.CONDITIONAL)
            a = numpy.asarray(c.records)
            self.assertEqual(a.dtype, numpy.int64)
            self.assertFalse(a.flags.writeable)
            self.assertFalse(a.flags.owndata)
            # The C model's own memory: the address iprof_model_get_columns gave.
            again = iprof._lib.iprof_columns()
            again.version = iprof._lib.COLUMNS_VERSION
            m._L.iprof_model_get_columns(m._ptr, Kind.CONDITIONAL, again)
            self.assertEqual(a.__array_interface__["data"][0], again.records)
            self.assertEqual(int(a.sum()), 235)
            counts = a.reshape(-1, 3)[:, 2]
            self.assertEqual(counts.tolist(), [5, 2, 11, 40, 60, 80])
            pairs = numpy.asarray(c.frames).reshape(-1, 2)
            callee = pairs[numpy.asarray(c.frame_offsets)[:-1].astype(numpy.int64), 0]
            self.assertEqual(callee.tolist(), [1, 1, 1])
            # A change while the array is alive is refused, nothing changed;
            # the views are released, the array still reads the memory.
            with self.assertRaises(iprof.StateError):
                m.scale(2.0, Kind.CONDITIONAL)
            self.assertEqual(m.conditional[0].records, [3, 0, 5, 3, 1, 2])
            with self.assertRaises(ValueError):
                c.records.tolist()
            with self.assertRaises(iprof.StateError):
                m.close()
            self.assertFalse(m.closed)
            self.assertEqual(int(a.sum()), 235)
            # A slice of a view reaches the memory too.
            s = m.columns(Kind.CONDITIONAL).records[2:4]
            del a, counts, pairs, callee
            with self.assertRaises(iprof.StateError):
                m.scale(2.0, Kind.CONDITIONAL)
            self.assertEqual(s.tolist(), [5, 3])
            del s
            b = numpy.frombuffer(m.columns(Kind.CONDITIONAL).offsets, dtype=numpy.uint64)
            with self.assertRaises(iprof.StateError):
                m.scale(2.0, Kind.CONDITIONAL)
            self.assertEqual(b.tolist(), [0, 6, 9, 18])
            del b
            m.scale(2.0, Kind.CONDITIONAL)
            self.assertEqual(int(numpy.asarray(m.columns(Kind.CONDITIONAL).records).sum()),
                             235 + 198)

    def test_array_keeps_model(self):
        m = sample()
        a = numpy.asarray(m.columns(Kind.CONDITIONAL).records)
        del m
        gc.collect()
        self.assertEqual(int(a.sum()), 235)   # the model is alive while the array is

    def test_corpus_sum(self):
        path = corpus("jsonata-cli-0.4.0.iprof")
        with iprof.load(path) as m:
            for kind in Kind:
                c = m.columns(kind)
                per_entry = sum(sum(e.records) for e in m.profiles(kind))
                self.assertEqual(int(numpy.asarray(c.records).sum()), per_entry)
            del c


if __name__ == "__main__":
    unittest.main()

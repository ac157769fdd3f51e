"""Building, mutating, merging and writing models; the streaming Writer."""
import io
import json
import os
import pathlib
import tempfile
import unittest

import support
from support import FIB, doc
import iprof
from iprof import Kind


# Two documents with types and a method in common, under other ids.
MERGE_DST = doc(types=[(0, "void"), (1, "A")], methods=[(1, "f", [1, 0])],
                callCountProfiles=[("1:0", [10])], virtualInvokeProfiles=[("1:2", [1, 3])])
MERGE_SRC = doc(types=[(5, "B"), (0, "void"), (1, "A")],
                methods=[(7, "g", [5, 0]), (1, "f", [1, 0])],
                callCountProfiles=[("1:0", [1]), ("7:0", [2])],
                virtualInvokeProfiles=[("1:2", [5, 4, 1, 1])])


def small_model():
    m = iprof.Model()
    m.add_type(0, "void")
    m.add_type(1, "A")
    m.add_type(2, "B")
    m.add_method(1, "main", [1, 0])
    m.add_method(2, "run", [2, 0, 1])
    return m


class MutationTest(unittest.TestCase):
    def test_build_and_write(self):
        with small_model() as m:
            self.assertEqual(m.version, "1.1.0")
            e = m.add_entry(Kind.CALL_COUNT, "2:0<1:3", [4])
            self.assertEqual((e.kind, e.ctx, e.records), (Kind.CALL_COUNT, "2:0<1:3", [4]))
            m.add_entry(Kind.CONDITIONAL, [(1, 3)], [3, 0, 5, 3, 1, 7])
            e = m.add_entry("conditional", "1:3", [3, 1, 2, 9, 0, 1])
            self.assertEqual(e.records, [3, 0, 5, 3, 1, 9, 9, 0, 1])  # matched by (bci, index)
            m.add_entry(Kind.VIRTUAL_INVOKE, "1:8", [1, 5, 2, 6])
            e = m.add_entry(Kind.VIRTUAL_INVOKE, "1:8", [2, 1])
            self.assertEqual(e.records, [1, 5, 2, 7])                  # matched by type
            m.add_entry(Kind.MONITOR, "0:0", [2, 1])
            m.add_entry(Kind.SAMPLING, "2:4<1:3", [100])
            m.add_entry(Kind.INSTANCEOF, "2:9", [1, 3])
            data = m.write()
            self.assertEqual(json.loads(data), {
                "version": "1.1.0",
                "types": [{"id": 0, "name": "void"}, {"id": 1, "name": "A"},
                          {"id": 2, "name": "B"}],
                "methods": [{"id": 1, "name": "main", "signature": [1, 0]},
                            {"id": 2, "name": "run", "signature": [2, 0, 1]}],
                "callCountProfiles": [{"ctx": "2:0<1:3", "records": [4]}],
                "conditionalProfiles": [{"ctx": "1:3", "records": [3, 0, 5, 3, 1, 9, 9, 0, 1]}],
                "virtualInvokeProfiles": [{"ctx": "1:8", "records": [1, 5, 2, 7]}],
                "monitorProfiles": [{"ctx": "0:0", "records": [2, 1]}],
                "samplingProfiles": [{"ctx": "2:4<1:3", "records": [100]}],
                # A model built in memory writes GraalVM's spelling.
                "instanceOfProfiles": [{"ctx": "2:9", "records": [1, 3]}]})
            self.assertEqual(iprof.validate(data, strict=True), [])
            # Other versions and layouts.
            with self.assertRaises(iprof.VersionError):
                m.write(version="1.0.0")
            old = json.loads(m.write(version="0.4.0", drop_instanceof=True))
            self.assertEqual(list(old)[:4], ["version", "types", "methods", "monitorProfiles"])
            self.assertFalse({"instanceofProfiles", "instanceOfProfiles"} & set(old))
            pretty = m.write(pretty=True)
            self.assertEqual(json.loads(pretty), json.loads(data))
            self.assertTrue(pretty.startswith(b'{\n  "version": "1.1.0",\n'))
            m.version = "1.0.0"
            m.filter(keep_entry=lambda e: e.kind != Kind.INSTANCEOF)
            self.assertEqual(json.loads(m.write())["version"], "1.0.0")

    def test_remove(self):
        with small_model() as m:
            m.add_entry(Kind.CALL_COUNT, "2:0", [1])
            m.add_entry(Kind.CALL_COUNT, "1:0", [2])
            m.remove_entry(m.call_count[0])
            self.assertEqual([e.ctx for e in m.call_count], ["1:0"])
            m.remove_entry(Kind.CALL_COUNT, [(1, 0)])
            self.assertEqual(len(m.call_count), 0)
            m.remove_method(m.methods.by_id(2))
            m.remove_type(2)
            self.assertEqual([t.name for t in m.types], ["void", "A"])
            self.assertEqual([x.name for x in m.methods], ["main"])

    def test_write_targets(self):
        data = open(FIB, "rb").read()
        with iprof.load(FIB) as m, tempfile.TemporaryDirectory() as tmp:
            expected = m.write()
            self.assertEqual(json.loads(expected), json.loads(data))
            path = os.path.join(tmp, "out.iprof")
            self.assertIsNone(m.write(path))
            self.assertEqual(open(path, "rb").read(), expected)
            import pathlib
            m.write(pathlib.Path(path), pretty=True, sync=False)
            self.assertEqual(open(path, "rb").read(), m.write(pretty=True))
            buf = io.BytesIO()
            self.assertIsNone(m.write(buf, buffer_size=16))
            self.assertEqual(buf.getvalue(), expected)
            # A failing write leaves the previous file as it was.
            with self.assertRaises(iprof.VersionError):
                m.write(path, version="1.0.0")
            self.assertEqual(open(path, "rb").read(), m.write(pretty=True))
            self.assertEqual(sorted(os.listdir(tmp)), ["out.iprof"])
            with self.assertRaises(iprof.InputOutputError) as cm:
                m.write(os.path.join(tmp, "no", "such", "dir.iprof"))
            self.assertEqual(cm.exception.filename, os.path.join(tmp, "no", "such", "dir.iprof"))

    def test_write_callback_exception(self):
        class Broken(io.RawIOBase):
            def write(self, data):
                raise OSError("disk full")
        with iprof.load(FIB) as m:
            with self.assertRaises(OSError) as cm:
                m.write(Broken())
            self.assertEqual(str(cm.exception), "disk full")

    def test_write_partial_writes(self):
        """A raw file object that takes a few bytes at a time gets them all;
        one that takes none (a full non-blocking pipe) fails the write
        instead of losing bytes; a plain object whose write returns None
        takes everything."""
        class Trickle(io.RawIOBase):
            def __init__(self, step):
                self.step, self.got, self.offered = step, bytearray(), []

            def writable(self):
                return True

            def write(self, data):
                self.offered.append(len(data))
                n = min(self.step, len(data))
                self.got += bytes(data[:n])
                return n

        class Blocked(io.RawIOBase):
            def writable(self):
                return True

            def write(self, data):
                return None

        class Plain:
            def __init__(self):
                self.parts = []

            def write(self, data):
                self.parts.append(data)

        with iprof.load(FIB) as m:
            want = m.write()
            sink = Trickle(7)
            m.write(sink, buffer_size=64)
            self.assertEqual(bytes(sink.got), want)
            # Each call after a short one offers the rest of the bytes.
            self.assertTrue(len(sink.offered) > len(want) // 7)
            for a, b in zip(sink.offered, sink.offered[1:]):
                self.assertTrue(a <= 7 or b == a - 7, (a, b))
            with self.assertRaises(BlockingIOError):
                m.write(Blocked())
            plain = Plain()
            m.write(plain)
            self.assertEqual(b"".join(plain.parts), want)
        r, w = os.pipe()
        os.set_blocking(w, False)
        big = iprof.Model()
        self.addCleanup(big.close)
        for i in range(20000):
            big.add_type(i, "T%d" % i)
        with os.fdopen(w, "wb", buffering=0) as f, self.assertRaises(BlockingIOError):
            big.write(f)
        os.close(r)

    def test_writer_streaming(self):
        with iprof.Writer(version="1.0.0") as w:
            w.type(0, "void")
            w.type(1, "A")
            w.method(1, "main", [1, 0])
            w.entry(Kind.CALL_COUNT, "1:0", [7])
            w.entry(Kind.MONITOR, [(0, 0)], [1, 2])
            data = w.end()
        self.assertEqual(data, doc(types=[(0, "void"), (1, "A")], methods=[(1, "main", [1, 0])],
                                   callCountProfiles=[("1:0", [7])],
                                   conditionalProfiles=[], virtualInvokeProfiles=[],
                                   monitorProfiles=[("0:0", [1, 2])], samplingProfiles=[]))
        # By default an entry may only name what was written before.
        w = iprof.Writer()
        w.type(0, "void")
        with self.assertRaises(iprof.DanglingReferenceError) as cm:
            w.entry(Kind.SAMPLING, "1:0", [1])
        self.assertIn("method id 1", cm.exception.message)
        w.close()
        # Without the reference checks it may, and the order still holds.
        w = iprof.Writer(check_references=False)
        w.type(0, "void")
        w.entry(Kind.SAMPLING, "1:0", [1])
        with self.assertRaises(iprof.StateError):
            w.type(1, "late")
        with self.assertRaises(iprof.StateError):     # the writer stays failed
            w.end()
        w.close()
        with self.assertRaises(iprof.ClosedError):
            w.end()
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "w.iprof")
            with self.assertRaises(RuntimeError):
                with iprof.Writer(path) as w:
                    w.type(0, "void")
                    raise RuntimeError("abandon")
            self.assertEqual(os.listdir(tmp), [])      # nothing written
            with iprof.Writer(path) as w:
                w.type(0, "void")
            self.assertEqual(json.loads(open(path, "rb").read())["types"],
                             [{"id": 0, "name": "void"}])

    def test_merge(self):
        a, b = MERGE_DST, MERGE_SRC
        with iprof.load(a) as ma, iprof.load(b) as mb:
            ma.merge(mb, weight=3)
            self.assertEqual([(t.id, t.name) for t in ma.types], [(0, "void"), (1, "A"), (5, "B")])
            self.assertEqual([(x.id, x.name, x.signature) for x in ma.methods],
                             [(1, "f", (1, 0)), (7, "g", (5, 0))])
            self.assertEqual([(e.ctx, e.records) for e in ma.call_count],
                             [("1:0", [13]), ("7:0", [6])])
            self.assertEqual(ma.virtual_invoke[0].records, [1, 6, 5, 12])
            ma.merge(mb, 0.6)        # 1 * 0.6 -> 1, 2 * 0.6 -> 1
            self.assertEqual([e.records for e in ma.call_count], [[14], [7]])
            for bad in (-1, float("nan"), float("inf")):
                with self.assertRaises(ValueError):
                    ma.merge(mb, bad)
            with self.assertRaises(TypeError):
                ma.merge(b)
            for bad in ("2", None, True):
                with self.assertRaises(TypeError):
                    ma.merge(mb, bad)
            self.assertEqual([e.records for e in ma.call_count], [[14], [7]])

    def test_merge_from(self):
        """merge_from streams a source into the model: the same as loading
        it and merging, from bytes, a path and a file object, threaded or
        not; all or nothing on failure."""
        a, b = MERGE_DST, MERGE_SRC
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "b.iprof")
            with open(path, "wb") as f:
                f.write(b)
            with iprof.load(a) as want, iprof.load(b) as mb:
                want.merge(mb, 2.5, rounding="nearest_even")
                expected = want.write()
            for threaded in (False, True):
                for source in (b, bytearray(b), path, pathlib.Path(path), io.BytesIO(b)):
                    with iprof.load(a) as ma:
                        ma.merge_from(source, 2.5, rounding="nearest_even", threaded=threaded)
                        self.assertEqual(ma.write(), expected, (threaded, type(source)))
            with iprof.load(a) as ma:
                before = ma.write()
                with self.assertRaises(iprof.Error) as cm:     # truncated: the read fails
                    ma.merge_from(b[:-30])
                self.assertEqual(cm.exception.status, iprof.Status.ESYNTAX)
                self.assertEqual(cm.exception.line, 1)
                self.assertEqual(cm.exception.offset, len(b) - 30)
                self.assertEqual(ma.write(), before)
                with self.assertRaises(iprof.Error) as cm:     # a missing file
                    ma.merge_from(os.path.join(tmp, "missing.iprof"))
                self.assertEqual(cm.exception.filename, os.path.join(tmp, "missing.iprof"))
                dangling = doc(callCountProfiles=[("9:0", [1])])
                with self.assertRaises(iprof.DanglingReferenceError) as cm:
                    ma.merge_from(dangling, check_references=False)
                self.assertEqual(cm.exception.message, "callCountProfiles entry: method id 9 "
                                 "is not defined in the profile merged from")
                with self.assertRaises(ValueError):
                    ma.merge_from(b, -1)
                with self.assertRaises(TypeError):
                    ma.merge_from(12)

                class Broken(io.RawIOBase):
                    def readinto(self, buf):
                        raise OSError("disk on fire")
                with self.assertRaisesRegex(OSError, "disk on fire"):
                    ma.merge_from(Broken())
                self.assertEqual(ma.write(), before)

    def test_merge_gives_the_highest_version(self):
        v100 = doc(version="1.0.0", types=[(0, "void")])
        v110 = doc(version="1.1.0", types=[(0, "void")])
        v040 = doc(version="0.4.0", types=[(0, "void")])
        # A new model takes its first input's version, even a lower one.
        with iprof.Model() as m, iprof.load(v100) as a, iprof.load(v110) as b, \
                iprof.load(v040) as c:
            self.assertEqual(m.version, "1.1.0")
            m.merge(a)
            self.assertEqual(m.version, "1.0.0")
            m.merge(c)                              # lower: kept
            self.assertEqual(m.version, "1.0.0")
            m.merge(b)                              # higher: raised
            self.assertEqual(m.version, "1.1.0")
            m.merge(a)
            self.assertEqual(m.version, "1.1.0")
        # A loaded model (or one whose version was set) is raised, never lowered.
        with iprof.load(v040) as m, iprof.load(v100) as a:
            m.merge(a)
            self.assertEqual(m.version, "1.0.0")
        with iprof.Model() as m, iprof.load(v040) as c:
            m.version = "1.0.0"
            m.merge(c)
            self.assertEqual(m.version, "1.0.0")


if __name__ == "__main__":
    unittest.main()

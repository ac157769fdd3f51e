"""Streaming: read() with Python callbacks, the Stream iterator, iter_entries."""
import gc
import io
import threading
import time
import unittest

import support
from support import FIB, doc, EXTREMES, I64_MAX, I64_MIN
import iprof
from iprof import Kind
from test_model import FIB_CALLS, FIB_METHODS, FIB_TYPES


class ReadTest(unittest.TestCase):
    def test_all_callbacks_in_document_order(self):
        events = []
        r = iprof.read(FIB, on_version=lambda v: events.append(("version", v)),
                       on_type=lambda t: events.append(("type", t)),
                       on_method=lambda m: events.append(("method", m)),
                       on_entry=lambda e: events.append(("entry", e)))
        self.assertEqual(r, iprof.ReadResult("1.1.0", [], False))
        self.assertEqual(events[0], ("version", "1.1.0"))
        types = [x for k, x in events if k == "type"]
        self.assertEqual([t.name for t in types], FIB_TYPES)
        self.assertEqual(types[10], iprof.TypeInfo(10, "Fib"))
        methods = [x for k, x in events if k == "method"]
        self.assertEqual([tuple(x) for x in methods], FIB_METHODS)
        entries = [x for k, x in events if k == "entry"]
        self.assertEqual([e.kind for e in entries], [Kind.CALL_COUNT] * 9 + [Kind.CONDITIONAL] * 2
                         + [Kind.VIRTUAL_INVOKE, Kind.MONITOR] + [Kind.SAMPLING] * 2
                         + [Kind.INSTANCEOF])
        self.assertEqual([(e.ctx, e.records) for e in entries[:9]], FIB_CALLS)
        self.assertEqual(entries[10], iprof.EntryInfo(Kind.CONDITIONAL,
                                                      [(5, 1), (4, 2), (3, 34)],
                                                      [6, 0, 0, 9, 1, 10]))
        # The order of the kinds in the list of events is the document's.
        self.assertEqual([k for k, _ in events][:1 + 17 + 10],
                         ["version"] + ["type"] * 17 + ["method"] * 10)

    def test_per_kind_callbacks(self):
        calls, others = [], []
        iprof.read(FIB, on_call_count=calls.append, on_entry=others.append)
        self.assertEqual(len(calls), 9)
        self.assertEqual(sorted({e.kind for e in others}),
                         [Kind.CONDITIONAL, Kind.VIRTUAL_INVOKE, Kind.MONITOR, Kind.SAMPLING,
                          Kind.INSTANCEOF])
        got = []
        iprof.read(FIB, on_monitor=got.append)
        self.assertEqual(got, [iprof.EntryInfo(Kind.MONITOR, [(0, 0)], [9, 4, 10, 1])])

    def test_int64_extremes(self):
        got = []
        iprof.read(EXTREMES, strict=True, on_type=got.append, on_method=got.append,
                   on_entry=got.append)
        self.assertEqual(got[0], (I64_MIN, "Min"))
        self.assertEqual(got[3], (I64_MAX, "big", (I64_MIN, 0)))
        self.assertEqual(got[5], (Kind.CALL_COUNT, [(I64_MAX, 0), (1, I64_MIN)], [I64_MAX]))
        self.assertEqual(got[7].records, [I64_MIN, 0, I64_MAX, -1, I64_MAX, 1])

    def test_exception_stops_and_propagates(self):
        seen = []

        def on_entry(e):
            seen.append(e)
            if len(seen) == 3:
                raise ZeroDivisionError("stop here")
        with self.assertRaises(ZeroDivisionError) as cm:
            iprof.read(FIB, on_entry=on_entry)
        self.assertEqual(str(cm.exception), "stop here")
        self.assertEqual(len(seen), 3)          # nothing after the exception

    def test_stop_read(self):
        seen = []

        def on_type(t):
            seen.append(t)
            if t.id == 4:
                raise iprof.StopRead()
        r = iprof.read(FIB, on_type=on_type)
        self.assertEqual((r.version, r.stopped, len(seen)), ("1.1.0", True, 5))

    def test_unknown_keys(self):
        data = b'{"version":"1.0.0","extra":{"a": [1, 2]},"types":[],"methods":[],"z":7}'
        got = []
        iprof.read(data, on_unknown=got.append)
        self.assertEqual(got, [iprof.UnknownKey("extra", b'{"a": [1, 2]}'),
                               iprof.UnknownKey("z", b"7")])

    def test_file_objects(self):
        data = open(FIB, "rb").read()

        class Chunky:
            """read() only, in small pieces."""
            def __init__(self):
                self.f = io.BytesIO(data)

            def read(self, n):
                return self.f.read(min(n, 7))
        for src in (io.BytesIO(data), Chunky(), open(FIB, "rb")):
            calls = []
            iprof.read(src, on_call_count=calls.append, chunk_size=64)
            self.assertEqual([(e.ctx, e.records) for e in calls], FIB_CALLS)
            with iprof.load(Chunky() if isinstance(src, Chunky) else io.BytesIO(data)) as m:
                self.assertEqual(len(m.call_count), 9)

        class Failing(io.RawIOBase):
            def readinto(self, b):
                raise PermissionError("no")
        with self.assertRaises(PermissionError):
            iprof.read(Failing())
        with self.assertRaises(PermissionError):
            iprof.load(Failing())
        with self.assertRaises(TypeError):
            iprof.read(io.StringIO("{}"))
        with self.assertRaises(TypeError):
            iprof.read(42)

    def test_error_carries_diagnostics(self):
        bad = doc(types=[(0, "int")], methods=[(1, "m", [0, 0])], callCountProfiles=[("1:0", [1, 2])])[:-1] + b",]"
        with self.assertRaises(iprof.JSONSyntaxError) as cm:
            iprof.read(bad)
        self.assertEqual([d.path for d in cm.exception.diagnostics],
                         ["callCountProfiles[0].records"])


class StreamTest(unittest.TestCase):
    def test_stream_everything(self):
        with iprof.stream(FIB) as s:
            items = list(s)
        self.assertEqual([type(x).__name__ for x in items],
                         ["TypeInfo"] * 17 + ["MethodInfo"] * 10 + ["EntryInfo"] * 16)
        self.assertEqual(s.version, "1.1.0")
        self.assertEqual(s.diagnostics, [])
        self.assertFalse(s.stopped)
        expected = []
        iprof.read(FIB, on_type=expected.append, on_method=expected.append,
                   on_entry=expected.append)
        self.assertEqual(items, expected)

    def test_iter_entries(self):
        self.assertEqual([(e.ctx, e.records) for e in iprof.iter_entries(FIB, Kind.CALL_COUNT)],
                         FIB_CALLS)
        self.assertEqual([e.kind for e in iprof.iter_entries(FIB, ["sampling", "monitor"])],
                         [Kind.MONITOR, Kind.SAMPLING, Kind.SAMPLING])
        self.assertEqual(sum(1 for _ in iprof.iter_entries(open(FIB, "rb").read())), 16)

    def test_small_batches_and_queue(self):
        items = list(iprof.stream(FIB, batch_size=1, queue_size=1, unknown=True))
        self.assertEqual(len(items), 43)

    def test_early_close(self):
        before = threading.active_count()
        s = iprof.iter_entries(FIB, batch_size=1, queue_size=1)
        first = next(s)
        self.assertEqual(first.ctx, "1:0")
        s.close()
        self.assertTrue(s.stopped)
        self.assertEqual(list(s), [])
        s.close()                                   # twice: no-op
        # Abandoned iterators are cleaned up by garbage collection.
        s = iprof.stream(FIB, batch_size=1, queue_size=1)
        next(s)
        del s
        gc.collect()
        for _ in range(100):
            if threading.active_count() <= before:
                break
            time.sleep(0.01)
        self.assertEqual(threading.active_count(), before)

    def test_stream_error(self):
        s = iprof.stream(b'{"version":"1.0.0","types":[{"id":0,"name":"a"},{"id":1}]}')
        self.assertEqual(next(s), iprof.TypeInfo(0, "a"))
        with self.assertRaises(iprof.SchemaError) as cm:
            next(s)
        self.assertEqual(cm.exception.path, "types[1]")
        self.assertEqual(list(s), [])
        with self.assertRaises(iprof.InputOutputError):
            list(iprof.iter_entries("/nonexistent/x.iprof"))

    def test_consumer_runs_concurrently(self):
        # The consumer may use a model while the stream reads: separate handles.
        with iprof.load(FIB) as m:
            for e in iprof.iter_entries(FIB, Kind.CALL_COUNT):
                self.assertEqual(m.find_entry(e.kind, e.frames).records, e.records)


if __name__ == "__main__":
    unittest.main()

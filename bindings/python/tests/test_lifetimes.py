"""Lifetimes: nothing touches freed memory. Objects of a closed model raise
ClosedError; entries (and entry iterators) raise StaleError after a change
to their kind; types and methods after removals."""
import gc
import itertools
import unittest
import weakref

import support
from support import FIB
import iprof
from iprof import Kind


class ClosedTest(unittest.TestCase):
    def test_everything_raises_after_close(self):
        m = iprof.load(FIB)
        t, meth, e = m.types[10], m.methods[2], m.call_count[4]
        ctx = e.context
        types, calls = m.types, m.call_count
        it_types, it_entries = iter(m.types), iter(m.conditional)
        next(it_types)
        next(it_entries)
        m.close()
        self.assertTrue(m.closed)
        checks = [
            lambda: t.id, lambda: t.name, lambda: meth.name, lambda: meth.signature,
            lambda: meth.describe(), lambda: e.records, lambda: e.context, lambda: e.kind,
            lambda: ctx.frames, lambda: ctx.depth, lambda: str(ctx), lambda: ctx.describe(),
            lambda: ctx.caller, lambda: ctx == ctx, lambda: len(types), lambda: types[0],
            lambda: types.by_id(1), lambda: types.by_name("Fib"), lambda: len(calls),
            lambda: calls[0], lambda: calls.find("1:0"), lambda: next(it_types),
            lambda: next(it_entries), lambda: m.version, lambda: m.types[0],
            lambda: len(m.methods), lambda: m.add_type(99, "x"), lambda: m.write(),
            lambda: m.find_entry(Kind.CALL_COUNT, "1:0"), lambda: m.context_count,
            lambda: m.remove_entry(Kind.CALL_COUNT, "1:0"),
            lambda: m.filter(keep_entry=lambda x: True),
        ]
        for i, f in enumerate(checks):
            with self.assertRaises(iprof.ClosedError, msg="check %d" % i):
                f()
        # repr never raises
        for obj in (m, t, meth, e, ctx, types, calls):
            self.assertIn("closed" if obj in (m, ctx, types, calls) else "invalid", repr(obj))
        self.assertFalse(t.valid or meth.valid or e.valid)

    def test_close_inside_iteration(self):
        m = iprof.load(FIB)
        seen = []
        with self.assertRaises(iprof.ClosedError):
            for entry in m.call_count:
                seen.append(entry.records[0])
                if len(seen) == 3:
                    m.close()
        self.assertEqual(seen, [1, 1, 1])

    def test_merge_with_closed(self):
        a, b = iprof.load(FIB), iprof.load(FIB)
        b.close()
        with self.assertRaises(iprof.ClosedError):
            a.merge(b)
        a.close()

    def test_close_inside_filter_predicate(self):
        """A filter predicate that closes the model: StaleError, and the C
        filter never runs on the freed model."""
        for retain in (lambda m, f: m.filter(keep_entry=f), lambda m, f: m.filter(keep_type=f),
                       lambda m, f: m.filter(keep_method=f),
                       lambda m, f: m.filter(keep_frame=lambda mid, bci: f(None))):
            m = iprof.load(FIB)
            with self.assertRaises(iprof.StaleError):
                retain(m, lambda item: m.close() or True)
            self.assertTrue(m.closed)

    def test_no_change_inside_write(self):
        """While a write calls the target's write, the model may be read,
        not changed or closed (StateError), and the writer not used or
        closed: the C call is still walking both. The write then fails with
        that error and the model is as it was."""
        m = iprof.load(FIB)
        self.addCleanup(m.close)
        want = m.write()
        changes = [m.close, lambda: m.add_type(9999, "X"), lambda: setattr(m, "version", "1.0.0"),
                   lambda: m.filter(keep_type=lambda t: True), lambda: m.scale(2.0),
                   lambda: m.merge(iprof.load(FIB))]
        for i, change in enumerate(changes):
            seen = []

            class Sink:
                def write(self, data):
                    seen.append(len(m.types))          # reading is fine
                    change()
            with self.assertRaises(iprof.StateError, msg="change %d" % i) as cm:
                m.write(Sink())
            self.assertIn("cannot", str(cm.exception))
            self.assertEqual(seen, [len(m.types)])
            self.assertFalse(m.closed)
            self.assertEqual(m.write(), want)
        for what in ("close", "end"):
            holder = []

            class WriterSink:
                def write(self, data):
                    getattr(holder[0], what)()
            w = iprof.Writer(WriterSink())
            holder.append(w)
            with self.assertRaises(iprof.StateError):
                w.write_model(m)
            w.close()                                  # outside the sink: fine
            self.assertEqual(m.write(), want)

    def test_no_use_inside_merge_from(self):
        """merge_from reading a file object that closes, changes or even
        reads the model (the C merge changes it between reads, and on its
        own thread with threaded=True): StateError, nothing merged."""
        with open(FIB, "rb") as f:
            data = f.read()
        m = iprof.load(FIB)
        self.addCleanup(m.close)
        want = m.write()
        entry = m.call_count[0]
        uses = (m.close, lambda: m.add_type(9999, "X"), lambda: len(m.types),
                lambda: entry.total, lambda: list(m.call_count), m.build_indexes,
                lambda: m.write())
        for change, threaded in itertools.product(uses, (False, True)):
            class Source:
                def __init__(self):
                    self.at = 0

                def read(self, n=-1):
                    change()
                    return b""
            with self.assertRaises(iprof.StateError) as cm:
                m.merge_from(Source(), threaded=threaded)
            self.assertIn("merged into", str(cm.exception))
            self.assertEqual(m.write(), want)
        self.assertGreater(len(m.types), 0)           # the guard is released
        m.merge_from(data)
        self.assertNotEqual(m.write(), want)

    def test_gc_frees_model_after_objects(self):
        m = iprof.load(FIB)
        ref = weakref.ref(m)
        e = m.call_count[0]
        del m
        gc.collect()
        self.assertIsNotNone(ref())          # the entry keeps the model alive
        self.assertEqual(e.records, [1])
        del e
        gc.collect()
        self.assertIsNone(ref())


class StaleTest(unittest.TestCase):
    def setUp(self):
        self.m = iprof.load(FIB)
        self.addCleanup(self.m.close)

    def assertStale(self, *fns):
        for f in fns:
            with self.assertRaises(iprof.StaleError):
                f()

    def test_add_entry_invalidates_its_kind_only(self):
        m = self.m
        e, other = m.call_count[0], m.sampling[0]
        ctx = e.context
        m.add_entry(Kind.CALL_COUNT, "1:0", [5])
        self.assertStale(lambda: e.records, lambda: e.context, lambda: e.kind)
        self.assertFalse(e.valid)
        self.assertEqual(other.records, [10])            # another kind: still valid
        self.assertEqual(str(ctx), "1:0")                # contexts live with the model
        self.assertEqual(m.call_count[0].records, [6])   # combined: 1 + 5

    def test_remove_and_filter_and_merge(self):
        m = self.m
        e = m.conditional[0]
        m.remove_entry(Kind.CONDITIONAL, "3:11")
        self.assertStale(lambda: e.records)
        self.assertEqual(len(m.conditional), 1)
        e = m.sampling[0]
        m.filter(keep_entry=lambda x: x.kind != Kind.SAMPLING or x.records[0] > 5)
        self.assertStale(lambda: e.records)
        self.assertEqual([x.ctx for x in m.sampling], ["6:0<3:14<1:9"])
        entries = [m.profiles(k)[0] for k in (Kind.CALL_COUNT, Kind.MONITOR, Kind.INSTANCEOF)]
        with iprof.load(FIB) as other:
            m.merge(other)
        for x in entries:
            self.assertStale(lambda: x.records)
        self.assertEqual(m.call_count[4].records, [20])
        # A failed mutation invalidates too (conservatively).
        e = m.call_count[0]
        with self.assertRaises(iprof.SchemaError):
            m.add_entry(Kind.CALL_COUNT, "1:0", [1, 2])
        self.assertStale(lambda: e.records)

    def test_iterator_invalidated(self):
        m = self.m
        it = iter(m.call_count)
        self.assertEqual(next(it).records, [1])
        m.add_entry(Kind.CALL_COUNT, "3:0", [1])
        self.assertStale(lambda: next(it))
        # Iterators of other kinds go on.
        it = iter(m.sampling)
        next(it)
        m.add_entry(Kind.CALL_COUNT, "3:0", [1])
        self.assertEqual(next(it).records, [1])

    def test_types_and_methods(self):
        m = self.m
        t, meth = m.types[16], m.methods[9]
        it = iter(m.types)
        next(it)
        m.add_type(100, "New")                 # adding invalidates nothing
        self.assertEqual(t.name, "java.lang.StringBuilder")
        next(it)
        m.remove_method(9)
        self.assertStale(lambda: meth.name)
        self.assertEqual(t.name, "java.lang.StringBuilder")   # methods only
        m.remove_type(100)
        self.assertStale(lambda: t.name, lambda: next(it))
        self.assertEqual(m.types[16].name, "java.lang.StringBuilder")
        t = m.types.by_name("java.lang.Thread")
        m.filter(keep_type=lambda x: x.id != 14)
        self.assertStale(lambda: t.id)
        self.assertIsNone(m.types.by_name("java.lang.Thread"))
        meth = m.methods[0]
        m.filter(keep_method=lambda x: x.id < 5)
        self.assertStale(lambda: meth.id)
        self.assertEqual([x.id for x in m.methods], [1, 2, 3, 4])

    def test_filter_predicate_exception_changes_nothing(self):
        m = self.m
        e = m.call_count[0]

        def keep(x):
            if x.kind == Kind.CALL_COUNT and x.records[0] == 10:
                raise KeyError("boom")
            return False
        with self.assertRaises(KeyError):
            m.filter(keep_entry=keep)
        self.assertEqual(len(m.call_count), 9)
        self.assertEqual(e.records, [1])                  # not invalidated either

    def test_filter_predicate_must_not_mutate(self):
        m = self.m
        with self.assertRaises(iprof.StaleError):
            m.filter(keep_entry=lambda x: m.add_entry(Kind.CALL_COUNT, "1:0", [1]) is None)
        self.assertEqual(len(m.call_count), 9)

    def test_objects_of_another_model(self):
        with iprof.load(FIB) as other:
            with self.assertRaises(ValueError):
                self.m.remove_type(other.types[0])
            with self.assertRaises(ValueError):
                self.m.remove_entry(other.call_count[0])
            with self.assertRaises(ValueError):
                self.m.merge(self.m)
            # Contexts compare by frames across models.
            self.assertEqual(other.call_count[5].context, self.m.call_count[5].context)


if __name__ == "__main__":
    unittest.main()

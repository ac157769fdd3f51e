"""The model: loading, sequences, lookups, contexts, entries, int64 extremes."""
import io
import os
import pathlib
import tempfile
import threading
import unittest

import support
from support import EXTREMES, FIB, I64_MAX, I64_MIN, doc
import iprof
from iprof import Kind

FIB_TYPES = ["boolean", "byte", "short", "char", "int", "long", "float", "double", "void",
             "java.lang.Object", "Fib", "java.lang.String", "java.lang.System",
             "java.io.PrintStream", "java.lang.Thread", "[Ljava.lang.String;",
             "java.lang.StringBuilder"]
FIB_METHODS = [(1, "main", (10, 8, 15)), (2, "<init>", (10, 8, 4)), (3, "fibonacci", (10, 8)),
               (4, "print", (13, 8, 11)), (5, "valueOf", (11, 11, 9)),
               (6, "sleep", (14, 8, 5)), (7, "<init>", (9, 8)), (8, "append", (16, 16, 4)),
               (9, "toString", (16, 11)), (10, "toString", (9, 11))]
FIB_CALLS = [("1:0", [1]), ("2:0<1:5", [1]), ("7:0<2:1<1:5", [1]), ("3:0", [1]),
             ("6:0<3:14", [10]), ("4:0<3:34", [10]), ("5:0<4:2<3:34", [10]),
             ("8:0<3:27", [10]), ("9:0<3:31", [10])]


class FibTest(unittest.TestCase):
    def setUp(self):
        self.m = iprof.load(FIB)
        self.addCleanup(self.m.close)

    def test_version_and_counts(self):
        m = self.m
        self.assertEqual(m.version, "1.1.0")
        self.assertEqual(len(m.types), 17)
        self.assertEqual(len(m.methods), 10)
        self.assertEqual([len(m.profiles(k)) for k in Kind], [9, 2, 1, 1, 2, 1])
        self.assertEqual(m.diagnostics, [])
        self.assertFalse(m.closed)
        self.assertEqual(repr(m), "<iprof.Model 1.1.0: 17 types, 10 methods, 9 call_count, "
                         "2 conditional, 1 virtual_invoke, 1 monitor, 2 sampling, 1 instanceof>")

    def test_build_indexes(self):
        m = self.m
        m.build_indexes()
        self.assertEqual(m.types.by_name("Fib").id, 10)
        self.assertEqual(m.find_entry(Kind.CALL_COUNT, "1:0").records, [1])

    def test_types(self):
        types = self.m.types
        self.assertEqual([t.name for t in types], FIB_TYPES)
        self.assertEqual([t.id for t in types], list(range(17)))
        self.assertEqual(types[10].name, "Fib")
        self.assertEqual(types[-1].name, "java.lang.StringBuilder")
        self.assertEqual([t.name for t in types[1:4]], ["byte", "short", "char"])
        self.assertEqual([t.id for t in types[::-8]], [16, 8, 0])
        with self.assertRaises(IndexError):
            types[17]
        with self.assertRaises(IndexError):
            types[-18]
        self.assertEqual(types.by_id(13).name, "java.io.PrintStream")
        self.assertIsNone(types.by_id(17))
        self.assertEqual(types.by_name("[Ljava.lang.String;").id, 15)
        self.assertEqual(types.by_name(b"Fib").id, 10)
        self.assertIsNone(types.by_name("Fib2"))
        self.assertEqual(types.by_id(10), types[10])
        self.assertIn(types[3], types)
        self.assertEqual(str(types[10]), "Fib")
        self.assertEqual(repr(types[10]), "Type(10, 'Fib')")
        self.assertEqual(repr(types), "<types: 17>")
        self.assertEqual(types.index(types.by_name("int")), 4)
        self.assertEqual([t.id for t in reversed(types)][:2], [16, 15])

    def test_methods(self):
        methods = self.m.methods
        self.assertEqual([(x.id, x.name, x.signature) for x in methods], FIB_METHODS)
        fib = methods.by_id(3)
        self.assertEqual(fib.describe(), "Fib.fibonacci")
        self.assertEqual(str(methods[6]), "java.lang.Object.<init>")
        self.assertEqual(fib.declaring_type.name, "Fib")
        self.assertEqual(fib.return_type.name, "void")
        self.assertEqual(fib.parameter_types, [])
        self.assertEqual([t.name for t in methods[0].parameter_types], ["[Ljava.lang.String;"])
        self.assertEqual(methods.find("toString", [9, 11]).id, 10)
        self.assertEqual(methods.find("toString", (16, 11)).id, 9)
        self.assertIsNone(methods.find("toString", [9, 12]))
        self.assertIsNone(methods.by_id(0))
        self.assertEqual(repr(methods[2]), "Method(3, 'fibonacci', (10, 8))")

    def test_entries(self):
        m = self.m
        self.assertEqual([(e.ctx, e.records) for e in m.call_count], FIB_CALLS)
        self.assertEqual([(str(e.context), e.records) for e in m.profiles("callCountProfiles")],
                         FIB_CALLS)
        cond = m.conditional
        self.assertEqual(cond[0].records, [20, 0, 10, 53, 1, 1])
        self.assertEqual(cond[1].frames, [(5, 1), (4, 2), (3, 34)])
        self.assertEqual(m.virtual_invoke[0].records, [11, 10])
        self.assertEqual(m.monitor[0].ctx, "0:0")
        self.assertEqual(m.monitor[0].describe(), "?0:0")
        self.assertEqual([e.records for e in m.sampling], [[10], [1]])
        self.assertEqual(m.instanceof[0].records, [11, 10, 16, 2])
        self.assertEqual(m[Kind.INSTANCEOF][0].kind, Kind.INSTANCEOF)
        self.assertEqual(m["sampling"][-1].ctx, "4:0<3:34<1:9")
        self.assertEqual(sum(1 for _ in m.entries()), 16)
        self.assertEqual(repr(m.call_count[4]), "Entry(CALL_COUNT, '6:0<3:14', [10])")
        self.assertEqual(repr(m.call_count), "<callCountProfiles: 9>")
        self.assertEqual(m.call_count[4], m.call_count[4])
        self.assertNotEqual(m.call_count[4], m.call_count[5])
        self.assertIn(m.call_count[0], m.call_count)
        self.assertNotIn(m.call_count[0], m.sampling)

    def test_contexts(self):
        ctx = self.m.call_count[6].context
        self.assertEqual(str(ctx), "5:0<4:2<3:34")
        self.assertEqual(repr(ctx), "Context('5:0<4:2<3:34')")
        self.assertEqual(ctx.frames, [(5, 0), (4, 2), (3, 34)])
        self.assertEqual(list(ctx), [(5, 0), (4, 2), (3, 34)])
        self.assertEqual((ctx.depth, len(ctx), ctx.method_id, ctx.bci), (3, 3, 5, 0))
        self.assertEqual(ctx.describe(),
                         "java.lang.String.valueOf:0 < java.io.PrintStream.print:2 < "
                         "Fib.fibonacci:34")
        self.assertEqual(str(ctx.caller), "4:2<3:34")
        self.assertEqual(str(ctx.caller.caller), "3:34")
        self.assertIsNone(ctx.caller.caller.caller)
        self.assertEqual([x.name for x in ctx.methods], ["valueOf", "print", "fibonacci"])
        # Interned: the caller "4:2<3:34" is the ctx of the sampling entry's caller? No;
        # but the call-count entry "4:0<3:34" and "5:0<4:2<3:34" share the node "3:34".
        self.assertEqual(ctx.caller.caller, self.m.call_count[5].context.caller)
        self.assertEqual(hash(ctx.caller.caller), hash(self.m.call_count[5].context.caller))
        self.assertNotEqual(ctx, ctx.caller)
        self.assertGreaterEqual(self.m.context_count, 16)

    def test_find_entry(self):
        m = self.m
        e = m.find_entry(Kind.CALL_COUNT, "5:0<4:2<3:34")
        self.assertEqual(e.records, [10])
        self.assertEqual(m.find_entry("call_count", [(5, 0), (4, 2), (3, 34)]), e)
        self.assertEqual(m.call_count.find(e.context), e)
        self.assertIsNone(m.find_entry(Kind.CALL_COUNT, "5:0<4:2"))
        self.assertIsNone(m.find_entry(Kind.SAMPLING, "5:0<4:2<3:34"))
        self.assertEqual(m.find_entry(Kind.MONITOR, [(0, 0)]).records, [9, 4, 10, 1])
        with self.assertRaises(ValueError):
            m.find_entry(Kind.CALL_COUNT, "5:0<")
        with self.assertRaises(ValueError):
            m.find_entry(9, "1:0")

    def test_sources(self):
        data = pathlib.Path(FIB).read_bytes()
        for source in (pathlib.Path(FIB), data, bytearray(data), memoryview(data),
                       io.BytesIO(data), open(FIB, "rb")):
            with iprof.load(source) as m:
                self.assertEqual([(e.ctx, e.records) for e in m.call_count], FIB_CALLS,
                                 type(source))
            if hasattr(source, "close"):
                source.close()

    def test_context_manager(self):
        with iprof.load(FIB) as m:
            self.assertEqual(len(m.types), 17)
        self.assertTrue(m.closed)
        m.close()  # twice: no-op
        self.assertEqual(repr(m), "<iprof.Model (closed)>")


class ExtremesTest(unittest.TestCase):
    def test_int64_exact(self):
        with iprof.load(EXTREMES, strict=True) as m:
            self.assertEqual([(t.id, t.name) for t in m.types],
                             [(I64_MIN, "Min"), (0, "int"), (I64_MAX, "Max")])
            self.assertEqual([(x.id, x.signature) for x in m.methods],
                             [(I64_MAX, (I64_MIN, 0)), (1, (I64_MAX, 0, I64_MIN))])
            self.assertEqual(m.types.by_id(I64_MIN).name, "Min")
            self.assertEqual(m.methods.by_id(I64_MAX).name, "big")
            self.assertEqual(m.call_count[0].frames, [(I64_MAX, 0), (1, I64_MIN)])
            self.assertEqual(m.call_count[0].records, [I64_MAX])
            self.assertEqual(m.call_count[1].records, [I64_MIN])
            self.assertEqual(m.conditional[0].records, [I64_MIN, 0, I64_MAX, -1, I64_MAX, 1])
            self.assertEqual(m.conditional[0].context.bci, I64_MAX)
            self.assertEqual(m.virtual_invoke[0].records, [I64_MIN, I64_MAX, I64_MAX, I64_MIN])
            self.assertEqual(m.virtual_invoke[0].context.bci, I64_MIN)
            self.assertEqual(m.sampling[0].frames, [(I64_MAX, I64_MAX)])
            self.assertEqual(m.find_entry(Kind.CALL_COUNT, [(I64_MAX, 0), (1, I64_MIN)]).records,
                             [I64_MAX])
            self.assertEqual(m.write(), EXTREMES)
            # Saturating sums stay exact at the boundary.
            e = m.add_entry(Kind.CALL_COUNT, "1:0", [I64_MAX])
            self.assertEqual(e.records, [-1])
            e = m.add_entry(Kind.CALL_COUNT, "1:0", [I64_MAX])
            self.assertEqual(e.records, [I64_MAX - 1])
            e = m.add_entry(Kind.CALL_COUNT, "1:0", [I64_MAX])
            self.assertEqual(e.records, [I64_MAX])

    def test_out_of_range_arguments(self):
        with iprof.Model() as m:
            m.add_type(0, "int")
            with self.assertRaises(iprof.LimitError) as cm:
                m.add_method(1, "m", [0, I64_MAX + 1])
            self.assertEqual(cm.exception.status, iprof.Status.ELIMIT)
            with self.assertRaises(iprof.LimitError):
                m.find_entry(Kind.CALL_COUNT, [(I64_MIN - 1, 0)])
            with self.assertRaises(iprof.LimitError):
                m.add_type(I64_MAX + 1, "x")
            with self.assertRaises(iprof.LimitError):
                m.remove_type(I64_MIN - 1)
            self.assertIsNone(m.types.by_id(I64_MAX + 1))
            self.assertIsNone(m.methods.by_id(I64_MIN - 1))
            self.assertEqual(len(m.types), 1)
            with self.assertRaises(TypeError):
                m.add_method(1, "m", [0, 1.5])

    def test_names(self):
        names = ["java.lang.invoke.LambdaForm$MH/0x0000000300f99000", "[[Ljava.lang.String;",
                 "caf\u00e9", "\u4e2d\u6587", "nul\u0000inside", "emoji \U0001F600", ""]
        with iprof.Model() as m:
            for i, n in enumerate(names):
                m.add_type(i, n)
            m.add_method(1, "lambda$x$0", [0, 1])
            data = m.write()
        with iprof.load(data, strict=True) as m:
            self.assertEqual([t.name for t in m.types], names)
            self.assertEqual(m.types.by_name("nul\u0000inside").id, 4)
            self.assertEqual(m.types.by_name("\u4e2d\u6587").id, 3)
            self.assertEqual(m.methods.find("lambda$x$0", [0, 1]).id, 1)


if __name__ == "__main__":
    unittest.main()


def many_batches_doc(methods=3000, entries=12000):
    """A valid 1.0.0 document of 1.7 MB: a threaded load hands it from
    the reading thread to the building one in many batches (128 KiB each)."""
    types = [(i, "T%d" % i) for i in range(10)] + [(10 + i, "pkg.C%d" % i) for i in range(200)]
    meths = [(1 + i, "m%d" % i, [10 + i % 200, i % 10, (i * 7) % 210])
             for i in range(methods)]
    def ctx(i):  # callee first, at bci 0 (call counts need it)
        return "<".join("%d:%d" % (1 + (i * 31 + d * 17) % methods, 3 * d)
                        for d in range(1 + i % 6))
    return doc(types=types, methods=meths,
               callCountProfiles=[(ctx(i), [i * 1000003]) for i in range(entries)],
               conditionalProfiles=[(ctx(i + 1), [i % 7, i, I64_MAX - i])
                                    for i in range(0, entries, 4)],
               virtualInvokeProfiles=[(ctx(i + 2), [10 + i % 200, i])
                                      for i in range(0, entries, 3)],
               monitorProfiles=[],
               samplingProfiles=[(ctx(i + 3), [I64_MIN + i]) for i in range(0, entries, 2)])


class ThreadedLoadTest(unittest.TestCase):
    """load(threaded=True) (IPROF_READ_THREADED) gives the model an
    unthreaded load gives: the same written bytes, diagnostics and errors."""

    def both(self, source_fn, **kwargs):
        """The bytes written after an unthreaded and a threaded load."""
        out = []
        for threaded in (False, True):
            with iprof.load(source_fn(), threaded=threaded, **kwargs) as m:
                out.append((m.write(validate=False), m.diagnostics))
        return out

    def test_threaded_small_profiles_same_bytes(self):
        for source_fn in (lambda: EXTREMES, lambda: io.BytesIO(EXTREMES)):
            (plain, d0), (threaded, d1) = self.both(source_fn, strict=True)
            self.assertEqual(threaded, plain)
            self.assertEqual(threaded, EXTREMES)
            self.assertEqual((d0, d1), ([], []))
        fib = pathlib.Path(FIB).read_bytes()   # pretty-printed: written back minified
        for source_fn in (lambda: FIB, lambda: fib):
            (plain, d0), (threaded, d1) = self.both(source_fn, strict=True)
            self.assertEqual(threaded, plain)
            self.assertEqual((d0, d1), ([], []))

    def test_threaded_many_batches_same_bytes(self):
        data = many_batches_doc()
        self.assertGreater(len(data), 1500 * 1000)
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "big.iprof")
            with open(path, "wb") as f:
                f.write(data)
            for source_fn in (lambda: data, lambda: path, lambda: open(path, "rb")):
                (plain, d0), (threaded, d1) = self.both(source_fn, strict=True)
                self.assertEqual(threaded, plain)
                self.assertEqual(threaded, data)
                self.assertEqual((d0, d1), ([], []))
        with iprof.load(data, threaded=True) as m:
            self.assertEqual(len(m.methods), 3000)
            self.assertEqual(len(m.call_count), 12000)
            self.assertEqual(m.call_count[11999].records, [11999 * 1000003])

    def test_threaded_reads_on_calling_thread(self):
        data = many_batches_doc(methods=500, entries=4000)
        seen = set()

        class Source(io.BytesIO):
            def readinto(self, b):
                seen.add(threading.get_ident())
                return super().readinto(b)

        with iprof.load(Source(data), threaded=True, chunk_size=4096) as m:
            self.assertEqual(m.write(), data)
        self.assertEqual(seen, {threading.get_ident()})

    def test_threaded_diagnostics_and_errors_same(self):
        bad = doc(types=[(0, "int")], methods=[(1, "m", [0, 0])],
                  callCountProfiles=[("1:0", [1, 2]), ("7:0", [1])] * 2000)
        (plain, d0), (threaded, d1) = self.both(lambda: bad)
        self.assertEqual(threaded, plain)
        self.assertEqual(len(d0), 4000)
        self.assertEqual(d1, d0)
        syntax = many_batches_doc(methods=500, entries=4000)[:-2] + b",]}"  # trailing comma
        for data, strict in ((bad, True), (syntax, False)):
            errors = []
            for threaded in (False, True):
                with self.assertRaises(iprof.Error) as cm:
                    iprof.load(data, strict=strict, threaded=threaded)
                e = cm.exception
                errors.append((type(e), e.status, e.message, e.path, e.offset, e.line,
                               e.column, e.diagnostics))
            self.assertEqual(errors[1], errors[0])

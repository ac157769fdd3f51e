"""The model: loading, sequences, lookups, contexts, entries, int64 extremes."""
import io
import pathlib
import unittest

import support
from support import EXTREMES, FIB, I64_MAX, I64_MIN
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

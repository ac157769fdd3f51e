"""iprof.diff(): comparing two models (iprof_diff_*), checked against
numbers computed by hand, and on two corpus files."""
import unittest

import support
import iprof
from iprof import Kind


def model_a():
    """Types void, A, B; methods A.main, A.run, A.oldOnly; call counts
    main:0 = 1, run:0<main:5 = 2, oldOnly:0 = 5 (total 8); a virtual
    invoke and a monitor entry equal to B's."""
    m = iprof.Model()
    m.add_type(0, "void")
    m.add_type(1, "A")
    m.add_type(2, "B")
    m.add_method(1, "main", [1, 0])
    m.add_method(2, "run", [1, 0])
    m.add_method(3, "oldOnly", [1, 0])
    m.add_entry(Kind.CALL_COUNT, "1:0", [1])
    m.add_entry(Kind.CALL_COUNT, "2:0<1:5", [2])
    m.add_entry(Kind.CALL_COUNT, "3:0", [5])
    m.add_entry(Kind.VIRTUAL_INVOKE, "2:3", [2, 4])
    m.add_entry(Kind.MONITOR, "0:0", [1, 3])
    return m


def model_b():
    """The same names under other ids, and in another order: A.oldOnly is
    gone, B.newOnly is new; call counts main:0 = 1, run:0<main:5 = 1,
    newOnly:0 = 6 (total 8)."""
    m = iprof.Model()
    m.add_type(5, "B")
    m.add_type(7, "A")
    m.add_type(9, "void")
    m.add_method(10, "run", [7, 9])
    m.add_method(11, "main", [7, 9])
    m.add_method(12, "newOnly", [5, 9])
    m.add_entry(Kind.CALL_COUNT, "11:0", [1])
    m.add_entry(Kind.CALL_COUNT, "10:0<11:5", [1])
    m.add_entry(Kind.CALL_COUNT, "12:0", [6])
    m.add_entry(Kind.VIRTUAL_INVOKE, "10:3", [5, 4])
    m.add_entry(Kind.MONITOR, "0:0", [7, 5])
    return m


class DiffTest(unittest.TestCase):
    def setUp(self):
        self.a = model_a()
        self.b = model_b()

    def tearDown(self):
        self.a.close()
        self.b.close()

    def test_methods(self):
        with iprof.diff(self.a, self.b) as d:
            only_a = d.methods_only_in_a
            only_b = d.methods_only_in_b
            self.assertEqual([(m.id, m.name, m.describe()) for m in only_a],
                             [(3, "oldOnly", "A.oldOnly")])
            self.assertEqual([(m.id, m.name, m.describe()) for m in only_b],
                             [(12, "newOnly", "B.newOnly")])
            self.assertIs(only_a[0].model, self.a)
            self.assertIs(only_b[0].model, self.b)
            self.assertEqual((d.methods_in_common, d.methods_in_common_b), (2, 2))
            self.assertIs(d.a, self.a)
            self.assertIs(d.b, self.b)

    def test_contexts_totals_overlap(self):
        with iprof.diff(self.a, self.b) as d:
            k = Kind.CALL_COUNT
            self.assertEqual((d.contexts_only_in_a(k), d.contexts_only_in_b(k)), (1, 1))
            self.assertEqual((d.contexts_in_common(k), d.contexts_in_common(k, "b")), (2, 2))
            self.assertEqual((d.total(k), d.total(k, "b")), (8, 8))
            self.assertEqual((d.common_total(k, "a"), d.common_total(k, "b")), (3, 2))
            self.assertEqual(d.overlap(k), 0.375)
            self.assertEqual(d.overlap("callCountProfiles", side=1), 0.25)
            # Virtual invoke: one entry each, matched through the method
            # names; monitor: the dummy 0:0 matches 0:0.
            for kind, ta, tb in ((Kind.VIRTUAL_INVOKE, 4, 4), (Kind.MONITOR, 3, 5)):
                self.assertEqual((d.contexts_only_in_a(kind), d.contexts_only_in_b(kind)),
                                 (0, 0), kind)
                self.assertEqual((d.contexts_in_common(kind), d.total(kind),
                                  d.total(kind, "b")), (1, ta, tb))
                self.assertEqual((d.overlap(kind), d.overlap(kind, "b")), (1.0, 1.0))
                self.assertEqual(d.changes(kind), [])
            # No count mass: the overlap is undefined.
            self.assertIsNone(d.overlap(Kind.SAMPLING))
            self.assertIsNone(d.overlap(Kind.INSTANCEOF, "b"))
            self.assertEqual((d.total(Kind.SAMPLING), d.contexts_in_common(Kind.SAMPLING)),
                             (0, 0))
            with self.assertRaises(ValueError):
                d.total(k, "c")
            with self.assertRaises(ValueError):
                d.overlap("no such kind")

    def test_changes(self):
        # shares A: main 1/8, run 2/8, oldOnly 5/8; B: main 1/8, run 1/8,
        # newOnly 6/8. main does not change; ranked by |delta|.
        expected = [
            iprof.Change("B.newOnly:0", 0, 6, 0.0, 0.75, 0.75, None),
            iprof.Change("A.oldOnly:0", 5, 0, 0.625, 0.0, -0.625, -1.0),
            iprof.Change("A.run:0 < A.main:5", 2, 1, 0.25, 0.125, -0.125, -0.5),
        ]
        with iprof.diff(self.a, self.b) as d:
            changes = d.changes(Kind.CALL_COUNT)
            self.assertEqual(changes, expected)
            c = changes[0]
            self.assertEqual((c.context, c.count_a, c.count_b, c.share_a, c.share_b, c.delta,
                              c.relative), tuple(expected[0]))
        with iprof.diff(self.a, self.b, top=2) as d:
            self.assertEqual(d.top, 2)
            self.assertEqual(d.changes("call_count"), expected[:2])
        # The other way round: signs flip, oldOnly is the new one.
        with iprof.diff(self.b, self.a) as d:
            self.assertEqual([m.name for m in d.methods_only_in_a], ["newOnly"])
            self.assertEqual(d.changes(Kind.CALL_COUNT), [
                iprof.Change("B.newOnly:0", 6, 0, 0.75, 0.0, -0.75, -1.0),
                iprof.Change("A.oldOnly:0", 0, 5, 0.0, 0.625, 0.625, None),
                iprof.Change("A.run:0 < A.main:5", 1, 2, 0.125, 0.25, 0.125, 1.0),
            ])
        with self.assertRaises(ValueError):
            iprof.diff(self.a, self.b, top=0)

    def test_staleness(self):
        # Call counts: half of 0 + 1/8 + 5/8 + 6/8 (total variation of the
        # shares); the virtual invoke and monitor entries keep their type
        # shares (types matched by name): 0.
        with iprof.diff(self.a, self.b) as d:
            self.assertEqual(d.kind_staleness(Kind.CALL_COUNT), 0.75)
            self.assertEqual(d.kind_staleness("virtualInvokeProfiles"), 0.0)
            self.assertEqual(d.kind_staleness(Kind.MONITOR), 0.0)
            self.assertIsNone(d.kind_staleness(Kind.CONDITIONAL))
            self.assertEqual(d.staleness, (0.75 + 0.0 + 0.0) / 3)
            with self.assertRaises(ValueError):
                d.kind_staleness("no such kind")
        with iprof.diff(self.b, self.a) as d:               # symmetric
            self.assertEqual(d.staleness, 0.25)
        # Receivers moved: B's run:3 sees type A as well now, 4 of 8.
        self.b.add_entry(Kind.VIRTUAL_INVOKE, "10:3", [7, 4])
        with iprof.diff(self.a, self.b) as d:
            self.assertEqual(d.kind_staleness(Kind.VIRTUAL_INVOKE),
                             (1 - iprof.EXTREMELY_SLOW_PATH_PROBABILITY) * ((0.5 + 0.5) / 2))
        with iprof.diff(self.a, self.a) as d:
            self.assertEqual(d.staleness, 0.0)
        empty = iprof.Model()
        with iprof.diff(self.a, empty) as d:
            self.assertEqual(d.staleness, 1.0)
        empty.close()

    def test_same_model(self):
        with iprof.diff(self.a, self.a) as d:
            self.assertEqual((d.methods_only_in_a, d.methods_only_in_b), ([], []))
            self.assertEqual(d.methods_in_common, 3)
            self.assertEqual(d.overlap(Kind.CALL_COUNT), 1.0)
            self.assertEqual(d.changes(Kind.CALL_COUNT), [])

    def test_lifetimes(self):
        d = iprof.diff(self.a, self.b)
        only = d.methods_only_in_a
        d.close()
        d.close()
        self.assertTrue(d.closed)
        with self.assertRaises(iprof.ClosedError):
            d.methods_in_common
        self.assertEqual(only[0].name, "oldOnly")     # Methods belong to the model
        self.assertEqual(repr(d), "<iprof.Diff (closed)>")

        # A changed model makes the result stale; a closed one, unusable.
        d = iprof.diff(self.a, self.b)
        self.assertEqual(d.methods_in_common, 2)
        self.b.add_type(20, "C")
        with self.assertRaises(iprof.StaleError):
            d.changes(Kind.CALL_COUNT)
        d.close()
        d = iprof.diff(self.a, self.b)
        self.a.close()
        with self.assertRaises(iprof.ClosedError):
            d.overlap(Kind.CALL_COUNT)
        d.close()
        with self.assertRaises(iprof.ClosedError):
            iprof.diff(self.a, self.b)
        with self.assertRaises(TypeError):
            iprof.diff(self.b, None)

    def test_keeps_the_models_alive(self):
        d = iprof.diff(model_a(), model_b())       # no other reference to the models
        import gc
        gc.collect()
        self.assertEqual(d.total(Kind.CALL_COUNT), 8)
        self.assertEqual([m.name for m in d.methods_only_in_b], ["newOnly"])
        self.assertEqual(d.changes(Kind.CALL_COUNT)[0].context, "B.newOnly:0")
        del d
        gc.collect()


class CorpusDiffTest(unittest.TestCase):
    def test_jsonata_vs_assorted(self):
        pa = support.corpus("jsonata-cli-0.4.0.iprof")
        pb = support.corpus("assorted-benchmarks-0.4.0.iprof")
        with iprof.load(pa) as a, iprof.load(pb) as b:
            with iprof.diff(a, b) as d:
                self.assertEqual(d.methods_in_common, 35065)
                self.assertEqual(len(d.methods_only_in_a), 8211)
                self.assertEqual(len(d.methods_only_in_b), 7492)
                self.assertEqual(len(a.methods), 35065 + 8211)
                for kind in Kind:
                    self.assertEqual(d.contexts_only_in_a(kind) + d.contexts_in_common(kind),
                                     len(a.profiles(kind)), kind)
                    self.assertEqual(d.contexts_only_in_b(kind)
                                     + d.contexts_in_common(kind, "b"),
                                     len(b.profiles(kind)), kind)
                    ov = d.overlap(kind)
                    if d.total(kind):
                        self.assertEqual(ov, d.common_total(kind) / d.total(kind))
                    else:
                        self.assertIsNone(ov)
                    changes = d.changes(kind)
                    self.assertLessEqual(len(changes), 10)
                    deltas = [abs(c.delta) for c in changes]
                    self.assertEqual(deltas, sorted(deltas, reverse=True))
            with iprof.diff(b, a, top=3) as d:
                self.assertEqual((len(d.methods_only_in_a), len(d.methods_only_in_b)),
                                 (7492, 8211))
                self.assertEqual(d.methods_in_common, 35065)
                self.assertLessEqual(len(d.changes(Kind.CALL_COUNT)), 3)


if __name__ == "__main__":
    unittest.main()

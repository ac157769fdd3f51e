"""What a profile tells the compiler (analysis.h): branch probabilities,
receiver-type shares, entry totals and the hottest methods."""
import unittest

import support
from support import FIB, I64_MAX, I64_MIN, doc
import iprof
from iprof import Kind

EPS = 1.0000000000287557e-06     # 1 - 0.999999 in double


def model_with(kind, records, ctx="1:0"):
    """A model of types 0..9 and method 1 with one entry; returns (model, entry)."""
    m = iprof.Model()
    for t in range(10):
        m.add_type(t, "T%d" % t)
    m.add_method(1, "f", [0, 0])
    return m, m.add_entry(kind, ctx, records)


class ConstantsTest(unittest.TestCase):
    def test_values(self):
        self.assertEqual(iprof.EXTREMELY_SLOW_PATH_PROBABILITY, EPS)
        self.assertEqual(iprof.INVALID_BRANCH_BCI, -5)


class BranchProbabilitiesTest(unittest.TestCase):
    def test_graalvm_numbers(self):
        # Index 1 has two records (one a shared switch case, bci -5): they
        # share the index's probability; index 2 never ran and gets the
        # extremely slow path's, the others giving up as much.
        m, e = model_with(Kind.CONDITIONAL, [10, 0, 30, 20, 1, 60, -5, 1, 10, 30, 2, 0])
        with m:
            self.assertEqual(e.branch_probabilities(),
                             [(10, 0.29999970000009996), (20, 0.6999992999999),
                              (30, 1.0000000000287557e-06)])

    def test_simple_split(self):
        m, e = model_with(Kind.CONDITIONAL, [17, 0, 600, 21, 1, 400])
        with m:
            self.assertEqual(e.branch_probabilities(), [(17, 0.6), (21, 0.4)])
            # Pure: asking twice gives the same, the records are untouched.
            self.assertEqual(e.branch_probabilities(), [(17, 0.6), (21, 0.4)])
            self.assertEqual(e.records, [17, 0, 600, 21, 1, 400])

    def test_no_counts_gives_none(self):
        m, e = model_with(Kind.CONDITIONAL, [17, 0, 0, 21, 1, 0])
        with m:
            self.assertIsNone(e.branch_probabilities())

    def test_other_kinds_and_broken_records(self):
        m, e = model_with(Kind.VIRTUAL_INVOKE, [1, 5])
        with m:
            with self.assertRaises(iprof.InvalidArgumentError) as cm:
                e.branch_probabilities()
            self.assertIn("conditional", cm.exception.message)
        # A lenient load keeps records that are not triples.
        data = doc(types=[(0, "T")], methods=[(1, "f", [0, 0])],
                   conditionalProfiles=[("1:0", [3, 0, 5, 4])])
        with iprof.load(data) as m:
            self.assertTrue(m.diagnostics)
            with self.assertRaises(iprof.SchemaError):
                m.conditional[0].branch_probabilities()

    def test_stale_entry(self):
        m, e = model_with(Kind.CONDITIONAL, [17, 0, 600, 21, 1, 400])
        with m:
            m.add_entry(Kind.CONDITIONAL, "1:9", [1, 0, 1])
            with self.assertRaises(iprof.StaleError):
                e.branch_probabilities()
        with self.assertRaises(iprof.ClosedError):
            e.branch_probabilities()


class TypeSharesTest(unittest.TestCase):
    def test_graalvm_numbers(self):
        # Type 5 twice (600 + 0): summed; highest share first.
        m, e = model_with(Kind.VIRTUAL_INVOKE, [6, 400, 5, 600, 5, 0])
        with m:
            self.assertEqual(e.type_shares(),
                             ([(5, 0.5999994000000001), (6, 0.3999996)],
                              1.0000000000287557e-06))

    def test_ties_by_type_id_and_every_kind(self):
        for kind, ctx in ((Kind.VIRTUAL_INVOKE, "1:0"), (Kind.INSTANCEOF, "1:0"),
                          (Kind.MONITOR, "0:0")):
            m, e = model_with(kind, [7, 1, 3, 1], ctx)
            with m:
                shares, other = e.type_shares()
                self.assertEqual([t for t, _ in shares], [3, 7])
                self.assertEqual(shares[0][1], shares[1][1])
                self.assertEqual(other, EPS)

    def test_no_records_and_zero_counts(self):
        m, e = model_with(Kind.MONITOR, [], "0:0")
        with m:
            self.assertEqual(e.type_shares(), ([], EPS))
        # A total below 1 counts as 1: zero counts give zero shares.
        m, e = model_with(Kind.VIRTUAL_INVOKE, [2, 0, 1, 0])
        with m:
            self.assertEqual(e.type_shares(), ([(1, 0.0), (2, 0.0)], EPS))

    def test_other_kinds(self):
        m, e = model_with(Kind.CONDITIONAL, [1, 0, 1])
        with m:
            with self.assertRaises(iprof.InvalidArgumentError):
                e.type_shares()


class TotalTest(unittest.TestCase):
    def test_count_slots_by_kind(self):
        cases = [(Kind.CALL_COUNT, "1:0", [42], 42),
                 (Kind.SAMPLING, "1:0", [7], 7),
                 (Kind.CONDITIONAL, "1:0", [10, 0, 30, 20, 1, 60, -5, 1, 10], 100),
                 (Kind.VIRTUAL_INVOKE, "1:0", [6, 400, 5, 600], 1000),
                 (Kind.INSTANCEOF, "1:0", [6, 4, 5, 6], 10),
                 (Kind.MONITOR, "0:0", [6, 1, 5, 2], 3),
                 (Kind.MONITOR, "0:0", [], 0)]
        for kind, ctx, records, total in cases:
            m, e = model_with(kind, records, ctx)
            with m:
                self.assertEqual(e.total, total, (kind, records))

    def test_saturates(self):
        with iprof.load(support.EXTREMES) as m:
            self.assertEqual(m.conditional[0].total, I64_MAX)      # MAX + 1
            self.assertEqual(m.virtual_invoke[0].total, -1)        # MAX + MIN
            self.assertEqual(m.sampling[0].total, I64_MAX)
        data = doc(types=[(0, "T")], methods=[(1, "f", [0, 0])],
                   conditionalProfiles=[("1:0", [0, 0, I64_MIN, 1, 1, -1])])
        with iprof.load(data) as m:
            self.assertEqual(m.conditional[0].total, I64_MIN)      # MIN - 1


class MethodTotalsTest(unittest.TestCase):
    def hot_model(self):
        m = iprof.Model()
        m.add_type(0, "T")
        for i in (1, 2, 3, 4):
            m.add_method(i, "m%d" % i, [0, 0])
        m.add_entry(Kind.CALL_COUNT, "3:0", [10])
        m.add_entry(Kind.CALL_COUNT, "1:0", [7])
        m.add_entry(Kind.CALL_COUNT, "4:0", [3])
        m.add_entry(Kind.CALL_COUNT, "2:0<1:3", [10])
        m.add_entry(Kind.CALL_COUNT, "1:0<2:5", [3])    # method 1: 7 + 3
        m.add_entry(Kind.CALL_COUNT, "4:0<3:1", [12])   # method 4: 3 + 12
        return m

    def test_hottest_first_ties_by_id(self):
        with self.hot_model() as m:
            self.assertEqual(m.method_totals(Kind.CALL_COUNT),
                             [(4, 15), (1, 10), (2, 10), (3, 10)])
            self.assertEqual(m.method_totals("callCountProfiles", limit=2), [(4, 15), (1, 10)])
            self.assertEqual(m.method_totals(0, limit=100), m.method_totals(0))
            self.assertEqual(m.method_totals(0, limit=0), [])
            self.assertEqual(m.method_totals(Kind.SAMPLING), [])
            with self.assertRaises(ValueError):
                m.method_totals(0, limit=-1)
            with self.assertRaises(ValueError):
                m.method_totals("no such kind")

    def test_monitors_count_for_method_0(self):
        m, _ = model_with(Kind.MONITOR, [1, 5, 2, 6], "0:0")
        with m:
            self.assertEqual(m.method_totals(Kind.MONITOR), [(0, 11)])

    def test_matches_the_entries_of_a_file(self):
        with iprof.load(FIB) as m:
            for kind in Kind:
                sums = {}
                for e in m.profiles(kind):
                    sums[e.context.method_id] = sums.get(e.context.method_id, 0) + e.total
                want = sorted(sums.items(), key=lambda it: (-it[1], it[0]))
                self.assertEqual(m.method_totals(kind), want, kind)


if __name__ == "__main__":
    unittest.main()

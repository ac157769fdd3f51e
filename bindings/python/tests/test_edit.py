"""Editing records and dropping what mentions a method: set_entry_records,
map_records, scale (and the rounding of merge), filter's predicates,
remove_method(cascade=True), prune and package_matches; what each invalidates and that a
failure changes nothing."""
import json
import unittest

import support  # noqa: F401  (puts the package on sys.path)
from support import I64_MAX
import iprof
from iprof import Kind, Rounding


def sample():
    """Types T (0) and U (5), method 1; a call count of 7 at 1:0, a
    conditional entry with counts 5 and 2 at 1:2 and a virtual invoke entry
    with counts 9 and 1 at 1:4 (as lib's tests/test_model_edit.c)."""
    m = iprof.Model()
    m.add_type(0, "T")
    m.add_type(5, "U")
    m.add_method(1, "m", [0, 0])
    m.add_entry(Kind.CALL_COUNT, "1:0", [7])
    m.add_entry(Kind.CONDITIONAL, "1:2", [3, 0, 5, 3, 1, 2])
    m.add_entry(Kind.VIRTUAL_INVOKE, "1:4", [5, 9, 0, 1])
    return m


def records(m):
    """The records of the first call count, conditional and virtual invoke
    entries."""
    return (m.call_count[0].records, m.conditional[0].records, m.virtual_invoke[0].records)


def subject(e):
    return (e.message, e.kind, e.context, e.type_id, e.method_id)


class SetEntryRecordsTest(unittest.TestCase):
    def test_replace(self):
        with sample() as m:
            old = m.virtual_invoke[0]
            e = m.set_entry_records(Kind.VIRTUAL_INVOKE, "1:4", [5, 1, 0, 2, 5, 3])
            self.assertEqual((e.kind, e.ctx, e.records),
                             (Kind.VIRTUAL_INVOKE, "1:4", [5, 1, 0, 2, 5, 3]))
            with self.assertRaises(iprof.StaleError):     # a change to the kind
                old.records
            # Not combined as add_entry would: replaced, here to fewer records.
            m.set_entry_records("callCountProfiles", [(1, 0)], [3])
            m.set_entry_records(Kind.CONDITIONAL, m.conditional[0].context, [3, 0, 1])
            self.assertEqual(records(m), ([3], [3, 0, 1], [5, 1, 0, 2, 5, 3]))
            self.assertEqual(json.loads(m.write())["callCountProfiles"],
                             [{"ctx": "1:0", "records": [3]}])

    def test_failures_change_nothing_and_say_why(self):
        with sample() as m:
            before = m.write()
            with self.assertRaises(iprof.SchemaError) as cm:
                m.set_entry_records(Kind.VIRTUAL_INVOKE, "1:4", [5, 1, 0])
            self.assertEqual(subject(cm.exception), (
                "virtualInvokeProfiles entry: records: records must be (type id, count) pairs",
                Kind.VIRTUAL_INVOKE, "1:4", None, None))
            with self.assertRaises(iprof.DanglingReferenceError) as cm:
                m.set_entry_records(Kind.VIRTUAL_INVOKE, "1:4", [6, 1])
            self.assertEqual(subject(cm.exception), (
                "virtualInvokeProfiles entry: type id 6 is not defined in the model",
                Kind.VIRTUAL_INVOKE, "1:4", 6, None))
            with self.assertRaises(iprof.NotFoundError) as cm:
                m.set_entry_records(Kind.VIRTUAL_INVOKE, "1:9", [5, 1])
            self.assertEqual(subject(cm.exception), (
                "no virtualInvokeProfiles entry with this context",
                Kind.VIRTUAL_INVOKE, "1:9", None, None))
            with self.assertRaises(ValueError):
                m.set_entry_records("nothing", "1:4", [5, 1])
            with self.assertRaises(iprof.LimitError):
                m.set_entry_records(Kind.CALL_COUNT, "1:0", [I64_MAX + 1])
            self.assertEqual(m.write(), before)
        with self.assertRaises(iprof.ClosedError):
            m.set_entry_records(Kind.CALL_COUNT, "1:0", [1])


class MapRecordsTest(unittest.TestCase):
    def test_edit_in_place(self):
        with sample() as m:
            seen = []

            def twice(entry, recs):
                seen.append((entry.ctx, list(recs), entry.records))
                for i in range(2, len(recs), 3):
                    recs[i] *= 2
            self.assertIsNone(m.map_records(Kind.CONDITIONAL, twice))
            self.assertEqual(seen, [("1:2", [3, 0, 5, 3, 1, 2], [3, 0, 5, 3, 1, 2])])
            self.assertEqual(records(m), ([7], [3, 0, 10, 3, 1, 4], [5, 9, 0, 1]))

    def test_return_new_records(self):
        with sample() as m:
            m.add_entry(Kind.VIRTUAL_INVOKE, "1:6", [0, 3])
            m.map_records("virtual_invoke", lambda e, r: [0, r[1] + 1] if e.ctx == "1:6"
                          else (5, 10, 5, 20))
            self.assertEqual([e.records for e in m.virtual_invoke],
                             [[5, 10, 5, 20], [0, 4]])
            calls = []
            m.map_records(Kind.SAMPLING, lambda e, r: calls.append(e))   # no entries
            self.assertEqual(calls, [])

    def test_exception_stops_and_changes_nothing(self):
        with sample() as m:
            m.add_entry(Kind.CONDITIONAL, "1:8", [8, 0, 1])
            before = m.write()
            calls = []

            def fail_second(entry, recs):
                calls.append(entry.ctx)
                recs[2] = 99
                if len(calls) == 2:
                    raise KeyError("stop here")
            with self.assertRaises(KeyError):
                m.map_records(Kind.CONDITIONAL, fail_second)
            self.assertEqual(calls, ["1:2", "1:8"])
            self.assertEqual(m.write(), before)

    def test_rejected_records_change_nothing(self):
        with sample() as m:
            before = m.write()
            with self.assertRaises(iprof.DanglingReferenceError) as cm:
                m.map_records(Kind.VIRTUAL_INVOKE, lambda e, r: [6] + r[1:])
            self.assertEqual(subject(cm.exception), (
                "virtualInvokeProfiles entry: type id 6 is not defined in the model",
                Kind.VIRTUAL_INVOKE, "1:4", 6, None))
            with self.assertRaises(ValueError) as cm:                 # length changed
                m.map_records(Kind.CONDITIONAL, lambda e, r: r + [0, 0, 0])
            self.assertEqual(str(cm.exception), "map_records: the function gave 9 records for "
                             "the 6 of conditionalProfiles entry 1:2")
            with self.assertRaises(iprof.LimitError):
                m.map_records(Kind.CALL_COUNT, lambda e, r: [I64_MAX + 1])
            with self.assertRaises(TypeError):
                m.map_records(Kind.CALL_COUNT, lambda e, r: 5)
            self.assertEqual(m.write(), before)

    def test_invalidates_and_refuses_changes_inside(self):
        with sample() as m:
            kept = []
            m.map_records(Kind.CALL_COUNT, lambda e, r: kept.append(e))
            with self.assertRaises(iprof.StaleError):
                kept[0].records
            other = m.virtual_invoke[0]
            before = m.write()
            with self.assertRaises(iprof.StaleError):
                m.map_records(Kind.CALL_COUNT,
                              lambda e, r: m.add_entry(Kind.CALL_COUNT, "1:0", [1]))
            # The change made inside stays; the map's does not happen.
            self.assertEqual(m.call_count[0].records, [8])
            self.assertNotEqual(m.write(), before)
            self.assertEqual(other.records, [5, 9, 0, 1])            # another kind


class ScaleTest(unittest.TestCase):
    CASES = [
        # kind, weight, rounding: counts 7; 5, 2; 9, 1
        (None, 2.0, Rounding.FLOOR, 14, 10, 4, 18, 2),
        (None, 0.5, Rounding.NEAREST_AWAY, 4, 3, 1, 5, 1),     # 3.5 2.5 1 4.5 .5
        (None, 0.5, Rounding.NEAREST_EVEN, 4, 2, 1, 4, 0),
        (None, 0.5, Rounding.FLOOR, 3, 2, 1, 4, 0),
        (Kind.VIRTUAL_INVOKE, 0.5, Rounding.FLOOR, 7, 5, 2, 4, 0),
        (None, 0, Rounding.NEAREST_AWAY, 0, 0, 0, 0, 0),
    ]

    def test_roundings(self):
        for kind, weight, rounding, cc, c1, c2, v1, v2 in self.CASES:
            with sample() as m:
                m.scale(weight, kind, rounding=rounding)
                # Keys (bci, branch index, type ids) are not touched.
                self.assertEqual(records(m), ([cc], [3, 0, c1, 3, 1, c2], [5, v1, 0, v2]),
                                 (kind, weight, rounding))

    def test_default_and_names(self):
        with sample() as m:
            m.scale(0.5)                                     # halves away from zero
            self.assertEqual(records(m), ([4], [3, 0, 3, 3, 1, 1], [5, 5, 0, 1]))
        with sample() as m:
            m.scale(0.5, "conditionalProfiles", rounding="nearest_even")
            self.assertEqual(records(m), ([7], [3, 0, 2, 3, 1, 1], [5, 9, 0, 1]))
        with sample() as m:
            m.scale(0.5, kind=Kind.CALL_COUNT, rounding=2)   # FLOOR
            self.assertEqual(records(m), ([3], [3, 0, 5, 3, 1, 2], [5, 9, 0, 1]))

    def test_saturates(self):
        with sample() as m:
            m.scale(1e300, Kind.CALL_COUNT, rounding="floor")
            self.assertEqual(m.call_count[0].records, [I64_MAX])
            m.scale(3, Kind.VIRTUAL_INVOKE)                  # whole numbers: exact
            self.assertEqual(m.virtual_invoke[0].records, [5, 27, 0, 3])

    def test_refusals_change_nothing(self):
        with sample() as m:
            before = m.write()
            for weight, text in ((-1, "negative"), (float("inf"), "inf"),
                                 (float("nan"), "nan")):
                with self.assertRaises(iprof.InvalidArgumentError) as cm:
                    m.scale(weight)
                self.assertEqual(cm.exception.message,
                                 "weight %s: must be finite and >= 0" % text)
            for bad in ("up", 3, None):
                with self.assertRaises(ValueError):
                    m.scale(0.5, rounding=bad)
            with self.assertRaises(ValueError):
                m.scale(0.5, kind=6)
            self.assertEqual(m.write(), before)

    def test_invalidates_the_kinds_scaled(self):
        with sample() as m:
            cc, vi = m.call_count[0], m.virtual_invoke[0]
            m.scale(2, Kind.VIRTUAL_INVOKE)
            self.assertEqual(cc.records, [7])
            with self.assertRaises(iprof.StaleError):
                vi.records
            m.scale(2)
            with self.assertRaises(iprof.StaleError):
                cc.records

    def test_merge_rounding(self):
        # 7 x 0.5 and the conditional 5 x 0.5 under each rounding.
        for rounding, cc, c1 in ((Rounding.NEAREST_AWAY, 4, 3), ("nearest_even", 4, 2),
                                 (Rounding.FLOOR, 3, 2), (None, None, None)):
            with iprof.Model() as dst, sample() as src:
                if rounding is None:
                    dst.merge(src, 0.5)                      # the default: halves away
                    cc, c1 = 4, 3
                else:
                    dst.merge(src, 0.5, rounding=rounding)
                self.assertEqual((dst.call_count[0].records[0], dst.conditional[0].records[2]),
                                 (cc, c1), rounding)
        with iprof.Model() as dst, sample() as src:
            with self.assertRaises(ValueError):
                dst.merge(src, 0.5, rounding="up")
            self.assertEqual(len(dst.call_count), 0)


def calls_model():
    """Types void, A, B; methods 1 A.a, 2 B.b, 3 A.c; entries of four kinds,
    method 2 as a callee and as a caller."""
    m = iprof.Model()
    for tid, name in ((0, "void"), (1, "A"), (2, "B")):
        m.add_type(tid, name)
    m.add_method(1, "a", [1, 0])
    m.add_method(2, "b", [2, 0])
    m.add_method(3, "c", [1, 0])
    m.add_entry(Kind.CALL_COUNT, "1:0", [1])
    m.add_entry(Kind.CALL_COUNT, "2:0<1:3", [2])
    m.add_entry(Kind.CALL_COUNT, "3:0<2:5<1:1", [3])
    m.add_entry(Kind.CALL_COUNT, "3:0", [4])
    m.add_entry(Kind.SAMPLING, "2:4", [5])
    m.add_entry(Kind.MONITOR, "0:0", [1, 6])
    m.add_entry(Kind.VIRTUAL_INVOKE, "1:7", [1, 1])
    return m


def layout(m):
    """(call counts, samples, monitor entries, virtual invokes, method ids,
    type ids)."""
    return ([e.ctx for e in m.call_count], [e.ctx for e in m.sampling], len(m.monitor),
            len(m.virtual_invoke), [x.id for x in m.methods], [t.id for t in m.types])


FULL = (["1:0", "2:0<1:3", "3:0<2:5<1:1", "3:0"], ["2:4"], 1, 1, [1, 2, 3], [0, 1, 2])


class FilterPredicatesTest(unittest.TestCase):
    def test_every_frame_is_judged(self):
        with calls_model() as m:
            frames = []

            def not_b(method_id, bci):
                frames.append((method_id, bci))
                return method_id != 2
            m.filter(keep_frame=not_b)
            # Callee or caller: both entries with a frame of method 2 go; the
            # methods stay (keep_frame removes entries only).
            self.assertEqual(layout(m), (["1:0", "3:0"], [], 1, 1, [1, 2, 3], [0, 1, 2]))
            # Once per distinct frame, the monitor's dummy frame included.
            self.assertEqual(sorted(frames), [(0, 0), (1, 0), (1, 1), (1, 3), (1, 7), (2, 0),
                                              (2, 4), (2, 5), (3, 0)])

    def test_one_kind_and_bcis(self):
        # One kind: keep_entry walking the frames of that kind's entries.
        with calls_model() as m:
            m.filter(keep_entry=lambda e: e.kind != Kind.CALL_COUNT
                     or all(mid != 2 for mid, _ in e.frames))
            self.assertEqual(layout(m), (["1:0", "3:0"], ["2:4"], 1, 1, [1, 2, 3], [0, 1, 2]))
        with calls_model() as m:
            m.filter(keep_entry=lambda e: e.kind != Kind.CALL_COUNT
                     or all(bci != 3 for _, bci in e.frames))
            self.assertEqual(layout(m)[0], ["1:0", "3:0<2:5<1:1", "3:0"])
        with calls_model() as m:
            m.filter(keep_frame=lambda mid, bci: (mid, bci) != (0, 0))
            self.assertEqual(layout(m), (FULL[0], ["2:4"], 0, 1, [1, 2, 3], [0, 1, 2]))
        # With kinds, the other kinds go first and keep_frame judges only
        # the frames of the kept kinds' entries.
        with calls_model() as m:
            frames = []
            m.filter(kinds=["sampling"], keep_frame=lambda mid, bci: frames.append((mid, bci))
                     or True)
            self.assertEqual(frames, [(2, 4)])
            self.assertEqual(layout(m), ([], ["2:4"], 0, 0, [1, 2, 3], [0, 1, 2]))

    def test_entries_methods_and_types(self):
        with calls_model() as m:
            m.add_type(9, "Z")
            seen = []

            def keep_entry(e):
                seen.append((e.kind, e.ctx))
                return e.ctx != "3:0"
            m.filter(keep_entry=keep_entry, keep_method=lambda x: x.id != 3,
                     keep_type=lambda t: t.id != 9)
            self.assertEqual(seen, [(Kind.CALL_COUNT, "1:0"), (Kind.CALL_COUNT, "2:0<1:3"),
                                    (Kind.CALL_COUNT, "3:0<2:5<1:1"), (Kind.CALL_COUNT, "3:0"),
                                    (Kind.VIRTUAL_INVOKE, "1:7"), (Kind.MONITOR, "0:0"),
                                    (Kind.SAMPLING, "2:4")])
            # keep_method does not touch entries: "3:0<2:5<1:1" stays.
            self.assertEqual(layout(m), (["1:0", "2:0<1:3", "3:0<2:5<1:1"], ["2:4"], 1, 1,
                                         [1, 2], [0, 1, 2]))

    def test_exception_changes_nothing(self):
        with calls_model() as m:
            e = m.call_count[0]

            def boom(mid, bci):
                raise RuntimeError("no")
            with self.assertRaises(RuntimeError):
                m.filter(keep_frame=boom)
            self.assertEqual(layout(m), FULL)
            self.assertEqual(e.records, [1])                         # nothing ran
            with self.assertRaises(iprof.StaleError):
                m.filter(keep_frame=lambda mid, bci: m.remove_entry(Kind.CALL_COUNT, "1:0"))
            with self.assertRaises(ValueError):
                m.filter(kinds="nothing", keep_frame=lambda mid, bci: True)
            self.assertEqual(layout(m)[4:], FULL[4:])

    def test_invalidates_like_every_filter(self):
        with calls_model() as m:
            cc, s, meth = m.call_count[0], m.sampling[0], m.methods[0]
            ctx = cc.context
            m.filter(keep_frame=lambda mid, bci: True)
            for stale in (lambda: cc.records, lambda: s.records, lambda: meth.id):
                with self.assertRaises(iprof.StaleError):
                    stale()
            self.assertEqual(str(ctx), "1:0")                        # contexts stay
            self.assertEqual(layout(m), FULL)


class RemoveMethodCascadeTest(unittest.TestCase):
    def test_cascade(self):
        with calls_model() as m:
            b = m.methods.by_id(2)
            e = m.virtual_invoke[0]
            m.remove_method(b, cascade=True)
            self.assertEqual(layout(m), (["1:0", "3:0"], [], 1, 1, [1, 3], [0, 1, 2]))
            with self.assertRaises(iprof.StaleError):
                b.name
            with self.assertRaises(iprof.StaleError):
                e.records
            m.remove_method(3, cascade=True)
            self.assertEqual(layout(m), (["1:0"], [], 1, 1, [1], [0, 1, 2]))
            self.assertEqual(iprof.validate(m.write(), strict=True), [])

    def test_remove_method_leaves_entries_dangling(self):
        with calls_model() as m:
            e = m.call_count[0]
            m.remove_method(2)
            self.assertEqual(layout(m)[:2], (FULL[0], ["2:4"]))
            self.assertEqual(e.records, [1])             # entries are not touched
            with self.assertRaises(iprof.DanglingReferenceError):
                m.write()

    def test_not_found(self):
        with calls_model() as m:
            with self.assertRaises(iprof.NotFoundError) as cm:
                m.remove_method(9, cascade=True)
            self.assertEqual(subject(cm.exception), ("no method with id 9", None, "", None, 9))
            with self.assertRaises(iprof.LimitError):
                m.remove_method(1 << 63, cascade=True)
            self.assertEqual(layout(m), FULL)


class PruneTest(unittest.TestCase):
    def test_prune(self):
        with calls_model() as m:
            m.filter(keep_frame=lambda mid, bci: mid != 2)
            none = {"methods": 0, "types": 0, **{k.json_key: 0 for k in Kind}}
            self.assertEqual(m.prune(methods=False, types=False), none)   # nothing asked
            self.assertEqual(layout(m)[4:], ([1, 2, 3], [0, 1, 2]))
            self.assertEqual(m.prune(types=False), dict(none, methods=1))
            self.assertEqual(layout(m)[4:], ([1, 3], [0, 1, 2]))
            t = m.types[2]
            # B was only in method 2's signature
            self.assertEqual(m.prune(methods=False), dict(none, types=1))
            self.assertEqual(layout(m)[4:], ([1, 3], [0, 1]))
            with self.assertRaises(iprof.StaleError):
                t.name

    def test_both_and_types_in_records(self):
        with calls_model() as m:
            m.remove_entry(Kind.CALL_COUNT, "3:0")
            m.remove_entry(Kind.CALL_COUNT, "3:0<2:5<1:1")
            m.remove_entry(Kind.CALL_COUNT, "2:0<1:3")
            m.remove_entry(Kind.SAMPLING, "2:4")
            meth = m.methods[0]
            m.prune()                    # methods, then the types only they used
            self.assertEqual(layout(m), (["1:0"], [], 1, 1, [1], [0, 1]))
            with self.assertRaises(iprof.StaleError):
                meth.id
        with calls_model() as m:
            m.remove_method(1)       # type A stays: the records of two entries name it
            m.filter(keep_entry=lambda e: e.kind not in (Kind.CALL_COUNT, Kind.SAMPLING))
            m.prune()
            self.assertEqual(layout(m), ([], [], 1, 1, [], [1]))

    def test_unknown_key_holding_ids_stops_it(self):
        with calls_model() as m:
            m.filter(keep_entry=lambda e: e.kind != Kind.CALL_COUNT)
            m.add_unknown("fork", "[2]")
            m.prune()
            self.assertEqual(layout(m)[4:], ([1, 2, 3], [0, 1, 2]))
            m.remove_unknown("fork")
            m.add_unknown("flag", "true")                        # a scalar holds no id
            m.prune()
            self.assertEqual(layout(m)[4:], ([1, 2], [0, 1, 2]))


class PackageMatchesTest(unittest.TestCase):
    def test_table(self):
        cases = [("com.foo", "com.foo.Bar", True), ("com.foo", "com.foo.impl.Baz$1", True),
                 ("com.foo", "com.foo", True), ("com.foo.", "com.foo.Bar", True),
                 ("com.foo", "com.foobar.X", False), ("com.foo", "com.foo$X", False),
                 ("com.foo", "com", False), ("com.foo.Bar", "com.foo", False),
                 ("", "anything", True), ("", "", True), (".", "x.Y", True),
                 ("com.foo", b"com.foo.Bar", True), (b"com", "com.\0", True),
                 ("a\0b", "a\0b", False)]
        for package, name, expected in cases:
            self.assertIs(iprof.package_matches(package, name), expected, (package, name))

    def test_a_type(self):
        with calls_model() as m:
            m.add_type(7, "com.foo.Bar")
            self.assertEqual([t.id for t in m.types if iprof.package_matches("com.foo", t)],
                             [7])

    def test_filter_reports_the_library_message(self):
        with calls_model() as m:
            with self.assertRaises(iprof.InvalidArgumentError) as cm:
                m.filter(top_percent=-1)
            self.assertEqual(cm.exception.message, "filter options: top_percent must be >= 0")


if __name__ == "__main__":
    unittest.main()

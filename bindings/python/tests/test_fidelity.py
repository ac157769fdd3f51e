"""What a model keeps of its file beyond the profile: GraalVM 25's
"instanceOfProfiles" spelling and unknown top-level keys, written back byte
for byte; merges and the canonical form refusing or dropping unknown keys
that hold ids; the streaming on_key callback and Writer.unknown. The same
cases as bindings/rust/iprof/tests/fidelity.rs."""
import unittest

from support import data, data_bytes
import iprof
from iprof import InstanceofKey, Kind, Section, UnknownKey

PLAIN = "graalvm25.iprof"
UNKNOWN = "graalvm25-unknown.iprof"
PLAIN_UNKNOWN = "graalvm25-plain-unknown.iprof"

CE_JSON = b'[{"ctx":"2:12","records":[17,0,600,17,1,400]}]'
VIM_JSON = b'[{"ctx":"1:4","records":[3,600,4,400]}]'
UNKNOWN_KEYS = [UnknownKey("ceConditionalProfilesV2", CE_JSON),
                UnknownKey("virtualInvokeMethodProfiles", VIM_JSON)]
PLAIN_KEYS = [UnknownKey("virtualInvokeMethodProfiles", b"[]"),
              UnknownKey("x-tool", b'"iprof-test"')]


def respelled(data):
    """*data* with its instanceof key spelled the other way."""
    return data.replace(b'"instanceOfProfiles"', b'"instanceofProfiles"')


class RoundTripTest(unittest.TestCase):
    def test_graalvm25_files_round_trip_byte_identical(self):
        for name in (PLAIN, UNKNOWN, PLAIN_UNKNOWN):
            raw = data_bytes(name)
            with iprof.load(data(name)) as m:
                self.assertEqual(m.write(), raw, name)
                self.assertIs(m.instanceof_key, InstanceofKey.CAMEL, name)
            with iprof.load(raw) as m:
                self.assertEqual(m.write(), raw, name)
        # The GraalVM 25 details survive: a repeated sampling ctx, bci -6,
        # branch index -5.
        with iprof.load(data(PLAIN)) as m:
            self.assertEqual([e.ctx for e in m.sampling],
                             ["3:2<2:5<1:-6", "4:1<2:9<1:-6", "3:2<2:5<1:-6"])
            self.assertEqual(m.call_count[1].ctx, "3:0<2:5<1:-6")
            self.assertEqual(m.conditional[0].records[9:], [31, -5, 0])
            self.assertEqual(m["instanceOfProfiles"][0].records, [5, 600, 6, 400])

    def test_unknown_keys_are_read_with_their_raw_json(self):
        with iprof.load(data(UNKNOWN)) as m:
            self.assertEqual(m.unknown_keys, UNKNOWN_KEYS)
            self.assertEqual([(d.severity, d.path) for d in m.diagnostics],
                             [(iprof.Severity.WARNING, "ceConditionalProfilesV2"),
                              (iprof.Severity.WARNING, "virtualInvokeMethodProfiles")])
        with iprof.load(data(PLAIN_UNKNOWN)) as m:
            self.assertEqual(m.unknown_keys, PLAIN_KEYS)
        with iprof.load(data(PLAIN)) as m:
            self.assertEqual(m.unknown_keys, [])
        seen = []
        iprof.read(data(UNKNOWN), on_unknown=seen.append)
        self.assertEqual(seen, UNKNOWN_KEYS)


class InstanceofKeyTest(unittest.TestCase):
    def test_spelling_converts_through_the_write_option(self):
        camel = data_bytes(PLAIN)
        lower = respelled(camel)
        self.assertNotEqual(lower, camel)
        with iprof.load(camel) as m:
            self.assertEqual(m.write(instanceof_key="instanceof"), lower)
            self.assertEqual(m.write(instanceof_key=InstanceofKey.LOWER), lower)
            self.assertEqual(m.write(instanceof_key="instanceOf"), camel)
        with iprof.load(lower) as m:
            self.assertIs(m.instanceof_key, InstanceofKey.LOWER)
            self.assertEqual(m.write(), lower)               # the model's own spelling
            self.assertEqual(m.write(instanceof_key="instanceOfProfiles"), camel)
            m.instanceof_key = "instanceOf"
            self.assertEqual(m.write(), camel)
            with self.assertRaises(ValueError):
                m.instanceof_key = "instanceOF"
        # Unknown keys keep their place whatever the spelling.
        with iprof.load(data(UNKNOWN)) as m:
            self.assertEqual(m.write(instanceof_key="instanceof"),
                             respelled(data_bytes(UNKNOWN)))
        with iprof.Model() as m:
            self.assertIs(m.instanceof_key, InstanceofKey.AUTO)
            with self.assertRaises(ValueError):
                m.write(instanceof_key="nope")

    def test_streaming_writes_graalvm_spelling_unless_told(self):
        for option, key in ((None, "instanceOfProfiles"), ("instanceOf", "instanceOfProfiles"),
                            ("instanceof", "instanceofProfiles")):
            with iprof.Writer(instanceof_key=option) as w:
                w.begin("1.1.0")
                w.type(0, "A")
                w.method(1, "m", [0, 0])
                w.entry(Kind.INSTANCEOF, "1:2", [0, 1])
                out = w.end()
            tail = '"samplingProfiles":[],"%s":[{"ctx":"1:2","records":[0,1]}]}' % key
            self.assertTrue(out.endswith(tail.encode()), (option, out))


class OnKeyTest(unittest.TestCase):
    EXPECTED = [("version", Section.VERSION), ("types", Section.TYPES),
                ("methods", Section.METHODS), ("callCountProfiles", Kind.CALL_COUNT),
                ("conditionalProfiles", Kind.CONDITIONAL),
                ("ceConditionalProfilesV2", Section.UNKNOWN),
                ("virtualInvokeProfiles", Kind.VIRTUAL_INVOKE),
                ("virtualInvokeMethodProfiles", Section.UNKNOWN),
                ("monitorProfiles", Kind.MONITOR), ("samplingProfiles", Kind.SAMPLING),
                ("instanceOfProfiles", Kind.INSTANCEOF)]

    def test_on_key_reports_every_top_level_key(self):
        keys = []
        iprof.read(data(UNKNOWN), on_key=keys.append)
        self.assertEqual(keys, self.EXPECTED)
        self.assertEqual([type(k.section) for k in keys[:4]],
                         [Section, Section, Section, Kind])

    def test_on_key_can_stop_the_read(self):
        keys = []

        def on_key(k):
            keys.append(k.key)
            if k.section is Section.METHODS:
                raise iprof.StopRead()
        result = iprof.read(data(UNKNOWN), on_key=on_key)
        self.assertTrue(result.stopped)
        self.assertEqual(keys, ["version", "types", "methods"])

    def test_stream_yields_keys(self):
        with iprof.stream(data(UNKNOWN), types=False, methods=False, kinds=[], keys=True,
                          unknown=True) as s:
            items = list(s)
        self.assertEqual(items[:6], [iprof.KeyInfo(*k) for k in self.EXPECTED[:6]])
        self.assertEqual(items[6], UNKNOWN_KEYS[0])
        self.assertEqual(len(items), len(self.EXPECTED) + 2)


class MergeTest(unittest.TestCase):
    def test_refuses_unknown_keys_holding_ids_unless_dropped(self):
        with iprof.load(data(UNKNOWN)) as src, iprof.Model() as dst:
            with self.assertRaises(iprof.SchemaError) as cm:
                dst.merge(src)
            self.assertIn("ceConditionalProfilesV2", cm.exception.message)
            self.assertIn("ceConditionalProfilesV2", str(cm.exception))
            self.assertEqual((len(dst.types), dst.unknown_keys), (0, []))   # unchanged
            dst.merge(src, 2, drop_unknown=True)
            self.assertEqual(dst.unknown_keys, [])
            self.assertEqual((len(dst.types), len(dst.methods)), (8, 5))
            self.assertEqual(dst.call_count[0].records, [2000])
        # A model holding such keys refuses to be merged into, too.
        with iprof.load(data(UNKNOWN)) as dst, iprof.load(data(PLAIN)) as src:
            with self.assertRaises(iprof.SchemaError) as cm:
                dst.merge(src)
            self.assertIn("ceConditionalProfilesV2", cm.exception.message)

    def test_keeps_plain_unknown_keys(self):
        with iprof.load(data(PLAIN_UNKNOWN)) as src, iprof.Model() as dst:
            dst.merge(src)
            self.assertEqual(dst.unknown_keys, PLAIN_KEYS)
            dst.merge(src)                                   # equal values combine
            self.assertEqual(dst.unknown_keys, PLAIN_KEYS)
            self.assertEqual(dst.call_count[0].records, [2000])
            self.assertIs(dst.instanceof_key, InstanceofKey.CAMEL)
            dst.merge(src, drop_unknown=True)
            self.assertEqual(dst.unknown_keys, [])

    def test_different_plain_values_refuse(self):
        with iprof.load(data(PLAIN_UNKNOWN)) as src, iprof.Model() as dst:
            dst.add_unknown("x-tool", '"other"')
            with self.assertRaises(iprof.SchemaError) as cm:
                dst.merge(src)
            self.assertIn("x-tool", cm.exception.message)


class CanonicalizeTest(unittest.TestCase):
    def test_refuses_or_drops_unknown_keys(self):
        raw = data_bytes(UNKNOWN)
        with iprof.load(raw) as m:
            with self.assertRaises(iprof.SchemaError) as cm:
                m.canonicalize()
            self.assertIn("ceConditionalProfilesV2", cm.exception.message)
            self.assertEqual(m.write(), raw)                 # unchanged
            m.canonicalize(drop_unknown=True)
            self.assertEqual(m.unknown_keys, [])

    def test_keeps_plain_keys_at_the_end_sorted(self):
        with iprof.load(data(PLAIN_UNKNOWN)) as m:
            m.add_unknown("a-first", "null")
            m.canonicalize()
            self.assertTrue(m.write().endswith(
                b'"records":[1,600,4,400]}],"a-first":null,"virtualInvokeMethodProfiles":[],'
                b'"x-tool":"iprof-test"}'), m.write())


class UnknownKeysTest(unittest.TestCase):
    def test_add_remove_clear(self):
        with iprof.Model() as m:
            m.add_unknown("x-a", "{}")
            m.add_unknown("x-b", b" [1, 2] ")
            self.assertEqual(m.unknown_keys, [("x-a", b"{}"), ("x-b", b" [1, 2] ")])
            self.assertTrue(m.write().endswith(
                b'"instanceOfProfiles":[],"x-a":{},"x-b": [1, 2] }'), m.write())
            for known in ("types", "instanceofProfiles", "instanceOfProfiles", "version"):
                with self.assertRaises(iprof.InvalidArgumentError) as cm:
                    m.add_unknown(known, "[]")
                self.assertIn('"%s"' % known, cm.exception.message)
            with self.assertRaises(iprof.JSONSyntaxError):
                m.add_unknown("x-c", "[1,")
            m.remove_unknown("x-a")
            with self.assertRaises(iprof.NotFoundError):
                m.remove_unknown("x-a")
            self.assertEqual(m.unknown_keys, [("x-b", b" [1, 2] ")])
            m.remove_unknown()
            self.assertEqual(m.unknown_keys, [])
            m.remove_unknown()            # no key: never NotFoundError
            self.assertEqual(m.unknown_keys, [])
            m.close()
            with self.assertRaises(iprof.ClosedError):
                m.unknown_keys

    def test_writer_writes_unknown_keys_where_it_is(self):
        with iprof.Writer(version="1.0.0") as w:
            w.unknown("x-first", "1")
            w.type(0, "A")
            w.method(1, "m", [0, 0])
            w.entry(Kind.CALL_COUNT, "1:0", [3])
            w.unknown("x-calls", b"[]")
            out = w.end()
        self.assertEqual(out, b'{"version":"1.0.0","x-first":1,"types":[{"id":0,"name":"A"}],'
                              b'"methods":[{"id":1,"name":"m","signature":[0,0]}],'
                              b'"callCountProfiles":[{"ctx":"1:0","records":[3]}],"x-calls":[],'
                              b'"conditionalProfiles":[],"virtualInvokeProfiles":[],'
                              b'"monitorProfiles":[],"samplingProfiles":[]}')
        for key, json, error in (("methods", "[]", iprof.InvalidArgumentError),
                                 ("x", "nope", iprof.JSONSyntaxError)):
            w = iprof.Writer()
            with self.assertRaises(error):
                w.unknown(key, json)
            w.close()


if __name__ == "__main__":
    unittest.main()


LEGACY = "legacy-0.2.0.iprof"


class UnreadElementKeysTest(unittest.TestCase):
    """Keys of types, methods and entries are not read: the model counts the
    elements that had them and a write refuses to lose them unless
    drop_unknown=True (IPROF_WRITE_DROP_UNKNOWN)."""

    def test_write_refuses_unless_dropped(self):
        raw = data_bytes(PLAIN)
        doc = raw.replace(b'{"id":3,"name":"com.example.Main"}',
                          b'{"id":3,"name":"com.example.Main","x":[1]}', 1)
        self.assertNotEqual(doc, raw)
        with iprof.load(doc) as m, iprof.load(raw) as plain:
            self.assertEqual((m.unread_count, m.first_unread), (1, 'types[3], key "x"'))
            self.assertEqual((plain.unread_count, plain.first_unread), (0, None))
            # The message names the keyword, not the C flag.
            want = ('1 element of the model\'s input held keys it does not keep (the first: '
                    'types[3], key "x"); writing would lose them (drop_unknown=True writes '
                    'without them)')
            for kwargs in ({}, {"canonical": True}):
                with self.assertRaises(iprof.SchemaError) as cm:
                    m.write(**kwargs)
                self.assertEqual(cm.exception.message, want)
                self.assertIn(want, str(cm.exception))
            # Writer's too, and a failed writer repeats it at later calls.
            w = iprof.Writer()
            for call in (lambda: w.write_model(m), w.end):
                with self.assertRaises(iprof.SchemaError) as cm:
                    call()
                self.assertEqual(cm.exception.message, want)
            w.close()
            self.assertEqual(m.write(drop_unknown=True), raw)
            plain.merge(m)
            self.assertEqual(plain.unread_count, 1)
            with iprof.Writer(drop_unknown=True) as w:
                w.write_model(m)
                self.assertEqual(w.getvalue(), raw)


class LegacyTest(unittest.TestCase):
    """Format 0.2.0, GraalVM's legacy layout: read into the 1.x model,
    written back byte for byte, converted to 1.x. The same cases as
    bindings/rust/iprof/tests/fidelity.rs."""

    def test_read_as_1x_elements(self):
        with iprof.load(data(LEGACY), strict=True) as m:
            self.assertEqual(m.version, iprof.FORMAT_0_2_0)
            self.assertEqual([(e.ctx, e.records) for e in m.call_count],
                             [("3:0", [1]), ("5:0<3:4", [10]),
                              ("7:0<5:9<3:-6", [23929230826])])
            self.assertEqual([e.records for e in m.conditional],
                             [[6, 0, 9, 12, 1, 1], [20, 0, 3, -5, 0, 2, 30, 1, 0]])
            self.assertEqual([(e.ctx, e.records) for e in m.monitor], [("0:0", [10, 1, 11, 3])])
            self.assertEqual(len(m.sampling), 0)
            self.assertEqual(m.diagnostics, [])

    def test_written_back_and_converted(self):
        raw = data_bytes(LEGACY)
        with iprof.load(raw) as m:
            self.assertEqual(m.write(), raw)
            up = m.write(version=iprof.FORMAT_1_1_0)
        self.assertTrue(up.startswith(b'{"version":"1.1.0","types":[{"id":0,"name":"int"}'))
        with iprof.load(up, strict=True) as m:
            self.assertEqual(m.version, "1.1.0")
            self.assertEqual(m.write(version=iprof.FORMAT_0_2_0), raw)
            m.version = iprof.FORMAT_0_2_0
            self.assertEqual(m.write(), raw)

    def test_what_0_2_0_cannot_hold(self):
        with iprof.load(data(LEGACY)) as m:
            m.add_entry(Kind.SAMPLING, [(3, 1)], [2])
            with self.assertRaises(iprof.VersionError) as cm:
                m.write()
            self.assertEqual(cm.exception.message,
                             "samplingProfiles are not part of format version 0.2.0")
            self.assertTrue(m.write(version=iprof.FORMAT_1_0_0).startswith(b'{"version":"1.0.0"'))

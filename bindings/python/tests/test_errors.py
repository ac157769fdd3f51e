"""Errors: exceptions with status, message, line, column, offset, JSON path
and file name; diagnostics of lenient and strict loads, and their limit."""
import io
import os
import pickle
import tempfile
import unittest

import support
from support import doc
import iprof

# The wrong-typed "x" is at line 3, column 46 (offset 96): methods[0].signature[1].
BROKEN = (b'{"version":"1.0.0",\n'
          b'"types":[{"id":0,"name":"T"}],\n'
          b'"methods":[{"id":1,"name":"m","signature":[0,"x"]}]}')


class ErrorTest(unittest.TestCase):
    def test_broken_document(self):
        self.assertEqual(BROKEN.index(b'"x"'), 96)
        self.assertEqual(BROKEN.split(b"\n")[2].index(b'"x"') + 1, 46)
        with self.assertRaises(iprof.SchemaError) as cm:
            iprof.load(BROKEN)
        e = cm.exception
        self.assertIsInstance(e, iprof.Error)
        self.assertIsInstance(e, ValueError)
        self.assertEqual(e.status, iprof.Status.ESCHEMA)
        self.assertEqual(e.status, -4)
        self.assertEqual(e.status_name, "IPROF_ESCHEMA")
        self.assertEqual(e.message, "expected an integer")
        self.assertEqual((e.line, e.column, e.offset), (3, 46, 96))
        self.assertEqual(e.path, "methods[0].signature[1]")
        self.assertIsNone(e.filename)
        self.assertEqual(str(e), "3:46: expected an integer (at methods[0].signature[1]) "
                                 "[IPROF_ESCHEMA]")

    def test_broken_file(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "broken.iprof")
            with open(path, "wb") as f:
                f.write(BROKEN)
            for reader in (iprof.load, iprof.read, iprof.validate):
                with self.assertRaises(iprof.SchemaError) as cm:
                    reader(path)
                e = cm.exception
                self.assertEqual((e.filename, e.line, e.column, e.offset, e.path),
                                 (path, 3, 46, 96, "methods[0].signature[1]"))
                self.assertEqual(str(e), "%s:3:46: expected an integer "
                                 "(at methods[0].signature[1]) [IPROF_ESCHEMA]" % path)

    def test_syntax_error(self):
        with self.assertRaises(iprof.JSONSyntaxError) as cm:
            iprof.load(b'{"version":"1.0.0",\n  "types":[],}')
        e = cm.exception
        self.assertEqual((e.status, e.line, e.column, e.offset, e.path),
                         (iprof.Status.ESYNTAX, 2, 14, 33, ""))
        with self.assertRaises(iprof.JSONSyntaxError) as cm:
            iprof.load(b'{"version":"1.0.0"')
        self.assertEqual(cm.exception.offset, 18)   # at the end of the input

    def test_missing_file(self):
        with self.assertRaises(iprof.InputOutputError) as cm:
            iprof.load("/nonexistent/dir/x.iprof")
        e = cm.exception
        self.assertEqual((e.status, e.line, e.column, e.offset, e.path, e.filename),
                         (iprof.Status.EIO, 0, 0, 0, "", "/nonexistent/dir/x.iprof"))
        self.assertIn("/nonexistent/dir/x.iprof", e.message)

    def test_version_errors(self):
        with self.assertRaises(iprof.VersionError) as cm:
            iprof.load(doc(version="2.0.0"))
        self.assertEqual((cm.exception.path, cm.exception.line, cm.exception.column),
                         ("version", 1, 12))
        with iprof.Model() as m:
            with self.assertRaises(iprof.VersionError) as cm:
                m.version = "x"
            self.assertEqual(cm.exception.message, 'malformed format version "x"')
            m.version = "1.0.0"
            self.assertEqual(m.version, "1.0.0")

    def test_limit(self):
        with self.assertRaises(iprof.LimitError) as cm:
            iprof.load(b'{"version":"1.0.0","types":[{"id":9223372036854775808,"name":"x"}],'
                       b'"methods":[]}')
        self.assertEqual((cm.exception.path, cm.exception.column), ("types[0].id", 35))

    def test_lenient_diagnostics_and_strict(self):
        bad = doc(types=[(0, "int")], methods=[(1, "m", [0, 0])],
                  callCountProfiles=[("1:0", [1, 2]), ("7:0", [1])])
        with iprof.load(bad) as m:
            diags = m.diagnostics
            self.assertEqual(len(diags), 2)
            d = diags[0]
            self.assertEqual((d.status, d.severity, d.path), (iprof.Status.ESCHEMA,
                             iprof.Severity.ERROR, "callCountProfiles[0].records"))
            self.assertEqual(d.offset, bad.index(b"[1,2]"))
            self.assertEqual(d.status_name, "IPROF_ESCHEMA")
            d = diags[1]
            self.assertEqual((d.status, d.path), (iprof.Status.EDANGLING,
                                                  "callCountProfiles[1].ctx"))
            self.assertEqual(d.offset, bad.index(b'"7:0"'))
            self.assertEqual(len(m.call_count), 2)       # kept as the file has them
            self.assertEqual(m.call_count[0].records, [1, 2])
        with self.assertRaises(iprof.SchemaError) as cm:
            iprof.load(bad, strict=True)
        self.assertEqual(cm.exception.path, "callCountProfiles[0].records")
        self.assertEqual(iprof.validate(bad), diags)
        # Without reference checks the dangling ctx is not reported.
        self.assertEqual([d.path for d in iprof.validate(bad, check_references=False)],
                         ["callCountProfiles[0].records"])

    def test_warning(self):
        with iprof.load(doc(version="1.0.7")) as m:
            self.assertEqual(m.version, "1.0.7")
            (d,) = m.diagnostics
            self.assertEqual((d.status, d.severity, d.path), (iprof.Status.EVERSION,
                             iprof.Severity.WARNING, "version"))
            self.assertTrue(str(d).startswith("1:12: warning: "), str(d))

    def test_mutation_errors(self):
        with iprof.Model() as m:
            m.add_type(0, "int")
            with self.assertRaises(iprof.InvalidArgumentError) as cm:
                m.add_type(0, "long")
            self.assertEqual(cm.exception.status_name, "IPROF_EINVAL")
            self.assertEqual((cm.exception.line, cm.exception.path), (0, ""))
            with self.assertRaises(iprof.DanglingReferenceError):
                m.add_method(1, "m", [0, 5])
            with self.assertRaises(iprof.NotFoundError) as cm:
                m.remove_type(7)
            self.assertIsInstance(cm.exception, LookupError)
            m.add_method(1, "m", [0, 0])
            with self.assertRaises(iprof.SchemaError):
                m.add_entry(iprof.Kind.CALL_COUNT, "1:0", [1, 2])
            with self.assertRaises(iprof.DanglingReferenceError):
                m.add_entry(iprof.Kind.CALL_COUNT, "2:0", [1])
            with self.assertRaises(iprof.NotFoundError):
                m.remove_entry(iprof.Kind.CALL_COUNT, "1:0")
            self.assertEqual(len(m.call_count), 0)

    def subject(self, e):
        return (e.message, e.kind, e.context, e.type_id, e.method_id)

    def test_model_errors_say_what_they_are_about(self):
        K = iprof.Kind
        with iprof.Model() as m:
            m.add_type(0, "T")
            m.add_method(1, "f", [0, 0])
            with self.assertRaises(iprof.DanglingReferenceError) as cm:
                m.add_entry(K.CALL_COUNT, [(1, 0), (7, 2)], [3])
            self.assertEqual(self.subject(cm.exception),
                             ("callCountProfiles entry: method id 7 is not defined in the "
                              "model", K.CALL_COUNT, "1:0<7:2", None, 7))
            self.assertIs(cm.exception.kind, K.CALL_COUNT)
            self.assertEqual(str(cm.exception), "callCountProfiles entry: method id 7 is not "
                             "defined in the model [IPROF_EDANGLING]")
            with self.assertRaises(iprof.DanglingReferenceError) as cm:
                m.add_entry(K.VIRTUAL_INVOKE, "1:4", [9, 3])
            self.assertEqual(self.subject(cm.exception),
                             ("virtualInvokeProfiles entry: type id 9 is not defined in the "
                              "model", K.VIRTUAL_INVOKE, "1:4", 9, None))
            with self.assertRaises(iprof.SchemaError) as cm:
                m.add_entry(K.CALL_COUNT, "1:0", [3, 4])
            self.assertEqual(self.subject(cm.exception)[1:], (K.CALL_COUNT, "1:0", None, None))
            self.assertTrue(cm.exception.message.startswith("callCountProfiles entry: records:"))
            with self.assertRaises(iprof.NotFoundError) as cm:
                m.remove_entry(K.SAMPLING, "1:0<1:2")
            self.assertEqual(self.subject(cm.exception),
                             ("no samplingProfiles entry with this context", K.SAMPLING,
                              "1:0<1:2", None, None))
            with self.assertRaises(iprof.InvalidArgumentError) as cm:
                m.add_type(0, "U")
            self.assertEqual(self.subject(cm.exception), ("type id 0 is taken", None, "", 0, None))
            with self.assertRaises(iprof.DanglingReferenceError) as cm:
                m.add_method(2, "g", [0, 5])
            self.assertEqual(self.subject(cm.exception),
                             ("method 2: signature type id 5 (signature[1]) is not defined in "
                              "the model", None, "", 5, 2))
            with self.assertRaises(iprof.InvalidArgumentError) as cm:
                m.add_method(1, "g", [0])
            self.assertEqual(self.subject(cm.exception),
                             ("method id 1 is taken", None, "", None, 1))
            with self.assertRaises(iprof.NotFoundError) as cm:
                m.remove_type(9)
            self.assertEqual(self.subject(cm.exception), ("no type with id 9", None, "", 9, None))
            with self.assertRaises(iprof.NotFoundError) as cm:
                m.remove_method(9)
            self.assertEqual(self.subject(cm.exception),
                             ("no method with id 9", None, "", None, 9))
            # A call that leaves no report of its own does not show the last one.
            with self.assertRaises(iprof.InvalidArgumentError):
                m.add_type(0, "U")
            with self.assertRaises(iprof.InvalidArgumentError) as cm:
                m.filter(top_percent=-1)
            self.assertNotEqual(cm.exception.message, "type id 0 is taken")
            self.assertIsNone(cm.exception.type_id)
            # The subject survives pickling.
            with self.assertRaises(iprof.DanglingReferenceError) as cm:
                m.add_entry(K.CALL_COUNT, [(1, 0), (7, 2)], [3])
            e2 = pickle.loads(pickle.dumps(cm.exception))
            self.assertEqual(self.subject(e2), self.subject(cm.exception))

    def test_merge_errors_carry_the_library_message(self):
        with iprof.Model() as dst, iprof.Model() as src:
            for weight, text in ((float("nan"), "nan"), (-2, "-2"), (float("inf"), "inf")):
                with self.assertRaises(iprof.InvalidArgumentError) as cm:
                    dst.merge(src, weight)
                self.assertEqual(cm.exception.message,
                                 "weight %s: must be finite and >= 0" % text)
                self.assertEqual(self.subject(cm.exception)[1:], (None, "", None, None))
            dst.merge(src, 1)

    def test_read_errors_have_no_subject(self):
        with self.assertRaises(iprof.SchemaError) as cm:
            iprof.load(BROKEN)
        self.assertEqual(self.subject(cm.exception)[1:], (None, "", None, None))

    def test_pickle(self):
        try:
            iprof.load(BROKEN)
        except iprof.Error as e:
            e2 = pickle.loads(pickle.dumps(e))
        self.assertIs(type(e2), iprof.SchemaError)
        self.assertEqual((e2.status, e2.message, e2.line, e2.column, e2.path),
                         (iprof.Status.ESCHEMA, "expected an integer", 3, 46,
                          "methods[0].signature[1]"))

    def test_hierarchy(self):
        for status in iprof.Status:
            if status == 0:
                continue
            cls = iprof.error_class(status)
            self.assertTrue(issubclass(cls, iprof.Error))
            e = cls(status)
            self.assertEqual(e.message, iprof.status_string(status))
            self.assertEqual(e.status_name, "IPROF_" + status.name)


# Version "1.0.5" (a warning) and 30 call-count entries whose ctx names a
# method that is not defined (30 dangling errors): 31 diagnostics.
MANY = doc(version="1.0.5", callCountProfiles=[("%d:0" % i, [1]) for i in range(1, 31)])
CLEAN = doc(types=[(0, "int")], methods=[(1, "m", [0, 0])], callCountProfiles=[("1:0", [1])])


class SizeOptionTest(unittest.TestCase):
    """Options that are a C size_t are refused out of its range: ctypes
    would wrap them (2**64 + 1 became 1, cutting every context to one
    frame; -1 became "no limit")."""

    def test_out_of_range(self):
        m = iprof.load(support.FIB)
        self.addCleanup(m.close)
        want = m.write()
        entry = m.call_count[0]
        for bad in (-1, 2**64, 2**64 + 1):
            with self.subTest(bad=bad):
                with self.assertRaises(ValueError) as cm:
                    m.filter(max_depth=bad)
                self.assertIn("max_depth must be between 0 and %d, not %d" % (2**64 - 1, bad),
                              str(cm.exception))
                self.assertEqual(m.write(), want)
                for option in ("chunk_size", "max_element_size", "max_depth"):
                    with self.assertRaises(ValueError):
                        iprof.load(support.FIB, **{option: bad})
                    with self.assertRaises(ValueError):
                        m.merge_from(support.FIB, **{option: bad})
                with self.assertRaises(ValueError):
                    m.write(buffer_size=bad)
                with self.assertRaises(ValueError):
                    iprof.diff(m, m, top=bad)
        with self.assertRaises(ValueError):
            iprof.diff(m, m, top=0)
        self.assertEqual(m.write(), want)
        self.assertEqual(entry.total, m.call_count[0].total)  # refused options invalidate nothing
        m.filter(max_depth=2**64 - 1)                 # the largest is a size_t: no cut
        with iprof.load(support.FIB) as ref:
            ref.filter()
            self.assertEqual(m.write(), ref.write())


class NonBlockingSourceTest(unittest.TestCase):
    def test_no_data_yet_is_not_the_end(self):
        """A non-blocking file object with no data yet (readinto() or read()
        giving None) fails the read with BlockingIOError; it was taken for
        the end of the input (a syntax error at its offset, or TypeError)."""
        with open(support.FIB, "rb") as f:
            data = f.read()

        class Raw(io.RawIOBase):
            def __init__(self):
                self.given = False

            def readable(self):
                return True

            def readinto(self, b):
                if self.given:
                    return None
                self.given = True
                b[:10] = data[:10]
                return 10

        class Plain:
            def __init__(self):
                self.given = False

            def read(self, n):
                if self.given:
                    return None
                self.given = True
                return data[:10]
        for source in (Raw, Plain):
            with self.subTest(source=source.__name__):
                with self.assertRaises(BlockingIOError):
                    iprof.load(source())
                with iprof.load(support.FIB) as m:
                    before = m.write()
                    with self.assertRaises(BlockingIOError):
                        m.merge_from(source())
                    self.assertEqual(m.write(), before)


class DiagnosticLimitTest(unittest.TestCase):
    """max_diagnostics keeps the first n diagnostics; the rest are counted
    in diagnostics_dropped as (errors, warnings)."""

    def check_kept(self, diags):
        self.assertEqual([(d.status, d.severity) for d in diags],
                         [(iprof.Status.EVERSION, iprof.Severity.WARNING)]
                         + [(iprof.Status.EDANGLING, iprof.Severity.ERROR)] * 4)
        self.assertEqual([d.path for d in diags[1:]],
                         ["callCountProfiles[%d].ctx" % i for i in range(4)])

    def test_load(self):
        with iprof.load(MANY, max_diagnostics=5) as m:
            self.check_kept(m.diagnostics)
            self.assertEqual(m.diagnostics_dropped, (26, 0))
            self.assertIsInstance(m.diagnostics_dropped, iprof.DroppedDiagnostics)
            self.assertEqual((m.diagnostics_dropped.errors, m.diagnostics_dropped.warnings,
                              m.diagnostics_dropped.total), (26, 0, 26))
            self.assertEqual(len(m.call_count), 30)      # the entries are all there
        for kwargs in ({"threaded": True}, {"chunk_size": 7}):
            with iprof.load(MANY, max_diagnostics=5, **kwargs) as m:
                self.assertEqual((len(m.diagnostics), m.diagnostics_dropped), (5, (26, 0)))
        with iprof.load(CLEAN) as m:
            self.assertEqual((m.diagnostics, m.diagnostics_dropped), ([], (0, 0)))
        with iprof.Model() as m:
            self.assertEqual(m.diagnostics_dropped, (0, 0))

    def test_default_and_all(self):
        # The default (0: 10000) and None (all) keep the 31.
        for limit in (0, None, 31, 1 << 70):
            with iprof.load(MANY, max_diagnostics=limit) as m:
                self.assertEqual((len(m.diagnostics), m.diagnostics_dropped), (31, (0, 0)))
        with iprof.load(MANY) as m:
            self.assertEqual((len(m.diagnostics), m.diagnostics_dropped), (31, (0, 0)))
        with iprof.load(MANY, max_diagnostics=30) as m:
            self.assertEqual((len(m.diagnostics), m.diagnostics_dropped), (30, (1, 0)))

    def test_bad_limits(self):
        with self.assertRaises(ValueError):
            iprof.load(MANY, max_diagnostics=-1)
        with self.assertRaises(TypeError):
            iprof.read(MANY, max_diagnostics=2.5)
        with self.assertRaises(TypeError):
            iprof.validate(MANY, max_diagnostics=True)

    def test_read_and_validate(self):
        r = iprof.read(MANY, max_diagnostics=5)
        self.check_kept(r.diagnostics)
        self.assertEqual(r.diagnostics_dropped, (26, 0))
        self.assertEqual(r.diagnostics_dropped, iprof.DroppedDiagnostics(errors=26, warnings=0))
        # A second read, of a clean document, drops nothing.
        r = iprof.read(CLEAN, max_diagnostics=5)
        self.assertEqual((r.diagnostics, r.diagnostics_dropped), ([], (0, 0)))
        self.assertEqual(iprof.read(MANY).diagnostics_dropped, (0, 0))
        diags = iprof.validate(MANY, max_diagnostics=5)
        self.check_kept(diags)
        self.assertEqual(len(iprof.validate(MANY)), 31)

    def test_warnings_dropped(self):
        # An unknown key after the entries adds a warning, dropped with them.
        doc_ = MANY[:-1] + b',"extra":1}'
        r = iprof.read(doc_, max_diagnostics=1)
        self.assertEqual([d.status for d in r.diagnostics], [iprof.Status.EVERSION])
        self.assertEqual(r.diagnostics_dropped, (30, 1))
        r = iprof.read(doc_, max_diagnostics=1, check_references=False)
        self.assertEqual(r.diagnostics_dropped, (0, 1))

    def test_stream(self):
        with iprof.stream(MANY, max_diagnostics=5) as s:
            self.assertEqual(s.diagnostics_dropped, (0, 0))   # nothing read yet
            self.assertEqual(len(list(s)), 30)
        self.check_kept(s.diagnostics)
        self.assertEqual(s.diagnostics_dropped, (26, 0))
        with iprof.iter_entries(MANY, max_diagnostics=2) as s:
            self.assertEqual(len(list(s)), 30)
        self.assertEqual((len(s.diagnostics), s.diagnostics_dropped), (2, (29, 0)))
        with iprof.stream(CLEAN, max_diagnostics=5) as s:
            list(s)
        self.assertEqual((s.diagnostics, s.diagnostics_dropped), ([], (0, 0)))

    def test_failed_read_counts_too(self):
        broken = MANY[:-1] + b",]"        # 31 diagnostics, then a syntax error
        for reader in (iprof.read, iprof.load):
            with self.assertRaises(iprof.JSONSyntaxError) as cm:
                reader(broken, max_diagnostics=5)
            e = cm.exception
            self.check_kept(e.diagnostics)
            self.assertEqual(e.diagnostics_dropped, (26, 0))
            e2 = pickle.loads(pickle.dumps(e))
            self.assertEqual((len(e2.diagnostics), e2.diagnostics_dropped), (5, (26, 0)))
        with self.assertRaises(iprof.JSONSyntaxError) as cm:
            iprof.read(broken)
        self.assertEqual((len(cm.exception.diagnostics), cm.exception.diagnostics_dropped),
                         (31, (0, 0)))
        self.assertEqual(iprof.Error(iprof.Status.EIO).diagnostics_dropped, (0, 0))


if __name__ == "__main__":
    unittest.main()

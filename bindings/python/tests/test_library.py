"""Loading the library, version checks, constants and struct mirrors."""
import ctypes
import ctypes.util
import os
import re
import subprocess
import sys
import unittest

import support  # noqa: F401  (sets up sys.path)
import iprof
from iprof import _lib


class LibraryTest(unittest.TestCase):
    def test_loaded_from_env(self):
        lib = iprof.load_library()
        self.assertIsInstance(lib, ctypes.CDLL)
        env = os.environ.get("IPROF_LIBRARY")
        if env:
            self.assertEqual(iprof.library_path(), env)
            # Loading the same library again returns the loaded one.
            self.assertIs(iprof.load_library(env), lib)

    def test_file_names_per_system(self):
        """Each system's file name for the library meson builds, whatever
        system runs the test (docs/bindings.md)."""
        self.assertEqual(_lib.library_file_names("linux"), ["libiprof.so.1"])
        self.assertEqual(_lib.library_file_names("freebsd14"), ["libiprof.so.1"])
        self.assertEqual(_lib.library_file_names("darwin"),
                         ["libiprof.1.dylib", "libiprof.dylib"])
        self.assertEqual(_lib.library_file_names("win32"), ["iprof.dll"])
        self.assertEqual(_lib.library_file_names("cygwin"), ["iprof.dll"])
        self.assertEqual(_lib.library_file_names(), _lib.library_file_names(sys.platform))

    def test_search_order(self):
        """Without IPROF_LIBRARY, a package in the source tree uses
        $IPROF_BUILD_DIR/lib/libiprof.so.1; a bad IPROF_LIBRARY fails on
        first use with LibraryError."""
        env_lib = os.environ.get("IPROF_LIBRARY")
        if not env_lib:
            self.skipTest("IPROF_LIBRARY not set")
        build = os.path.dirname(os.path.dirname(os.path.abspath(env_lib)))
        code = ("import sys; sys.path.insert(0, %r); import iprof; iprof.Model(); "
                "print(iprof.library_path())" % support.PACKAGE_ROOT)
        env = dict(os.environ, IPROF_BUILD_DIR=build)
        del env["IPROF_LIBRARY"]
        p = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                           text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(p.stdout.strip(), os.path.join(build, "lib", "libiprof.so.1"))
        env["IPROF_LIBRARY"] = "/nonexistent/libiprof.so.1"
        code = ("import sys; sys.path.insert(0, %r); import iprof\n"
                "try:\n    iprof.Model()\nexcept iprof.LibraryError as e:\n"
                "    print('LibraryError', e)" % support.PACKAGE_ROOT)
        p = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                           text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertTrue(p.stdout.startswith("LibraryError cannot load libiprof from "
                                            "'/nonexistent/libiprof.so.1'"), p.stdout)

    def test_version(self):
        v = iprof.library_version()
        parts = v.split(".")
        self.assertEqual(len(parts), 3)
        self.assertEqual(int(parts[0]), _lib.SUPPORTED_MAJOR)
        self.assertTrue(all(p.isdigit() for p in parts))

    def test_bad_path(self):
        with self.assertRaises(iprof.LibraryError) as cm:
            iprof.load_library("/nonexistent/libiprof.so.1")
        self.assertIn("/nonexistent/libiprof.so.1", str(cm.exception))
        self.assertIsInstance(cm.exception, OSError)

    def test_not_libiprof(self):
        libc = ctypes.util.find_library("c") if hasattr(ctypes, "util") else None
        if not libc:
            self.skipTest("no libc found by ctypes.util")
        with self.assertRaises(iprof.LibraryError):
            iprof.load_library(libc)

    def test_status_strings(self):
        self.assertEqual([s.value for s in iprof.Status], list(range(0, -12, -1)))
        for s in iprof.Status:
            text = iprof.status_string(s)
            self.assertTrue(text)
            self.assertNotEqual(text, "unknown status")
        self.assertEqual(iprof.status_string(-100), "unknown status")
        self.assertIs(iprof.error_class(iprof.Status.ESYNTAX), iprof.JSONSyntaxError)
        self.assertIs(iprof.error_class(-100), iprof.Error)

    def test_kinds_match_library(self):
        lib = iprof.load_library()
        self.assertEqual(len(iprof.Kind), 6)
        for k in iprof.Kind:
            self.assertEqual(lib.iprof_kind_name(k).decode(), k.json_key)
        self.assertIsNone(lib.iprof_kind_name(6))
        self.assertIs(iprof.Kind.of("callCountProfiles"), iprof.Kind.CALL_COUNT)
        self.assertIs(iprof.Kind.of("virtual_invoke"), iprof.Kind.VIRTUAL_INVOKE)
        self.assertIs(iprof.Kind.of("INSTANCEOF"), iprof.Kind.INSTANCEOF)
        self.assertIs(iprof.Kind.of(3), iprof.Kind.MONITOR)
        self.assertEqual(iprof.Kind.SAMPLING.attribute, "sampling")
        for bad in (6, -1, "calls", 1.5, None):
            with self.assertRaises(ValueError):
                iprof.Kind.of(bad)
        self.assertIs(iprof.Kind.of("instanceOfProfiles"), iprof.Kind.INSTANCEOF)

    def test_instanceof_keys_match_library(self):
        # The spellings of iprof.h (IPROF_INSTANCEOF_KEY_*_NAME; skipped
        # outside the tree).
        header = os.path.join(support.SOURCE_ROOT, "include", "iprof", "iprof.h")
        if os.path.isfile(header):
            with open(header) as f:
                found = dict(re.findall(r'^#define IPROF_INSTANCEOF_KEY_([A-Z]+)_NAME "(\w+)"$',
                                        f.read(), re.M))
            self.assertEqual(found, {"LOWER": "instanceofProfiles",
                                     "CAMEL": "instanceOfProfiles"})
            for k in (iprof.InstanceofKey.LOWER, iprof.InstanceofKey.CAMEL):
                self.assertEqual(found[k.name], k.json_key)
        self.assertEqual([k.json_key for k in iprof.InstanceofKey],
                         [None, "instanceofProfiles", "instanceOfProfiles"])
        of = iprof.InstanceofKey.of
        self.assertIs(of(None), iprof.InstanceofKey.AUTO)
        self.assertIs(of("instanceof"), iprof.InstanceofKey.LOWER)
        self.assertIs(of("instanceofProfiles"), iprof.InstanceofKey.LOWER)
        self.assertIs(of("instanceOf"), iprof.InstanceofKey.CAMEL)
        self.assertIs(of("instanceOfProfiles"), iprof.InstanceofKey.CAMEL)
        self.assertIs(of("camel"), iprof.InstanceofKey.CAMEL)
        self.assertIs(of(1), iprof.InstanceofKey.LOWER)
        for bad in (3, -1, "InstanceOf", "instanceOfprofiles", 1.5):
            with self.assertRaises(ValueError, msg=repr(bad)):
                of(bad)
        self.assertEqual([int(s) for s in iprof.Section], [6, 7, 8, 9])

    def test_struct_mirrors(self):
        """The mirrored structs match the C layout: the library's own init
        functions fill them, and the sizes follow the declarations."""
        lib = iprof.load_library()
        P = ctypes.sizeof(ctypes.c_void_p)
        S = ctypes.sizeof(ctypes.c_size_t)
        self.assertEqual(ctypes.sizeof(_lib.iprof_allocator), 4 * P)
        self.assertEqual(ctypes.sizeof(_lib.iprof_read_options), _align(8, P) + P + 4 * S)
        self.assertEqual(ctypes.sizeof(_lib.iprof_read_callbacks), _align(4, P) + 11 * P)
        self.assertEqual(ctypes.sizeof(_lib.iprof_write_options), _align(8 + 2 * P + S + 4, P))
        # version, flags, weight, rounding: 20 bytes padded to double's alignment.
        self.assertEqual(ctypes.sizeof(_lib.iprof_merge_options),
                         _align(20, ctypes.alignment(ctypes.c_double)))
        ro = _lib.iprof_read_options()
        ro.flags, ro.chunk_size, ro.max_element_size, ro.max_depth = 7, 1, 2, 3
        self.assertEqual(lib.iprof_read_options_init(ctypes.byref(ro), 1), 0)
        self.assertEqual((ro.version, ro.flags, bool(ro.allocator), ro.chunk_size,
                          ro.max_element_size, ro.max_depth), (1, 0, False, 0, 0, 0))
        self.assertEqual(lib.iprof_read_options_init(ctypes.byref(ro), 999),
                         iprof.Status.EINVAL)
        wo = _lib.iprof_write_options()
        wo.flags, wo.buffer_size, wo.instanceof_key = 7, 5, 2
        self.assertEqual(lib.iprof_write_options_init(ctypes.byref(wo), 1), 0)
        self.assertEqual((wo.version, wo.flags, wo.format_version, bool(wo.allocator),
                          wo.buffer_size, wo.instanceof_key), (1, 0, None, False, 0, 0))
        self.assertEqual(lib.iprof_write_options_init(ctypes.byref(wo), 2),
                         iprof.Status.EINVAL)
        # The 1.0 sources, sinks and reports: 56, 40, 88 and 64 bytes on x86-64.
        self.assertEqual(ctypes.sizeof(_lib.iprof_source),
                         8 + P + S + P + _align(4, P) + P + P)
        self.assertEqual(ctypes.sizeof(_lib.iprof_sink), 8 + P + _align(4, P) + P + P)
        self.assertEqual(ctypes.sizeof(_lib.iprof_error_info), 16 + 3 * P + 24 + 8 + 16)
        self.assertEqual(ctypes.sizeof(_lib.iprof_read_result),
                         _align(4, S) + 4 * S + 2 * P + 8)
        self.assertEqual(ctypes.sizeof(_lib.iprof_diff_summary), _align(4, S) + 4 * S + 8)
        self.assertEqual(ctypes.sizeof(_lib.iprof_diff_kind_summary),
                         _align(4, S) + 4 * S + 32 + 16 + 8 + S)
        self.assertEqual(ctypes.sizeof(_lib.iprof_diff_change), _align(4, P) + 2 * P + 48)
        if P == 8 and S == 8:
            self.assertEqual([ctypes.sizeof(t) for t in (
                _lib.iprof_source, _lib.iprof_sink, _lib.iprof_error_info,
                _lib.iprof_read_result)], [56, 40, 88, 64])
        # A report of nothing, field by field; an unknown version is refused
        # and leaves the struct as it was.
        info = _lib.iprof_error_info()
        info.version, info.kind, info.line = _lib.ERROR_INFO_VERSION, 7, 9
        self.assertEqual(lib.iprof_error_get_info(None, ctypes.byref(info)), 0)
        self.assertEqual((info.status, info.severity, info.kind, info.message, info.path,
                          info.context, info.offset, info.line, info.column, info.has_type_id,
                          info.has_method_id), (0, 0, -1, b"", b"", b"", 0, 0, 0, 0, 0))
        info.version, info.kind = 999, 7
        self.assertEqual(lib.iprof_error_get_info(None, ctypes.byref(info)),
                         iprof.Status.EINVAL)
        self.assertEqual(info.kind, 7)
        res = _lib.iprof_read_result()
        res.version = 999
        self.assertEqual(lib.iprof_reader_get_result(None, ctypes.byref(res)),
                         iprof.Status.EINVAL)
        self.assertEqual(lib.iprof_features() & ~(_lib.FEATURE_GZIP | _lib.FEATURE_THREADS), 0)
        self.assertEqual(iprof.gzip_supported(),
                         bool(lib.iprof_features() & _lib.FEATURE_GZIP))
        mo = _lib.iprof_merge_options()
        mo.flags, mo.rounding = 3, 2
        self.assertEqual(lib.iprof_merge_options_init(ctypes.byref(mo), 1), 0)
        self.assertEqual((mo.version, mo.flags, mo.weight, mo.rounding),
                         (1, 0, 1.0, _lib.ROUND_NEAREST_AWAY))
        self.assertEqual(lib.iprof_merge_options_init(ctypes.byref(mo), 2),
                         iprof.Status.EINVAL)

    def test_flags_match_headers(self):
        # Every flag (IPROF_READ_*, IPROF_WRITE_*, IPROF_MERGE_*,
        # IPROF_CANONICAL_*) and struct version (IPROF_*_VERSION) of the
        # public headers has its constant in _lib with the same value
        # (skips outside the tree).
        flags = versions = 0
        for header in ("iprof.h", "stream.h", "edit.h", "transform.h", "diff.h", "analysis.h"):
            path = os.path.join(support.SOURCE_ROOT, "include", "iprof", header)
            if not os.path.isfile(path):
                self.skipTest("%s is not there" % path)
            with open(path) as f:
                text = f.read()
            for m in re.finditer(r"^#define IPROF_([A-Z_]+) (0x[0-9a-f]+)u$", text, re.M):
                flags += 1
                self.assertEqual(getattr(_lib, m.group(1), None), int(m.group(2), 16),
                                 m.group(1))
            for m in re.finditer(r"^#define IPROF_([A-Z_]+_VERSION) ([0-9]+)$", text, re.M):
                versions += 1
                self.assertEqual(getattr(_lib, m.group(1), None), int(m.group(2)), m.group(1))
        self.assertGreaterEqual(flags, 11)
        self.assertGreaterEqual(versions, 6)
        self.assertEqual((_lib.READ_CALLBACKS_VERSION, _lib.WRITE_OPTIONS_VERSION), (1, 1))

    def test_format_constants(self):
        self.assertEqual((iprof.FORMAT_0_2_0, iprof.FORMAT_0_4_0, iprof.FORMAT_1_0_0,
                          iprof.FORMAT_1_1_0, iprof.FORMAT_LATEST),
                         ("0.2.0", "0.4.0", "1.0.0", "1.1.0", "1.1.0"))
        self.assertEqual(iprof.Model().version, iprof.FORMAT_LATEST)
        # Every IPROF_FORMAT_* of iprof.h, with its value.
        header = os.path.join(os.path.dirname(__file__), "..", "..", "..", "include", "iprof",
                              "iprof.h")
        if os.path.isfile(header):
            with open(header) as f:
                found = re.findall(r'^#define IPROF_(FORMAT_[0-9_]+) "([0-9.]+)"$', f.read(),
                                   re.M)
            self.assertEqual(len(found), 4)
            for name, value in found:
                self.assertEqual(getattr(iprof, name), value, name)

    def test_ctx_text(self):
        self.assertEqual(iprof.parse_ctx("5:0<3:2"), [(5, 0), (3, 2)])
        self.assertEqual(iprof.parse_ctx("0:-4"), [(0, -4)])
        self.assertEqual(iprof.format_ctx([(5, 0), (3, -2)]), "5:0<3:-2")
        for bad in ("", "5", "5:", ":1", "-1:0", "5:0<", "5:0<<3:2", "a:b", "5:0 "):
            with self.assertRaises(ValueError, msg=bad):
                iprof.parse_ctx(bad)


def _align(n, a):
    return (n + a - 1) // a * a


if __name__ == "__main__":
    unittest.main()

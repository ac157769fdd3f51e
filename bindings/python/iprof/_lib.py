"""Finding and declaring libiprof (ctypes).

Only scalars, opaque pointers (``c_void_p``) and the public structs (the
sources, sinks and reports of the 1.0 API included) are mirrored; every function used by the package gets its ``argtypes`` and
``restype`` here, in one place.

Search order for the shared library (the first that exists wins):

1. the path given to :func:`load_library`, else the environment variable
   ``IPROF_LIBRARY`` (a full path);
2. when the package runs from a source tree (``bindings/python/iprof`` of a
   libiprof checkout; never an installed package), a meson build directory:
   ``$IPROF_BUILD_DIR/lib``, then ``build/lib`` of the checkout;
3. ``ctypes.util.find_library("iprof")``, then the library's file name on
   this system (:func:`library_file_names`) through the dynamic loader's
   normal search.

The file names follow each system's conventions for the library meson
builds: ``libiprof.so.1`` (Linux and other ELF systems), ``libiprof.1.dylib``
(macOS, expected to work and not tested), ``iprof.dll`` (Windows).
"""
from __future__ import annotations

import ctypes
import ctypes.util
import os
import sys
import threading
from typing import Any, List
from ctypes import (CFUNCTYPE, POINTER, Structure, c_char_p, c_double, c_int, c_int64,
                    c_size_t, c_uint, c_uint64, c_void_p)

#: The library major version these bindings were written for.
SUPPORTED_MAJOR = 1

c_int64_p = POINTER(c_int64)
c_size_t_p = POINTER(c_size_t)


class LibraryError(OSError):
    """libiprof could not be found or loaded, or has an unsupported version."""


# --------------------------------------------------------------------------
# Structs, exactly as declared in include/iprof/*.h

MALLOC_FN = CFUNCTYPE(c_void_p, c_size_t, c_void_p)
REALLOC_FN = CFUNCTYPE(c_void_p, c_void_p, c_size_t, c_size_t, c_void_p)
FREE_FN = CFUNCTYPE(None, c_void_p, c_size_t, c_void_p)


class iprof_allocator(Structure):
    _fields_ = [("malloc_fn", MALLOC_FN), ("realloc_fn", REALLOC_FN),
                ("free_fn", FREE_FN), ("user", c_void_p)]


READ_OPTIONS_VERSION = 1
FEATURE_GZIP = 0x1       # iprof_features() bits
FEATURE_THREADS = 0x2
READ_STRICT = 0x1
READ_NO_REFERENCES = 0x2
READ_THREADED = 0x4      # model loads, streaming merges: on a second thread
READ_SALVAGE = 0x8       # model loads only: keep what came before damage


class iprof_read_options(Structure):
    _fields_ = [("version", c_uint), ("flags", c_uint),
                ("allocator", POINTER(iprof_allocator)),
                ("chunk_size", c_size_t), ("max_element_size", c_size_t),
                ("max_depth", c_size_t), ("max_diagnostics", c_size_t)]


ERROR_INFO_VERSION = 1


class iprof_error_info(Structure):
    """Everything a report says (iprof_error_get_info); strings are the
    report's, never NULL."""
    _fields_ = [("version", c_uint), ("status", c_int), ("severity", c_int), ("kind", c_int),
                ("message", c_char_p), ("path", c_char_p), ("context", c_char_p),
                ("offset", c_uint64), ("line", c_uint64), ("column", c_uint64),
                ("has_type_id", c_int), ("has_method_id", c_int),
                ("type_id", c_int64), ("method_id", c_int64)]


READ_RESULT_VERSION = 1


class iprof_read_result(Structure):
    """What a read left besides its error (iprof_reader_get_result)."""
    _fields_ = [("version", c_uint), ("diag_count", c_size_t),
                ("dropped_errors", c_size_t), ("dropped_warnings", c_size_t),
                ("unread_count", c_size_t), ("unread_first", c_char_p),
                ("damage", c_void_p), ("kept_end", c_uint64)]


# Reader callbacks. Strings arrive as void pointers plus a length (they may
# contain NUL bytes); int64 arrays as pointers plus a count.
VERSION_CB = CFUNCTYPE(c_int, c_void_p, c_size_t, c_void_p)
TYPE_CB = CFUNCTYPE(c_int, c_int64, c_void_p, c_size_t, c_void_p)
METHOD_CB = CFUNCTYPE(c_int, c_int64, c_void_p, c_size_t, c_int64_p, c_size_t, c_void_p)
ENTRY_CB = CFUNCTYPE(c_int, c_int, c_int64_p, c_size_t, c_int64_p, c_size_t, c_void_p)
UNKNOWN_CB = CFUNCTYPE(c_int, c_void_p, c_size_t, c_void_p, c_size_t, c_void_p)
KEY_CB = CFUNCTYPE(c_int, c_void_p, c_size_t, c_int, c_void_p)
READ_FN = CFUNCTYPE(c_int, c_void_p, c_size_t, c_size_t_p, c_void_p)

SOURCE_VERSION = 1
SOURCE_BUFFER = 0        # enum iprof_source_kind
SOURCE_PATH = 1
SOURCE_FD = 2
SOURCE_CALLBACK = 3


class iprof_source(Structure):
    """The input of a load, a streaming merge or a read: a kind and that
    kind's fields (the others are ignored)."""
    _fields_ = [("version", c_uint), ("kind", c_int), ("data", c_void_p), ("len", c_size_t),
                ("path", c_char_p), ("fd", c_int), ("read_fn", READ_FN),
                ("read_payload", c_void_p)]

READ_CALLBACKS_VERSION = 1


class iprof_read_callbacks(Structure):
    _fields_ = [("version", c_uint), ("on_version", VERSION_CB), ("on_type", TYPE_CB),
                ("on_method", METHOD_CB), ("on_call_count", ENTRY_CB),
                ("on_conditional", ENTRY_CB), ("on_virtual_invoke", ENTRY_CB),
                ("on_monitor", ENTRY_CB), ("on_sampling", ENTRY_CB),
                ("on_instanceof", ENTRY_CB), ("on_unknown", UNKNOWN_CB),
                ("on_key", KEY_CB)]


# The filter's predicates over elements (element, payload): non-zero keeps.
MODEL_TYPE_PRED = CFUNCTYPE(c_int, c_void_p, c_void_p)
MODEL_METHOD_PRED = CFUNCTYPE(c_int, c_void_p, c_void_p)
MODEL_ENTRY_PRED = CFUNCTYPE(c_int, c_void_p, c_void_p)
# iprof_records_fn (entry, writable records, count, payload): non-zero stops.
RECORDS_FN = CFUNCTYPE(c_int, c_void_p, c_int64_p, c_size_t, c_void_p)
# iprof_frame_pred (method id, bci, payload): non-zero keeps.
FRAME_PRED = CFUNCTYPE(c_int, c_int64, c_int64, c_void_p)

MERGE_OPTIONS_VERSION = 1
MERGE_DROP_UNKNOWN = 0x1
MERGE_THREADED = 0x2
ROUND_NEAREST_AWAY = 0   # enum iprof_rounding: the default (iprof.Rounding)
ROUND_NEAREST_EVEN = 1
ROUND_FLOOR = 2


class iprof_merge_options(Structure):
    _fields_ = [("version", c_uint), ("flags", c_uint), ("weight", c_double),
                ("rounding", c_int)]


WRITE_OPTIONS_VERSION = 1
WRITE_PRETTY = 0x1
WRITE_DROP_INSTANCEOF = 0x2
WRITE_NO_VALIDATE = 0x8
WRITE_NO_SYNC = 0x10
WRITE_GZIP = 0x20
WRITE_NO_REFERENCES = 0x40
WRITE_CANONICAL = 0x80
WRITE_THREADED = 0x100
WRITE_DROP_UNKNOWN = 0x200


class iprof_write_options(Structure):
    _fields_ = [("version", c_uint), ("flags", c_uint), ("format_version", c_char_p),
                ("allocator", POINTER(iprof_allocator)), ("buffer_size", c_size_t),
                ("instanceof_key", c_int)]


WRITE_FN = CFUNCTYPE(c_int, c_void_p, c_size_t, c_void_p)

SINK_VERSION = 1
SINK_BUFFER = 0          # enum iprof_sink_kind
SINK_PATH = 1
SINK_FD = 2
SINK_CALLBACK = 3


class iprof_sink(Structure):
    """The output of a writer: a kind and that kind's fields."""
    _fields_ = [("version", c_uint), ("kind", c_int), ("path", c_char_p), ("fd", c_int),
                ("write_fn", WRITE_FN), ("write_payload", c_void_p)]

CANONICAL_DROP_UNKNOWN = 0x1
PRUNE_METHODS = 0x1      # iprof_model_prune
PRUNE_TYPES = 0x2
PRUNE_DANGLING = 0x4     # what refers to undefined methods and types
REMOVE_CASCADE = 0x1     # iprof_model_remove_method: also the entries naming it
FILTER_OPTIONS_VERSION = 1


class iprof_filter_options(Structure):
    _fields_ = [("version", c_uint), ("kinds", c_uint),
                ("keep_packages", POINTER(c_char_p)), ("keep_package_count", c_size_t),
                ("drop_packages", POINTER(c_char_p)), ("drop_package_count", c_size_t),
                ("min_count", c_int64), ("top_percent", c_double),
                ("max_depth", c_size_t),
                # the predicates (NULL: none) and their payload
                ("keep_frame", FRAME_PRED), ("keep_entry", MODEL_ENTRY_PRED),
                ("keep_method", MODEL_METHOD_PRED), ("keep_type", MODEL_TYPE_PRED),
                ("payload", c_void_p)]


DIFF_OPTIONS_VERSION = 1
DIFF_A = 0
DIFF_B = 1
DIFF_DEFAULT_TOP = 10


class iprof_diff_options(Structure):
    _fields_ = [("version", c_uint), ("flags", c_uint),
                ("allocator", POINTER(iprof_allocator)), ("top", c_size_t)]


COLUMNS_VERSION = 1


class iprof_columns(Structure):
    _fields_ = [("version", c_uint), ("kind", c_int), ("count", c_size_t),
                ("record_count", c_size_t), ("records", c_void_p), ("offsets", c_void_p),
                ("contexts", c_void_p), ("frame_count", c_size_t), ("frames", c_void_p),
                ("frame_offsets", c_void_p)]


DIFF_SUMMARY_VERSION = 1
DIFF_KIND_SUMMARY_VERSION = 1
DIFF_CHANGE_VERSION = 1


class iprof_diff_summary(Structure):
    """What a comparison found over both models; arrays indexed by side."""
    _fields_ = [("version", c_uint), ("method_only_count", c_size_t * 2),
                ("method_common_count", c_size_t * 2), ("staleness", c_double)]


class iprof_diff_kind_summary(Structure):
    """What a comparison found for one kind; arrays indexed by side."""
    _fields_ = [("version", c_uint), ("context_only_count", c_size_t * 2),
                ("context_common_count", c_size_t * 2), ("total", c_uint64 * 2),
                ("common_total", c_uint64 * 2), ("overlap", c_double * 2),
                ("staleness", c_double), ("change_count", c_size_t)]


class iprof_diff_change(Structure):
    """One kept change of a kind; arrays indexed by side."""
    _fields_ = [("version", c_uint), ("entry", c_void_p * 2), ("value", c_uint64 * 2),
                ("share", c_double * 2), ("delta", c_double), ("relative", c_double)]


# --------------------------------------------------------------------------
# Function declarations: name -> (restype, argtypes)

_P = c_void_p
_FUNCTIONS: dict[str, tuple[Any, list[Any]]] = {
    # iprof.h: the library and its reports
    "iprof_status_string": (c_char_p, [c_int]),
    "iprof_version_string": (c_char_p, []),
    "iprof_kind_name": (c_char_p, [c_int]),
    "iprof_features": (c_uint, []),
    "iprof_error_get_info": (c_int, [_P, POINTER(iprof_error_info)]),
    # iprof.h: the reader (stream.h: iprof_reader_read)
    "iprof_read_options_init": (c_int, [POINTER(iprof_read_options), c_uint]),
    "iprof_reader_new": (c_int, [POINTER(_P), POINTER(iprof_read_options)]),
    "iprof_reader_free": (None, [_P]),
    "iprof_reader_get_result": (c_int, [_P, POINTER(iprof_read_result)]),
    "iprof_reader_error": (_P, [_P]),
    "iprof_reader_diag": (_P, [_P, c_size_t]),
    "iprof_reader_read": (c_int, [_P, POINTER(iprof_source), POINTER(iprof_read_callbacks), _P]),
    # iprof.h: the model (edit.h: add_*, remove_*, set_*, map_records, scale,
    # unknown keys; analysis.h: iprof_model_get_columns)
    "iprof_model_new": (c_int, [POINTER(_P), POINTER(iprof_allocator)]),
    "iprof_model_build_indexes": (c_int, [_P]),
    "iprof_model_free": (None, [_P]),
    "iprof_model_load": (c_int, [POINTER(_P), _P, POINTER(iprof_source)]),
    "iprof_model_version": (c_char_p, [_P]),
    "iprof_model_set_version": (c_int, [_P, c_char_p]),
    "iprof_model_type_count": (c_size_t, [_P]),
    "iprof_model_type_at": (_P, [_P, c_size_t]),
    "iprof_model_type_by_id": (_P, [_P, c_int64]),
    "iprof_model_type_by_name": (_P, [_P, c_char_p, c_size_t]),
    "iprof_type_id": (c_int64, [_P]),
    "iprof_type_name": (_P, [_P, c_size_t_p]),
    "iprof_model_method_count": (c_size_t, [_P]),
    "iprof_model_method_at": (_P, [_P, c_size_t]),
    "iprof_model_method_by_id": (_P, [_P, c_int64]),
    "iprof_model_method_find": (_P, [_P, c_char_p, c_size_t, c_int64_p, c_size_t]),
    "iprof_method_id": (c_int64, [_P]),
    "iprof_method_name": (_P, [_P, c_size_t_p]),
    "iprof_method_signature": (c_int64_p, [_P, c_size_t_p]),
    "iprof_model_method_describe": (c_size_t, [_P, _P, _P, c_size_t]),
    "iprof_context_depth": (c_size_t, [_P]),
    "iprof_context_method_id": (c_int64, [_P]),
    "iprof_context_bci": (c_int64, [_P]),
    "iprof_context_caller": (_P, [_P]),
    "iprof_context_frames": (c_size_t, [_P, c_int64_p, c_size_t]),
    "iprof_context_format": (c_size_t, [_P, _P, c_size_t]),
    "iprof_model_context_describe": (c_size_t, [_P, _P, _P, c_size_t]),
    "iprof_model_context_count": (c_size_t, [_P]),
    "iprof_model_entry_count": (c_size_t, [_P, c_int]),
    "iprof_model_entry_at": (_P, [_P, c_int, c_size_t]),
    "iprof_model_entry_find": (_P, [_P, c_int, c_int64_p, c_size_t]),
    "iprof_entry_kind": (c_int, [_P]),
    "iprof_entry_context": (_P, [_P]),
    "iprof_entry_records": (c_int64_p, [_P, c_size_t_p]),
    "iprof_model_get_columns": (c_int, [_P, c_int, POINTER(iprof_columns)]),
    "iprof_model_add_type": (c_int, [_P, c_int64, c_char_p, c_size_t, POINTER(_P)]),
    "iprof_model_remove_type": (c_int, [_P, c_int64]),
    "iprof_model_add_method": (c_int, [_P, c_int64, c_char_p, c_size_t, c_int64_p, c_size_t,
                                       POINTER(_P)]),
    "iprof_model_remove_method": (c_int, [_P, c_int64, c_uint]),
    "iprof_model_add_entry": (c_int, [_P, c_int, c_int64_p, c_size_t, c_int64_p, c_size_t]),
    "iprof_model_remove_entry": (c_int, [_P, c_int, c_int64_p, c_size_t]),
    "iprof_model_set_entry_records": (c_int, [_P, c_int, c_int64_p, c_size_t, c_int64_p,
                                              c_size_t]),
    "iprof_model_map_records": (c_int, [_P, c_int, RECORDS_FN, _P]),
    "iprof_model_scale": (c_int, [_P, c_int, c_double, c_int]),
    "iprof_merge_options_init": (c_int, [POINTER(iprof_merge_options), c_uint]),
    "iprof_model_merge": (c_int, [_P, _P, POINTER(iprof_merge_options)]),
    "iprof_model_merge_source": (c_int, [_P, _P, POINTER(iprof_source),
                                         POINTER(iprof_merge_options)]),
    "iprof_model_unknown_count": (c_size_t, [_P]),
    "iprof_model_unread_count": (c_size_t, [_P, POINTER(c_char_p)]),
    "iprof_model_unknown_at": (c_int, [_P, c_size_t, POINTER(_P), c_size_t_p, POINTER(_P),
                                       c_size_t_p]),
    "iprof_model_add_unknown": (c_int, [_P, c_char_p, c_size_t, c_char_p, c_size_t]),
    "iprof_model_remove_unknown": (c_int, [_P, c_char_p, c_size_t]),
    "iprof_model_instanceof_key": (c_int, [_P]),
    "iprof_model_set_instanceof_key": (c_int, [_P, c_int]),
    "iprof_model_error": (_P, [_P]),
    # iprof.h: the writer (stream.h: begin, the elements, end)
    "iprof_write_options_init": (c_int, [POINTER(iprof_write_options), c_uint]),
    "iprof_writer_new": (c_int, [POINTER(_P), POINTER(iprof_sink),
                                 POINTER(iprof_write_options)]),
    "iprof_writer_free": (None, [_P]),
    "iprof_writer_begin": (c_int, [_P, c_char_p]),
    "iprof_writer_type": (c_int, [_P, c_int64, c_char_p, c_size_t]),
    "iprof_writer_method": (c_int, [_P, c_int64, c_char_p, c_size_t, c_int64_p, c_size_t]),
    "iprof_writer_entry": (c_int, [_P, c_int, c_int64_p, c_size_t, c_int64_p, c_size_t]),
    "iprof_writer_end": (c_int, [_P]),
    "iprof_writer_unknown": (c_int, [_P, c_char_p, c_size_t, c_char_p, c_size_t]),
    "iprof_writer_write_model": (c_int, [_P, _P]),
    "iprof_writer_error": (_P, [_P]),
    "iprof_writer_buffer": (c_int, [_P, POINTER(_P), c_size_t_p]),
    # transform.h
    "iprof_model_canonicalize": (c_int, [_P, c_uint]),
    "iprof_filter_options_init": (c_int, [POINTER(iprof_filter_options), c_uint]),
    "iprof_model_filter": (c_int, [_P, POINTER(iprof_filter_options)]),
    "iprof_package_matches": (c_int, [c_char_p, c_char_p, c_size_t]),
    "iprof_model_prune": (c_int, [_P, c_uint]),
    # analysis.h
    "iprof_entry_branch_probabilities": (c_int, [_P, c_int64_p, POINTER(c_double), c_size_t,
                                                 c_size_t_p]),
    "iprof_entry_type_shares": (c_int, [_P, c_int64_p, POINTER(c_double), c_size_t, c_size_t_p,
                                        POINTER(c_double)]),
    "iprof_entry_total": (c_int64, [_P]),
    "iprof_model_method_totals": (c_int, [_P, c_int, c_int64_p, c_int64_p, c_size_t,
                                          c_size_t_p]),
    # diff.h
    "iprof_diff_options_init": (c_int, [POINTER(iprof_diff_options), c_uint]),
    "iprof_diff_new": (c_int, [POINTER(_P), _P, _P, POINTER(iprof_diff_options)]),
    "iprof_diff_free": (None, [_P]),
    "iprof_diff_get_summary": (c_int, [_P, POINTER(iprof_diff_summary)]),
    "iprof_diff_get_kind": (c_int, [_P, c_int, POINTER(iprof_diff_kind_summary)]),
    "iprof_diff_get_change": (c_int, [_P, c_int, c_size_t, POINTER(iprof_diff_change)]),
    "iprof_diff_method_only_at": (_P, [_P, c_int, c_size_t]),
}

_lock = threading.Lock()
_lib: ctypes.CDLL | None = None
_lib_path: str | None = None


def library_file_names(platform: str = sys.platform) -> list[str]:
    """The library's file names on *platform* (a ``sys.platform`` value), in
    the order they are tried: the name meson gives the shared library with
    the major version these bindings support, then, on macOS, the
    unversioned link a development install adds."""
    if platform in ("win32", "cygwin", "msys"):
        return ["iprof.dll"]
    if platform == "darwin":
        return ["libiprof.%d.dylib" % SUPPORTED_MAJOR, "libiprof.dylib"]
    return ["libiprof.so.%d" % SUPPORTED_MAJOR]


def _source_tree_candidates() -> list[str]:
    """Build directories to try when the package runs from a checkout.

    Only a package that is ``bindings/python/iprof`` of a directory holding
    libiprof's meson.build and include/iprof/iprof.h counts: an installed
    package (``site-packages/iprof``) never looks for build directories
    around its install location, nor honours IPROF_BUILD_DIR.
    """
    here = os.path.dirname(os.path.abspath(__file__))
    python_dir = os.path.dirname(here)
    bindings_dir = os.path.dirname(python_dir)
    root = os.path.dirname(bindings_dir)
    if (os.path.basename(python_dir) != "python" or os.path.basename(bindings_dir) != "bindings"
            or not os.path.isfile(os.path.join(root, "meson.build"))
            or not os.path.isfile(os.path.join(root, "include", "iprof", "iprof.h"))):
        return []
    out: List[str] = []
    build = os.environ.get("IPROF_BUILD_DIR")
    for d in ([build] if build else []) + [os.path.join(root, "build")]:
        out.extend(os.path.join(d, "lib", name) for name in library_file_names())
    return out


def _declare(lib: ctypes.CDLL) -> None:
    for name, (restype, argtypes) in _FUNCTIONS.items():
        fn = getattr(lib, name)
        fn.restype = restype
        fn.argtypes = argtypes


def _open(path: str) -> ctypes.CDLL:
    try:
        lib = ctypes.CDLL(path)
    except OSError as e:
        raise LibraryError("cannot load libiprof from %r: %s" % (path, e)) from e
    try:
        _declare(lib)
    except AttributeError as e:
        raise LibraryError("%r is not a usable libiprof: %s" % (path, e)) from e
    version = lib.iprof_version_string().decode("ascii")
    try:
        major = int(version.split(".")[0])
    except ValueError:
        major = -1
    if major != SUPPORTED_MAJOR:
        raise LibraryError("libiprof at %r has version %s; these bindings need %d.x"
                           % (path, version, SUPPORTED_MAJOR))
    return lib


def load_library(path: str | os.PathLike[str] | None = None) -> ctypes.CDLL:
    """Load libiprof now and return the ``ctypes.CDLL``.

    With *path* (a file name), load exactly that library; this must come
    before anything else uses the library (loading a second, different
    library raises :class:`LibraryError`, since handles of one must never
    reach the other). Without *path*, search as described in the module
    documentation, once. Raises :class:`LibraryError` when nothing usable
    is found or its major version is not the one these bindings were
    written for.
    """
    global _lib, _lib_path
    with _lock:
        if path is not None:
            path = os.fspath(path)
            lib = _open(path)
            if (_lib is not None and _lib_path is not None
                    and os.path.realpath(path) != os.path.realpath(_lib_path)):
                raise LibraryError("libiprof is already loaded from %r; it cannot be "
                                   "replaced by %r" % (_lib_path, path))
            if _lib is None:
                _lib, _lib_path = lib, path
            return _lib
        if _lib is not None:
            return _lib
        env = os.environ.get("IPROF_LIBRARY")
        if env:
            _lib = _open(env)
            _lib_path = env
            return _lib
        tried = []
        for cand in _source_tree_candidates():
            if os.path.exists(cand):
                _lib = _open(cand)
                _lib_path = cand
                return _lib
            tried.append(cand)
        names = []
        found = ctypes.util.find_library("iprof")
        if found:
            names.append(found)
        names.extend(library_file_names())
        errors = []
        for name in names:
            try:
                _lib = _open(name)
            except LibraryError as e:
                errors.append(str(e))
                continue
            _lib_path = name
            return _lib
        raise LibraryError("libiprof not found (set IPROF_LIBRARY to its full path or call "
                           "iprof.load_library(path)); tried %s; %s"
                           % (", ".join(tried + names) or "nothing", "; ".join(errors)))


def lib() -> ctypes.CDLL:
    """The loaded library, loading it on first use."""
    return _lib if _lib is not None else load_library()


def library_path() -> str | None:
    """The file name the library was loaded from (None before loading)."""
    return _lib_path


def version() -> str:
    """The library's version string, "MAJOR.MINOR.PATCH"."""
    return lib().iprof_version_string().decode("ascii")


def gzip_supported() -> bool:
    """Whether the loaded library reads and writes gzip-compressed profiles
    (it was built with zlib; C: ``iprof_features() & IPROF_FEATURE_GZIP``).
    Without it, gzip input fails with :class:`InputOutputError` and so does
    writing a ".gz" path or with ``gzip=True``."""
    return bool(lib().iprof_features() & FEATURE_GZIP)

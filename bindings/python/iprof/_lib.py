"""Finding and declaring libiprof (ctypes).

Only scalars, opaque pointers (``c_void_p``) and the eight public structs are
mirrored; every function used by the package gets its ``argtypes`` and
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


READ_OPTIONS_VERSION = 2
READ_RESULT_VERSION = 1   # iprof_read_result (1.0 API; not bound yet)
FEATURE_GZIP = 0x1       # iprof_features() bits (1.0 API; not bound yet)
FEATURE_THREADS = 0x2
ERROR_INFO_VERSION = 1    # 1.0 structs, not bound yet: iprof_error_info,
SOURCE_VERSION = 1        # iprof_source, iprof_sink and the diff results
SINK_VERSION = 1
DIFF_SUMMARY_VERSION = 1
DIFF_KIND_SUMMARY_VERSION = 1
DIFF_CHANGE_VERSION = 1
READ_STRICT = 0x1
READ_NO_REFERENCES = 0x2
READ_THREADED = 0x4      # model loads, streaming merges: on a second thread
READ_SALVAGE = 0x8       # model loads only: keep what came before damage


class iprof_read_options(Structure):
    _fields_ = [("version", c_uint), ("flags", c_uint),
                ("allocator", POINTER(iprof_allocator)),
                ("chunk_size", c_size_t), ("max_element_size", c_size_t),
                ("max_depth", c_size_t), ("max_diagnostics", c_size_t)]


# Reader callbacks. Strings arrive as void pointers plus a length (they may
# contain NUL bytes); int64 arrays as pointers plus a count.
VERSION_CB = CFUNCTYPE(c_int, c_void_p, c_size_t, c_void_p)
TYPE_CB = CFUNCTYPE(c_int, c_int64, c_void_p, c_size_t, c_void_p)
METHOD_CB = CFUNCTYPE(c_int, c_int64, c_void_p, c_size_t, c_int64_p, c_size_t, c_void_p)
ENTRY_CB = CFUNCTYPE(c_int, c_int, c_int64_p, c_size_t, c_int64_p, c_size_t, c_void_p)
UNKNOWN_CB = CFUNCTYPE(c_int, c_void_p, c_size_t, c_void_p, c_size_t, c_void_p)
KEY_CB = CFUNCTYPE(c_int, c_void_p, c_size_t, c_int, c_void_p)
READ_FN = CFUNCTYPE(c_int, c_void_p, c_size_t, c_size_t_p, c_void_p)

READ_CALLBACKS_VERSION = 2   # 2 added on_key


class iprof_read_callbacks(Structure):
    _fields_ = [("version", c_uint), ("on_version", VERSION_CB), ("on_type", TYPE_CB),
                ("on_method", METHOD_CB), ("on_call_count", ENTRY_CB),
                ("on_conditional", ENTRY_CB), ("on_virtual_invoke", ENTRY_CB),
                ("on_monitor", ENTRY_CB), ("on_sampling", ENTRY_CB),
                ("on_instanceof", ENTRY_CB), ("on_unknown", UNKNOWN_CB),
                ("on_key", KEY_CB)]


# Model iteration callbacks (non-zero stops) and retain predicates
# (non-zero keeps): the same C function type under two names.
MODEL_TYPE_CB = CFUNCTYPE(c_int, c_void_p, c_void_p)
MODEL_METHOD_CB = CFUNCTYPE(c_int, c_void_p, c_void_p)
MODEL_ENTRY_CB = CFUNCTYPE(c_int, c_void_p, c_void_p)
MODEL_TYPE_PRED = MODEL_TYPE_CB
MODEL_METHOD_PRED = MODEL_METHOD_CB
MODEL_ENTRY_PRED = MODEL_ENTRY_CB
# iprof_records_fn (entry, writable records, count, payload): non-zero stops.
RECORDS_FN = CFUNCTYPE(c_int, c_void_p, c_int64_p, c_size_t, c_void_p)
# iprof_frame_pred (method id, bci, payload): non-zero keeps.
FRAME_PRED = CFUNCTYPE(c_int, c_int64, c_int64, c_void_p)

MERGE_OPTIONS_VERSION = 1
MERGE_DROP_UNKNOWN = 0x1
ROUND_NEAREST_AWAY = 0   # enum iprof_rounding: the default (iprof.Rounding)
ROUND_NEAREST_EVEN = 1
ROUND_FLOOR = 2


class iprof_merge_options(Structure):
    _fields_ = [("version", c_uint), ("flags", c_uint), ("weight", c_double),
                ("rounding", c_int)]


WRITE_OPTIONS_VERSION = 2   # 2 added instanceof_key
WRITE_PRETTY = 0x1
WRITE_DROP_INSTANCEOF = 0x2
WRITE_STRICT = 0x4
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

CANONICAL_DROP_UNKNOWN = 0x1
PRUNE_METHODS = 0x1      # iprof_model_prune
PRUNE_TYPES = 0x2
PRUNE_DANGLING = 0x4     # as iprof_model_drop_dangling
REMOVE_CASCADE = 0x1     # 1.0's iprof_model_remove_method (0.x: drop_method)
FILTER_OPTIONS_VERSION = 3


class iprof_filter_options(Structure):
    _fields_ = [("version", c_uint), ("kinds", c_uint),
                ("keep_packages", POINTER(c_char_p)), ("keep_package_count", c_size_t),
                ("drop_packages", POINTER(c_char_p)), ("drop_package_count", c_size_t),
                ("min_count", c_int64), ("top_percent", c_double),
                ("max_depth", c_size_t),
                # version 3: the predicates (NULL: none) and their payload
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


# --------------------------------------------------------------------------
# Function declarations: name -> (restype, argtypes)

_P = c_void_p
_FUNCTIONS: dict[str, tuple[Any, list[Any]]] = {
    # common.h
    "iprof_status_string": (c_char_p, [c_int]),
    "iprof_version_string": (c_char_p, []),
    "iprof_kind_name": (c_char_p, [c_int]),
    "iprof_instanceof_key_name": (c_char_p, [c_int]),
    "iprof_error_status": (c_int, [_P]),
    "iprof_error_severity": (c_int, [_P]),
    "iprof_error_message": (c_char_p, [_P]),
    "iprof_error_path": (c_char_p, [_P]),
    "iprof_error_offset": (c_uint64, [_P]),
    "iprof_error_line": (c_uint64, [_P]),
    "iprof_error_column": (c_uint64, [_P]),
    "iprof_error_kind": (c_int, [_P]),
    "iprof_error_context": (c_char_p, [_P]),
    "iprof_error_type_id": (c_int, [_P, c_int64_p]),
    "iprof_error_method_id": (c_int, [_P, c_int64_p]),
    "iprof_gzip_supported": (c_int, []),
    # reader.h
    "iprof_read_options_init": (c_int, [POINTER(iprof_read_options), c_uint]),
    "iprof_reader_new": (c_int, [POINTER(_P), POINTER(iprof_read_options)]),
    "iprof_reader_free": (None, [_P]),
    "iprof_reader_read_buffer": (c_int, [_P, _P, c_size_t, POINTER(iprof_read_callbacks), _P]),
    "iprof_reader_read_path": (c_int, [_P, c_char_p, POINTER(iprof_read_callbacks), _P]),
    "iprof_reader_read_callback": (c_int, [_P, READ_FN, _P, POINTER(iprof_read_callbacks), _P]),
    "iprof_reader_error": (_P, [_P]),
    "iprof_reader_damage": (_P, [_P]),
    "iprof_reader_kept_end": (c_uint64, [_P]),
    "iprof_reader_diag_count": (c_size_t, [_P]),
    "iprof_reader_diag_dropped": (c_size_t, [_P, c_int]),
    "iprof_reader_unread_count": (c_size_t, [_P, POINTER(c_char_p)]),
    "iprof_reader_diag": (_P, [_P, c_size_t]),
    # model.h
    "iprof_model_new": (c_int, [POINTER(_P), POINTER(iprof_allocator)]),
    "iprof_model_build_indexes": (c_int, [_P]),
    "iprof_model_free": (None, [_P]),
    "iprof_model_load_buffer": (c_int, [POINTER(_P), _P, _P, c_size_t]),
    "iprof_model_load_path": (c_int, [POINTER(_P), _P, c_char_p]),
    "iprof_model_load_callback": (c_int, [POINTER(_P), _P, READ_FN, _P]),
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
    "iprof_model_columns": (c_int, [_P, c_int, POINTER(iprof_columns)]),
    "iprof_model_add_type": (c_int, [_P, c_int64, c_char_p, c_size_t, POINTER(_P)]),
    "iprof_model_remove_type": (c_int, [_P, c_int64]),
    "iprof_model_add_method": (c_int, [_P, c_int64, c_char_p, c_size_t, c_int64_p, c_size_t,
                                       POINTER(_P)]),
    "iprof_model_remove_method": (c_int, [_P, c_int64]),
    "iprof_model_add_entry": (c_int, [_P, c_int, c_int64_p, c_size_t, c_int64_p, c_size_t]),
    "iprof_model_remove_entry": (c_int, [_P, c_int, c_int64_p, c_size_t]),
    "iprof_model_retain_entries": (c_int, [_P, c_int, MODEL_ENTRY_PRED, _P]),
    "iprof_model_retain_methods": (c_int, [_P, MODEL_METHOD_PRED, _P]),
    "iprof_model_retain_types": (c_int, [_P, MODEL_TYPE_PRED, _P]),
    "iprof_model_retain_entries_by_frame": (c_int, [_P, c_int, FRAME_PRED, _P]),
    "iprof_model_drop_method": (c_int, [_P, c_int64]),
    "iprof_model_set_entry_records": (c_int, [_P, c_int, c_int64_p, c_size_t, c_int64_p,
                                              c_size_t]),
    "iprof_model_map_records": (c_int, [_P, c_int, RECORDS_FN, _P]),
    "iprof_model_scale": (c_int, [_P, c_int, c_double, c_int]),
    "iprof_model_merge": (c_int, [_P, _P, c_double]),
    "iprof_merge_options_init": (c_int, [POINTER(iprof_merge_options), c_uint]),
    "iprof_model_merge_with": (c_int, [_P, _P, POINTER(iprof_merge_options)]),
    "iprof_model_merge_buffer": (c_int, [_P, _P, _P, c_size_t, POINTER(iprof_merge_options)]),
    "iprof_model_merge_path": (c_int, [_P, _P, c_char_p, POINTER(iprof_merge_options)]),
    "iprof_model_merge_fd": (c_int, [_P, _P, c_int, POINTER(iprof_merge_options)]),
    "iprof_model_merge_callback": (c_int, [_P, _P, READ_FN, _P, POINTER(iprof_merge_options)]),
    "iprof_model_unknown_count": (c_size_t, [_P]),
    "iprof_model_unread_count": (c_size_t, [_P, POINTER(c_char_p)]),
    "iprof_model_unknown_at": (c_int, [_P, c_size_t, POINTER(_P), c_size_t_p, POINTER(_P),
                                       c_size_t_p]),
    "iprof_model_add_unknown": (c_int, [_P, c_char_p, c_size_t, c_char_p, c_size_t]),
    "iprof_model_remove_unknown": (c_int, [_P, c_char_p, c_size_t]),
    "iprof_model_clear_unknown": (None, [_P]),
    "iprof_model_instanceof_key": (c_int, [_P]),
    "iprof_model_set_instanceof_key": (c_int, [_P, c_int]),
    "iprof_model_error": (_P, [_P]),
    # writer.h
    "iprof_write_options_init": (c_int, [POINTER(iprof_write_options), c_uint]),
    "iprof_writer_new_path": (c_int, [POINTER(_P), c_char_p, POINTER(iprof_write_options)]),
    "iprof_writer_new_buffer": (c_int, [POINTER(_P), POINTER(iprof_write_options)]),
    "iprof_writer_new_callback": (c_int, [POINTER(_P), WRITE_FN, _P,
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
    "iprof_model_canonicalize": (c_int, [_P]),
    "iprof_model_canonicalize_flags": (c_int, [_P, c_uint]),
    "iprof_filter_options_init": (c_int, [POINTER(iprof_filter_options), c_uint]),
    "iprof_model_filter": (c_int, [_P, POINTER(iprof_filter_options)]),
    "iprof_package_matches": (c_int, [c_char_p, c_char_p, c_size_t]),
    "iprof_model_prune": (c_int, [_P, c_uint]),
    "iprof_model_drop_dangling": (c_int, [_P, POINTER(c_size_t), POINTER(c_size_t)]),
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
    "iprof_diff_method_only_count": (c_size_t, [_P, c_int]),
    "iprof_diff_method_only_at": (_P, [_P, c_int, c_size_t]),
    "iprof_diff_method_common_count": (c_size_t, [_P, c_int]),
    "iprof_diff_context_only_count": (c_size_t, [_P, c_int, c_int]),
    "iprof_diff_context_common_count": (c_size_t, [_P, c_int, c_int]),
    "iprof_diff_total": (c_uint64, [_P, c_int, c_int]),
    "iprof_diff_common_total": (c_uint64, [_P, c_int, c_int]),
    "iprof_diff_overlap": (c_double, [_P, c_int, c_int]),
    "iprof_diff_staleness": (c_double, [_P]),
    "iprof_diff_staleness_kind": (c_double, [_P, c_int]),
    "iprof_diff_change_count": (c_size_t, [_P, c_int]),
    "iprof_diff_change_entry": (_P, [_P, c_int, c_size_t, c_int]),
    "iprof_diff_change_value": (c_uint64, [_P, c_int, c_size_t, c_int]),
    "iprof_diff_change_share": (c_double, [_P, c_int, c_size_t, c_int]),
    "iprof_diff_change_delta": (c_double, [_P, c_int, c_size_t]),
    "iprof_diff_change_relative": (c_double, [_P, c_int, c_size_t]),
    "iprof_diff_change_describe": (c_size_t, [_P, c_int, c_size_t, _P, c_size_t]),
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
    (it was built with zlib). Without it, gzip input fails with
    :class:`InputOutputError` and so does writing a ".gz" path or with
    ``gzip=True``."""
    return bool(lib().iprof_gzip_supported())

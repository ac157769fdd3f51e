"""Python bindings of libiprof: GraalVM Native Image PGO profiles (.iprof).

Pure Python over ctypes: no compile step, only the standard library. The
C library (``libiprof.so.1``) is found through ``IPROF_LIBRARY``,
:func:`load_library`, a build directory of the source tree or the system
(see ``iprof._lib``). Memory stays owned by the C side; Python objects
check that what they point to is still alive and raise
:class:`ClosedError` or :class:`StaleError` instead of touching freed
memory.

    import iprof

    with iprof.load("default.iprof") as model:
        print(model.version, len(model.types), len(model.methods))
        for entry in model.call_count:
            print(entry.records[0], entry.context.describe())

See bindings/python/README.md and docs/bindings.md.
"""
from ._common import (EXTREMELY_SLOW_PATH_PROBABILITY, FORMAT_0_2_0, FORMAT_0_4_0, FORMAT_1_0_0, FORMAT_1_1_0,
                      FORMAT_LATEST, INT64_MAX, INT64_MIN, INVALID_BRANCH_BCI, InstanceofKey,
                      Kind, Rounding, Section, format_ctx, parse_ctx)
from ._errors import (ClosedError, DanglingReferenceError, Diagnostic, DroppedDiagnostics, Error,
                      InputOutputError, InvalidArgumentError, JSONSyntaxError, LimitError,
                      NotFoundError, OutOfMemoryError, SchemaError, Severity, StaleError,
                      StateError, Status, StopRead, StoppedError, VersionError, error_class,
                      status_string)
from ._lib import LibraryError, gzip_supported, library_path, load_library
from ._lib import version as library_version
from ._columns import Columns
from ._model import (Context, Entries, Entry, Method, Methods, Model, Repair, Type, Types, load,
                     package_matches, repair)
from ._reader import (EntryInfo, KeyInfo, MethodInfo, ReadResult, Stream, TypeInfo, UnknownKey,
                      iter_entries, read, stream, validate)
from ._writer import Writer
from ._diff import Change, Diff, diff
from ._dask import dask_merge

__version__ = "1.0.0"

__all__ = [
    # library
    "load_library", "library_path", "library_version", "LibraryError", "gzip_supported",
    # constants
    "Kind", "InstanceofKey", "Rounding", "Section", "Status", "Severity", "FORMAT_0_2_0", "FORMAT_0_4_0",
    "FORMAT_1_0_0", "FORMAT_1_1_0", "FORMAT_LATEST", "INT64_MIN", "INT64_MAX", "parse_ctx",
    "format_ctx",
    "EXTREMELY_SLOW_PATH_PROBABILITY", "INVALID_BRANCH_BCI",
    # model
    "load", "repair", "Repair", "Model", "Type", "Method", "Context", "Entry", "Types",
    "Methods", "Entries", "Columns", "package_matches",
    # streaming
    "read", "validate", "stream", "iter_entries", "Stream", "ReadResult", "TypeInfo",
    "MethodInfo", "EntryInfo", "UnknownKey", "KeyInfo", "StopRead",
    # writing
    "Writer",
    # comparing
    "diff", "Diff", "Change",
    # merging on Dask (imports dask only when called)
    "dask_merge",
    # errors
    "Error", "Diagnostic", "DroppedDiagnostics", "error_class", "status_string", "ClosedError",
    "StaleError",
    "OutOfMemoryError", "InputOutputError", "JSONSyntaxError", "SchemaError", "VersionError",
    "DanglingReferenceError", "LimitError", "InvalidArgumentError", "StoppedError",
    "StateError", "NotFoundError",
]

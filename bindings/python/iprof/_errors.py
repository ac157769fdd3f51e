"""Status codes, exceptions and diagnostics."""
from __future__ import annotations

import ctypes
import enum
from typing import TYPE_CHECKING, Any, Iterable, NamedTuple

if TYPE_CHECKING:
    from ._common import Kind

from . import _lib


class Status(enum.IntEnum):
    """The library's status codes (``enum iprof_status``)."""
    OK = 0
    ENOMEM = -1
    EIO = -2
    ESYNTAX = -3
    ESCHEMA = -4
    EVERSION = -5
    EDANGLING = -6
    ELIMIT = -7
    EINVAL = -8
    ESTOPPED = -9
    ESTATE = -10
    ENOTFOUND = -11


class Severity(enum.IntEnum):
    """Severity of a report (``enum iprof_severity``)."""
    ERROR = 0
    WARNING = 1


def _status(code: int) -> Status | int:
    try:
        return Status(code)
    except ValueError:
        return code


def _status_name(code: int) -> str:
    s = _status(code)
    return "IPROF_" + s.name if isinstance(s, Status) else "IPROF_STATUS_%d" % code


def status_string(code: int) -> str:
    """The library's short English text for a status code ("syntax error", ...)."""
    return _lib.lib().iprof_status_string(int(code)).decode("utf-8", "replace")


def _text(ptr_bytes: bytes | None) -> str:
    return ptr_bytes.decode("utf-8", "surrogateescape") if ptr_bytes is not None else ""


def _report_info(report: int | None) -> _lib.iprof_error_info:
    """Everything an ``iprof_error *`` says, in one call
    (``iprof_error_get_info``); the strings are copied out by ctypes."""
    info = _lib.iprof_error_info()
    info.version = _lib.ERROR_INFO_VERSION
    status = _lib.lib().iprof_error_get_info(report, ctypes.byref(info))
    if status != 0:   # only for a struct version this library does not know
        raise error_class(status)(status, "iprof_error_get_info refused version %d"
                                  % info.version)
    return info


class Diagnostic:
    """One report of a read: a rule violation or a warning (or the error).

    A plain value copied out of the reader, valid forever. Attributes:
    ``status`` (:class:`Status`), ``status_name`` ("IPROF_ESCHEMA"),
    ``severity`` (:class:`Severity`), ``message``, ``path`` (the JSON path
    of the element, "" for the document), ``offset`` (bytes from 0),
    ``line`` and ``column`` (from 1, columns in bytes; 0 when the report has
    no input position).
    """
    __slots__ = ("status", "severity", "message", "path", "offset", "line", "column")

    def __init__(self, status: int, severity: int, message: str, path: str, offset: int,
                 line: int, column: int) -> None:
        self.status = _status(status)
        self.severity = Severity(severity) if severity in (0, 1) else severity
        self.message = message
        self.path = path
        self.offset = offset
        self.line = line
        self.column = column

    @classmethod
    def _from_report(cls, err: int) -> Diagnostic:
        return cls._from_info(_report_info(err))

    @classmethod
    def _from_info(cls, info: _lib.iprof_error_info) -> Diagnostic:
        return cls(info.status, info.severity, _text(info.message), _text(info.path),
                   info.offset, info.line, info.column)

    @property
    def status_name(self) -> str:
        return _status_name(self.status)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Diagnostic):
            return NotImplemented
        return all(getattr(self, a) == getattr(other, a) for a in self.__slots__)

    def __hash__(self) -> int:
        return hash(tuple(getattr(self, a) for a in self.__slots__))

    def __str__(self) -> str:
        where = "%d:%d: " % (self.line, self.column) if self.line else ""
        sev = "warning" if self.severity == Severity.WARNING else "error"
        at = " (at %s)" % self.path if self.path else ""
        return "%s%s: %s%s" % (where, sev, self.message, at)

    def __repr__(self) -> str:
        return ("Diagnostic(status=%s, severity=%s, message=%r, path=%r, line=%d, column=%d)"
                % (self.status_name, getattr(self.severity, "name", self.severity),
                   self.message, self.path, self.line, self.column))


class DroppedDiagnostics(NamedTuple):
    """How many diagnostics of a read were found but not kept, by severity
    (``iprof_read_result.dropped_errors`` and ``dropped_warnings``): a read keeps the first
    ``max_diagnostics`` (10000 by default) and only counts the rest. A
    file is invalid when any kept or dropped diagnostic is an error."""
    errors: int
    warnings: int

    @property
    def total(self) -> int:
        """errors + warnings."""
        return self.errors + self.warnings


class Error(Exception):
    """A libiprof call failed.

    Attributes: ``status`` (:class:`Status`, an int), ``status_name``
    ("IPROF_ESYNTAX"), ``message`` (the library's message, or the status
    text when there is none), ``path`` (the JSON path of the offending
    element, "" for the document or no position), ``offset``, ``line``,
    ``column`` (0 when there is no input position), ``filename`` (the file
    being read or written, None for bytes and file objects),
    ``diagnostics`` (the reports recorded before a failed read, a list) and
    ``diagnostics_dropped`` (a :class:`DroppedDiagnostics`: how many more
    the read found but did not keep, beyond its ``max_diagnostics``).

    Errors of model operations (adding or removing types, methods and
    entries, filter, prune, merge, canonicalize, add_unknown) also say what they
    are about, as far as it applies: ``kind`` (the :class:`iprof.Kind` of
    the entry, else None), ``context`` (its ctx text, "5:0<3:2", else ""),
    ``type_id`` and ``method_id`` (the id involved, else None). Errors of
    reads and writes have none of them.

    Each status has a subclass (:class:`JSONSyntaxError` for
    ``IPROF_ESYNTAX``, ...), so ``except iprof.SchemaError`` works;
    ``iprof.Error`` catches them all.
    """

    def __init__(self, status: int, message: str | None = None, path: str = "", offset: int = 0,
                 line: int = 0, column: int = 0, filename: str | None = None,
                 diagnostics: Iterable[Diagnostic] = (), kind: Kind | None = None,
                 context: str = "", type_id: int | None = None, method_id: int | None = None,
                 diagnostics_dropped: tuple[int, int] = DroppedDiagnostics(0, 0)) -> None:
        self.status = _status(status)
        self.message = message if message else status_string(status)
        self.path = path
        self.offset = offset
        self.line = line
        self.column = column
        self.filename = filename
        self.diagnostics = list(diagnostics)
        self.kind = kind
        self.context = context
        self.type_id = type_id
        self.method_id = method_id
        self.diagnostics_dropped = DroppedDiagnostics(*diagnostics_dropped)
        super().__init__(self.message)

    @property
    def status_name(self) -> str:
        return _status_name(self.status)

    def __str__(self) -> str:
        where = ""
        if self.filename is not None:
            where = "%s:" % self.filename
        if self.line:
            where += "%d:%d:" % (self.line, self.column)
        at = " (at %s)" % self.path if self.path else ""
        return "%s%s%s [%s]" % (where + " " if where else "", self.message, at,
                                self.status_name)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (type(self), self.status, self.message, self.path, self.offset,
                           self.line, self.column, self.filename, self.diagnostics,
                           self.kind, self.context, self.type_id, self.method_id,
                           self.diagnostics_dropped))


def _rebuild(cls: type[Error], *args: Any) -> Error:
    e = Error.__new__(cls)
    Error.__init__(e, *args)
    return e


class OutOfMemoryError(Error, MemoryError):
    """IPROF_ENOMEM: an allocation failed."""


class InputOutputError(Error):
    """IPROF_EIO: reading or writing the file, fd or callback failed."""


class JSONSyntaxError(Error, ValueError):
    """IPROF_ESYNTAX: the input is not well-formed JSON."""


class SchemaError(Error, ValueError):
    """IPROF_ESCHEMA: the JSON does not follow the iprof schema or its rules."""


class VersionError(Error, ValueError):
    """IPROF_EVERSION: unsupported or mismatched format version."""


class DanglingReferenceError(Error, ValueError):
    """IPROF_EDANGLING: a method or type id is referenced but not defined."""


class LimitError(Error, ValueError):
    """IPROF_ELIMIT: a value exceeds a limit (int64 range, size limits)."""


class InvalidArgumentError(Error, ValueError):
    """IPROF_EINVAL: invalid argument (a taken id, a bad kind, ...)."""


class StoppedError(Error):
    """IPROF_ESTOPPED: a callback asked to stop."""


class StateError(Error):
    """IPROF_ESTATE: call out of order (a writer call after end, ...)."""


class NotFoundError(Error, LookupError):
    """IPROF_ENOTFOUND: the requested element does not exist."""


_BY_STATUS: dict[int, type[Error]] = {
    Status.ENOMEM: OutOfMemoryError, Status.EIO: InputOutputError,
    Status.ESYNTAX: JSONSyntaxError, Status.ESCHEMA: SchemaError,
    Status.EVERSION: VersionError, Status.EDANGLING: DanglingReferenceError,
    Status.ELIMIT: LimitError, Status.EINVAL: InvalidArgumentError,
    Status.ESTOPPED: StoppedError, Status.ESTATE: StateError,
    Status.ENOTFOUND: NotFoundError,
}


def error_class(status: int) -> type[Error]:
    """The exception class raised for a status code."""
    return _BY_STATUS.get(status, Error)


def _subject(info: _lib.iprof_error_info) -> dict[str, Any]:
    """What a model operation's report is about: kind, context, type_id and
    method_id as keyword arguments of :class:`Error`."""
    from ._common import Kind   # _common imports this module
    kind = info.kind
    return {"kind": Kind(kind) if 0 <= kind < len(Kind) else None,
            "context": _text(info.context),
            "type_id": info.type_id if info.has_type_id else None,
            "method_id": info.method_id if info.has_method_id else None}


def make_error(status: int, report: int | _lib.iprof_error_info | None = None,
               filename: str | None = None, diagnostics: Iterable[Diagnostic] = (),
               message: str | None = None,
               diagnostics_dropped: tuple[int, int] = DroppedDiagnostics(0, 0)) -> Error:
    """An exception for *status*, filled from the ``iprof_error *`` *report*
    (its message, position and, for model operations, what it is about), or
    from the :func:`_report_info` of one already read."""
    cls = error_class(status)
    if report:
        info = report if isinstance(report, _lib.iprof_error_info) else _report_info(report)
        d = Diagnostic._from_info(info)
        # The report's own status is the precise one (the call's may be
        # ESTOPPED for a stopped read, for instance); keep the call's.
        return cls(status, message or d.message, d.path, d.offset, d.line, d.column,
                   filename, diagnostics, diagnostics_dropped=diagnostics_dropped,
                   **_subject(info))
    return cls(status, message, filename=filename, diagnostics=diagnostics,
               diagnostics_dropped=diagnostics_dropped)


def check(status: int, message: str | None = None) -> None:
    """Raise the matching :class:`Error` unless *status* is IPROF_OK."""
    if status != 0:
        raise make_error(status, message=message)


class ClosedError(ValueError):
    """The model (or writer) was closed: its objects can no longer be used."""


class StaleError(RuntimeError):
    """An entry, type or method object, or an iterator, was invalidated by a
    change to the model (entries of a kind are invalidated by every change
    to entries of that kind; types and methods by removals)."""


class StopRead(Exception):
    """Raise inside a streaming callback to end the read early and quietly:
    :func:`iprof.read` then returns normally with ``stopped`` set."""

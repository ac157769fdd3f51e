"""The writer: a whole model or element by element, to a path, bytes or a file."""
from __future__ import annotations

import ctypes
import errno
import io
import os
from ctypes import byref, c_size_t, c_void_p
from types import TracebackType
from typing import IO, TYPE_CHECKING, Any, Iterable, SupportsIndex, Type

if TYPE_CHECKING:
    from ._common import EnumLike, FramesLike
    from ._model import Model

from . import _lib
from ._common import InstanceofKey, Kind, encode, frames_array, int64, int64_array, size_t
from ._errors import ClosedError, Diagnostic, Status, check, make_error


class Writer:
    """One iprof document, written element by element or from a model.

    *target*: None (memory: :meth:`getvalue` returns the bytes), a path
    (atomic: nothing appears at the path until :meth:`end` succeeds) or a
    binary file object (its ``write`` gets the bytes). Options as for
    :meth:`Model.write`; the output is gzip-compressed with ``gzip=True``
    and for a path ending in ".gz". Every element is checked as it comes,
    references included (an entry naming a method or type not written
    before raises :class:`DanglingReferenceError`) unless
    ``check_references=False`` (for a document whose types and methods are
    written elsewhere) or ``validate=False``.

    Streaming order: :meth:`type` calls, then :meth:`method` calls, then
    :meth:`entry` calls grouped by kind in the version's section order, then
    :meth:`end`; :meth:`unknown` keys may come between them. The document
    is begun on the first call (or by :meth:`begin`). As a context manager,
    a clean exit ends the document and an exception abandons it (a path is
    left untouched). After any failure the writer is failed and every call
    raises.
    """

    def __init__(self, target: str | os.PathLike[str] | IO[bytes] | None = None, *,
                 version: str | None = None, pretty: bool = False,
                 drop_instanceof: bool = False, validate: bool = True,
                 sync: bool = True, buffer_size: int = 0, gzip: bool = False,
                 instanceof_key: EnumLike | None = None, check_references: bool = True,
                 canonical: bool = False, threaded: bool = False,
                 drop_unknown: bool = False) -> None:
        self._L = L = _lib.lib()
        self._ptr: int | None = None
        self._begun = False
        self._ended = False
        self._exceptions: list[BaseException] = []
        # Set while the target's write runs inside a C call of this writer:
        # the writer then refuses every call (closing it would free what
        # the C call is using). A list, so that the callback holds no
        # reference to the writer.
        self._in_sink = [False]
        self._target = target
        self._filename = os.fsdecode(target) if isinstance(target, (str, os.PathLike)) else None
        opts = _lib.iprof_write_options()
        check(L.iprof_write_options_init(byref(opts), _lib.WRITE_OPTIONS_VERSION))
        flags = 0
        if pretty:
            flags |= _lib.WRITE_PRETTY
        if drop_instanceof:
            flags |= _lib.WRITE_DROP_INSTANCEOF
        if not validate:
            flags |= _lib.WRITE_NO_VALIDATE
        if not check_references:
            flags |= _lib.WRITE_NO_REFERENCES
        if not sync:
            flags |= _lib.WRITE_NO_SYNC
        if gzip:
            flags |= _lib.WRITE_GZIP
        if canonical:
            flags |= _lib.WRITE_CANONICAL
        if threaded:
            flags |= _lib.WRITE_THREADED
        if drop_unknown:
            flags |= _lib.WRITE_DROP_UNKNOWN
        opts.flags = flags
        self._version = encode(version) if version is not None else None
        opts.format_version = self._version
        opts.buffer_size = size_t(buffer_size, "buffer_size")
        opts.instanceof_key = InstanceofKey.of(instanceof_key)
        sink = _lib.iprof_sink()
        sink.version = _lib.SINK_VERSION
        sink.fd = -1
        if target is None:
            sink.kind = _lib.SINK_BUFFER
        elif isinstance(target, (str, os.PathLike)):
            sink.kind = _lib.SINK_PATH
            sink.path = os.fsencode(target)   # copied by iprof_writer_new
        elif hasattr(target, "write"):
            write = target.write
            excs = self._exceptions
            in_sink = self._in_sink
            # A raw file may take part of the bytes (an int below their
            # length: the rest is written again) or, non-blocking, none
            # (None: an error, as the bytes would be lost); other file
            # objects take all (their write may return None).
            raw = isinstance(target, io.RawIOBase)

            def write_fn(data: int, n: int, _payload: Any) -> int:
                in_sink[0] = True
                try:
                    chunk = ctypes.string_at(data, n)
                    while chunk:
                        done: object = write(chunk)  # file objects differ
                        if not raw and not isinstance(done, int):
                            break
                        if not isinstance(done, int) or done <= 0 or done > len(chunk):
                            raise OSError(errno.EAGAIN if done is None else errno.EIO,
                                          "the file object's write took %r of %d bytes"
                                          % (done, len(chunk)))
                        chunk = chunk[done:]
                    return 0
                except BaseException as e:  # noqa: B902 - re-raised by _check
                    excs.append(e)
                    return 1
                finally:
                    in_sink[0] = False
            self._write_fn = _lib.WRITE_FN(write_fn)
            sink.kind = _lib.SINK_CALLBACK
            sink.write_fn = self._write_fn
        else:
            raise TypeError("target must be None, a path or a binary file object, not %s"
                            % type(target).__name__)
        out = c_void_p()
        status = L.iprof_writer_new(byref(out), byref(sink), byref(opts))
        if status != 0:
            raise make_error(status, filename=self._filename)
        self._ptr = out.value

    def _p(self) -> int:
        if self._ptr is None:
            raise ClosedError("the writer is closed")
        self._refuse_in_sink("used")
        return self._ptr

    def _refuse_in_sink(self, what: str) -> None:
        if getattr(self, "_in_sink", [False])[0]:
            raise make_error(Status.ESTATE, message="the writer cannot be %s from its own "
                             "file object's write" % what)

    def _check(self, status: int) -> None:
        if status == 0:
            return
        if self._exceptions:
            exc = self._exceptions.pop(0)
            raise exc
        report = self._L.iprof_writer_error(self._ptr)
        # A model whose input had keys the library does not read is refused
        # unless drop_unknown=True: the message names the keyword, not the
        # C flag (a failed writer repeats its error at every later call).
        message = None
        if report:
            message = Diagnostic._from_report(report).message.replace(
                "IPROF_WRITE_DROP_UNKNOWN", "drop_unknown=True")
        raise make_error(status, report, self._filename, message=message)

    def begin(self, version: str | None = None) -> None:
        """Start the document (*version*: None for the options' version,
        else the latest)."""
        self._check(self._L.iprof_writer_begin(
            self._p(), encode(version) if version is not None else None))
        self._begun = True

    def _auto_begin(self) -> None:
        if not self._begun:
            self.begin()

    def type(self, type_id: SupportsIndex, name: str | bytes) -> None:
        p = self._p()
        self._auto_begin()
        b = encode(name)
        self._check(self._L.iprof_writer_type(p, int64(type_id, "type id"), b, len(b)))

    def method(self, method_id: SupportsIndex, name: str | bytes,
               signature: Iterable[SupportsIndex]) -> None:
        p = self._p()
        self._auto_begin()
        b = encode(name)
        arr, n = int64_array(signature, "type id")
        self._check(self._L.iprof_writer_method(p, int64(method_id, "method id"), b, len(b),
                                                arr, n))

    def entry(self, kind: EnumLike, frames: FramesLike,
              records: Iterable[SupportsIndex]) -> None:
        """One entry; *frames* as ctx text, a Context or (method id, bci)
        pairs."""
        p = self._p()
        self._auto_begin()
        farr, fn = frames_array(frames)
        rarr, rn = int64_array(records, "record")
        self._check(self._L.iprof_writer_entry(p, Kind.of(kind), farr, fn, rarr, rn))

    def unknown(self, key: str | bytes, json: str | bytes) -> None:
        """A top-level key the library does not interpret, with its raw JSON
        value (str or bytes: exactly one JSON value, written as given), at
        this point of the document: the open section is closed first, and
        sections up to it can no longer be written.
        :class:`InvalidArgumentError` for a key the library writes itself,
        :class:`JSONSyntaxError` for a value that is not one JSON value."""
        p = self._p()
        self._auto_begin()
        k, j = encode(key), encode(json)
        self._check(self._L.iprof_writer_unknown(p, k, len(k), j, len(j)))

    def write_model(self, model: Model) -> None:
        """Write a whole model (begin, every element, its unknown top-level
        keys where its file had them, end)."""
        p = self._p()
        # The target's write may run Python code meanwhile: it may read
        # the model, not change or close it.
        with model._in_use() as mp:
            self._check(self._L.iprof_writer_write_model(p, mp))
        self._begun = self._ended = True

    def end(self) -> bytes | None:
        """Close the document (a path: sync and rename into place). Returns
        the bytes for a memory writer, else None."""
        p = self._p()
        self._auto_begin()
        self._check(self._L.iprof_writer_end(p))
        self._ended = True
        return self.getvalue() if self._target is None else None

    def getvalue(self) -> bytes:
        """Memory writer: the bytes written so far (all after end())."""
        data = c_void_p()
        n = c_size_t()
        self._check(self._L.iprof_writer_buffer(self._p(), byref(data), byref(n)))
        return ctypes.string_at(data.value or 0, n.value) if n.value else b""

    def close(self) -> None:
        """Free the writer. If end() did not succeed, a path is left as it
        was (the temporary file is removed)."""
        if self._ptr is not None:
            self._refuse_in_sink("closed")
        p, self._ptr = self._ptr, None
        if p is not None:
            self._L.iprof_writer_free(p)

    def __enter__(self) -> Writer:
        return self

    def __exit__(self, exc_type: Type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        try:
            if exc_type is None and self._ptr is not None and not self._ended:
                self.end()
        finally:
            self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:
            pass

"""Streaming reading: callbacks (read) and iterators (stream, iter_entries)."""
from __future__ import annotations

import ctypes
import operator
import os
import queue
import threading
from ctypes import byref, c_void_p
from typing import (IO, Any, Callable, Iterable, List, NamedTuple, NoReturn, Optional,
                    SupportsIndex, Tuple, Union)

from . import _lib
from ._common import (SIZE_MAX, Kind, Section, decode, format_ctx, frames_from, is_bytes, is_path,
                      section_of, size_t)
from ._common import EnumLike
from ._errors import Diagnostic, DroppedDiagnostics, StopRead, check, make_error

#: What a read takes: a path, the document's bytes, or a binary file object
#: (with ``readinto`` or ``read``).
Source = Union[str, "os.PathLike[str]", bytes, bytearray, memoryview, IO[bytes]]


class TypeInfo(NamedTuple):
    """A type as read from the input."""
    id: int
    name: str


class MethodInfo(NamedTuple):
    """A method as read: signature is (declaring type, return type,
    parameter types...) as type ids."""
    id: int
    name: str
    signature: Tuple[int, ...]


class EntryInfo(NamedTuple):
    """A profile entry as read: frames are (method id, bci) pairs, callee
    first; records the int64 values, exact."""
    kind: Kind
    frames: List[Tuple[int, int]]
    records: List[int]

    @property
    def ctx(self) -> str:
        """The ctx text, "5:0<3:2"."""
        return format_ctx(self.frames)


class UnknownKey(NamedTuple):
    """A top-level key the library does not know, with the raw JSON bytes of
    its value exactly as in the input."""
    key: str
    json: bytes


class KeyInfo(NamedTuple):
    """A top-level key as read, before its value: the key as written (so
    which instanceof spelling the file uses) and what it is, a :class:`Kind`
    for a profile section (either instanceof spelling gives
    ``Kind.INSTANCEOF``) or a :class:`Section`."""
    key: str
    section: Union[Kind, Section]


#: What a :class:`Stream` yields.
Element = Union[TypeInfo, MethodInfo, EntryInfo, UnknownKey, KeyInfo]


class ReadResult(NamedTuple):
    """What :func:`read` returns: the version (None if the read stopped
    before it), the diagnostics of the read (the first *max_diagnostics*),
    whether a callback stopped it with :class:`StopRead`, and how many
    diagnostics were found beyond those kept, a :class:`DroppedDiagnostics`
    ``(errors, warnings)``."""
    version: Optional[str]
    diagnostics: List[Diagnostic]
    stopped: bool
    diagnostics_dropped: DroppedDiagnostics = DroppedDiagnostics(0, 0)


class _Reader:
    """An iprof_reader handle with its options; one per read or load."""

    def __init__(self, strict: bool = False, check_references: bool = True, chunk_size: int = 0,
                 max_element_size: int = 0, max_depth: int = 0,
                 max_diagnostics: SupportsIndex | None = 0, threaded: bool = False,
                 salvage: bool = False) -> None:
        self._L = L = _lib.lib()
        opts = _lib.iprof_read_options()
        check(L.iprof_read_options_init(byref(opts), _lib.READ_OPTIONS_VERSION))
        flags = 0
        if strict:
            flags |= _lib.READ_STRICT
        if not check_references:
            flags |= _lib.READ_NO_REFERENCES
        if threaded:
            flags |= _lib.READ_THREADED
        if salvage:
            flags |= _lib.READ_SALVAGE
        opts.flags = flags
        opts.chunk_size = size_t(chunk_size, "chunk_size")
        opts.max_element_size = size_t(max_element_size, "max_element_size")
        opts.max_depth = size_t(max_depth, "max_depth")
        opts.max_diagnostics = _max_diagnostics(max_diagnostics)
        ptr = c_void_p()
        check(L.iprof_reader_new(byref(ptr), byref(opts)))
        self.ptr: int | None = ptr.value
        self.exceptions: list[BaseException] = []   # raised by Python callbacks during the call
        self._keep: list[Any] = []  # ctypes objects that must outlive the current call

    def close(self) -> None:
        if self.ptr:
            self._L.iprof_reader_free(self.ptr)
            self.ptr = None

    def __enter__(self) -> _Reader:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def result(self) -> _lib.iprof_read_result:
        """What the last read left besides its error, in one call
        (``iprof_reader_get_result``)."""
        res = _lib.iprof_read_result()
        res.version = _lib.READ_RESULT_VERSION
        check(self._L.iprof_reader_get_result(self.ptr, byref(res)))
        return res

    def diagnostics(self, res: _lib.iprof_read_result | None = None) -> list[Diagnostic]:
        """The diagnostics the last read kept (of *res*, its result, if
        already asked for)."""
        L = self._L
        n = (res if res is not None else self.result()).diag_count
        return [Diagnostic._from_report(L.iprof_reader_diag(self.ptr, i)) for i in range(n)]

    def damage(self, res: _lib.iprof_read_result | None = None) -> Diagnostic | None:
        """The damage a salvaging load stopped at (a :class:`Diagnostic`), or
        None when it read the whole input."""
        report = (res if res is not None else self.result()).damage
        return Diagnostic._from_report(report) if report else None

    def dropped(self, res: _lib.iprof_read_result | None = None) -> DroppedDiagnostics:
        """The diagnostics of the last read beyond max_diagnostics, counted."""
        res = res if res is not None else self.result()
        return DroppedDiagnostics(res.dropped_errors, res.dropped_warnings)

    def fail(self, status: int, filename: str | None,
             report: _lib.iprof_error_info | None = None) -> NoReturn:
        """Raise for a failed read: a Python exception from a callback first,
        else the reader's error report (*report*, when already read)."""
        if self.exceptions:
            exc = self.exceptions[0]
            self.exceptions = []
            raise exc
        res = self.result()
        raise make_error(status, report or self._L.iprof_reader_error(self.ptr), filename,
                         self.diagnostics(res), diagnostics_dropped=self.dropped(res))

    def guard(self, fn: Callable[..., object]) -> Callable[..., int]:
        """Wrap a Python callback for C: an exception is kept and stops the
        read (non-zero return)."""
        excs = self.exceptions

        def call(*args: Any) -> int:
            try:
                fn(*args)
                return 0
            except BaseException as e:  # noqa: B902 - re-raised after the C call
                excs.append(e)
                return 1
        return call

    def read_fn(self, fileobj: Any) -> Any:
        """An iprof_read_fn over a binary file object."""
        readinto = getattr(fileobj, "readinto", None)

        def read(buf: int, capacity: int, lenp: Any, _payload: Any) -> None:
            if readinto is not None:
                view = memoryview((ctypes.c_char * capacity).from_address(buf)).cast("B")
                n = readinto(view)
                view.release()
            else:
                data = fileobj.read(capacity)
                if isinstance(data, str):
                    raise TypeError("the file object must be opened in binary mode")
                n = None if data is None else len(data)
                if n is not None and n > capacity:
                    raise ValueError("read() returned more bytes than asked for")
                if n:
                    ctypes.memmove(buf, data, n)
            if n is None:
                # A non-blocking stream with no data yet: not the end of
                # the input, which the read would take it for.
                raise BlockingIOError("the file object has no data to read yet (non-blocking); "
                                      "the reader needs a blocking one")
            lenp[0] = n
        fn = _lib.READ_FN(self.guard(read))
        self._keep.append(fn)
        return fn

    def source(self, source: Source) -> _lib.iprof_source:
        """The ``iprof_source`` of *source* (a path, bytes-like data or a
        binary file object). What it points to is kept with this reader,
        alive at least until its next source."""
        src = _lib.iprof_source()
        src.version = _lib.SOURCE_VERSION
        src.fd = -1
        if is_bytes(source):
            data = bytes(source)
            src.kind = _lib.SOURCE_BUFFER
            src.data = ctypes.cast(ctypes.c_char_p(data), c_void_p)
            src.len = len(data)
            self._keep.append(data)
        elif is_path(source):
            path = os.fsencode(source)
            src.kind = _lib.SOURCE_PATH
            src.path = path
            self._keep.append(path)
        elif hasattr(source, "read"):
            src.kind = _lib.SOURCE_CALLBACK
            src.read_fn = self.read_fn(source)
        else:
            raise TypeError("source must be a path, bytes or a binary file object, not %s"
                            % type(source).__name__)
        return src

    def run(self, source: Source, callbacks: _lib.iprof_read_callbacks | None) -> int:
        """Read *source* with the callbacks struct (or None); returns the
        status. The caller handles exceptions and errors."""
        src = self.source(source)
        cb = byref(callbacks) if callbacks is not None else None
        return self._L.iprof_reader_read(self.ptr, byref(src), cb, None)


def _filename(source: Source) -> str | None:
    return os.fsdecode(source) if is_path(source) else None


def _max_diagnostics(value: SupportsIndex | None) -> int:
    """The C max_diagnostics of the Python option: 0 (the library's
    default, 10000), a positive count, or None for all (SIZE_MAX)."""
    if value is None:
        return SIZE_MAX
    if isinstance(value, bool):
        raise TypeError("max_diagnostics must be an int or None, not bool")
    n = operator.index(value)
    if n < 0:
        raise ValueError("max_diagnostics must be >= 0 (or None for all), not %d" % n)
    return min(n, SIZE_MAX)


def _reader_kwargs(strict: bool, check_references: bool, chunk_size: int,
                   max_element_size: int, max_depth: int,
                   max_diagnostics: SupportsIndex | None = 0) -> dict[str, Any]:
    return dict(strict=strict, check_references=check_references, chunk_size=chunk_size,
                max_element_size=max_element_size, max_depth=max_depth,
                max_diagnostics=max_diagnostics)


_ENTRY_FIELDS = ("on_call_count", "on_conditional", "on_virtual_invoke", "on_monitor",
                 "on_sampling", "on_instanceof")


def read(source: Source, *, on_version: Callable[[str], object] | None = None,
         on_type: Callable[[TypeInfo], object] | None = None,
         on_method: Callable[[MethodInfo], object] | None = None,
         on_entry: Callable[[EntryInfo], object] | None = None,
         on_call_count: Callable[[EntryInfo], object] | None = None,
         on_conditional: Callable[[EntryInfo], object] | None = None,
         on_virtual_invoke: Callable[[EntryInfo], object] | None = None,
         on_monitor: Callable[[EntryInfo], object] | None = None,
         on_sampling: Callable[[EntryInfo], object] | None = None,
         on_instanceof: Callable[[EntryInfo], object] | None = None,
         on_unknown: Callable[[UnknownKey], object] | None = None,
         on_key: Callable[[KeyInfo], object] | None = None, strict: bool = False,
         check_references: bool = True, chunk_size: int = 0, max_element_size: int = 0,
         max_depth: int = 0, max_diagnostics: SupportsIndex | None = 0) -> ReadResult:
    """Read a profile once, calling back for each element in document order.

    *source* is a path (str or path-like), bytes-like data or a binary file
    object. Callbacks (each optional): ``on_version(str)``,
    ``on_type(TypeInfo)``, ``on_method(MethodInfo)``, ``on_unknown(UnknownKey)``,
    ``on_key(KeyInfo)`` (every top-level key, in input order, before its
    value) and, for entries, ``on_call_count(EntryInfo)``, ..., ``on_instanceof``
    per kind, or ``on_entry(EntryInfo)`` for every kind without its own
    callback. Only the kinds with a callback are converted to Python.

    An exception raised by a callback stops the read and propagates from
    here; raise :class:`StopRead` to stop quietly. Returns a
    :class:`ReadResult`. A failed read raises :class:`Error` (with the
    line, column and JSON path of the problem and the diagnostics so far).

    *strict* fails on the first rule violation; ``check_references=False``
    skips the id tables (IPROF_READ_NO_REFERENCES); *chunk_size*,
    *max_element_size* and *max_depth* are the reader options (0: default).
    *max_diagnostics* is how many diagnostics the read keeps (0: the
    library's default, 10000; None: all); the rest are only counted, in the
    result's ``diagnostics_dropped``.
    """
    per_kind = [on_call_count, on_conditional, on_virtual_invoke, on_monitor, on_sampling,
                on_instanceof]
    version: list[str] = []
    with _Reader(**_reader_kwargs(strict, check_references, chunk_size, max_element_size,
                                  max_depth, max_diagnostics)) as r:
        cbs = _lib.iprof_read_callbacks()
        cbs.version = _lib.READ_CALLBACKS_VERSION
        keep: list[Any] = []

        def set_cb(field: str, ctype: Any, fn: Callable[..., object]) -> None:
            c = ctype(r.guard(fn))
            keep.append(c)
            setattr(cbs, field, c)

        def v_cb(ptr: int, n: int, _p: Any) -> None:
            text = decode(ctypes.string_at(ptr, n))
            version.append(text)
            if on_version is not None:
                on_version(text)
        set_cb("on_version", _lib.VERSION_CB, v_cb)
        if on_type is not None:
            on_type_fn = on_type   # (mypy 1.0 does not narrow on_type inside the lambda)
            set_cb("on_type", _lib.TYPE_CB, lambda i, p, n, _x: on_type_fn(
                TypeInfo(i, decode(ctypes.string_at(p, n)))))
        if on_method is not None:
            on_method_fn = on_method
            set_cb("on_method", _lib.METHOD_CB, lambda i, p, n, s, sn, _x: on_method_fn(
                MethodInfo(i, decode(ctypes.string_at(p, n)), tuple(s[:sn]) if sn else ())))
        for kind in Kind:
            fn = per_kind[kind] or on_entry
            if fn is None:
                continue
            entry_fn = fn   # (what mypy 1.0 sees as narrowed in the default below)

            def e_cb(k: int, fp: Any, fc: int, rp: Any, rc: int, _x: Any,
                     fn: Callable[[EntryInfo], object] = entry_fn) -> None:
                fn(EntryInfo(Kind(k), frames_from(fp, fc), rp[:rc] if rc else []))
            set_cb(_ENTRY_FIELDS[kind], _lib.ENTRY_CB, e_cb)
        if on_unknown is not None:
            on_unknown_fn = on_unknown
            set_cb("on_unknown", _lib.UNKNOWN_CB, lambda k, kn, j, jn, _x: on_unknown_fn(
                UnknownKey(decode(ctypes.string_at(k, kn)), ctypes.string_at(j, jn))))
        if on_key is not None:
            on_key_fn = on_key
            set_cb("on_key", _lib.KEY_CB, lambda k, kn, sec, _x: on_key_fn(
                KeyInfo(decode(ctypes.string_at(k, kn)), section_of(sec))))
        status = r.run(source, cbs)
        stopped = False
        if r.exceptions and isinstance(r.exceptions[0], StopRead):
            r.exceptions = []
            stopped = True
        elif status != 0:
            r.fail(status, _filename(source))
        del keep
        res = r.result()
        return ReadResult(version[0] if version else None, r.diagnostics(res), stopped,
                          r.dropped(res))


def validate(source: Source, *, strict: bool = False, check_references: bool = True,
             max_diagnostics: SupportsIndex | None = 0) -> list[Diagnostic]:
    """Read *source* without callbacks; return its diagnostics (raise
    :class:`Error` if the read fails). The file is valid when this returns
    no diagnostic of severity ERROR and no error was dropped: only the
    first *max_diagnostics* are kept (0: 10000; None: all), so for files
    with more use :func:`read`, whose result also counts the dropped ones
    (``diagnostics_dropped.errors``)."""
    return read(source, strict=strict, check_references=check_references,
                max_diagnostics=max_diagnostics).diagnostics


_DONE = object()


def _produce(out: queue.Queue[Any], stop: threading.Event, size: int, source: Source,
             types: bool, methods: bool, kinds: Iterable[Kind], unknown: bool, keys: bool,
             kwargs: dict[str, Any]) -> None:
    """The body of a Stream's thread: read, putting batches of items and
    then (_DONE, ("done", ReadResult) or ("error", exception)) into *out*."""
    pending: list[Element] = []
    put = out.put

    def emit(item: Element) -> None:
        if stop.is_set():
            raise StopRead()
        pending.append(item)
        if len(pending) >= size:
            put(pending[:])
            pending.clear()

    callbacks: dict[str, Any] = {}
    if types:
        callbacks["on_type"] = emit
    if methods:
        callbacks["on_method"] = emit
    for k in kinds:
        callbacks["on_" + k.attribute] = emit
    if unknown:
        callbacks["on_unknown"] = emit
    if keys:
        callbacks["on_key"] = emit
    try:
        final: tuple[str, Any] = ("done", read(source, **callbacks, **kwargs))
    except BaseException as e:  # noqa: B902 - handed to the consumer
        final = ("error", e)
    if pending and not stop.is_set():
        put(pending)
    put((_DONE, final))


class Stream:
    """An iterator over the elements of a profile, read in the background.

    Yields :class:`TypeInfo`, :class:`MethodInfo`, :class:`EntryInfo`,
    :class:`UnknownKey` and :class:`KeyInfo` values in document order (only
    the element classes asked for: *types*, *methods*, *kinds*, *unknown*,
    *keys*). The C reader runs in a background thread and hands over
    batches through a bounded queue, so memory stays bounded however large
    the file, and the consumer may stop at any point: :meth:`close` (or
    leaving a ``with`` block, or the iterator being garbage collected) stops
    the read and joins the thread. A failed read raises :class:`Error` from
    ``next()``, after the items read before the failure.

    After the iteration ends, :attr:`version`, :attr:`diagnostics`,
    :attr:`diagnostics_dropped` (a :class:`DroppedDiagnostics`: those beyond
    *max_diagnostics*, counted) and :attr:`stopped` (True when closed before
    the end) describe the read.
    """

    def __init__(self, source: Source, *, types: bool = True, methods: bool = True,
                 kinds: EnumLike | Iterable[EnumLike] | None = None, unknown: bool = False,
                 keys: bool = False, strict: bool = False, check_references: bool = True,
                 chunk_size: int = 0, max_element_size: int = 0, max_depth: int = 0,
                 max_diagnostics: SupportsIndex | None = 0, batch_size: int = 256,
                 queue_size: int = 16) -> None:
        if kinds is None:
            kinds = list(Kind)
        elif isinstance(kinds, (str, int)):
            kinds = [Kind.of(kinds)]
        else:
            kinds = [Kind.of(k) for k in kinds]
        self.version: str | None = None
        self.diagnostics: list[Diagnostic] = []
        self.diagnostics_dropped = DroppedDiagnostics(0, 0)
        self.stopped = False
        self._queue: queue.Queue[Any] = queue.Queue(maxsize=max(1, queue_size))
        self._stop = threading.Event()
        self._batch: list[Element] = []
        self._pos = 0
        self._finished = False
        self._batch_size = max(1, batch_size)
        if is_bytes(source):
            source = bytes(source)
        kwargs = _reader_kwargs(strict, check_references, chunk_size, max_element_size,
                                max_depth, max_diagnostics)
        # The thread must not refer to the Stream, so that an abandoned
        # Stream is collected and its __del__ stops the thread.
        self._thread = threading.Thread(
            target=_produce,
            args=(self._queue, self._stop, self._batch_size, source, types, methods, kinds,
                  unknown, keys, kwargs),
            name="iprof-stream", daemon=True)
        self._thread.start()

    def __iter__(self) -> Stream:
        return self

    def __next__(self) -> Element:
        while True:
            if self._pos < len(self._batch):
                item = self._batch[self._pos]
                self._pos += 1
                return item
            if self._finished:
                raise StopIteration
            got = self._queue.get()
            if isinstance(got, list):
                self._batch, self._pos = got, 0
                continue
            self._finish(got[1])

    def _finish(self, final: tuple[str, Any]) -> None:
        self._finished = True
        self._batch, self._pos = [], 0
        self._thread.join()
        what, value = final
        if what == "error":
            raise value
        self.version, self.diagnostics, self.stopped, self.diagnostics_dropped = value

    def close(self) -> None:
        """Stop the read (if still running) and wait for the thread."""
        if self._finished:
            return
        self._stop.set()
        while True:
            got = self._queue.get()
            if not isinstance(got, list):
                break
        self._finished = True
        self._batch, self._pos = [], 0
        self._thread.join()
        what, value = got[1]
        if what == "done":
            self.version, self.diagnostics, _, self.diagnostics_dropped = value
            self.stopped = True

    def __enter__(self) -> Stream:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:
            pass


def stream(source: Source, **kwargs: Any) -> Stream:
    """``Stream(source, **kwargs)``: iterate over the elements of a profile
    (see :class:`Stream`)."""
    return Stream(source, **kwargs)


def iter_entries(source: Source, kinds: EnumLike | Iterable[EnumLike] | None = None,
                 **kwargs: Any) -> Stream:
    """Iterate over the profile entries of *source* (:class:`EntryInfo`), of
    the given kinds (a kind or an iterable of kinds; all by default). Returns
    a :class:`Stream`; close it (or use ``with``) to stop early."""
    return Stream(source, types=False, methods=False, kinds=kinds, **kwargs)

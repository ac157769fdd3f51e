"""A kind's entries as columns (C: ``iprof_model_get_columns``), without copies.

:meth:`Model.columns` hands out read-only :class:`memoryview` objects over
the arrays the C model keeps (format ``q``: int64, ``Q``: uint64), which
``numpy.asarray()`` or ``numpy.frombuffer()`` wrap without copying.

The arrays belong to the model and the C library frees them when entries
of the kind change, so nothing may look at them after that. Every change
to the model (and :meth:`Model.close`) first releases the views it handed
out: using one afterwards raises ``ValueError: operation forbidden on
released memoryview object``. What else may still reach the memory (a numpy
array over a view, a slice or cast of one) keeps the view's buffer, and
through it the ctypes array under it, alive; while one does, the change is
refused with :class:`StateError` and changes nothing: drop those first.
The arrays, and through them the views and numpy arrays, keep the model
object alive.
"""
from __future__ import annotations

import ctypes
import sys
from ctypes import byref
from typing import TYPE_CHECKING, Any

from . import _lib
from ._common import Kind
from ._errors import Status, check, make_error

if TYPE_CHECKING:
    from ._model import Context, Model


def _view(model: Model, address: int | None, ctype: Any, code: str, n: int) -> memoryview:
    """A read-only view of n values at address, in native format code."""
    arr: Any = (ctype * n).from_address(address) if n else (ctype * 0)()
    arr._iprof_model = model   # the memory is the model's: keep it alive
    view = memoryview(arr).cast("B").cast(code).toreadonly()
    model._views.append(view)
    model._arrays.append(arr)
    return view


class Columns:
    """The entries of one kind as columns (:meth:`Model.columns`). Entry i
    is ``model.profiles(kind)[i]``:

    - :attr:`records`: every record, entry after entry (int64, ``q``);
    - :attr:`offsets`: ``count + 1`` offsets (uint64, ``Q``): entry i's
      records are ``records[offsets[i]:offsets[i + 1]]``;
    - :attr:`frames`: the entries' ctx frames as (method id, bci) pairs,
      callee first, entry after entry, flat (int64: ``2 * frame_count``
      values; ``numpy.asarray(c.frames).reshape(-1, 2)`` gives the pairs);
    - :attr:`frame_offsets`: ``count + 1`` offsets in pairs: entry i's
      frames are pairs ``frame_offsets[i]`` to ``frame_offsets[i + 1]``.

    Valid until the model changes (see the module's notes)."""
    __slots__ = ("_model", "_gen", "kind", "count", "record_count", "frame_count", "records",
                 "offsets", "frames", "frame_offsets", "_contexts")

    def __init__(self, model: Model, kind: Kind, c: _lib.iprof_columns) -> None:
        self._model = model
        self._gen = model._entry_gen[kind]
        self.kind = kind
        self.count: int = c.count
        self.record_count: int = c.record_count
        self.frame_count: int = c.frame_count
        self.records = _view(model, c.records, ctypes.c_int64, "q", c.record_count)
        self.offsets = _view(model, c.offsets, ctypes.c_uint64, "Q", c.count + 1)
        self.frames = _view(model, c.frames, ctypes.c_int64, "q", 2 * c.frame_count)
        self.frame_offsets = _view(model, c.frame_offsets, ctypes.c_uint64, "Q", c.count + 1)
        self._contexts = c.contexts

    def __len__(self) -> int:
        return self.count

    def context(self, i: int) -> Context:
        """The :class:`Context` of entry i (a node of the model)."""
        from ._model import Context
        if self._gen != self._model._entry_gen[self.kind] or _released(self.records):
            raise make_error(Status.ESTATE, message="these columns were released by a change "
                             "to the model")
        if not 0 <= i < self.count:
            raise IndexError("entry %d of %d" % (i, self.count))
        self._model._p()
        ptr = ctypes.c_void_p.from_address(self._contexts + i * ctypes.sizeof(ctypes.c_void_p))
        return Context(self._model, ptr.value or 0)

    def __repr__(self) -> str:
        return "<iprof.Columns %s: %d entries, %d records, %d frames>" % (
            self.kind.json_key, self.count, self.record_count, self.frame_count)


def columns(model: Model, kind: Kind) -> Columns:
    # Until the next change the C arrays stay put: the same object serves.
    kept = model._columns.get(kind)
    if kept is not None and not _released(kept.records):
        model._p()
        return kept
    c = _lib.iprof_columns()
    c.version = _lib.COLUMNS_VERSION
    check(model._L.iprof_model_get_columns(model._p(), kind, byref(c)))
    model._columns[kind] = made = Columns(model, kind, c)
    return made


def release_views(model: Model) -> None:
    """Release the views handed out, before a change or close; raise
    StateError when something else still reaches their memory."""
    model._columns.clear()
    if not model._arrays:
        return
    for v in model._views:
        try:
            v.release()
        except BufferError:   # a buffer taken from it is held: the array's count shows it
            pass
    model._views = []
    # Each array is referenced by model._arrays and by getrefcount's
    # argument; anything more is a buffer of a view (numpy's, a slice's)
    # that can still read it.
    held = sum(1 for i in range(len(model._arrays)) if sys.getrefcount(model._arrays[i]) > 2)
    if held:
        raise make_error(Status.ESTATE, message="%d column array(s) of this model are still "
                         "in use (a numpy array over Model.columns(), a slice of a view?): "
                         "drop them before changing or closing the model" % held)
    model._arrays = []


def _released(v: memoryview) -> bool:
    try:
        v.readonly
    except ValueError:
        return True
    return False

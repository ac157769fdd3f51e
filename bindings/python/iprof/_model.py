"""The in-memory model: Model, its sequences and element objects.

Every object handed out (Type, Method, Context, Entry, the sequences and
their iterators) keeps a reference to its Model and checks on each access
that the model is open and that the object is still valid, so that no
access ever touches memory the C side has freed:

* Model.close() (or leaving its ``with`` block, or garbage collection)
  frees the C model; any later access raises :class:`ClosedError`.
* Entries are valid until the next change to entries of their kind (C:
  "entry pointers are valid until the next change to that kind"). The
  model keeps a generation counter per kind, bumped by add_entry,
  remove_entry, set_entry_records, map_records, scale, merge,
  remove_method(cascade=True), filter and prune(dangling=True); an Entry
  or an entry iterator made under an older generation raises
  :class:`StaleError`.
* Types and methods are valid until their removal; the model bumps a
  generation on every type (method) removal, filter and prune, and older
  Type (Method) objects and iterators raise
  :class:`StaleError`. Adding types, methods or entries of another kind
  invalidates nothing.
* Contexts are interned and live as long as the model, until
  :meth:`Model.canonicalize` rebuilds it.
* :meth:`Model.canonicalize` and :meth:`Model.filter` bump every
  generation: all Type, Method and Entry objects (and, for canonicalize,
  Context objects) taken before raise :class:`StaleError`.
* Every change also bumps ``Model._mutations``, which a :class:`iprof.Diff`
  checks: the C result must not outlive a change to either model.
"""
from __future__ import annotations

import ctypes
import numbers
import operator
import os
from contextlib import contextmanager
from collections.abc import Sequence
from typing import NamedTuple
from ctypes import byref, c_char_p, c_double, c_int64, c_size_t, c_void_p
from typing import (IO, Any, Callable, Generic, Iterable, Iterator, SupportsIndex, TypeVar, Union,
                    overload)

from . import _lib
from ._common import (INT64_MAX, INT64_MIN, InstanceofKey, Kind, Rounding, decode, encode,
                      frames_array, frames_from, int64, int64_array, is_bytes, is_path,
                      size_t)
from ._errors import (ClosedError, Diagnostic, DroppedDiagnostics, StaleError, Status, check,
                      make_error, _report_info)
from ._reader import UnknownKey, _Reader, _filename, _reader_kwargs
from ._columns import Columns, columns, release_views
from ._common import EnumLike, FramesLike
from ._errors import Diagnostic
from ._reader import Source

_T = TypeVar("_T")
_Owned = TypeVar("_Owned", bound="Type | Method | Entry")
#: Package names as arguments: one name, or an iterable of names.
Packages = Union[str, bytes, Iterable[Union[str, bytes]]]


def _snprintf(fn: Callable[..., int], *args: Any) -> str:
    """Call a snprintf-convention function and return its text."""
    size = 256
    while True:
        buf = ctypes.create_string_buffer(size)
        n = fn(*args, buf, size)
        if n < size:
            return decode(ctypes.string_at(buf, n))
        size = n + 1


def _in_range(value: SupportsIndex) -> bool:
    return INT64_MIN <= value.__index__() <= INT64_MAX


class Type:
    """A type of a model: ``id`` (int) and ``name`` (str)."""
    __slots__ = ("_model", "_ptr", "_gen")

    def __init__(self, model: Model, ptr: int) -> None:
        self._model = model
        self._ptr = ptr
        self._gen = model._type_gen

    def _p(self) -> int:
        m = self._model
        m._p()
        if self._gen != m._type_gen:
            raise StaleError("this Type was invalidated by a removal of types; look it up again")
        return self._ptr

    @property
    def model(self) -> Model:
        return self._model

    @property
    def id(self) -> int:
        return self._model._L.iprof_type_id(self._p())

    @property
    def name(self) -> str:
        n = c_size_t()
        p = self._model._L.iprof_type_name(self._p(), byref(n))
        return decode(ctypes.string_at(p, n.value))

    @property
    def valid(self) -> bool:
        """False once the model is closed or this object is stale."""
        return self._model._ptr is not None and self._gen == self._model._type_gen

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Type):
            return NotImplemented
        return self._model is other._model and self._ptr == other._ptr

    def __hash__(self) -> int:
        return hash((id(self._model), self._ptr))

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        if not self.valid:
            return "<iprof.Type (invalid)>"
        return "Type(%d, %r)" % (self.id, self.name)


class Method:
    """A method of a model: ``id``, ``name`` and ``signature`` (a tuple of
    type ids: declaring type, return type, parameter types)."""
    __slots__ = ("_model", "_ptr", "_gen")

    def __init__(self, model: Model, ptr: int) -> None:
        self._model = model
        self._ptr = ptr
        self._gen = model._method_gen

    def _p(self) -> int:
        m = self._model
        m._p()
        if self._gen != m._method_gen:
            raise StaleError("this Method was invalidated by a removal of methods; "
                             "look it up again")
        return self._ptr

    @property
    def model(self) -> Model:
        return self._model

    @property
    def id(self) -> int:
        return self._model._L.iprof_method_id(self._p())

    @property
    def name(self) -> str:
        n = c_size_t()
        p = self._model._L.iprof_method_name(self._p(), byref(n))
        return decode(ctypes.string_at(p, n.value))

    @property
    def signature(self) -> tuple[int, ...]:
        n = c_size_t()
        p = self._model._L.iprof_method_signature(self._p(), byref(n))
        return tuple(p[:n.value]) if n.value else ()

    def _type(self, i: int) -> Type | None:
        sig = self.signature
        return self._model.types.by_id(sig[i]) if len(sig) > i else None

    @property
    def declaring_type(self) -> Type | None:
        """The Type of signature[0], or None if absent or undefined."""
        return self._type(0)

    @property
    def return_type(self) -> Type | None:
        """The Type of signature[1], or None if absent or undefined."""
        return self._type(1)

    @property
    def parameter_types(self) -> list[Type | None]:
        """Types of signature[2:] (None for an undefined type id)."""
        return [self._model.types.by_id(t) for t in self.signature[2:]]

    def describe(self) -> str:
        """Readable name, "Fib.fibonacci" ("?<id>" for an undefined
        declaring type)."""
        m = self._model
        return _snprintf(m._L.iprof_model_method_describe, m._p(), self._p())

    @property
    def valid(self) -> bool:
        return self._model._ptr is not None and self._gen == self._model._method_gen

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Method):
            return NotImplemented
        return self._model is other._model and self._ptr == other._ptr

    def __hash__(self) -> int:
        return hash((id(self._model), self._ptr))

    def __str__(self) -> str:
        return self.describe()

    def __repr__(self) -> str:
        if not self.valid:
            return "<iprof.Method (invalid)>"
        return "Method(%d, %r, %r)" % (self.id, self.name, self.signature)


class Context:
    """An interned calling context: frames of (method id, bci), callee first.

    ``str(ctx)`` is the ctx text ("5:0<3:2"), :meth:`describe` the readable
    text ("Fib.fibonacci:11 < Fib.main:9"). Two contexts are equal when
    their frames are equal.
    """
    __slots__ = ("_model", "_ptr", "_gen")

    def __init__(self, model: Model, ptr: int) -> None:
        self._model = model
        self._ptr = ptr
        self._gen = model._ctx_gen

    def _p(self) -> int:
        m = self._model
        m._p()
        if self._gen != m._ctx_gen:
            raise StaleError("this Context was invalidated by canonicalize(); look it up again")
        return self._ptr

    @property
    def depth(self) -> int:
        """Number of frames (>= 1)."""
        return self._model._L.iprof_context_depth(self._p())

    def __len__(self) -> int:
        return self.depth

    @property
    def method_id(self) -> int:
        """Method id of the callee frame (frame 0)."""
        return self._model._L.iprof_context_method_id(self._p())

    @property
    def bci(self) -> int:
        """Bci of the callee frame (frame 0)."""
        return self._model._L.iprof_context_bci(self._p())

    @property
    def caller(self) -> Context | None:
        """The context without frame 0, or None at depth 1."""
        p = self._model._L.iprof_context_caller(self._p())
        return Context(self._model, p) if p else None

    @property
    def frames(self) -> list[tuple[int, int]]:
        """[(method id, bci), ...], callee first."""
        L = self._model._L
        p = self._p()
        depth = L.iprof_context_depth(p)
        arr = (ctypes.c_int64 * (2 * depth))()
        L.iprof_context_frames(p, arr, depth)
        return frames_from(arr, depth)

    @property
    def methods(self) -> list[Method | None]:
        """The Method of each frame (None for an undefined method id)."""
        by_id = self._model.methods.by_id
        return [by_id(m) for m, _ in self.frames]

    def __iter__(self) -> Iterator[tuple[int, int]]:
        return iter(self.frames)

    def describe(self) -> str:
        """Readable text: "Fib.fibonacci:11 < Fib.main:9" ("?<id>" for an
        undefined method, so the monitor's 0:0 reads "?0:0")."""
        m = self._model
        return _snprintf(m._L.iprof_model_context_describe, m._p(), self._p())

    def __str__(self) -> str:
        return _snprintf(self._model._L.iprof_context_format, self._p())

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Context):
            return NotImplemented
        if self._model is other._model:
            self._p()
            return self._ptr == other._ptr
        return self.frames == other.frames

    def __hash__(self) -> int:
        return hash(tuple(self.frames))

    def __repr__(self) -> str:
        if self._model._ptr is None:
            return "<iprof.Context of a closed model>"
        if self._gen != self._model._ctx_gen:
            return "<iprof.Context (invalid)>"
        return "Context(%r)" % str(self)


class Entry:
    """A profile entry: ``kind``, ``context`` (a :class:`Context`) and
    ``records`` (a list of ints, int64 exact).

    Valid until the next change to entries of its kind; then any access
    raises :class:`StaleError`.
    """
    __slots__ = ("_model", "_kind", "_ptr", "_gen")

    def __init__(self, model: Model, kind: Kind, ptr: int) -> None:
        self._model = model
        self._kind = kind
        self._ptr = ptr
        self._gen = model._entry_gen[kind]

    def _p(self) -> int:
        m = self._model
        m._p()
        if self._gen != m._entry_gen[self._kind]:
            raise StaleError("this %s entry was invalidated by a change to %s entries; "
                             "look it up again" % (self._kind.json_key, self._kind.name))
        return self._ptr

    @property
    def model(self) -> Model:
        return self._model

    @property
    def kind(self) -> Kind:
        """The :class:`Kind`."""
        self._p()
        return self._kind

    @property
    def context(self) -> Context:
        """The :class:`Context` (stays usable after the entry goes stale)."""
        return Context(self._model, self._model._L.iprof_entry_context(self._p()))

    @property
    def frames(self) -> list[tuple[int, int]]:
        """The context's frames, [(method id, bci), ...], callee first."""
        return self.context.frames

    @property
    def ctx(self) -> str:
        """The ctx text, "5:0<3:2"."""
        return str(self.context)

    def describe(self) -> str:
        """The context's readable text."""
        return self.context.describe()

    @property
    def records(self) -> list[int]:
        """The records, a new list of ints."""
        n = c_size_t()
        p = self._model._L.iprof_entry_records(self._p(), byref(n))
        return p[:n.value] if n.value else []

    @property
    def total(self) -> int:
        """The entry's total count: the sum of the count slot of its records
        (call count and sampling: the value; conditional: every third
        value; virtual invoke, monitor, instanceof: every second),
        saturating at the int64 limits."""
        return self._model._L.iprof_entry_total(self._p())

    def _analysis(self, fn: Callable[..., Any], group: int, what: str,
                  *extra: Any) -> tuple[int, list[int], list[float]]:
        """Call an analysis.h function with output arrays of one value per
        group of *group* records (the scratch space it needs); returns
        (status, ids, values) for IPROF_OK and IPROF_ENOTFOUND and raises
        otherwise, *what* saying which kinds it needs."""
        p = self._p()
        n = c_size_t()
        self._model._L.iprof_entry_records(p, byref(n))
        cap = n.value // group
        ids, values, count = (c_int64 * cap)(), (c_double * cap)(), c_size_t()
        rc = fn(p, ids, values, cap, byref(count), *extra)
        if rc not in (0, Status.ENOTFOUND):
            key = self._kind.json_key
            check(rc, {Status.EINVAL: "%s, not a %s entry" % (what, key),
                       Status.ESCHEMA: "this %s entry has %d records, not a multiple of %d"
                       % (key, n.value, group)}.get(rc))
        k = min(count.value, cap)
        return rc, ids[:k], values[:k]

    def branch_probabilities(self) -> list[tuple[int, float]] | None:
        """The successor probabilities GraalVM's PGO derives from this
        conditional entry, bit for bit: a list of (bci, probability), one
        per bci in the order of its first record, except
        :data:`INVALID_BRANCH_BCI` (switch cases sharing a target). Every
        record counts, a repeated (bci, index) too: counts are summed per
        branch index, each record gets its index's sum over (its index's
        records x the entry's sum), a 0 becomes
        :data:`EXTREMELY_SLOW_PATH_PROBABILITY` (the others scaled so that
        they still add up to 1), each index gets the sum of its records'
        probabilities and each bci its last record's index's (docs/format.md,
        "What the compiler is told"). None when the counts add up to 0
        (GraalVM applies no probabilities). :class:`InvalidArgumentError`
        for an entry of another kind, :class:`SchemaError` for records that
        are not (bci, index, count) triples (a leniently loaded file)."""
        L = self._model._L
        rc, bcis, probs = self._analysis(L.iprof_entry_branch_probabilities, 3,
                                         "branch probabilities need a conditional entry")
        return None if rc == Status.ENOTFOUND else list(zip(bcis, probs))

    def type_shares(self) -> tuple[list[tuple[int, float]], float]:
        """The receiver-type profile GraalVM's PGO builds from this virtual
        invoke, instanceof or monitor entry: ``(shares, not_recorded)``,
        *shares* a list of (type id, share) with the counts of a type
        summed, highest share first (ties by ascending type id), each
        ``(1 - not_recorded) * count / total``; *not_recorded*, the
        probability left for types the profile did not see, is
        :data:`EXTREMELY_SLOW_PATH_PROBABILITY`. An entry without records
        gives ``([], not_recorded)``. :class:`InvalidArgumentError` for an
        entry of another kind, :class:`SchemaError` for an odd number of
        records (a leniently loaded file)."""
        L = self._model._L
        not_recorded = c_double()
        _, types, shares = self._analysis(L.iprof_entry_type_shares, 2,
                                          "type shares need a virtual invoke, instanceof or "
                                          "monitor entry", byref(not_recorded))
        return list(zip(types, shares)), not_recorded.value

    @property
    def valid(self) -> bool:
        m = self._model
        return m._ptr is not None and self._gen == m._entry_gen[self._kind]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Entry):
            return NotImplemented
        return (self._model is other._model and self._kind == other._kind
                and self._ptr == other._ptr and self._gen == other._gen)

    def __hash__(self) -> int:
        return hash((id(self._model), self._kind, self._ptr, self._gen))

    def __repr__(self) -> str:
        if not self.valid:
            return "<iprof.Entry (invalid)>"
        return "Entry(%s, %r, %r)" % (self._kind.name, self.ctx, self.records)


class _Elements(Sequence[_T], Generic[_T]):
    """Shared code of the live sequences: len, [i], [a:b], iteration."""
    __slots__ = ("_model",)

    def __init__(self, model: Model) -> None:
        self._model = model

    def _gen(self) -> int:
        raise NotImplementedError

    # What each sequence defines: its name, count, element pointer, object.
    def _what(self) -> str:
        raise NotImplementedError

    def _count(self, p: int) -> int:
        raise NotImplementedError

    def _at(self, p: int, i: int) -> int:
        raise NotImplementedError

    def _wrap(self, ptr: int) -> _T:
        raise NotImplementedError

    def __len__(self) -> int:
        return self._count(self._model._p())

    @overload
    def __getitem__(self, index: int) -> _T: ...

    @overload
    def __getitem__(self, index: slice) -> list[_T]: ...

    def __getitem__(self, index: int | slice) -> _T | list[_T]:
        m = self._model
        p = m._p()
        n = self._count(p)
        if isinstance(index, slice):
            return [self._wrap(self._at(p, i)) for i in range(*index.indices(n))]
        i = index.__index__()
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError("%s index %d out of range (%d)" % (self._what(), index, n))
        return self._wrap(self._at(p, i))

    def __iter__(self) -> Iterator[_T]:
        m = self._model
        gen = self._gen()
        i = 0
        while True:
            p = m._p()
            if self._gen() != gen:
                raise StaleError("%s changed during iteration" % self._what())
            if i >= self._count(p):
                return
            yield self._wrap(self._at(p, i))
            i += 1

    def __reversed__(self) -> Iterator[_T]:
        return reversed(self[:])

    def __bool__(self) -> bool:
        return len(self) > 0

    def __repr__(self) -> str:
        if self._model._ptr is None:
            return "<%s of a closed model>" % self._what()
        return "<%s: %d>" % (self._what(), len(self))


class Types(_Elements[Type]):
    """The types of a model, in file order: ``len``, ``[i]``, iteration,
    :meth:`by_id`, :meth:`by_name`. Live: it reflects later changes."""
    __slots__ = ()

    def _what(self) -> str:
        return "types"

    def _gen(self) -> int:
        return self._model._type_gen

    def _count(self, p: int) -> int:
        return self._model._L.iprof_model_type_count(p)

    def _at(self, p: int, i: int) -> int:
        return self._model._L.iprof_model_type_at(p, i)

    def _wrap(self, ptr: int) -> Type:
        return Type(self._model, ptr)

    def by_id(self, type_id: int) -> Type | None:
        """The Type with this id (the first, if a file repeats it), or None."""
        m = self._model
        p = m._p()
        if not _in_range(type_id):
            return None
        ptr = m._L.iprof_model_type_by_id(p, type_id)
        return Type(m, ptr) if ptr else None

    def by_name(self, name: str | bytes) -> Type | None:
        """The (first) Type with this name, or None."""
        m = self._model
        b = encode(name)
        ptr = m._L.iprof_model_type_by_name(m._p(), b, len(b))
        return Type(m, ptr) if ptr else None

    def __contains__(self, item: object) -> bool:
        if isinstance(item, Type):
            return item._model is self._model and item.valid and bool(
                self._model._L.iprof_model_type_by_id(self._model._p(), item.id))
        return False


class Methods(_Elements[Method]):
    """The methods of a model, in file order: ``len``, ``[i]``, iteration,
    :meth:`by_id`, :meth:`find`. Live: it reflects later changes."""
    __slots__ = ()

    def _what(self) -> str:
        return "methods"

    def _gen(self) -> int:
        return self._model._method_gen

    def _count(self, p: int) -> int:
        return self._model._L.iprof_model_method_count(p)

    def _at(self, p: int, i: int) -> int:
        return self._model._L.iprof_model_method_at(p, i)

    def _wrap(self, ptr: int) -> Method:
        return Method(self._model, ptr)

    def by_id(self, method_id: int) -> Method | None:
        """The Method with this id (the first, if a file repeats it), or None."""
        m = self._model
        p = m._p()
        if not _in_range(method_id):
            return None
        ptr = m._L.iprof_model_method_by_id(p, method_id)
        return Method(m, ptr) if ptr else None

    def find(self, name: str | bytes, signature: Iterable[SupportsIndex]) -> Method | None:
        """The Method with this name and signature (type ids: declaring,
        return, parameters), or None."""
        m = self._model
        b = encode(name)
        arr, n = int64_array(signature, "type id")
        ptr = m._L.iprof_model_method_find(m._p(), b, len(b), arr, n)
        return Method(m, ptr) if ptr else None

    def __contains__(self, item: object) -> bool:
        if isinstance(item, Method):
            return item._model is self._model and item.valid and bool(
                self._model._L.iprof_model_method_by_id(self._model._p(), item.id))
        return False


class Entries(_Elements[Entry]):
    """The entries of one kind, in file order: ``len``, ``[i]``, iteration
    and :meth:`find`. Live; an iterator raises :class:`StaleError` when
    entries of the kind change under it."""
    __slots__ = ("kind",)

    def __init__(self, model: Model, kind: Kind) -> None:
        super().__init__(model)
        self.kind = kind

    def _what(self) -> str:
        return self.kind.json_key

    def _gen(self) -> int:
        return self._model._entry_gen[self.kind]

    def _count(self, p: int) -> int:
        return self._model._L.iprof_model_entry_count(p, self.kind)

    def _at(self, p: int, i: int) -> int:
        return self._model._L.iprof_model_entry_at(p, self.kind, i)

    def _wrap(self, ptr: int) -> Entry:
        return Entry(self._model, self.kind, ptr)

    def find(self, frames: FramesLike) -> Entry | None:
        """The entry with this context (ctx text, a Context or (method id,
        bci) pairs), or None."""
        return self._model.find_entry(self.kind, frames)

    def __contains__(self, item: object) -> bool:
        if isinstance(item, Entry):
            return item._model is self._model and item._kind == self.kind and item.valid
        return False


class Model:
    """A profile in memory, owned by the C library.

    ``Model()`` is an empty model of the latest format version;
    :func:`iprof.load` loads one. Use it as a context manager, or call
    :meth:`close`, to free the C memory deterministically (garbage
    collection frees it too). Not thread-safe for mutation; read-only use
    from several threads is fine.
    """

    def __init__(self) -> None:
        self._L = L = _lib.lib()
        self._ptr: int | None = None
        self._init_state([], DroppedDiagnostics(0, 0))
        ptr = c_void_p()
        check(L.iprof_model_new(byref(ptr), None))
        self._ptr = ptr.value

    def _init_state(self, diagnostics: list[Diagnostic], dropped: DroppedDiagnostics) -> None:
        self._entry_gen = [0] * len(Kind)
        self._type_gen = 0
        self._method_gen = 0
        self._ctx_gen = 0
        self._mutations = 0
        self._busy = 0          # C calls running that call back into Python
        self._merging = 0       # of those, merges into the model: no reads either
        self._diagnostics = diagnostics
        self._dropped = dropped
        self._damage: Diagnostic | None = None
        self._kept_end: int | None = None
        self._views: list[memoryview] = []   # handed out by columns()
        self._arrays: list[Any] = []          # the ctypes arrays under them
        self._columns: dict[Kind, Columns] = {}  # by kind, until a change

    @classmethod
    def _adopt(cls, ptr: int, diagnostics: list[Diagnostic],
               dropped: DroppedDiagnostics) -> Model:
        self = cls.__new__(cls)
        self._L = _lib.lib()
        self._init_state(diagnostics, dropped)
        self._ptr = ptr
        return self

    def _p(self) -> int:
        p = self._ptr
        if p is None:
            raise ClosedError("the model is closed")
        if self._merging:
            # The C merge changes the model between (or, threaded, during)
            # the reads it calls back for: it needs the model to itself.
            raise make_error(Status.ESTATE, message="the model is being merged into: it "
                             "cannot be used until that call returns")
        return p

    def _pw(self) -> int:
        """The pointer, for a change: refused (:class:`StateError`) while a
        write or merge of this model is calling back into Python, as the C
        call is still walking the model."""
        p = self._p()
        if self._busy:
            raise make_error(Status.ESTATE, message="the model is being written or merged "
                             "into: it cannot change until that call returns")
        release_views(self)   # the change may free the arrays they show
        return p

    @contextmanager
    def _in_use(self, merge: bool = False) -> Iterator[int]:
        """Mark the model busy for a C call that runs Python callbacks (a
        writer's file object, a merge's reader): they may read it, not
        change or close it; with *merge* (the call changes it), not even
        read it."""
        p = self._p()
        self._busy += 1
        self._merging += merge
        try:
            yield p
        finally:
            self._busy -= 1
            self._merging -= merge

    # -- lifetime ------------------------------------------------------------

    def close(self) -> None:
        """Free the C model. Every object obtained from it becomes unusable
        (accesses raise :class:`ClosedError`). Closing twice is a no-op."""
        p = getattr(self, "_ptr", None)
        if p is not None:
            if getattr(self, "_busy", 0):
                raise make_error(Status.ESTATE, message="the model is being written or merged "
                                 "into: it cannot be closed until that call returns")
            release_views(self)
            self._ptr = None
            self._L.iprof_model_free(p)

    @property
    def closed(self) -> bool:
        return self._ptr is None

    def __enter__(self) -> Model:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:
            pass

    def __repr__(self) -> str:
        if self._ptr is None:
            return "<iprof.Model (closed)>"
        return "<iprof.Model %s: %d types, %d methods, %s>" % (
            self.version, len(self.types), len(self.methods),
            ", ".join("%d %s" % (len(self.profiles(k)), k.attribute) for k in Kind))

    # -- reading -------------------------------------------------------------

    @property
    def version(self) -> str:
        """The format version ("1.0.0"); assign to change it (it must be
        MAJOR.MINOR.PATCH of a 0.4.0/1.x-structured version)."""
        return self._L.iprof_model_version(self._p()).decode("ascii")

    @version.setter
    def version(self, value: str | bytes) -> None:
        p = self._pw()
        self._mutations += 1
        self._check(self._L.iprof_model_set_version(p, encode(value)))

    @property
    def diagnostics(self) -> list[Diagnostic]:
        """The diagnostics of the load that made this model (a list of
        :class:`Diagnostic`; empty for ``Model()``): the first
        ``max_diagnostics`` of :func:`load`."""
        return list(self._diagnostics)

    @property
    def damage(self) -> Diagnostic | None:
        """Where the input was damaged, for a model loaded with
        ``salvage=True`` (C: ``iprof_read_result.damage``): a :class:`Diagnostic`
        (status, message, offset, line, column, path) of the error the load
        stopped at, or None when it read the whole input (and for models not
        loaded so)."""
        return self._damage

    @property
    def kept_end(self) -> int | None:
        """For a model loaded with ``salvage=True``: the input offset just past
        the last complete element it kept (C: ``iprof_read_result.kept_end``);
        None for models not loaded so."""
        return self._kept_end

    @property
    def diagnostics_dropped(self) -> DroppedDiagnostics:
        """How many more diagnostics the load found than it kept in
        :attr:`diagnostics` (beyond ``max_diagnostics``), a
        :class:`DroppedDiagnostics` ``(errors, warnings)``; ``(0, 0)`` for
        ``Model()``."""
        return self._dropped

    @property
    def instanceof_key(self) -> InstanceofKey:
        """The spelling of the instanceof key the model was read with, an
        :class:`InstanceofKey` (AUTO when its file had no such section, or
        for ``Model()``); the writer uses it unless its ``instanceof_key``
        option says otherwise. Assign anything :meth:`InstanceofKey.of`
        takes ("instanceof", "instanceOf", None, ...) to change it."""
        return InstanceofKey(self._L.iprof_model_instanceof_key(self._p()))

    @instanceof_key.setter
    def instanceof_key(self, value: EnumLike | None) -> None:
        spelling = InstanceofKey.of(value)
        p = self._pw()
        self._mutations += 1
        self._check(self._L.iprof_model_set_instanceof_key(p, spelling))

    @property
    def unknown_keys(self) -> list[UnknownKey]:
        """The top-level keys the library does not interpret (a fork's
        "ceConditionalProfilesV2", GraalVM's "virtualInvokeMethodProfiles"),
        in file order: a new list of :class:`UnknownKey` (key, raw JSON
        bytes exactly as the file held them). The writer puts them back
        where the file had them."""
        L, p = self._L, self._p()
        key, json = c_void_p(), c_void_p()
        key_len, json_len = c_size_t(), c_size_t()
        out: list[UnknownKey] = []
        for i in range(L.iprof_model_unknown_count(p)):
            check(L.iprof_model_unknown_at(p, i, byref(key), byref(key_len), byref(json),
                                           byref(json_len)))
            out.append(UnknownKey(decode(ctypes.string_at(key.value or 0, key_len.value)),
                                  ctypes.string_at(json.value or 0, json_len.value)))
        return out

    @property
    def unread_count(self) -> int:
        """How many elements of the documents loaded or merged into the
        model held keys that no type, method or entry has: the reader does
        not read them (it warns), so the model lacks them and
        :meth:`write` refuses unless ``drop_unknown=True``. See
        :attr:`first_unread` for where the first was."""
        return int(self._L.iprof_model_unread_count(self._p(), None))

    @property
    def first_unread(self) -> str | None:
        """Where the first element counted by :attr:`unread_count` was, as
        'types[3], key "x"', or None."""
        first = c_char_p()
        self._L.iprof_model_unread_count(self._p(), byref(first))
        return decode(first.value) if first.value is not None else None

    @property
    def types(self) -> Types:
        return Types(self)

    @property
    def methods(self) -> Methods:
        return Methods(self)

    def profiles(self, kind: EnumLike) -> Entries:
        """The :class:`Entries` of a kind (a :class:`Kind`, its number, its
        name or its JSON key)."""
        return Entries(self, Kind.of(kind))

    def __getitem__(self, kind: EnumLike) -> Entries:
        """``model[Kind.CALL_COUNT]`` / ``model["callCountProfiles"]``."""
        return self.profiles(kind)

    @property
    def call_count(self) -> Entries:
        return Entries(self, Kind.CALL_COUNT)

    @property
    def conditional(self) -> Entries:
        return Entries(self, Kind.CONDITIONAL)

    @property
    def virtual_invoke(self) -> Entries:
        return Entries(self, Kind.VIRTUAL_INVOKE)

    @property
    def monitor(self) -> Entries:
        return Entries(self, Kind.MONITOR)

    @property
    def sampling(self) -> Entries:
        return Entries(self, Kind.SAMPLING)

    @property
    def instanceof(self) -> Entries:
        return Entries(self, Kind.INSTANCEOF)

    def columns(self, kind: EnumLike) -> Columns:
        """Every entry of *kind* at once, as read-only memoryviews of the C
        model's own arrays (C: ``iprof_model_get_columns``; built on the first
        call for a kind, then kept): ``numpy.asarray(model.columns(k).records)``
        is every record without a copy. See :class:`Columns`; the views are
        released by the next change to the model, which is refused
        (:class:`StateError`) while a numpy array over them is alive."""
        return columns(self, Kind.of(kind))

    def entries(self) -> Iterator[Entry]:
        """Iterate over the entries of every kind, kind by kind."""
        for k in Kind:
            yield from Entries(self, k)

    def find_entry(self, kind: EnumLike, frames: FramesLike) -> Entry | None:
        """The entry of *kind* with this context (ctx text, a Context or
        (method id, bci) pairs), or None."""
        kind = Kind.of(kind)
        arr, n = frames_array(frames)
        ptr = self._L.iprof_model_entry_find(self._p(), kind, arr, n)
        return Entry(self, kind, ptr) if ptr else None

    @property
    def context_count(self) -> int:
        """Number of interned context nodes (including caller suffixes)."""
        return self._L.iprof_model_context_count(self._p())

    def method_totals(self, kind: EnumLike,
                      limit: SupportsIndex | None = None) -> list[tuple[int, int]]:
        """The hottest methods by the entries of *kind*: a list of
        (method id, total), hottest first, ties by ascending method id,
        where a method's total is the sum of :attr:`Entry.total` over the
        entries whose callee (frame 0) it is (saturating). With
        ``Kind.CALL_COUNT`` this is the "hottest methods by call count" of
        ``iprof stats``. *limit*: at most this many (the hottest); None for
        all. Monitor entries all count for method 0 (their "0:0" ctx)."""
        kind = Kind.of(kind)
        L, p = self._L, self._p()
        cap = L.iprof_model_entry_count(p, kind)   # no more methods than entries
        if limit is not None:
            limit = operator.index(limit)
            if limit < 0:
                raise ValueError("limit must be >= 0 or None, not %d" % limit)
            cap = min(cap, limit)
        ids, totals, count = (c_int64 * cap)(), (c_int64 * cap)(), c_size_t()
        check(L.iprof_model_method_totals(p, kind, ids, totals, cap, byref(count)))
        k = min(count.value, cap)
        return list(zip(ids[:k], totals[:k]))

    # -- mutation ------------------------------------------------------------

    def _check(self, status: int, filename: str | None = None) -> None:
        """Raise for a failed model operation with the model's report of
        why: its message and what it is about (kind, context, type id,
        method id), and *filename*, the input it came from, if any. Only a
        report of this very failure is used (a call that sets none would
        leave an older one)."""
        if status != 0:
            report = self._L.iprof_model_error(self._ptr)
            info = _report_info(report) if report else None
            if info is not None and info.status != status:
                info = None
            raise make_error(status, info, filename)

    def add_unknown(self, key: str | bytes, json: str | bytes) -> None:
        """Add a top-level key the library does not interpret, with its raw
        JSON value (str or bytes: exactly one JSON value, written as given
        after every section). :class:`InvalidArgumentError` for a key the
        library interprets, :class:`JSONSyntaxError` for a value that is not
        one JSON value."""
        k, j = encode(key), encode(json)
        p = self._pw()
        self._mutations += 1
        self._check(self._L.iprof_model_add_unknown(p, k, len(k), j, len(j)))

    def remove_unknown(self, key: str | bytes | None = None) -> None:
        """Remove every unknown top-level key named *key*;
        :class:`NotFoundError` if there is none. Without *key* (None),
        remove every unknown top-level key (never :class:`NotFoundError`)."""
        p = self._pw()
        if key is None:
            self._mutations += 1
            check(self._L.iprof_model_remove_unknown(p, None, 0))
            return
        k = encode(key)
        self._mutations += 1
        check(self._L.iprof_model_remove_unknown(p, k, len(k)),
              "the model keeps no unknown key %r" % (key,))

    def build_indexes(self) -> None:
        """Build every lookup index now (``iprof_model_build_indexes``), so
        that lookups from several threads never allocate. Lookups build
        them on first use otherwise."""
        self._check(self._L.iprof_model_build_indexes(self._pw()))

    def add_type(self, type_id: SupportsIndex, name: str | bytes) -> Type:
        """Add a type and return it. :class:`InvalidArgumentError` if the id
        is taken."""
        b = encode(name)
        out = c_void_p()
        p = self._pw()
        self._mutations += 1
        self._check(self._L.iprof_model_add_type(p, int64(type_id, "type id"), b, len(b),
                                                 byref(out)))
        assert out.value is not None   # the C API sets it on success
        return Type(self, out.value)

    def remove_type(self, type_: Type | SupportsIndex) -> None:
        """Remove a type (a Type or an id); :class:`NotFoundError` if absent.
        Invalidates every Type object of this model."""
        type_id = (self._own(type_, Type).id if isinstance(type_, Type)
                   else int64(type_, "type id"))
        p = self._pw()
        self._type_gen += 1
        self._mutations += 1
        self._check(self._L.iprof_model_remove_type(p, type_id))

    def add_method(self, method_id: SupportsIndex, name: str | bytes,
                   signature: Iterable[SupportsIndex]) -> Method:
        """Add a method and return it. :class:`InvalidArgumentError` if the
        id is taken, :class:`DanglingReferenceError` if a signature type is
        not in the model."""
        b = encode(name)
        arr, n = int64_array(signature, "type id")
        out = c_void_p()
        p = self._pw()
        self._mutations += 1
        self._check(self._L.iprof_model_add_method(p, int64(method_id, "method id"), b,
                                                   len(b), arr, n, byref(out)))
        assert out.value is not None   # the C API sets it on success
        return Method(self, out.value)

    def remove_method(self, method: Method | SupportsIndex, *, cascade: bool = False) -> None:
        """Remove a method (a Method or an id); :class:`NotFoundError`, with
        ``method_id`` set and nothing changed, if absent. Its entries stay,
        naming a method that is gone, unless ``cascade=True``
        (IPROF_REMOVE_CASCADE): then every entry, of any kind, whose context
        mentions the method in any frame, callee or caller, goes too.
        Invalidates every Method object of this model, and with *cascade*
        every Entry object."""
        method_id = (self._own(method, Method).id if isinstance(method, Method)
                     else int64(method, "method id"))
        p = self._pw()
        self._method_gen += 1
        if cascade:
            for k in Kind:
                self._entry_gen[k] += 1
        self._mutations += 1
        if cascade:
            self._check(self._L.iprof_model_remove_method(p, method_id, _lib.REMOVE_CASCADE))
        else:
            self._check(self._L.iprof_model_remove_method(p, method_id, 0))

    def add_entry(self, kind: EnumLike, frames: FramesLike,
                  records: Iterable[SupportsIndex]) -> Entry:
        """Add an entry, or combine *records* into the entry of *kind* with
        that context (counts summed by the kind's meaning, saturating).
        Returns the resulting Entry. Invalidates the kind's Entry objects."""
        kind = Kind.of(kind)
        farr, fn = frames_array(frames)
        rarr, rn = int64_array(records, "record")
        p = self._pw()
        self._entry_gen[kind] += 1
        self._mutations += 1
        self._check(self._L.iprof_model_add_entry(p, kind, farr, fn, rarr, rn))
        return Entry(self, kind, self._L.iprof_model_entry_find(p, kind, farr, fn))

    @overload
    def remove_entry(self, kind_or_entry: Entry) -> None: ...

    @overload
    def remove_entry(self, kind_or_entry: EnumLike, frames: FramesLike) -> None: ...

    def remove_entry(self, kind_or_entry: Entry | EnumLike, frames: Any = None) -> None:
        """Remove an entry: ``remove_entry(entry)`` or ``remove_entry(kind,
        frames)``. :class:`NotFoundError` if absent."""
        if isinstance(kind_or_entry, Entry):
            entry = self._own(kind_or_entry, Entry)
            kind, frames = entry.kind, entry.frames
        else:
            kind = Kind.of(kind_or_entry)
        farr, fn = frames_array(frames)
        p = self._pw()
        self._entry_gen[kind] += 1
        self._mutations += 1
        self._check(self._L.iprof_model_remove_entry(p, kind, farr, fn))

    def _gens(self) -> tuple[list[int], int, int]:
        return (list(self._entry_gen), self._type_gen, self._method_gen)

    def set_entry_records(self, kind: EnumLike, frames: FramesLike,
                          records: Iterable[SupportsIndex]) -> Entry:
        """Replace the records of the entry of *kind* with this context (ctx
        text, a Context or (method id, bci) pairs) by *records*, and return
        the entry. The new records follow the rules of :meth:`add_entry`:
        the kind's record layout (:class:`SchemaError`) and defined type ids
        (:class:`DanglingReferenceError`); :class:`NotFoundError` when no
        entry of that kind has this context. On failure nothing changes and
        the error names the entry (``kind``, ``context``, ``type_id``).
        Invalidates the kind's Entry objects."""
        kind = Kind.of(kind)
        farr, fn = frames_array(frames)
        rarr, rn = int64_array(records, "record")
        p = self._pw()
        self._entry_gen[kind] += 1
        self._mutations += 1
        self._check(self._L.iprof_model_set_entry_records(p, kind, farr, fn, rarr, rn))
        return Entry(self, kind, self._L.iprof_model_entry_find(p, kind, farr, fn))

    def map_records(self, kind: EnumLike,
                    fn: Callable[[Entry, list[int]], Iterable[int] | None]) -> None:
        """Rewrite the records of every entry of *kind* with a function:
        ``fn(entry, records)`` gets each entry in order and a new list of
        its records, and either edits that list in place and returns None,
        or returns the new records (a sequence of ints); the number of
        records must stay the same. The new records are then checked as
        :meth:`set_entry_records` checks them, and stored only if every
        entry's pass.

        *fn* runs on every entry before anything changes, so an exception
        from it stops the map and is re-raised here with the model as it
        was. So does a failed check (:class:`SchemaError` or
        :class:`DanglingReferenceError`, naming the entry), a result of
        another length (:class:`ValueError`) or with a number outside int64
        (:class:`LimitError`). *fn* must not change the model
        (:class:`StaleError`). Invalidates the kind's Entry objects.

        ``model.map_records("conditional", lambda e, r: [v if i % 3 != 2
        else v * 2 for i, v in enumerate(r)])`` doubles the counts of
        every conditional entry."""
        kind = Kind.of(kind)
        p = self._pw()
        before = self._gens()
        new: list[ctypes.Array[c_int64]] = []
        for entry in Entries(self, kind):
            records = entry.records
            n = len(records)
            out = fn(entry, records)
            if self._gens() != before or self._ptr != p:
                raise StaleError("the model changed inside a map_records function")
            if out is not None:
                records = list(out)
            if len(records) != n:
                raise ValueError("map_records: the function gave %d records for the %d of "
                                 "%s entry %s" % (len(records), n, kind.json_key, entry.ctx))
            new.append(int64_array(records, "record")[0])
        # The C side calls back once per entry, in the same order, with a
        # copy to fill; the model has not changed since the loop above.
        at = [0]

        def fill(_entry: Any, records: Any, count: int, _payload: Any) -> int:
            i = at[0]
            at[0] += 1
            if i >= len(new) or len(new[i]) != count:
                return 1                              # cannot happen: stop, change nothing
            if count:
                ctypes.memmove(records, new[i], count * ctypes.sizeof(c_int64))
            return 0
        cb = _lib.RECORDS_FN(fill)
        self._entry_gen[kind] += 1
        self._mutations += 1
        self._check(self._L.iprof_model_map_records(p, kind, cb, None))

    def scale(self, weight: float, kind: EnumLike | None = None, *,
              rounding: EnumLike = Rounding.NEAREST_AWAY) -> None:
        """Multiply the counts of every entry, or of the entries of *kind*,
        by *weight* (finite and >= 0): the count slot of each record (call
        count and sampling: the value; conditional: every third;
        virtual invoke, monitor, instanceof: every second) is multiplied,
        rounded as *rounding* says (an :class:`iprof.Rounding` or its name:
        ``"nearest_away"``, the default, ``"nearest_even"``, ``"floor"``)
        and saturated at the int64 range; whole-number weights are exact.
        Ids, bcis and branch indexes are not touched. A bad weight raises
        :class:`InvalidArgumentError` with the library's message
        (``"weight nan: must be finite and >= 0"``), the model unchanged.
        Invalidates the Entry objects of the kinds scaled."""
        kinds = list(Kind) if kind is None else [Kind.of(kind)]
        rounding = Rounding.of(rounding)
        weight = float(weight)
        p = self._pw()
        for k in kinds:
            self._entry_gen[k] += 1
        self._mutations += 1
        self._check(self._L.iprof_model_scale(p, -1 if kind is None else kinds[0], weight,
                                              rounding))

    def merge(self, other: Model, weight: float = 1.0, *, drop_unknown: bool = False,
              rounding: EnumLike = Rounding.NEAREST_AWAY, threaded: bool = False) -> None:
        """Merge *other* into this model, as ``native-image-configure
        merge-pgo-profiles`` does, its counts multiplied by *weight* (finite,
        >= 0; integral weights are exact). Invalidates this model's Entry
        objects; *other* is only read. Raises
        :class:`DanglingReferenceError`, changing nothing, if *other* has
        unresolved references.

        Unknown top-level keys: this model keeps its own and takes those of
        *other* it lacks when each holds [], {} or a scalar and a key both
        hold has equal values; otherwise the merge raises
        :class:`SchemaError`, changing nothing, with the key in its message,
        unless ``drop_unknown=True`` drops them all. The instanceof spelling
        is this model's, else *other*'s (CAMEL when they disagree).

        *rounding* (an :class:`iprof.Rounding` or its name) rounds the
        scaled counts when *weight* is not a whole number: halves away from
        zero by default, ``"nearest_even"`` or ``"floor"``.

        The format version becomes the highest of the two: *other*'s when
        it is higher, or when this model is a new ``Model()`` whose version
        was never read or set (so merging files one by one into a new
        model gives the highest version among them).

        ``threaded=True`` walks *other* on the calling thread and merges on
        a second C thread (``IPROF_MERGE_THREADED``): the same result,
        sooner for large models.

        A weight that is not finite and >= 0 raises
        :class:`InvalidArgumentError` (a ValueError) with the library's
        message ("weight nan: must be finite and >= 0")."""
        if not isinstance(other, Model):
            raise TypeError("merge() needs a Model, not %s" % type(other).__name__)
        if other is self:
            raise ValueError("cannot merge a model into itself")
        p, q = self._pw(), other._p()
        opts = self._merge_options(weight, drop_unknown, rounding)
        if threaded:
            opts.flags |= _lib.MERGE_THREADED
        self._check(self._L.iprof_model_merge(p, q, byref(opts)))

    def _merge_options(self, weight: float, drop_unknown: bool,
                       rounding: EnumLike) -> _lib.iprof_merge_options:
        """The C merge options; the model's Entry objects are invalidated
        (a merge changes entries)."""
        given: object = weight                    # as called, whatever the annotation says
        if isinstance(given, bool) or not isinstance(given, numbers.Real):
            raise TypeError("weight must be a number, not %s" % type(given).__name__)
        weight = float(given)
        rounding = Rounding.of(rounding)
        opts = _lib.iprof_merge_options()
        check(self._L.iprof_merge_options_init(byref(opts), _lib.MERGE_OPTIONS_VERSION))
        opts.weight = weight
        opts.flags = _lib.MERGE_DROP_UNKNOWN if drop_unknown else 0
        opts.rounding = rounding
        for k in Kind:
            self._entry_gen[k] += 1
        self._mutations += 1
        return opts

    def merge_from(self, source: Source, weight: float = 1.0, *, drop_unknown: bool = False,
                   rounding: EnumLike = Rounding.NEAREST_AWAY, strict: bool = False,
                   check_references: bool = True, chunk_size: int = 0,
                   max_element_size: int = 0, max_depth: int = 0,
                   threaded: bool = False) -> None:
        """Merge the profile in *source* into this model as it is read,
        without loading it as a Model first (C: ``iprof_model_merge_source``): the same result as ``merge(iprof.load(source),
        weight, ...)``, with memory for this model and a few batches only.

        *source*: a path (str or path-like), bytes-like data or a binary
        file object, as for :func:`iprof.load`, whose reader options
        (*strict*, *check_references*, *chunk_size*, *max_element_size*,
        *max_depth*, *threaded*) apply too; ``threaded=True`` reads on the
        calling thread and merges on a second C thread. *weight*,
        *drop_unknown* and *rounding* are :meth:`merge`'s.

        All or nothing: on any failure the model is as it was. A failed
        read raises the reader's :class:`Error` (with ``line``, ``column``,
        ``offset``, ``path`` and ``filename``); a failed merge raises as
        :meth:`merge` does (:class:`DanglingReferenceError` for references
        the input does not define, :class:`SchemaError` ...)."""
        self._pw()
        # The reader first: its options are checked before the merge's
        # invalidate this model's objects.
        with _Reader(threaded=threaded,
                     **_reader_kwargs(strict, check_references, chunk_size, max_element_size,
                                      max_depth, 0)) as r, self._in_use(merge=True) as p:
            src = r.source(source)   # before the merge options invalidate anything
            opts = self._merge_options(weight, drop_unknown, rounding)
            L = r._L
            status = L.iprof_model_merge_source(p, r.ptr, byref(src), byref(opts))
            report = L.iprof_reader_error(r.ptr)
            if status != 0:
                info = _report_info(report) if report else None
                if r.exceptions or (info is not None and info.status == status):
                    r.fail(status, _filename(source), info)
            self._check(status, _filename(source))

    def _invalidate_all(self, contexts: bool) -> None:
        for k in Kind:
            self._entry_gen[k] += 1
        self._type_gen += 1
        self._method_gen += 1
        if contexts:
            self._ctx_gen += 1
        self._mutations += 1

    def canonicalize(self, *, drop_unknown: bool = False) -> None:
        """Rewrite the model into its canonical form (C:
        ``iprof_model_canonicalize``): types sorted by name with ids 0..n-1,
        methods sorted by key (declaring type name, name, signature type
        names) with ids 1..n, entries of each kind sorted by their frames,
        records sorted; duplicates combined (a repeated conditional record
        is kept: GraalVM counts each). Two models of the same profile,
        however numbered and ordered, then write the same bytes.

        Unknown top-level keys holding [], {} or a scalar are kept, after
        every section and sorted by key; ids inside any other value could
        not be renumbered, so such a key raises :class:`SchemaError` (naming
        it) unless ``drop_unknown=True`` drops the unknown keys.

        Every Type, Method, Entry and Context object taken before becomes
        stale (:class:`StaleError`). Raises :class:`DanglingReferenceError`
        or :class:`SchemaError` (leniently loaded models only, or an unknown
        key holding data), leaving the model unchanged."""
        p = self._pw()
        self._invalidate_all(contexts=True)
        flags = _lib.CANONICAL_DROP_UNKNOWN if drop_unknown else 0
        self._check(self._L.iprof_model_canonicalize(p, flags))

    def filter(self, keep_packages: Packages = (), drop_packages: Packages = (),
               min_count: SupportsIndex | None = None, top_percent: float | None = None,
               kinds: EnumLike | Iterable[EnumLike] | None = None,
               max_depth: int | None = None, *,
               keep_frame: Callable[[int, int], object] | None = None,
               keep_entry: Callable[[Entry], object] | None = None,
               keep_method: Callable[[Method], object] | None = None,
               keep_type: Callable[[Type], object] | None = None) -> None:
        """Keep what the criteria and predicates accept; the rest goes
        (C: ``iprof_model_filter``). In this order:

        *kinds*: an iterable of kinds (:class:`Kind`, number, name or JSON
        key) whose entries are kept; None keeps every kind.
        *keep_frame*: ``keep_frame(method_id, bci)``; an entry with a refused
        frame anywhere in its context, as the callee or as a caller, goes
        (monitor entries show their dummy frame ``(0, 0)``).
        *keep_entry*: ``keep_entry(entry)`` (an :class:`Entry` of any kind;
        ``entry.kind`` says which); a refused entry goes.
        *keep_packages* / *drop_packages*: package names ("com.foo" matches
        "com.foo.Bar", not "com.foobar.X"; a trailing "." is ignored); a
        method is in the package decided for the declaring type of its
        signature, the longest matching package deciding (drop on a tie).
        Dropped packages are gone from the file: an entry goes when any
        frame of its context, callee or caller, is a method of a dropped
        package, and so do those methods, then the types of dropped
        packages that no remaining method signature or record names (those
        stay: they would dangle). Keep packages judge the callee
        frame only: with keep packages an entry goes unless its callee is a
        method of a kept package (its callers stay). Monitor entries and
        frames of unknown methods are not judged.
        *min_count*: drop entries whose total count is below it.
        *top_percent*: per kind, keep the hottest entries that make this
        percentage of the kind's count mass (ties kept together).
        *max_depth*: then cut every context to its *max_depth* innermost
        frames, combining the entries of a kind that then coincide.
        *keep_method*: ``keep_method(method)``; a refused method goes (its
        entries are not touched). *keep_type*: ``keep_type(type)``; a
        refused type goes.
        Everything the options do not name stays, whether anything refers
        to it or not (no options: the model is unchanged); :meth:`prune`
        afterwards removes the unreferenced. Ids are not changed.

        The predicates run first, on the unchanged model: each once per
        distinct frame of the entries of the kept kinds, per entry of those
        kinds, per method and per type, before anything changes, so they
        may read anything and an exception from one leaves the model as it
        was; they must not change the model (:class:`StaleError`).

        Every Type, Method and Entry object taken before becomes stale
        (Contexts stay valid). Raises :class:`InvalidArgumentError` for a
        negative or NaN *top_percent*, leaving the model unchanged."""
        L = self._L
        opts = _lib.iprof_filter_options()
        check(L.iprof_filter_options_init(byref(opts), _lib.FILTER_OPTIONS_VERSION))
        mask = 0
        if kinds is not None:
            if isinstance(kinds, (str, int, Kind)):
                kinds = [kinds]
            for k in kinds:
                mask |= 1 << Kind.of(k)
            if not mask:
                raise ValueError("kinds must name at least one kind (None keeps every kind)")
            opts.kinds = mask
        keep = _package_array(keep_packages, "keep_packages")
        drop = _package_array(drop_packages, "drop_packages")
        opts.keep_packages, opts.keep_package_count = keep
        opts.drop_packages, opts.drop_package_count = drop
        if min_count is not None:
            opts.min_count = int64(min_count, "min_count")
        if top_percent is not None:
            opts.top_percent = float(top_percent)
        if max_depth is not None:
            opts.max_depth = size_t(max_depth, "max_depth")
        p = self._pw()
        preds = self._filter_predicates(p, [k for k in Kind if not mask or mask >> k & 1],
                                        keep_frame, keep_entry, keep_method, keep_type)
        for field, fn in preds.items():
            setattr(opts, field, fn)
        self._invalidate_all(contexts=False)
        self._check(L.iprof_model_filter(p, byref(opts)))
        del preds   # the C callbacks live until here

    def _filter_predicates(self, p: int, kinds: list[Kind],
                           keep_frame: Callable[[int, int], object] | None,
                           keep_entry: Callable[[Entry], object] | None,
                           keep_method: Callable[[Method], object] | None,
                           keep_type: Callable[[Type], object] | None) -> dict[str, Any]:
        """The C predicates of :meth:`filter`, by options field: each Python
        predicate is asked here, on the unchanged model, and its verdicts
        are kept by what stays true while the filter runs (frames, an
        entry's kind and interned context, ids), not by element pointers."""
        L = self._L
        before = (self._gens(), self._ptr)

        def unchanged() -> None:
            if (self._gens(), self._ptr) != before:
                raise StaleError("the model changed inside a filter predicate")
        out: dict[str, Any] = {}
        if keep_frame is not None:
            verdict: dict[tuple[int, int], bool] = {}
            seen: set[int] = set()
            for k in kinds:
                for i in range(L.iprof_model_entry_count(p, k)):
                    # Contexts are interned and share their callers: walk
                    # each node once.
                    ctx = L.iprof_entry_context(L.iprof_model_entry_at(p, k, i))
                    while ctx and ctx not in seen:
                        seen.add(ctx)
                        frame = (L.iprof_context_method_id(ctx), L.iprof_context_bci(ctx))
                        if frame not in verdict:
                            verdict[frame] = bool(keep_frame(*frame))
                            unchanged()
                        ctx = L.iprof_context_caller(ctx)
            out["keep_frame"] = _lib.FRAME_PRED(
                lambda mid, bci, _x: 1 if verdict.get((mid, bci), True) else 0)
        if keep_entry is not None:
            kept_entries: set[tuple[int, int]] = set()
            for k in kinds:
                for e in list(Entries(self, k)):
                    ctx = L.iprof_entry_context(e._ptr)   # before the predicate runs
                    if keep_entry(e):
                        kept_entries.add((k, ctx))
                    unchanged()
            out["keep_entry"] = _lib.MODEL_ENTRY_PRED(
                lambda e, _x: 1 if (L.iprof_entry_kind(e), L.iprof_entry_context(e))
                in kept_entries else 0)
        if keep_method is not None:
            kept_methods: set[int] = set()
            for m in list(Methods(self)):
                mid = m.id
                if keep_method(m):
                    kept_methods.add(mid)
                unchanged()
            out["keep_method"] = _lib.MODEL_METHOD_PRED(
                lambda m, _x: 1 if L.iprof_method_id(m) in kept_methods else 0)
        if keep_type is not None:
            kept_types: set[int] = set()
            for t in list(Types(self)):
                tid = t.id
                if keep_type(t):
                    kept_types.add(tid)
                unchanged()
            out["keep_type"] = _lib.MODEL_TYPE_PRED(
                lambda t, _x: 1 if L.iprof_type_id(t) in kept_types else 0)
        return out

    def prune(self, *, methods: bool | None = None, types: bool | None = None,
              dangling: bool = False) -> dict[str, int]:
        """Remove what the references make useless (C: ``iprof_model_prune``)
        and return how many of each went: a dict ``{"methods": n, "types": n,
        "callCountProfiles": n, ...}`` (every kind's JSON key), each the count
        before minus the count after.

        *dangling* (IPROF_PRUNE_DANGLING), first: the methods whose signature
        names an undefined type, then the entries whose context names an
        undefined method or whose records name an undefined type.
        *methods* (IPROF_PRUNE_METHODS): the methods no entry mentions in any
        frame; *types* (IPROF_PRUNE_TYPES): the types no method signature and
        no record (virtual invoke, monitor, instanceof type ids) mentions;
        methods before types, so that types only they used go too. Nothing
        unreferenced is removed while the model keeps an unknown top-level
        key that may hold ids (anything but [], {} or a scalar); that rule
        does not hold back *dangling*.

        *methods* and *types* default to True unless ``dangling=True`` is
        given, so ``prune()`` removes the unreferenced and
        ``prune(dangling=True)`` only what dangles (name ``methods=True``,
        ``types=True`` with it for both). Ids are not changed. Invalidates
        the Method objects when methods or dangling ones are pruned, the Type
        objects when types are, and every Entry object with *dangling*."""
        if methods is None:
            methods = not dangling
        if types is None:
            types = not dangling
        what = ((_lib.PRUNE_METHODS if methods else 0) | (_lib.PRUNE_TYPES if types else 0)
                | (_lib.PRUNE_DANGLING if dangling else 0))
        p = self._pw()
        before = self._prune_counts(p)
        if methods or dangling:
            self._method_gen += 1
        if types:
            self._type_gen += 1
        if dangling:
            for k in Kind:
                self._entry_gen[k] += 1
        self._mutations += 1
        self._check(self._L.iprof_model_prune(p, what))
        after = self._prune_counts(p)
        return {key: before[key] - after[key] for key in before}

    def _prune_counts(self, p: int) -> dict[str, int]:
        L = self._L
        counts = {"methods": L.iprof_model_method_count(p), "types": L.iprof_model_type_count(p)}
        for k in Kind:
            counts[k.json_key] = L.iprof_model_entry_count(p, k)
        return counts

    def _own(self, obj: _Owned, cls: type[_Owned]) -> _Owned:
        if obj._model is not self:
            raise ValueError("that %s belongs to another model" % cls.__name__)
        return obj

    # -- writing -------------------------------------------------------------

    @overload
    def write(self, target: None = None, *, version: str | None = None, pretty: bool = False,
              drop_instanceof: bool = False, validate: bool = True,
              sync: bool = True, buffer_size: int = 0, gzip: bool = False,
              instanceof_key: EnumLike | None = None, check_references: bool = True,
              canonical: bool = False, threaded: bool = False,
              drop_unknown: bool = False) -> bytes: ...

    @overload
    def write(self, target: str | os.PathLike[str] | IO[bytes], *, version: str | None = None,
              pretty: bool = False, drop_instanceof: bool = False,
              validate: bool = True, sync: bool = True, buffer_size: int = 0,
              gzip: bool = False, instanceof_key: EnumLike | None = None,
              check_references: bool = True, canonical: bool = False,
              threaded: bool = False, drop_unknown: bool = False) -> None: ...

    def write(self, target: str | os.PathLike[str] | IO[bytes] | None = None, *,
              version: str | None = None, pretty: bool = False, drop_instanceof: bool = False,
              validate: bool = True, sync: bool = True,
              buffer_size: int = 0, gzip: bool = False, instanceof_key: EnumLike | None = None,
              check_references: bool = True, canonical: bool = False,
              threaded: bool = False, drop_unknown: bool = False) -> bytes | None:
        """Write the model.

        *target*: None returns the document as bytes; a path (str or
        path-like) is written atomically; a binary file object gets the
        bytes through its ``write``. *version* is the target format version
        (default: the model's). *pretty* indents; *drop_instanceof* drops
        instanceof entries for versions before 1.1.0. By default the writer
        refuses what a strict read refuses: entries breaking their kind's
        rules, references to ids not written, repeated ids, signatures
        without declaring and return types (a model that a clean load or
        checked edits vouch for is not checked again);
        ``check_references=False`` (IPROF_WRITE_NO_REFERENCES) checks the
        entry rules only, ``validate=False`` nothing (to copy a leniently
        loaded file as it is);
        ``sync=False`` skips fsync for paths; ``gzip=True`` compresses the
        output (a path ending in ".gz" is always compressed; see
        :func:`iprof.gzip_supported`). *instanceof_key* spells the instanceof
        section's key: "instanceof" ("instanceofProfiles", the document's),
        "instanceOf" ("instanceOfProfiles", GraalVM's) or None, the model's
        own (:attr:`instanceof_key`), else GraalVM's. The model's unknown
        top-level keys go back where its file had them.
        ``canonical=True`` (IPROF_WRITE_CANONICAL) writes the model's
        canonical form, the bytes :meth:`canonicalize` and a write would
        give, without changing the model (raising as :meth:`canonicalize`
        does when it has none); with ``threaded=True``
        (IPROF_WRITE_THREADED) it sorts and formats on a second thread, for the same
        bytes in less time. A model whose input held keys in its types,
        methods or entries that the library does not read
        (:attr:`unread_count`) raises :class:`iprof.SchemaError`, as writing
        would lose them, unless ``drop_unknown=True``
        (IPROF_WRITE_DROP_UNKNOWN) writes without them.
        """
        from ._writer import Writer
        with Writer(target, version=version, pretty=pretty, drop_instanceof=drop_instanceof,
                    validate=validate, sync=sync, buffer_size=buffer_size,
                    gzip=gzip, instanceof_key=instanceof_key,
                    check_references=check_references, canonical=canonical,
                    threaded=threaded, drop_unknown=drop_unknown) as w:
            w.write_model(self)
            return w.getvalue() if target is None else None


def package_matches(package: str | bytes, type_name: str | bytes | Type) -> bool:
    """Whether a type is in a package, as :meth:`Model.filter` matches them
    (C: ``iprof_package_matches``): *package* matches a type named
    *package* or starting with it followed by "." ("com.foo" matches
    "com.foo.Bar" and "com.foo.impl.Baz$1", not "com.foobar.X" or
    "com.foo$X"); a trailing "." of *package* is ignored and the empty
    package matches every type. *type_name* is a str, bytes or a
    :class:`Type`. A package containing a NUL byte matches nothing."""
    if isinstance(type_name, Type):
        type_name = type_name.name
    pkg, name = encode(package), encode(type_name)
    if b"\0" in pkg:
        return False
    return bool(_lib.lib().iprof_package_matches(pkg, name, len(name)))


def _package_array(packages: Packages,
                   what: str) -> tuple[ctypes.Array[ctypes.c_char_p] | None, int]:
    """A ctypes array of NUL-terminated package names and its length (the
    array, holding the bytes, must live for the C call)."""
    if isinstance(packages, (str, bytes)):
        packages = [packages]
    names: list[bytes] = []
    for name in packages:
        b = encode(name)
        if b"\0" in b:
            raise ValueError("%s: a package name contains a NUL byte" % what)
        names.append(b)
    if not names:
        return None, 0
    return (ctypes.c_char_p * len(names))(*names), len(names)


def load(source: Source, *, strict: bool = False, check_references: bool = True,
         chunk_size: int = 0, max_element_size: int = 0, max_depth: int = 0,
         max_diagnostics: SupportsIndex | None = 0, threaded: bool = False,
         salvage: bool = False) -> Model:
    """Load a profile into a :class:`Model`.

    *source*: a path (str or path-like), bytes-like data (the document
    itself) or a binary file object. *strict* fails on the first rule
    violation instead of recording it in ``model.diagnostics``.
    ``threaded=True`` (IPROF_READ_THREADED) builds the model on a second C
    thread while the calling thread reads, which makes loads of large files
    faster. The model and its diagnostics are the same either way, and a
    file object's ``read`` is still called on the calling thread only.
    *max_diagnostics* is how many diagnostics the load keeps (0: the
    library's default, 10000; None: all); the rest are only counted, in
    ``model.diagnostics_dropped``. *chunk_size*, *max_element_size* and
    *max_depth* are the other reader options (0: default).
    ``salvage=True`` (IPROF_READ_SALVAGE) loads a damaged file: on a
    syntax error, truncation or refused element after the version, the
    model keeps every element complete before it, and ``model.damage``
    says where (see :func:`repair`).
    Raises :class:`Error` (with ``status``, ``message``, ``line``,
    ``column``, ``offset``, ``path`` and ``filename``) when the load fails.
    """
    with _Reader(threaded=threaded, salvage=salvage,
                 **_reader_kwargs(strict, check_references, chunk_size, max_element_size,
                                  max_depth, max_diagnostics)) as r:
        L = r._L
        src = r.source(source)
        out = c_void_p()
        status = L.iprof_model_load(byref(out), r.ptr, byref(src))
        if status != 0:
            if out.value:   # defensive: the C API promises NULL on failure
                L.iprof_model_free(out.value)
            r.fail(status, _filename(source))
        assert out.value is not None   # the C API sets it on success
        res = r.result()
        model = Model._adopt(out.value, r.diagnostics(res), r.dropped(res))
        if salvage:
            model._damage = r.damage(res)
            model._kept_end = res.kept_end
        return model


class Repair(NamedTuple):
    """What :func:`repair` returns: the salvaged model (close it), the
    damage (a :class:`Diagnostic`, None if the input was intact), the
    offset just past the last complete element kept, and what was dropped
    as dangling (the dict of :meth:`Model.prune` with ``dangling=True``)."""
    model: "Model"
    damage: Diagnostic | None
    kept_end: int
    dropped: dict[str, int]


def repair(source: Source, *, threaded: bool = False) -> Repair:
    """Salvage a damaged profile, as ``iprof repair`` does: load *source*
    strictly with ``salvage=True``, so that everything complete before the
    damage is kept (the first rule violation counts as damage), then prune
    what dangles; the model then writes strictly. Raises :class:`Error`
    when nothing can be salvaged (the damage comes before the version)."""
    model = load(source, strict=True, salvage=True, threaded=threaded)
    try:
        dropped = model.prune(dangling=True)
    except BaseException:
        model.close()
        raise
    assert model.kept_end is not None   # set by a salvaging load
    return Repair(model, model.damage, model.kept_end, dropped)


__all__ = ["Type", "Method", "Context", "Entry", "Types", "Methods", "Entries", "Model",
           "load", "package_matches", "repair", "Repair"]

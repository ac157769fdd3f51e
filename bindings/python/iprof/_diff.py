"""Comparing two models: iprof.diff() and the Diff result."""
from __future__ import annotations

import collections
import math
from ctypes import byref, c_void_p
from typing import Any, SupportsIndex

from ._common import EnumLike

from . import _lib
from ._common import Kind, size_t
from ._errors import ClosedError, StaleError, check
from ._model import Method, Model, _snprintf

#: Model A (the first model given to :func:`diff`).
A = "a"
#: Model B (the second model given to :func:`diff`).
B = "b"


class Change(collections.namedtuple(
        "Change", "context count_a count_b share_a share_b delta relative")):
    """One of the entries of a kind that changed most between A and B.

    ``context``: the readable context text ("Fib.fibonacci:11 < Fib.main:9",
    from model A, or from B when A lacks the entry); ``count_a`` /
    ``count_b``: the entry's count on each side (0 on a side that lacks it);
    ``share_a`` / ``share_b``: count / total of the kind on that side;
    ``delta``: share_b - share_a (never 0); ``relative``: delta / share_a,
    None when share_a is 0 (an infinite change: the entry is new in B).
    """
    __slots__ = ()


def _side(side: str | int) -> int:
    if isinstance(side, str) and side.lower() in ("a", "b"):
        return _lib.DIFF_A if side.lower() == "a" else _lib.DIFF_B
    if side in (_lib.DIFF_A, _lib.DIFF_B) and not isinstance(side, bool):
        return int(side)
    raise ValueError("side must be 'a' or 'b', not %r" % (side,))


class Diff:
    """The comparison of model A with model B (C: ``iprof_diff``).

    Made by :func:`diff`. It owns the C result and keeps both models alive;
    it reads them lazily, so it raises :class:`ClosedError` once it or
    either model is closed and :class:`StaleError` once either model has
    changed since the comparison (the C result must not outlive a change).
    Use it as a context manager, or call :meth:`close`, to free the C
    result deterministically (garbage collection frees it too). Lists and
    :class:`Change` records it returns are copies and stay usable;
    :class:`iprof.Method` objects belong to their model.

    Matching is by names, never by ids: methods by their key (name and
    signature type names), contexts frame by frame by bci and matching
    method, entries of a kind by context. A *side* argument is ``"a"`` or
    ``"b"`` (or 0 / 1, the C values).
    """

    def __init__(self, a: Model, b: Model, top: SupportsIndex = _lib.DIFF_DEFAULT_TOP) -> None:
        if not isinstance(a, Model) or not isinstance(b, Model):
            raise TypeError("diff() needs two Models, not %s and %s"
                            % (type(a).__name__, type(b).__name__))
        self._ptr: int | None = None
        self._L = L = _lib.lib()
        top = size_t(top, "top", 1)
        opts = _lib.iprof_diff_options()
        check(L.iprof_diff_options_init(byref(opts), _lib.DIFF_OPTIONS_VERSION))
        opts.top = top
        pa, pb = a._p(), b._p()
        out = c_void_p()
        check(L.iprof_diff_new(byref(out), pa, pb, byref(opts)))
        self._ptr = out.value
        self._models = (a, b)
        self._seen = (a._mutations, b._mutations)
        self.top = top

    @property
    def a(self) -> Model:
        """Model A."""
        return self._models[0]

    @property
    def b(self) -> Model:
        """Model B."""
        return self._models[1]

    def _p(self) -> int:
        p = self._ptr
        if p is None:
            raise ClosedError("the diff is closed")
        a, b = self._models
        a._p()
        b._p()
        if (a._mutations, b._mutations) != self._seen:
            raise StaleError("a model changed after the diff was made; compare them again")
        return p

    # -- lifetime ------------------------------------------------------------

    def close(self) -> None:
        """Free the C result (the models stay open). Closing twice is a no-op."""
        p = getattr(self, "_ptr", None)
        if p is not None:
            self._ptr = None
            self._L.iprof_diff_free(p)

    @property
    def closed(self) -> bool:
        return self._ptr is None

    def __enter__(self) -> Diff:
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
            return "<iprof.Diff (closed)>"
        try:
            return "<iprof.Diff: %d methods in common, %d only in A, %d only in B>" % (
                self.methods_in_common, len(self.methods_only_in_a),
                len(self.methods_only_in_b))
        except (ClosedError, StaleError):
            return "<iprof.Diff (unusable)>"

    # -- the C results, one struct per call --------------------------------------

    def _summary(self) -> _lib.iprof_diff_summary:
        out = _lib.iprof_diff_summary()
        out.version = _lib.DIFF_SUMMARY_VERSION
        check(self._L.iprof_diff_get_summary(self._p(), byref(out)))
        return out

    def _kind(self, kind: EnumLike) -> _lib.iprof_diff_kind_summary:
        out = _lib.iprof_diff_kind_summary()
        out.version = _lib.DIFF_KIND_SUMMARY_VERSION
        check(self._L.iprof_diff_get_kind(self._p(), Kind.of(kind), byref(out)))
        return out

    # -- methods -------------------------------------------------------------

    def _methods_only(self, side: int) -> list[Method]:
        n = self._summary().method_only_count[side]
        p = self._p()
        L = self._L
        model = self._models[side]
        return [Method(model, L.iprof_diff_method_only_at(p, side, i)) for i in range(n)]

    @property
    def methods_only_in_a(self) -> list[Method]:
        """A's methods whose key B lacks: a list of :class:`iprof.Method` of
        model A, in A's file order."""
        return self._methods_only(_lib.DIFF_A)

    @property
    def methods_only_in_b(self) -> list[Method]:
        """B's methods whose key A lacks: a list of :class:`iprof.Method` of
        model B, in B's file order."""
        return self._methods_only(_lib.DIFF_B)

    @property
    def methods_in_common(self) -> int:
        """The number of A's methods whose key B has."""
        return int(self._summary().method_common_count[_lib.DIFF_A])

    @property
    def methods_in_common_b(self) -> int:
        """The number of B's methods whose key A has (differs from
        :attr:`methods_in_common` only when a side repeats a key)."""
        return int(self._summary().method_common_count[_lib.DIFF_B])

    # -- contexts and count mass per kind ------------------------------------

    def contexts_only_in_a(self, kind: EnumLike) -> int:
        """The number of A's entries of *kind* whose context B has no entry
        of *kind* for."""
        return int(self._kind(kind).context_only_count[_lib.DIFF_A])

    def contexts_only_in_b(self, kind: EnumLike) -> int:
        """The number of B's entries of *kind* whose context A lacks."""
        return int(self._kind(kind).context_only_count[_lib.DIFF_B])

    def contexts_in_common(self, kind: EnumLike, side: str | int = A) -> int:
        """The number of *side*'s entries of *kind* whose context the other
        side also has an entry of *kind* for."""
        side = _side(side)
        return int(self._kind(kind).context_common_count[side])

    def total(self, kind: EnumLike, side: str | int = A) -> int:
        """The sum of the counts of *side*'s entries of *kind*."""
        side = _side(side)
        return int(self._kind(kind).total[side])

    def common_total(self, kind: EnumLike, side: str | int = A) -> int:
        """The sum of the counts of *side*'s entries of *kind* whose context
        the other side also has."""
        side = _side(side)
        return int(self._kind(kind).common_total[side])

    def overlap(self, kind: EnumLike, side: str | int = A) -> float | None:
        """common_total / total: the share of *side*'s count mass of *kind*
        that the other side also has, in 0 .. 1; None when *side* has no
        count mass of *kind* (the share is undefined)."""
        side = _side(side)
        v = float(self._kind(kind).overlap[side])
        return None if v < 0 else v

    # -- staleness -------------------------------------------------------------

    @property
    def staleness(self) -> float:
        """How far B's hot behaviour moved from A's, in 0 .. 1 (C:
        ``iprof_diff_summary.staleness``): 0 when both tell GraalVM the same
        (hotness, branch probabilities, receiver-type shares), 1 when they
        have nothing in common; the mean of :meth:`kind_staleness` over the
        kinds where it is defined. Symmetric. ``include/iprof/diff.h`` gives
        the formula. A CI gate fails when it is above a threshold."""
        return float(self._summary().staleness)

    def kind_staleness(self, kind: EnumLike) -> float | None:
        """The part of :attr:`staleness` of *kind*, in 0 .. 1 (C:
        ``iprof_diff_kind_summary.staleness``); None when neither side has
        count mass of *kind*."""
        v = float(self._kind(kind).staleness)
        return None if v < 0 else v

    # -- changes ---------------------------------------------------------------

    def changes(self, kind: EnumLike) -> list[Change]:
        """The entries of *kind* that changed most, biggest ``|delta|``
        first (at most ``top``): a list of :class:`Change`."""
        kind = Kind.of(kind)
        n = self._kind(kind).change_count
        p = self._p()
        L = self._L
        out = []
        c = _lib.iprof_diff_change()
        for i in range(n):
            c.version = _lib.DIFF_CHANGE_VERSION
            check(L.iprof_diff_get_change(p, kind, i, byref(c)))
            # The context text from A's model, else from B's (the side that
            # has the entry), as `iprof diff` prints it.
            side = _lib.DIFF_A if c.entry[_lib.DIFF_A] else _lib.DIFF_B
            model = self._models[side]._p()
            ctx = L.iprof_entry_context(c.entry[side])
            rel = c.relative
            out.append(Change(
                _snprintf(L.iprof_model_context_describe, model, ctx),
                c.value[_lib.DIFF_A], c.value[_lib.DIFF_B],
                c.share[_lib.DIFF_A], c.share[_lib.DIFF_B], c.delta,
                None if math.isinf(rel) else rel))
        return out


def diff(a: Model, b: Model, top: SupportsIndex = _lib.DIFF_DEFAULT_TOP) -> Diff:
    """Compare model *a* with model *b* (C: ``iprof_diff_new``) and return a
    :class:`Diff`; *top* is the number of changed entries kept per kind
    (default 10). Both models must be open (:class:`ClosedError`); they
    may be the same model."""
    return Diff(a, b, top)


__all__ = ["Diff", "Change", "diff"]

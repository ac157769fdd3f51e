"""Profile kinds, contexts as text, and argument conversion helpers."""
from __future__ import annotations

import ctypes
import enum
import operator
import os
import re
from typing import (TYPE_CHECKING, Any, Iterable, Mapping, SupportsIndex, Tuple, TypeGuard,
                    TypeVar, Union)

if TYPE_CHECKING:
    from ._model import Context

_E = TypeVar("_E", bound=enum.IntEnum)
#: What stands for an enum member in arguments: the member, its int, a name
#: or a JSON key / spelling.
EnumLike = Union[int, str]
#: Frames as arguments: ctx text ("5:0<3:2"), a :class:`iprof.Context`
#: (anything with ``frames``), or (method id, bci) pairs, callee first.
FramesLike = Union[str, "Context", Iterable[Tuple[int, int]]]

from . import _errors

INT64_MIN = -(1 << 63)
INT64_MAX = (1 << 63) - 1

#: Format versions the library knows. 0.2.0 is GraalVM's legacy layout
#: (hotnessPoints, conditionalPoints, invokePoints, monitorsProfile), read
#: into the same model and written back in its own layout.
FORMAT_0_2_0 = "0.2.0"
FORMAT_0_4_0 = "0.4.0"
FORMAT_1_0_0 = "1.0.0"
FORMAT_1_1_0 = "1.1.0"
FORMAT_LATEST = FORMAT_1_1_0

#: GraalVM's EXTREMELY_SLOW_PATH_PROBABILITY (1 - 0.999999): the probability
#: a branch that never ran is given instead of 0, and the share left for the
#: receiver types a profile did not record (C:
#: ``IPROF_EXTREMELY_SLOW_PATH_PROBABILITY``).
EXTREMELY_SLOW_PATH_PROBABILITY = 1.0 - 0.999999
#: The bci GraalVM writes for switch cases that share their target with
#: another case: such a record adds its count to its index and gets no
#: probability of its own (C: ``IPROF_INVALID_BRANCH_BCI``).
INVALID_BRANCH_BCI = -5

_JSON_KEYS = ("callCountProfiles", "conditionalProfiles", "virtualInvokeProfiles",
              "monitorProfiles", "samplingProfiles", "instanceofProfiles")
# Kind.of: every JSON key, GraalVM 25's "instanceOfProfiles" too.
_KIND_KEYS = dict({k: i for i, k in enumerate(_JSON_KEYS)}, instanceOfProfiles=5)
_INSTANCEOF_KEYS = (None, "instanceofProfiles", "instanceOfProfiles")
# InstanceofKey.of: the keys and their short forms.
_SPELLINGS = {"instanceof": 1, "instanceofProfiles": 1, "instanceOf": 2, "instanceOfProfiles": 2}


def _member(cls: type[_E], value: EnumLike, keys: Mapping[str, int], what: str) -> _E:
    """A member of the IntEnum *cls* from a member, an int, a name
    ("call_count", "CALL_COUNT") or a string of *keys* (str -> value)."""
    if isinstance(value, cls):
        return value
    if isinstance(value, str):
        if value in keys:
            return cls(keys[value])
        try:
            return cls[value.upper()]
        except KeyError:
            raise ValueError("unknown %s %r" % (what, value)) from None
    try:
        return cls(operator.index(value))
    except (TypeError, ValueError):
        raise ValueError("unknown %s %r" % (what, value)) from None


class Kind(enum.IntEnum):
    """The six profile kinds (``enum iprof_kind``), in the library's numbering."""
    CALL_COUNT = 0      #: callCountProfiles: [count]
    CONDITIONAL = 1     #: conditionalProfiles: [bci, index, count]*
    VIRTUAL_INVOKE = 2  #: virtualInvokeProfiles: [type id, count]*
    MONITOR = 3         #: monitorProfiles: ctx "0:0", [type id, count]*
    SAMPLING = 4        #: samplingProfiles: [count]
    INSTANCEOF = 5      #: instanceofProfiles or instanceOfProfiles (1.1.0): [type id, count]*

    @property
    def json_key(self) -> str:
        """The JSON key of the kind's section ("callCountProfiles"; the
        document's "instanceofProfiles" for INSTANCEOF)."""
        return _JSON_KEYS[self]

    @property
    def attribute(self) -> str:
        """The name of the :class:`iprof.Model` attribute ("call_count")."""
        return self.name.lower()

    @classmethod
    def of(cls, value: EnumLike) -> Kind:
        """A Kind from a Kind, an int, a name ("call_count", "CALL_COUNT") or a
        JSON key ("callCountProfiles", either instanceof spelling). Raises
        ValueError otherwise."""
        return _member(cls, value, _KIND_KEYS, "profile kind")


class InstanceofKey(enum.IntEnum):
    """The spelling of the instanceof section's key (``enum
    iprof_instanceof_key``). The published document says
    "instanceofProfiles", GraalVM 25 writes and reads "instanceOfProfiles".
    A loaded model remembers the one its file used
    (:attr:`iprof.Model.instanceof_key`); the ``instanceof_key`` write
    option chooses what is written."""
    AUTO = 0   #: no choice: the model's spelling, else GraalVM's "instanceOfProfiles"
    LOWER = 1  #: "instanceofProfiles", the document's spelling
    CAMEL = 2  #: "instanceOfProfiles", GraalVM's spelling

    @property
    def json_key(self) -> str | None:
        """The JSON key ("instanceOfProfiles"), None for AUTO."""
        return _INSTANCEOF_KEYS[self]

    @classmethod
    def of(cls, value: EnumLike | None) -> InstanceofKey:
        """An InstanceofKey from an InstanceofKey, an int, None (AUTO), a
        spelling ("instanceof", "instanceOf"), a JSON key
        ("instanceOfProfiles") or a name ("lower", "CAMEL"). Raises
        ValueError otherwise."""
        return cls.AUTO if value is None else _member(cls, value, _SPELLINGS,
                                                      "instanceof key spelling")


class Rounding(enum.IntEnum):
    """How a count multiplied by a weight that is not a whole number is
    rounded to an integer (``enum iprof_rounding``): by
    :meth:`iprof.Model.scale` and :meth:`iprof.Model.merge`. Whole-number
    weights are exact; results saturate at the int64 range."""
    NEAREST_AWAY = 0  #: to the nearest, halves away from zero (the default)
    NEAREST_EVEN = 1  #: to the nearest, halves to even
    FLOOR = 2         #: down, towards negative infinity

    @classmethod
    def of(cls, value: EnumLike) -> Rounding:
        """A Rounding from a Rounding, an int or a name ("floor",
        "NEAREST_EVEN"). Raises ValueError otherwise."""
        return _member(cls, value, {}, "rounding")


class Section(enum.IntEnum):
    """What a top-level key is, when it is not a profile section (``enum
    iprof_section``): ``on_key`` callbacks receive a :class:`Kind` for
    those and a Section for the rest."""
    TYPES = 6    #: "types"
    METHODS = 7  #: "methods"
    VERSION = 8  #: "version"
    UNKNOWN = 9  #: a key the library does not know


def section_of(value: int) -> Kind | Section:
    """The :class:`Kind` or :class:`Section` of a C section number."""
    return Kind(value) if value < len(Kind) else Section(value)


_CTX_FRAME = re.compile(r"\A([0-9]+):(-?[0-9]+)\Z")


def parse_ctx(text: str) -> list[tuple[int, int]]:
    """Parse ctx text ("5:0<3:2") into frames [(5, 0), (3, 2)], callee first.

    Raises ValueError for text that is not ``id:bci`` frames joined by ``<``.
    """
    frames = []
    for part in text.split("<"):
        m = _CTX_FRAME.match(part)
        if not m:
            raise ValueError("malformed ctx %r" % text)
        frames.append((int(m.group(1)), int(m.group(2))))
    return frames


def format_ctx(frames: Iterable[tuple[int, int]]) -> str:
    """The ctx text of frames: [(5, 0), (3, 2)] gives "5:0<3:2"."""
    return "<".join("%d:%d" % (m, b) for m, b in frames)


def int64(value: SupportsIndex, what: str) -> int:
    v = operator.index(value)
    if not INT64_MIN <= v <= INT64_MAX:
        raise _errors.LimitError(_errors.Status.ELIMIT,
                                 "%s %d is out of the int64 range" % (what, v))
    return v


SIZE_MAX = ctypes.c_size_t(-1).value


def size_t(value: SupportsIndex, what: str, minimum: int = 0) -> int:
    """A C size_t option, refused (ValueError) below *minimum* or above
    SIZE_MAX: ctypes would wrap it silently (2**64 + 1 would become 1)."""
    v = operator.index(value)
    if not minimum <= v <= SIZE_MAX:
        raise ValueError("%s must be between %d and %d, not %d" % (what, minimum, SIZE_MAX, v))
    return v


def int64_array(values: Iterable[SupportsIndex],
                what: str = "value") -> tuple[ctypes.Array[ctypes.c_int64], int]:
    """A ctypes int64 array of *values* (range-checked) and its length."""
    vals = [int64(v, what) for v in values]
    return (ctypes.c_int64 * len(vals))(*vals), len(vals)


def frames_array(frames: FramesLike) -> tuple[ctypes.Array[ctypes.c_int64], int]:
    """Interleaved (method id, bci) int64 array and frame count from ctx text,
    a Context, or a sequence of (method id, bci) pairs."""
    if isinstance(frames, str):
        frames = parse_ctx(frames)
    elif hasattr(frames, "frames") and not isinstance(frames, (list, tuple)):
        frames = list(frames.frames)
    flat = []
    for pair in frames:
        mid, bci = pair
        flat.append(int64(mid, "method id"))
        flat.append(int64(bci, "bci"))
    return (ctypes.c_int64 * len(flat))(*flat), len(flat) // 2


def frames_from(ptr: Any, count: int) -> list[tuple[int, int]]:
    """[(method id, bci), ...] from an interleaved C array of *count* frames."""
    flat = ptr[:2 * count] if count else []
    return list(zip(flat[0::2], flat[1::2]))


def encode(name: str | bytes | bytearray) -> bytes:
    """UTF-8 bytes of a name (str, or bytes as is)."""
    if isinstance(name, (bytes, bytearray)):
        return bytes(name)
    return name.encode("utf-8", "surrogateescape")


def decode(data: bytes) -> str:
    return data.decode("utf-8", "surrogateescape")


def is_path(source: object) -> TypeGuard[str | os.PathLike[str]]:
    return isinstance(source, (str, os.PathLike))


def is_bytes(source: object) -> TypeGuard[bytes | bytearray | memoryview]:
    return isinstance(source, (bytes, bytearray, memoryview))

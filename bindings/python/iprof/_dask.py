"""Merging many profiles on a Dask cluster: iprof.dask_merge().

A merge is associative and commutative on integer counts, so merging N
files is a tree reduction. Each leaf task streams a partition of the inputs
into a new model with the C library (Model.merge_from, each with its weight)
and hands the result up as gzip-compressed canonical bytes
(Model.write(canonical=True)); each inner task merges up to *fan_in* of
those the same way (weight 1) and hands up the same kind of bytes; the root
writes the final document. The bytes are those of ``iprof merge`` of the same files.

Dask itself (Debian's python3-dask, and python3-distributed for a cluster)
is imported only when :func:`dask_merge` runs: ``import iprof`` never needs
it. The workers need the ``iprof`` package and libiprof too, and must see
the input paths (a shared file system on a real cluster).
"""
from __future__ import annotations

import errno
import gzip as gzip_module
import math
import os
import stat
import sys
import uuid
from types import ModuleType
from typing import TYPE_CHECKING, Any, FrozenSet, Iterable, Sequence, Tuple, Union

from ._common import FORMAT_LATEST, InstanceofKey
from ._lib import gzip_supported
from ._model import Model
from ._common import EnumLike

if TYPE_CHECKING:
    from dask.bag import Bag

#: What a task hands up: the final document (bytes) at the root, else the
#: canonical gzip bytes, the instanceof spelling, the format version and
#: the weight keys its inputs used (a bag's); None for no input.
_Result = Union[bytes, Tuple[bytes, int, str, FrozenSet[str]], None]

__all__ = ["dask_merge"]


class _Options:
    """What every task needs to know, picklable (shipped with each task)."""
    __slots__ = ("strict", "drop_unknown", "threaded", "compresslevel", "output")

    def __init__(self, strict: bool, drop_unknown: bool, threaded: bool,
                 compresslevel: int, output: Tuple[int, int] | None = None) -> None:
        self.strict = strict
        self.drop_unknown = drop_unknown
        self.threaded = threaded
        self.compresslevel = compresslevel
        self.output = output   # (st_dev, st_ino) of an existing output file

    def __getstate__(self) -> tuple[bool, bool, bool, int, Tuple[int, int] | None]:
        return (self.strict, self.drop_unknown, self.threaded, self.compresslevel, self.output)

    def __setstate__(self, state: tuple[bool, bool, bool, int, Tuple[int, int] | None]) -> None:
        (self.strict, self.drop_unknown, self.threaded, self.compresslevel,
         self.output) = state


class _Final:
    """How the root writes the result (``iprof merge``'s output options),
    and the weight keys of a bag, which only the root can check all
    inputs against."""
    __slots__ = ("pretty", "instanceof_key", "gzip", "weight_keys")

    def __init__(self, pretty: bool, instanceof_key: EnumLike | None, gzip: bool,
                 weight_keys: FrozenSet[str] = frozenset()) -> None:
        self.pretty = pretty
        self.instanceof_key = instanceof_key
        self.gzip = gzip
        self.weight_keys = weight_keys

    def __getstate__(self) -> tuple[bool, EnumLike | None, bool, FrozenSet[str]]:
        return (self.pretty, self.instanceof_key, self.gzip, self.weight_keys)

    def __setstate__(self, state: tuple[bool, EnumLike | None, bool, FrozenSet[str]]) -> None:
        self.pretty, self.instanceof_key, self.gzip, self.weight_keys = state


def _version_key(v: str) -> tuple[int, int, int, int, tuple[int, ...]]:
    """Orders versions as a merge chooses between them: the highest
    MAJOR.MINOR.PATCH, then the shorter spelling, then the lower in byte
    order (lib/model/merge.c, ipi_merge_version)."""
    major, minor, patch = (int(x) for x in v.split("."))
    return (major, minor, patch, -len(v), tuple(-b for b in v.encode()))


def _import_dask() -> ModuleType:
    try:
        import dask
        import dask.bag  # noqa: F401  (is_dask_collection of bags, to_delayed)
    except ImportError as e:
        raise ImportError("iprof.dask_merge needs Dask (Debian: apt-get install python3-dask "
                          "python3-distributed): %s" % e) from e
    return dask


def _check_weight(w: Any, what: str) -> float:
    try:
        w = float(w)
    except (TypeError, ValueError):
        raise ValueError("weight of %s: %r is not a number" % (what, w)) from None
    if not (math.isfinite(w) and w >= 0):
        raise ValueError("weight of %s: %r must be finite and >= 0" % (what, w))
    return w


def _dir_members(path: str, output: Tuple[int, int] | None = None) -> list[str] | None:
    """The *.iprof and *.iprof.gz regular files of a directory, by name
    (bytewise), as ``iprof merge`` expands a DIR operand, but the output
    file (*output*: its device and inode), last run's result, which would
    count everything again; None when *path* is not a directory."""
    try:
        if not stat.S_ISDIR(os.stat(path).st_mode):
            return None
    except OSError:
        return None
    names = sorted((n for n in os.listdir(path)
                    if not n.startswith(".") and (n.endswith(".iprof") or
                                                  n.endswith(".iprof.gz"))),
                   key=os.fsencode)
    sep = "" if path.endswith("/") else "/"
    out: list[str] = []
    for n in names:
        p = path + sep + n
        try:
            st = os.stat(p)
            if stat.S_ISREG(st.st_mode) and (st.st_dev, st.st_ino) != output:
                out.append(p)
        except OSError:
            pass
    if not out:
        raise ValueError("%s: no *.iprof or *.iprof.gz file in the directory" % path)
    return out


def _expand(items: Iterable[Any], weights: dict[str, Any] | None,
            output: Tuple[int, int] | None = None) -> tuple[list[tuple[str, float]], set[str]]:
    """(path, weight) pairs of *items* (paths, or (path, weight) pairs),
    directories expanded; a path's weight is the one *weights* (a dict)
    gives the path, else its directory, else 1, as ``iprof merge --weight``
    chooses. Returns the pairs and the set of weight keys used."""
    out: list[tuple[str, float]] = []
    used: set[str] = set()
    for item in items:
        given = None
        if isinstance(item, tuple):
            item, given = item
        name = os.fspath(item)
        if isinstance(name, bytes):
            name = os.fsdecode(name)
        if name == "-":
            raise ValueError("dask_merge reads files: standard input ('-') is not an input")
        members = _dir_members(name, output)
        for path in (members if members is not None else [name]):
            if given is not None:
                w = given
            elif weights and path in weights:
                w = weights[path]
                used.add(path)
            elif weights and name in weights:
                w = weights[name]
                used.add(name)
            else:
                w = 1.0
            out.append((path, _check_weight(w, path)))
    return out, used


def _payload(model: Model, opts: _Options, final: _Final | None,
             used: FrozenSet[str]) -> _Result:
    """The canonical form of *model*: the final document (bytes) for the
    root (which checks that every weight key of a bag named an input: those
    *used* below it), else (gzip bytes, instanceof spelling, version, used)
    for the next level.

    The bytes are compressed by Python's zlib at *opts.compresslevel* (1 by
    default: 4 times faster than the library's level 6 for 20% more bytes;
    0: not compressed); the next level reads either. The spelling travels
    beside the bytes because a written file cannot say AUTO (a model whose
    inputs had no instanceof key: the writer spells it GraalVM's way), and
    the next level sets the combined spelling of its children so that they
    combine as in one ``iprof merge``. So does the version: the bytes are
    written at the latest version, which holds whatever a lenient read
    took (instanceof entries in a file that says 1.0.0), and the next level
    sets the highest of its children's versions, as one merge would."""
    # threaded: the canonical sorts take the worker's second core, if any
    # (the bytes are the same).
    if final is not None:
        for key in sorted(final.weight_keys - used):
            raise ValueError("weight names no input: %r" % key)
        return model.write(pretty=final.pretty, instanceof_key=final.instanceof_key,
                           gzip=final.gzip, canonical=True, threaded=True,
                           drop_unknown=opts.drop_unknown)
    data = model.write(canonical=True, threaded=True, version=FORMAT_LATEST,
                       drop_unknown=opts.drop_unknown)
    if opts.compresslevel:
        data = gzip_module.compress(data, compresslevel=opts.compresslevel, mtime=0)
    return (data, int(model.instanceof_key), model.version, used)


def _merge_leaf(items: Iterable[Any], weights: dict[str, Any] | None, opts: _Options,
                final: _Final | None) -> _Result:
    """A leaf task: merge a partition of inputs into a new model."""
    pairs, used = _expand(items, weights, opts.output)
    if not pairs:
        return None
    with Model() as acc:
        for path, w in pairs:
            acc.merge_from(path, w, strict=opts.strict, drop_unknown=opts.drop_unknown,
                           threaded=opts.threaded)
        return _payload(acc, opts, final, frozenset(used))


def _merge_inner(children: Sequence[Any], opts: _Options,
                 final: _Final | None) -> _Result:
    """An inner task: merge the canonical results of its children
    ((gzip bytes, instanceof spelling, version, weight keys used), or None
    for no input)."""
    children = [c for c in children if c is not None]
    if not children:
        return None
    with Model() as acc:
        for data, _, _, _ in children:
            acc.merge_from(data, threaded=opts.threaded)
        # A merge keeps the spelling of either side when the other has none
        # and takes CAMEL when they differ: the highest of AUTO < LOWER <
        # CAMEL, whatever the order. The children's own, not their bytes'.
        acc.instanceof_key = InstanceofKey(max(spelling for _, spelling, _, _ in children))
        acc.version = max((version for _, _, version, _ in children), key=_version_key)
        used = frozenset().union(*(u for _, _, _, u in children))
        return _payload(acc, opts, final, used)


def _descriptor_of(path: str) -> int | None:
    """The descriptor a path names (/dev/stdout, /dev/stderr, /dev/fd/N,
    /proc/self/fd/N), as the library reads such paths, or None."""
    if path == "/dev/stdout":
        return 1
    if path == "/dev/stderr":
        return 2
    for prefix in ("/dev/fd/", "/proc/self/fd/"):
        num = path[len(prefix):]
        if path.startswith(prefix) and num.isdigit() and num.isascii() and len(num) <= 6:
            return int(num)
    return None


def _final_target(path: str) -> tuple[str, int | None]:
    """The file the symlinks of *path* finally name, and the descriptor when
    they stop at a path naming one of the process's (which is written at
    its offset, not replaced), as the library follows them."""
    cur = path
    for _ in range(40):
        fd = _descriptor_of(cur)
        if fd is not None:
            return cur, fd
        try:
            if not stat.S_ISLNK(os.lstat(cur).st_mode):
                return cur, None
        except OSError:
            return cur, None
        link = os.readlink(cur)
        cur = link if link.startswith("/") else os.path.join(os.path.dirname(cur), link)
    raise OSError(errno.ELOOP, os.strerror(errno.ELOOP), path)


def _write_atomic(path: str, data: bytes) -> None:
    """Write *data* to *path* as the library writes a path (its
    lib/common/replace.c): symlinks followed, a device or FIFO written in
    place; else a temporary file beside the target, unnamed where Linux
    allows (O_TMPFILE, linked in at the end: a killed process leaves none),
    fsync, rename. A read-only target is refused as open() would refuse
    it; a replaced file keeps its mode, and its owner and group where
    permitted."""
    target, fd = _final_target(path)
    if fd is not None:   # one of ours: at its offset, as the library writes it
        if fd in (1, 2):
            (sys.stdout if fd == 1 else sys.stderr).flush()
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        return
    try:
        st = os.stat(target)
    except FileNotFoundError:
        st = None
    if st is not None and not stat.S_ISREG(st.st_mode):
        with open(target, "wb") as f:
            f.write(data)
        return
    if st is not None and not os.access(target, os.W_OK):
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), path)
    directory = os.path.dirname(target) or "."
    mode = 0o600 if st is not None else 0o666   # private until it has the target's mode
    tmp = None
    fd = -1
    if hasattr(os, "O_TMPFILE") and os.path.isdir("/proc/self/fd"):
        try:
            fd = os.open(directory, os.O_TMPFILE | os.O_WRONLY | os.O_CLOEXEC, mode)
        except OSError:
            fd = -1
    if fd < 0:
        tmp = os.path.join(directory, ".iprof-%d-%s.tmp" % (os.getpid(), uuid.uuid4().hex[:8]))
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, mode)
    try:
        with os.fdopen(fd, "wb") as f:
            if st is not None:
                try:
                    os.fchown(f.fileno(), st.st_uid, st.st_gid)
                except OSError:
                    try:
                        os.fchown(f.fileno(), -1, st.st_gid)
                    except OSError:
                        pass
                os.fchmod(f.fileno(), stat.S_IMODE(st.st_mode))
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
            if tmp is None:   # give the unnamed file a name, then rename it
                name = ".iprof-%d-%s.tmp" % (os.getpid(), uuid.uuid4().hex[:8])
                dfd = os.open(directory, os.O_RDONLY)
                try:   # a dir fd makes os.link use linkat(AT_SYMLINK_FOLLOW)
                    os.link("/proc/self/fd/%d" % f.fileno(), name, dst_dir_fd=dfd,
                            follow_symlinks=True)
                finally:
                    os.close(dfd)
                tmp = os.path.join(directory, name)
        os.replace(tmp, target)
    except BaseException:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass
        raise
    dfd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(dfd)
    except OSError:
        pass
    finally:
        os.close(dfd)


def _current_client() -> Any:
    try:
        from distributed import default_client
    except ImportError:
        return None
    try:
        return default_client()
    except ValueError:     # no client
        return None


def _thread_count(client: Any, scheduler: str | None) -> int:
    if client is not None:
        return max(1, sum(client.nthreads().values()))
    if scheduler in ("sync", "synchronous", "single-threaded"):
        return 1
    return os.cpu_count() or 1


def dask_merge(paths: Iterable[str | os.PathLike[str]] | Bag,
               output: str | os.PathLike[str] | None = None, *,
               weights: dict[Any, float] | Iterable[float] | None = None, client: Any = None,
               scheduler: str | None = None, fan_in: int = 8, partition_size: int | None = None,
               pretty: bool = False, instanceof_key: EnumLike | None = None,
               gzip: bool | None = None, strict: bool = False, drop_unknown: bool = False,
               threaded: bool = False, compresslevel: int | None = None,
               retries: int = 0) -> bytes | str | os.PathLike[str]:
    """Merge profiles on Dask as a tree reduction; the result is the bytes
    ``iprof merge`` writes for the same files (canonical form, highest
    format version of the inputs, counts multiplied by their weights and
    rounded once per input).

    *paths*: a list of paths (str or path-like; a directory stands for its
    ``*.iprof`` and ``*.iprof.gz`` files, by name) or a ``dask.bag.Bag`` of
    paths or ``(path, weight)`` pairs, one leaf task per bag partition.

    *weights*: a dict path -> weight (a key names an input as given, or a
    directory for every file in it, as ``iprof merge --weight FILE=W``; for
    a list every key must name an input), or a list parallel to *paths*.
    Weights are finite numbers >= 0 and apply at the leaves only.

    *output*: None returns the merged document as bytes; a path is written
    atomically (gzip-compressed when the file it names, symlinks followed,
    ends in ".gz") and returned.
    *gzip* forces compression either way; *pretty* indents;
    *instanceof_key* spells the instanceof key (as :meth:`Model.write`).

    *client*: a ``distributed.Client`` or a scheduler address
    ("tcp://host:8786", a client is opened and closed for the call); by
    default the current client if there is one, else Dask's default
    scheduler, or *scheduler* ("sync", "threads", "processes") when given.
    *fan_in* (>= 2): children per inner task. *partition_size* (>= 1):
    inputs per leaf task of a list (default: enough leaves for two per
    worker thread); a bag keeps its partitions. *retries*: how many times
    a task that raised is tried again (a worker that dies is handled by
    Dask itself: its tasks are run again, up to the
    ``distributed.scheduler.allowed-failures`` setting); distributed
    only, Dask's local schedulers have no retries.

    *strict* reads the inputs strictly, *drop_unknown* drops their unknown
    top-level keys and the keys of their elements that the library does not
    read, which otherwise fail the merge (``iprof merge --strict``,
    ``--drop-unknown``);
    *threaded* merges on a second C thread while reading
    (``merge_from(threaded=True)``). *compresslevel* (0..9) compresses the
    intermediate results (gzip; 0: plain JSON); by default 1, or 0 for a
    libiprof built without zlib (:func:`iprof.gzip_supported`).

    Raises ImportError when Dask is missing, ValueError for bad arguments,
    and the :class:`iprof.Error` a task raised (a file that cannot be read
    or merged).
    """
    dask = _import_dask()   # and dask.bag

    fan_in = int(fan_in)
    if fan_in < 2:
        raise ValueError("fan_in must be >= 2, not %d" % fan_in)
    if partition_size is not None and int(partition_size) < 1:
        raise ValueError("partition_size must be >= 1, not %r" % (partition_size,))
    if gzip is None:   # by the name of the file written, as the library decides
        written, through = _final_target(os.fspath(output)) if output is not None else ("", 0)
        gzip = through is None and written.endswith(".gz")
    final = _Final(bool(pretty), instanceof_key, bool(gzip))
    InstanceofKey.of(instanceof_key)                 # a bad spelling fails here
    if compresslevel is None:
        compresslevel = 1 if gzip_supported() else 0
    compresslevel = int(compresslevel)
    if not 0 <= compresslevel <= 9:
        raise ValueError("compresslevel must be 0..9, not %d" % compresslevel)
    try:
        st = os.stat(os.fspath(output)) if output is not None else None
    except OSError:
        st = None
    opts = _Options(bool(strict), bool(drop_unknown), bool(threaded), compresslevel,
                    (st.st_dev, st.st_ino) if st is not None else None)

    own_client = None
    if isinstance(client, str):
        from distributed import Client
        client = own_client = Client(client)
    elif client is None and scheduler is None:
        client = _current_client()
    try:
        delayed = dask.delayed
        tag = uuid.uuid4().hex[:12]
        if isinstance(paths, dask.bag.Bag):
            if weights is not None and not isinstance(weights, dict):
                raise ValueError("weights of a bag: a dict path -> weight")
            shared = delayed(dict(weights or {}), traverse=False)
            parts = paths.to_delayed()
            if not parts:
                raise ValueError("no input")
            # Which keys name an input only the root knows (the bag is read
            # by the tasks): it checks them.
            final.weight_keys = frozenset(os.fspath(k) for k in (weights or {}))
            level = [delayed(_merge_leaf, pure=False)(
                         part, shared, opts, final if len(parts) == 1 else None,
                         dask_key_name="iprof-leaf-%s-%d" % (tag, i))
                     for i, part in enumerate(parts)]
        else:
            items: list[Any] = [os.fspath(p) for p in paths]
            if weights is not None and not isinstance(weights, dict):
                weights = list(weights)
                if len(weights) != len(items):
                    raise ValueError("weights: %d for %d paths" % (len(weights), len(items)))
                items = list(zip(items, weights))
                weights = None
            elif weights is not None:
                weights = {os.fspath(k): v for k, v in weights.items()}
            pairs, used = _expand(items, weights, opts.output)
            for key in (weights or {}):
                if key not in used:
                    raise ValueError("weight names no input: %r" % key)
            if not pairs:
                raise ValueError("no input")
            if partition_size is None:
                leaves = 2 * _thread_count(client, scheduler)
                partition_size = max(1, -(-len(pairs) // leaves))
            size = int(partition_size)
            chunks = [pairs[i:i + size] for i in range(0, len(pairs), size)]
            level = [delayed(_merge_leaf, pure=False)(
                         chunk, None, opts, final if len(chunks) == 1 else None,
                         dask_key_name="iprof-leaf-%s-%d" % (tag, i))
                     for i, chunk in enumerate(chunks)]
        depth = 0
        while len(level) > 1:
            depth += 1
            groups = [level[i:i + fan_in] for i in range(0, len(level), fan_in)]
            root = len(groups) == 1
            level = [g[0] if len(g) == 1 else delayed(_merge_inner, pure=False)(
                         g, opts, final if root else None,
                         dask_key_name="iprof-merge-%s-%d-%d" % (tag, depth, i))
                     for i, g in enumerate(groups)]
        if client is not None:
            data = client.compute(level[0], retries=retries).result()
        else:
            (data,) = dask.compute(level[0], scheduler=scheduler)
    finally:
        if own_client is not None:
            own_client.close()
    if data is None:
        raise ValueError("no input: every partition of the bag is empty")
    if output is None:
        return data
    _write_atomic(os.fspath(output), data)
    return output

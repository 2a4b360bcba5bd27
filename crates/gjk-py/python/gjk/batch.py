"""Batches: the same query over numpy arrays of poses (and of shapes), on every core, with the GIL released.

The work is done in Rust: rows are split over a rayon thread pool, each row runs the library's query exactly as a
single call does, and answers are written straight into the output arrays. There is no Python loop over rows; the
GIL is taken only between chunks (to update a progress bar and to notice Ctrl-C). Answers are the same bits
whatever ``threads`` and ``chunk`` are.
"""

from __future__ import annotations

import sys
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence, Tuple, Union

import numpy as np

from . import _gjk
from ._gjk import Shape

ShapeArg = Union[Shape, Sequence[Shape]]

#: Rows per chunk when no progress is shown (the GIL is taken between chunks to notice Ctrl-C).
DEFAULT_CHUNK = 65536


class BatchResult:
    """The arrays of a batch, by name (attribute or item access).

    distance and penetration batches: ``distance[N]`` (signed for penetration), ``point_a[N, dim]``,
    ``point_b[N, dim]``, ``normal[N, dim]`` (unit, from A toward B), ``status[N]`` (uint8, see ``gjk.STATUS_NAMES``),
    ``error_bound[N]``, ``intersecting[N]`` (bool), ``iterations[N]`` (uint32). intersects batches:
    ``intersecting[N]`` and ``status[N]``. Floats are in the shapes' dtype.
    """

    def __init__(self, arrays: Dict[str, np.ndarray]):
        self._arrays = dict(arrays)

    def __getattr__(self, name: str) -> np.ndarray:
        try:
            return self.__dict__["_arrays"][name]
        except KeyError:
            raise AttributeError(name) from None

    def __getitem__(self, name: str) -> np.ndarray:
        return self._arrays[name]

    def __len__(self) -> int:
        return len(self._arrays["status"])

    def __iter__(self) -> Iterator[str]:
        return iter(self._arrays)

    def keys(self) -> List[str]:
        """The names of the arrays."""
        return list(self._arrays)

    def as_dict(self) -> Dict[str, np.ndarray]:
        """The arrays as a plain dict."""
        return dict(self._arrays)

    def status_counts(self) -> Dict[str, int]:
        """How many rows ended with each status, by name."""
        counts = np.bincount(self._arrays["status"], minlength=len(_gjk.STATUS_NAMES))
        return {name: int(c) for name, c in zip(_gjk.STATUS_NAMES, counts) if c}

    def __repr__(self) -> str:
        fields = ", ".join(f"{k}{list(v.shape)}" for k, v in self._arrays.items())
        return f"BatchResult(n={len(self)}, {fields}, status={self.status_counts()})"


def _palette(shapes: ShapeArg, ids: Optional[Any], which: str) -> Tuple[List[Shape], Optional[np.ndarray]]:
    """The shapes of one side and their ids (None: one shape for every row, or one shape per row)."""
    if isinstance(shapes, Shape):
        if ids is not None:
            raise ValueError(f"ids_{which} given but {which} is a single shape (pass a sequence of shapes)")
        return [shapes], None
    palette = list(shapes)
    for j, s in enumerate(palette):
        if not isinstance(s, Shape):
            raise TypeError(f"{which}[{j}] is {type(s).__name__}, not a gjk.Shape")
    if ids is None:
        return palette, None
    ids = np.asarray(ids)
    if ids.ndim != 1 or not np.issubdtype(ids.dtype, np.integer):
        raise ValueError(f"ids_{which} must be a 1-D array of integers, got {ids.dtype} of shape {ids.shape}")
    bad = np.flatnonzero((ids < 0) | (ids >= len(palette)))
    if len(bad):
        i = int(bad[0])
        raise ValueError(f"row {i}: ids_{which}[{i}] = {ids[i]} is not an index of the {len(palette)} shapes of {which}")
    return palette, np.require(ids, np.int64, ["C", "A"])


def _rows(n: Optional[int], *candidates: Optional[int]) -> int:
    sizes = {c for c in candidates if c is not None and c != 1}
    if n is not None:
        sizes.add(n)
    if len(sizes) > 1:
        raise ValueError(f"the batch's arrays disagree on the number of rows: {sorted(sizes)}")
    return sizes.pop() if sizes else 1


def _poses(poses: Optional[Any], n: int, dim: int, dtype: np.dtype, what: str) -> np.ndarray:
    """A pose array of n rows in the shapes' dtype (a leading axis of 1 is broadcast without copying)."""
    if poses is None:
        identity = np.zeros(7 if dim == 3 else 3, dtype=dtype)
        if dim == 3:
            identity[6] = 1.0
        return np.broadcast_to(identity, (n, identity.size))
    # Aligned (arrays that Dask or pickle hand over may not be); any strides are fine.
    arr = np.require(poses, dtype, ["A"])
    if arr.ndim not in (2, 3):
        raise ValueError(
            f"{what} must be [N, {dim + 1}, {dim + 1}] matrices or [N, {7 if dim == 3 else 3}] rows "
            f"(a leading axis of 1 is broadcast), got shape {arr.shape}"
        )
    if arr.shape[0] == 1 and n != 1:
        arr = np.broadcast_to(arr, (n,) + arr.shape[1:])
    return arr


def _leading(poses: Optional[Any]) -> Optional[int]:
    if poses is None:
        return None
    return int(np.shape(poses)[0]) if np.ndim(poses) >= 2 else None


class _Progress:
    """A progress callback: tqdm where installed, else a line on stderr every 10 %."""

    def __init__(self, total: int, desc: str):
        self.total = total
        self.done = 0
        self.bar: Any = None
        try:
            from tqdm.auto import tqdm

            self.bar = tqdm(total=total, desc=desc, unit="query", unit_scale=True)
        except ImportError:
            self.next_report = 0.1
            self.desc = desc

    def __call__(self, rows: int) -> None:
        self.done += rows
        if self.bar is not None:
            self.bar.update(rows)
        elif self.done >= self.next_report * self.total:
            print(f"{self.desc}: {self.done}/{self.total} queries", file=sys.stderr)
            self.next_report = (int(10 * self.done / self.total) + 1) / 10

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def _run(
    query: str,
    a: ShapeArg,
    b: ShapeArg,
    poses_a: Optional[Any],
    poses_b: Optional[Any],
    ids_a: Optional[Any],
    ids_b: Optional[Any],
    threads: Optional[int],
    progress: Union[bool, Callable[[int], Any]],
    on_invalid: str,
    chunk: Optional[int],
    max_distance: Optional[float] = None,
) -> BatchResult:
    pal_a, ids_a = _palette(a, ids_a, "a")
    pal_b, ids_b = _palette(b, ids_b, "b")
    # A sequence of shapes without ids has one shape per row (or one for every row).
    per_row = [len(p) for p, ids in ((pal_a, ids_a), (pal_b, ids_b)) if ids is None]
    n = _rows(
        None,
        len(ids_a) if ids_a is not None else None,
        len(ids_b) if ids_b is not None else None,
        _leading(poses_a),
        _leading(poses_b),
        *per_row,
    )
    ida = ids_a if ids_a is not None else (np.zeros(n, np.int64) if len(pal_a) == 1 else np.arange(n, dtype=np.int64))
    idb = ids_b if ids_b is not None else (np.zeros(n, np.int64) if len(pal_b) == 1 else np.arange(n, dtype=np.int64))
    shapes = pal_a + pal_b
    idb = idb + len(pal_a)
    first = shapes[0]
    dtype = np.dtype(first.dtype)
    pa = _poses(poses_a, n, first.dim, dtype, "poses_a")
    pb = _poses(poses_b, n, first.dim, dtype, "poses_b")
    callback: Optional[Callable[[int], Any]] = None
    bar: Optional[_Progress] = None
    if progress is True:
        bar = _Progress(n, f"gjk {query}")
        callback = bar
    elif callable(progress):
        callback = progress
    if chunk is None:
        chunk = max(1024, -(-n // 100)) if callback is not None else DEFAULT_CHUNK
    try:
        arrays = _gjk.batch(
            query, shapes, ida, idb, pa, pb,
            threads=threads, chunk=chunk, progress=callback, on_invalid=on_invalid, max_distance=max_distance,
        )
    finally:
        if bar is not None:
            bar.close()
    return BatchResult(arrays)


_COMMON = """
    a, b: a shape for every row, or a sequence of shapes — one per row, or a palette indexed by ``ids_a`` /
        ``ids_b``. All shapes share one space (dimension and dtype).
    poses_a, poses_b: ``[N, 4, 4]`` homogeneous matrices or ``[N, 7]`` rows (x, y, z, qx, qy, qz, qw — quaternion
        in **x, y, z, w** order) in 3D; ``[N, 3, 3]`` or ``[N, 3]`` rows (x, y, angle) in 2D. A leading axis of 1 is
        broadcast to every row; ``None`` is the identity. Converted to the shapes' dtype.
    ids_a, ids_b: optional int arrays ``[N]`` choosing each row's shape from ``a`` / ``b``.
    threads: worker threads (default: every core). The answers do not depend on it.
    progress: ``True`` shows a progress bar (tqdm where installed, else lines on stderr); a callable is called
        with the number of rows done after each chunk.
    on_invalid: ``"raise"`` (default): a row with an invalid pose (NaN, infinity, not a rotation) raises
        ``ValueError`` naming the first such row (after the chunk holding it has run). A shape id out of range
        always raises, before any work. ``"status"``: such rows get
        status 4 (``invalid_input``), NaN floats, ``intersecting`` False, and the other rows are answered.
    chunk: rows per chunk between which the GIL is taken (default 65536, or N/100 with a progress bar).
"""


def batch_distance(
    a: ShapeArg,
    b: ShapeArg,
    poses_a: Optional[Any] = None,
    poses_b: Optional[Any] = None,
    *,
    ids_a: Optional[Any] = None,
    ids_b: Optional[Any] = None,
    max_distance: Optional[float] = None,
    threads: Optional[int] = None,
    progress: Union[bool, Callable[[int], Any]] = False,
    on_invalid: str = "raise",
    chunk: Optional[int] = None,
) -> BatchResult:
    """Distance, closest points and normal for N pairs, on every core.

    Returns a :class:`BatchResult` with ``distance[N]``, ``point_a[N, dim]``, ``point_b[N, dim]``,
    ``normal[N, dim]``, ``status[N]``, ``error_bound[N]``, ``intersecting[N]``, ``iterations[N]``; row i equals
    ``gjk.distance`` on row i's shapes and poses, bit for bit.
    """
    return _run("distance", a, b, poses_a, poses_b, ids_a, ids_b, threads, progress, on_invalid, chunk, max_distance)


def batch_penetration(
    a: ShapeArg,
    b: ShapeArg,
    poses_a: Optional[Any] = None,
    poses_b: Optional[Any] = None,
    *,
    ids_a: Optional[Any] = None,
    ids_b: Optional[Any] = None,
    threads: Optional[int] = None,
    progress: Union[bool, Callable[[int], Any]] = False,
    on_invalid: str = "raise",
    chunk: Optional[int] = None,
) -> BatchResult:
    """Signed distance (negative: penetration depth), normal and deepest points for N pairs, on every core.

    Returns a :class:`BatchResult` with the arrays of :func:`batch_distance`, ``distance`` signed; row i equals
    ``gjk.penetration`` on row i, bit for bit.
    """
    return _run("penetration", a, b, poses_a, poses_b, ids_a, ids_b, threads, progress, on_invalid, chunk)


def batch_intersects(
    a: ShapeArg,
    b: ShapeArg,
    poses_a: Optional[Any] = None,
    poses_b: Optional[Any] = None,
    *,
    ids_a: Optional[Any] = None,
    ids_b: Optional[Any] = None,
    threads: Optional[int] = None,
    progress: Union[bool, Callable[[int], Any]] = False,
    on_invalid: str = "raise",
    chunk: Optional[int] = None,
) -> BatchResult:
    """Whether each of N pairs overlaps or touches, on every core.

    Returns a :class:`BatchResult` with ``intersecting[N]`` (the same answer as ``batch_distance``'s
    ``intersecting``; boxes are decided by separating axes, balls by their centres) and ``status[N]`` (0, or 4
    for invalid rows with ``on_invalid="status"``).
    """
    return _run("intersects", a, b, poses_a, poses_b, ids_a, ids_b, threads, progress, on_invalid, chunk)


for _f in (batch_distance, batch_penetration, batch_intersects):
    _f.__doc__ = (_f.__doc__ or "") + "\n    Parameters\n    ----------" + _COMMON

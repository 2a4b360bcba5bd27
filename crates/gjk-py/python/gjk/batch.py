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

    Each batch function lists its arrays. Every batch has ``status[N]`` (uint8, see ``gjk.STATUS_NAMES``; 4 marks
    an invalid row with ``on_invalid="status"``). Leaf indices of composite shapes (``part_a``, ``part_b``,
    ``part``) are int64 with −1 for none (a convex shape or a HalfSpace). Floats are in the shapes' dtype.
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


def _vector_rows(v: Optional[Any], width: int) -> Optional[int]:
    """Rows of a per-row array ([N, width], or [N] for a scalar per row); None for one value for every row."""
    if v is None or np.ndim(v) == 0:
        return None
    if width == 1 or np.ndim(v) >= 2:
        return int(np.shape(v)[0])
    return None


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


def _vectors(
    arrays: Sequence[Tuple[str, Optional[Any], int, float]], n: int, dtype: np.dtype
) -> List[Tuple[str, np.ndarray, int]]:
    """Per-row arrays [n, width] in the shapes' dtype: a single row (or a scalar) is broadcast without copying;
    ``None`` takes the default."""
    out = []
    for name, value, width, default in arrays:
        arr = np.require(default if value is None else value, dtype, ["A"])
        if arr.ndim == 0 or (arr.ndim == 1 and width > 1 and arr.shape[0] == width):
            arr = arr.reshape(1, -1) if arr.ndim else arr.reshape(1, 1)
        if arr.ndim == 1:
            arr = arr[:, None]
        if arr.ndim != 2 or arr.shape[1] != width or arr.shape[0] not in (1, n):
            raise ValueError(f"{name} must be [{n}, {width}] (or one row for every row), got shape {np.shape(value)}")
        out.append((name, np.broadcast_to(arr, (n, width)), width))
    return out


def _run(
    query: str,
    a: ShapeArg,
    b: Optional[ShapeArg],
    poses_a: Optional[Any],
    poses_b: Optional[Any],
    ids_a: Optional[Any],
    ids_b: Optional[Any],
    threads: Optional[int],
    progress: Union[bool, Callable[[int], Any]],
    on_invalid: str,
    chunk: Optional[int],
    max_distance: Optional[float] = None,
    vectors: Sequence[Tuple[str, Optional[Any], int, float]] = (),
    options: Optional[Dict[str, Any]] = None,
) -> BatchResult:
    pal_a, ids_a = _palette(a, ids_a, "a")
    pal_b, ids_b = _palette(b, ids_b, "b") if b is not None else ([], None)
    # A sequence of shapes without ids has one shape per row (or one for every row).
    sides = [(pal_a, ids_a)] + ([(pal_b, ids_b)] if b is not None else [])
    per_row = [len(p) for p, ids in sides if ids is None]
    n = _rows(
        None,
        len(ids_a) if ids_a is not None else None,
        len(ids_b) if ids_b is not None else None,
        _leading(poses_a),
        _leading(poses_b),
        *per_row,
        *[_vector_rows(v, width) for _, v, width, _ in vectors],
    )
    ida = ids_a if ids_a is not None else (np.zeros(n, np.int64) if len(pal_a) == 1 else np.arange(n, dtype=np.int64))
    shapes = pal_a + pal_b
    first = shapes[0]
    dtype = np.dtype(first.dtype)
    pa = _poses(poses_a, n, first.dim, dtype, "poses_a")
    idb = pb = None
    if b is not None:
        idb = ids_b if ids_b is not None else (np.zeros(n, np.int64) if len(pal_b) == 1 else np.arange(n, dtype=np.int64))
        idb = idb + len(pal_a)
        pb = _poses(poses_b, n, first.dim, dtype, "poses_b")
    opts = dict(options or {})
    if max_distance is not None:
        opts["max_distance"] = max_distance
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
            query, shapes, ida, pa, idb, pb,
            vectors=_vectors(vectors, n, dtype), options=opts,
            threads=threads, chunk=chunk, progress=callback, on_invalid=on_invalid,
        )
    finally:
        if bar is not None:
            bar.close()
    if query == "contact_manifold":
        return BatchContacts(arrays)
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

    Returns a :class:`BatchResult` with the arrays of :func:`batch_distance`, ``distance`` signed (``error_bound``
    inf for rows with a composite or a HalfSpace: not reported by the library); row i equals
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


class BatchContacts(BatchResult):
    """The contacts of a contact-manifold batch, in a ragged (CSR) layout: row i's contacts are entries
    ``offsets[i]:offsets[i + 1]`` of the per-contact arrays.

    Per row ``[N]``: ``count`` (uint32, contacts of the row), ``manifolds`` (uint32, distinct normals), ``distance``
    (signed), ``status``; ``offsets[N + 1]`` (int64). Per contact ``[M]`` (M = ``offsets[-1]``): ``point_a[M, dim]``,
    ``point_b[M, dim]``, ``normal[M, dim]`` (unit, from A toward B, its manifold's), ``depth[M]`` (float64; negative:
    a gap within the prediction distance), ``id[M]`` (uint64, stable from frame to frame), ``part_a[M]``,
    ``part_b[M]`` (int64 leaves, −1 for none), ``manifold[M]`` (uint32, which manifold of its row). ``row_of()``
    gives each contact's row; ``padded()`` a dense ``[N, K, ...]`` view for a fixed K.
    """

    def contacts(self, i: int) -> Dict[str, np.ndarray]:
        """Row ``i``'s contacts: the per-contact arrays sliced to it."""
        lo, hi = int(self.offsets[i]), int(self.offsets[i + 1])
        return {k: self[k][lo:hi] for k in _CONTACT_KEYS}

    def row_of(self) -> np.ndarray:
        """The row of each contact [M] (int64)."""
        return np.repeat(np.arange(len(self.count), dtype=np.int64), self.count.astype(np.int64))

    def padded(self, max_contacts: Optional[int] = None) -> Dict[str, np.ndarray]:
        """Dense arrays ``[N, K, ...]`` with K = ``max_contacts`` (default: the largest count), padded with NaN
        (floats), 0 (ids, manifold) and −1 (parts); a row with more than K contacts raises ValueError. Two convex
        shapes have at most 4 contacts (2 in 2D)."""
        k = int(self.count.max(initial=0)) if max_contacts is None else int(max_contacts)
        if len(self.count) and int(self.count.max(initial=0)) > k:
            raise ValueError(f"a row has {int(self.count.max())} contacts, more than max_contacts={k}")
        rows = self.row_of()
        slot = np.arange(len(rows), dtype=np.int64) - self.offsets[rows]
        out: Dict[str, np.ndarray] = {}
        for name in _CONTACT_KEYS:
            src = self[name]
            fill: Any = np.nan if src.dtype.kind == "f" else (-1 if name.startswith("part") else 0)
            dense = np.full((len(self.count), k) + src.shape[1:], fill, dtype=src.dtype)
            dense[rows, slot] = src
            out[name] = dense
        out["count"] = self.count
        return out

    def __len__(self) -> int:
        return len(self._arrays["count"])


_CONTACT_KEYS = ("point_a", "point_b", "normal", "depth", "id", "part_a", "part_b", "manifold")
_NO_VECTORS: Tuple[Tuple[str, Optional[Any], int, float], ...] = ()


def _angular_len(shapes: ShapeArg) -> int:
    first = shapes if isinstance(shapes, Shape) else list(shapes)[0]
    return 3 if first.dim == 3 else 1


def _dim(shapes: ShapeArg) -> int:
    first = shapes if isinstance(shapes, Shape) else list(shapes)[0]
    return int(first.dim)


def batch_contact_manifold(
    a: ShapeArg,
    b: ShapeArg,
    poses_a: Optional[Any] = None,
    poses_b: Optional[Any] = None,
    *,
    ids_a: Optional[Any] = None,
    ids_b: Optional[Any] = None,
    prediction: float = 0.0,
    threads: Optional[int] = None,
    progress: Union[bool, Callable[[int], Any]] = False,
    on_invalid: str = "raise",
    chunk: Optional[int] = None,
) -> "BatchContacts":
    """The contacts of N pairs within ``prediction``, on every core, in a ragged (CSR) layout.

    Returns a :class:`BatchContacts`: per row ``count[N]``, ``manifolds[N]``, ``distance[N]`` (signed),
    ``status[N]``, ``offsets[N + 1]``; per contact ``point_a``, ``point_b``, ``normal``, ``depth``, ``id``,
    ``part_a``, ``part_b``, ``manifold`` (row i's are ``offsets[i]:offsets[i + 1]``; ``padded()`` gives dense
    ``[N, K, ...]`` arrays). Row i equals ``gjk.contact_manifold`` on row i, bit for bit. An invalid row (with
    ``on_invalid="status"``) has no contacts, status 4 and a NaN distance.
    """
    if np.isnan(prediction):
        raise ValueError("prediction is NaN")
    return _run(
        "contact_manifold", a, b, poses_a, poses_b, ids_a, ids_b, threads, progress, on_invalid, chunk,
        options={"prediction": float(prediction)},
    )  # type: ignore[return-value]


def batch_ray_cast(
    shape: ShapeArg,
    poses: Optional[Any],
    origins: Any,
    directions: Any,
    *,
    ids: Optional[Any] = None,
    max_toi: Any = np.inf,
    solid: bool = True,
    threads: Optional[int] = None,
    progress: Union[bool, Callable[[int], Any]] = False,
    on_invalid: str = "raise",
    chunk: Optional[int] = None,
) -> BatchResult:
    """N rays ``origins[i] + t · directions[i]``, t in [0, max_toi], against a shape (or a palette by ``ids``) at
    ``poses``, on every core.

    ``origins``, ``directions``: ``[N, dim]`` (or one row for every ray); ``max_toi``: a number or ``[N]`` (inf:
    no limit). Returns a :class:`BatchResult` with ``hit[N]`` (bool), ``toi[N]`` (inf on a miss), ``normal[N, dim]``,
    ``point[N, dim]``, ``part[N]`` (the leaf hit, −1 for none), ``status[N]``, ``iterations[N]``; row i equals
    ``gjk.ray_cast`` on row i, bit for bit. A NaN or infinite origin or direction, or a NaN ``max_toi``, makes the
    row invalid.
    """
    d = _dim(shape)
    vectors = (("origins", origins, d, 0.0), ("directions", directions, d, 0.0), ("max_toi", max_toi, 1, np.inf))
    return _run(
        "ray_cast", shape, None, poses, None, ids, None, threads, progress, on_invalid, chunk,
        vectors=vectors, options={"solid": bool(solid)},
    )


def batch_shape_cast(
    a: ShapeArg,
    b: ShapeArg,
    poses_a: Optional[Any],
    poses_b: Optional[Any],
    velocities_a: Any,
    velocities_b: Any,
    *,
    ids_a: Optional[Any] = None,
    ids_b: Optional[Any] = None,
    max_toi: Any = np.inf,
    target_distance: float = 0.0,
    ignore_initial_overlap_when_separating: bool = False,
    threads: Optional[int] = None,
    progress: Union[bool, Callable[[int], Any]] = False,
    on_invalid: str = "raise",
    chunk: Optional[int] = None,
) -> BatchResult:
    """N linear shape casts (shapes translating at ``velocities_a[i]``, ``velocities_b[i]``), on every core.

    ``velocities_a``, ``velocities_b``: ``[N, dim]`` (or one row for every row); ``max_toi``: a number or ``[N]``.
    Returns a :class:`BatchResult` with ``hit[N]``, ``toi[N]`` (inf on a miss), ``normal[N, dim]`` (from A toward
    B), ``point_a[N, dim]``, ``point_b[N, dim]``, ``part_a[N]``, ``part_b[N]``, ``status[N]``, ``iterations[N]``;
    row i equals ``gjk.shape_cast`` on row i, bit for bit.
    """
    d = _dim(a)
    vectors = (("velocities_a", velocities_a, d, 0.0), ("velocities_b", velocities_b, d, 0.0),
               ("max_toi", max_toi, 1, np.inf))
    options = {"target_distance": float(target_distance),
               "ignore_initial_overlap_when_separating": bool(ignore_initial_overlap_when_separating)}
    return _run(
        "shape_cast", a, b, poses_a, poses_b, ids_a, ids_b, threads, progress, on_invalid, chunk,
        vectors=vectors, options=options,
    )


def batch_time_of_impact(
    a: ShapeArg,
    b: ShapeArg,
    poses_a: Optional[Any],
    poses_b: Optional[Any],
    velocities_a: Any,
    velocities_b: Any,
    angular_a: Optional[Any] = None,
    angular_b: Optional[Any] = None,
    *,
    ids_a: Optional[Any] = None,
    ids_b: Optional[Any] = None,
    max_toi: Any = np.inf,
    target_distance: float = 0.0,
    threads: Optional[int] = None,
    progress: Union[bool, Callable[[int], Any]] = False,
    on_invalid: str = "raise",
    chunk: Optional[int] = None,
) -> BatchResult:
    """N times of impact under rigid motions (linear ``velocities_*`` ``[N, dim]`` and angular ``angular_*`` —
    ``[N, 3]`` radians per unit time in 3D, ``[N]`` in 2D, None: no rotation), on every core.

    Returns the arrays of :func:`batch_shape_cast`; row i equals ``gjk.time_of_impact`` on row i, bit for bit.
    """
    d, w = _dim(a), _angular_len(a)
    vectors = (("velocities_a", velocities_a, d, 0.0), ("velocities_b", velocities_b, d, 0.0),
               ("angular_a", angular_a, w, 0.0), ("angular_b", angular_b, w, 0.0), ("max_toi", max_toi, 1, np.inf))
    return _run(
        "time_of_impact", a, b, poses_a, poses_b, ids_a, ids_b, threads, progress, on_invalid, chunk,
        vectors=vectors, options={"target_distance": float(target_distance)},
    )


def batch_project_point(
    shape: ShapeArg,
    poses: Optional[Any],
    points: Any,
    *,
    ids: Optional[Any] = None,
    threads: Optional[int] = None,
    progress: Union[bool, Callable[[int], Any]] = False,
    on_invalid: str = "raise",
    chunk: Optional[int] = None,
) -> BatchResult:
    """The points of a shape (or a palette by ``ids``) at ``poses`` closest to ``points[N, dim]``, on every core.

    Returns a :class:`BatchResult` with ``point[N, dim]``, ``inside[N]`` (bool: on the shape or inside a solid
    one), ``distance[N]``, ``part[N]`` (the leaf, −1 for none), ``status[N]``; row i equals ``gjk.project_point``.
    """
    vectors = (("points", points, _dim(shape), 0.0),)
    return _run("project_point", shape, None, poses, None, ids, None, threads, progress, on_invalid, chunk,
                vectors=vectors)


_ONE_SHAPE = """
    shape: a shape for every row, or a sequence of shapes — one per row, or a palette indexed by ``ids``.
    poses: ``[N, 4, 4]`` matrices or ``[N, 7]`` rows (x, y, z, qx, qy, qz, qw — quaternion **x, y, z, w**) in 3D,
        ``[N, 3, 3]`` or ``[N, 3]`` (x, y, angle) in 2D; a leading axis of 1 is broadcast; ``None`` is the identity.
    threads, progress, on_invalid, chunk: as in :func:`batch_distance` (a NaN in any per-row array makes the
        row invalid).
"""

for _f in (batch_contact_manifold, batch_shape_cast, batch_time_of_impact):
    _f.__doc__ = (_f.__doc__ or "") + "\n    Parameters\n    ----------" + _COMMON
for _f in (batch_ray_cast, batch_project_point):
    _f.__doc__ = (_f.__doc__ or "") + "\n    Parameters\n    ----------" + _ONE_SHAPE

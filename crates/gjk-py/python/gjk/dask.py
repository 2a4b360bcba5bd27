"""Batches beyond one machine: the same queries over Dask arrays and dataframes, partition by partition.

Optional dependency: ``pip install gjk[dask]`` (dask, distributed, pandas).

Each partition is one task that runs the single-process batch (:func:`gjk.batch_distance` and friends) on its
rows, so a job returns exactly the arrays — the same bits — the single-process batch returns, on any cluster and
any partitioning. A task is a pure function of its rows and the shapes: when a worker dies, Dask runs its
partitions again elsewhere and nothing is lost or changed.

On a laptop::

    from dask.distributed import Client, LocalCluster
    client = Client(LocalCluster(n_workers=2, threads_per_worker=1))

On a real cluster, the one line that changes::

    client = Client("tcp://scheduler-host:8786")

then, the same code either way::

    import dask.array as da
    poses_b = da.from_array(poses, chunks=(100_000, 7))      # [N, 7]: x, y, z, qx, qy, qz, qw (quaternion x, y, z, w)
    lazy = gjk.dask.batch_distance(box, hull, None, poses_b)   # a dict of lazy dask arrays
    result = gjk.dask.compute(lazy)                            # a gjk.BatchResult of numpy arrays
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Union

import numpy as np

import dask
import dask.array as da

from . import batch as _batch
from ._gjk import Shape

ShapeArg = Union[Shape, Sequence[Shape]]

#: Rows per partition when a numpy array is given (dask arrays keep their own chunks).
DEFAULT_PARTITION_ROWS = 100_000


def _columns(query: str, dim: int, dtype: np.dtype) -> Dict[str, tuple]:
    """The output arrays of a query: name → (trailing shape, dtype)."""
    if query == "intersects":
        return {"intersecting": ((), np.dtype(bool)), "status": ((), np.dtype(np.uint8))}
    return {
        "distance": ((), dtype),
        "point_a": ((dim,), dtype),
        "point_b": ((dim,), dtype),
        "normal": ((dim,), dtype),
        "status": ((), np.dtype(np.uint8)),
        "error_bound": ((), dtype),
        "intersecting": ((), np.dtype(bool)),
        "iterations": ((), np.dtype(np.uint32)),
        "part_a": ((), np.dtype(np.int64)),
        "part_b": ((), np.dtype(np.int64)),
    }


def _space(a: ShapeArg) -> Shape:
    return a if isinstance(a, Shape) else list(a)[0]


def _partition(
    query: str,
    shapes: tuple,
    poses_a: Optional[np.ndarray],
    poses_b: Optional[np.ndarray],
    ids_a: Optional[np.ndarray],
    ids_b: Optional[np.ndarray],
    options: dict,
) -> Dict[str, np.ndarray]:
    """One partition: the single-process batch on its rows."""
    a, b = shapes
    result = _batch._run(
        query, a, b, poses_a, poses_b, ids_a, ids_b,
        options.get("threads"), False, options.get("on_invalid", "raise"), None, options.get("max_distance"),
    )
    return result.as_dict()


def _lazy(
    query: str,
    a: ShapeArg,
    b: ShapeArg,
    poses_a: Any,
    poses_b: Any,
    ids_a: Any,
    ids_b: Any,
    partition_rows: int,
    options: dict,
) -> Dict[str, da.Array]:
    for side, shapes, ids in (("a", a, ids_a), ("b", b, ids_b)):
        if not isinstance(shapes, Shape) and ids is None:
            raise ValueError(f"{side} is a sequence of shapes: give ids_{side} (a dask or numpy array of indices)")
    inputs: List[Optional[da.Array]] = []
    for x in (poses_a, poses_b, ids_a, ids_b):
        if x is None:
            inputs.append(None)
        elif isinstance(x, da.Array):
            inputs.append(x)
        else:
            arr = np.asarray(x)
            inputs.append(da.from_array(arr, chunks=(partition_rows,) + arr.shape[1:]))
    present = [x for x in inputs if x is not None]
    if not present:
        raise ValueError("give at least one of poses_a, poses_b, ids_a, ids_b as an array of N rows")
    n = present[0].shape[0]
    for x in present:
        if x.shape[0] != n:
            raise ValueError(f"the inputs disagree on the number of rows: {x.shape[0]} and {n}")
    row_chunks = present[0].chunks[0]
    blocks: List[Optional[Any]] = []
    for x in inputs:
        if x is None:
            blocks.append(None)
            continue
        x = x.rechunk({0: row_chunks, **{i: -1 for i in range(1, x.ndim)}})
        blocks.append(x.to_delayed().reshape(-1))
    first = _space(a)
    columns = _columns(query, first.dim, np.dtype(first.dtype))
    # The shapes travel once, as one object of the graph, not inside every task.
    shapes = dask.delayed((a, b), pure=True, traverse=False)
    parts: Dict[str, List[da.Array]] = {k: [] for k in columns}
    for k, rows in enumerate(row_chunks):
        args = [blk[k] if blk is not None else None for blk in blocks]
        out = dask.delayed(_partition, pure=True)(query, shapes, *args, options)
        for name, (trailing, dt) in columns.items():
            parts[name].append(da.from_delayed(out[name], shape=(rows,) + trailing, dtype=dt))
    return {name: da.concatenate(p, axis=0) for name, p in parts.items()}


_DOC = """
    Lazy: returns a dict of dask arrays (the names of :class:`gjk.BatchResult`), one task per partition of the
    inputs; ``gjk.dask.compute(result)`` (or ``dask.compute``) runs it on the current client.

    a, b: a shape for every row, or a palette (sequence of shapes) indexed by ``ids_a`` / ``ids_b``.
    poses_a, poses_b: dask (or numpy) arrays ``[N, 4, 4]`` / ``[N, 7]`` (quaternion x, y, z, w) in 3D,
        ``[N, 3, 3]`` / ``[N, 3]`` in 2D, or ``None`` for the identity. The first dask array's row chunks are the
        partitions; the others are rechunked to match. Numpy arrays are cut into ``partition_rows`` rows.
    ids_a, ids_b: dask (or numpy) int arrays ``[N]``.
    threads: threads per task inside a worker (default: every core of the worker's machine).
    on_invalid: as in the single-process batch ("raise" fails the task, and the job, naming the row within its
        partition; "status" marks the row with status 4).
"""


def batch_distance(
    a: ShapeArg,
    b: ShapeArg,
    poses_a: Any = None,
    poses_b: Any = None,
    *,
    ids_a: Any = None,
    ids_b: Any = None,
    max_distance: Optional[float] = None,
    threads: Optional[int] = None,
    on_invalid: str = "raise",
    partition_rows: int = DEFAULT_PARTITION_ROWS,
) -> Dict[str, da.Array]:
    """:func:`gjk.batch_distance` over dask arrays, partition by partition."""
    opts = {"threads": threads, "on_invalid": on_invalid, "max_distance": max_distance}
    return _lazy("distance", a, b, poses_a, poses_b, ids_a, ids_b, partition_rows, opts)


def batch_penetration(
    a: ShapeArg,
    b: ShapeArg,
    poses_a: Any = None,
    poses_b: Any = None,
    *,
    ids_a: Any = None,
    ids_b: Any = None,
    threads: Optional[int] = None,
    on_invalid: str = "raise",
    partition_rows: int = DEFAULT_PARTITION_ROWS,
) -> Dict[str, da.Array]:
    """:func:`gjk.batch_penetration` over dask arrays, partition by partition."""
    opts = {"threads": threads, "on_invalid": on_invalid}
    return _lazy("penetration", a, b, poses_a, poses_b, ids_a, ids_b, partition_rows, opts)


def batch_intersects(
    a: ShapeArg,
    b: ShapeArg,
    poses_a: Any = None,
    poses_b: Any = None,
    *,
    ids_a: Any = None,
    ids_b: Any = None,
    threads: Optional[int] = None,
    on_invalid: str = "raise",
    partition_rows: int = DEFAULT_PARTITION_ROWS,
) -> Dict[str, da.Array]:
    """:func:`gjk.batch_intersects` over dask arrays, partition by partition."""
    opts = {"threads": threads, "on_invalid": on_invalid}
    return _lazy("intersects", a, b, poses_a, poses_b, ids_a, ids_b, partition_rows, opts)


for _f in (batch_distance, batch_penetration, batch_intersects):
    _f.__doc__ = (_f.__doc__ or "") + "\n" + _DOC


def compute(lazy: Dict[str, da.Array], **kwargs: Any) -> _batch.BatchResult:
    """Runs a lazy batch (on the current dask client, if any) and returns a :class:`gjk.BatchResult`."""
    names = list(lazy)
    arrays = dask.compute(*[lazy[k] for k in names], **kwargs)
    return _batch.BatchResult(dict(zip(names, arrays)))


def _frame_columns(query: str, dim: int) -> List[str]:
    axes = "xyz"[:dim]
    if query == "intersects":
        return ["intersecting", "status"]
    cols = ["distance"]
    for name in ("point_a", "point_b", "normal"):
        cols += [f"{name}_{c}" for c in axes]
    return cols + ["status", "error_bound", "intersecting", "iterations", "part_a", "part_b"]


def _frame_partition(
    df: Any,
    query: str,
    shapes: tuple,
    pose_a: Optional[Sequence[str]],
    pose_b: Optional[Sequence[str]],
    id_a: Optional[str],
    id_b: Optional[str],
    options: dict,
) -> Any:
    import pandas as pd

    a, b = shapes
    dtype = np.dtype(_space(a).dtype)
    pa = df[list(pose_a)].to_numpy(dtype=dtype) if pose_a else None
    pb = df[list(pose_b)].to_numpy(dtype=dtype) if pose_b else None
    ia = df[id_a].to_numpy(dtype=np.int64) if id_a else None
    ib = df[id_b].to_numpy(dtype=np.int64) if id_b else None
    n = len(df)
    if pa is None and pb is None and ia is None and ib is None:
        raise ValueError("name at least one pose or id column")
    if n == 0:
        out = {k: np.zeros((0,) + t, dt) for k, (t, dt) in _columns(query, _space(a).dim, dtype).items()}
    else:
        out = _partition(query, shapes, pa, pb, ia, ib, options)
    data = {}
    for name, values in out.items():
        if values.ndim == 2:
            for j, c in enumerate("xyz"[: values.shape[1]]):
                data[f"{name}_{c}"] = values[:, j]
        else:
            data[name] = values
    return pd.DataFrame(data, index=df.index)[_frame_columns(query, _space(a).dim)]


def dataframe_batch(
    df: Any,
    a: ShapeArg,
    b: ShapeArg,
    query: str = "distance",
    *,
    pose_a: Optional[Sequence[str]] = None,
    pose_b: Optional[Sequence[str]] = None,
    id_a: Optional[str] = None,
    id_b: Optional[str] = None,
    max_distance: Optional[float] = None,
    threads: Optional[int] = None,
    on_invalid: str = "raise",
) -> Any:
    """A query ("distance", "penetration" or "intersects") over a dask dataframe, partition by partition.

    ``pose_a`` / ``pose_b`` name the pose columns of each row — 3D: x, y, z, qx, qy, qz, qw (quaternion in
    **x, y, z, w** order); 2D: x, y, angle — or are None (identity); ``id_a`` / ``id_b`` name integer columns
    indexing the palettes ``a`` / ``b``. Returns a lazy dask dataframe with the same index and the columns
    ``distance, point_a_x, …, normal_z, status, error_bound, intersecting, iterations, part_a, part_b``
    (``intersecting, status``
    for "intersects").
    """
    import pandas as pd

    if query not in ("distance", "penetration", "intersects"):
        raise ValueError(f"query must be distance, penetration or intersects, got {query!r}")
    first = _space(a)
    dtype = np.dtype(first.dtype)
    meta_cols = {}
    for name, (trailing, dt) in _columns(query, first.dim, dtype).items():
        if trailing:
            for c in "xyz"[: first.dim]:
                meta_cols[f"{name}_{c}"] = pd.Series([], dtype=dt)
        else:
            meta_cols[name] = pd.Series([], dtype=dt)
    meta = pd.DataFrame(meta_cols)[_frame_columns(query, first.dim)]
    options = {"threads": threads, "on_invalid": on_invalid, "max_distance": max_distance}
    return df.map_partitions(
        _frame_partition, query, (a, b), pose_a, pose_b, id_a, id_b, options, meta=meta, align_dataframes=False
    )


__all__ = [
    "DEFAULT_PARTITION_ROWS",
    "batch_distance",
    "batch_intersects",
    "batch_penetration",
    "compute",
    "dataframe_batch",
]

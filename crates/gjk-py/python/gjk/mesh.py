"""Interop with the ``trimesh`` package (optional dependency: ``pip install gjk[trimesh]``)."""

from __future__ import annotations

from typing import Any, Optional

import numpy as np

from ._gjk import ConvexHull, Shape


def from_trimesh(mesh: Any, dtype: Optional[Any] = None) -> Shape:
    """A :class:`gjk.ConvexHull` of a ``trimesh.Trimesh``'s vertices (float64 unless ``dtype`` says float32).

    A convex mesh becomes exactly itself; a non-convex one becomes its convex hull (composite shapes — a mesh as
    its triangles — are not in the bindings yet). Anything with a ``vertices`` array [N, 3] (a ``PointCloud``, a
    ``Trimesh``) is accepted.
    """
    vertices = getattr(mesh, "vertices", None)
    if vertices is None:
        raise TypeError(f"from_trimesh needs a trimesh object with vertices, got {type(mesh).__name__}")
    return ConvexHull(np.asarray(vertices, dtype=np.float64), dtype=dtype)


def _directions_3d(resolution: int) -> np.ndarray:
    import trimesh

    return np.asarray(trimesh.creation.icosphere(subdivisions=resolution).vertices)


def to_trimesh(shape: Shape, resolution: int = 3) -> Any:
    """A ``trimesh.Trimesh`` of the shape's surface, in its local frame (apply a pose with ``apply_transform``).

    Polytopes are exact: a ConvexHull's own faces (fan-triangulated), a Box's 12 triangles, a Triangle's one face.
    Curved shapes and combinators are tessellated: the convex hull of their support points along the vertices of an
    icosphere of ``resolution`` subdivisions (642 directions at 3), so every mesh vertex lies on the true surface.
    2D shapes give a flat mesh in the plane z = 0 (``8 · 2**resolution`` directions). A Segment or a Point has no
    surface: its mesh has the vertices and no faces.
    """
    import trimesh

    kind = shape.kind
    if shape.dim == 2:
        return _flat(shape, resolution)
    if kind == "Box":
        return trimesh.creation.box(extents=2.0 * np.asarray(shape.params["half_extents"], dtype=np.float64))
    if kind == "Triangle":
        p = shape.params
        return trimesh.Trimesh(vertices=np.array([p["a"], p["b"], p["c"]], dtype=np.float64), faces=[[0, 1, 2]])
    if kind in ("Segment", "Point"):
        pts = [shape.params["a"], shape.params["b"]] if kind == "Segment" else [shape.params["at"]]
        return trimesh.Trimesh(vertices=np.array(pts, dtype=np.float64), faces=np.zeros((0, 3), dtype=np.int64))
    if kind == "ConvexHull":
        vertices = np.asarray(shape.vertices, dtype=np.float64)
        if shape.faces is not None:
            tris = [[f[0], f[i], f[i + 1]] for f in shape.faces for i in range(1, len(f) - 1)]
            return trimesh.Trimesh(vertices=vertices, faces=np.array(tris, dtype=np.int64), process=False)
        points = vertices
    else:
        points = np.asarray(shape.support(_directions_3d(resolution)), dtype=np.float64)
    try:
        return trimesh.convex.convex_hull(points)
    except Exception:  # flat or needle-like point sets have no 3D hull: keep their points
        return trimesh.Trimesh(vertices=np.unique(points, axis=0), faces=np.zeros((0, 3), dtype=np.int64))


def _flat(shape: Shape, resolution: int) -> Any:
    """A 2D shape as a fan-triangulated convex polygon in the plane z = 0."""
    import trimesh

    if shape.kind == "ConvexHull":
        ring = np.asarray(shape.vertices, dtype=np.float64)
    else:
        angles = np.linspace(0.0, 2.0 * np.pi, 8 * 2**resolution, endpoint=False)
        ring = np.asarray(shape.support(np.stack([np.cos(angles), np.sin(angles)], axis=1)), dtype=np.float64)
    # Counter-clockwise around the centroid, repeated support points dropped.
    centre = ring.mean(axis=0)
    order = np.argsort(np.arctan2(ring[:, 1] - centre[1], ring[:, 0] - centre[0]), kind="stable")
    ring = ring[order]
    keep = np.ones(len(ring), dtype=bool)
    keep[1:] = np.any(ring[1:] != ring[:-1], axis=1)
    ring = ring[keep]
    vertices = np.column_stack([ring, np.zeros(len(ring))])
    faces = np.array([[0, i, i + 1] for i in range(1, len(ring) - 1)], dtype=np.int64).reshape(-1, 3)
    return trimesh.Trimesh(vertices=vertices, faces=faces, process=False)

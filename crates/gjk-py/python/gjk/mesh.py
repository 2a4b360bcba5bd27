"""Interop with the ``trimesh`` package (optional dependency: ``pip install gjk[trimesh]``)."""

from __future__ import annotations

from typing import Any, List, Optional

import numpy as np

from ._gjk import (
    Box,
    Capsule,
    Compound,
    ConvexHull,
    Cylinder,
    Posed,
    Shape,
    Sphere,
    TriMesh,
)

#: What ``from_trimesh`` makes of a mesh (``kind=``).
KINDS = ("auto", "hull", "trimesh", "compound")

# gjk's capsules and cylinders lie along local y, trimesh's along z: a +90° turn about x carries y onto z.
_Y_TO_Z = np.array([[1.0, 0.0, 0.0, 0.0], [0.0, 0.0, -1.0, 0.0], [0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0]])


def _is_rigid(m: np.ndarray) -> bool:
    """A homogeneous matrix of a rotation and a translation (no scale, shear or reflection)."""
    r = m[:3, :3]
    return (
        bool(np.all(np.isfinite(m)))
        and np.allclose(m[3], [0.0, 0.0, 0.0, 1.0], atol=1e-12)
        and np.allclose(r.T @ r, np.eye(3), atol=1e-9)
        and np.linalg.det(r) > 0
    )


def _primitive(mesh: Any, dtype: Optional[Any]) -> Optional[Shape]:
    """The exact gjk shape of a trimesh primitive (Box, Sphere, Capsule, Cylinder) at its transform, or None."""
    try:
        from trimesh import primitives
    except ImportError:  # pragma: no cover - trimesh is what hands us primitives
        return None
    prim = getattr(mesh, "primitive", None)
    if prim is None or not isinstance(mesh, primitives.Primitive):
        return None
    transform = np.asarray(getattr(prim, "transform", np.eye(4)), dtype=np.float64)
    if not _is_rigid(transform):
        return None
    if isinstance(mesh, primitives.Box):
        shape: Shape = Box(0.5 * np.asarray(prim.extents, dtype=np.float64), dtype=dtype)
    elif isinstance(mesh, primitives.Sphere):
        shape = Sphere(float(prim.radius), dtype=dtype)
    elif isinstance(mesh, primitives.Capsule):
        shape = Capsule(0.5 * float(prim.height), float(prim.radius), dtype=dtype)
        transform = transform @ _Y_TO_Z
    elif isinstance(mesh, primitives.Cylinder):
        shape = Cylinder(0.5 * float(prim.height), float(prim.radius), dtype=dtype)
        transform = transform @ _Y_TO_Z
    else:
        return None
    if np.array_equal(transform, np.eye(4)):
        return shape
    return Posed(shape, transform)


def _parts(meshes: List[Any], dtype: Optional[Any]) -> Shape:
    """A Compound of convex parts: each mesh's exact primitive, or the convex hull of its vertices."""
    parts = [from_trimesh(m, kind="hull", dtype=dtype) for m in meshes]
    if not parts:
        raise ValueError("from_trimesh: no part to make a Compound of")
    return Compound(parts)


def from_trimesh(mesh: Any, kind: str = "auto", dtype: Optional[Any] = None) -> Shape:
    """A gjk shape from a ``trimesh`` object (float64 unless ``dtype`` says float32).

    What it becomes:

    * a **primitive** (``trimesh.primitives.Box``, ``Sphere``, ``Capsule``, ``Cylinder``) becomes the exact gjk
      shape (a ``Box`` of half its extents, a ``Capsule`` of half its height...), wrapped in ``Posed`` at the
      primitive's transform (gjk's capsules and cylinders lie along local y, trimesh's along z: the pose turns
      them), whatever ``kind`` says but ``"trimesh"`` — not the hull of a tessellation;
    * a **Trimesh**, with ``kind="auto"`` (default): a ``ConvexHull`` of its vertices when the mesh is convex
      (``mesh.is_convex``: exactly itself), otherwise a ``TriMesh`` of its faces (the exact non-convex surface;
      solid when closed and consistently oriented). ``kind="hull"``: always the ``ConvexHull`` (a convex
      stand-in, filling holes and dents); ``kind="trimesh"``: always the ``TriMesh``; ``kind="compound"``: a
      ``Compound`` of the convex hulls of its connected components (``mesh.split``) — a convex decomposition saved
      as one mesh;
    * a **Scene** (what ``trimesh.load`` returns for an OBJ of several objects, as V-HACD and CoACD write them):
      a ``Compound`` of its geometries' hulls (or primitives) at their scene transforms (``kind="trimesh"``: one
      ``TriMesh`` of the whole scene);
    * a **list** of meshes: a ``Compound`` of their hulls (or primitives), each in its own coordinates;
    * anything else with a ``vertices`` array [N, 3] (a ``PointCloud``): its ``ConvexHull``.
    """
    if kind not in KINDS:
        raise ValueError(f"from_trimesh: kind must be one of {KINDS}, got {kind!r}")
    if isinstance(mesh, (list, tuple)):
        return _parts(list(mesh), dtype)
    if hasattr(mesh, "graph") and hasattr(mesh, "geometry"):  # a trimesh.Scene
        if kind == "trimesh":
            return from_trimesh(mesh.to_geometry() if hasattr(mesh, "to_geometry") else mesh.dump(concatenate=True),
                                kind="trimesh", dtype=dtype)
        parts, poses = [], []
        for node in mesh.graph.nodes_geometry:
            transform, name = mesh.graph[node]
            part = from_trimesh(mesh.geometry[name], kind="hull", dtype=dtype)
            parts.append(part)
            poses.append(np.asarray(transform, dtype=np.float64))
        if not parts:
            raise ValueError("from_trimesh: the scene holds no geometry")
        return Compound(parts, np.stack(poses))
    if kind != "trimesh":
        prim = _primitive(mesh, dtype)
        if prim is not None:
            return prim
    vertices = getattr(mesh, "vertices", None)
    if vertices is None:
        raise TypeError(f"from_trimesh needs a trimesh object with vertices, got {type(mesh).__name__}")
    vertices = np.asarray(vertices, dtype=np.float64)
    faces = getattr(mesh, "faces", None)
    if faces is None or len(faces) == 0:
        if kind == "trimesh":
            raise ValueError("from_trimesh: kind='trimesh' needs a mesh with faces")
        return ConvexHull(vertices, dtype=dtype)
    if kind == "compound":
        return _parts(list(mesh.split(only_watertight=False)), dtype)
    if kind == "hull" or (kind == "auto" and mesh.is_convex):
        return ConvexHull(vertices, dtype=dtype)
    return TriMesh(vertices, np.asarray(faces, dtype=np.int64), dtype=dtype)


def _directions_3d(resolution: int) -> np.ndarray:
    import trimesh

    return np.asarray(trimesh.creation.icosphere(subdivisions=resolution).vertices)


def to_trimesh(shape: Shape, resolution: int = 3, extent: float = 100.0) -> Any:
    """A ``trimesh.Trimesh`` of the shape's surface, in its local frame (apply a pose with ``apply_transform``).

    Polytopes are exact: a ConvexHull's own faces (fan-triangulated), a Box's 12 triangles, a Triangle's one face.
    Curved shapes and combinators are tessellated: the convex hull of their support points along the vertices of an
    icosphere of ``resolution`` subdivisions (642 directions at 3), so every mesh vertex lies on the true surface.
    A TriMesh is its own triangles; a HeightField its grid's triangles (as the library splits its cells); a
    Compound the union of its parts' meshes at their poses (not merged: overlapping parts overlap); a HalfSpace,
    being infinite, a square of its boundary plane of half-side ``extent`` around its origin (two triangles,
    facing out). 2D shapes give a flat mesh in the plane z = 0 (``8 · 2**resolution`` directions); a 2D TriMesh or
    HeightField, its vertices (segments have no faces). A Segment or a Point has no surface: its mesh has the
    vertices and no faces.
    """
    import trimesh

    kind = shape.kind
    if kind == "Compound":
        meshes = []
        for part, pose in zip(shape.params["parts"], shape.poses):
            m = to_trimesh(part, resolution, extent)
            if shape.dim == 2:
                lift = np.eye(4)
                lift[:2, :2], lift[:2, 3] = pose[:2, :2], pose[:2, 2]
                pose = lift
            m.apply_transform(pose)
            meshes.append(m)
        return trimesh.util.concatenate(meshes)
    if kind in ("TriMesh", "HeightField"):
        corners = np.asarray(shape.facets(), dtype=np.float64)
        if shape.dim == 2:
            pts = corners.reshape(-1, 2)
            return trimesh.Trimesh(vertices=np.column_stack([pts, np.zeros(len(pts))]),
                                   faces=np.zeros((0, 3), dtype=np.int64), process=False)
        if kind == "TriMesh":
            return trimesh.Trimesh(vertices=np.asarray(shape.vertices, dtype=np.float64),
                                   faces=np.asarray(shape.indices, dtype=np.int64), process=False)
        faces = np.arange(3 * len(corners), dtype=np.int64).reshape(-1, 3)
        mesh = trimesh.Trimesh(vertices=corners.reshape(-1, 3), faces=faces, process=False)
        mesh.merge_vertices()
        return mesh
    if kind == "HalfSpace":
        return _plane(np.asarray(shape.params["normal"], dtype=np.float64), extent)
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


def _plane(normal: np.ndarray, extent: float) -> Any:
    """A square of half-side `extent` of the plane through the origin across `normal` (3D; a strip in 2D)."""
    import trimesh

    n = normal / np.linalg.norm(normal)
    if len(n) == 2:
        t = np.array([-n[1], n[0]])
        ends = np.array([-extent * t, extent * t])
        return trimesh.Trimesh(vertices=np.column_stack([ends, np.zeros(2)]), faces=np.zeros((0, 3), dtype=np.int64))
    u = np.cross(n, [1.0, 0.0, 0.0] if abs(n[0]) < 0.9 else [0.0, 1.0, 0.0])
    u /= np.linalg.norm(u)
    v = np.cross(n, u)
    corners = extent * np.array([-u - v, u - v, u + v, -u + v])
    return trimesh.Trimesh(vertices=corners, faces=[[0, 1, 2], [0, 2, 3]], process=False)


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

"""trimesh interop: a mesh becomes a hull that answers like the mesh; to_trimesh meshes lie on the surface."""

import numpy as np
import pytest

import gjk

trimesh = pytest.importorskip("trimesh")


def test_from_trimesh_box_answers_like_the_box(rng):
    mesh = trimesh.creation.box(extents=[2.0, 1.0, 0.5])
    hull = gjk.from_trimesh(mesh)
    box = gjk.Box([1.0, 0.5, 0.25])
    assert hull.vertices.shape == (8, 3)
    for _ in range(100):
        p = rng.normal(size=3) * 3
        d1 = gjk.distance(hull, None, gjk.Point(p), None).distance
        d2 = gjk.distance(box, None, gjk.Point(p), None).distance
        assert abs(d1 - d2) < 1e-12


def test_from_trimesh_real_mesh_is_its_convex_hull():
    mesh = trimesh.creation.annulus(r_min=0.5, r_max=1.0, height=0.5)  # not convex: a ring
    hull = gjk.from_trimesh(mesh, dtype="float32")
    assert hull.dtype == "float32"
    # The hole is filled: the centre is inside the hull.
    assert gjk.intersects(hull, None, gjk.Point([0.0, 0.0, 0.0], dtype="float32"), None)


@pytest.mark.parametrize(
    "shape, on_surface",
    [
        (gjk.Sphere(0.7), lambda v: np.abs(np.linalg.norm(v, axis=1) - 0.7).max()),
        (gjk.Ellipsoid([1.0, 0.5, 0.25]), lambda v: np.abs(((v / [1.0, 0.5, 0.25]) ** 2).sum(1) - 1).max()),
        (
            gjk.Capsule(1.0, 0.3),
            lambda v: np.abs(np.linalg.norm(v - np.c_[0 * v[:, 0], np.clip(v[:, 1], -1, 1), 0 * v[:, 0]], axis=1) - 0.3).max(),
        ),
    ],
)
def test_to_trimesh_vertices_lie_on_curved_surfaces(shape, on_surface):
    mesh = gjk.to_trimesh(shape)
    assert mesh.is_watertight and mesh.is_convex
    assert on_surface(np.asarray(mesh.vertices)) < 1e-12


def test_to_trimesh_polytopes_are_exact(rng):
    box = gjk.to_trimesh(gjk.Box([1.0, 2.0, 3.0]))
    assert abs(box.volume - 48.0) < 1e-12
    pts = rng.normal(size=(64, 3))
    hull_mesh = gjk.to_trimesh(gjk.ConvexHull(pts))
    assert hull_mesh.is_watertight and abs(hull_mesh.volume - trimesh.convex.convex_hull(pts).volume) < 1e-9
    # Round trip: mesh → hull → mesh keeps the volume.
    again = gjk.to_trimesh(gjk.from_trimesh(hull_mesh))
    assert abs(again.volume - hull_mesh.volume) < 1e-9


def test_to_trimesh_2d_and_degenerate():
    disc = gjk.to_trimesh(gjk.Circle(1.0))
    assert np.allclose(disc.vertices[:, 2], 0.0) and abs(disc.area - np.pi) < 0.01
    square = gjk.to_trimesh(gjk.ConvexHull([[0, 0], [1, 0], [1, 1], [0, 1], [0.5, 0.5]]))
    assert abs(square.area - 1.0) < 1e-12
    seg = gjk.to_trimesh(gjk.Segment([0, 0, 0], [1, 0, 0]))
    assert len(seg.faces) == 0 and len(seg.vertices) == 2
    tri = gjk.to_trimesh(gjk.Triangle([0, 0, 0], [1, 0, 0], [0, 1, 0]))
    assert abs(tri.area - 0.5) < 1e-12

"""trimesh interop: a mesh becomes a hull that answers like the mesh; to_trimesh meshes lie on the surface."""

from pathlib import Path

import numpy as np
import pytest

import gjk

trimesh = pytest.importorskip("trimesh")
DATA = Path(__file__).resolve().parents[2] / "gjk" / "tests" / "data"


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


def test_from_trimesh_of_a_non_convex_mesh_is_its_triangles_unless_asked_for_the_hull():
    mesh = trimesh.creation.annulus(r_min=0.5, r_max=1.0, height=0.5)  # not convex: a ring
    ring = gjk.from_trimesh(mesh, dtype="float32")
    assert ring.kind == "TriMesh" and ring.dtype == "float32" and ring.is_solid
    centre = gjk.Point([0.0, 0.0, 0.0], dtype="float32")
    # The hole is empty: the centre is as far from the ring as from its nearest triangle.
    nearest = min(gjk.distance(gjk.Triangle(*t, dtype="float32"), None, centre, None).distance for t in mesh.triangles)
    d = gjk.distance(ring, None, centre, None)
    assert not d.intersecting and abs(d.distance - nearest) < 1e-6 and d.distance > 0.49
    hull = gjk.from_trimesh(mesh, kind="hull", dtype="float32")
    assert hull.kind == "ConvexHull" and gjk.intersects(hull, None, centre, None)
    # A convex mesh stays a hull by default (exactly itself); kind="trimesh" keeps its triangles.
    box = trimesh.creation.box(extents=[1.0, 2.0, 3.0])
    assert gjk.from_trimesh(box).kind == "ConvexHull"
    assert gjk.from_trimesh(box, kind="trimesh").leaf_count == 12
    with pytest.raises(ValueError, match="kind must be one of"):
        gjk.from_trimesh(box, kind="mesh")


def _y_to_z(row_pose):
    """The same pose, with gjk's capsule axis (y) turned onto trimesh's (z)."""
    m = np.eye(4)
    m[:3, :3] = [[1, 0, 0], [0, 0, -1], [0, 1, 0]]
    return row_pose @ m


@pytest.mark.parametrize("make, exact", [
    (lambda t: trimesh.primitives.Box(extents=[1.0, 2.0, 0.5], transform=t), lambda: gjk.Box([0.5, 1.0, 0.25])),
    (lambda t: trimesh.primitives.Sphere(radius=0.7, center=t[:3, 3]), lambda: gjk.Sphere(0.7)),
    (lambda t: trimesh.primitives.Capsule(radius=0.3, height=1.2, transform=t), lambda: gjk.Capsule(0.6, 0.3)),
    (lambda t: trimesh.primitives.Cylinder(radius=0.4, height=1.0, transform=t), lambda: gjk.Cylinder(0.5, 0.4)),
])
def test_from_trimesh_primitives_keep_their_exact_shape_and_pose(rng, make, exact):
    q = rng.normal(size=4)
    q /= np.linalg.norm(q)
    from conftest import quat_to_matrix

    t = np.eye(4)
    t[:3, :3] = quat_to_matrix(q)
    t[:3, 3] = rng.normal(size=3)
    prim = make(t)
    shape = gjk.from_trimesh(prim)
    assert shape.kind == "Posed"
    reference = exact()
    pose = t if reference.kind in ("Box", "Sphere") else _y_to_z(t)
    if reference.kind == "Sphere":
        pose = np.eye(4)
        pose[:3, 3] = t[:3, 3]
    worst_tessellation = 0.0
    tess = gjk.ConvexHull(np.asarray(prim.vertices))
    for p in rng.normal(size=(200, 3)) * 2.0:
        d = gjk.distance(shape, None, gjk.Point(p), None).distance
        e = gjk.distance(reference, pose, gjk.Point(p), None).distance
        assert abs(d - e) < 1e-12, (p, d, e)
        worst_tessellation = max(worst_tessellation, abs(gjk.distance(tess, None, gjk.Point(p), None).distance - e))
    # The exactness is not a coincidence of the tessellation: curved primitives' hulls are off.
    if reference.kind != "Box":
        assert worst_tessellation > 1e-4
    # An identity transform needs no Posed (but capsules and cylinders are turned from trimesh's z to gjk's y).
    turned = reference.kind in ("Capsule", "Cylinder")
    assert gjk.from_trimesh(make(np.eye(4))).kind == ("Posed" if turned else reference.kind)


def test_from_trimesh_scenes_and_lists_are_compounds(rng):
    a = trimesh.creation.box(extents=[1, 1, 1])
    b = trimesh.creation.icosphere(radius=0.5)
    b.apply_translation([3.0, 0.0, 0.0])
    c = gjk.from_trimesh([a, b])
    assert c.kind == "Compound" and c.leaf_count == 2
    d = gjk.distance(c, None, gjk.Point([1.75, 0.0, 0.0]), None)
    assert abs(d.distance - min(1.25, 0.75)) < 1e-2 and d.part_a == 1
    scene = trimesh.Scene()
    scene.add_geometry(trimesh.creation.box(extents=[1, 1, 1]), transform=trimesh.transformations.translation_matrix([0, 5, 0]))
    scene.add_geometry(trimesh.creation.box(extents=[2, 2, 2]))
    s = gjk.from_trimesh(scene)
    assert s.kind == "Compound" and s.leaf_count == 2
    assert abs(gjk.distance(s, None, gjk.Point([0.0, 7.0, 0.0]), None).distance - 1.5) < 1e-12
    split = gjk.from_trimesh(trimesh.util.concatenate([a, b]), kind="compound")
    assert split.kind == "Compound" and split.leaf_count == 2


def test_to_trimesh_of_composites(rng):
    bunny = gjk.TriMesh.from_obj(DATA / "bunny.obj")
    mesh = gjk.to_trimesh(bunny)
    assert len(mesh.faces) == bunny.leaf_count and np.array_equal(mesh.vertices, bunny.vertices)
    heights = rng.uniform(0, 1, size=(4, 5))
    field = gjk.to_trimesh(gjk.HeightField(heights, dx=0.5, dz=0.25))
    assert len(field.faces) == 24 and len(field.vertices) == 20
    assert np.allclose(sorted(field.vertices[:, 1]), sorted(heights.ravel()))
    parts = gjk.Compound([gjk.Box([0.5, 0.5, 0.5]), gjk.Box([1.0, 0.5, 0.5])], [[5, 0, 0, 0, 0, 0, 1], [0, 0, 0, 0, 0, 0, 1]])
    both = gjk.to_trimesh(parts)
    assert abs(both.volume - 3.0) < 1e-9 and abs(both.bounds[1][0] - 5.5) < 1e-12
    plane = gjk.to_trimesh(gjk.HalfSpace([0.0, 0.0, 1.0]), extent=10.0)
    assert np.allclose(plane.vertices[:, 2], 0.0) and abs(plane.area - 400.0) < 1e-9
    assert np.allclose(plane.face_normals, [0, 0, 1])


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

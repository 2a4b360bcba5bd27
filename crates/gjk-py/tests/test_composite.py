"""Composite shapes (TriMesh, Compound, HeightField) and the HalfSpace from Python: every query against brute force
over the leaves (each leaf built here, independently, as a convex gjk shape at its pose), closed forms, and the
library's leaf names (part_a / part_b)."""

import pickle
from pathlib import Path

import numpy as np
import pytest

import gjk
from conftest import quat_to_matrix, random_rows

DATA = Path(__file__).resolve().parents[2] / "gjk" / "tests" / "data"


def matrix(row):
    m = np.eye(4)
    m[:3, :3] = quat_to_matrix(row[3:])
    m[:3, 3] = row[:3]
    return m


def mesh_leaves(vertices, indices):
    """Each triangle (segment in 2D) of a mesh as a convex shape in the mesh's frame."""
    if vertices.shape[1] == 3:
        return [gjk.Triangle(*vertices[f]) for f in indices]
    return [gjk.Segment(*vertices[f]) for f in indices]


def grid_leaves(heights, dx, dz):
    """A height grid's triangles, split as documented: cell (r, c) along (r, c)–(r+1, c+1), leaves 2k and 2k+1."""
    rows, cols = heights.shape
    p = lambda r, c: np.array([c * dx, heights[r, c], r * dz])  # noqa: E731
    leaves = []
    for r in range(rows - 1):
        for c in range(cols - 1):
            leaves.append(gjk.Triangle(p(r, c), p(r + 1, c + 1), p(r, c + 1)))
            leaves.append(gjk.Triangle(p(r, c), p(r + 1, c), p(r + 1, c + 1)))
    return leaves


def brute_distance(leaves, leaf_poses, pose, other, other_pose):
    """The minimum distance over the leaves (each at pose ∘ its own pose), and its leaf."""
    ds = [gjk.distance(s, pose @ lp, other, other_pose).distance for s, lp in zip(leaves, leaf_poses)]
    return min(ds), int(np.argmin(ds)), ds


def random_mesh(rng, n=40):
    v = rng.normal(size=(n, 3))
    f = rng.integers(0, n, size=(2 * n, 3))
    return v, f


@pytest.fixture(scope="module")
def bunny():
    return gjk.TriMesh.from_obj(DATA / "bunny.obj")


def test_trimesh_construction_attributes_and_pickle(rng):
    v, f = random_mesh(rng)
    m = gjk.TriMesh(v, f)
    assert m.kind == "TriMesh" and not m.is_convex and m.leaf_count == len(f) and not m.is_solid
    assert np.array_equal(m.vertices, v) and np.array_equal(m.indices, f) and m.indices.dtype == np.uint32
    assert m.facets().shape == (len(f), 3, 3) and np.array_equal(m.facets()[5], v[f[5]])
    back = pickle.loads(pickle.dumps(m))
    d0 = gjk.distance(m, None, gjk.Sphere(0.1), [4, 1, 0, 0, 0, 0, 1])
    d1 = gjk.distance(back, None, gjk.Sphere(0.1), [4, 1, 0, 0, 0, 0, 1])
    assert d0.distance == d1.distance and d0.part_a == d1.part_a is not None
    m32 = gjk.TriMesh(v, f, dtype="float32")
    assert m32.dtype == "float32" and m32.vertices.dtype == np.float32
    with pytest.raises(ValueError, match="index is out of range"):
        gjk.TriMesh(v, [[0, 1, 99]])
    with pytest.raises(ValueError, match="must be integers"):
        gjk.TriMesh(v, [[0.0, 1.0, 2.0]])
    with pytest.raises(ValueError, match="index -1 is out of range"):
        gjk.TriMesh(v, [[0, 1, -1]])
    with pytest.raises(ValueError, match="TriMesh: mesh vertex"):
        gjk.TriMesh(np.vstack([v, [[np.nan, 0, 0]]]), f)
    with pytest.raises(ValueError, match="needs a convex shape"):
        gjk.Rounded(m, 0.1)
    with pytest.raises(ValueError, match="needs a convex shape"):
        m.support([[1.0, 0.0, 0.0]])


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_trimesh_distance_is_the_minimum_over_its_triangles(rng, dtype):
    v, f = random_mesh(rng)
    mesh = gjk.TriMesh(v, f, dtype=dtype)
    leaves = [gjk.Triangle(*v[t], dtype=dtype) for t in f]
    others = [gjk.Sphere(0.3, dtype=dtype), gjk.Box([0.2, 0.5, 0.1], dtype=dtype), gjk.Capsule(0.5, 0.1, dtype=dtype)]
    tol = 1e-12 if dtype == "float64" else 2e-5
    for i, row in enumerate(random_rows(rng, 60, spread=2.5)):
        other = others[i % 3]
        pose = random_rows(rng, 1, spread=0.5)[0]
        d = gjk.distance(mesh, pose, other, row)
        best, _, ds = brute_distance(leaves, [np.eye(4)] * len(leaves), matrix(pose), other, matrix(row))
        assert abs(d.distance - best) <= tol * (1 + best), (i, d, best)
        if best > 0:
            assert abs(ds[d.part_a] - best) <= tol * (1 + best) and d.part_b is None
            assert np.allclose(d.point_b - d.point_a, d.distance * d.normal, atol=10 * tol)
        assert bool(gjk.intersects(mesh, pose, other, row)) == d.intersecting == (best == 0)
        # B first: the same distance, the parts exchanged.
        e = gjk.distance(other, row, mesh, pose)
        assert abs(e.distance - d.distance) <= tol * (1 + best) and e.part_b is not None and e.part_a is None


def test_compound_queries_are_the_best_over_its_parts(rng):
    parts = [gjk.Box([0.5, 0.2, 0.3]), gjk.Sphere(0.4), gjk.Capsule(0.6, 0.2), gjk.ConvexHull(rng.normal(size=(12, 3)))]
    part_rows = random_rows(rng, 4, spread=1.5)
    c = gjk.Compound(parts, part_rows)
    assert c.leaf_count == 4 and c.is_solid and c.poses.shape == (4, 4, 4)
    assert np.allclose(c.poses[2], matrix(part_rows[2]), atol=1e-12)
    back = pickle.loads(pickle.dumps(c))
    ball = gjk.Sphere(0.25)
    for row in random_rows(rng, 80, spread=3.0):
        pose = random_rows(rng, 1, spread=1.0)[0]
        d = gjk.distance(c, pose, ball, row)
        best, arg, ds = brute_distance(parts, c.poses, matrix(pose), ball, matrix(row))
        assert abs(d.distance - best) <= 1e-12 * (1 + best)
        assert d.distance == gjk.distance(back, pose, ball, row).distance
        if best > 0:
            assert abs(ds[d.part_a] - best) <= 1e-12
        # Penetration: the deepest overlapping part, else the distance.
        p = gjk.penetration(c, pose, ball, row)
        signed = [gjk.penetration(s, matrix(pose) @ lp, ball, matrix(row)).distance for s, lp in zip(parts, c.poses)]
        assert abs(p.distance - min(signed)) <= 1e-9, (p, signed)
        assert p.error_bound == np.inf or best > 0
        # Linear cast toward the ball: the earliest part.
        vel = (row[:3] - pose[:3]) * 0.7
        cast = gjk.shape_cast(c, pose, vel, ball, row, [0, 0, 0], max_toi=2.0)
        times = [gjk.shape_cast(s, matrix(pose) @ lp, vel, ball, matrix(row), [0, 0, 0], max_toi=2.0) for s, lp in
                 zip(parts, c.poses)]
        hits = [t.toi for t in times if t.hit]
        assert cast.hit == bool(hits)
        if hits:
            assert abs(cast.toi - min(hits)) <= 1e-9 and times[cast.part_a].hit
            assert abs(times[cast.part_a].toi - cast.toi) <= 1e-9


def test_compound_from_obj_matches_its_objects():
    duck = gjk.Compound.from_obj(DATA / "duck_vhacd.obj")
    assert duck.leaf_count == 5 and all(p.kind == "ConvexHull" for p in duck.params["parts"])
    text = (DATA / "teddy2_VHACD_CHs.obj").read_text()
    teddy = gjk.Compound.from_obj(text=text, dtype="float32")
    assert teddy.leaf_count == 15 and teddy.dtype == "float32"
    rng = np.random.default_rng(5)
    parts = duck.params["parts"]
    for row in random_rows(rng, 40, spread=2.0):
        d = gjk.distance(duck, None, gjk.Sphere(0.05), row)
        ds = [gjk.distance(p, None, gjk.Sphere(0.05), row).distance for p in parts]
        assert abs(d.distance - min(ds)) <= 1e-12
    with pytest.raises(ValueError, match="give the OBJ file's path"):
        gjk.Compound.from_obj()
    with pytest.raises(ValueError, match="OBJ"):
        gjk.TriMesh.from_obj(text="v 0 0 zero\n")


def test_height_field_against_its_grid_triangles(rng):
    heights = rng.uniform(-0.5, 0.5, size=(6, 7))
    field = gjk.HeightField(heights, dx=0.5, dz=0.75)
    leaves = grid_leaves(heights, 0.5, 0.75)
    assert field.leaf_count == len(leaves) == 60 and field.facets().shape == (60, 3, 3)
    for i, leaf in enumerate(leaves):
        assert np.array_equal(field.facets()[i], np.array([leaf.params[k] for k in "abc"]))
    ball = gjk.Sphere(0.2)
    for _ in range(60):
        centre = np.array([rng.uniform(-0.5, 3.5), rng.uniform(0.8, 2.0), rng.uniform(-0.5, 4.5)])
        d = gjk.distance(field, None, ball, (centre, None))
        best, _, ds = brute_distance(leaves, [np.eye(4)] * len(leaves), np.eye(4), ball, matrix(np.r_[centre, 0, 0, 0, 1]))
        assert abs(d.distance - best) <= 1e-12 and abs(ds[d.part_a] - best) <= 1e-12
    # Solid below: a point under the surface inside the footprint is inside.
    assert gjk.contains_point(field, None, [1.0, -5.0, 1.0]) and not gjk.contains_point(field, None, [1.0, 5.0, 1.0])
    profile = gjk.HeightField([0.0, 1.0, 0.0], dx=1.0)
    assert profile.dim == 2 and profile.leaf_count == 2
    assert abs(gjk.distance(profile, None, gjk.Circle(0.25), [1.0, 3.0, 0.0]).distance - 1.75) < 1e-12
    with pytest.raises(ValueError, match="HeightField"):
        gjk.HeightField(np.zeros((1, 5)))


def test_half_space_closed_forms(rng):
    ground = gjk.HalfSpace([0.0, 0.0, 2.0])
    assert not ground.is_convex and ground.leaf_count is None
    for _ in range(50):
        r = rng.uniform(0.1, 1.0)
        z = rng.uniform(-2.0, 3.0)
        d = gjk.distance(ground, None, gjk.Sphere(r), ([rng.normal(), rng.normal(), z], None))
        assert abs(d.distance - max(z - r, 0.0)) < 1e-12
        p = gjk.penetration(ground, None, gjk.Sphere(r), ([0.3, 0.1, z], None))
        assert abs(p.distance - (z - r)) < 1e-12 and np.allclose(p.normal, [0, 0, 1])
    lo, hi = ground.aabb(([1.0, 2.0, 3.0], None))
    assert hi[2] == 3.0 and np.isinf(lo).all() and np.isinf(hi[:2]).all()
    r = gjk.ray_cast(ground, None, [0, 0, 5], [0, 0, -2])
    assert r.hit and r.toi == 2.5 and r.part is None
    with pytest.raises(ValueError, match="HalfSpace"):
        gjk.HalfSpace([0.0, 0.0, 0.0])


def test_ray_casts_against_a_mesh_are_the_nearest_triangle(rng, bunny):
    v, f = bunny.vertices, bunny.indices
    leaves = mesh_leaves(v, f)
    lo, hi = bunny.aabb()
    centre = 0.5 * (lo + hi)
    size = float(np.max(hi - lo))
    for _ in range(40):
        origin = centre + rng.normal(size=3) * size
        direction = centre + rng.normal(size=3) * 0.2 * size - origin
        r = gjk.ray_cast(bunny, None, origin, direction, solid=False)
        times = [gjk.ray_cast(t, None, origin, direction, solid=False) for t in leaves]
        hits = [t.toi for t in times if t.hit]
        assert r.hit == bool(hits)
        if hits:
            assert abs(r.toi - min(hits)) <= 1e-12 and abs(times[r.part].toi - r.toi) <= 1e-12


def winding_number(vertices, faces, p):
    """The generalised winding number of a closed mesh around p (van Oosterom–Strackee solid angles): 1 inside, 0
    outside — an inside test independent of the library's pseudo-normals."""
    a, b, c = (vertices[faces[:, k]] - p for k in range(3))
    la, lb, lc = (np.linalg.norm(x, axis=1) for x in (a, b, c))
    det = np.einsum("ij,ij->i", a, np.cross(b, c))
    div = la * lb * lc + np.einsum("ij,ij->i", a, b) * lc + np.einsum("ij,ij->i", b, c) * la
    div += np.einsum("ij,ij->i", c, a) * lb
    return np.sum(2.0 * np.arctan2(det, div)) / (4.0 * np.pi)


def test_project_point_on_a_closed_non_convex_mesh(rng):
    trimesh = pytest.importorskip("trimesh")
    ring = trimesh.creation.annulus(r_min=0.5, r_max=1.0, height=0.5)  # watertight, not convex
    mesh = gjk.from_trimesh(ring)
    assert mesh.kind == "TriMesh" and mesh.is_solid
    v, f = np.asarray(ring.vertices), np.asarray(ring.faces)
    leaves = mesh_leaves(v, f)
    pts = rng.uniform(-1.2, 1.2, size=(200, 3)) * [1, 1, 0.4]
    inside = 0
    for p in pts:
        w = winding_number(v, f, p)
        assert abs(w - round(w)) < 1e-9
        proj = gjk.project_point(mesh, None, p)
        assert proj.inside == (round(w) == 1), (p, w)
        inside += proj.inside
        if not proj.inside:
            ds = [gjk.distance(t, None, gjk.Point(p), None).distance for t in leaves]
            assert abs(proj.distance - min(ds)) < 1e-12 and abs(ds[proj.part] - proj.distance) < 1e-12
            assert abs(np.linalg.norm(proj.point - p) - proj.distance) < 1e-12
    assert 20 < inside < 180
    assert not gjk.contains_point(mesh, None, [0.0, 0.0, 0.0])  # the hole
    assert gjk.contains_point(mesh, ([5.0, 0.0, 0.0], None), [5.75, 0.0, 0.1])  # in the ring, moved


def test_box_resting_on_a_tessellated_floor_has_one_face_manifold():
    n = 5
    xs = np.linspace(-2, 2, n)
    v = np.array([[x, 0.0, z] for x in xs for z in xs])
    tris = []
    for i in range(n - 1):
        for j in range(n - 1):
            k = i * n + j
            tris += [[k, k + 1, k + n + 1], [k, k + n + 1, k + n]]
    floor = gjk.TriMesh(v, tris)
    crate = gjk.Box([0.5, 0.5, 0.5])
    m = gjk.contact_manifold(floor, None, crate, [0.3, 0.49, 0.2, 0, 0, 0, 1])
    assert m.manifolds == 1 and len(m) == 4 and np.allclose(m.normal, [0, 1, 0])
    assert np.allclose(m.depths, 0.01, atol=1e-12) and (m.part_a >= 0).all() and (m.part_b == -1).all()
    assert abs(m.distance + 0.01) < 1e-12 and m.normals.shape == (4, 3)
    # Convex pairs keep their single manifold, parts −1.
    c = gjk.contact_manifold(crate, None, crate, [0, 0.99, 0, 0, 0, 0, 1])
    assert len(c) == 4 and c.manifolds == 1 and (c.part_a == -1).all()


def test_time_of_impact_against_a_mesh_is_the_earliest_triangle(rng):
    v, f = random_mesh(rng, 20)
    mesh = gjk.TriMesh(v, f)
    leaves = mesh_leaves(v, f)
    bar = gjk.Box([0.6, 0.05, 0.05])
    for _ in range(10):
        start = rng.normal(size=3) * 4
        vel = -start * 0.5 + rng.normal(size=3) * 0.3
        w = rng.normal(size=3)
        t = gjk.time_of_impact(mesh, None, [0, 0, 0], None, bar, (start, None), vel, w, max_toi=3.0)
        each = [gjk.time_of_impact(s, None, [0, 0, 0], None, bar, (start, None), vel, w, max_toi=3.0) for s in leaves]
        hits = [e.toi for e in each if e.hit]
        assert t.hit == bool(hits)
        if hits:
            assert abs(t.toi - min(hits)) <= 1e-9 and each[t.part_a].hit


def test_options_of_convex_functions_are_refused_for_composites(rng):
    v, f = random_mesh(rng, 10)
    with pytest.raises(ValueError, match="max_iterations and tolerance apply to two convex shapes"):
        gjk.distance(gjk.TriMesh(v, f), None, gjk.Sphere(1.0), None, max_iterations=10)


def test_2d_polyline_and_compound(rng):
    square = gjk.TriMesh([[0, 0], [1, 0], [1, 1], [0, 1]], [[0, 1], [1, 2], [2, 3], [3, 0]])
    assert square.dim == 2 and square.is_solid
    p = gjk.project_point(square, None, [0.5, 2.0])
    assert not p.inside and np.allclose(p.point, [0.5, 1.0]) and p.distance == 1.0 and p.part == 2
    assert gjk.contains_point(square, None, [0.5, 0.4])
    c = gjk.Compound([gjk.Circle(0.5), gjk.Box([0.5, 0.1])], [[-1, 0, 0], [1, 0, 0.3]])
    d = gjk.distance(c, None, gjk.Circle(0.1), [-1, 2, 0])
    assert abs(d.distance - 1.4) < 1e-12 and d.part_a == 0

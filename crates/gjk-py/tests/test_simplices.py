"""Witness simplices: `gjk.distance(..., simplices=True)` in 2D and 3D, and `gjk.distance_nd` on point sets of ℝⁿ.

Every answer is checked against references computed here, apart from the library:
* the simplex itself: weights positive summing to 1, each point the input row (corner, end) its index names placed
  by the pose, Σ wᵢ pᵢ the core's closest point to 1e-12 of the numbers in play;
* the distance, by a duality certificate: the weighted points are points of the hulls (so ‖pa − pb‖ bounds the
  distance from above), and the slab between the planes through them normal to pb − pa holds every input point of
  A on one side and of B on the other (so the distance is at least the slab's width); both bounds agree to 1e-12;
* in ℝⁿ, the distance of a quadratic program on the hulls' weights (scipy's SLSQP) and, in 2D/3D, gjk's own
  ConvexHull query.
"""

import itertools

import numpy as np
import pytest

import gjk
from conftest import quat_to_matrix, random_quaternions


def rotation(pose, dim):
    if dim == 3:
        return quat_to_matrix(pose[3:])
    c, s = np.cos(pose[2]), np.sin(pose[2])
    return np.array([[c, -s], [s, c]])


def place(pose, p, dim):
    """A local point in the world: R p + t, pose a row (x, y, z, qx, qy, qz, qw) or (x, y, angle)."""
    return rotation(pose, dim) @ np.asarray(p, dtype=float) + pose[:dim]


def random_pose(rng, dim, spread, offset):
    if dim == 3:
        return np.concatenate([rng.normal(size=3) * spread + offset, random_quaternions(rng, 1)[0]])
    return np.concatenate([rng.normal(size=2) * spread + offset, [rng.uniform(-np.pi, np.pi)]])


def random_shape(rng, dim, kind):
    """A convex shape, its points in its own frame as the witness indices number them, and its radius."""
    if kind == "hull":
        pts = rng.normal(size=(rng.integers(1, 9), dim)) * 0.7
        return gjk.ConvexHull(pts), pts, 0.0
    if kind == "box":
        he = np.abs(rng.normal(size=dim)) * 0.5 + 0.1
        corners = np.array([[he[k] if i >> k & 1 else -he[k] for k in range(dim)] for i in range(1 << dim)])
        return gjk.Box(he), corners, 0.0
    if kind == "segment":
        a, b = rng.normal(size=(2, dim)) * 0.6
        return gjk.Segment(a, b), np.array([a, b]), 0.0
    if kind == "triangle":
        a, b, c = rng.normal(size=(3, dim)) * 0.6
        return gjk.Triangle(a, b, c), np.array([a, b, c]), 0.0
    if kind == "sphere":
        r = rng.uniform(0.05, 0.6)
        return (gjk.Sphere(r) if dim == 3 else gjk.Circle(r)), np.zeros((1, dim)), r
    if kind == "capsule":
        h, r = rng.uniform(0.0, 0.8), rng.uniform(0.05, 0.4)
        ends = np.zeros((2, dim))
        ends[:, 1] = [-h, h]
        return gjk.Capsule(h, r, dim=dim), ends, r
    if kind == "rounded":
        shape, pts, _ = random_shape(rng, dim, "hull")
        r = rng.uniform(0.05, 0.3)
        return gjk.Rounded(shape, r), pts, r
    raise ValueError(kind)


KINDS = ["hull", "box", "segment", "triangle", "sphere", "capsule", "rounded"]


def check_side(simplex, points_local, pose, dim, want, scale, ctx):
    """One side's simplex against the shape's own points: returns the placed points (world) of the shape."""
    idx, pts, w = simplex.indices, simplex.points, simplex.weights
    assert len(simplex) == len(idx) == len(pts) == len(w) and 1 <= len(w) <= dim + 1, ctx
    assert pts.shape == (len(w), dim) and w.dtype == np.float64, ctx
    assert np.all(w > 0) and abs(w.sum() - 1) <= 1e-14, (ctx, w)
    # Each index names the input row whose placed point is listed (no point listed twice).
    assert all(isinstance(i, int) for i in idx), (ctx, idx)
    assert len(set(idx)) == len(idx), (ctx, idx)
    world = np.array([place(pose, p, dim) for p in points_local])
    for i, p in zip(idx, pts):
        assert np.linalg.norm(world[i] - p) <= 1e-12 * scale, (ctx, i, p, world[i])
    # Σ wᵢ pᵢ is the core's closest point.
    err = np.linalg.norm(w @ pts - want)
    assert err <= 1e-12 * scale, (ctx, err)
    return world


@pytest.mark.parametrize("dim", [2, 3])
def test_random_convex_pairs_name_their_points(rng, dim):
    apart = overlapping = certified = 0
    for k in range(400):
        ka, kb = rng.choice(KINDS), rng.choice(KINDS)
        a, pts_a, ra = random_shape(rng, dim, ka)
        b, pts_b, rb = random_shape(rng, dim, kb)
        offset = [0.0, 1e4][k % 5 == 4]
        pa, pb = random_pose(rng, dim, 0.4, offset), random_pose(rng, dim, 0.8, offset)
        d = gjk.distance(a, pa, b, pb, simplices=True)
        plain = gjk.distance(a, pa, b, pb)
        ctx = (k, ka, kb, pa.tolist(), pb.tolist(), d)
        # The same answer, bit for bit, and no simplices unless asked.
        assert d.distance == plain.distance and d.status == plain.status, ctx
        assert np.array_equal(d.point_a, plain.point_a) and np.array_equal(d.point_b, plain.point_b), ctx
        assert plain.simplex_a is None and plain.simplex_b is None
        scale = 1.0 + np.abs(pa[:dim]).max() + np.abs(pb[:dim]).max()
        want_a, want_b = d.point_a - ra * d.normal, d.point_b + rb * d.normal
        wa = check_side(d.simplex_a, pts_a, pa, dim, want_a, scale, ctx)
        wb = check_side(d.simplex_b, pts_b, pb, dim, want_b, scale, ctx)
        if d.intersecting:
            overlapping += 1
            continue
        apart += 1
        # Duality certificate on the cores: the slab normal to the closest points' difference separates every
        # point of A's core from every point of B's, and is as wide as the distance of the cores.
        gap = want_b - want_a
        core = np.linalg.norm(gap)
        if core > 1e-9 * scale:
            n = gap / core
            width = (wb @ n).min() - (wa @ n).max()
            assert abs(width - core) <= 1e-12 * scale * 4, (ctx, width, core)
            assert abs(d.distance - (core - ra - rb)) <= 1e-12 * scale * 4, ctx
            certified += 1
    assert apart > 50 and overlapping > 50 and certified > 50, (apart, overlapping, certified)


def test_box_against_a_point_core_names_the_corners_it_is_a_sum_of():
    """A box against a sphere is answered in closed form (one point of the box, not a corner): the simplex writes it
    as the corners of the box's Kuhn simplex that hold it, as the CLI does."""
    box = gjk.Box([1.0, 0.5, 0.25])
    d = gjk.distance(box, None, gjk.Sphere(0.5), ([3.0, 0.2, 0.1], None), simplices=True)
    s = d.simplex_a
    assert d.iterations == 0 and abs(d.distance - 1.5) < 1e-15
    assert all(i is not None for i in s.indices) and len(s) <= 4
    assert np.allclose(s.weights @ s.points, [1.0, 0.2, 0.1], atol=1e-15)
    assert d.simplex_b.indices == [0] and np.array_equal(d.simplex_b.points, [[3.0, 0.2, 0.1]])


def test_curved_shapes_have_no_indices_and_posed_shapes_keep_their_numbering():
    ell = gjk.Ellipsoid([1.0, 0.5, 0.7])
    hull_pts = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]], float)
    hull = gjk.ConvexHull(hull_pts)
    d = gjk.distance(ell, None, hull, ([3, 0.1, 0.1], None), simplices=True)
    assert d.simplex_a.indices == [None] and np.allclose(d.simplex_a.points[0], d.point_a, atol=1e-12)
    assert d.simplex_b.indices == [0] and np.array_equal(d.simplex_b.points, [[3.0, 0.1, 0.1]])
    # A Posed hull numbers its points as the hull does, placed by both poses.
    posed = gjk.Posed(hull, ([0, 0, 2], None))
    e = gjk.distance(gjk.Sphere(0.1), None, posed, ([3, 0, 0], None), simplices=True)
    assert e.simplex_b.indices == [0] and np.array_equal(e.simplex_b.points, [[3.0, 0.0, 2.0]])


def test_float32_shapes_answer_in_float32():
    pts = np.array([[0, 0], [1, 0], [0, 1]], float)
    d = gjk.distance(
        gjk.ConvexHull(pts, dtype="float32"), None, gjk.Box([0.5, 0.5], dtype="float32"), [3, 0.25, 0], simplices=True
    )
    assert d.simplex_a.points.dtype == np.float32 and d.simplex_a.weights.dtype == np.float64
    assert d.simplex_a.indices == [1] and abs(d.distance - 1.5) < 1e-6
    assert sorted(d.simplex_b.indices) == [0, 2]  # the box's face x = −0.5: corners (−, −) and (−, +)


def random_composite(rng, dim, kind):
    """A composite, and for the brute force its leaves as convex shapes with their points as the composite's
    simplex indices number them (local to the composite's frame): [(leaf shape, {index: local point})]."""
    if kind == "mesh":
        verts = rng.normal(size=(10, dim)) * 1.5
        faces = np.array([[i, (i + 1) % 10, (i + 4) % 10][:dim] for i in range(8)])
        leaves = [((gjk.Triangle(*verts[f]) if dim == 3 else gjk.Segment(*verts[f])), {int(i): verts[i] for i in f})
                  for f in faces]
        return gjk.TriMesh(verts, faces), leaves
    parts, poses, leaves = [], [], []
    for j in range(4):
        shape, pts, _ = random_shape(rng, dim, ["hull", "box", "segment", "triangle"][j])
        pose = random_pose(rng, dim, 1.5, 0.0)
        parts.append(shape)
        poses.append(pose)
        leaves.append((gjk.Posed(shape, pose), {i: place(pose, p, dim) for i, p in enumerate(pts)}))
    return gjk.Compound(parts, poses=poses), leaves


@pytest.mark.parametrize("dim", [2, 3])
def test_composite_simplices_come_from_the_leaf_that_realises_the_minimum_over_leaves(rng, dim):
    """A TriMesh's or Compound's distance is the minimum over its leaves, each run as a convex shape of its own
    (a Triangle or Segment of the mesh's vertices; a part Posed at its pose); the named leaf realises it, and the
    composite's simplex names that leaf's points — a mesh's vertex indices, a part's own points — placed by the
    poses, reproducing the answer's point to 1e-12 of the scale; the convex side's as for two convex shapes."""
    apart = 0
    for k in range(120):
        composite, leaves = random_composite(rng, dim, ["mesh", "compound"][k % 2])
        other, pts_o, ro = random_shape(rng, dim, ["hull", "sphere", "box"][k % 3])
        offset = [0.0, 1e4][k % 5 == 4]
        pc, po = random_pose(rng, dim, 0.5, offset), random_pose(rng, dim, 3.0, offset)
        swap = k % 4 >= 2
        args = (other, po, composite, pc) if swap else (composite, pc, other, po)
        d = gjk.distance(*args, simplices=True)
        plain = gjk.distance(*args)
        ctx = (k, swap, d)
        assert d.distance == plain.distance and np.array_equal(d.point_a, plain.point_a), ctx
        brute = [gjk.distance(*((other, po, leaf, pc) if swap else (leaf, pc, other, po))) for leaf, _ in leaves]
        scale = 1.0 + np.abs(pc[:dim]).max() + np.abs(po[:dim]).max()
        least = min(b.distance for b in brute)
        assert abs(d.distance - least) <= 1e-12 * scale, (ctx, least)
        part = d.part_b if swap else d.part_a
        assert abs(brute[part].distance - least) <= 1e-12 * scale, (ctx, part)
        (cs, ops) = (d.simplex_b, d.simplex_a) if swap else (d.simplex_a, d.simplex_b)
        (cpoint, opoint) = (d.point_b, d.point_a) if swap else (d.point_a, d.point_b)
        sign = 1.0 if swap else -1.0
        check_side(ops, pts_o, po, dim, opoint - sign * ro * d.normal, scale, ctx)
        if d.intersecting:
            continue
        apart += 1
        named = leaves[part][1]
        assert np.all(cs.weights > 0) and abs(cs.weights.sum() - 1) <= 1e-14, ctx
        assert np.linalg.norm(cs.weights @ cs.points - cpoint) <= 1e-12 * scale, ctx
        for i, p in zip(cs.indices, cs.points):
            assert i in named, (ctx, i, list(named))
            assert np.linalg.norm(place(pc, named[i], dim) - p) <= 1e-12 * scale, (ctx, i)
    assert apart >= 60, apart


def test_height_fields_name_their_samples_and_half_spaces_none():
    heights = np.array([[0.0, 0.1, 0.3], [0.2, 0.5, 0.1], [0.0, 0.4, 0.2]])
    field = gjk.HeightField(heights, dx=0.5, dz=0.5)
    d = gjk.distance(field, None, gjk.Sphere(0.1), ([0.5, 2.0, 0.5], None), simplices=True)
    # The highest sample (row 1, column 1) at (0.5, 0.5, 0.5) is nearest the ball above it: sample 1 · 3 + 1.
    assert d.part_a is not None and d.simplex_a.indices == [4], d
    assert np.array_equal(d.simplex_a.points, [[0.5, 0.5, 0.5]]) and abs(d.distance - 1.4) < 1e-12
    profile = gjk.HeightField([0.0, 1.0, 0.0], dx=1.0)
    e = gjk.distance(gjk.Circle(0.25), ([1.0, 3.0], None), profile, ([0.0, 0.0], None), simplices=True)
    assert e.simplex_b.indices == [1] and e.simplex_a.indices == [0] and abs(e.distance - 1.75) < 1e-12
    floor = gjk.HalfSpace([0.0, 0.0, 1.0])
    h = gjk.distance(floor, None, gjk.Box([0.5, 0.5, 0.5]), ([0, 0, 2.0], None), simplices=True)
    assert h.simplex_a.indices == [None] and abs(h.distance - 1.5) < 1e-12
    assert len(h.simplex_b) <= 4 and all(i is not None for i in h.simplex_b.indices)
    assert np.allclose(h.simplex_b.weights @ h.simplex_b.points, h.point_b, atol=1e-12)


# ---------------------------------------------------------------------------------------------------------------- ℝⁿ


def qp_distance(a, b):
    """min ‖Aᵀλ − Bᵀμ‖ over the weights λ, μ ≥ 0 summing to 1 each (scipy's SLSQP): an independent reference."""
    from scipy.optimize import minimize

    m = len(a)
    x0 = np.concatenate([np.full(m, 1 / m), np.full(len(b), 1 / len(b))])

    def f(x):
        g = x[:m] @ a - x[m:] @ b
        return g @ g, np.concatenate([2 * a @ g, -2 * b @ g])

    cons = [
        {"type": "eq", "fun": lambda x: x[:m].sum() - 1, "jac": lambda x: np.r_[np.ones(m), np.zeros(len(b))]},
        {"type": "eq", "fun": lambda x: x[m:].sum() - 1, "jac": lambda x: np.r_[np.zeros(m), np.ones(len(b))]},
    ]
    r = minimize(f, x0, jac=True, bounds=[(0, None)] * len(x0), constraints=cons, method="SLSQP",
                 options={"ftol": 1e-16, "maxiter": 1000})
    return float(np.sqrt(max(r.fun, 0.0)))


def check_nd(d, a, b, ta, tb, ctx):
    """The answer of distance_nd on the point sets a, b moved by ta, tb, against the certificate described above."""
    n = a.shape[1]
    A, B = a + ta, b + tb
    scale = 1.0 + max(np.abs(A).max(), np.abs(B).max())
    for s, pts, want in [(d.simplex_a, A, d.point_a), (d.simplex_b, B, d.point_b)]:
        assert d.point_a.shape == (n,) and s.points.shape == (len(s), n), ctx
        assert 1 <= len(s) <= n + 1 and np.all(s.weights > 0) and abs(s.weights.sum() - 1) <= 1e-14, (ctx, s)
        assert len(set(s.indices)) == len(s.indices), ctx
        # The indices pick the input rows, moved by the translation, exactly.
        assert np.array_equal(s.points, pts[s.indices]), ctx
        assert np.linalg.norm(s.weights @ s.points - want) <= 1e-12 * scale, ctx
    gap = d.point_b - d.point_a
    if d.intersecting:
        assert d.distance == 0.0 and np.linalg.norm(gap) <= 1e-12 * scale, ctx
        return
    n_ = gap / np.linalg.norm(gap)
    width = (B @ n_).min() - (A @ n_).max()
    assert abs(width - d.distance) <= 1e-12 * scale, (ctx, width, d.distance)
    assert abs(np.linalg.norm(gap) - d.distance) <= 1e-12 * scale, ctx


def test_random_point_sets_in_n_dimensions(rng):
    apart = touching = 0
    for k in range(300):
        n = [1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 32, 33, 64][k % 13]
        m, p = rng.integers(1, 40), rng.integers(1, 40)
        a = rng.normal(size=(m, n))
        b = rng.normal(size=(p, n)) + rng.normal(size=n) * rng.choice([0.5, 2.0, 5.0])
        ta = rng.normal(size=n) * [0.0, 1e4][k % 7 == 6]
        tb = ta + rng.normal(size=n) * 0.1
        d = gjk.distance_nd(a, b, ta, tb)
        ctx = (k, n, m, p)
        assert d.status == "converged" and d.part_a is None and d.leaves == 1, (ctx, d)
        check_nd(d, a, b, ta, tb, ctx)
        apart += not d.intersecting
        touching += d.intersecting
    assert apart > 100 and touching > 30, (apart, touching)


def test_n_dimensional_distance_agrees_with_a_quadratic_program(rng):
    """SLSQP's own accuracy is near 1e-8 on these problems: the 1e-12 claims rest on the certificate, this checks
    the distance against an optimiser that shares nothing with GJK."""
    worst = 0.0
    for k in range(40):
        n = [4, 6, 10, 20][k % 4]
        a = rng.normal(size=(rng.integers(2, 12), n))
        b = rng.normal(size=(rng.integers(2, 12), n)) + rng.normal(size=n) * 2
        d = gjk.distance_nd(a, b)
        check_nd(d, a, b, np.zeros(n), np.zeros(n), k)
        worst = max(worst, abs(d.distance - qp_distance(a, b)))
    assert worst <= 1e-6, worst


def test_n_dimensional_distance_agrees_with_the_2d_and_3d_hulls(rng):
    for k in range(60):
        n = 2 + k % 2
        a, b = rng.normal(size=(8, n)), rng.normal(size=(8, n)) + rng.normal(size=n) * 3
        d = gjk.distance_nd(a, b)
        e = gjk.distance(gjk.ConvexHull(a), None, gjk.ConvexHull(b), None)
        assert abs(d.distance - e.distance) <= 1e-12 * 10, (k, d.distance, e.distance)


def test_n_dimensional_degenerate_and_touching_sets():
    n = 6
    e = np.eye(n)
    # Two single points: the simplices are the points themselves, the distance exact.
    d = gjk.distance_nd(e[:1], 3 * e[1:2])
    assert d.distance == np.sqrt(10.0) and d.simplex_a.indices == [0] and d.simplex_b.indices == [0]
    # Repeated points, a set in a 2-flat of ℝ⁶ (collinear rows), facing a segment parallel to it.
    a = np.array([e[0], e[0], 2 * e[0], 3 * e[0], e[0]])
    b = np.array([e[0] + e[1], 2 * e[0] + e[1]])
    d = gjk.distance_nd(a, b)
    assert abs(d.distance - 1.0) <= 1e-15 and d.status == "converged"
    check_nd(d, a, b, np.zeros(n), np.zeros(n), "flat")
    # Touching at a shared vertex, and one set inside the other's hull: intersecting, distance 0.
    corners = np.array(list(itertools.product([0.0, 1.0], repeat=4)))
    touch = gjk.distance_nd(corners, corners + 1.0)
    assert touch.intersecting and touch.distance == 0.0
    check_nd(touch, corners, corners + 1.0, np.zeros(4), np.zeros(4), "touch")
    inside = gjk.distance_nd(corners, 0.25 + 0.5 * corners[:5])
    assert inside.intersecting
    # A gap of 1e-6 at an offset of 1e4: the facet x₀ = 1 of the cube against a point just past it.
    off = np.full(4, 1e4)
    far = gjk.distance_nd(corners, np.array([[1 + 1e-6, 0.5, 0.5, 0.5]]), off, off)
    assert abs(far.distance - 1e-6) <= 1e-12 * 1e4, far.distance
    check_nd(far, corners, np.array([[1 + 1e-6, 0.5, 0.5, 0.5]]), off, off, "gap")


@pytest.mark.parametrize(
    "a, b, message",
    [
        (np.zeros((0, 4)), np.zeros((1, 4)), "m ≥ 1"),
        (np.zeros((2, 4)), np.zeros((1, 5)), "must agree"),
        (np.zeros((2, 65)), np.zeros((1, 65)), "n ≤ 64"),
        (np.zeros(4), np.zeros((1, 4)), r"\[m, n\]"),
        (np.array([[0.0, np.nan]]), np.zeros((1, 2)), "NaN"),
    ],
)
def test_n_dimensional_bad_input_is_a_value_error(a, b, message):
    with pytest.raises(ValueError, match=message):
        gjk.distance_nd(a, b)


def test_n_dimensional_bad_translation_is_a_value_error():
    with pytest.raises(ValueError, match="translation_b"):
        gjk.distance_nd(np.zeros((1, 4)), np.ones((1, 4)), None, [1.0, 2.0])
    with pytest.raises(ValueError, match="translation_a"):
        gjk.distance_nd(np.zeros((1, 4)), np.ones((1, 4)), [np.inf, 0, 0, 0])

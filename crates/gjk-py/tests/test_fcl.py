"""Against python-fcl on random sphere / box / capsule / cylinder / convex pairs, and closed forms.

What FCL is accurate on, measured here (python-fcl 0.7, default libccd solver): polytope pairs (box, convex) to
rounding, separated and penetrating. Pairs with a curved shape go through libccd's GJK/EPA on implicit shapes,
which stops at a tolerance: separated distances off by up to ~8e-4 (sphere–sphere included: FCL's 3e-4 where the
closed form is exact), penetrating ones by up to ~1e-6. gjk is compared with FCL within that accuracy (plus gjk's
own reported error bound), and with the closed forms exactly.
"""

import itertools

import numpy as np
import pytest

import gjk
from conftest import quat_to_matrix, random_rows

fcl = pytest.importorskip("fcl")

# gjk's capsules and cylinders lie along y, FCL's along z: FCL's frame is gjk's turned by +90° about x.
Y_TO_Z = np.array([[1.0, 0.0, 0.0], [0.0, 0.0, -1.0], [0.0, 1.0, 0.0]])
KINDS = ["sphere", "box", "capsule", "cylinder", "convex"]
POLYTOPES = {"box", "convex"}


def make(kind, rng):
    """(gjk shape, FCL geometry, rotation from gjk's local frame to FCL's)."""
    if kind == "sphere":
        r = rng.uniform(0.2, 1.0)
        return gjk.Sphere(r), fcl.Sphere(r), np.eye(3)
    if kind == "box":
        h = rng.uniform(0.2, 1.0, 3)
        return gjk.Box(h), fcl.Box(*(2 * h)), np.eye(3)
    if kind in ("capsule", "cylinder"):
        h, r = rng.uniform(0.1, 1.0), rng.uniform(0.1, 0.6)
        if kind == "capsule":
            return gjk.Capsule(h, r), fcl.Capsule(r, 2 * h), Y_TO_Z
        return gjk.Cylinder(h, r), fcl.Cylinder(r, 2 * h), Y_TO_Z
    shape = gjk.ConvexHull(rng.normal(size=(20, 3)) * 0.6)
    tris = [[f[0], f[i], f[i + 1]] for f in shape.faces for i in range(1, len(f) - 1)]
    faces = np.concatenate([[3, *t] for t in tris]).astype(np.int64)
    return shape, fcl.Convex(np.asarray(shape.vertices), len(tris), faces), np.eye(3)


def fcl_signed_distance(fa, ra, fb, rb, rotation, translation):
    oa = fcl.CollisionObject(fa, fcl.Transform(ra, np.zeros(3)))
    ob = fcl.CollisionObject(fb, fcl.Transform(rotation @ rb, translation))
    request = fcl.DistanceRequest(enable_nearest_points=True, enable_signed_distance=True)
    return fcl.distance(oa, ob, request, fcl.DistanceResult())


@pytest.mark.parametrize("kind_a, kind_b", list(itertools.product(KINDS, KINDS)))
def test_signed_distance_agrees_with_fcl(kind_a, kind_b):
    rng = np.random.default_rng(KINDS.index(kind_a) * 10 + KINDS.index(kind_b))
    polytopes = kind_a in POLYTOPES and kind_b in POLYTOPES
    for row in random_rows(rng, 60, 1.5):
        ga, fa, ra = make(kind_a, rng)
        gb, fb, rb = make(kind_b, rng)
        rotation, translation = quat_to_matrix(row[3:]), row[:3]
        expected = fcl_signed_distance(fa, ra, fb, rb, rotation, translation)
        got = gjk.penetration(ga, None, gb, (translation, rotation))
        d = gjk.distance(ga, None, gb, (translation, rotation))
        if polytopes:
            tolerance = 1e-9
        elif expected > 0:
            tolerance = 1e-3 + got.error_bound
        else:
            tolerance = 2e-6 + got.error_bound
        assert abs(got.distance - expected) <= tolerance, (kind_a, kind_b, got, expected)
        # The unsigned query agrees with the signed one when apart.
        if got.distance > 1e-9:
            assert abs(d.distance - got.distance) <= 1e-12 + d.error_bound


def test_closed_forms_where_fcl_is_approximate():
    """Sphere–sphere, sphere–box and sphere–capsule have closed forms: gjk meets them to 1e-12, FCL does not."""
    rng = np.random.default_rng(7)
    worst_gjk, worst_fcl = 0.0, 0.0
    for _ in range(300):
        r1, r2 = rng.uniform(0.2, 1.0, 2)
        c = rng.normal(size=3) * 2
        exact = np.linalg.norm(c) - r1 - r2
        got = gjk.penetration(gjk.Sphere(r1), None, gjk.Sphere(r2), (c, None)).distance
        expected = fcl_signed_distance(fcl.Sphere(r1), np.eye(3), fcl.Sphere(r2), np.eye(3), np.eye(3), c)
        worst_gjk = max(worst_gjk, abs(got - exact))
        worst_fcl = max(worst_fcl, abs(expected - exact))
        h, rc = rng.uniform(0.1, 1.0), rng.uniform(0.1, 0.6)
        exact = np.linalg.norm(c - [0.0, np.clip(c[1], -h, h), 0.0]) - rc - r2
        got = gjk.penetration(gjk.Capsule(h, rc), None, gjk.Sphere(r2), (c, None)).distance
        worst_gjk = max(worst_gjk, abs(got - exact))
        half = rng.uniform(0.2, 1.0, 3)
        exact_box = np.linalg.norm(np.maximum(np.abs(c) - half, 0.0)) - r2
        if exact_box > 0:
            got = gjk.distance(gjk.Box(half), None, gjk.Sphere(r2), (c, None)).distance
            worst_gjk = max(worst_gjk, abs(got - exact_box))
    assert worst_gjk < 1e-12
    # Recorded, not required: FCL's sphere–sphere distance (libccd GJK on implicit spheres) is off by ~1e-4.
    print(f"worst |gjk - exact| = {worst_gjk:.1e}, worst |fcl - exact| sphere-sphere = {worst_fcl:.1e}")


def test_mesh_against_fcl_bvh_models(rng):
    """A real mesh (the bunny, 902 triangles) as a gjk.TriMesh and as FCL's BVHModel (OBBRSS), against a box and a
    convex hull (polytopes, where FCL is accurate): the same distances and the same collision answers."""
    from pathlib import Path

    data = Path(__file__).resolve().parents[2] / "gjk" / "tests" / "data"
    bunny = gjk.TriMesh.from_obj(data / "bunny.obj")
    v, f = np.asarray(bunny.vertices, dtype=np.float64), np.asarray(bunny.indices, dtype=np.int64)
    model = fcl.BVHModel()
    model.beginModel(len(v), len(f))
    model.addSubModel(v, f)
    model.endModel()
    lo, hi = bunny.aabb()
    centre, size = 0.5 * (lo + hi), float(np.max(hi - lo))
    mesh_obj = fcl.CollisionObject(model, fcl.Transform())
    worst, collided = 0.0, 0
    for i, row in enumerate(random_rows(rng, 150, spread=0.6 * size)):
        row[:3] += centre
        kind = ("box", "convex")[i % 2]
        shape, geom, _ = make(kind, rng)
        other = fcl.CollisionObject(geom, fcl.Transform(quat_to_matrix(row[3:]), row[:3]))
        d = gjk.distance(bunny, None, shape, row)
        res = fcl.CollisionResult()
        hit = fcl.collide(mesh_obj, other, fcl.CollisionRequest(), res) > 0
        assert hit == d.intersecting, (i, d)
        collided += hit
        if not hit:
            dres = fcl.DistanceResult()
            fcl.distance(mesh_obj, other, fcl.DistanceRequest(enable_nearest_points=True), dres)
            worst = max(worst, abs(dres.min_distance - d.distance))
    assert 10 < collided < 140
    # FCL's BVH distance runs GJK per triangle pair (libccd-free for meshes): agreement to rounding at this scale.
    assert worst < 1e-9, worst

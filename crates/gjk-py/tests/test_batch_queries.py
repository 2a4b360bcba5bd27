"""Batches of every query (contacts, rays, casts, times of impact, point projections), with composite shapes in the
palette: row i equals the single query on row i bit for bit, for any threads and chunks; NaNs never answer
silently."""

import numpy as np
import pytest

import gjk
from conftest import random_rows


def same(r1, r2):
    return r1.keys() == r2.keys() and all(
        np.array_equal(r1[k], r2[k], equal_nan=r1[k].dtype.kind == "f") for k in r1.keys()
    )


def eq(x, y):
    return np.array_equal(np.asarray(x), np.asarray(y), equal_nan=True)


@pytest.fixture
def palette(rng):
    v = rng.normal(size=(30, 3))
    f = rng.integers(0, 30, size=(50, 3))
    return [
        gjk.Box([0.5, 0.4, 0.3]),
        gjk.Sphere(0.4),
        gjk.TriMesh(v, f),
        gjk.Compound([gjk.Box([0.3, 0.3, 0.3]), gjk.Capsule(0.5, 0.2)], [[0.5, 0, 0, 0, 0, 0, 1], [-0.5, 0, 0, 0, 0, 0, 1]]),
        gjk.HeightField(rng.uniform(-0.2, 0.2, size=(5, 5)), dx=0.5, dz=0.5),
        gjk.HalfSpace([0.0, 1.0, 0.0]),
    ]


def pair_inputs(rng, n, k):
    ia, ib = rng.integers(0, k, n), rng.integers(0, k - 1, n)  # B never a half-space: two half-spaces have no contacts
    return ia, ib, random_rows(rng, n, 0.7), random_rows(rng, n, 1.5)


def test_distance_penetration_intersects_with_composites(rng, palette):
    n = 240
    ia, ib, pa, pb = pair_inputs(rng, n, len(palette))
    d = gjk.batch_distance(palette, palette, pa, pb, ids_a=ia, ids_b=ib)
    p = gjk.batch_penetration(palette, palette, pa, pb, ids_a=ia, ids_b=ib)
    x = gjk.batch_intersects(palette, palette, pa, pb, ids_a=ia, ids_b=ib)
    assert d.part_a.dtype == np.int64 and set(np.unique(d.part_a[ia == 0])) == {-1}
    assert (d.part_a[ia == 2] >= 0).all()
    for i in range(n):
        a, b = palette[ia[i]], palette[ib[i]]
        s = gjk.distance(a, pa[i], b, pb[i])
        assert d.distance[i] == s.distance and eq(d.point_a[i], s.point_a) and eq(d.normal[i], s.normal)
        assert d.part_a[i] == (-1 if s.part_a is None else s.part_a) and d.error_bound[i] == s.error_bound
        t = gjk.penetration(a, pa[i], b, pb[i])
        assert p.distance[i] == t.distance and eq(p.point_b[i], t.point_b)
        assert p.part_b[i] == (-1 if t.part_b is None else t.part_b) and p.error_bound[i] == t.error_bound
        assert x.intersecting[i] == s.intersecting
    for threads, chunk in [(1, None), (2, 7), (3, 100)]:
        assert same(d, gjk.batch_distance(palette, palette, pa, pb, ids_a=ia, ids_b=ib, threads=threads, chunk=chunk))


def test_contact_manifold_batch_rows_equal_single_queries(rng, palette):
    n = 200
    ia, ib, pa, pb = pair_inputs(rng, n, len(palette))
    r = gjk.batch_contact_manifold(palette, palette, pa, pb, ids_a=ia, ids_b=ib, prediction=0.05)
    assert isinstance(r, gjk.BatchContacts) and len(r) == n and r.offsets.shape == (n + 1,)
    assert r.offsets[-1] == len(r.depth) == r.count.sum() and r.point_a.shape == (len(r.depth), 3)
    assert r.count.max() > 4  # composite rows hold more than one convex manifold
    for i in range(n):
        m = gjk.contact_manifold(palette[ia[i]], pa[i], palette[ib[i]], pb[i], prediction=0.05)
        c = r.contacts(i)
        assert r.count[i] == len(m) and r.manifolds[i] == m.manifolds and r.distance[i] == m.distance
        assert r.status[i] == m.status_code
        assert eq(c["point_a"], m.points_a) and eq(c["normal"], m.normals) and eq(c["depth"], m.depths)
        assert eq(c["id"], m.ids) and eq(c["part_a"], m.part_a) and eq(c["part_b"], m.part_b)
        assert eq(c["manifold"], m.manifold)
    dense = r.padded()
    k = dense["depth"].shape[1]
    assert k == r.count.max() and np.isnan(dense["depth"][r.count == 0]).all()
    row = int(np.argmax(r.count))
    assert eq(dense["point_b"][row, : r.count[row]], r.contacts(row)["point_b"])
    with pytest.raises(ValueError, match="more than max_contacts"):
        r.padded(max_contacts=1)
    for threads, chunk in [(1, None), (2, 9)]:
        again = gjk.batch_contact_manifold(palette, palette, pa, pb, ids_a=ia, ids_b=ib, prediction=0.05,
                                           threads=threads, chunk=chunk)
        assert same(r, again)


def test_ray_cast_batch(rng, palette):
    n = 300
    ids = rng.integers(0, len(palette), n)
    poses = random_rows(rng, n, 0.5)
    origins = rng.normal(size=(n, 3)) * 3
    directions = -origins + rng.normal(size=(n, 3))
    max_toi = rng.uniform(0.5, 2.0, n)
    r = gjk.batch_ray_cast(palette, poses, origins, directions, ids=ids, max_toi=max_toi)
    assert r.keys() == ["hit", "toi", "normal", "point", "part", "status", "iterations"]
    assert 0 < r.hit.sum() < n
    for i in range(n):
        s = gjk.ray_cast(palette[ids[i]], poses[i], origins[i], directions[i], max_toi=max_toi[i])
        assert r.hit[i] == s.hit and r.toi[i] == s.toi and eq(r.normal[i], s.normal) and eq(r.point[i], s.point)
        assert r.part[i] == (-1 if s.part is None else s.part) and r.iterations[i] == s.iterations
    assert same(r, gjk.batch_ray_cast(palette, poses, origins, directions, ids=ids, max_toi=max_toi, threads=2, chunk=11))
    # One direction for every ray, no limit: broadcast.
    down = gjk.batch_ray_cast(palette[5], None, origins, [0.0, -1.0, 0.0], solid=False)
    assert np.allclose(down.toi[origins[:, 1] > 0], origins[origins[:, 1] > 0, 1])


def test_ray_cast_batch_refuses_nan_rows(rng):
    origins = rng.normal(size=(50, 3))
    origins[17, 1] = np.nan
    with pytest.raises(ValueError, match=r"row 17: origins\[17\]"):
        gjk.batch_ray_cast(gjk.Sphere(1.0), None, origins, [1.0, 0.0, 0.0])
    r = gjk.batch_ray_cast(gjk.Sphere(1.0), None, origins, [1.0, 0.0, 0.0], max_toi=[np.nan] + [1.0] * 49,
                           on_invalid="status")
    assert list(np.flatnonzero(r.status == gjk.INVALID_INPUT)) == [0, 17]
    assert np.isnan(r.toi[[0, 17]]).all() and not r.hit[[0, 17]].any() and (r.part[[0, 17]] == -1).all()


def test_shape_cast_and_time_of_impact_batches(rng, palette):
    n = 120
    ia, ib, pa, pb = pair_inputs(rng, n, len(palette))
    va = rng.normal(size=(n, 3))
    vb = (pa[:, :3] - pb[:, :3]) + rng.normal(size=(n, 3)) * 0.2
    s = gjk.batch_shape_cast(palette, palette, pa, pb, va, vb, ids_a=ia, ids_b=ib, max_toi=2.0, target_distance=0.01)
    wa, wb = rng.normal(size=(n, 3)), rng.normal(size=(n, 3))
    t = gjk.batch_time_of_impact(palette, palette, pa, pb, va, vb, wa, wb, ids_a=ia, ids_b=ib, max_toi=1.0)
    assert s.keys() == ["hit", "toi", "normal", "point_a", "point_b", "part_a", "part_b", "status", "iterations"]
    assert 0 < s.hit.sum() < n and 0 < t.hit.sum() < n
    for i in range(n):
        a, b = palette[ia[i]], palette[ib[i]]
        c = gjk.shape_cast(a, pa[i], va[i], b, pb[i], vb[i], max_toi=2.0, target_distance=0.01)
        assert s.hit[i] == c.hit and s.toi[i] == c.toi and eq(s.point_a[i], c.point_a) and eq(s.normal[i], c.normal)
        assert s.part_a[i] == (-1 if c.part_a is None else c.part_a)
        u = gjk.time_of_impact(a, pa[i], va[i], wa[i], b, pb[i], vb[i], wb[i], max_toi=1.0)
        assert t.hit[i] == u.hit and t.toi[i] == u.toi and eq(t.point_b[i], u.point_b)
        assert t.part_b[i] == (-1 if u.part_b is None else u.part_b) and t.iterations[i] == u.iterations
    assert same(t, gjk.batch_time_of_impact(palette, palette, pa, pb, va, vb, wa, wb, ids_a=ia, ids_b=ib,
                                            max_toi=1.0, threads=2, chunk=5))
    vb[3, 0] = np.inf
    with pytest.raises(ValueError, match=r"row 3: velocities_b\[3\]"):
        gjk.batch_shape_cast(palette, palette, pa, pb, va, vb, ids_a=ia, ids_b=ib)


def test_2d_time_of_impact_batch_takes_scalar_angular_velocities(rng):
    n = 50
    plank, square = gjk.Box([1.0, 0.05]), gjk.Box([0.1, 0.1])
    pa = np.column_stack([np.zeros(n), np.zeros(n), rng.uniform(0, 3, n)])
    t = gjk.batch_time_of_impact(plank, square, pa, [[0.5, 0.0, 0.0]], [0.0, 0.0], [0.0, 0.0], np.ones(n), None,
                                 max_toi=3.0)
    for i in range(n):
        u = gjk.time_of_impact(plank, pa[i], [0, 0], 1.0, square, [0.5, 0, 0], [0, 0], 0.0, max_toi=3.0)
        assert t.hit[i] == u.hit and t.toi[i] == u.toi


def test_project_point_batch(rng, palette):
    n = 200
    ids = rng.integers(0, len(palette), n)
    poses = random_rows(rng, n, 0.5)
    points = rng.normal(size=(n, 3)) * 1.5
    r = gjk.batch_project_point(palette, poses, points, ids=ids)
    assert r.keys() == ["point", "inside", "distance", "part", "status"] and 0 < r.inside.sum() < n
    for i in range(n):
        s = gjk.project_point(palette[ids[i]], poses[i], points[i])
        assert r.inside[i] == s.inside and r.distance[i] == s.distance and eq(r.point[i], s.point)
        assert r.part[i] == (-1 if s.part is None else s.part)

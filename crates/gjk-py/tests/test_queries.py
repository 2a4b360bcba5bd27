"""Single queries against closed forms: sphere–sphere, box–sphere, capsules, rays, casts, manifolds, 2D, f32."""

import numpy as np
import pytest

import gjk
from conftest import quat_to_matrix, random_rows


def box_point_distance(half, p):
    """Distance from a point to an axis-aligned box centred at the origin (0 inside)."""
    return float(np.linalg.norm(np.maximum(np.abs(p) - half, 0.0)))


def segment_point_distance(h, p):
    """Distance from p to the segment (0, ±h, 0)."""
    y = np.clip(p[1], -h, h)
    return float(np.linalg.norm(p - np.array([0.0, y, 0.0])))


def test_sphere_sphere_closed_form(rng):
    for _ in range(200):
        r1, r2 = rng.uniform(0.01, 2.0, 2)
        c = rng.normal(size=3) * rng.choice([1e-3, 1.0, 10.0])
        off = rng.normal(size=3) * 1e4 * rng.integers(0, 2)
        gap = np.linalg.norm(c) - r1 - r2
        d = gjk.distance(gjk.Sphere(r1), (off, None), gjk.Sphere(r2), (off + c, None))
        p = gjk.penetration(gjk.Sphere(r1), (off, None), gjk.Sphere(r2), (off + c, None))
        assert d.status == "converged" and p.status == "converged"
        assert abs(d.distance - max(gap, 0.0)) <= 1e-9 * (1 + np.abs(off).max() * 1e-4)
        assert abs(p.distance - gap) <= 1e-9 * (1 + np.abs(off).max() * 1e-4)
        assert d.intersecting == (gap <= 0)
        if gap > 0:
            assert np.allclose(d.point_b - d.point_a, d.distance * d.normal, atol=1e-9)


def test_box_sphere_closed_form(rng):
    half = np.array([1.0, 0.5, 0.25])
    box = gjk.Box(half)
    for row in random_rows(rng, 300):
        q = row[3:]
        r = rng.uniform(0.0, 0.5)
        centre = rng.normal(size=3) * 2
        local = quat_to_matrix(q).T @ (centre - row[:3])
        exact = box_point_distance(half, local) - r
        d = gjk.distance(box, row, gjk.Sphere(r), (centre, None))
        assert d.status == "converged"
        if exact > 0:
            assert abs(d.distance - exact) < 1e-9 and d.error_bound < 1e-9
        else:
            assert d.intersecting


def test_sphere_capsule_signed_distance_is_exact(rng):
    for _ in range(300):
        h, rc, rs = rng.uniform(0.0, 2.0), rng.uniform(0.0, 1.0), rng.uniform(0.0, 1.0)
        p = rng.normal(size=3) * 1.5
        exact = segment_point_distance(h, p) - rc - rs
        r = gjk.penetration(gjk.Capsule(h, rc), None, gjk.Sphere(rs), (p, None))
        assert abs(r.distance - exact) < 1e-12, (h, rc, rs, p)


def test_boxes_penetration_depth():
    cube = gjk.Box([0.5, 0.5, 0.5])
    p = gjk.penetration(cube, None, cube, [0.2, 0.9, 0.1, 0, 0, 0, 1])
    assert p.intersecting and abs(p.depth - 0.1) < 1e-12 and np.allclose(p.normal, [0, 1, 0])
    assert np.allclose(p.point_b - p.point_a, p.distance * p.normal, atol=1e-12)


def test_contact_manifold_box_on_ground():
    ground = gjk.Box([5.0, 0.5, 5.0])
    crate = gjk.Box([0.5, 0.5, 0.5])
    m = gjk.contact_manifold(ground, None, crate, [1.0, 0.99, 0, 0, 0, 0, 1])
    assert len(m) == 4 and m.points_a.shape == (4, 3) and m.ids.dtype == np.uint64
    assert np.allclose(m.depths, 0.01) and np.allclose(m.points_b[:, 1], 0.49)
    assert "ContactManifold(contacts=4" in repr(m)


def test_ray_cast_and_casts():
    ball = gjk.Sphere(1.0)
    r = gjk.ray_cast(ball, None, [-5, 0, 0], [2, 0, 0])
    assert r and abs(r.toi - 2.0) < 1e-15 and np.allclose(r.normal, [-1, 0, 0])
    assert not gjk.ray_cast(ball, None, [-5, 3, 0], [1, 0, 0])
    wall = gjk.Box([0.01, 5, 5])
    bullet = gjk.Sphere(0.005)
    c = gjk.shape_cast(bullet, [-10, 0, 0, 0, 0, 0, 1], [1000, 0, 0], wall, None, [0, 0, 0], max_toi=1 / 60)
    assert c.hit and abs(c.toi - (10 - 0.015) / 1000) < 1e-12 and np.allclose(c.normal, [1, 0, 0])
    plank, square = gjk.Box([1.0, 0.05]), gjk.Box([0.1, 0.1])
    t = gjk.time_of_impact(plank, [0, 0, np.pi / 2], [0, 0], 1.0, square, [0.5, 0, 0], [0, 0], 0.0, max_toi=3.0)
    assert t.hit and 0 < t.toi < 1.6


def test_intersects_matches_distance(rng):
    a, b = gjk.Box([1, 1, 1]), gjk.Cylinder(1.0, 0.5)
    for row in random_rows(rng, 200, spread=1.5):
        assert bool(gjk.intersects(a, None, b, row)) == gjk.distance(a, None, b, row).intersecting


def test_float32_agrees_with_float64(rng):
    for row in random_rows(rng, 100):
        d64 = gjk.distance(gjk.Box([1, 2, 3]), None, gjk.Capsule(1, 0.5), row)
        d32 = gjk.distance(gjk.Box([1, 2, 3], "float32"), None, gjk.Capsule(1, 0.5, dtype="float32"), row)
        assert d32.point_a.dtype == np.float32 and d64.point_a.dtype == np.float64
        assert abs(d32.distance - d64.distance) < 1e-5 * (1 + d64.distance)


def test_2d_circle_rectangle():
    d = gjk.distance(gjk.Box([1.0, 1.0]), None, gjk.Circle(0.5), [3.0, 0.0, 0.0])
    assert abs(d.distance - 1.5) < 1e-12 and d.point_a.shape == (2,)


def test_reprs_name_status_and_bound():
    d = gjk.distance(gjk.Box([1, 1, 1]), None, gjk.Sphere(0.5), [3, 0, 0, 0, 0, 0, 1])
    text = repr(d)
    assert "distance=1.5" in text and "status='converged'" in text and "error_bound=" in text
    assert d.status_code == gjk.CONVERGED and gjk.STATUS_NAMES[d.status_code] == d.status
    far = gjk.distance(gjk.Box([1, 1, 1]), None, gjk.Sphere(0.5), [30, 0, 0, 0, 0, 0, 1], max_distance=1.0)
    assert far.status == "above_bound" and far.distance <= 28.5


@pytest.mark.parametrize("offset", [0.0, 1e4, 1e5])
def test_tiny_gaps_far_from_the_origin_survive_every_pose_form(offset):
    """Poses go from numpy to the library without losing digits: a 1e-6 gap at 1e5 stays 1e-6 (to 1e-10)."""
    cube = gjk.Box([1.0, 1.0, 1.0])
    gap = 1e-6
    ta, tb = np.array([offset, 0.0, 0.0]), np.array([offset + 2.0 + gap, 0.0, 0.0])
    ma, mb = np.eye(4), np.eye(4)
    ma[:3, 3], mb[:3, 3] = ta, tb
    forms = [(np.r_[ta, 0, 0, 0, 1], np.r_[tb, 0, 0, 0, 1]), (ma, mb), ((ta, None), (tb, np.eye(3)))]
    for pa, pb in forms:
        assert abs(gjk.distance(cube, pa, cube, pb).distance - gap) < 1e-10
        assert abs(gjk.penetration(cube, pa, cube, pb).distance - gap) < 1e-10
    r = gjk.batch_distance(cube, cube, np.r_[ta, 0, 0, 0, 1][None], np.tile(np.r_[tb, 0, 0, 0, 1], (10, 1)))
    assert np.all(np.abs(r.distance - gap) < 1e-10)


@pytest.mark.parametrize("scale", [1e-6, 1e6])
def test_tiny_and_huge_shapes(scale):
    big = gjk.Sphere(scale)
    d = gjk.distance(big, None, gjk.Box([scale, scale, scale]), [3.5 * scale, 0, 0, 0, 0, 0, 1])
    assert abs(d.distance - 1.5 * scale) <= 1e-12 * scale

"""Shapes: construction, validation with the library's messages, spaces, pickling, support and bounds."""

import pickle

import numpy as np
import pytest

import gjk


def all_shapes(dtype="float64"):
    box = gjk.Box([1.0, 2.0, 3.0], dtype=dtype)
    return [
        gjk.Sphere(0.5, dtype=dtype),
        box,
        gjk.Capsule(1.0, 0.25, dtype=dtype),
        gjk.Cylinder(1.0, 0.5, dtype=dtype),
        gjk.Cone(1.0, 0.5, dtype=dtype),
        gjk.Cylinder(1.0, 0.5, dtype=dtype, axis="z"),
        gjk.Capsule(1.0, 0.25, dtype=dtype, axis="z"),
        gjk.Ellipsoid([1.0, 0.5, 0.25], dtype=dtype),
        gjk.ConvexHull(np.eye(3), dtype=dtype),
        gjk.Segment([0, 0, 0], [1, 1, 1], dtype=dtype),
        gjk.Triangle([0, 0, 0], [1, 0, 0], [0, 1, 0], dtype=dtype),
        gjk.Point([1, 2, 3], dtype=dtype),
        gjk.Rounded(box, 0.1),
        gjk.MinkowskiSum(box, gjk.Sphere(0.5, dtype=dtype)),
    ]


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_every_shape_has_its_space_and_survives_pickling(dtype):
    for s in all_shapes(dtype):
        assert s.dim == 3 and s.dtype == dtype, s
        back = pickle.loads(pickle.dumps(s))
        assert type(back) is type(s) and repr(back) == repr(s)
        # The rebuilt shape answers the same query with the same bits.
        d0 = gjk.distance(s, None, gjk.Sphere(0.1, dtype=dtype), [5, 1, 0, 0, 0, 0, 1])
        d1 = gjk.distance(back, None, gjk.Sphere(0.1, dtype=dtype), [5, 1, 0, 0, 0, 0, 1])
        assert d0.distance == d1.distance and np.array_equal(d0.point_a, d1.point_a)


def test_2d_shapes():
    for s in [gjk.Circle(1.0), gjk.Box([1, 2]), gjk.Capsule(1, 0.5, dim=2), gjk.Ellipsoid([1, 2]),
              gjk.ConvexHull([[0, 0], [1, 0], [0, 1]]), gjk.Segment([0, 0], [1, 0]), gjk.Point([0, 0]),
              gjk.Triangle([0, 0], [1, 0], [0, 1])]:
        assert s.dim == 2, s


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda: gjk.Box([1, -1, 1]), "Box: half_extents is negative"),
        (lambda: gjk.Sphere(float("nan")), "Sphere: radius is not finite"),
        (lambda: gjk.Capsule(1.0, -0.5), "Capsule: radius is negative"),
        (lambda: gjk.Capsule(1.0, -0.5, axis="z"), "Capsule: radius is negative"),
        (lambda: gjk.Capsule(1.0, 0.5, dim=2, axis="z"), "Capsule: axis \"z\" exists only in 3D"),
        (lambda: gjk.Cone(1.0, 0.5, axis="x"), "Cone: axis must be \"y\" or \"z\""),
        (lambda: gjk.Cylinder(float("inf"), 1.0), "Cylinder: half_height is not finite"),
        (lambda: gjk.ConvexHull(np.zeros((0, 3))), "ConvexHull: the point set is empty"),
        (lambda: gjk.ConvexHull([[0, 0, 0], [np.nan, 0, 0]]), "ConvexHull"),
        (lambda: gjk.Ellipsoid([1, 2, 3, 4]), "points must have 2 or 3 coordinates"),
        (lambda: gjk.Segment([0, 0, 0], [1, 1]), "Segment: b must have 3 numbers"),
        (lambda: gjk.Rounded(gjk.Box([1, 1, 1]), -1.0), "Rounded: radius is negative"),
        (lambda: gjk.MinkowskiSum(gjk.Box([1, 1, 1]), gjk.Circle(1.0)), "both must be of the same space"),
        (lambda: gjk.Box([1, 1, 1], dtype="int32"), "dtype must be float64 or float32"),
    ],
)
def test_invalid_shapes_raise_value_error_with_the_library_message(make, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(")):
        make()


def test_degenerate_hulls_are_valid():
    flat = gjk.ConvexHull([[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0]])
    needle = gjk.ConvexHull([[0, 0, 0], [1, 0, 0], [2, 0, 0]])
    one = gjk.ConvexHull([[1, 1, 1], [1, 1, 1]])
    d = gjk.distance(flat, None, gjk.Sphere(0.5), [0.5, 0.5, 2.0, 0, 0, 0, 1])
    assert abs(d.distance - 1.5) < 1e-12
    assert abs(gjk.distance(needle, None, gjk.Point([1, 1, 0]), None).distance - 1.0) < 1e-12
    assert abs(gjk.distance(one, None, gjk.Point([1, 1, 3]), None).distance - 2.0) < 1e-12


def test_mixed_spaces_are_refused():
    with pytest.raises(ValueError, match="different spaces"):
        gjk.distance(gjk.Sphere(1.0), None, gjk.Sphere(1.0, dtype="float32"), None)
    with pytest.raises(ValueError, match="different spaces"):
        gjk.distance(gjk.Sphere(1.0), None, gjk.Circle(1.0), None)


def test_hull_vertices_and_faces():
    cube = np.array([[x, y, z] for x in (0, 1) for y in (0, 1) for z in (0, 1)], dtype=float)
    h = gjk.ConvexHull(np.vstack([cube, [[0.5, 0.5, 0.5]]]))
    assert h.vertices.shape == (8, 3)
    assert sorted(map(tuple, h.vertices)) == sorted(map(tuple, cube))
    # Every face is planar and wound counter-clockwise seen from outside (normal away from the centre).
    for f in h.faces:
        p = h.vertices[f]
        n = np.cross(p[1] - p[0], p[2] - p[0])
        assert np.dot(n, p[0] - 0.5) > 0
        assert np.allclose((p - p[0]) @ n, 0.0)


def test_support_and_aabb():
    s = gjk.Capsule(1.0, 0.5)
    pts = s.support(np.array([[0.0, 1.0, 0.0], [1.0, 0.0, 0.0]]))
    # Along +y: the top of the cap; along +x: a point of the side (any height of the core segment is supporting).
    assert np.allclose(pts[0], [0.0, 1.5, 0.0])
    assert pts[1][0] == 0.5 and pts[1][2] == 0.0 and abs(pts[1][1]) <= 1.0
    lo, hi = gjk.Box([1, 2, 3]).aabb(([10, 0, 0], None))
    assert np.allclose(lo, [9, -2, -3]) and np.allclose(hi, [11, 2, 3])
    assert gjk.Rounded(gjk.Box([1, 1, 1]), 0.25).radius == 0.25


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("kind", ["Capsule", "Cylinder", "Cone"])
def test_axis_z_is_the_shape_turned_a_quarter_about_x(kind, dtype):
    """`axis="z"` (URDF, FCL, coal and MuJoCo's convention) is the y-axis shape with local y carried onto z."""
    along_y = getattr(gjk, kind)(0.75, 0.25, dtype=dtype)
    along_z = getattr(gjk, kind)(0.75, 0.25, dtype=dtype, axis="z")
    s = np.sqrt(0.5)
    turned = gjk.Posed(along_y, [0, 0, 0, s, 0, 0, s])
    assert along_z.params["axis"] == "z" and along_y.params["axis"] == "y"
    # The tip (a cone's apex, a capsule's end cap, a cylinder's cap) is on +z, not +y.
    tip = along_z.support([[0.0, 0.0, 1.0]])[0]
    assert abs(tip[2] - (1.0 if kind == "Capsule" else 0.75)) < 1e-6 and abs(tip[1]) < 1e-6
    assert along_z.support([[0.0, 1.0, 0.0]])[0][1] < 0.25 + 1e-6
    rng = np.random.default_rng(7)
    other = gjk.Box([0.2, 0.3, 0.1], dtype=dtype)
    for _ in range(20):
        pose = np.concatenate([rng.normal(size=3) * 1.5, rng.normal(size=4)])
        pose[3:] /= np.linalg.norm(pose[3:])
        d_z = gjk.distance(along_z, None, other, pose)
        d_turned = gjk.distance(turned, None, other, pose)
        tol = 1e-12 if dtype == "float64" else 1e-5
        assert abs(d_z.distance - d_turned.distance) <= tol * (1 + abs(d_turned.distance))

"""Poses: every accepted form gives the same answer; non-rotations, NaN and bad shapes raise ValueError."""

import numpy as np
import pytest

import gjk
from conftest import quat_to_matrix, random_quaternions

BOX = gjk.Box([1.0, 0.5, 0.25])
HULL = gjk.ConvexHull(np.random.default_rng(3).normal(size=(20, 3)))


def test_matrix_row_and_tuple_forms_agree(rng):
    for q in random_quaternions(rng, 50):
        t = rng.normal(size=3) * 4
        m = np.eye(4)
        m[:3, :3] = quat_to_matrix(q)
        m[:3, 3] = t
        forms = [np.concatenate([t, q]), m, (t, q), (t, quat_to_matrix(q)), tuple(m.tolist()) and m.tolist()]
        answers = [gjk.distance(BOX, None, HULL, f) for f in forms]
        for r in answers[1:]:
            # The matrix is turned back into a quaternion: equal to rounding, not bit for bit.
            assert abs(r.distance - answers[0].distance) < 1e-12
            assert np.allclose(r.point_b, answers[0].point_b, atol=1e-12)


def test_quaternion_order_is_xyzw():
    # A quarter turn about z (x, y, z, w) = (0, 0, sin 45°, cos 45°) takes B's long x half-extent onto y.
    s = np.sqrt(0.5)
    d = gjk.distance(gjk.Point([0, 5, 0]), None, BOX, [0, 0, 0, 0, 0, s, s])
    assert abs(d.distance - 4.0) < 1e-12
    # In w, x, y, z order the same numbers would be a half turn about x: the distance along y would be 4.5.


@pytest.mark.parametrize(
    "pose, message",
    [
        (np.diag([1.0, 1.0, 2.0, 1.0]), "not orthonormal"),
        (np.diag([1.0, 1.0, -1.0, 1.0]), "reflection"),
        (np.array([[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0.5, 1.0]]), "last row"),
        (np.array([0, 0, 0, 0, 0, 0, 2.0]), "not a unit quaternion"),
        (np.array([np.nan, 0, 0, 0, 0, 0, 1.0]), "not finite"),
        (np.array([0, 0, 0, 0, 0, 0, np.inf]), "not finite"),
        (np.eye(3), "shape"),
        (np.zeros(5), "shape"),
        (([0, 0], None), "translation must have 3 numbers"),
        (([0, 0, 0], [1, 0, 0]), "quaternion"),
    ],
)
def test_invalid_poses_raise(pose, message):
    with pytest.raises(ValueError, match=message):
        gjk.distance(BOX, None, HULL, pose)


def test_rotation_tolerance():
    # A matrix rounded to 9 digits is accepted; one off by 1e-4 is not.
    q = np.array([0.1, 0.2, 0.3, 0.9]) / np.linalg.norm([0.1, 0.2, 0.3, 0.9])
    r = np.round(quat_to_matrix(q), 9)
    gjk.distance(BOX, None, HULL, ([3, 0, 0], r))
    with pytest.raises(ValueError, match="not orthonormal"):
        gjk.distance(BOX, None, HULL, ([3, 0, 0], r * (1 + 1e-4)))
    assert gjk.ROTATION_TOLERANCE_F64 == 1e-6 and gjk.ROTATION_TOLERANCE_F32 == 1e-5


def test_2d_pose_forms():
    a, b = gjk.Box([1.0, 0.5]), gjk.Circle(0.25)
    th = 0.7
    m = np.array([[np.cos(th), -np.sin(th), 3.0], [np.sin(th), np.cos(th), 1.0], [0, 0, 1.0]])
    r0 = gjk.distance(b, None, a, [3.0, 1.0, th])
    for form in (m, ([3.0, 1.0], th), ([3.0, 1.0], m[:2, :2])):
        assert abs(gjk.distance(b, None, a, form).distance - r0.distance) < 1e-12

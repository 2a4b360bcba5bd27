"""Shared helpers: seeded random poses (quaternions in x, y, z, w order, as gjk takes them)."""

import numpy as np
import pytest


def random_quaternions(rng, n):
    q = rng.normal(size=(n, 4))
    return q / np.linalg.norm(q, axis=1)[:, None]


def quat_to_matrix(q):
    """Rotation matrix of a unit quaternion (x, y, z, w)."""
    x, y, z, w = q
    return np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
        [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
        [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
    ])


def random_rows(rng, n, spread=3.0):
    """[n, 7] pose rows: translation, then quaternion (x, y, z, w)."""
    rows = np.zeros((n, 7))
    rows[:, :3] = rng.normal(size=(n, 3)) * spread
    rows[:, 3:] = random_quaternions(rng, n)
    return rows


def rows_to_matrices(rows):
    m = np.zeros((len(rows), 4, 4))
    for i, r in enumerate(rows):
        m[i, :3, :3] = quat_to_matrix(r[3:])
        m[i, :3, 3] = r[:3]
        m[i, 3, 3] = 1.0
    return m


@pytest.fixture
def rng():
    return np.random.default_rng(20240613)

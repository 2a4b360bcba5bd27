"""Batches: row i equals the single query on row i bit for bit, whatever the threads and chunks; NaNs never
answer silently; palettes, lists of shapes, broadcasting, progress, the GIL released."""

import threading
import time

import numpy as np
import pytest

import gjk
from conftest import random_rows, rows_to_matrices

KEYS = ["distance", "point_a", "point_b", "normal", "status", "error_bound", "intersecting", "iterations", "part_a",
        "part_b"]


def same(r1, r2):
    return all(np.array_equal(r1[k], r2[k], equal_nan=r1[k].dtype.kind == "f") for k in r1.keys())


def test_rows_equal_single_queries(rng):
    a, b = gjk.Box([1, 0.5, 0.25]), gjk.ConvexHull(rng.normal(size=(64, 3)))
    pa, pb = random_rows(rng, 300, 0.5), random_rows(rng, 300, 2.0)
    d = gjk.batch_distance(a, b, pa, pb)
    p = gjk.batch_penetration(a, b, pa, pb)
    x = gjk.batch_intersects(a, b, pa, pb)
    assert d.keys() == KEYS and d.point_a.shape == (300, 3) and d.status.dtype == np.uint8
    for i in range(300):
        s = gjk.distance(a, pa[i], b, pb[i])
        assert d.distance[i] == s.distance and np.array_equal(d.point_a[i], s.point_a)
        assert np.array_equal(d.normal[i], s.normal) and d.error_bound[i] == s.error_bound
        assert gjk.STATUS_NAMES[d.status[i]] == s.status and d.iterations[i] == s.iterations
        t = gjk.penetration(a, pa[i], b, pb[i])
        assert p.distance[i] == t.distance and np.array_equal(p.point_b[i], t.point_b)
        assert x.intersecting[i] == s.intersecting


def test_matrices_and_rows_agree(rng):
    a, b = gjk.Box([1, 1, 1]), gjk.Capsule(0.5, 0.25)
    rows = random_rows(rng, 500)
    r1 = gjk.batch_distance(a, b, None, rows)
    r2 = gjk.batch_distance(a, b, None, rows_to_matrices(rows))
    assert np.allclose(r1.distance, r2.distance, atol=1e-12)


def test_independent_of_threads_and_chunks(rng):
    a, b = gjk.ConvexHull(rng.normal(size=(64, 3))), gjk.Cylinder(1.0, 0.5)
    rows = random_rows(rng, 20000)
    ref = gjk.batch_penetration(a, b, None, rows, threads=1)
    for threads, chunk in [(2, None), (2, 777), (3, 10), (None, 5000)]:
        assert same(ref, gjk.batch_penetration(a, b, None, rows, threads=threads, chunk=chunk))


def test_nan_raises_naming_the_row(rng):
    rows = random_rows(rng, 1000)
    rows[637, 4] = np.nan
    rows[901, 0] = np.inf
    with pytest.raises(ValueError, match=r"row 637: poses_b\[637\]: .*not finite"):
        gjk.batch_distance(gjk.Sphere(1.0), gjk.Sphere(1.0), None, rows)
    m = rows_to_matrices(random_rows(rng, 10))
    m[3, :3, :3] *= 1.01
    with pytest.raises(ValueError, match=r"row 3: poses_a\[3\]: .*not orthonormal"):
        gjk.batch_intersects(gjk.Sphere(1.0), gjk.Sphere(1.0), m, None)


def test_nan_as_status(rng):
    rows = random_rows(rng, 1000)
    rows[[5, 600], 2] = np.nan
    r = gjk.batch_distance(gjk.Box([1, 1, 1]), gjk.Sphere(0.5), None, rows, on_invalid="status")
    bad = r.status == gjk.INVALID_INPUT
    assert list(np.flatnonzero(bad)) == [5, 600]
    assert np.isnan(r.distance[bad]).all() and np.isnan(r.point_a[bad]).all() and not r.intersecting[bad].any()
    assert np.isfinite(r.distance[~bad]).all()
    assert r.status_counts() == {"converged": 998, "invalid_input": 2}


def test_lists_of_shapes_and_palettes(rng):
    shapes = [gjk.Sphere(0.5), gjk.Box([1, 1, 1]), gjk.Capsule(1, 0.2), gjk.ConvexHull(rng.normal(size=(10, 3)))]
    n = 400
    ia, ib = rng.integers(0, 4, n), rng.integers(0, 4, n)
    rows = random_rows(rng, n)
    pal = gjk.batch_distance(shapes, shapes, None, rows, ids_a=ia, ids_b=ib)
    per_row = gjk.batch_distance([shapes[i] for i in ia], [shapes[i] for i in ib], None, rows)
    assert same(pal, per_row)
    for i in range(0, n, 37):
        assert pal.distance[i] == gjk.distance(shapes[ia[i]], None, shapes[ib[i]], rows[i]).distance
    ib[17] = 9
    with pytest.raises(ValueError, match=r"row 17: ids_b\[17\] = 9"):
        gjk.batch_distance(shapes, shapes, None, rows, ids_a=ia, ids_b=ib)


def test_broadcast_and_mismatches(rng):
    rows = random_rows(rng, 50)
    one = gjk.batch_distance(gjk.Box([1, 1, 1]), gjk.Sphere(0.5), rows[:1], rows)
    full = gjk.batch_distance(gjk.Box([1, 1, 1]), gjk.Sphere(0.5), np.repeat(rows[:1], 50, axis=0), rows)
    assert same(one, full)
    with pytest.raises(ValueError, match="disagree on the number of rows"):
        gjk.batch_distance(gjk.Box([1, 1, 1]), gjk.Sphere(0.5), rows[:10], rows)
    with pytest.raises(ValueError, match="share one space"):
        gjk.batch_distance([gjk.Sphere(1.0), gjk.Circle(1.0)], gjk.Sphere(1.0), None, rows[:2])


def test_float32_and_2d_batches(rng):
    rows = random_rows(rng, 100)
    r = gjk.batch_distance(gjk.Box([1, 1, 1], "float32"), gjk.Sphere(0.5, "float32"), None, rows)
    assert r.distance.dtype == np.float32 and r.point_a.dtype == np.float32
    p2 = np.column_stack([rng.normal(size=(100, 2)) * 3, rng.uniform(-3, 3, 100)])
    r2 = gjk.batch_penetration(gjk.Box([1, 0.5]), gjk.Circle(0.5), None, p2)
    assert r2.point_a.shape == (100, 2)
    for i in range(100):
        assert r2.distance[i] == gjk.penetration(gjk.Box([1, 0.5]), None, gjk.Circle(0.5), p2[i]).distance


def test_progress_callback_and_bar(rng, capsys):
    rows = random_rows(rng, 10000)
    seen = []
    gjk.batch_distance(gjk.Sphere(1.0), gjk.Sphere(1.0), None, rows, progress=seen.append, chunk=1500)
    assert seen == [1500] * 6 + [1000]
    gjk.batch_distance(gjk.Sphere(1.0), gjk.Sphere(1.0), None, rows, progress=True)
    assert "10.0k" in capsys.readouterr().err  # tqdm's bar reached the total


def test_gil_is_released(rng):
    # A Python thread keeps counting while a long batch runs on another thread.
    rows = random_rows(rng, 400000)
    hull = gjk.ConvexHull(rng.normal(size=(64, 3)))
    counter = [0]
    done = threading.Event()

    def count():
        while not done.is_set():
            counter[0] += 1
            time.sleep(0.0005)

    t = threading.Thread(target=count)
    t.start()
    start = time.perf_counter()
    gjk.batch_distance(hull, hull, None, rows, threads=1, chunk=len(rows))
    elapsed = time.perf_counter() - start
    done.set()
    t.join()
    # With the GIL held for the whole (single-chunk) batch the counter could not move.
    assert elapsed > 0.05 and counter[0] > 10, (elapsed, counter[0])

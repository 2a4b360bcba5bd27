"""gjk.dask on a real distributed.LocalCluster (2 worker processes): a 100,000-query job gives the single-process
batch's arrays bit for bit, and a worker killed mid-job loses nothing (Dask runs its partitions again)."""

import os
import signal

import numpy as np
import pytest

import gjk
from conftest import random_rows

pytest.importorskip("dask")
distributed = pytest.importorskip("distributed")
da = pytest.importorskip("dask.array")
dd = pytest.importorskip("dask.dataframe")
pd = pytest.importorskip("pandas")
import gjk.dask  # noqa: E402

N = 100_000

# The test ships numpy inputs inside the graph on purpose (a few MiB); dask warns about it.
pytestmark = pytest.mark.filterwarnings("ignore:Sending large graph")


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None, silence_logs=40
    )
    c = distributed.Client(cluster)
    yield c
    c.close()
    cluster.close()


@pytest.fixture(scope="module")
def job():
    rng = np.random.default_rng(99)
    shapes = [gjk.Box([1.0, 0.5, 0.25]), gjk.ConvexHull(rng.normal(size=(64, 3))), gjk.Capsule(0.5, 0.25),
              gjk.Sphere(0.4), gjk.Cylinder(0.5, 0.3)]
    ids_a = rng.integers(0, len(shapes), N)
    ids_b = rng.integers(0, len(shapes), N)
    poses_a = random_rows(rng, N, 0.5)
    poses_b = random_rows(rng, N, 1.5)
    return shapes, ids_a, ids_b, poses_a, poses_b


def same(a, b):
    return all(np.array_equal(a[k], b[k]) for k in a.keys())


def test_100k_job_is_bit_identical(client, job):
    shapes, ids_a, ids_b, poses_a, poses_b = job
    ref = gjk.batch_penetration(shapes, shapes, poses_a, poses_b, ids_a=ids_a, ids_b=ids_b)
    lazy = gjk.dask.batch_penetration(
        shapes, shapes,
        da.from_array(poses_a, chunks=(10_000, 7)), da.from_array(poses_b, chunks=(25_000, 7)),
        ids_a=da.from_array(ids_a, chunks=7_000), ids_b=ids_b,
    )
    assert lazy["distance"].numblocks == (10,)
    got = gjk.dask.compute(lazy)
    assert same(ref, got)
    # Both workers did part of it.
    assert len(client.run(os.getpid)) == 2


def test_dataframe_job_is_bit_identical(client, job):
    shapes, ids_a, ids_b, poses_a, poses_b = job
    cols = ["x", "y", "z", "qx", "qy", "qz", "qw"]
    frame = pd.DataFrame(poses_b, columns=cols)
    frame["shape_a"], frame["shape_b"] = ids_a, ids_b
    ddf = dd.from_pandas(frame, npartitions=6)
    out = gjk.dask.dataframe_batch(ddf, shapes, shapes, "distance", pose_b=cols, id_a="shape_a", id_b="shape_b")
    out = out.compute()
    ref = gjk.batch_distance(shapes, shapes, None, poses_b, ids_a=ids_a, ids_b=ids_b)
    assert np.array_equal(out["distance"].to_numpy(), ref.distance)
    assert np.array_equal(out[["point_b_x", "point_b_y", "point_b_z"]].to_numpy(), ref.point_b)
    assert np.array_equal(out["status"].to_numpy(), ref.status)


def test_killed_worker_loses_nothing(client, job, tmp_path):
    shapes, ids_a, ids_b, poses_a, poses_b = job
    marker = str(tmp_path / "killed")
    pids_before = set(client.run(os.getpid).values())

    def kill_once(block, block_info=None):
        # The first time partition 5 is computed, its worker process dies on the spot (SIGKILL: no cleanup, its
        # results in memory are gone); the marker file makes the retry go through.
        if block_info[0]["chunk-location"][0] == 5 and not os.path.exists(marker):
            with open(marker, "w") as f:
                f.write(str(os.getpid()))
            os.kill(os.getpid(), signal.SIGKILL)
        return block

    poses = da.from_array(poses_b, chunks=(10_000, 7)).map_blocks(kill_once, dtype=poses_b.dtype)
    lazy = gjk.dask.batch_distance(shapes, shapes, poses_a, poses, ids_a=ids_a, ids_b=ids_b)
    got = gjk.dask.compute(lazy)
    ref = gjk.batch_distance(shapes, shapes, poses_a, poses_b, ids_a=ids_a, ids_b=ids_b)
    assert os.path.exists(marker), "the kill did not happen"
    killed = int(open(marker).read())
    assert killed in pids_before
    client.wait_for_workers(2)
    assert killed not in set(client.run(os.getpid).values())
    assert same(ref, got)

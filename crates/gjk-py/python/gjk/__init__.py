"""gjk — exact convex collision detection (GJK/EPA) from Rust, for Python.

Shapes (2D and 3D, float64 or float32)::

    Sphere, Circle, Box, Capsule, Cylinder, Cone, Ellipsoid, ConvexHull, Segment, Triangle, Point,
    Rounded, MinkowskiSum, Posed                                  (convex)
    TriMesh, Compound, HeightField, HalfSpace                     (composite and infinite)

Queries on any pair of shapes (each returns a small result object with its status; composites name the leaves
met, ``part_a`` / ``part_b``)::

    distance, intersects, penetration, contact_manifold, ray_cast, shape_cast, time_of_impact,
    project_point, contains_point

Witness simplices: ``distance(..., simplices=True)`` adds ``simplex_a`` / ``simplex_b``
(``WitnessSimplex``: ``indices`` into each shape, ``points``, ``weights``); ``distance_nd(a, b)`` is the distance of
the hulls of two point sets of ℝⁿ (numpy arrays [m, n], n ≤ 64), always with both simplices.

Batches over numpy arrays, on every core with the GIL released::

    batch_distance, batch_penetration, batch_intersects, batch_contact_manifold, batch_ray_cast,
    batch_shape_cast, batch_time_of_impact, batch_project_point

Poses
-----
Wherever a pose is taken it may be:

* ``None`` — the identity;
* a homogeneous matrix, 4 × 4 in 3D (3 × 3 in 2D), as trimesh and pybullet users hold them;
* a row ``[x, y, z, qx, qy, qz, qw]`` in 3D — translation, then the quaternion in **(x, y, z, w)** order
  (scalar last, as scipy's ``Rotation.as_quat()`` and pybullet); ``[x, y, angle]`` in 2D (radians,
  counter-clockwise);
* a tuple ``(translation, rotation)`` with the rotation ``None``, a quaternion **(x, y, z, w)** or a 3 × 3 matrix in
  3D, an angle or a 2 × 2 matrix in 2D.

Rotations are checked: a matrix must be orthonormal (every entry of RᵀR − I within ``ROTATION_TOLERANCE_F64``
= 1e-6 for float64 shapes, ``ROTATION_TOLERANCE_F32`` = 1e-5 for float32) with determinant +1 and last row
``[0, …, 0, 1]``; a quaternion must have unit norm within the same tolerance. Anything else, and any NaN or
infinity, raises ``ValueError``. An accepted rotation is re-normalised, so the query runs on an exact rotation.

Statuses
--------
Every answer says how the query ended; batches return it as small integers (``status[N]``, uint8):

====  ==================  ===========================================================================
code  name                meaning
====  ==================  ===========================================================================
0     ``converged``       the answer meets the tolerance (exact up to rounding for the error bound)
1     ``max_iterations``  the iteration cap was reached; the answer is the best found, within ``error_bound``
2     ``stalled``         no further progress possible in this precision; within ``error_bound``
3     ``above_bound``     (distance with ``max_distance``) farther than it; the distance is a lower bound
4     ``invalid_input``   (batches with ``on_invalid="status"``) the row's pose was invalid: no answer, NaNs
====  ==================  ===========================================================================
"""

from ._gjk import (
    ROTATION_TOLERANCE_F32,
    ROTATION_TOLERANCE_F64,
    STATUS_NAMES,
    Box,
    CastResult,
    Compound,
    HalfSpace,
    HeightField,
    Posed,
    Projection,
    TriMesh,
    Circle,
    Cone,
    ContactManifold,
    ConvexHull,
    Capsule,
    Cylinder,
    DistanceResult,
    Ellipsoid,
    IntersectionResult,
    MinkowskiSum,
    PenetrationResult,
    Point,
    RayHit,
    Rounded,
    Segment,
    Shape,
    Sphere,
    Triangle,
    WitnessSimplex,
    contact_manifold,
    contains_point,
    distance,
    distance_nd,
    intersects,
    penetration,
    project_point,
    ray_cast,
    shape_cast,
    time_of_impact,
)
from .batch import (
    BatchContacts,
    BatchResult,
    batch_contact_manifold,
    batch_distance,
    batch_intersects,
    batch_penetration,
    batch_project_point,
    batch_ray_cast,
    batch_shape_cast,
    batch_time_of_impact,
)
from .mesh import from_trimesh, to_trimesh

CONVERGED = 0
MAX_ITERATIONS = 1
STALLED = 2
ABOVE_BOUND = 3
INVALID_INPUT = 4

__version__ = "0.1.0"

__all__ = [
    "ABOVE_BOUND",
    "CONVERGED",
    "INVALID_INPUT",
    "MAX_ITERATIONS",
    "ROTATION_TOLERANCE_F32",
    "ROTATION_TOLERANCE_F64",
    "STALLED",
    "STATUS_NAMES",
    "BatchContacts",
    "BatchResult",
    "Box",
    "Capsule",
    "CastResult",
    "Compound",
    "HalfSpace",
    "HeightField",
    "Posed",
    "Projection",
    "TriMesh",
    "Circle",
    "Cone",
    "ContactManifold",
    "ConvexHull",
    "Cylinder",
    "DistanceResult",
    "Ellipsoid",
    "IntersectionResult",
    "MinkowskiSum",
    "PenetrationResult",
    "Point",
    "RayHit",
    "Rounded",
    "Segment",
    "Shape",
    "Sphere",
    "Triangle",
    "WitnessSimplex",
    "batch_contact_manifold",
    "batch_distance",
    "batch_intersects",
    "batch_penetration",
    "batch_project_point",
    "batch_ray_cast",
    "batch_shape_cast",
    "batch_time_of_impact",
    "contact_manifold",
    "contains_point",
    "distance",
    "distance_nd",
    "from_trimesh",
    "intersects",
    "penetration",
    "project_point",
    "ray_cast",
    "shape_cast",
    "time_of_impact",
    "to_trimesh",
]

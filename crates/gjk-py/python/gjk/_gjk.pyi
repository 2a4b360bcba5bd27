"""Type stubs of the compiled extension ``gjk._gjk`` (the classes and functions re-exported by ``gjk``).

Poses (``Pose``) wherever taken: ``None`` (identity); a homogeneous matrix, 4 × 4 in 3D, 3 × 3 in 2D; a row
``[x, y, z, qx, qy, qz, qw]`` in 3D — quaternion in **(x, y, z, w)** order, scalar last — or ``[x, y, angle]`` in
2D; or a tuple ``(translation, rotation)`` with rotation ``None``, a quaternion **(x, y, z, w)** or a 3 × 3 matrix
in 3D, an angle or a 2 × 2 matrix in 2D.
"""

import os
from typing import Any, Callable, Dict, List, Literal, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

ArrayLike = npt.ArrayLike
DType = Union[str, type, np.dtype, None]
Pose = Union[None, ArrayLike, Tuple[ArrayLike, Union[None, float, ArrayLike]]]

STATUS_NAMES: List[str]
ROTATION_TOLERANCE_F64: float
ROTATION_TOLERANCE_F32: float

class Shape:
    """A shape in 2D or 3D, float64 or float32 (the base class of every shape: convex, composite, half-space)."""

    @property
    def dim(self) -> int:
        """Number of coordinates: 2 or 3."""
    @property
    def dtype(self) -> str:
        """The precision of the shape and of every answer involving it: "float64" or "float32"."""
    @property
    def kind(self) -> str:
        """The family: "Sphere", "Box", "ConvexHull", ..."""
    @property
    def params(self) -> Dict[str, Any]:
        """The constructor's arguments (without dtype)."""
    @property
    def radius(self) -> float:
        """The rounding radius (the shape is its core swept by a ball of this radius)."""
    @property
    def is_convex(self) -> bool:
        """True for convex shapes; False for TriMesh, Compound, HeightField and HalfSpace."""
    @property
    def is_solid(self) -> bool:
        """True unless the shape is an open TriMesh (a surface)."""
    @property
    def leaf_count(self) -> Optional[int]:
        """Leaves of a composite (triangles, segments, parts); None for convex shapes and the HalfSpace."""
    @property
    def vertices(self) -> Optional[np.ndarray]:
        """Vertices [V, dim] of a ConvexHull or a TriMesh; None otherwise."""
    @property
    def faces(self) -> Optional[List[np.ndarray]]:
        """The faces of a 3D ConvexHull (vertex indices, counter-clockwise from outside); None otherwise."""
    @property
    def indices(self) -> Optional[np.ndarray]:
        """A TriMesh's facets [F, 3] ([F, 2] segments in 2D), uint32; None otherwise."""
    @property
    def poses(self) -> Optional[np.ndarray]:
        """A Compound's part poses as homogeneous matrices [N, dim + 1, dim + 1]; None otherwise."""
    def facets(self) -> Optional[np.ndarray]:
        """The leaves of a TriMesh or HeightField as corners [F, 3, dim] ([F, 2, dim] in 2D); None otherwise."""
    def support(self, directions: ArrayLike) -> np.ndarray:
        """Support points [N, dim] of the whole shape along directions [N, dim], in its local frame (convex only)."""
    def aabb(self, pose: Pose = None) -> Tuple[np.ndarray, np.ndarray]:
        """The axis-aligned bounding box (min, max) of the shape at `pose` (a composite's: its tree's root box)."""
    def __reduce__(self) -> Tuple[Any, Tuple[Any, ...]]: ...

class Sphere(Shape):
    """A sphere (3D ball) of `radius` centred on the local origin."""

    def __init__(self, radius: float, dtype: DType = None) -> None: ...

class Circle(Shape):
    """A circle (2D ball) of `radius` centred on the local origin."""

    def __init__(self, radius: float, dtype: DType = None) -> None: ...

class Box(Shape):
    """A box (3D) or rectangle (2D) centred on the local origin; the count of half-extents is the dimension."""

    def __init__(self, half_extents: ArrayLike, dtype: DType = None) -> None: ...

class Capsule(Shape):
    """A capsule (3D) or stadium (2D) along local y (or, in 3D, z with `axis="z"`): the segment (0, ±half_height)
    swept by a ball of radius."""

    def __init__(
        self, half_height: float, radius: float, dim: int = 3, dtype: DType = None, axis: Literal["y", "z"] = "y"
    ) -> None: ...

class Cylinder(Shape):
    """A 3D cylinder along local y, caps at y = ±half_height of `radius` (along local z with `axis="z"`)."""

    def __init__(
        self, half_height: float, radius: float, dtype: DType = None, axis: Literal["y", "z"] = "y"
    ) -> None: ...

class Cone(Shape):
    """A 3D cone along local y: base disc of `radius` at y = −half_height, apex at +half_height (along local z with `axis="z"`)."""

    def __init__(
        self, half_height: float, radius: float, dtype: DType = None, axis: Literal["y", "z"] = "y"
    ) -> None: ...

class Ellipsoid(Shape):
    """An ellipsoid (3D) or ellipse (2D) with semi-axes `radii`."""

    def __init__(self, radii: ArrayLike, dtype: DType = None) -> None: ...

class ConvexHull(Shape):
    """The convex hull of points [N, 2] or [N, 3]; degenerate clouds (flat, collinear, one point) are valid."""

    def __init__(self, points: ArrayLike, dtype: DType = None) -> None: ...

class Segment(Shape):
    """The segment from `a` to `b`."""

    def __init__(self, a: ArrayLike, b: ArrayLike, dtype: DType = None) -> None: ...

class Triangle(Shape):
    """The triangle with corners `a`, `b`, `c`."""

    def __init__(self, a: ArrayLike, b: ArrayLike, c: ArrayLike, dtype: DType = None) -> None: ...

class Point(Shape):
    """The single point `at`."""

    def __init__(self, at: ArrayLike, dtype: DType = None) -> None: ...

class Rounded(Shape):
    """`shape` rounded by `radius` (every point within `radius` of it), in the shape's space."""

    def __init__(self, shape: Shape, radius: float) -> None: ...

class MinkowskiSum(Shape):
    """The Minkowski sum a ⊕ b of two shapes of the same space."""

    def __init__(self, a: Shape, b: Shape) -> None: ...

class Posed(Shape):
    """A convex `shape` placed at `pose` in its own frame (what `from_trimesh` makes of a posed primitive)."""

    def __init__(self, shape: Shape, pose: Pose) -> None: ...

class TriMesh(Shape):
    """A triangle mesh (3D; segments in 2D) from vertices [V, dim] and indices [F, 3] ([F, 2] in 2D); solid when
    closed and consistently oriented."""

    def __init__(self, vertices: ArrayLike, indices: ArrayLike, dtype: DType = None) -> None: ...
    @staticmethod
    def from_obj(path: Union[str, "os.PathLike[str]", None] = None, *, text: Optional[str] = None,
                 dtype: DType = None) -> "TriMesh":
        """Every face of a Wavefront OBJ file as one mesh."""

class Compound(Shape):
    """Convex parts, each at a pose in the compound's frame (their union, solid)."""

    def __init__(self, parts: Sequence[Shape], poses: Union[None, ArrayLike, Sequence[Pose]] = None) -> None: ...
    @staticmethod
    def from_obj(path: Union[str, "os.PathLike[str]", None] = None, *, text: Optional[str] = None,
                 dtype: DType = None) -> "Compound":
        """One ConvexHull part per object (o/g) of an OBJ file (a V-HACD / CoACD decomposition)."""

class HeightField(Shape):
    """Terrain along local y, solid below: heights [rows, cols] (3D, spacing dx, dz) or [n] (2D, spacing dx)."""

    def __init__(self, heights: ArrayLike, dx: float = 1.0, dz: float = 1.0, dtype: DType = None) -> None: ...

class HalfSpace(Shape):
    """The solid half-space {x : normal · x ≤ 0} of the shape's frame (infinite)."""

    def __init__(self, normal: ArrayLike, dtype: DType = None) -> None: ...

class DistanceResult:
    """The answer of `distance`."""

    intersecting: bool
    distance: float
    point_a: np.ndarray
    point_b: np.ndarray
    normal: np.ndarray
    part_a: Optional[int]
    part_b: Optional[int]
    iterations: int
    leaves: int
    status: str
    status_code: int
    error_bound: float
    simplex_a: Optional[WitnessSimplex]
    """A's witness simplex: with `distance(..., simplices=True)` and always from `distance_nd`; else None."""
    simplex_b: Optional[WitnessSimplex]
    """B's witness simplex."""

class WitnessSimplex:
    """The points of one shape whose weighted sum is its core's closest point (a ball's centre, a capsule's point on
    its segment, a rounded shape's inner shape's point): Σ weights[i] · points[i] = point_a − radius_a · normal."""

    indices: List[Optional[int]]
    """Each point's index in the shape as its constructor took it (a ConvexHull's row of `points`; a Box's corner i,
    coordinate k at +half_extents[k] when bit k of i is set; a Segment's end 0 = a, 1 = b; a Triangle's 0, 1, 2; a
    Capsule's ends 0 at −half_height, 1 at +half_height; 0 for a Point or a ball's centre; a Rounded or Posed
    shape numbers as its inner shape; a TriMesh's vertex; a HeightField's sample, r · cols + c; a Compound part's
    own point, numbered as the part's shape; a row of the point set in `distance_nd`), or None where the point is
    not one of the shape's own (a curved surface, a MinkowskiSum, a HalfSpace)."""
    points: np.ndarray
    """[k, dim] points, world frame (the indexed input points placed by the pose), in the shapes' dtype."""
    weights: np.ndarray
    """[k] float64 weights, positive, summing to one."""
    def __len__(self) -> int: ...

class IntersectionResult:
    """The answer of `intersects`; `bool(result)` is `intersecting`."""

    intersecting: bool
    iterations: int
    status: str
    status_code: int
    def __bool__(self) -> bool: ...

class PenetrationResult:
    """The answer of `penetration`: the signed distance."""

    intersecting: bool
    distance: float
    depth: float
    normal: np.ndarray
    point_a: np.ndarray
    point_b: np.ndarray
    part_a: Optional[int]
    part_b: Optional[int]
    iterations: int
    status: str
    status_code: int
    error_bound: float

class ContactManifold:
    """The answer of `contact_manifold`; `len(m)` is the number of contacts (of every manifold)."""

    normal: np.ndarray
    points_a: np.ndarray
    points_b: np.ndarray
    normals: np.ndarray
    depths: np.ndarray
    ids: np.ndarray
    part_a: np.ndarray
    part_b: np.ndarray
    manifold: np.ndarray
    manifolds: int
    distance: float
    status: str
    status_code: int
    def __len__(self) -> int: ...

class RayHit:
    """The answer of `ray_cast`; `bool(hit)` is `hit`."""

    hit: bool
    toi: float
    normal: np.ndarray
    point: np.ndarray
    part: Optional[int]
    iterations: int
    status: str
    status_code: int
    def __bool__(self) -> bool: ...

class CastResult:
    """The answer of `shape_cast` and `time_of_impact`; `bool(result)` is `hit`."""

    hit: bool
    toi: float
    normal: np.ndarray
    point_a: np.ndarray
    point_b: np.ndarray
    part_a: Optional[int]
    part_b: Optional[int]
    iterations: int
    status: str
    status_code: int
    def __bool__(self) -> bool: ...

class Projection:
    """The answer of `project_point`."""

    point: np.ndarray
    inside: bool
    distance: float
    part: Optional[int]

def distance(
    a: Shape,
    pose_a: Pose,
    b: Shape,
    pose_b: Pose,
    max_distance: Optional[float] = None,
    max_iterations: int = 256,
    tolerance: Optional[float] = None,
    simplices: bool = False,
) -> DistanceResult:
    """Distance, closest points and normal (from A toward B) between two shapes; `simplices=True` adds
    `simplex_a` / `simplex_b` (with a composite: those of the leaf pair `part_a`, `part_b`)."""

def distance_nd(
    a: ArrayLike,
    b: ArrayLike,
    translation_a: Optional[ArrayLike] = None,
    translation_b: Optional[ArrayLike] = None,
    max_distance: Optional[float] = None,
    max_iterations: int = 256,
    tolerance: Optional[float] = None,
) -> DistanceResult:
    """Distance between the convex hulls of two point sets of ℝⁿ, `a` [m, n] and `b` [p, n] (1 ≤ n ≤ 64, float64),
    moved by the translations; vectors of n numbers, `simplex_a` / `simplex_b` always given (indices: rows)."""

def intersects(a: Shape, pose_a: Pose, b: Shape, pose_b: Pose, max_iterations: int = 256) -> IntersectionResult:
    """Whether two shapes overlap or touch."""

def penetration(
    a: Shape, pose_a: Pose, b: Shape, pose_b: Pose, max_iterations: int = 256, tolerance: Optional[float] = None
) -> PenetrationResult:
    """Signed distance (negative: penetration depth), normal and deepest points."""

def contact_manifold(a: Shape, pose_a: Pose, b: Shape, pose_b: Pose, prediction: float = 0.0) -> ContactManifold:
    """Every contact within `prediction`: one manifold of up to 4 (2 in 2D) for convex pairs, one per normal with
    composites."""

def ray_cast(
    shape: Shape, pose: Pose, origin: ArrayLike, direction: ArrayLike, max_toi: float = ..., solid: bool = True
) -> RayHit:
    """Casts the ray origin + t · direction, t in [0, max_toi], against the shape."""

def shape_cast(
    a: Shape,
    pose_a: Pose,
    velocity_a: ArrayLike,
    b: Shape,
    pose_b: Pose,
    velocity_b: ArrayLike,
    max_toi: float = ...,
    target_distance: float = 0.0,
    ignore_initial_overlap_when_separating: bool = False,
    max_iterations: int = 256,
    tolerance: Optional[float] = None,
) -> CastResult:
    """First time at which two translating shapes come within `target_distance`."""

def time_of_impact(
    a: Shape,
    pose_a: Pose,
    velocity_a: ArrayLike,
    angular_a: Union[None, float, ArrayLike],
    b: Shape,
    pose_b: Pose,
    velocity_b: ArrayLike,
    angular_b: Union[None, float, ArrayLike],
    max_toi: float = ...,
    target_distance: float = 0.0,
    max_iterations: int = 256,
    tolerance: Optional[float] = None,
) -> CastResult:
    """First time at which two shapes under rigid motions (with rotation) come within `target_distance`."""

def project_point(shape: Shape, pose: Pose, point: ArrayLike) -> Projection:
    """The point of the shape closest to `point`, and whether `point` is inside."""

def contains_point(shape: Shape, pose: Pose, point: ArrayLike) -> bool:
    """Whether `point` is in the shape (on it, or inside a solid shape)."""

def batch(
    query: str,
    shapes: Sequence[Shape],
    ids_a: np.ndarray,
    poses_a: np.ndarray,
    ids_b: Optional[np.ndarray] = None,
    poses_b: Optional[np.ndarray] = None,
    vectors: Optional[List[Tuple[str, np.ndarray, int]]] = None,
    options: Optional[Dict[str, Any]] = None,
    threads: Optional[int] = None,
    chunk: int = 65536,
    progress: Optional[Callable[[int], Any]] = None,
    on_invalid: str = "raise",
) -> Dict[str, np.ndarray]:
    """The batch kernel behind gjk.batch_* (use those)."""

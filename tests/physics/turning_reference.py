"""An independent slow reference for turning sweeps (issue #35): the moving shape
posed at time t by this module's own rotation, the exact distance of the posed
shape to the target by feature enumeration, and a Lipschitz search over t.

Nothing here comes from ``physics.sweep.turning`` or the kernels.  The shapes are
the brute-force bodies of ``tests.physics.bodies`` (a convex core given by its
corners, edges and fan triangles, inflated by a radius; a plane; a mesh as a union
of triangles), as NumPy arrays so that one call evaluates the distance at many
times at once.

Motion (the contract of ``sweep(..., rotation=, pivot=, interpolation=)``): a point
x of the moving shape at t = 0 is at time t in [0, 1] at

    x(t) = pivot + t d + R(t) (x - pivot),

with the rotation vector r = θ k (unit axis k, angle θ = |r|) and

* slerp (constant angular velocity), Rodrigues' formula with φ = t θ:
      R(t) = I + sin φ [k]x + (1 - cos φ) [k]x²;
* nlerp: the quaternion lerped from the identity (1, 0) to q1 = (cos θ/2, sin θ/2 k)
  and normalized, q(t) = ((1 - t) + t cos θ/2, t sin θ/2 k) / |...| = (w, v), then
      R = (w² - v·v) I + 2 v vᵀ + 2 w [v]x.

Speed bound.  The nlerp angle φ(t) = 2 atan(t s / (1 - t (1 - c))), s = sin θ/2,
c = cos θ/2, turns about the fixed axis k at the rate

    φ'(t) = 2 s / |q(t)|²  with  |q(t)|² = 1 - 2 t (1 - t) (1 - c),

largest at t = 1/2, where |q|² = (1 + c) / 2:  φ' <= 4 s / (1 + c) = 4 tan(θ/4)
(θ for slerp).  A point at distance ρ from the pivot then moves at most at
|d| + ω ρ, so the distance between the moving shape and the (still) target changes
at most at L = |d| + ω max ρ over the core's corners (the farthest point of a
convex core from the pivot is a corner): the distance is L-Lipschitz in t.

Distance.  Between two convex cores: the smallest of corner-corner, corner-edge,
corner-face (a projection into a triangle) and edge-edge (the interior
closest points of two non-parallel edges) distances — every candidate is the
distance between two points of the cores, so the minimum is never below the true
distance by more than round-off, and the closest pair is among them — and zero where
the cores intersect: a corner inside a solid, an edge through a triangle (float
orientation tests; where they misjudge, the shapes touch within round-off and the
candidates are ~0 too).  Where they intersect, the distance is signed: minus the
penetration depth, the smallest overlap of the cores' projections on the separating
axis test's candidate axes (faces' normals, edges' cross products), 0 where the
Minkowski difference has no volume (a point in a triangle: there the distance never
goes below minus the radii, the search's ``floor``).  The signed distance of the
origin to the moving Minkowski difference is L-Lipschitz as well.  Minus both radii.
Against a plane (two-sided): the smallest |height|, or where the corners straddle it
minus the shorter way off.

Search (``first_below``): the first t in [0, end] where the distance is <= a
``level``.  [0, end] is cut into ``GRID`` intervals; an interval [a, b] with
distances da, db cannot hold a distance <= level when the Lipschitz lower bound's
minimum over it, (da + db - L (b - a)) / 2, or the floor is above the level; the first interval
that can is cut into ``SPLIT`` pieces, and so on (a bisection with ``SPLIT`` - 1
samples at a time), down to ``RESOLUTION``.  The answer brackets the crossing:
``lower`` (the distance is certified > level on [0, lower), up to the distance's
round-off) and ``upper`` (the first sampled time where it is <= level; None when
none was found: a miss).  A graze whose closest approach is within L x RESOLUTION
of the level leaves intervals the bound cannot decide: ``lower`` stops at the first
of them, and past ``BUDGET`` evaluations the search raises ``Undecided``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from sweeplab.physics import Capsule, Plane, Point, Polygon, Segment, Sphere, TriangleMesh
from tests.physics.bodies import Body, body_of

INTERPOLATIONS = ("slerp", "nlerp")

GRID = 64
"""Intervals the first pass cuts [0, end] into."""

SPLIT = 16
"""Pieces each undecided interval is cut into (15 new samples per step)."""

RESOLUTION = 2.0 ** -44
"""Unit: fraction of the sweep.  Intervals this short are not cut further: the
bracket's width for a transversal crossing (5.7e-14, a few hundred ulps of t near
1: below any time tolerance the tests use, above t's own rounding)."""

BUDGET = 8_000
"""Most distance evaluations of one search (``Undecided`` where it would need more):
a transversal crossing takes a few hundred (at most 935 in 300 random turning
sweeps); a graze within ~1e-9 of the level, tens of thousands.  60,000 let one
example of the thin family take 36 s (a box against a mesh); 8,000 costs ~1 s."""


class Undecided(RuntimeError):
    """The search ran out of ``BUDGET``: a graze the Lipschitz bound cannot settle."""


# --- the motion -------------------------------------------------------------------------

def _cross_matrix(v: np.ndarray) -> np.ndarray:
    """[v]x (..., 3, 3): [v]x y = v x y."""
    x, y, z = v[..., 0], v[..., 1], v[..., 2]
    zero = np.zeros_like(x)
    return np.stack([np.stack([zero, -z, y], -1), np.stack([z, zero, -x], -1), np.stack([-y, x, zero], -1)], -2)


def rotation_matrices(rotation, times, interpolation: str = "slerp") -> np.ndarray:
    """R(t) (N, 3, 3) at ``times`` (N,) for the whole-sweep rotation vector
    ``rotation`` (module docstring: Rodrigues for slerp, the normalized quaternion lerp
    for nlerp)."""
    rotation = np.asarray(rotation, float)
    times = np.asarray(times, float)
    angle = math.sqrt(float(rotation @ rotation))
    identity = np.broadcast_to(np.eye(3), times.shape + (3, 3))
    if angle == 0:
        return identity.copy()
    axis = rotation / angle
    if interpolation == "slerp":
        turned = times * angle
        k = _cross_matrix(axis)
        return identity + np.sin(turned)[:, None, None] * k + (1 - np.cos(turned))[:, None, None] * (k @ k)
    if interpolation != "nlerp":
        raise ValueError(f"interpolation must be one of {INTERPOLATIONS}, got {interpolation!r}")
    w = (1 - times) + times * math.cos(angle / 2)
    v = (times * math.sin(angle / 2))[:, None] * axis
    norm = np.sqrt(w * w + np.sum(v * v, axis=1))
    w, v = w / norm, v / norm[:, None]
    return ((w * w - np.sum(v * v, axis=1))[:, None, None] * identity + 2 * v[:, :, None] * v[:, None, :]
            + 2 * w[:, None, None] * _cross_matrix(v))


def largest_angular_speed(angle: float, interpolation: str) -> float:
    """The largest angular speed over the sweep of a turn by ``angle`` radians: the
    angle itself for slerp, 4 tan(angle / 4) for nlerp (module docstring)."""
    if interpolation == "slerp":
        return angle
    if not angle < math.pi:
        raise ValueError(f"rotation: nlerp cannot turn by {angle} >= pi in one sweep")
    return 4 * math.tan(angle / 4)


def centroid(shape) -> np.ndarray:
    """The contract's default pivot, computed here: a sphere's centre, a point, a
    segment's or capsule's midpoint, a polygon's vertex mean, a solid polyhedron's
    volume centroid (signed tetrahedra of its fan triangles with the vertex mean:
    Σ V_i c_i / Σ V_i), a flat or straight one's vertex mean."""
    if isinstance(shape, Sphere):
        return np.asarray(shape.center, float)
    if isinstance(shape, Point):
        return np.asarray(shape.p, float)
    if isinstance(shape, (Segment, Capsule)):
        return (np.asarray(shape.a, float) + np.asarray(shape.b, float)) / 2
    if isinstance(shape, TriangleMesh):
        return shape.world_vertices().mean(axis=0)
    vertices = np.asarray(shape.vertices, float)
    if isinstance(shape, Polygon) or shape.dimension < 3:
        return vertices.mean(axis=0)
    apex = vertices.mean(axis=0)
    volume, moment = 0.0, np.zeros(3)
    for loop in shape.faces:
        for k in range(1, len(loop) - 1):
            a, b, c = vertices[loop[0]], vertices[loop[k]], vertices[loop[k + 1]]
            six_volume = float(np.dot(a - apex, np.cross(b - apex, c - apex)))
            volume += six_volume
            moment += six_volume * (a + b + c + apex) / 4
    return moment / volume


# --- bodies as arrays, posed at many times ---------------------------------------------------

@dataclass(frozen=True)
class Cores:
    """A body's core as arrays with a leading time axis (1 for a still one): corners
    (N, C, 3), edges' ends (N, E, 2, 3), fan triangles (N, T, 3, 3)."""

    corners: np.ndarray
    edges: np.ndarray
    triangles: np.ndarray
    solid: bool
    radius: float

    @staticmethod
    def of(body: Body) -> Cores:
        return Cores(np.asarray(body.corners, float).reshape(1, -1, 3),
                     np.asarray(body.edges, float).reshape(1, -1, 2, 3),
                     np.asarray(body.triangles, float).reshape(1, -1, 3, 3), body.solid, body.radius)

    @property
    def dimension(self) -> int:
        """3 for a solid, 2 for a flat polygon, 1 for a segment, 0 for a point."""
        return 3 if self.solid else 2 if self.triangles.shape[1] else 1 if self.edges.shape[1] else 0

    def posed(self, rotations: np.ndarray, pivot: np.ndarray, shifts: np.ndarray) -> Cores:
        """The core moved by x -> pivot + shift + R (x - pivot), one (R, shift) per time:
        ``rotations`` (N, 3, 3), ``shifts`` (N, 3)."""
        def move(points: np.ndarray) -> np.ndarray:
            relative = points[0] - pivot
            turned = np.einsum("nij,...j->n...i", rotations, relative)
            return turned + (pivot + shifts).reshape((len(shifts),) + (1,) * (relative.ndim - 1) + (3,))
        return Cores(move(self.corners), move(self.edges), move(self.triangles), self.solid, self.radius)


def _point_segment(p, a, b) -> np.ndarray:
    """|p - closest point of segment a-b| (broadcast, (..., 3) -> (...))."""
    ab = b - a
    length_squared = np.sum(ab * ab, axis=-1)
    s = np.clip(np.sum((p - a) * ab, axis=-1) / np.where(length_squared > 0, length_squared, 1.0), 0.0, 1.0)
    return np.linalg.norm(p - (a + s[..., None] * ab), axis=-1)


def _point_face(p, a, b, c) -> np.ndarray:
    """|height of p over triangle a, b, c| where p projects into it (its boundary
    included: a fan's diagonals are no edges of the face), else inf."""
    normal = np.cross(b - a, c - a)
    length = np.linalg.norm(normal, axis=-1)
    unit = normal / np.where(length > 0, length, 1.0)[..., None]
    height = np.sum((p - a) * unit, axis=-1)
    projected = p - height[..., None] * unit
    inside = length > 0
    for start, end in ((a, b), (b, c), (c, a)):
        inside = inside & (np.sum(np.cross(end - start, projected - start) * normal, axis=-1) >= 0)
    return np.where(inside, np.abs(height), np.inf)


def _segment_segment(p0, p1, q0, q1) -> np.ndarray:
    """|p(s) - q(u)| for the interior closest points of two non-parallel segments
    (0 < s, u < 1: the 2x2 normal equations), else inf (an end is closest: the
    corner-edge candidates have it)."""
    d1, d2, r = p1 - p0, q1 - q0, p0 - q0
    a, e, b = np.sum(d1 * d1, -1), np.sum(d2 * d2, -1), np.sum(d1 * d2, -1)
    c, f = np.sum(d1 * r, -1), np.sum(d2 * r, -1)
    denominator = a * e - b * b
    safe = np.where(denominator > 0, denominator, 1.0)
    s, u = (b * f - c * e) / safe, (a * f - b * c) / safe
    interior = (denominator > 0) & (s > 0) & (s < 1) & (u > 0) & (u < 1)
    gap = np.linalg.norm(p0 + s[..., None] * d1 - q0 - u[..., None] * d2, axis=-1)
    return np.where(interior, gap, np.inf)


def _volume(u, v, w, x) -> np.ndarray:
    """Six times the signed volume of tetrahedra u, v, w, x (broadcast)."""
    return np.sum((v - u) * np.cross(w - u, x - u), axis=-1)


def _crosses(p, q, a, b, c) -> np.ndarray:
    """Whether segment p-q passes through triangle a, b, c (signed volumes)."""
    side_p, side_q = _volume(a, b, c, p), _volume(a, b, c, q)
    across = (side_p * side_q <= 0) & ~((side_p == 0) & (side_q == 0))
    turns = [_volume(p, q, a, b), _volume(p, q, b, c), _volume(p, q, c, a)]
    same = (np.all([t >= 0 for t in turns], axis=0)) | (np.all([t <= 0 for t in turns], axis=0))
    return across & same


def _inside(points, triangles) -> np.ndarray:
    """Whether each of ``points`` (N, P, 3) is inside the solid bounded by
    ``triangles`` (N, T, 3, 3) (its boundary included): behind every face plane,
    oriented away from the corners' mean.  (N, P)."""
    a, b, c = (triangles[:, :, k] for k in range(3))
    center = triangles.reshape(len(triangles), -1, 3).mean(axis=1)[:, None, :]
    normal = np.cross(b - a, c - a)
    normal = np.where((np.sum(normal * (center - a), -1) > 0)[..., None], -normal, normal)
    heights = np.einsum("ntk,nptk->npt", normal, points[:, :, None, :] - a[:, None, :, :])
    return np.all(heights <= 0, axis=2)


def _smallest(values: np.ndarray, count: int) -> np.ndarray:
    """Per time, the smallest of ``values`` (N or 1, ...), inf where there are none."""
    flat = np.broadcast_to(values.reshape(values.shape[0], -1), (count, int(np.prod(values.shape[1:]))))
    return flat.min(axis=1, initial=np.inf)


def core_distance(moving: Cores, target: Cores) -> np.ndarray:
    """Distance between the cores at each time (N,): 0 where they intersect."""
    count = max(len(moving.corners), len(target.corners))
    candidates = []
    for one, other in ((moving, target), (target, moving)):
        p = one.corners[:, :, None, :]
        candidates.append(_smallest(np.linalg.norm(p - other.corners[:, None, :, :], axis=-1), count))
        ends = other.edges[:, None, :, :, :]
        candidates.append(_smallest(_point_segment(p, ends[..., 0, :], ends[..., 1, :]), count))
        tri = other.triangles[:, None, :, :, :]
        candidates.append(_smallest(_point_face(p, tri[..., 0, :], tri[..., 1, :], tri[..., 2, :]), count))
    e, f = moving.edges[:, :, None], target.edges[:, None, :]
    candidates.append(_smallest(_segment_segment(e[..., 0, :], e[..., 1, :], f[..., 0, :], f[..., 1, :]), count))
    distance = np.min(candidates, axis=0)
    for one, other in ((moving, target), (target, moving)):
        if other.solid:
            corners = np.broadcast_to(one.corners, (count,) + one.corners.shape[1:])
            triangles = np.broadcast_to(other.triangles, (count,) + other.triangles.shape[1:])
            distance = np.where(np.any(_inside(corners, triangles), axis=1), 0.0, distance)
        e, t = one.edges[:, :, None], other.triangles[:, None, :]
        through = _crosses(e[..., 0, :], e[..., 1, :], t[..., 0, :], t[..., 1, :], t[..., 2, :])
        distance = np.where(np.broadcast_to(through.reshape(through.shape[0], -1).any(axis=1), (count,)), 0.0,
                            distance)
    return distance


def _normals(cores: Cores) -> tuple[np.ndarray, np.ndarray]:
    """The fan triangles' (unnormalized) normals (N, T, 3), and the products of the two
    edge lengths each is the cross product of (N, T)."""
    a, b, c = (cores.triangles[:, :, k] for k in range(3))
    return np.cross(b - a, c - a), np.linalg.norm(b - a, axis=-1) * np.linalg.norm(c - a, axis=-1)


AXIS_SINE = 1e-12
"""A cross product u x v is a separating axis candidate only where |u x v| exceeds
AXIS_SINE·|u|·|v| (the sine of their angle): below it, as for a sliver triangle whose
third corner is its opposite edge's midpoint but for a last bit (|u x v| = 2.4e-16 of
2.2), the direction is round-off, and along it a point on the sliver read 0.044 deep."""


def penetration_depth(moving: Cores, target: Cores) -> np.ndarray:
    """How far apart the cores must be moved to stop intersecting, at each time (N,):
    the smallest overlap of their projections over the separating axis test's
    candidates (the faces' normals of both, the cross products of their edges: the
    facet normals of the Minkowski difference of two polytopes), 0 where it has no
    volume (no candidate, or an overlap of 0: a point in a triangle, crossing
    segments).  Meaningful where the cores intersect."""
    count = max(len(moving.corners), len(target.corners))
    e, f = moving.edges[:, :, None], target.edges[:, None, :]
    u, v = e[..., 1, :] - e[..., 0, :], f[..., 1, :] - f[..., 0, :]
    crosses = np.cross(u, v)
    cross_sizes = np.linalg.norm(u, axis=-1) * np.linalg.norm(v, axis=-1)
    (moving_normals, moving_sizes), (target_normals, target_sizes) = _normals(moving), _normals(target)
    parts = [np.broadcast_to(part, (count,) + part.shape[1:])
             for part in (moving_normals, target_normals, crosses.reshape(len(crosses), -1, 3))]
    sizes = [np.broadcast_to(part, (count,) + part.shape[1:])
             for part in (moving_sizes, target_sizes, cross_sizes.reshape(len(cross_sizes), -1))]
    axes = np.concatenate(parts, axis=1)
    if axes.shape[1] == 0:
        return np.zeros(count)
    lengths = np.linalg.norm(axes, axis=-1)
    lengths = np.where(lengths > AXIS_SINE * np.concatenate(sizes, axis=1), lengths, 0.0)
    on_moving = np.einsum("nkd,ncd->nkc", axes, np.broadcast_to(moving.corners, (count,) + moving.corners.shape[1:]))
    on_target = np.einsum("nkd,ncd->nkc", axes, np.broadcast_to(target.corners, (count,) + target.corners.shape[1:]))
    overlap = np.minimum(on_moving.max(axis=2) - on_target.min(axis=2), on_target.max(axis=2) - on_moving.min(axis=2))
    overlap = np.where(lengths > 0, overlap / np.where(lengths > 0, lengths, 1.0), np.inf)
    deepest = overlap.min(axis=1)  # inf where every candidate is a zero vector
    return np.where(np.isfinite(deepest), np.clip(deepest, 0.0, None), 0.0)


def signed_distance(moving: Cores, target: Cores) -> np.ndarray:
    """The cores' distance where they are apart, minus their penetration depth where
    they intersect."""
    distance = core_distance(moving, target)
    return np.where(distance > 0, distance, -penetration_depth(moving, target))


def plane_distance(moving: Cores, plane) -> np.ndarray:
    """Signed distance of the core to a two-sided plane (unit normal, offset): where
    its corners straddle it, minus the shorter way off (the smaller of the highest and
    the lowest corner's |height|), else the smallest |height|."""
    normal, offset = plane
    heights = moving.corners @ np.asarray(normal, float) - offset
    highest, lowest = heights.max(axis=1), heights.min(axis=1)
    straddles = (lowest <= 0) & (highest >= 0)
    return np.where(straddles, -np.minimum(highest, -lowest), np.abs(heights).min(axis=1))


# --- the sweep ------------------------------------------------------------------------------

@dataclass(frozen=True)
class Bracket:
    """Where the distance first reaches a level: certified above it on [0, lower)
    (up to round-off), at or below it at ``upper`` (None: never sampled so)."""

    lower: float
    upper: float | None
    evaluations: int


@dataclass(frozen=True)
class TurningSweep:
    """One scalar turning sweep, as the reference sees it.  ``pivot`` None: the
    moving shape's ``centroid``; ``center`` is the pivot used, ``core`` the moving
    core at t = 0 and ``targets`` the target's cores (a mesh's triangles) or plane."""

    moving: object
    target: object
    direction: tuple
    rotation: tuple
    pivot: tuple | None = None
    interpolation: str = "slerp"
    core: Cores = field(init=False)
    targets: list = field(init=False)
    center: np.ndarray = field(init=False)

    def __post_init__(self):
        if isinstance(self.moving, (Plane, TriangleMesh)):
            raise TypeError(f"the reference sweeps no moving {type(self.moving).__name__}")
        moving_body = body_of(self.moving)
        assert isinstance(moving_body, Body)
        target = body_of(self.target)
        bodies = target if isinstance(target, list) else [target]
        object.__setattr__(self, "core", Cores.of(moving_body))
        object.__setattr__(self, "targets", [b.plane if b.plane is not None else Cores.of(b) for b in bodies])
        object.__setattr__(self, "center", centroid(self.moving) if self.pivot is None else
                           np.asarray(self.pivot, float))

    @property
    def angle(self) -> float:
        return float(np.linalg.norm(np.asarray(self.rotation, float)))

    @property
    def speed_bound(self) -> float:
        """L = |d| + ω max ρ: the distance's Lipschitz constant in t."""
        reach = float(np.linalg.norm(self.core.corners[0] - self.center, axis=1).max())
        speed = largest_angular_speed(self.angle, self.interpolation)
        return float(np.linalg.norm(np.asarray(self.direction, float))) + speed * reach

    def posed(self, times) -> Cores:
        """The moving core at ``times`` (N,)."""
        times = np.atleast_1d(np.asarray(times, float))
        rotations = rotation_matrices(self.rotation, times, self.interpolation)
        shifts = times[:, None] * np.asarray(self.direction, float)
        return self.core.posed(rotations, self.center, shifts)

    def gaps(self, times) -> np.ndarray:
        """Distance between the shapes (cores' distance minus both radii) at ``times``."""
        return self.gaps_of(self.posed(times))

    def gaps_of(self, posed: Cores) -> np.ndarray:
        """Distance of a posed moving core to the target, minus both radii."""
        distances = [plane_distance(posed, target) if isinstance(target, tuple) else
                     signed_distance(posed, target) - target.radius
                     for target in self.targets]
        return np.min(distances, axis=0) - posed.radius

    @property
    def floor(self) -> float:
        """A lower bound of the distance: minus both radii where the cores' Minkowski
        difference has no volume (their dimensions sum below 3: a point and a
        triangle, two segments), whose penetration depth is 0; else -inf."""
        flat = [2 if isinstance(target, tuple) else target.dimension for target in self.targets]
        radius = min(0.0 if isinstance(target, tuple) else target.radius for target in self.targets)
        return -(self.core.radius + radius) if self.core.dimension + max(flat) < 3 else -math.inf

    def first_below(self, level: float, end: float = 1.0, budget: int = BUDGET) -> Bracket:
        """The first t in [0, end] where the distance is <= ``level`` (module docstring),
        in at most ``budget`` distance evaluations (else ``Undecided``)."""
        bound, floor = self.speed_bound, self.floor
        times = np.linspace(0.0, end, GRID + 1)
        gaps = self.gaps(times)
        evaluations = len(times)
        if gaps[0] <= level:
            return Bracket(0.0, 0.0, evaluations)
        pending = list(zip(times[:-1], times[1:], gaps[:-1], gaps[1:], strict=True))[::-1]  # a stack, first on top
        lower = None
        while pending:
            a, b, gap_a, gap_b = pending.pop()
            if gap_b > level and max((gap_a + gap_b - bound * (b - a)) / 2, floor) > level:
                continue  # the Lipschitz bound (or the floor) keeps [a, b] above the level
            if gap_b <= level and b - a <= RESOLUTION:
                return Bracket(a if lower is None else lower, float(b), evaluations)
            if b - a <= RESOLUTION:
                lower = a if lower is None else lower
                continue
            if evaluations + SPLIT - 1 > budget:
                raise Undecided(f"no decision at level {level} after {evaluations} distances, near t = {a}")
            cuts = np.linspace(a, b, SPLIT + 1)
            inner = self.gaps(cuts[1:-1])
            evaluations += len(inner)
            values = np.concatenate([[gap_a], inner, [gap_b]])
            pieces = list(zip(cuts[:-1], cuts[1:], values[:-1], values[1:], strict=True))
            below = np.flatnonzero(values[1:] <= level)
            if len(below):
                pending = []  # everything after the first sample at or below the level is later
                pieces = pieces[:below[0] + 1]
            pending.extend(pieces[::-1])
        if lower is None:
            return Bracket(end, None, evaluations)
        return Bracket(lower, None, evaluations)

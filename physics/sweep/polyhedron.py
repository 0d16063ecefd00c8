"""Sweeps of a moving convex polyhedron against polytopes: the separating axis test over time.

For a translating pair of convex polytopes A (moving along d) and B, every
candidate axis gives the interval of t in which their projections overlap
(linear in t: A's interval moves at ``dot(d, axis)``).  They touch first at the
latest entry over all axes, and miss when that exceeds the earliest exit or 1.
The candidates are the face normals of both and the cross products of their edge
directions — the face normals of the Minkowski difference A - B, so the answer is
exact for translations.  When neither shape is solid (a flat, straight or point
polyhedron against a polygon, segment or point) the difference can be flat or
thinner, and the axes built from the motion (d, its perpendiculars, each edge
crossed with d, and in-plane edge normals) are added.

Targets are polytopes of any dimension: ``Point``, ``Segment``, ``Triangle``,
``Polygon`` (two-sided: a flat solid) and ``ConvexPolyhedron``; a ``Plane`` is
answered from the extreme projections of A.  The axis that entered last names the
contact: a face of B (feature face), a face of A (B touches it with a vertex, an
edge or a face: the feature is what B has there), or an edge pair.  ``trace``
(a ``SatTrace``) records every axis with its interval, for the editor.

Conventions as every sweep: the normal points from B towards A, ``point`` is on
B's surface at t, an initial overlap answers t = 0 with the separating-axis depth
(the minimum translation distance of two convex polytopes) and its direction.

Precision: computed in float64 whatever the inputs' dtype (the hull and its
tolerances are float64); the answer comes back in the inputs' dtype
(``physics.result.answer_dtype``), so a float32 query sees the rounding of its
inputs, not float32 arithmetic.

Degenerate inputs: zero direction — an overlap test; zero-area faces and
zero-length edges give zero axes, which never separate (the shape is answered as
the lower-dimensional polytope it is); parallel faces sliding along each other
touch over an area (the point is the middle of A's touching face, on B's plane);
a polyhedron
whose hull is a single point is a moving point.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import NamedTuple

import numpy as np

from physics import tolerance
from physics.core import EDGE, FACE, VERTEX, newell_normal
from physics.result import FEATURE_KINDS, Feature, SweepResult, answer_dtype
from physics.shapes import ConvexPolyhedron, Plane, Point, Polygon, Segment, Triangle
from physics.closest import closest_parameters_batch
from physics.sweep.capsule import sweep_core_polygon
from physics.sweep.ball import Contact, sweep_ball_core
from physics.sweep.batching import chunk_ranges
from physics.sweep.mesh import MovingCore, core_points, culling_reach, first_hit_result, ranked_hits
from physics.sweep.rounded import ball_entry_times
from physics.traversal import lower_to_first_hit, walk
from physics.sweep.sphere import is_scalar, sweep_query
from physics.vector import any_perpendicular, components, dot_last


class Polytope(NamedTuple):
    """A convex polytope as SAT sees it: ``vertices (n, V, 3)``, unit ``normals (n, F,
    3)``, edge vectors ``edges (n, E, 3)`` (one per edge direction: the axes need no
    more), the vertex pairs of all its edges ``edge_ends (E', 2)``, its ``dimension``
    (3 solid ... 0 point) and whether ``face_index`` numbers faces (polyhedra,
    polygons)."""

    vertices: np.ndarray
    normals: np.ndarray
    edges: np.ndarray
    edge_ends: np.ndarray
    dimension: int
    faces: int


def polytope_of(shape, batch_shape: tuple) -> Polytope:
    """The shape's polytope, broadcast to ``batch_shape`` and flattened to one axis."""
    count = int(np.prod(batch_shape, dtype=int))

    def flat(array, element_dims):
        array = np.asarray(array, float)
        return np.broadcast_to(array, batch_shape + array.shape[array.ndim - element_dims:]).reshape(
            (count,) + array.shape[array.ndim - element_dims:])

    none = np.zeros((count, 0, 3))
    if isinstance(shape, Point):
        return Polytope(flat(shape.p[..., None, :], 2), none, none, np.zeros((0, 2), int), 0, 0)
    if isinstance(shape, Segment):
        ends = np.stack(np.broadcast_arrays(shape.a, shape.b), axis=-2)
        return Polytope(flat(ends, 2), none, flat((shape.b - shape.a)[..., None, :], 2), np.array([[0, 1]]), 1, 0)
    if isinstance(shape, Polygon):  # a triangle's faces are not numbered (its face_index is None)
        polytope = polygon_polytopes(flat(shape.vertices, 2))
        return polytope._replace(faces=0) if isinstance(shape, Triangle) else polytope
    if isinstance(shape, ConvexPolyhedron):
        directions = shape.edge_vectors[..., shape.distinct_edges, :]
        return Polytope(flat(shape.vertices, 2), flat(shape.normals, 2), flat(directions, 2), shape.edges,
                        shape.dimension, len(shape.faces))
    raise TypeError(f"{type(shape).__name__} is not a polytope")


def polygon_polytopes(vertices: np.ndarray) -> Polytope:
    """Flat polytopes of polygons (n, V, 3): Newell unit normal (zero without area),
    the V edges of the loop."""
    normal = newell_normal(vertices - vertices[:, :1])
    length = np.linalg.norm(normal, axis=-1, keepdims=True)
    normal = np.where(length > 0, normal / np.where(length > 0, length, 1), 0)
    count_v = vertices.shape[1]
    ends = np.stack([np.arange(count_v), (np.arange(count_v) + 1) % count_v], axis=1)
    return Polytope(vertices, normal[:, None, :], vertices[:, ends[:, 1]] - vertices[:, ends[:, 0]], ends, 2, 1)


def _motion_axes(a: Polytope, b: Polytope, direction: np.ndarray) -> np.ndarray:
    """Axes from the motion, for two non-solid shapes: d, two perpendiculars of d,
    every edge crossed with d, and the in-plane normals of every edge."""
    d = direction[:, None, :]
    # two perpendiculars of d (none for a still shape), whatever its length
    moving = np.any(direction != 0, axis=1)[:, None]
    first = np.where(moving, any_perpendicular(direction.T).T, 0)[:, None, :]
    second = np.cross(direction[:, None, :], first)
    edges = np.concatenate([a.edges, b.edges], axis=1)
    normals = np.concatenate([a.normals, b.normals], axis=1)
    across = np.cross(edges, d)
    in_plane = np.cross(normals[:, :, None, :], edges[:, None, :, :]).reshape(len(direction), -1, 3)
    return np.concatenate([d, first, second, across, np.cross(across, edges), in_plane], axis=1)


def candidate_axes(a: Polytope, b: Polytope, direction: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(axes (n, K, 3), kind (K,)): 0 a face of A, 1 a face of B, 2 an edge pair, 3
    from the motion."""
    pairs = np.cross(a.edges[:, :, None, :], b.edges[:, None, :, :]).reshape(len(direction), -1, 3)
    axes = [a.normals, b.normals, pairs]
    kinds = [np.zeros(a.normals.shape[1], int), np.ones(b.normals.shape[1], int), np.full(pairs.shape[1], 2)]
    if a.dimension < 3 and b.dimension < 3:
        extra = _motion_axes(a, b, direction)
        axes.append(extra)
        kinds.append(np.full(extra.shape[1], 3))
    return np.concatenate(axes, axis=1), np.concatenate(kinds)


@dataclass
class SatTrace:
    """Every candidate axis of a scalar polytope sweep: ``axes (K, 3)``, their
    ``kinds`` (``AXIS_KINDS``), the ``enter``/``exit`` times of overlap on each (±inf
    for always / never), the ``chosen`` axis (the last to enter; at t = 0 the one of
    least penetration), and the ``feature_pair`` that touched: (A's, B's) as
    "vertex" / "edge" / "face"."""

    axes: np.ndarray = field(default_factory=lambda: np.zeros((0, 3)))
    kinds: np.ndarray = field(default_factory=lambda: np.zeros(0, int))
    enter: np.ndarray = field(default_factory=lambda: np.zeros(0))
    exit: np.ndarray = field(default_factory=lambda: np.zeros(0))
    chosen: int = -1
    feature_pair: tuple = ()
    moving_feature: np.ndarray = field(default_factory=lambda: np.zeros((0, 3)))
    """The moving shape's touching vertices at the time of impact (one: a vertex,
    two: an edge, more: a face)."""


AXIS_KINDS = ("face of A", "face of B", "edge pair", "motion")


def _project(axes: np.ndarray, vertices: np.ndarray) -> np.ndarray:
    """(n, K, V) projections, summed x, y, z elementwise: the same floats for an
    element whatever batch it is in (a matrix product may round by batch shape)."""
    return sum(axes[:, :, None, k] * vertices[:, None, :, k] for k in range(3))


def sat_sweep(a: Polytope, b: Polytope, direction: np.ndarray, ignore_separating: bool):
    """The kernel: (t NaN where no hit, unit normal, depth NaN unless overlapping,
    chosen axis index, axes, kinds, enter, exit), all per element."""
    axes, kinds = candidate_axes(a, b, direction)
    project_a, project_b = _project(axes, a.vertices), _project(axes, b.vertices)
    low_a, high_a = project_a.min(axis=-1), project_a.max(axis=-1)
    low_b, high_b = project_b.min(axis=-1), project_b.max(axis=-1)
    speed = dot_last(axes, direction[:, None, :])
    is_axis = np.any(axes != 0, axis=-1)
    overlapping_now = (low_a <= high_b) & (high_a >= low_b)
    with np.errstate(all="ignore"):
        towards, away = (low_b - high_a) / speed, (high_b - low_a) / speed
    still = speed == 0
    enter = np.where(still, np.where(overlapping_now, -np.inf, np.inf), np.minimum(towards, away))
    exit_ = np.where(still, np.where(overlapping_now, np.inf, -np.inf), np.maximum(towards, away))
    enter, exit_ = np.where(is_axis, enter, -np.inf), np.where(is_axis, exit_, np.inf)
    entry, leave = enter.max(axis=-1), exit_.min(axis=-1)
    hit = (entry <= leave) & (entry <= 1) & (leave >= 0)
    at_start = hit & (entry <= 0)
    length = np.linalg.norm(axes, axis=-1)
    with np.errstate(all="ignore"):
        push_up, push_down = (high_b - low_a) / length, (high_a - low_b) / length
    penetration = np.where(is_axis, np.minimum(push_up, push_down), np.inf)
    least = np.argmin(penetration, axis=-1)
    last = np.argmax(enter, axis=-1)
    rows = np.arange(len(direction))
    chosen = np.where(at_start, least, last)
    axis = axes[rows, chosen] / np.where(length[rows, chosen] > 0, length[rows, chosen], 1)[:, None]
    sign = np.where(at_start, np.where(push_up[rows, chosen] <= push_down[rows, chosen], 1.0, -1.0),
                    np.where(speed[rows, chosen] < 0, 1.0, -1.0))
    normal = sign[:, None] * axis + 0.0
    depth = np.where(at_start, penetration[rows, least], np.nan)
    if ignore_separating:
        hit &= ~(at_start & (dot_last(direction, normal) >= 0))
    t = np.where(hit, np.maximum(entry, 0.0), np.nan)
    depth = np.where(hit & (depth > 0), depth, np.nan)
    return t, normal, depth, chosen, axes, kinds, enter, exit_


def _support(vertices: np.ndarray, normal: np.ndarray, lowest: bool, slack: np.ndarray) -> np.ndarray:
    """Mask (n, V) of the vertices extreme along ``normal`` (lowest or highest),
    within ``slack``."""
    heights = dot_last(vertices, normal[:, None, :])
    extreme = heights.min(axis=1, keepdims=True) if lowest else heights.max(axis=1, keepdims=True)
    return np.abs(heights - extreme) <= slack[:, None]


class TouchingFeature(NamedTuple):
    """A polytope's vertices extreme along a contact normal, per row: ``on (n, V)``
    which they are, ``kind (n,)`` what they span (1 a point, 2 a segment, 3 a
    polygon: ``FEATURE_SPAN``), ``first``/``last (n, 3)`` the two farthest apart (the
    ends of a segment)."""

    on: np.ndarray
    kind: np.ndarray
    first: np.ndarray
    last: np.ndarray


FEATURE_SPAN = {1: "vertex", 2: "edge", 3: "face"}


def touching_feature(vertices: np.ndarray, on: np.ndarray, slack: np.ndarray) -> TouchingFeature:
    """What the ``on`` vertices (n, V) of ``vertices`` (n, V, 3) span, within ``slack``:
    a point where they all lie within it of each other, a segment where they lie
    within it of the line through the two farthest apart (three collinear corners
    of a sliver triangle are its longest edge, not a face), else a polygon."""
    rows = np.arange(len(on))
    gaps = np.linalg.norm(vertices[:, :, None] - vertices[:, None], axis=-1)
    gaps = np.where(on[:, :, None] & on[:, None], gaps, -1.0)
    farthest = np.argmax(gaps.reshape(len(on), -1), axis=1)
    first, last = vertices[rows, farthest // on.shape[1]], vertices[rows, farthest % on.shape[1]]
    along = last - first
    with np.errstate(all="ignore"):
        across = np.linalg.norm(np.cross(vertices - first[:, None], along[:, None]), axis=-1) / \
            np.linalg.norm(along, axis=-1)[:, None]
    straight = np.all(~on | (across <= slack[:, None]), axis=1)
    extent = np.linalg.norm(along, axis=-1)
    kind = np.where(extent <= slack, 1, np.where(straight, 2, 3))
    return TouchingFeature(on, kind, first, last)


def contact_features(a: Polytope, b: Polytope, direction: np.ndarray, t: np.ndarray, normal: np.ndarray):
    """(point (n, 3), B's feature code and index, face index, what A's and B's
    touching features span (``FEATURE_SPAN``)) at the contact: B's vertices extreme
    along the normal and A's (moved to t) extreme against it say which features touch."""
    hit = ~np.isnan(t)
    moved = a.vertices + np.where(hit, t, 0)[:, None, None] * direction[:, None, :]
    scale = 1 + np.maximum(np.abs(moved).max(axis=(1, 2)), np.abs(b.vertices).max(axis=(1, 2)))
    slack = tolerance.HULL_RTOL * scale
    safe_normal = np.where(hit[:, None], normal, 0)
    plane = dot_last(b.vertices, safe_normal[:, None, :]).max(axis=1)

    def onto_plane(points):
        return points - (dot_last(points, safe_normal[:, None, :]) - plane[:, None])[..., None] * safe_normal[:, None, :]

    flat_a, flat_b = onto_plane(moved), onto_plane(b.vertices)
    touching_a = touching_feature(flat_a, _support(moved, safe_normal, True, slack), slack)
    touching_b = touching_feature(flat_b, _support(b.vertices, safe_normal, False, slack), slack)
    face_index = (np.argmax(dot_last(b.normals, safe_normal[:, None, :]), axis=1) if b.faces
                  else np.full(len(t), -1))
    code, index = _feature_of(b, flat_b, touching_b, face_index)
    point = _contact_point(flat_a, a.edge_ends, touching_a, flat_b, b.edge_ends, touching_b, safe_normal, slack)
    return point, code, index, face_index, touching_a.kind, touching_b.kind


def _feature_of(b: Polytope, flat_b: np.ndarray, touching: TouchingFeature, face_index: np.ndarray):
    """(code, index) of B's touching feature: its vertex; the edge joining the ends of
    a touching segment (any edge of a straight polytope; else, failing such an edge,
    the face); its face."""
    rows = np.arange(len(face_index))
    first = np.argmax(np.all(flat_b == touching.first[:, None], axis=-1) & touching.on, axis=1)
    last = np.argmax(np.all(flat_b == touching.last[:, None], axis=-1) & touching.on, axis=1)
    ends = b.edge_ends
    if len(ends):
        joins = ((ends[:, 0] == first[:, None]) & (ends[:, 1] == last[:, None])) | \
            ((ends[:, 0] == last[:, None]) & (ends[:, 1] == first[:, None]))
    else:
        joins = np.zeros((len(rows), 0), bool)
    is_edge = (touching.kind == 2) & (joins.any(axis=1) | (b.dimension == 1))
    code = np.where(touching.kind == 1, VERTEX, np.where(is_edge, EDGE, FACE))
    edge = np.argmax(joins, axis=1) if joins.shape[1] else np.zeros(len(rows), int)
    index = np.where(code == VERTEX, first, np.where(code == EDGE, np.where(b.dimension == 1, 0, edge),
                                                      np.maximum(face_index, 0)))
    return code, index


def _contact_point(flat_a, a_edge_ends, touching_a, flat_b, b_edge_ends, touching_b, normal, slack):
    """A point of the contact set, on B's supporting plane (both shapes' vertices
    projected onto it along the normal).

    The touching features are convex sets in that plane; where they overlap is the
    contact set, a convex polygon whose corners are A's touching corners inside B's
    feature, B's inside A's, and the crossings of their touching edges.  Their mean
    lies in it: in both shapes, where they touch.  Where round-off leaves no corner
    (features touching within ``slack`` only), the nearest point of B's feature to
    the middle of A's is taken."""
    a_in_b = touching_a.on & _in_feature(flat_a, flat_b, b_edge_ends, touching_b, normal, slack)
    b_in_a = touching_b.on & _in_feature(flat_b, flat_a, a_edge_ends, touching_a, normal, slack)
    crossings, crossing = _feature_crossings(flat_a, a_edge_ends, touching_a.on, flat_b, b_edge_ends, touching_b.on,
                                             slack)
    number = a_in_b.sum(axis=1) + b_in_a.sum(axis=1) + crossing.sum(axis=1)
    total = ((a_in_b[..., None] * flat_a).sum(axis=1) + (b_in_a[..., None] * flat_b).sum(axis=1)
             + (crossing[..., None] * crossings).sum(axis=1))
    middle_a = (touching_a.on[..., None] * flat_a).sum(axis=1) / np.maximum(touching_a.on.sum(axis=1), 1)[:, None]
    nearest = _nearest_in_feature(middle_a, flat_b, b_edge_ends, touching_b, normal)
    return np.where((number > 0)[:, None], total / np.maximum(number, 1)[:, None], nearest)


def _feature_edges(edge_ends: np.ndarray, on: np.ndarray) -> np.ndarray:
    """(n, E): which edges of a polytope lie in its touching feature (both ends on it)."""
    if len(edge_ends) == 0:
        return np.zeros((len(on), 0), bool)
    return on[:, edge_ends[:, 0]] & on[:, edge_ends[:, 1]]


def _in_feature(points, vertices, edge_ends, touching: TouchingFeature, normal, slack) -> np.ndarray:
    """(n, P): whether points (n, P, 3), in the contact plane, lie in a polytope's
    touching feature (its vertices projected onto that plane): within ``slack`` of
    a touching point or segment, or inside every edge of a touching polygon (on the
    side of the feature's middle, seen along the normal)."""
    nearest = _nearest_on_segment(touching.first[:, None], touching.last[:, None], points)
    near_segment = np.linalg.norm(points - nearest, axis=-1) <= slack[:, None]
    if len(edge_ends) == 0:
        return near_segment
    on = touching.on
    middle = (on[..., None] * vertices).sum(axis=1) / np.maximum(on.sum(axis=1), 1)[:, None]
    starts, edges = vertices[:, edge_ends[:, 0]], vertices[:, edge_ends[:, 1]] - vertices[:, edge_ends[:, 0]]
    inward = np.cross(normal[:, None, :], edges)  # (n, E, 3), in the plane, square to each edge
    inward = np.where((dot_last(inward, middle[:, None] - starts) < 0)[..., None], -inward, inward)
    heights = dot_last(inward[:, None], points[:, :, None] - starts[:, None])  # (n, P, E)
    lengths = np.linalg.norm(edges, axis=-1)[:, None]
    inside = np.all((heights >= -slack[:, None, None] * lengths) | ~_feature_edges(edge_ends, on)[:, None], axis=-1)
    return np.where((touching.kind == 3)[:, None], inside, near_segment)


def _feature_crossings(flat_a, a_edge_ends, on_a, flat_b, b_edge_ends, on_b, slack):
    """(points (n, Ea * Eb, 3) on B's touching edges, mask (n, Ea * Eb)): where a
    touching edge of A crosses one of B's, not parallel to it (closest points within
    ``slack``)."""
    n = len(flat_a)
    if len(a_edge_ends) == 0 or len(b_edge_ends) == 0:
        return np.zeros((n, 0, 3)), np.zeros((n, 0), bool)
    a0, b0 = flat_a[:, a_edge_ends[:, 0]], flat_b[:, b_edge_ends[:, 0]]
    along_a, along_b = flat_a[:, a_edge_ends[:, 1]] - a0, flat_b[:, b_edge_ends[:, 1]] - b0
    s, w = closest_parameters_batch(a0[:, :, None], along_a[:, :, None], b0[:, None], along_b[:, None])
    on_a_edge = a0[:, :, None] + s[..., None] * along_a[:, :, None]
    on_b_edge = b0[:, None] + w[..., None] * along_b[:, None]
    touching = _feature_edges(a_edge_ends, on_a)[:, :, None] & _feature_edges(b_edge_ends, on_b)[:, None]
    # parallel edges overlap along a stretch whose ends are already corners in the other feature
    turn = np.linalg.norm(np.cross(along_a[:, :, None], along_b[:, None]), axis=-1)
    across = turn > tolerance.HULL_RTOL * np.linalg.norm(along_a, axis=-1)[:, :, None] * np.linalg.norm(
        along_b, axis=-1)[:, None]
    crossing = touching & across & (np.linalg.norm(on_a_edge - on_b_edge, axis=-1) <= slack[:, None, None])
    return on_b_edge.reshape(n, -1, 3), crossing.reshape(n, -1)


def _nearest_in_feature(points, vertices, edge_ends, touching: TouchingFeature, normal) -> np.ndarray:
    """The point of a polytope's touching feature nearest each of ``points`` (n, 3): of
    a touching point or segment; of a polygon, the point itself where it is inside,
    else the nearest point of the polygon's edges."""
    segment = _nearest_on_segment(touching.first, touching.last, points)
    if len(edge_ends) == 0:
        return segment
    starts, ends = vertices[:, edge_ends[:, 0]], vertices[:, edge_ends[:, 1]]
    candidates = _nearest_on_segment(starts, ends, points[:, None])
    distances = np.where(_feature_edges(edge_ends, touching.on), np.linalg.norm(candidates - points[:, None], axis=-1),
                         np.inf)
    on_edges = candidates[np.arange(len(points)), np.argmin(distances, axis=1)]
    inside = _in_feature(points[:, None], vertices, edge_ends, touching, normal, np.zeros(len(points)))[:, 0]
    return np.where((touching.kind == 3)[:, None], np.where(inside[:, None], points, on_edges), segment)


def _nearest_on_segment(start, end, point):
    """The points of segments ``start``-``end`` nearest ``point`` (all (..., 3), broadcast)."""
    along = end - start
    length_squared = dot_last(along, along)
    with np.errstate(all="ignore"):
        s = np.where(length_squared > 0, dot_last(point - start, along) / length_squared, 0)
    return start + np.clip(s, 0, 1)[..., None] * along


def _sweep(polyhedron: ConvexPolyhedron, target, direction, ignore_separating, trace) -> SweepResult:
    batch_shape = np.broadcast_shapes(polyhedron.batch_shape, target.batch_shape, direction.shape[:-1])
    count = int(np.prod(batch_shape, dtype=int))
    a, b = polytope_of(polyhedron, batch_shape), polytope_of(target, batch_shape)
    motion = np.broadcast_to(direction, batch_shape + (3,)).reshape(count, 3).astype(float)
    parts = [_sweep_rows(a, b, motion, slice(start, stop), ignore_separating)
             for start, stop in chunk_ranges(count)]  # cache-sized passes, as every batched kernel
    (t, normal, depth, chosen, axes, enter, exit_, point, code, index, face_index, span_a,
     span_b) = (np.concatenate(column) for column in zip(*parts))
    if trace is not None and count == 1:
        trace.axes, trace.enter, trace.exit = axes[0], enter[0], exit_[0]
        trace.kinds = candidate_axes(a, b, motion)[1]
        trace.chosen = int(chosen[0])
        trace.feature_pair = (FEATURE_SPAN[int(span_a[0])], FEATURE_SPAN[int(span_b[0])])
        if not np.isnan(t[0]):
            moved = a.vertices[:1] + t[0] * motion[:1, None, :]
            slack = tolerance.HULL_RTOL * (1 + np.abs(moved).max(axis=(1, 2)))
            trace.moving_feature = moved[0][_support(moved, normal[:1], True, slack)[0]]
    return _result(t, point, normal, depth, code, index, face_index, batch_shape,
                   is_scalar(polyhedron, target, direction=direction), answer_dtype(polyhedron, target, direction))


def _sweep_rows(a: Polytope, b: Polytope, motion: np.ndarray, rows: slice, ignore_separating: bool) -> tuple:
    """The SAT kernel and the contact features for ``rows`` of the batch: t, normal,
    depth, chosen axis, axes, enter, exit, point, code, index, face index, support
    sizes."""
    a = a._replace(vertices=a.vertices[rows], normals=a.normals[rows], edges=a.edges[rows])
    b = b._replace(vertices=b.vertices[rows], normals=b.normals[rows], edges=b.edges[rows])
    t, normal, depth, chosen, axes, _, enter, exit_ = sat_sweep(a, b, motion[rows], ignore_separating)
    return (t, normal, depth, chosen, axes, enter, exit_) + contact_features(a, b, motion[rows], t, normal)


def _result(t, point, normal, depth, code, index, face_index, batch_shape: tuple, scalar: bool,
            dtype: np.dtype) -> SweepResult:
    """The public answer in ``dtype`` from flat per-row float64 arrays (``t`` NaN
    where no hit: every other field is blanked there)."""
    hit = ~np.isnan(t)
    return SweepResult.from_arrays(
        t=t.astype(dtype).reshape(batch_shape),
        point=np.where(hit[:, None], point, np.nan).astype(dtype).reshape(batch_shape + (3,)),
        normal=np.where(hit[:, None], normal, np.nan).astype(dtype).reshape(batch_shape + (3,)),
        face_index=np.where(hit, face_index, -1).reshape(batch_shape),
        penetration_depth=np.where(hit, depth, np.nan).astype(dtype).reshape(batch_shape),
        feature_code=np.where(hit, code, -1).reshape(batch_shape),
        feature_index=np.where(hit, index, -1).reshape(batch_shape), scalar=scalar)


def point_or_segment(polyhedron: ConvexPolyhedron):
    """The ``Point`` or ``Segment`` a polyhedron whose hull is one point or straight is."""
    corners = polyhedron.vertices
    return Point(corners[..., 0, :]) if polyhedron.dimension == 0 else Segment(corners[..., 0, :], corners[..., 1, :])


def _sweep_lower_dimensional(moving, target, direction, **options) -> SweepResult:
    """A sweep with a point- or segment-like polyhedron (``dimension < 2``) on either
    side, answered as the point or segment it is (feature numbers agree: its vertex
    0 and 1, its edge 0; it has no faces)."""
    from physics.sweep.dispatch import sweep

    def lowered(shape):
        return point_or_segment(shape) if isinstance(shape, ConvexPolyhedron) and shape.dimension < 2 else shape

    return sweep(lowered(moving), lowered(target), direction, **options)


@sweep_query
def sweep_polyhedron_polytope(polyhedron: ConvexPolyhedron, target, direction, *, ignore_separating=False,
                              trace: SatTrace | None = None) -> SweepResult:
    """A moving convex polyhedron against a Point, Segment, Triangle, Polygon or
    ConvexPolyhedron by the separating axis test over time (module docstring).
    ``face_index``: B's face whose normal is nearest the contact normal (polyhedra,
    polygons); ``feature``: B's vertex, edge or face that touched.  A polyhedron
    whose hull is a point or a segment (either side) is answered as that shape
    (``trace`` then stays empty)."""
    if polyhedron.dimension < 2 or (isinstance(target, ConvexPolyhedron) and target.dimension < 2):
        return _sweep_lower_dimensional(polyhedron, target, direction, ignore_separating=ignore_separating)
    return _sweep(polyhedron, target, direction, ignore_separating, trace)


@sweep_query
def sweep_polyhedron_plane(polyhedron: ConvexPolyhedron, plane: Plane, direction, *, ignore_separating=False,
                           trace=None) -> SweepResult:
    """A moving convex polyhedron against a two-sided plane: its extreme heights over
    the plane move at ``dot(d, n)``; it touches when the nearer one reaches 0.
    Feature: face 0.  Degenerate inputs: motion parallel to the plane — a hit only
    when touching at t = 0; a point- or segment-like hull — that shape."""
    if polyhedron.dimension < 2:
        return _sweep_lower_dimensional(polyhedron, plane, direction, ignore_separating=ignore_separating)
    batch_shape = np.broadcast_shapes(polyhedron.batch_shape, plane.batch_shape, direction.shape[:-1])
    count = int(np.prod(batch_shape, dtype=int))
    a = polytope_of(polyhedron, batch_shape)
    normal = np.broadcast_to(plane.normal, batch_shape + (3,)).reshape(count, 3)
    offset = np.broadcast_to(plane.offset, batch_shape).reshape(count)
    motion = np.broadcast_to(direction, batch_shape + (3,)).reshape(count, 3).astype(float)
    heights = dot_last(a.vertices, normal[:, None, :]) - offset[:, None]
    low, high = heights.min(axis=1), heights.max(axis=1)
    rate = dot_last(motion, normal)
    straddles = (low <= 0) & (high >= 0)
    with np.errstate(all="ignore"):
        reach = np.where(low > 0, -low / rate, -high / rate)  # the nearer extreme to the plane
    t = np.where(straddles, 0.0, np.where((reach >= 0) & (reach <= 1) & (rate != 0), reach, np.nan))
    side = np.where(straddles, np.where(-low <= high, 1.0, -1.0), np.where(low > 0, 1.0, -1.0))
    depth = np.where(straddles, np.minimum(-low, high), np.nan)
    contact_normal = side[:, None] * normal + 0.0
    if ignore_separating:
        t = np.where(straddles & (dot_last(motion, contact_normal) >= 0), np.nan, t)
    hit = ~np.isnan(t)
    lowest = np.argmin(heights * side[:, None], axis=1)
    at_t = a.vertices[np.arange(count), lowest] + np.where(hit, t, 0)[:, None] * motion
    point = at_t - (dot_last(at_t, normal) - offset)[:, None] * normal
    depth = np.where(depth > 0, depth, np.nan)
    return _result(t, point, contact_normal, depth, np.full(count, FACE), np.zeros(count, int), np.full(count, -1),
                   batch_shape, is_scalar(polyhedron, plane, direction=direction),
                   answer_dtype(polyhedron, plane, direction))


class FaceTriangles(NamedTuple):
    """A solid polyhedron's faces as fan triangles: ``corners (T, 3)`` vertex indices,
    ``face (T,)``, and per triangle edge the hull edge it lies on (-1 for a fan
    diagonal, inside its face)."""

    corners: np.ndarray
    face: np.ndarray
    hull_edge: np.ndarray


def face_triangles(polyhedron: ConvexPolyhedron) -> FaceTriangles:
    edge_ids = {tuple(sorted(map(int, edge))): number for number, edge in enumerate(polyhedron.edges)}
    corners, faces, hull_edges = [], [], []
    for number, loop in enumerate(polyhedron.faces[:1] if polyhedron.dimension == 2 else polyhedron.faces):
        for k in range(1, len(loop) - 1):
            triangle = (loop[0], loop[k], loop[k + 1])
            corners.append(triangle)
            faces.append(number)
            hull_edges.append([edge_ids.get(tuple(sorted((triangle[i], triangle[(i + 1) % 3]))), -1)
                               for i in range(3)])
    return FaceTriangles(np.array(corners), np.array(faces), np.array(hull_edges))


def _rounded_against_polyhedron(moving, polyhedron: ConvexPolyhedron, direction, ignore_separating) -> SweepResult:
    """A sphere or capsule against a polyhedron: its rounded core against every face
    (fan triangles, the exact sphere / capsule kernels), the first contact by the
    mesh rule, features mapped to the hull's; a core that starts inside the solid
    overlaps by the separating-axis depth plus the radius."""
    if polyhedron.dimension < 2:
        return _sweep_lower_dimensional(moving, polyhedron, direction, ignore_separating=ignore_separating)
    if polyhedron.dimension == 2:
        return _against_flat_hull(moving, polyhedron, direction, ignore_separating)
    batch_shape = np.broadcast_shapes(moving.batch_shape, polyhedron.batch_shape, direction.shape[:-1])
    count = int(np.prod(batch_shape, dtype=int))
    points, radius = core_points(moving)
    points = np.broadcast_to(points, batch_shape + points.shape[-2:]).reshape((count,) + points.shape[-2:])
    radius = np.broadcast_to(radius, batch_shape).reshape(count).astype(float)
    motion = np.broadcast_to(direction, batch_shape + (3,)).reshape(count, 3).astype(float)
    vertices = np.broadcast_to(polyhedron.vertices, batch_shape + polyhedron.vertices.shape[-2:]).reshape(
        (count,) + polyhedron.vertices.shape[-2:])
    triangles = face_triangles(polyhedron)
    corners = vertices[:, triangles.corners]  # (n, T, 3, 3)
    contact = _rounded_triangle_contacts(points, radius, motion, corners, ignore_separating)
    rows, best = _first_per_row(contact)
    code = np.asarray(contact.feature_code)[rows, best]
    local = np.asarray(contact.feature_index)[rows, best]
    triangle = best
    hull_edge = triangles.hull_edge[triangle, np.clip(local, 0, 2)]
    vertex = triangles.corners[triangle, np.clip(local, 0, 2)]
    face = triangles.face[triangle]
    code = np.where((code == EDGE) & (hull_edge < 0), FACE, code)
    index = np.where(code == VERTEX, vertex, np.where(code == EDGE, hull_edge, face))
    t = np.asarray(contact.t)[rows, best]
    point, normal, depth = (np.asarray(field)[rows, best] for field in (contact.point, contact.normal, contact.depth))
    t, point, normal, depth, code, index, face = _core_inside(
        polyhedron, batch_shape, points, radius, motion, ignore_separating, t, point, normal, depth, code, index, face)
    return _result(t, point, normal, depth, code, index, face, batch_shape,
                   is_scalar(moving, polyhedron, direction=direction), answer_dtype(moving, polyhedron, direction))


def _against_flat_hull(moving, polyhedron: ConvexPolyhedron, direction, ignore_separating) -> SweepResult:
    """A sphere or capsule against a flat hull: the polygon it is, whole (its fan
    triangles would each see a core on their shared diagonal at their boundary, and
    could leave across it into the other); the polygon's features renumbered as the
    hull's: edge i of the loop is the hull edge joining loop[i] and loop[i + 1],
    vertex i is loop[i], and the face is 0 or 1 by the side touched."""
    from physics.sweep.dispatch import sweep

    loop = np.array(polyhedron.faces[0])
    found = sweep(moving, Polygon(polyhedron.vertices[..., loop, :]), direction, ignore_separating=ignore_separating)
    edge_ids = {tuple(sorted(map(int, edge))): number for number, edge in enumerate(polyhedron.edges)}
    hull_edge = np.array([edge_ids[tuple(sorted((int(loop[i]), int(loop[(i + 1) % len(loop)]))))]
                          for i in range(len(loop))])
    hit = np.asarray(found.hit)
    kind = np.asarray(found.feature.kind, dtype=object)
    local = np.maximum(np.asarray(-1 if found.feature.index is None else found.feature.index), 0)
    code = np.select([kind == "vertex", kind == "edge"], [VERTEX, EDGE], FACE)
    normal = np.nan_to_num(np.asarray(found.normal if found.hit is not False else np.zeros(3), float))
    side = np.where(dot_last(normal, polyhedron.normals[..., 0, :]) >= 0, 0, 1)
    index = np.where(code == VERTEX, loop[local], np.where(code == EDGE, hull_edge[local], side))
    if np.ndim(hit) == 0:
        return replace(found, face_index=int(side), feature=Feature(FEATURE_KINDS[int(code)], int(index))) \
            if found.hit else found
    kinds = np.array(("",) + FEATURE_KINDS)[np.where(hit, code, -1) + 1]
    return replace(found, face_index=np.where(hit, side, -1), feature=Feature(kinds, np.where(hit, index, -1)))


def _first_per_row(contact) -> tuple[np.ndarray, np.ndarray]:
    """(rows, column) of each row's first contact among (n, T) contacts (column 0
    for a row without any)."""
    count, columns = np.shape(contact.t)
    flat = type(contact)(*[np.asarray(field).reshape((count * columns,) + np.shape(field)[2:]) for field in contact])
    query = np.repeat(np.arange(count), columns)
    ranked = ranked_hits(query, np.tile(np.arange(columns), count), flat)
    best = np.zeros(count, int)
    queries = query[ranked]
    first = ranked[np.concatenate([[True], queries[1:] != queries[:-1]])] if len(ranked) else ranked
    best[query[first]] = first % columns
    return np.arange(count), best


def _rounded_triangle_contacts(points, radius, motion, corners, ignore_separating):
    """Contacts (n, T) of the moving cores (n, K, 3) with every face triangle."""
    if points.shape[1] == 1:
        return sweep_ball_core(points[:, None, 0], radius[:, None], motion[:, None], corners, np.zeros(()),
                               ignore_separating)
    return sweep_core_polygon(points[:, None, 0], points[:, None, 1], radius[:, None], motion[:, None], corners,
                              ignore_separating)


def _core_inside(polyhedron, batch_shape, points, radius, motion, ignore_separating, t, point, normal, depth,
                 code, index, face):
    """Where the moving core starts inside the solid (or on its surface), the overlap is
    the core's separating-axis depth plus the radius, along that axis, outward (the
    faces alone would only see the radius, and a core on a face, edge or vertex could
    leave into the solid)."""
    count = len(radius)
    a = Polytope(points, np.zeros((count, 0, 3)), (points[:, -1] - points[:, 0])[:, None, :] if points.shape[1] == 2
                 else np.zeros((count, 0, 3)), np.array([[0, 1]]) if points.shape[1] == 2 else np.zeros((0, 2), int),
                 points.shape[1] - 1, 0)
    b = polytope_of(polyhedron, batch_shape)
    inside_t, inside_normal, inside_depth, *_ = sat_sweep(a, b, np.zeros((count, 3)), False)
    inside = ~np.isnan(inside_t)  # in the solid or on its surface: the faces alone cannot tell outward
    if not np.any(inside):
        return t, point, normal, depth, code, index, face
    total = np.nan_to_num(inside_depth) + radius
    # where the core touches B once moved by the SAT depth along the normal (the
    # capsule's surface then touches there too): B's feature and a point of the contact
    witness, feature_code, feature_index, best_face, _, _ = contact_features(
        a, b, np.zeros((count, 3)), np.where(inside, 0.0, np.nan), np.where(inside[:, None], inside_normal, 0))
    keep = inside & ~(ignore_separating & (dot_last(motion, inside_normal) >= 0))
    drop = inside & ~keep
    t = np.where(keep, 0.0, np.where(drop, np.nan, t))
    point = np.where(keep[:, None], witness, np.where(drop[:, None], np.nan, point))
    normal = np.where(keep[:, None], inside_normal, np.where(drop[:, None], np.nan, normal))
    depth = np.where(keep, np.where(total > 0, total, np.nan), np.where(drop, np.nan, depth))
    code = np.where(keep, feature_code, np.where(drop, -1, code))
    index = np.where(keep, feature_index, np.where(drop, -1, index))
    face = np.where(keep, best_face, face)
    return t, point, normal, depth, code, index, face


@sweep_query
def sweep_sphere_polyhedron(sphere, polyhedron: ConvexPolyhedron, direction, *, ignore_separating=False) -> SweepResult:
    """A moving sphere against a solid convex polyhedron: its center against the
    polyhedron inflated by the radius, face by face (``_rounded_against_polyhedron``).
    Features number the hull's faces, edges and vertices; ``face_index`` the face
    touched (for an edge or vertex, the face whose triangle reported it).

    Degenerate inputs: zero radius — a point against the polyhedron; a center inside
    the solid — overlap with depth = radius + its distance to the nearest face
    plane; a flat, straight or point hull — the polygon, segment or point it is."""
    return _rounded_against_polyhedron(sphere, polyhedron, direction, ignore_separating)


@sweep_query
def sweep_capsule_polyhedron(capsule, polyhedron: ConvexPolyhedron, direction, *, ignore_separating=False) -> SweepResult:
    """A moving capsule (or segment) against a solid convex polyhedron, as
    ``sweep_sphere_polyhedron`` with the capsule's core segment; a core that starts
    inside (or through) the solid overlaps by the segment's separating-axis depth
    plus the radius."""
    return _rounded_against_polyhedron(capsule, polyhedron, direction, ignore_separating)


@sweep_query
def sweep_polyhedron_mesh(polyhedron: ConvexPolyhedron, mesh, direction, *, ignore_separating=False,
                          raw_edge_normals=False, trace=None) -> SweepResult:
    """A moving convex polyhedron against a triangle mesh: the mesh's sphere tree
    walked with the polyhedron's bounding sphere (a conservative node test), each
    leaf triangle tested exactly by the separating axis test over time; the first
    hit, internal edges and world space as for spheres (``physics.sweep.mesh``).
    Batched over polyhedra and directions.  ``trace``: a ``TraversalTrace``.  A point-
    or segment-like hull is answered as that shape."""
    if polyhedron.dimension < 2:
        return _sweep_lower_dimensional(polyhedron, mesh, direction, ignore_separating=ignore_separating,
                                        raw_edge_normals=raw_edge_normals, trace=trace)
    batch_shape = np.broadcast_shapes(polyhedron.batch_shape, direction.shape[:-1])
    count = int(np.prod(batch_shape, dtype=int))
    body = polytope_of(polyhedron, batch_shape)
    motion = np.broadcast_to(direction, batch_shape + (3,)).reshape(count, 3).astype(float)
    vertices, normals, edges = body.vertices, body.normals, body.edges
    if not mesh.has_identity_pose:
        vertices, motion = mesh.to_body(vertices), mesh.vectors_to_body(motion)
        normals, edges = mesh.vectors_to_body(normals), mesh.vectors_to_body(edges)
    body = body._replace(vertices=vertices, normals=normals, edges=edges)
    core = MovingCore(vertices, np.zeros(count), motion, batch_shape, answer_dtype(polyhedron, direction, mesh))
    low, high = vertices.min(axis=1), vertices.max(axis=1)
    center = 0.5 * (low + high)
    bound = np.linalg.norm(vertices - center[:, None], axis=-1).max(axis=1)
    tree = mesh.tree
    reach = culling_reach(vertices, motion, bound, tree)
    centers, directions = components(center), components(motion)

    def node_entry(queries, nodes):
        return ball_entry_times(centers[:, queries] - tree.center_components[:, nodes], directions[:, queries],
                               reach[queries] + tree.radii[nodes])

    def leaf_test(queries, faces):
        moving = Polytope(*[field[queries] for field in body[:3]], body.edge_ends, body.dimension, body.faces)
        triangles = polygon_polytopes(mesh.vertices[mesh.faces[faces]])
        t, normal, depth, *_ = sat_sweep(moving, triangles, motion[queries], ignore_separating)
        point, code, index, _, _, _ = contact_features(moving, triangles, motion[queries], t, normal)
        hit = ~np.isnan(t)
        return Contact(t, np.where(hit[:, None], point, np.nan), np.where(hit[:, None], normal, np.nan), depth,
                       np.where(hit, code, -1), np.where(hit, index, -1))

    found = walk(tree, count, node_entry, leaf_test, lower_to_first_hit, trace)
    return first_hit_result(found, core, mesh, ignore_separating, raw_edge_normals)

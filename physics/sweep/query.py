"""The plumbing of a sweep query, between ``sweep()`` and a pair's lane kernel.

A query goes through two functions of plumbing on its way to the geometry:

* ``answer_query`` (what ``sweep()`` calls): checks the shapes and the direction
  (``TypeError`` / ``ValueError`` naming the argument) and that the batch shapes
  broadcast, hands a query far from unit size to its unit-size plan
  (``physics.sweep.unit_size``), finds the pair's test -- a moving ``Point`` is a
  sphere of radius 0 and a moving ``Segment`` a capsule of radius 0 (``promoted``);
  a pair without its own test is served by changing the subject -- and maps a swapped
  answer back (``unswapped``).
* ``answer_lanes`` (what a pair test calls with its kernel's arguments): one query
  straight to the pair's lane kernel, a batch broadcast to one lane axis through the
  pair's lane loop (``physics.lanes``), and the answer built as a ``SweepResult``.

A pair test is a ``PairTest`` (``@pair_test``): called by a user it checks the
direction first, and ``sweep()`` calls its ``answer`` with the query it has checked.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Mapping

import numpy as np

from sweeplab.physics.core import EDGE, FACE, VERTEX, dot_rows, row_lengths
from sweeplab.physics.kernels import lane_input
from sweeplab.physics.result import SweepResult, lane_result
from sweeplab.physics.shapes import (Capsule, ConvexPolyhedron, Point, Segment, Shape, Sphere, broadcast_batch_shapes,
                                     vector_argument)
from sweeplab.physics.sweep.lane_answer import Contact, answer_arrays
from sweeplab.physics.sweep.sat import contact_rtol
from sweeplab.physics.sweep.unit_size import largest_component, unit_size_plan

# --- pair tests ------------------------------------------------------------------------


class PairTest:
    """A public pair test, ``test(moving, target, direction, *, ignore_separating=False,
    **options)``, made of ``answer``: the pair's function of a checked query (a
    ``direction`` array of shape (..., 3), run under ``np.errstate(all="ignore")`` --
    kernels divide by zero in lanes whose results they then discard).  ``trace_type``
    is the trace its ``trace`` option fills (None: it takes no trace)."""

    def __init__(self, answer: Callable[..., SweepResult], trace_type: type | None = None):
        self.answer = answer
        self.trace_type = trace_type
        functools.update_wrapper(self, answer)

    def __call__(self, moving, target, direction, *, ignore_separating=False, **options) -> SweepResult:
        """The pair's answer; ``ValueError`` naming ``direction`` where it is not a finite
        (..., 3) array, ``TypeError`` naming ``trace`` where it is not ``trace_type``."""
        direction = vector_argument(direction, "direction")
        self.check_options(options)
        with np.errstate(all="ignore"):
            return self.answer(moving, target, direction, ignore_separating=ignore_separating, **options)

    def check_options(self, options: dict) -> None:
        """A ``TypeError`` naming ``trace`` where it is given and not a ``trace_type``
        (an option the test does not take is Python's own ``TypeError`` at the call)."""
        trace = options.get("trace")
        if trace is not None and self.trace_type is not None and not isinstance(trace, self.trace_type):
            raise TypeError(f"trace must be a {self.trace_type.__name__}, got {type(trace).__name__}")


def pair_test(answer=None, *, trace: type | None = None):
    """Decorator: the pair function ``answer`` as a ``PairTest`` (``trace``: the type of
    its ``trace`` option)."""
    if answer is None:
        return lambda function: PairTest(function, trace)
    return PairTest(answer, trace)


PairTests = Mapping[tuple[type, type], PairTest]
"""(moving type, target type) -> the pair's test (``physics.sweep.dispatch.PAIR_TESTS``)."""


def promoted(shape: Shape) -> Shape:
    """A point as a sphere of radius 0, a segment as a capsule of radius 0."""
    if isinstance(shape, Point):
        return Sphere(shape.p, np.zeros((), shape.p.dtype))
    if isinstance(shape, Segment):
        return Capsule(shape.a, shape.b, np.zeros((), shape.a.dtype))
    return shape


def point_or_segment(polyhedron: ConvexPolyhedron) -> Point | Segment:
    """The ``Point`` or ``Segment`` a polyhedron whose hull is one point or straight is
    (its vertices 0 and 1, its edge 0)."""
    corners = polyhedron.vertices
    return Point(corners[..., 0, :]) if polyhedron.dimension == 0 else Segment(corners[..., 0, :], corners[..., 1, :])


def _test_of(tests: PairTests, moving: Shape, target: Shape) -> tuple[PairTest | None, Shape]:
    """The test for ``moving`` against ``target``, and the moving shape it takes
    (``promoted`` where only that has a test)."""
    for candidate in (moving, promoted(moving)):
        test = tests.get((type(candidate), type(target)))
        if test is not None:
            return test, candidate
    return None, moving


# --- sweep(): the query checked, at unit size, its pair found ----------------------------


def answer_query(tests: PairTests, moving: Shape, target: Shape, direction, ignore_separating: bool,
                 options: dict) -> SweepResult:
    """``sweep(moving, target, direction, ignore_separating=..., **options)`` through
    ``tests`` (module docstring); raises as ``sweep`` says."""
    check_shapes(moving, target)
    direction = vector_argument(direction, "direction", copy=False, check_finite=False)  # only read
    longest = largest_component(direction)  # (inf for NaN or infinity: the finiteness check, in the same pass)
    if not math.isfinite(longest):
        raise ValueError("direction must be finite (got NaN or infinity)")
    if moving.batch_shape or target.batch_shape or direction.ndim > 1:
        broadcast_batch_shapes(moving.batch_shape, target.batch_shape, direction.shape[:-1],
                               names="moving, target, direction")
    plan = unit_size_plan(moving, target, direction, longest)
    if plan is not None:
        moving, target, direction = plan.shape(moving), plan.shape(target), plan.direction(direction)
    test, subject = _test_of(tests, moving, target)
    if test is not None:
        test.check_options(options)
        with np.errstate(all="ignore"):
            found = test.answer(subject, target, direction, ignore_separating=ignore_separating, **options)
    else:  # sweeping A against B along d is sweeping B against A along -d
        test, subject = _test_of(tests, target, moving)
        if test is None:  # two surfaces (dispatch.SURFACES; tests/test_shape_kinds.py: every other pair is served)
            raise TypeError(f"no sweep test for a moving {type(moving).__name__} against a {type(target).__name__} "
                            "(two surfaces: no volume between them)")
        test.check_options(options)
        with np.errstate(all="ignore"):
            found = unswapped(test.answer(subject, moving, -direction, ignore_separating=ignore_separating,
                                          **options), direction, target)
    return found if plan is None else plan.answer(found)


def check_shapes(moving, target) -> None:
    """A ``TypeError`` naming ``moving`` or ``target`` where it is not a shape."""
    for name, shape in (("moving", moving), ("target", target)):
        if not isinstance(shape, Shape):
            raise TypeError(f"{name} must be a shape (Sphere, Capsule, Point, Segment, Plane, Triangle, Polygon, "
                            f"ConvexPolyhedron or TriangleMesh), got {type(shape).__name__}")


# --- a pair test's kernel: one lane or a batch, and the SweepResult -----------------------


Inputs = list[tuple[np.ndarray, int]]
"""A kernel's array arguments, each with its element dimensions: 0 a number, 1 a
3-vector, 2 a (V, 3) array; leading dimensions are the batch's."""


def answer_lanes(kernel, loop, inputs: Inputs, ignore_separating: bool, *, face_index: int | None = None,
                 surface: bool = False) -> SweepResult:
    """The answer of a pair's lane ``kernel`` on ``inputs`` (then ``ignore_separating``),
    in their common floating dtype: one query (no batch dimensions) straight to the
    kernel, 3-vectors as tuples; a batch (dimensions broadcast, flattened to one lane
    axis) through its lane ``loop`` (``loop(count, *inputs, ignore_separating, out)``,
    writing ``lane_answer.answer_arrays``), answered by ``rows_result``.  ``face_index``
    is reported on every hit (a polygon's one face); ``surface``: every contact is face
    0 (a sphere's)."""
    arrays = [array for array, _ in inputs]
    if all(np.ndim(array) == dims for array, dims in inputs):
        dtype = np.result_type(*arrays)
        arguments = [lane_vector(array, dtype) if dims == 1 else lane_input(array, dtype) if dims == 2
                     else dtype.type(array) for array, dims in inputs]
        return lane_result(kernel(*arguments, bool(ignore_separating)), dtype, face_index, surface)
    dtype = np.result_type(*arrays, np.float16)
    shape = np.broadcast_shapes(*[np.shape(array)[:np.ndim(array) - dims] for array, dims in inputs])
    count = math.prod(shape)
    out = answer_arrays(count, dtype)
    loop(count, *lane_inputs(shape, dtype, inputs), bool(ignore_separating), out)
    return rows_result(Contact(*out), -1 if face_index is None else face_index, shape, dtype, surface)


def lane_vector(vector: np.ndarray, dtype) -> tuple:
    """An unbatched (3,) array as one lane's 3-vector tuple in ``dtype``."""
    vector = vector if vector.dtype == dtype else vector.astype(dtype)
    return (vector[0], vector[1], vector[2])


def lane_inputs(shape: tuple, dtype, inputs: Inputs) -> list[np.ndarray]:
    """Each of ``inputs`` as ``flat_lanes``."""
    return [flat_lanes(array, dims, shape, dtype) for array, dims in inputs]


def flat_lanes(array, element_dims: int, shape: tuple, dtype) -> np.ndarray:
    """``array`` (its last ``element_dims`` dimensions one lane's element) broadcast to
    the batch ``shape`` and flattened to one lane axis, in ``dtype``, as a kernel input
    (``kernels.lane_input``: C-contiguous and read-only, copied where the broadcast is
    not, so a kernel has one signature)."""
    array = np.asarray(array, dtype)
    element = array.shape[array.ndim - element_dims:]
    return lane_input(np.broadcast_to(array, shape + element).reshape((math.prod(shape),) + element), dtype)


def rows_result(rows: Contact, face_index, shape: tuple, dtype, surface: bool = False) -> SweepResult:
    """The answer of a query of batch ``shape`` from its lanes' answers ``rows`` (one row
    per lane, flat, in any float dtype) in ``dtype``: a query without batch dimensions
    as one lane's (``result.lane_result``), a batch as arrays.  ``face_index``: one per
    row (an array, -1 none), or one int reported on every hit (-1 none); ``surface``:
    every hit is face 0 (a sphere's surface)."""
    if shape == ():
        face = int(face_index if isinstance(face_index, int) else face_index[0])
        return lane_result((rows.t[0], rows.point[0], rows.normal[0], rows.depth[0], rows.feature_code[0],
                            rows.feature_index[0]), dtype, face if face >= 0 else None, surface)

    def public(array, element=()):
        return array.astype(dtype, copy=False).reshape(shape + element)

    return SweepResult.from_arrays(
        t=public(rows.t), point=public(rows.point, (3,)), normal=public(rows.normal, (3,)),
        face_index=face_index if isinstance(face_index, int) else face_index.reshape(shape),
        penetration_depth=public(rows.depth), feature_code=rows.feature_code.reshape(shape),
        feature_index=rows.feature_index.reshape(shape), scalar=False, surface=surface)


# --- the subject swapped back -------------------------------------------------------------


def unswapped(result: SweepResult, direction: np.ndarray, target: Shape) -> SweepResult:
    """An answer computed with the subject swapped (``target`` moving along
    -``direction`` against the moving shape) in the caller's frame: the normal flips (it
    points from the target towards the moving shape), the contact point moves with the
    frame (it was found with the target at rest, so it gains ``t * direction``), and on
    initial overlap the witness moves to the other shape's surface (``point + depth *
    normal``); the feature is the target's at that point (``_target_feature``)."""
    scalar = not isinstance(result.hit, np.ndarray)
    if scalar and not result.hit:
        return result
    hit = np.asarray(result.hit)
    dtype = np.asarray(result.normal).dtype  # the answer's: a scalar's t and depth are Python floats
    t = np.where(hit, np.asarray(result.t, dtype), np.nan) if scalar else result.t
    depth = np.full((), np.nan, dtype) if result.penetration_depth is None else np.asarray(result.penetration_depth)
    normal = 0.0 - np.asarray(result.normal)  # 0.0 - x keeps +0.0 where x is 0
    shift = np.where(np.isnan(t), 0, t)[..., None] * direction + np.nan_to_num(depth)[..., None] * normal
    point = np.asarray(result.point) + shift
    code, index = _target_feature(target, point)
    faces = _polyhedron_feature(target, point)[2] if isinstance(target, ConvexPolyhedron) and target.dimension >= 2 \
        else -1
    return SweepResult.from_arrays(
        t=t, point=point, normal=normal,
        face_index=np.where(hit, faces, -1) * np.ones(np.shape(hit), int),
        penetration_depth=np.broadcast_to(np.asarray(depth, dtype), np.shape(hit)),
        feature_code=np.where(hit, code, -1), feature_index=np.where(hit, index, -1), scalar=scalar)


def _polyhedron_feature(target: ConvexPolyhedron, point: np.ndarray):
    """(code, index, face index) of the polyhedron feature a surface point lies on:
    the face planes through it say face (one), edge (two: the nearest edge) or vertex
    (three or more: the nearest vertex).  Through means within ``sat.contact_rtol`` of
    the scale for the point's dtype: a float32 point is ~1e-7 off an edge it lies on."""
    heights = dot_rows(target.normals, point[..., None, :]) - target.offsets
    slack = contact_rtol(point.dtype) * (np.abs(target.vertices).max(axis=(-2, -1)) + np.abs(point).max(axis=-1))
    planes = (np.abs(heights) <= slack[..., None]).sum(axis=-1)
    nearest_vertex = np.argmin(row_lengths(target.vertices - point[..., None, :]), axis=-1)
    starts = target.vertices[..., target.edges[:, 0], :]
    along = target.vertices[..., target.edges[:, 1], :] - starts
    with np.errstate(all="ignore"):
        s = np.clip(dot_rows(point[..., None, :] - starts, along) / dot_rows(along, along), 0, 1)
    nearest_edge = np.argmin(row_lengths(starts + s[..., None] * along - point[..., None, :]), axis=-1)
    face = np.argmax(heights, axis=-1)
    code = np.where(planes >= 3, VERTEX, np.where(planes == 2, EDGE, FACE))
    return code, np.where(code == VERTEX, nearest_vertex, np.where(code == EDGE, nearest_edge, face)), face


def _target_feature(target: Shape, point: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Feature codes and indices of a target reached only by a subject swap, from the
    contact point on it: a sphere's surface, a point, a capsule's / segment's side
    or end, or a polyhedron's face, edge or vertex."""
    count_shape = point.shape[:-1]
    if isinstance(target, ConvexPolyhedron) and target.dimension < 2:
        target = point_or_segment(target)  # its vertices and edge are numbered as the polyhedron's
    if isinstance(target, ConvexPolyhedron):
        return _polyhedron_feature(target, point)[:2]
    if isinstance(target, Sphere):
        return np.full(count_shape, FACE), np.zeros(count_shape, int)
    if isinstance(target, Point):
        return np.full(count_shape, VERTEX), np.zeros(count_shape, int)
    assert isinstance(target, (Segment, Capsule)), "a swap reaches no other target"
    along = target.b - target.a
    length_squared = dot_rows(along, along)
    with np.errstate(all="ignore"):
        s = np.where(length_squared > 0, dot_rows(point - target.a, along) / length_squared, 0)
    code = np.where((s > 0) & (s < 1), EDGE, VERTEX)
    return code, np.where(s >= 1, 1, 0)

"""One query, straight to its compiled kernel: ``sweep``'s scalar fast path.

A single configuration (no batch dimensions) of a sphere or capsule against a
target of the sphere family, in float64, within the unit-size band
(``physics.sweep.unit_size``), with a plain direction (a float64 (3,) array, or a
list or tuple of three Python floats) is answered by one call of the pair's lane
kernel -- the very kernel and arguments the general path ends in, so the answer is
the same bit for bit (``tests/physics/test_scalar_path.py``).  Everything else
(batches, float32, a reversed pair, a plane, options, a direction to validate or a
query to rescale) gets ``None`` here and takes the general path.

What makes it fast: each shape's kernel arguments (*lane form*: 3-vectors as tuples
of floats, a core's vertices as a C-contiguous writable array, its magnitude for the
unit-size band) are made once and kept with the shape, and no NumPy array is built
per query.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

from sweeplab.physics.kernels import entry_point
from sweeplab.physics.result import FLOAT64, SweepResult, lane_result
from sweeplab.physics.shapes import Capsule, Point, Polygon, Segment, Shape, Sphere, Triangle
from sweeplab.physics.sweep.ball import ball_core_answer
from sweeplab.physics.sweep.capsule import capsule_core, capsule_polygon_answer, capsule_segment_answer
from sweeplab.physics.sweep.sphere import target_core
from sweeplab.physics.sweep.unit_size import within_band


class Mover(NamedTuple):
    """A moving sphere (``end`` None) or capsule core as its kernel takes it."""

    start: tuple        # the center, or the core's start, as three floats
    end: tuple | None   # the core's end (capsules and segments)
    radius: float
    magnitude: float    # largest |coordinate or radius|: the shape's unit-size magnitude


class Target(NamedTuple):
    """A target of the sphere family as its kernels take it."""

    vertices: np.ndarray      # (V, 3) core, float64, C-contiguous, writable
    ends: tuple | None        # a two-vertex core's ends, as floats
    radius: float             # how far the core is inflated (spheres, capsules)
    face_index: int | None    # reported on every hit (a polygon's one face)
    surface: bool             # every contact is face 0 (a sphere's surface)
    magnitude: float


def _floats(vector: np.ndarray) -> tuple:
    x, y, z = vector.tolist()
    return (x, y, z)


def _largest(*values: float) -> float:
    return max(map(abs, values))


def _mover(shape: Shape) -> Mover | None:
    """A moving sphere, point, capsule or segment's kernel arguments (None: not float64)."""
    if isinstance(shape, (Sphere, Point)):
        center = shape.center if isinstance(shape, Sphere) else shape.p
        radius = shape.radius if isinstance(shape, Sphere) else None
        if center.dtype is not FLOAT64 or (radius is not None and radius.dtype is not FLOAT64):
            return None
        start, size = _floats(center), 0.0 if radius is None else float(radius)
        return Mover(start, None, size, _largest(*start, size))
    a, b, radius = capsule_core(shape)
    if a.dtype is not FLOAT64 or b.dtype is not FLOAT64 or radius.dtype is not FLOAT64:
        return None
    start, end, size = _floats(a), _floats(b), float(radius)
    return Mover(start, end, size, _largest(*start, *end, size))


def _target(shape: Shape) -> Target | None:
    """A sphere-family target's kernel arguments (``sphere.target_core``; None: not float64)."""
    core = target_core(shape)
    if core.vertices.dtype is not FLOAT64 or core.radius.dtype is not FLOAT64:
        return None
    vertices = np.array(core.vertices)  # (a few values: a copy is cheap, and writable as kernels take it)
    size = float(core.radius)
    ends = (_floats(vertices[0]), _floats(vertices[1])) if len(vertices) == 2 else None
    return Target(vertices, ends, size, core.face_index, core.surface, _largest(*vertices.ravel().tolist(), size))


def lane_form(shape: Shape, make: Callable[[Shape], Any]):
    """``make(shape)`` (``_mover`` or ``_target``: a shape can be either in turn) for an
    unbatched shape (None where it is not float64), else None; made once per role,
    kept with the shape (shapes are immutable)."""
    forms = getattr(shape, "_lane_forms", None)  # (no exceptions: a shape built in the call has none yet)
    if forms is None:
        forms = {}
        object.__setattr__(shape, "_lane_forms", forms)
    form = forms.get(make, _NOT_MADE)
    if form is _NOT_MADE:
        form = forms[make] = make(shape) if shape.batch_shape == () else None
    return form


_NOT_MADE = object()


def plain_vector(value) -> tuple | None:
    """A plain float64 3-vector (a direction, a rotation vector, a pivot) as three floats,
    else None (the general path validates)."""
    if type(value) is np.ndarray:
        if value.dtype != FLOAT64 or value.shape != (3,):
            return None
        x, y, z = value.tolist()
        return (x, y, z)
    if type(value) in (list, tuple) and len(value) == 3:
        x, y, z = value
        if type(x) is float and type(y) is float and type(z) is float:
            return (x, y, z)
    return None


class LaneKernel:
    """A lane kernel called with one signature only: through numba's dispatcher (and
    the tier choice of ``physics.kernels``) until it has machine code for it, then
    straight to that machine code (``kernels.entry_point``; numba's dispatch, typing six
    arguments, took longer than the kernel)."""

    def __init__(self, dispatcher):
        self.dispatcher = dispatcher
        self.machine_code: Callable | None = None

    def __call__(self, *arguments):
        if self.machine_code is not None:
            return self.machine_code(*arguments)
        answer = self.dispatcher(*arguments)
        self.machine_code = entry_point(self.dispatcher, arguments)
        return answer


_ball_core, _capsule_segment, _capsule_polygon = (LaneKernel(kernel) for kernel in
                                                 (ball_core_answer, capsule_segment_answer, capsule_polygon_answer))


def _ball(mover: Mover, target: Target, direction: tuple, ignore_separating: bool) -> SweepResult:
    answer = (_ball_core.machine_code or _ball_core)(mover.start, mover.radius, direction, target.vertices,
                                                     target.radius, ignore_separating)
    return lane_result(answer, FLOAT64, target.face_index, target.surface)


def _capsule(mover: Mover, target: Target, direction: tuple, ignore_separating: bool) -> SweepResult:
    if target.ends is not None:  # a segment or capsule target
        answer = (_capsule_segment.machine_code or _capsule_segment)(
            mover.start, mover.end, mover.radius, direction, *target.ends, target.radius, ignore_separating)
    else:
        answer = (_capsule_polygon.machine_code or _capsule_polygon)(
            mover.start, mover.end, mover.radius, direction, target.vertices, ignore_separating)
    return lane_result(answer, FLOAT64, target.face_index)


_BALL_TARGETS = (Point, Sphere, Segment, Capsule, Triangle, Polygon)
PAIRS: dict[tuple[type, type], Callable[..., SweepResult]] = {
    **{(moving, target): _ball for moving in (Sphere, Point) for target in _BALL_TARGETS},
    **{(moving, target): _capsule for moving in (Capsule, Segment) for target in (Segment, Capsule, Triangle, Polygon)},
}
"""(moving type, target type) -> the lane call; exact types (a subclass takes the
general path)."""


def answer(moving: Shape, target: Shape, direction, ignore_separating: bool) -> SweepResult | None:
    """The answer of ``sweep(moving, target, direction)`` where this path serves it
    (module docstring), else None."""
    lane_call = PAIRS.get((type(moving), type(target)))
    if lane_call is None:
        return None
    plain = plain_vector(direction)
    if plain is None:
        return None
    mover, still = lane_form(moving, _mover), lane_form(target, _target)
    if mover is None or still is None:
        return None
    magnitude = max(mover.magnitude, still.magnitude)  # of the lane: both shapes'
    # |x| + |y| + |z| bounds the largest |component| (and is NaN or inf where one is)
    if not within_band(magnitude, magnitude, abs(plain[0]) + abs(plain[1]) + abs(plain[2]), FLOAT64, True):
        return None
    return lane_call(mover, still, plain, bool(ignore_separating))

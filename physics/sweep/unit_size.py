"""Queries far from unit size, answered at unit size.

The kernels square coordinates, and a few multiply four of them (Lagrange's
identity for near-parallel cores): in float64 such products overflow above ~1e77
and lose their digits to underflow below ~1e-77, and a query there answers wrong
(spheres at 5e77 "overlapping at t = 0", at 1e-82 a time of 0.42 for 0.3).  But a
sweep's answer does not change when the whole query is scaled by a power of two:
t, hit, normal and feature stay, point and depth scale — and scaling by 2^k is
exact.  So ``sweep`` answers every query through ``unit_size_plan``:

* A query whose *magnitude* M (per lane: the largest |value| of both shapes'
  lengths — coordinates, radii, offsets — and of the direction) lies in
  [2^-b, 2^b), b = ``band_exponent``, is answered as given: no copy, no change.
* Outside, the lane is scaled by 2^-e, e = the binary exponent of M (M goes to
  [0.5, 1)), answered, and its point and depth scaled back by 2^e.  Twins that
  differ by 2^k map to the same floats and get identical answers.
* A direction far longer than the shapes — more than 2^``band_exponent / 2`` times
  their magnitude S, with both shapes bounded (no plane) — is first shortened by a
  power of two 2^-m to between 4S and 16S (its direction kept exactly).  Both
  shapes lie within [-S, S]^3, so if they ever touch along the motion they do after
  travelling at most 2√3 S < 4S: the first contact lies within the shortened sweep,
  at t' = t 2^m exactly.  (A unit sphere 5 above another, moving 1e300, touches at
  t = 3e-300; unshortened, the squared direction overflowed and it missed.)

A mesh is scaled as a whole (one exponent for the query, from its largest lane),
its scaled copy cached with the mesh; its ``trace`` then holds unit-size values.
The pair tests themselves (``sweep_sphere_sphere`` …) answer as given.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np

from numba import prange

from sweeplab.physics.kernels import entry, length_of_first
from sweeplab.physics.lanes import PARALLEL_MIN_LANES, parallel_above
from sweeplab.physics.result import SweepResult, answer_dtype
from sweeplab.physics.shapes import ConvexPolyhedron, Plane, Shape, TriangleMesh, frozen


def band_exponent(dtype) -> int:
    """Binades either side of 1 within which a query is answered as given: a sixteenth
    of the dtype's exponent range (64 for float64, 8 for float32), so that fourth
    powers of the magnitudes, and of their last-place rounding, stay normal floats."""
    try:
        return _BANDS[dtype]
    except KeyError:
        return _BANDS.setdefault(dtype, np.finfo(dtype).maxexp // 16)


_BANDS: dict[np.dtype, int] = {}


@entry(work=length_of_first)
def _row_max_range(rows):
    """(smallest, largest) over the rows of ``rows`` (n, k) of the row's largest |value|;
    (inf, 0) for no rows."""
    smallest, largest = np.inf, 0.0
    for i in range(rows.shape[0]):
        row_max = 0.0
        for j in range(rows.shape[1]):
            row_max = max(row_max, abs(float(rows[i, j])))
        smallest, largest = min(smallest, row_max), max(largest, row_max)
    return smallest, largest


def _rows(array: np.ndarray, element_dims: int) -> np.ndarray:
    """``array`` as (lanes, values of one element) rows, in a dtype the kernel takes."""
    if array.dtype not in (np.float32, np.float64):
        array = array.astype(np.float64)
    size = int(np.prod(array.shape[array.ndim - element_dims:])) if element_dims else 1
    return array.reshape(-1, size)


def _length_arrays(shape: Shape) -> list[tuple[np.ndarray, int]]:
    """(array, element dims) of each length field of ``shape``; a mesh's one value is a
    bound on its world coordinates (2 max |body vertex| + max |translation|)."""
    if isinstance(shape, TriangleMesh):
        bound = shape.cached("magnitude", lambda: 2 * float(np.abs(shape.vertices).max()))
        return [(np.array(bound + float(np.abs(shape.translation).max())), 0)]
    return [(getattr(shape, name), shape._element_dims[name]) for name in shape._length_fields]


def magnitude_range(shape: Shape) -> tuple[float, float, np.dtype]:
    """(a lower bound on every lane's magnitude, the largest lane magnitude, the
    shape's answer dtype): computed once, kept with the shape."""
    try:
        return shape._magnitudes
    except AttributeError:
        pass
    smallest, largest = 0.0, 0.0
    for array, dims in _length_arrays(shape):
        if array.size == 0 and array.ndim > 0:  # a point-like polyhedron's faces: none
            continue
        lowest, highest = _row_max_range(_rows(array, dims))
        smallest, largest = max(smallest, lowest), max(largest, highest)
    object.__setattr__(shape, "_magnitudes", (smallest, largest, answer_dtype(shape)))
    return shape._magnitudes


def largest_component(direction: np.ndarray) -> float:
    """The largest |component| of the directions (..., 3), or inf where one is NaN or
    infinite: the unit-size plan's direction length and ``sweep``'s finiteness check
    in one pass (over a batch's lanes on numba's threads; of one direction in Python,
    where a compiled call's argument checks cost more than the work)."""
    if direction.ndim == 1:
        x, y, z = direction.tolist()
        if not (math.isfinite(x) and math.isfinite(y) and math.isfinite(z)):
            return math.inf
        return max(abs(x), abs(y), abs(z))
    values = _rows(direction, 1).reshape(-1)
    if len(values) == 0:
        return 0.0
    largest = np.empty(min(MAGNITUDE_CHUNKS, len(values)))
    _chunk_largest(len(values), values, largest)
    return float(largest.max())


MAGNITUDE_CHUNKS = 256
"""Pieces a batch's directions are cut into for ``largest_component`` (one thread's
share each; their maxima then meet in one small pass)."""


@parallel_above(PARALLEL_MIN_LANES)  # (compiled from ~500 values, as ``result.batch_flags``'s pass)
def _chunk_largest(values, largest):
    """largest[c] = max |value| over chunk c of the flat ``values`` (len(largest) equal
    chunks, the last shorter); inf where one is NaN or infinite."""
    chunks = len(largest)
    size = (len(values) + chunks - 1) // chunks
    for c in prange(chunks):
        chunk_max = 0.0
        for i in range(c * size, min(len(values), (c + 1) * size)):
            magnitude = abs(float(values[i]))
            if not magnitude <= chunk_max:  # larger, or NaN
                chunk_max = magnitude if magnitude == magnitude else math.inf
        largest[c] = chunk_max


def lane_magnitudes(shape: Shape) -> np.ndarray:
    """The largest |length| of each lane of ``shape`` (its batch shape)."""
    magnitude = np.zeros(())
    for array, dims in _length_arrays(shape):
        lane = np.abs(array).max(axis=tuple(range(array.ndim - dims, array.ndim)), initial=0.0) if dims \
            else np.abs(array)
        magnitude = np.maximum(magnitude, lane)
    return magnitude


@dataclasses.dataclass(frozen=True)
class UnitSizePlan:
    """How a query is answered at unit size: every length of lane i scaled by
    2^-``exponent[i]``, its direction further by 2^-``shortening[i]`` (arrays of the
    query's batch shape, or ints)."""

    exponent: np.ndarray | int
    shortening: np.ndarray | int

    def shape(self, shape: Shape) -> Shape:
        """``shape`` with its lengths scaled by 2^-exponent (no re-validation)."""
        if isinstance(shape, TriangleMesh):
            return _scaled_mesh(shape, -int(self.exponent))
        exponent = np.negative(self.exponent)
        batch_shape = np.broadcast_shapes(shape.batch_shape, np.shape(exponent))
        scaled = object.__new__(type(shape))
        for name, dims in shape._element_dims.items():
            value = getattr(shape, name)
            if name in shape._length_fields:
                value = np.asarray(np.ldexp(value, np.reshape(exponent, np.shape(exponent) + (1,) * dims)),
                                   value.dtype)
            elif isinstance(shape, ConvexPolyhedron):  # its per-face fields share the vertices' batch shape
                value = np.broadcast_to(value, batch_shape + value.shape[value.ndim - dims:])
            object.__setattr__(scaled, name, frozen(value))
        for name in shape._shared_fields:
            object.__setattr__(scaled, name, getattr(shape, name))
        object.__setattr__(scaled, "_batch_shape", batch_shape)
        return scaled

    def direction(self, direction: np.ndarray) -> np.ndarray:
        exponent = np.negative(np.add(self.exponent, self.shortening))
        return np.ldexp(direction, np.reshape(exponent, np.shape(exponent) + (1,))).astype(direction.dtype)

    def answer(self, result: SweepResult) -> SweepResult:
        """The unit-size ``result`` in the query's own size: point and depth scaled by
        2^exponent, t by 2^-shortening (exact)."""
        if not isinstance(result.hit, np.ndarray):  # a scalar query: Python floats, None on a miss
            if not result.hit:
                return result
            depth = result.penetration_depth
            return dataclasses.replace(
                result, t=float(np.ldexp(result.t, -int(self.shortening))),
                point=np.ldexp(result.point, int(self.exponent)).astype(result.point.dtype),
                penetration_depth=None if depth is None else float(np.ldexp(depth, int(self.exponent))))
        exponent = np.broadcast_to(self.exponent, result.hit.shape)
        return dataclasses.replace(
            result, t=np.ldexp(result.t, -np.asarray(self.shortening)).astype(result.t.dtype),
            point=np.ldexp(result.point, exponent[..., None]).astype(result.point.dtype),
            penetration_depth=np.ldexp(result.penetration_depth, exponent).astype(result.penetration_depth.dtype))


def _scaled_mesh(mesh: TriangleMesh, exponent: int) -> TriangleMesh:
    """``mesh`` with its lengths scaled by 2^exponent; the scaled body (and its sphere
    tree) is built once and kept with the mesh."""
    body = mesh.cached(("unit size", exponent), lambda: TriangleMesh(np.ldexp(mesh.vertices, exponent), mesh.faces))
    return body.moved(translation=np.ldexp(mesh.translation, exponent), rotation=mesh.rotation)


def unit_size_plan(moving: Shape, target: Shape, direction: np.ndarray,
                   longest: float | None = None) -> UnitSizePlan | None:
    """How to answer the query at unit size (module docstring), or None when it is
    answered as given — decided from cached bounds without a pass over the lanes
    when every lane is within the band.  ``longest``: ``largest_component(direction)``
    where the caller has it."""
    smallest_moving, largest_moving, moving_dtype = magnitude_range(moving)
    smallest_target, largest_target, target_dtype = magnitude_range(target)
    dtype = moving_dtype if moving_dtype == target_dtype == direction.dtype \
        else np.result_type(moving_dtype, target_dtype, direction.dtype)
    bounded = not isinstance(moving, Plane) and not isinstance(target, Plane)
    smallest = max(smallest_moving, smallest_target)  # no lane's shapes are smaller
    if longest is None:
        longest = largest_component(direction)
    if within_band(smallest, max(largest_moving, largest_target), longest, dtype, bounded):
        return None
    band = band_exponent(dtype)
    with np.errstate(over="ignore", under="ignore"):
        return _plan_by_lane(moving, target, direction, band, band // 2, bounded)


def within_band(smallest: float, largest: float, longest: float, dtype, bounded: bool) -> bool:
    """Whether a query is answered as given (module docstring), from bounds on its
    lanes: every shape magnitude in [``smallest``, ``largest``], the direction's largest
    |component| at most ``longest`` (NaN: refused); ``bounded``: neither shape is a plane."""
    low, high, reach = _band_limits(dtype)
    # (smallest * reach is exact: a power of two times a value within the band)
    return (low <= smallest and largest < high and longest < high
            and (not bounded or longest <= smallest * reach))


def _band_limits(dtype) -> tuple[float, float, float]:
    """(2^-b, 2^b, 2^(b // 2)) for b = ``band_exponent(dtype)``."""
    try:
        return _LIMITS[dtype]
    except KeyError:
        band = band_exponent(dtype)
        return _LIMITS.setdefault(dtype, (math.ldexp(1.0, -band), math.ldexp(1.0, band), math.ldexp(1.0, band // 2)))


_LIMITS: dict[np.dtype, tuple[float, float, float]] = {}


def _plan_by_lane(moving: Shape, target: Shape, direction: np.ndarray, band: int, reach: int,
                  bounded: bool) -> UnitSizePlan | None:
    """``unit_size_plan`` decided lane by lane."""
    size = np.maximum(lane_magnitudes(moving), lane_magnitudes(target))
    length = np.abs(direction).max(axis=-1)
    shortening = np.zeros(np.broadcast_shapes(size.shape, length.shape), int)
    if bounded:
        far = (size > 0) & (length > np.ldexp(size, reach))
        shortening = np.where(far, np.frexp(length)[1] - np.frexp(size)[1] - 3, 0)
    magnitude = np.maximum(size, np.ldexp(length, -shortening))
    if isinstance(moving, TriangleMesh) or isinstance(target, TriangleMesh):
        magnitude = magnitude.max(initial=0.0)  # one exponent: the mesh is scaled as a whole
    exponent = np.frexp(magnitude)[1]
    exponent = np.where((magnitude > 0) & ((exponent > band) | (exponent < 1 - band)), exponent, 0)
    if not exponent.any() and not shortening.any():
        return None
    if exponent.ndim == 0 and shortening.ndim == 0:
        return UnitSizePlan(int(exponent), int(shortening))
    return UnitSizePlan(exponent, shortening)

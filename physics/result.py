"""``SweepResult``: the single answer type of every sweep query.

Conventions (the contract of ``physics.sweep``):

* ``t`` is the fraction of ``direction`` travelled at first contact, in [0, 1].
* ``point`` is a world-space point on the target's surface at time ``t`` where the
  shapes touch; when they overlap at t = 0 it is the target's witness point of
  the separating translation (moving the moving shape by
  ``penetration_depth * normal`` makes the shapes touch there).
* ``normal`` is a unit vector pointing from the target towards the moving shape.
* ``feature`` names the target's feature at the contact: ``kind`` is ``"face"``,
  ``"edge"`` or ``"vertex"`` and ``index`` numbers it as ``physics.shapes`` does.

A scalar query holds Python scalars and (3,) arrays, with ``None`` where there is
no hit.  A batched query holds arrays: ``hit (N,)``, ``t (N,)`` NaN where no hit,
``point``/``normal (N, 3)`` NaN where no hit, ``face_index (N,)`` -1 where none,
``penetration_depth (N,)`` NaN where none, ``feature.kind (N,)`` ``""`` and
``feature.index (N,)`` -1 where no hit.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import prange

from sweeplab.physics.kernels import lane_input
from sweeplab.physics.lanes import PARALLEL_MIN_LANES, parallel_above

FLOAT64 = np.dtype(np.float64)
"""The float64 dtype (one object: ``dtype is FLOAT64`` tells a native float64 array)."""

FEATURE_KINDS = ("vertex", "edge", "face")
"""Feature kind codes used internally by kernels: code i is ``FEATURE_KINDS[i]``;
code -1 means no feature (no hit)."""
NO_FEATURE = -1


def answer_dtype(*inputs) -> np.dtype:
    """The floating dtype of a query's answer: the common dtype of its inputs'
    floating arrays (shapes' coordinate fields, directions) — float32 in, float32 out."""
    arrays = [np.asarray(getattr(value, name)) for value in inputs for name in getattr(value, "_fields", ())]
    arrays += [np.asarray(value) for value in inputs if not hasattr(value, "_fields")]
    return np.result_type(*[array for array in arrays if array.dtype.kind == "f"])  # numpy's floating types


class Feature:
    """Which feature of the target was touched: ``kind`` and its ``index`` (arrays in a
    batch).  Immutable.  A batch built ``from_codes`` keeps the kernels' feature codes
    and spells ``kind`` out on first use: 10^6 strings took longer to make than the
    10^6 sphere sweeps that produced them."""

    __slots__ = ("_kind", "_codes", "index")
    _kind: Any
    _codes: tuple[np.ndarray, tuple[str, ...]] | None
    index: Any

    def __init__(self, kind: Any, index: Any):
        object.__setattr__(self, "_kind", kind)
        object.__setattr__(self, "_codes", None)
        object.__setattr__(self, "index", index)

    @classmethod
    def from_codes(cls, codes: np.ndarray, index: np.ndarray, surface: bool = False) -> Feature:
        """A batch's features from kernel codes (``FEATURE_KINDS`` indices, -1 none);
        ``surface``: every hit is a face (a sphere's surface, whatever its code)."""
        feature = cls(None, index)
        names = ("", "face", "face", "face") if surface else ("",) + FEATURE_KINDS
        object.__setattr__(feature, "_codes", (codes, names))
        return feature

    @property
    def kind(self) -> Any:
        if self._codes is not None:
            codes, names = self._codes
            object.__setattr__(self, "_kind", np.array(names)[np.asarray(codes) + 1])
            object.__setattr__(self, "_codes", None)
        return self._kind

    def __setattr__(self, name, value):
        raise AttributeError(f"Feature is immutable (cannot set {name})")

    def __eq__(self, other) -> bool:
        if not isinstance(other, Feature):
            return NotImplemented
        return (self.kind, self.index) == (other.kind, other.index)

    def __hash__(self) -> int:
        return hash((self.kind, self.index))

    def __repr__(self) -> str:
        return f"Feature(kind={self.kind!r}, index={self.index!r})"


@dataclass(frozen=True)
class SweepResult:
    """Answer of one (or a batch of) sweep queries; see the module docstring."""

    hit: Any
    t: Any
    point: Any
    normal: Any
    face_index: Any
    penetration_depth: Any
    initially_overlapping: Any
    feature: Feature
    moving_feature: Feature | None = None
    """The moving shape's feature at the contact (turning sweeps; None for linear ones)."""
    advancement: Any = None
    """A turning sweep's ``physics.sweep.turning.Advancement`` (iterations, converged,
    safe_until); None for linear sweeps."""

    @classmethod
    def from_arrays(cls, *, t, point, normal, face_index, penetration_depth,
                    feature_code, feature_index, scalar: bool, surface: bool = False) -> SweepResult:
        """Build the public result from kernel arrays (``t`` NaN where no hit);
        ``face_index``: an array (-1 where none), or one int reported on every hit (-1:
        none); ``surface``: every hit is a face (``Feature.from_codes``)."""
        if not scalar:
            hit, overlapping, faces = batch_flags(t, penetration_depth, face_index)
            return cls(hit=hit, t=t, point=point, normal=normal, face_index=faces,
                       penetration_depth=penetration_depth,
                       initially_overlapping=overlapping,
                       feature=Feature.from_codes(feature_code, np.asarray(feature_index, dtype=np.int64), surface))
        if np.isnan(t):
            return cls(hit=False, t=None, point=None, normal=None, face_index=None,
                       penetration_depth=None, initially_overlapping=False,
                       feature=Feature(kind=None, index=None))
        return cls(
            hit=True, t=float(t), point=np.array(point), normal=np.array(normal),
            face_index=int(face_index) if face_index >= 0 else None,
            penetration_depth=None if np.isnan(penetration_depth) else float(penetration_depth),
            initially_overlapping=not np.isnan(penetration_depth),
            feature=Feature(kind=(("",) + FEATURE_KINDS)[int(feature_code) + 1], index=int(feature_index)),
        )


def batch_flags(t: np.ndarray, depth: np.ndarray, face_index) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(hit, initially_overlapping, face_index) of a batch's kernel answers, in one pass
    over the lanes on numba's threads (a serial NumPy pass each took a tenth of a
    sphere batch's time, and capped its speed-up on many cores): hit where ``t`` is a
    number, overlapping where ``depth`` is; ``face_index`` as given where it is an
    array, else that int where hit and -1 elsewhere."""
    flat_t, flat_depth = lane_input(t.reshape(-1), t.dtype), lane_input(depth.reshape(-1), depth.dtype)
    count = len(flat_t)
    hit, overlapping = np.empty(count, np.bool_), np.empty(count, np.bool_)
    given = isinstance(face_index, np.ndarray)
    faces = np.empty(0 if given else count, np.int64)
    _flag_lanes(count, flat_t, flat_depth, -1 if given else int(face_index), hit, overlapping, faces)
    faces = np.asarray(face_index, dtype=np.int64) if given else faces.reshape(t.shape)
    return hit.reshape(t.shape), overlapping.reshape(t.shape), faces


# (compiled with the batch's own loop, from ~500 lanes (``kernels.FIRST_GUESS_SECONDS_PER_WORK``): as Python it
# costs ~2 us a lane, and its honest estimate had medium batches pass their flags as Python for their first 0.5 s)
@parallel_above(PARALLEL_MIN_LANES)
def _flag_lanes(t, depth, face, hit, overlapping, faces):
    """Lane i: hit = t is a number, overlapping = depth is; faces[i] = ``face`` where hit,
    else -1 (where ``faces`` has lanes: none when the caller has its own)."""
    for i in prange(len(t)):
        hit[i] = t[i] == t[i]
        overlapping[i] = depth[i] == depth[i]
        if len(faces) > 0:
            faces[i] = face if hit[i] else -1


MISS = SweepResult(hit=False, t=None, point=None, normal=None, face_index=None, penetration_depth=None,
                   initially_overlapping=False, feature=Feature(kind=None, index=None))
"""The answer of a scalar query that hits nothing."""


def lane_result(answer: tuple, dtype, face_index: int | None = None, surface: bool = False) -> SweepResult:
    """The public answer of one lane of a compiled kernel: ``answer`` is (t, point,
    normal, depth, code, index) with t NaN where there is no hit; ``face_index`` is
    reported on every hit, and ``surface`` makes every contact face 0 (a sphere's).
    (Built without the dataclass's ``__init__``, which costs more than the kernel:
    ``sweep``'s scalar path answers in a few microseconds.)"""
    t, point, normal, depth, code, index = answer
    if t != t:
        return MISS
    if dtype is FLOAT64:  # (Python floats and bools, also from a kernel run as Python)
        t, depth = float(t), float(depth)
    else:  # a lane computed in float64 for float32 inputs answers in float32
        kind = np.dtype(dtype).type
        t, depth = float(kind(t)), float(kind(depth))
    overlapping = depth == depth
    result = object.__new__(SweepResult)
    fields = result.__dict__
    fields["hit"], fields["t"] = True, t
    fields["point"], fields["normal"] = np.array(point, dtype), np.array(normal, dtype)
    fields["face_index"], fields["penetration_depth"] = face_index, depth if overlapping else None
    fields["initially_overlapping"] = overlapping
    fields["feature"] = _lane_feature(2 if surface else code, 0 if surface else index)
    return result



def _lane_feature(code: int, index: int) -> Feature:
    """The ``Feature`` of a kernel's code and index, one shared object each (immutable)."""
    key = (code, index)
    feature = _LANE_FEATURES.get(key)
    if feature is None:
        feature = _LANE_FEATURES[key] = Feature(kind=FEATURE_KINDS[code], index=int(index))
    return feature


_LANE_FEATURES: dict[tuple[int, int], Feature] = {}

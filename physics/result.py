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

    @classmethod
    def from_arrays(cls, *, t, point, normal, face_index, penetration_depth,
                    feature_code, feature_index, scalar: bool, surface: bool = False) -> SweepResult:
        """Build the public result from kernel arrays (``t`` NaN where no hit);
        ``surface``: every hit is a face (``Feature.from_codes``)."""
        hit = ~np.isnan(t)
        overlapping = ~np.isnan(penetration_depth)
        if not scalar:
            return cls(hit=hit, t=t, point=point, normal=normal,
                       face_index=np.asarray(face_index, dtype=np.int64),
                       penetration_depth=penetration_depth,
                       initially_overlapping=overlapping,
                       feature=Feature.from_codes(feature_code, np.asarray(feature_index, dtype=np.int64), surface))
        if not hit:
            return cls(hit=False, t=None, point=None, normal=None, face_index=None,
                       penetration_depth=None, initially_overlapping=False,
                       feature=Feature(kind=None, index=None))
        return cls(
            hit=True, t=float(t), point=np.array(point), normal=np.array(normal),
            face_index=int(face_index) if face_index >= 0 else None,
            penetration_depth=float(penetration_depth) if overlapping else None,
            initially_overlapping=bool(overlapping),
            feature=Feature(kind=(("",) + FEATURE_KINDS)[int(feature_code) + 1], index=int(feature_index)),
        )


MISS = SweepResult(hit=False, t=None, point=None, normal=None, face_index=None, penetration_depth=None,
                   initially_overlapping=False, feature=Feature(kind=None, index=None))
"""The answer of a scalar query that hits nothing."""


def lane_result(answer: tuple, dtype, face_index: int | None = None, surface: bool = False) -> SweepResult:
    """The public answer of one lane of a compiled kernel: ``answer`` is (t, point,
    normal, depth, code, index) with t NaN where there is no hit; ``face_index`` is
    reported on every hit, and ``surface`` makes every contact face 0 (a sphere's)."""
    t, point, normal, depth, code, index = answer
    if t != t:
        return MISS
    overlapping = bool(depth == depth)
    kind = np.dtype(dtype).type  # a lane computed in float64 for float32 inputs answers in float32
    return SweepResult(hit=True, t=float(kind(t)), point=np.array(point, dtype), normal=np.array(normal, dtype),
                       face_index=face_index, penetration_depth=float(kind(depth)) if overlapping else None,
                       initially_overlapping=overlapping,
                       feature=Feature(kind=FEATURE_KINDS[2 if surface else code], index=0 if surface else int(index)))

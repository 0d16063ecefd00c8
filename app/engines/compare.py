"""How an engine's answer compares with sweeplab's: the kinds of disagreement, worst
first, and the tolerances, which follow the engine's precision."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from sweeplab.scene.query_log import EngineAnswer
from sweeplab.physics import SweepResult

SEVERITY = {"hit": 4, "start": 3, "t": 2, "normal": 1, "agrees": 0, "unsupported": -1}
"""Kinds of verdict, worst first."""
T_TOLERANCE = {"float64": 1e-6, "float32": 1e-4}
"""|dt| allowed by default, by the engine's precision (t is a fraction of the sweep)."""
NORMAL_TOLERANCE = {"float64": 1e-3, "float32": 1e-2}
"""Angle between the normals allowed by default (radians), by the engine's precision."""


@dataclass(frozen=True)
class Tolerances:
    t: float | None = None
    normal: float | None = None

    def for_precision(self, precision: str) -> tuple[float, float]:
        return (T_TOLERANCE[precision] if self.t is None else self.t,
                NORMAL_TOLERANCE[precision] if self.normal is None else self.normal)


DEFAULT_TOLERANCES = Tolerances()
"""The tolerances by the engine's precision (``T_TOLERANCE``, ``NORMAL_TOLERANCE``)."""


def compare(answer: EngineAnswer, ours: SweepResult, precision: str,
            tolerances: Tolerances = DEFAULT_TOLERANCES) -> tuple[str, float, str]:
    """(kind, size, a sentence) of the engine's answer against sweeplab's."""
    t_tolerance, normal_tolerance = tolerances.for_precision(precision)
    if ours.hit and ours.initially_overlapping and not answer.hit:
        depth = float(ours.penetration_depth)
        return "start", 1.0, f"the shapes overlap at t = 0 (depth {depth:.3g}); engine says miss"
    if bool(answer.hit) != bool(ours.hit):
        said = f"hit at t = {answer.t!r}" if answer.hit else "miss"
        return "hit", 1.0, f"engine says {said}; sweeplab says {_said(ours)}"
    if not ours.hit:
        return "agrees", 0.0, "both miss"
    if answer.t is not None:
        gap = abs(answer.t - float(ours.t))
        if gap > t_tolerance:
            return "t", gap, f"engine t = {answer.t!r}, sweeplab t = {float(ours.t)!r} (|dt| = {gap:.3g})"
    if answer.normal is not None:
        angle = _angle(np.asarray(answer.normal, float), np.asarray(ours.normal, float))
        if angle > normal_tolerance:
            return "normal", angle, (f"normals {math.degrees(angle):.3g}° apart: engine {answer.normal}, "
                                     f"sweeplab {[float(v) for v in ours.normal]}")
    return "agrees", 0.0, "both hit, t and normal within tolerance"


def _said(result: SweepResult) -> str:
    return f"hit at t = {float(result.t)!r}" if result.hit else "miss"


def _angle(a: np.ndarray, b: np.ndarray) -> float:
    """The angle between two directions, accurate for small angles (atan2 of the
    cross and dot products)."""
    return float(math.atan2(np.linalg.norm(np.cross(a, b)), float(np.dot(a, b))))

"""Lesson 9, capsules: a ball against a capsule, split as the kernels split it.

A capsule is its core segment a–b inflated by its radius, so a ball of radius r
against a capsule of radius r_c is the ball's centre c against the segment inflated
by R = r + r_c: the centre path c + t·d meets

* the infinite cylinder of radius R about the core's line: with e = b - a, the parts
  of c - a and d square to the axis, m = (c - a) - s₀·e and v = d - s'·e
  (s₀ = (c - a)·e / e·e, s' = d·e / e·e), the centre is R from the line when
  |m + t·v|² = R²:  a·t² + 2·b·t + c' = 0 with a = v·v, b = m·v, c' = m·m - R².
  Its entry root counts only where the centre is then beside the segment, not past
  an end: 0 < s = s₀ + t·s' < 1;
* the ball of radius R about each end, a and b (lesson 1's quadratic, once per end).

The earliest counted candidate is the answer (``physics.sweep.ball.ball_core`` with a
two-point core).  When the motion is parallel to the core, v = 0: a = 0 and b = 0,
the distance to the line never changes and the cylinder has no entry, so only the
end balls can be hit — the kernels' fallback for parallel motion (and, for a moving
capsule, for parallel cores: ``physics.sweep.capsule.interiors`` returns no contact
when the cores' common normal is zero, and the end balls answer).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from sweeplab.physics import Point, Sphere, SweepResult, sweep
from sweeplab.scene.model import Scene
from sweeplab.scene.shape_kinds import build_shape
from sweeplab.view.exercises import Verdict, check, moving_of, target_of
from sweeplab.view.lessons import Quadratic, _unit_roots


@dataclass(frozen=True)
class CapsuleSweep:
    """A ball against a capsule, by candidates (module docstring)."""

    summed_radius: float
    cylinder: Quadratic
    """The infinite cylinder's quadratic; its ``t`` the entry root in [0, 1] (None: not
    entered over the motion, the motion parallel to the core, or the centre already
    within R of the line at t = 0)."""
    along: float | None
    """s at the cylinder's entry: where along the core (0 at a, 1 at b) the centre then
    is; the root counts only for 0 < s < 1."""
    ends: tuple[float | None, float | None]
    """The first contact with the ball of radius R about a and about b (None: a miss)."""
    answer: SweepResult
    """``sweep``'s answer for the ball against the capsule."""

    @property
    def parallel(self) -> bool:
        """The motion is parallel to the core: a = 0, no cylinder entry."""
        return self.cylinder.a == 0

    @property
    def counted(self) -> bool:
        """The cylinder's entry lands beside the segment (0 < s < 1)."""
        return self.along is not None and 0 < self.along < 1


def capsule_sweep(scene: Scene) -> CapsuleSweep:
    """The candidates of the scene's moving ball against its first capsule target."""
    ball, capsule = moving_of(scene, "sphere"), target_of(scene, "capsule")
    centre, radius = np.asarray(ball.params["center"], float), float(ball.params["radius"])
    start, end = np.asarray(capsule.params["a"], float), np.asarray(capsule.params["b"], float)
    summed = radius + float(capsule.params["radius"])
    direction = np.asarray(scene.direction, float)
    core = end - start
    length_squared = float(core @ core)
    offset = centre - start
    along_start = float(offset @ core) / length_squared if length_squared > 0 else 0.0
    along_rate = float(direction @ core) / length_squared if length_squared > 0 else 0.0
    across, across_rate = offset - along_start * core, direction - along_rate * core
    a, b = float(across_rate @ across_rate), float(across @ across_rate)
    c = float(across @ across) - summed * summed
    roots = _unit_roots(across, across_rate, summed) if a > 0 else ()
    entry = next((root for root in roots if 0 <= root <= 1), None) if c > 0 else None
    cylinder = Quadratic(a, b, c, roots, entry)
    along = None if entry is None else along_start + entry * along_rate
    ends = tuple(_first(sweep(Sphere(centre, summed), Point(point), direction)) for point in (start, end))
    answer = sweep(build_shape("sphere", ball.params), build_shape("capsule", capsule.params), direction)
    return CapsuleSweep(summed, cylinder, along, (ends[0], ends[1]), answer)


def _first(result: SweepResult) -> float | None:
    return float(result.t) if result.hit else None


def motion_angle(scene: Scene) -> float:
    """Degrees between the ball's motion and the capsule's core (0: parallel, either
    way along it; 90: square to it)."""
    capsule = target_of(scene, "capsule")
    core = np.asarray(capsule.params["b"], float) - np.asarray(capsule.params["a"], float)
    direction = np.asarray(scene.direction, float)
    scale = float(np.linalg.norm(core) * np.linalg.norm(direction))
    if scale == 0:
        return 90.0
    return math.degrees(math.acos(min(1.0, abs(float(core @ direction)) / scale)))


@check("side along the core", degrees=15.0)
def side_along_the_core(scene: Scene, args: dict) -> Verdict:
    """The ball, moving within ``degrees`` of the core's direction, hits the capsule's
    side (its cylinder, edge 0), not an end ball."""
    found = capsule_sweep(scene)
    angle = motion_angle(scene)
    answer = found.answer
    hit = f"{answer.feature.kind} {answer.feature.index} at t = {float(answer.t)!r}" if answer.hit else "a miss"
    now = f"The motion is {angle:.6g}° from the core; the sweep's first contact: {hit}"
    side = answer.hit and answer.feature.kind == "edge"
    if angle > args["degrees"]:
        return Verdict(False, f"{now}: more than {args['degrees']:g}° from the core.")
    return Verdict(side, f"{now}." if side else f"{now}: not the side.")

"""A turning sweep's conservative advancement, iteration by iteration, for the
"Conservative advancement" panel: each iteration's t, distance, speed bound and
advance (``physics.sweep.turning.advancement_steps``), and what the numbers say
about why it took as many iterations as it did.  No GL.

Conservative advancement moves t on by  advance_i = distance_i / bound_i : no point
of the moving shape approaches the target faster than the bound, so no contact is
stepped over.  Between iterations i and i + 1 the shapes actually closed the gap at

    approach_i = (distance_i - distance_(i+1)) / (t_(i+1) - t_i)

and the overestimate  bound_i / approach_i  says how far each step fell short of the
step an exact speed would have allowed: with an overestimate k every step covers
about 1/k of the gap left, and the iterations pile up.  (The bound is |direction|,
the translation's share, plus the turn's: angular speed times the shape's reach
from the pivot; ``turning.speed_bound``.)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sweeplab.physics import SweepResult
from sweeplab.physics.sweep.turning import AdvanceStep, advancement_steps
from sweeplab.scene.model import Scene
from sweeplab.scene.shape_kinds import build_shape
from sweeplab.view.turn import pivot_of

SLOW_OVERESTIMATE = 4.0
"""A median overestimate (bound / actual approach) at or above this is a slow
convergence: each step covers a quarter of the gap left, or less."""


@dataclass
class AdvancementReport:
    """The advancement of the moving shape against one target."""

    target: str
    steps: list[AdvanceStep]
    overestimates: np.ndarray
    """bound_i / approach_i for each two consecutive iterations (inf where the shapes
    did not approach between them)."""
    explanation: str


def advancement_target(scene: Scene, selected: str | None, earliest: str | None) -> str | None:
    """The target the panel shows: the selected one, else the earliest hit, else the
    first (None: the scene has no moving shape or no target)."""
    names = [o.name for o in scene.targets()] if scene.moving is not None else []
    for name in (selected, earliest):
        if name in names:
            return name
    return names[0] if names else None


def advancement_report(scene: Scene, target: str, result: SweepResult | None) -> AdvancementReport:
    """The iterations of the turning sweep of the scene's moving shape against
    ``target``, with ``result`` (that sweep's answer, for whether it converged)
    explained.  ``ValueError`` for a motion the physics refuses."""
    moving, target_object = scene.moving_object(), scene.object(target)
    steps = advancement_steps(build_shape(moving.kind, moving.params),
                              build_shape(target_object.kind, target_object.params),
                              np.asarray(scene.direction, float), rotation=np.asarray(scene.rotation, float),
                              pivot=pivot_of(scene), interpolation=scene.interpolation)
    overestimates = overestimates_of(steps)
    return AdvancementReport(target, steps, overestimates,
                             explain(steps, overestimates, float(np.linalg.norm(scene.direction)), result))


def overestimates_of(steps: list[AdvanceStep]) -> np.ndarray:
    """bound_i / approach_i for consecutive iterations (module docstring); inf where
    the distance did not shrink."""
    ratios = []
    for step, following in zip(steps, steps[1:], strict=False):
        elapsed, closed = following.t - step.t, step.distance - following.distance
        ratios.append(step.bound * elapsed / closed if closed > 0 and elapsed > 0 else np.inf)
    return np.array(ratios, float)


def explain(steps: list[AdvanceStep], overestimates: np.ndarray, translation_speed: float,
            result: SweepResult | None) -> str:
    """What the iterations' numbers say: how many, whether they converged, and, when
    the median overestimate is ``SLOW_OVERESTIMATE`` or more, that the bound was the
    cause (its translation and turn shares)."""
    count = len(steps)
    advancement = None if result is None else result.advancement
    lines = [f"{count} iteration{'s' if count != 1 else ''}."]
    if advancement is not None and not advancement.converged:
        lines.append(f"The iteration budget ran out: no contact is certified before t = {advancement.safe_until:.6g}, "
                     "and no time of impact is reported.")
    if len(overestimates) == 0:
        return " ".join(lines)
    median = float(np.median(overestimates))
    largest = int(np.argmax(overestimates))
    bound = steps[largest].bound
    if median >= SLOW_OVERESTIMATE:
        lines.append(f"Converged slowly: the speed bound was a median {median:.3g}x the speed at which the shapes "
                     f"actually approached (largest {overestimates[largest]:.3g}x, from iteration {largest}), so each "
                     f"step covered about 1/{median:.3g} of the gap left.")
        lines.append(f"Of the bound {bound:.6g} at iteration {largest}, {translation_speed:.6g} is the translation "
                     f"(|direction|) and {max(bound - translation_speed, 0.0):.6g} the turn.")
    else:
        lines.append(f"The speed bound was close to the actual approach (a median {median:.3g}x), so each step "
                     "covered most of the gap left.")
    stalled = np.flatnonzero(np.isinf(overestimates))
    if len(stalled):
        lines.append(f"Between iterations {stalled[0]} and {stalled[0] + 1} the distance did not shrink.")
    return " ".join(lines)

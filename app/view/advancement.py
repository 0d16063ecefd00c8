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
about 1/k of the gap left, and the iterations pile up.  (Each iteration measures its
distance along its own closest features' axis, and its bound is on the fall of the
separation along that axis: the numbers compare the bound with what the distance did.)
Where the distance did not shrink, the shapes were not approaching: no overestimate.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sweeplab.physics import SweepResult, sweep
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
    answer: SweepResult
    """The turning sweep's answer, asked with the arguments the iterations were taken with."""


def advancement_target(scene: Scene, selected: str | None, earliest: str | None) -> str | None:
    """The target the panel shows: the selected one, else the earliest hit, else the
    first (None: the scene has no moving shape or no target)."""
    names = [o.name for o in scene.targets()] if scene.moving is not None else []
    for name in (selected, earliest):
        if name in names:
            return name
    return names[0] if names else None


def advancement_report(scene: Scene, target: str) -> AdvancementReport:
    """The iterations of the turning sweep of the scene's moving shape against
    ``target``, explained with that sweep's answer (asked here with the very
    arguments the iterations are taken with, so the two cannot disagree).
    ``ValueError`` for a motion or pair the physics refuses."""
    moving, target_object = scene.moving_object(), scene.object(target)
    moving_shape = build_shape(moving.kind, moving.params)
    target_shape = build_shape(target_object.kind, target_object.params)
    direction, rotation, pivot = (np.asarray(scene.direction, float), np.asarray(scene.rotation, float),
                                  pivot_of(scene))
    steps = advancement_steps(moving_shape, target_shape, direction, rotation=rotation, pivot=pivot,
                              interpolation=scene.interpolation)
    answer = sweep(moving_shape, target_shape, direction, rotation=rotation, pivot=pivot,
                   interpolation=scene.interpolation)
    overestimates = overestimates_of(steps)
    return AdvancementReport(target, steps, overestimates, explain(steps, overestimates, answer), answer)


def overestimates_of(steps: list[AdvanceStep]) -> np.ndarray:
    """bound_i / approach_i for consecutive iterations (module docstring); inf where
    the distance did not shrink."""
    ratios = []
    for step, following in zip(steps, steps[1:], strict=False):
        elapsed, closed = following.t - step.t, step.distance - following.distance
        ratios.append(step.bound * elapsed / closed if closed > 0 and elapsed > 0 else np.inf)
    return np.array(ratios, float)


def explain(steps: list[AdvanceStep], overestimates: np.ndarray, result: SweepResult | None) -> str:
    """What the iterations' numbers say: how many, how they ended (``result``: the
    sweep's answer), and, where the distance shrank, whether the bound was close to how
    fast it fell — a median overestimate of ``SLOW_OVERESTIMATE`` or more is a slow
    convergence.  Pairs of iterations where it did not shrink (the shapes not
    approaching there) are named, not counted as slow."""
    count = len(steps)
    lines = [f"{count} iteration{'s' if count != 1 else ''}."]
    advancement = None if result is None else result.advancement
    if advancement is not None and not advancement.converged:
        lines.append(f"The iteration budget ran out: no contact is certified before t = {advancement.safe_until:.6g}, "
                     "and no time of impact is reported.")
    elif result is not None and result.hit:
        lines.append(f"Contact at t = {result.t:.9g}.")
    elif result is not None:
        lines.append("No contact: the last advance went past t = 1.")
    shrank = np.isfinite(overestimates)
    if shrank.any():
        median = float(np.median(overestimates[shrank]))
        largest = int(np.argmax(np.where(shrank, overestimates, -np.inf)))
        if median >= SLOW_OVERESTIMATE:
            lines.append(f"Converged slowly: where the distance shrank, the speed bound was a median {median:.3g}x the "
                         f"speed at which it actually fell (largest {overestimates[largest]:.3g}x, iterations "
                         f"{largest} to {largest + 1}), so each step covered about 1/{median:.3g} of the gap left.")
        else:
            lines.append(f"Where the distance shrank, the speed bound was close to the speed at which it fell (a "
                         f"median {median:.3g}x): each step covered most of the gap left.")
    grew = np.flatnonzero(~shrank)
    if len(grew):
        more = f" (and {len(grew) - 1} later pair{'s' if len(grew) > 2 else ''})" if len(grew) > 1 else ""
        lines.append(f"From iteration {grew[0]} to {grew[0] + 1}{more} the distance did not shrink: the shapes were "
                     "not approaching there.")
    return " ".join(lines)

"""The exercises of the lessons that run the playground, judged by running it on a copy
of the student's scene.

* Lesson 11, *a tunnelling speed*: the ball, sent at the speed of the scene's
  direction with CCD off, passes the wall, and sent ``tolerance`` slower (relative) it
  is caught.  The speeds at which it tunnels are windows (``playground.tunnelling``),
  so this is a lower edge of one, found to within the tolerance.
* Lesson 12, *a hard corner hit*: the impulse the solver applies at the box's first
  contact with the floor is at least ``impulse`` N·s (shown beside the seed's j).
"""

from __future__ import annotations

from collections.abc import Callable

from sweeplab.playground.seed_impulse import MAX_STEPS, first_impulse_of
from sweeplab.playground.tunnelling import Outcome, tunnels
from sweeplab.scene.model import Scene

TUNNEL_TOLERANCE = 0.01
"""Lesson 11: how much slower (relative) the ball must be caught: 1%.  The narrowest
window of the lesson's scene below 170 m/s is 2.3% wide (33 to 33.75 m/s)."""


def judge_tunnelling(outcome_at: Callable[[float], Outcome], speed: float, tolerance: float) -> tuple[bool, str]:
    """(passed, what was measured): passed when the run at ``speed`` passes the wall and
    the run at speed·(1 - ``tolerance``) does not."""
    lower = speed * (1 - tolerance)
    at, below = outcome_at(speed), outcome_at(lower)
    said = (f"At {speed:.6g} m/s the ball {_said(at)}; {tolerance:.3g} slower, at {lower:.6g} m/s, it "
            f"{_said(below)}")
    if not at.passed:
        return False, f"{said}: at this speed it does not tunnel."
    if below.passed:
        return False, f"{said}: it tunnels at both, so the edge of this window is lower still."
    return True, f"{said}: a speed at which it starts to tunnel, to within {tolerance:.3g}."


def _said(outcome: Outcome) -> str:
    return (f"passes the wall in step {outcome.steps}" if outcome.passed
            else f"is caught (decided in step {outcome.steps})")


def tunnelling_speed(scene: Scene, wall: str, tolerance: float = TUNNEL_TOLERANCE,
                     dt: float = 1 / 60) -> tuple[bool, str]:
    """Lesson 11's exercise on ``scene``: its moving ball's speed (the length of the
    scene's direction, per second) judged by ``judge_tunnelling`` with CCD off."""
    speed = sum(component * component for component in scene.direction) ** 0.5
    if speed == 0:
        return False, "The ball has no speed: give its direction a length (m/s)."
    return judge_tunnelling(lambda sent: tunnels(scene, wall, sent, dt), speed, tolerance)


def corner_hit(scene: Scene, floor: str, impulse: float, restitution: float, friction: float,
               dt: float = 1 / 60, max_steps: int = MAX_STEPS) -> tuple[bool, str]:
    """Lesson 12's exercise on ``scene``: the solver's impulse at the moving body's first
    contact with ``floor`` (CCD on, within ``max_steps`` steps of ``dt``) is at least
    ``impulse``."""
    found = first_impulse_of(scene, floor, restitution, friction, dt, max_steps)
    if found is None:
        return False, f"The box does not reach {floor} in {max_steps} steps of {dt:.4g} s."
    said = (f"The first impulse at the {floor} is {found.event.impulse:.6g} N·s (the seed's j = {found.j:.6g}, "
            f"k = {found.denominator:.4g} 1/kg, v_rel·n = {float(found.velocity @ found.normal):.4g} m/s)")
    if found.event.impulse >= impulse:
        return True, f"{said}: at least {impulse:g} N·s."
    return False, f"{said}: less than {impulse:g} N·s."

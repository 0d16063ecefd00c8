"""The exercises of the lessons that run the playground (``view.exercises``: registered
checks), judged by running it on a copy of the student's scene.

* Lesson 11, ``tunnelling speed``: the ball, sent at the speed of the scene's
  direction with CCD off, passes the wall (the scene's polygon), and sent
  ``tolerance`` slower (relative) it is caught.  The speeds at which it tunnels are
  windows (``playground.tunnelling``), so this is a lower edge of one, found to within
  the tolerance.
* Lesson 12, ``corner impulse``: the seed's impulse j at the box's first contact with
  the floor (the scene's plane), at the contact's point, is at least ``impulse`` N·s
  (shown beside the solver's, which a box landing flat spreads over four points).
* Lesson 13, ``floating draft``: the moving body, turned as it is, floats in still
  water of ``water_density`` at a draft (``floating.equilibrium_draft``) within
  ``tolerance`` of ``draft``.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from sweeplab.playground.buoyancy import Water
from sweeplab.playground.floating import equilibrium_draft
from sweeplab.playground.run import body_of
from sweeplab.playground.seed_impulse import MAX_STEPS, first_impulse_of
from sweeplab.playground.world import GRAVITY
from sweeplab.playground.tunnelling import Outcome, tunnels
from sweeplab.scene.model import Scene
from sweeplab.view.exercises import Verdict, check, moving_of, target_of

TUNNEL_TOLERANCE = 0.01
"""Lesson 11: how much slower (relative) the ball must be caught: 1%.  The narrowest
window of the lesson's scene below 170 m/s is 2.3% wide (33 to 33.75 m/s)."""


def judge_tunnelling(outcome_at: Callable[[float], Outcome], speed: float, tolerance: float) -> Verdict:
    """Passed when the run at ``speed`` passes the wall and the run at
    speed·(1 - ``tolerance``) does not; the message says both runs."""
    lower = speed * (1 - tolerance)
    at, below = outcome_at(speed), outcome_at(lower)
    said = (f"At {speed:.6g} m/s the ball {_said(at)}; {tolerance:.3g} slower, at {lower:.6g} m/s, it "
            f"{_said(below)}")
    if not at.passed:
        return Verdict(False, f"{said}: at this speed it does not tunnel.")
    if below.passed:
        return Verdict(False, f"{said}: it tunnels at both, so the edge of this window is lower still.")
    return Verdict(True, f"{said}: a speed at which it starts to tunnel, to within {tolerance:.3g}.")


def _said(outcome: Outcome) -> str:
    return (f"passes the wall in step {outcome.steps}" if outcome.passed
            else f"is caught (decided in step {outcome.steps})")


@check("tunnelling speed", tolerance=TUNNEL_TOLERANCE, dt=1 / 60)
def tunnelling_speed(scene: Scene, args: dict) -> Verdict:
    """Lesson 11's exercise: the moving ball's speed (the length of the scene's
    direction, per second) judged by ``judge_tunnelling`` against the scene's polygon,
    CCD off, steps of ``dt``."""
    moving_of(scene, "sphere")
    wall = target_of(scene, "polygon")
    speed = math.hypot(*scene.direction)
    if speed == 0:
        return Verdict(False, "The ball has no speed: give its direction a length (m/s).")
    return judge_tunnelling(lambda sent: tunnels(scene, wall.name, sent, args["dt"]), speed, args["tolerance"])


@check("corner impulse", impulse=3.0, restitution=0.5, friction=0.0, dt=1 / 60, max_steps=MAX_STEPS)
def corner_impulse(scene: Scene, args: dict) -> Verdict:
    """Lesson 12's exercise: the seed's j at the moving box's first contact with the
    scene's plane (CCD on, the world's ``restitution`` and ``friction``, within
    ``max_steps`` steps of ``dt``) is at least ``impulse``."""
    moving_of(scene, "polyhedron")
    floor = target_of(scene, "plane")
    steps = int(args["max_steps"])
    found = first_impulse_of(scene, floor.name, args["restitution"], args["friction"], args["dt"], steps)
    if found is None:
        return Verdict(False, f"The box does not reach {floor.name} in {steps} steps of {args['dt']:.4g} s.")
    said = (f"At the first contact with the {floor.name} the seed's j = {found.j:.6g} N·s (k = "
            f"{found.denominator:.4g} 1/kg, v_rel·n = {float(found.velocity @ found.normal):.4g} m/s; the solver "
            f"applied {found.event.impulse:.6g} N·s over the contact's points)")
    if found.j >= args["impulse"]:
        return Verdict(True, f"{said}: at least {args['impulse']:g} N·s.")
    return Verdict(False, f"{said}: less than {args['impulse']:g} N·s.")


def judge_draft(measured: float | None, target: float, tolerance: float) -> Verdict:
    """Passed when the equilibrium draft ``measured`` (None: it sinks) is within
    ``tolerance`` of ``target``, |measured - target| <= tolerance."""
    if measured is None:
        return Verdict(False, "It sinks: it is at least as dense as the water.")
    said = f"It floats at a draft of {measured:.6g} m, {abs(measured - target):.3g} m from {target:g} m"
    if abs(measured - target) <= tolerance:
        return Verdict(True, f"{said}: within {tolerance:g} m.")
    return Verdict(False, f"{said}: more than {tolerance:g} m.")


@check("floating draft", water_density=2.0, draft=0.3, tolerance=0.005)
def floating_draft(scene: Scene, args: dict) -> Verdict:
    """Lesson 13's exercise: the moving body's equilibrium draft in still water of
    ``water_density`` (the playground's bodies have density 1, gravity -z), judged by
    ``judge_draft``."""
    moving = moving_of(scene, "polyhedron")
    up = -GRAVITY / float(math.hypot(*GRAVITY))
    body = body_of(moving)
    verdict = judge_draft(equilibrium_draft(body, Water(0.0, args["water_density"]), up), args["draft"],
                          args["tolerance"])
    return Verdict(verdict.passed, f"{moving.name}: m = {body.mass:.4g} kg. {verdict.message}")

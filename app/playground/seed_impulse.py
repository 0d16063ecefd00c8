"""The contact impulse of the seed texts, worked by hand at a contact of a run, beside
the one the world's solver applied there.

A body of mass m and world inverse inertia I⁻¹ meets a static shape at a point p, its
centre of mass at x (the arm r = p - x), with the contact normal n (from the shape
towards the body).  The point's velocity is v_rel = v + ω × r.  An impulse j·n at p
changes it along n by j·k, with

    k = 1/m + n · ((I⁻¹ (r × n)) × r)

(the seed's "velocity per unit impulse": torque per unit impulse r × n, turned into
rotation per unit impulse by I⁻¹, its velocity at the point (I⁻¹(r × n)) × r, and the
linear part 1/m).  A bounce with restitution e leaves with -e times the approach:

    j = -(1 + e) · (v_rel · n) / k.

The world resolves a contact with sequential impulses over the contact's points
(``impulses``, ``World._resolve``).  At one point with no friction that is this
j exactly.  Friction adds a tangential impulse whose torque changes the point's
normal velocity too, and the solver's normal impulse moves to cancel it; several
points share the impulse; a resting contact starts from last step's (warm start) and
aims at the support speed rather than a bounce.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sweeplab.playground.materials import Material, combined
from sweeplab.playground.run import PlaygroundRun
from sweeplab.playground.state import copy_of
from sweeplab.playground.world import ContactEvent, turned
from sweeplab.scene.model import Scene

MAX_STEPS = 600
"""Steps ``first_impulse_of`` waits for the contact (10 s at 1/60 s)."""


@dataclass(frozen=True)
class SeedImpulse:
    """The seed's impulse at a recorded contact: the body's ``mass``, its world
    ``inverse_inertia``, the ``arm`` r, ``normal`` n, ``velocity`` v_rel at the point
    (world, just before the impulse), ``restitution`` e, the ``denominator`` k and the
    impulse ``j``; the ``event`` whose impulse (``ContactEvent.impulse``, summed over the
    contact's points) the solver applied, in ``frame``."""

    frame: int
    event: ContactEvent
    mass: float
    inverse_inertia: np.ndarray
    arm: np.ndarray
    normal: np.ndarray
    velocity: np.ndarray
    restitution: float
    denominator: float
    j: float

    @property
    def difference(self) -> float:
        """The solver's impulse less the seed's, relative to the seed's."""
        return (self.event.impulse - self.j) / self.j


def seed_impulse(mass: float, inverse_inertia: np.ndarray, arm: np.ndarray, normal: np.ndarray,
                 velocity: np.ndarray, restitution: float) -> tuple[float, float]:
    """(k, j) of the module docstring: k = 1/m + n·((I⁻¹(r × n)) × r),
    j = -(1 + e)(v_rel·n)/k."""
    denominator = 1 / mass + float(normal @ np.cross(inverse_inertia @ np.cross(arm, normal), arm))
    return denominator, -(1 + restitution) * float(velocity @ normal) / denominator


def first_impulse(run: PlaygroundRun, body: str, static: str) -> SeedImpulse | None:
    """The seed's impulse at the first recorded contact between body ``body`` and the
    static shape ``static`` (None if the run has none), from the body's state at the
    contact: the frame before that step moved along its free flight to the event's
    time (x + v·τ + ½g·τ², v + g·τ, turned by ω·τ: the world's own motion between
    contacts; exact when the event is the body's first contact in that step).
    ``ValueError`` naming the argument for a body or a static shape the run lacks, a
    run with CCD off (its contacts are found after the step, the body pushed out of
    the overlap first), or a contact that is not the body's first in its step.  The
    restitution is the pair's (``materials.combined``); the world bounces nothing
    slower than its resting speed (``world.REST_SPEED``, 1.5·|g|·dt), where the seed's
    j still does."""
    if not run.world.ccd:
        raise ValueError("run: its world has CCD off; the seed's impulse is worked at a swept contact")
    if run.body(body) is None:
        raise ValueError(f"body: {body!r} is not a body of the run")
    if static not in run.world.statics:
        raise ValueError(f"static: {static!r} is not a static shape of the run")
    recorder = run.recorder
    for index in range(recorder.first + 1, recorder.last + 1):
        frame = recorder.frame(index)
        mine = [event for event in frame.events if body in (event.first, event.second)]
        if not any(event.second == static for event in mine):
            continue
        if mine[0].second != static:
            raise ValueError(f"static: {body!r} met {mine[0].second!r} before {static!r} in step {index}")
        return _at_event(run, index, body, mine[0])
    return None


def _at_event(run: PlaygroundRun, index: int, name: str, event: ContactEvent) -> SeedImpulse:
    before = run.recorder.frame(index - 1)
    body = next(copy_of(before.state, kept) for kept in before.state.world["bodies"] if kept.name == name)
    elapsed = event.time - before.time
    gravity = run.world.gravity
    position = body.position + body.velocity * elapsed + 0.5 * gravity * elapsed * elapsed
    rotation = turned(body.rotation, body.angular_velocity * elapsed)
    inverse_inertia = rotation @ np.linalg.inv(body.inertia) @ rotation.T
    arm = np.asarray(event.point, float) - position
    velocity = body.velocity + gravity * elapsed + np.cross(body.angular_velocity, arm)
    world = run.world
    default = Material(world.restitution, world.friction)
    restitution = combined(body.material or default, world.materials.get(event.second, default)).restitution
    normal = np.asarray(event.normal, float)
    denominator, j = seed_impulse(body.mass, inverse_inertia, arm, normal, velocity, restitution)
    return SeedImpulse(index, event, body.mass, inverse_inertia, arm, normal, velocity, restitution, denominator, j)


def first_impulse_of(scene: Scene, static: str, restitution: float, friction: float, dt: float = 1 / 60,
                     max_steps: int = MAX_STEPS) -> SeedImpulse | None:
    """Run the scene (its moving shape the one body, CCD on) until its first contact
    with the static shape ``static``, at most ``max_steps`` steps of ``dt``, and that
    contact's impulses (``first_impulse``); None if it never comes.  ``ValueError``
    naming the argument for a scene whose moving shape is no body or ``static`` no
    static shape of it (or a run that cannot be built: its message)."""
    if scene.moving is None:
        raise ValueError("scene must have a moving shape")
    run = PlaygroundRun(scene, set(), restitution, friction, ccd=True)
    if run.body(scene.moving) is None:
        raise ValueError(f"scene: its moving shape {scene.moving!r} is no playground body")
    if static not in run.world.statics:
        raise ValueError(f"static: {static!r} is not a static shape of the scene")
    for _ in range(max_steps):
        run.step(dt)
        if any(event.second == static for event in run.recorder.frame(run.recorder.position).events):
            return first_impulse(run, scene.moving, static)
    return None

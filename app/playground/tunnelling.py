"""Tunnelling: a fast body through a thin wall when the step is discrete (CCD off).

A discrete step moves the body the whole step, x₁ = x₀ + v·dt + ½g·dt², and then
looks for overlaps at x₁ only.  Against a wall of zero thickness (a polygon, a
plane), with the body's centre at signed distance s = n·x - o from the wall's
plane, a step is caught only when it ends within the body's radius r on its own
side, -r <= s₁ <= 0 for a body coming from s < 0: an overlap whose centre is past
the plane is pushed out forward, through the wall.  A step of travel
|v·dt| > r along n can jump that band: the body *passes* the wall, the ends of one
step on opposite sides of the plane.  Whether it does depends on where the steps
land (the phase), so the speeds at which a body tunnels are windows, not one
threshold; never while |v·dt| <= r.  The sweep of that step's chord finds the
contact the step missed (``PlaygroundRun.step_scene``: saved as a fixture, the
regression test of the tunnelling step).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sweeplab.physics import Plane, Polygon, SweepResult, sweep
from sweeplab.playground.run import PlaygroundRun
from sweeplab.scene.model import Scene
from sweeplab.scene.shape_kinds import build_shape

MAX_STEPS = 1200
"""Steps ``tunnels`` runs at most before it says the body never passed (20 s at 1/60 s)."""


@dataclass(frozen=True)
class Passing:
    """The recorded step in which a body's centre crossed a wall's plane: into
    ``frame``, from ``before`` to ``after`` (centres, world), their signed distances
    from the plane (``distance_before``, ``distance_after``: the wall's normal side
    positive), the body's ``radius`` (its reach), and the ``sweep`` of the step's
    chord against the wall (where the step began)."""

    frame: int
    before: np.ndarray
    after: np.ndarray
    distance_before: float
    distance_after: float
    radius: float
    sweep: SweepResult

    @property
    def jumped(self) -> bool:
        """Neither end of the step touches the wall: the discrete step saw nothing."""
        return min(abs(self.distance_before), abs(self.distance_after)) > self.radius


def wall_plane(shape) -> tuple[np.ndarray, float]:
    """The plane n·x = o of a flat wall (a ``Polygon`` or a ``Plane``), n a unit vector;
    ``ValueError`` naming ``shape`` for any other shape."""
    if isinstance(shape, Plane):
        return np.asarray(shape.normal, float), float(shape.offset)
    if isinstance(shape, Polygon):
        corners = np.asarray(shape.vertices, float)
        normal = np.cross(corners[1] - corners[0], corners[2] - corners[0])
        normal /= np.linalg.norm(normal)
        return normal, float(normal @ corners[0])
    raise ValueError(f"shape must be a flat wall (a polygon or a plane), got a {type(shape).__name__}")


def passing_step(run: PlaygroundRun, body: str, wall: str) -> Passing | None:
    """The first recorded step of the run in which body ``body``'s centre crossed the
    plane of the static wall ``wall``, None if it never did (or the frames before it
    are no longer kept).  ``ValueError`` naming the argument for a body or a wall the
    run does not have."""
    moving = run.body(body)
    if moving is None:
        raise ValueError(f"body: {body!r} is not a body of the run")
    if wall not in run.world.statics:
        raise ValueError(f"wall: {wall!r} is not a static shape of the run")
    normal, offset = wall_plane(run.world.statics[wall])
    recorder = run.recorder
    centres = [np.asarray(run.frame_scene(index).object(body).params["center"], float)
               for index in range(recorder.first, recorder.last + 1)]
    sides = [float(normal @ centre) - offset for centre in centres]
    for position in range(1, len(sides)):
        if (sides[position - 1] < 0) != (sides[position] < 0):
            frame = recorder.first + position
            return Passing(frame, centres[position - 1], centres[position], sides[position - 1], sides[position],
                           moving.reach(), step_sweep(run, body, wall, frame))
    return None


def step_sweep(run: PlaygroundRun, body: str, wall: str, frame: int) -> SweepResult:
    """The sweep of body ``body``'s step into recorded ``frame`` (its chord, from where
    the step began: ``PlaygroundRun.step_scene``) against the static ``wall``: a hit is
    the contact the discrete step missed; a miss, a body that went round the wall."""
    scene = run.step_scene(body, frame)
    if scene is None:
        raise ValueError(f"frame: the step into frame {frame} is not recorded")
    mover, target = scene.moving_object(), scene.object(wall)
    return sweep(build_shape(mover.kind, mover.params), build_shape(target.kind, target.params), scene.direction)


@dataclass(frozen=True)
class Outcome:
    """A run's answer: whether the body ``passed`` the wall, and after how many
    ``steps`` that was decided (its centre across, or its approach over)."""

    passed: bool
    steps: int


def tunnels(scene: Scene, wall: str, speed: float, dt: float = 1 / 60, restitution: float = 0.5,
            friction: float = 0.5, max_steps: int = MAX_STEPS) -> Outcome:
    """Whether the scene's moving body, sent at ``speed`` along the scene's direction
    with CCD off, passes through the static wall ``wall`` within ``max_steps`` steps of
    ``dt``.  The run stops as soon as its centre is across the wall's plane (an overlap
    past the centre is pushed out forward: nothing brings it back) — through the wall
    when that step's sweep hits it, else round its edge (no tunnel) — or it is
    no longer approaching the plane on its own side (caught: stopped or bounced; or
    sent away from it; gravity bringing it back later is not waited for).  ``ValueError``
    naming the argument for a scene without a moving shape or a direction, a wall it
    lacks, a speed that is not finite and > 0."""
    if scene.moving is None or not np.any(scene.direction):
        raise ValueError("scene must have a moving shape with a direction")
    if wall not in scene.names() or wall == scene.moving:
        raise ValueError(f"wall: {wall!r} is not a static shape of the scene")
    if not (np.isfinite(speed) and speed > 0):
        raise ValueError(f"speed must be a finite number > 0, got {speed!r}")
    sent = scene.copy()
    direction = np.asarray(scene.direction, float)
    sent.direction = (speed * direction / np.linalg.norm(direction)).tolist()
    run = PlaygroundRun(sent, set(), restitution, friction, ccd=False)
    body = run.body(scene.moving)
    if body is None:
        raise ValueError(f"scene: its moving shape {scene.moving!r} is no playground body")
    normal, offset = wall_plane(run.world.statics[wall])
    start = float(normal @ body.position) - offset
    for step in range(1, max_steps + 1):
        run.step(dt)
        side = float(normal @ body.position) - offset
        if (side < 0) != (start < 0):  # through the wall, or round its edge (the step's sweep misses it)
            return Outcome(step_sweep(run, body.name, wall, run.recorder.position).hit, step)
        if float(normal @ body.velocity) * side >= 0:
            return Outcome(False, step)
    return Outcome(False, max_steps)

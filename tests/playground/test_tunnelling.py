"""Tunnelling (``playground.tunnelling``): the discrete step that passes a thin wall,
found in a run's frames, its sweep's hit, and the speeds at which a ball tunnels.

The scene: a ball of radius 0.5 at x = -2.75 towards a polygon wall at x = 0, stepped
1/60 s.  With CCD off the k-th step ends at x_k = -2.75 + k·v/60 and is caught only
when -0.5 <= x_k <= 0 (an overlap past the centre is pushed out forward), so the ball
is caught for v/60 in [2.25/k, 2.75/k] and passes between: at v = 33 m/s, x_5 = 0
exactly; just above it x_5 > 0 (through); from 33.75 m/s x_4 >= -0.5 (caught) again.
"""

import numpy as np
import pytest

from sweeplab.physics import Plane, Sphere
from sweeplab.playground.run import PlaygroundRun
from sweeplab.playground.tunnelling import Outcome, passing_step, step_sweep, tunnels, wall_plane
from sweeplab.scene.model import Scene, SceneObject

WALL = SceneObject("wall", "polygon", {"vertices": [[0.0, -2.0, -2.0], [0.0, 2.0, -2.0], [0.0, 2.0, 4.0],
                                                    [0.0, -2.0, 4.0]]})
DT = 1 / 60


def ball_scene(speed: float, start: float = -2.75) -> Scene:
    return Scene([SceneObject("ball", "sphere", {"center": [start, 0.0, 1.5], "radius": 0.5}), WALL], "ball",
                 [speed, 0.0, 0.0])


def run_of(speed: float, steps: int, ccd: bool) -> PlaygroundRun:
    run = PlaygroundRun(ball_scene(speed), set(), 0.5, 0.5, ccd)
    for _ in range(steps):
        run.step(DT)
    return run


def test_the_step_that_jumps_the_wall_is_found_with_both_ends_and_the_sweep_that_catches_it():
    """120 m/s: 2 m a step; step 2 goes from x = -0.75 to 1.25, neither end within 0.5
    of the wall; its sweep meets the wall when the centre reaches -0.5, t = 0.25 / 2."""
    passing = passing_step(run_of(120.0, 4, ccd=False), "ball", "wall")
    assert passing is not None and passing.frame == 2 and passing.jumped
    assert (passing.distance_before, passing.distance_after) == (-0.75, 1.25)
    assert passing.sweep.hit and passing.sweep.t == 0.125
    np.testing.assert_array_equal(passing.sweep.normal, [-1.0, 0.0, 0.0])
    assert passing.sweep.point[0] == 0.0


def test_an_end_overlapping_past_the_centre_passes_but_did_not_jump():
    """60 m/s: x_3 = 0.25 overlaps the wall with the centre past it: pushed out forward."""
    passing = passing_step(run_of(60.0, 4, ccd=False), "ball", "wall")
    assert passing is not None and passing.frame == 3 and not passing.jumped
    assert passing.distance_after == pytest.approx(0.5, abs=1e-12)  # pushed out to the far side


def test_with_ccd_on_nothing_passes():
    run = run_of(120.0, 4, ccd=True)
    assert passing_step(run, "ball", "wall") is None
    assert run.world.events[0].time == pytest.approx(DT * (1 + 0.125), abs=1e-15)


@pytest.mark.parametrize("speed, passes", [
    (120.0, True), (33.0 * 1.005, True), (33.0 * 0.995, False),  # either side of x_5 = 0
    (33.75 * 0.995, True), (33.75 * 1.005, False),  # either side of x_4 = -0.5
    (10.0, False),  # a step shorter than the radius never jumps the band
])
def test_whether_the_ball_tunnels_follows_where_its_steps_land(speed, passes):
    assert tunnels(ball_scene(1.0), "wall", speed).passed is passes


@pytest.mark.parametrize("max_steps, passes", [(3, True), (2, True), (1, False)])
def test_tunnels_looks_max_steps_ahead(max_steps, passes):
    """120 m/s crosses the wall in step 2."""
    outcome = tunnels(ball_scene(1.0), "wall", 120.0, max_steps=max_steps)
    assert (outcome.passed, outcome.steps) == (passes, min(max_steps, 2))


def test_a_ball_stopped_at_the_wall_is_caught_at_once():
    """Restitution 0: the ball caught in step 5 (x_5 = -0.0125 at 32.85 m/s) stops at the
    wall, v·n = 0: not approaching any more."""
    assert tunnels(ball_scene(1.0), "wall", 32.85, restitution=0.0) == Outcome(False, 5)


def test_tunnels_stops_when_the_ball_moves_away():
    """A ball sent away from the wall is answered at once (it never comes)."""
    away = ball_scene(1.0)
    away.direction = [-1.0, 0.0, 0.0]
    assert tunnels(away, "wall", 50.0) == Outcome(False, 1)


@pytest.mark.parametrize("call, message", [
    (lambda: tunnels(ball_scene(1.0), "wall", 0.0), "speed must be a finite number > 0"),
    (lambda: tunnels(ball_scene(1.0), "wall", float("nan")), "speed must be"),
    (lambda: tunnels(ball_scene(1.0), "ghost", 10.0), "wall: 'ghost'"),
    (lambda: tunnels(ball_scene(1.0), "ball", 10.0), "wall: 'ball'"),
    (lambda: tunnels(ball_scene(0.0), "wall", 10.0), "scene must have a moving shape with a direction"),
    (lambda: passing_step(run_of(1.0, 0, False), "wall", "wall"), "body: 'wall'"),
    (lambda: passing_step(run_of(1.0, 0, False), "ball", "ghost"), "wall: 'ghost'"),
    (lambda: wall_plane(Sphere([0.0, 0.0, 0.0], 1.0)), "shape must be a flat wall"),
    (lambda: step_sweep(run_of(1.0, 0, False), "ball", "wall", 0), "frame: the step into frame 0 is not recorded"),
])
def test_bad_arguments_are_refused_naming_them(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_a_plane_is_a_wall_too():
    normal, offset = wall_plane(Plane([0.0, 0.0, 2.0], 3.0))
    np.testing.assert_array_equal(normal, [0.0, 0.0, 1.0])
    assert offset == 3.0


def test_regression_a_ball_that_falls_under_the_wall_did_not_tunnel():
    """Found through the exercise: at 0.55 m/s the ball takes 4 s to reach x = 0 and
    falls 123 m meanwhile, under the wall's lower edge (z = -2); its centre crossed the
    wall's plane, and that was read as tunnelling.  A crossing is a tunnel only when
    the step's sweep hits the wall."""
    assert tunnels(ball_scene(1.0), "wall", 0.55) == Outcome(False, 300)

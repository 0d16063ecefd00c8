"""The seed's contact impulse (``playground.seed_impulse``): by hand on cases with a
closed form, and at a box's corner contact against what the world's solver applied."""

import numpy as np
import pytest

from sweeplab.playground.run import PlaygroundRun
from sweeplab.playground.seed_impulse import first_impulse, seed_impulse
from sweeplab.playground.world import GRAVITY, turned
from sweeplab.scene.model import Scene, SceneObject

BRICK = [[x, y, z] for x in (-0.8, 0.8) for y in (-0.5, 0.5) for z in (-0.3, 0.3)]
"""Lesson 12's brick, 1.6 x 1.0 x 0.6 (0.96 kg at density 1)."""
TILT = turned(turned(np.eye(3), np.array([0.5, 0.0, 0.0])), np.array([0.0, 0.3, 0.0]))
"""A turn that leaves one corner of the brick lowest (by 0.46 below the next)."""
DT = 1 / 60


def corner_run(restitution: float, friction: float, steps: int = 12) -> PlaygroundRun:
    """The brick tilted corner-down at height 1.5 dropped at 3 m/s: it meets the floor
    in step 12, at 0.197 s."""
    box = SceneObject("box", "polyhedron", {"vertices": BRICK, "origin": [0.0, 0.0, 1.5], "axes": TILT.T.tolist()})
    floor = SceneObject("floor", "plane", {"normal": [0.0, 0.0, 1.0], "offset": 0.0})
    run = PlaygroundRun(Scene([box, floor], "box", [0.0, 0.0, -3.0]), set(), restitution, friction, True)
    for _ in range(steps):
        run.step(DT)
    return run


def test_a_head_on_hit_is_the_linear_impulse():
    """r parallel to n: no turn, k = 1/m; j = (1 + e)·m·|v|."""
    k, j = seed_impulse(2.0, np.eye(3) * 5.0, np.array([0.0, 0.0, -1.0]), np.array([0.0, 0.0, 1.0]),
                        np.array([0.0, 0.0, -4.0]), 0.5)
    assert (k, j) == (0.5, 12.0)


def test_an_arm_across_the_normal_adds_its_turn():
    """A rod's end, r = (1, 0, 0) across n = z, I⁻¹ = diag(3): (I⁻¹(r × n)) × r = (0, -3, 0) × (1, 0, 0)
    = (0, 0, 3), so k = 1/m + 3; e = 0 stops the point: j = 2 / (1 + 3)."""
    k, j = seed_impulse(1.0, np.eye(3) * 3.0, np.array([1.0, 0.0, 0.0]), np.array([0.0, 0.0, 1.0]),
                        np.array([0.0, 0.0, -2.0]), 0.0)
    assert (k, j) == (4.0, 0.5)


def test_with_no_friction_the_solver_applies_the_seeds_impulse_at_the_corner():
    found = first_impulse(corner_run(0.5, 0.0), "box", "floor")
    assert found is not None and found.frame == 12
    assert found.event.time == pytest.approx(0.1973452067890207, abs=1e-12)
    assert found.j == found.event.impulse == pytest.approx(2.1842820972298473, abs=1e-12)
    assert found.restitution == 0.5 and found.mass == pytest.approx(0.96, abs=1e-12)
    # the corner at the contact: on the floor, 0.717 below the centre (the tilt's lowest corner)
    assert found.arm[2] == pytest.approx(-0.7169385138309787, abs=1e-9)
    # the inverse inertia in world axes: R I^-1 R^T, not diagonal for the tilted brick
    moments = [0.96 / 3 * (0.5 ** 2 + 0.3 ** 2), 0.96 / 3 * (0.8 ** 2 + 0.3 ** 2), 0.96 / 3 * (0.8 ** 2 + 0.5 ** 2)]
    assert np.linalg.eigvalsh(found.inverse_inertia) == pytest.approx(np.sort(1 / np.array(moments)), abs=1e-9)
    assert abs(found.inverse_inertia[0, 2]) > 1.0
    assert found.velocity[2] < 0 and float(found.velocity @ found.normal) == pytest.approx(
        -3.0 + GRAVITY[2] * found.event.time, abs=1e-12)


def test_friction_at_a_corner_raises_the_solvers_normal_impulse_above_the_seeds():
    """The friction impulse turns the box and so moves the corner along n: the solver's
    normal impulse rises to 3.483 N·s where the one-shot seed says 2.184."""
    found = first_impulse(corner_run(0.5, 0.5), "box", "floor")
    assert found is not None and found.j == pytest.approx(2.1842820972298473, abs=1e-12)
    assert found.event.impulse == pytest.approx(3.4827370038958123, abs=1e-9)
    assert found.difference == pytest.approx(0.5945, abs=1e-4)


def test_without_a_bounce_the_solver_adds_the_support_speed():
    """e = 0: the seed's j only stops the corner (2/3 of e = 0.5's); the world's contact
    leaves at the support speed ½·|g|·(dt - τ) instead of 0, so its impulse is larger
    by that speed over k."""
    found = first_impulse(corner_run(0.0, 0.0), "box", "floor")
    assert found is not None and found.j == pytest.approx(2.1842820972298473 / 1.5, abs=1e-12)
    left = 12 * DT - found.event.time
    support = 0.5 * -GRAVITY[2] * left
    assert found.event.impulse - found.j == pytest.approx(support / found.denominator, abs=1e-12)


def test_no_contact_yet_is_none_and_bad_arguments_are_named():
    assert first_impulse(corner_run(0.5, 0.0, steps=3), "box", "floor") is None
    run = corner_run(0.5, 0.0, steps=0)
    with pytest.raises(ValueError, match="body: 'floor'"):
        first_impulse(run, "floor", "floor")
    with pytest.raises(ValueError, match="static: 'ghost'"):
        first_impulse(run, "box", "ghost")
    run.world.ccd = False
    with pytest.raises(ValueError, match="run: its world has CCD off"):
        first_impulse(run, "box", "floor")


def test_a_contact_after_another_in_its_step_is_refused():
    """A ball bouncing between a floor and a ceiling 0.2 above its reach meets the floor
    first in step 1, then the ceiling: the state at the ceiling is no free flight from
    the frame before."""
    ball = SceneObject("ball", "sphere", {"center": [0.0, 0.0, 0.6], "radius": 0.5})
    floor = SceneObject("floor", "plane", {"normal": [0.0, 0.0, 1.0], "offset": 0.0})
    ceiling = SceneObject("ceiling", "plane", {"normal": [0.0, 0.0, -1.0], "offset": -1.2})
    run = PlaygroundRun(Scene([ball, floor, ceiling], "ball", [0.0, 0.0, -30.0]), set(), 1.0, 0.0, True)
    run.step(DT)
    assert [event.second for event in run.world.events[:2]] == ["floor", "ceiling"]
    with pytest.raises(ValueError, match="static: 'ball' met 'floor' before 'ceiling' in step 1"):
        first_impulse(run, "ball", "ceiling")
    first = first_impulse(run, "ball", "floor")
    assert first.j == pytest.approx(first.event.impulse, rel=1e-13)  # a ball's arm is along n: k = 1/m


def test_a_drop_that_cannot_be_run_is_refused_naming_why():
    from sweeplab.playground.seed_impulse import first_impulse_of

    box = SceneObject("box", "polyhedron", {"vertices": BRICK, "origin": [0.0, 0.0, 1.5], "axes": TILT.T.tolist()})
    floor = SceneObject("floor", "plane", {"normal": [0.0, 0.0, 1.0], "offset": 0.0})
    dot = SceneObject("dot", "point", {"p": [0.0, 0.0, 3.0]})
    with pytest.raises(ValueError, match="scene must have a moving shape"):
        first_impulse_of(Scene([box, floor], None, [0.0, 0.0, 0.0]), "floor", 0.5, 0.0)
    with pytest.raises(ValueError, match="scene: its moving shape 'dot' is no playground body"):
        first_impulse_of(Scene([box, floor, dot], "dot", [0.0, 0.0, -1.0]), "floor", 0.5, 0.0)
    with pytest.raises(ValueError, match="static: 'box' is not a static shape of the scene"):
        first_impulse_of(Scene([box, floor], "box", [0.0, 0.0, -1.0]), "box", 0.5, 0.0)

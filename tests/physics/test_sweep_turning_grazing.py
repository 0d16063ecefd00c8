"""Turning sweeps (issue #35) that graze: built so that the closest approach over
the sweep is known — exactly 0, a few ulps either side, or a few times the kernels'
touching band ``tolerance.TURNING_TOUCH_RTOL`` either side — and judged by the
independent reference (``test_sweep_turning_properties.check_answer``).

* a sphere on an arm swinging through its lowest point over a plane (slerp and
  nlerp: both turn by half the angle at t = 1/2), or spinning several turns first;
* a box turning about its centre, whose bottom edge sweeps down to 5/4 below it
  (half extents 3/4 and 1 across the turn: a 3-4-5 triangle, exact) over a plane;
* a rod turning about one end, its end passing a point at 2 + gap from the pivot.

Within a few ulps either answer is right (a hit must touch there, a miss must not
skip an overlap); beyond the band a miss and a hit are the only right answers.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from sweeplab.physics import ConvexPolyhedron, Plane, Point, Segment, Sphere, tolerance
from tests.physics.test_sweep_turning_properties import Turning, check_answer
from tests.physics.turning_reference import rotation_matrices

ULP = 2.0 ** -52
BAND = tolerance.TURNING_TOUCH_RTOL
FEW_ULPS = [-4, -1, 0, 1, 4]


def arm_over_plane(gap: float, interpolation: str, turn: float = 2.0, before: float | None = None) -> Turning:
    """A sphere of radius 1/2 on an arm of 2 about (0, 0, 3), turning by ``turn`` about
    +x, its lowest point passing ``gap`` above the plane z = 0: the centre starts
    ``before`` radians (default half the turn) short of straight down."""
    before = turn / 2 if before is None else before
    start = rotation_matrices([-before, 0.0, 0.0], [1.0])[0] @ np.array([0.0, 0.0, -2.0])
    return Turning(Sphere(np.array([0.0, 0, 3]) + start, 0.5), Plane([0.0, 0, 1], 0.5 - gap), np.zeros(3),
                   np.array([turn, 0.0, 0.0]), np.array([0.0, 0, 3]), interpolation)


def box_over_plane(gap: float, interpolation: str) -> Turning:
    """A box of half extents (1/2, 3/4, 1) about (0, 0, 3) turning by 2 about +x: its
    edge at (y, z) = (-3/4, -1) comes down to 3 - 5/4 at φ = atan(3/4); the plane
    lies ``gap`` below that."""
    return Turning(ConvexPolyhedron.box([0.5, 0.75, 1.0], [0.0, 0, 3]), Plane([0.0, 0, 1], 1.75 - gap), np.zeros(3),
                   np.array([2.0, 0.0, 0.0]), None, interpolation)


def rod_past_point(gap: float, interpolation: str) -> Turning:
    """A rod of 2 along +x from the origin turning by 2 about +z; the point at
    (0, 2 + gap, 0), which its end passes at φ = π/2."""
    return Turning(Segment([0.0, 0, 0], [2.0, 0, 0]), Point([0.0, 2 + gap, 0]), np.zeros(3),
                   np.array([0.0, 0.0, 2.0]), np.array([0.0, 0, 0]), interpolation)


BUILDERS = {"arm": (arm_over_plane, 3.0), "box": (box_over_plane, 3.0), "rod": (rod_past_point, 2.0)}
"""Each construction and its size (``advancement.scale_of``: its largest coordinate)."""


def deepest(name: str, interpolation: str) -> float:
    """When the construction comes closest: the distance falls until then, rises after
    (the arm: half its turn at t = 1/2; the box: φ = atan(3/4) of 2; the rod: π/2 of 2)."""
    angle = {"arm": None, "box": math.atan(0.75), "rod": math.pi / 2}[name]
    if angle is None:
        return 0.5
    if interpolation == "slerp":
        return angle / 2
    half = math.tan(angle / 2)  # nlerp: t = tan(φ/2) / (sin(θ/2) + tan(φ/2) (1 - cos(θ/2))), θ = 2
    return half / (math.sin(1.0) + half * (1 - math.cos(1.0)))


@pytest.mark.parametrize("ulps", FEW_ULPS)
@pytest.mark.parametrize("interpolation", ["slerp", "nlerp"])
@pytest.mark.parametrize("name", sorted(BUILDERS))
def test_a_graze_within_a_few_ulps_is_answered_either_way_but_right(name, interpolation, ulps):
    build, size = BUILDERS[name]
    turning = build(ulps * ULP * size, interpolation)
    check_answer(turning, turning.answer(), deepest(name, interpolation))


@pytest.mark.parametrize("interpolation", ["slerp", "nlerp"])
@pytest.mark.parametrize("name", sorted(BUILDERS))
def test_a_pass_beyond_the_band_is_a_miss(name, interpolation):
    build, size = BUILDERS[name]
    turning = build(4 * BAND * size, interpolation)
    answer = turning.answer()
    assert not answer.hit, answer
    check_answer(turning, answer, deepest(name, interpolation))


@pytest.mark.parametrize("interpolation", ["slerp", "nlerp"])
@pytest.mark.parametrize("name", sorted(BUILDERS))
def test_an_overlap_beyond_the_band_is_a_hit_before_the_deepest_point(name, interpolation):
    build, size = BUILDERS[name]
    turning = build(-4 * BAND * size, interpolation)
    answer = turning.answer()
    assert answer.hit, answer
    check_answer(turning, answer, deepest(name, interpolation))
    assert answer.t <= deepest(name, interpolation)


@pytest.mark.parametrize("turns", [2, 5])
@pytest.mark.parametrize("gap_in_bands", [-4, 0, 4])
def test_a_fast_spin_grazes_on_its_first_pass(turns, gap_in_bands):
    """The arm spinning ``turns`` full turns and a half: it passes its lowest point
    first 1/2 rad in, at t = 0.5 / θ, then once every turn."""
    turn = 2 * math.pi * turns + math.pi
    turning = arm_over_plane(gap_in_bands * BAND * 3.0, "slerp", turn, before=0.5)
    answer = turning.answer()
    check_answer(turning, answer, 0.5 / turn)
    if gap_in_bands < 0:
        assert answer.hit and answer.t <= 0.5 / turn
    elif gap_in_bands > 0:
        assert not answer.hit

"""Turning sweeps (issue #35) whose answers are worked out by hand: a rod turning
about one end onto a sphere, a box's edge dropping onto a plane by turning alone, an
arm swinging a sphere into a wall with no translation, spins that change nothing.

The nlerp time of a turn to the angle φ out of θ inverts
φ(t) = 2 atan2(t sin(θ/2), 1 - t + t cos(θ/2)): with T = tan(φ/2),

    T (1 - t (1 - cos θ/2)) = t sin θ/2   =>   t = T / (sin θ/2 + T (1 - cos θ/2)).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from sweeplab.physics import Capsule, ConvexPolyhedron, Plane, Segment, Sphere, sweep, tolerance

EXACT = tolerance.EXACT_RTOL


def nlerp_time(phi: float, theta: float) -> float:
    """The t at which an nlerp turn by ``theta`` has turned ``phi`` (module docstring)."""
    half = math.tan(phi / 2)
    return half / (math.sin(theta / 2) + half * (1 - math.cos(theta / 2)))


def turn_time(phi: float, theta: float, interpolation: str) -> float:
    return phi / theta if interpolation == "slerp" else nlerp_time(phi, theta)


@pytest.mark.parametrize("interpolation", ["slerp", "nlerp"])
@pytest.mark.parametrize("moving", [Segment([0.0, 0, 0], [2.0, 0, 0]), Capsule([0.0, 0, 0], [2.0, 0, 0], 0.0)])
def test_a_rod_turning_about_its_end_meets_a_sphere(moving, interpolation):
    """A rod of length 2 along +x from the pivot (the origin) turns by θ = 2.5 about
    +z towards a sphere of radius 1/4 whose centre c is 3/2 from the pivot at the
    angle α = π/3.  Its distance to the rod at the rod's angle φ is (3/2) sin(α - φ)
    (the foot (3/2) cos(α - φ) lies on the rod), so it touches at
    φ = α - asin(1/6): at t = φ/θ (slerp), with the normal from c square to the rod
    and the point 1/4 from c along it."""
    theta, alpha, rho, radius = 2.5, math.pi / 3, 1.5, 0.25
    center = np.array([rho * math.cos(alpha), rho * math.sin(alpha), 0.0])
    phi = alpha - math.asin(radius / rho)
    answer = sweep(moving, Sphere(center, radius), [0.0, 0, 0], rotation=[0.0, 0, theta], pivot=[0.0, 0, 0],
                   interpolation=interpolation)
    assert answer.hit and not answer.initially_overlapping
    assert answer.t == pytest.approx(turn_time(phi, theta, interpolation), abs=EXACT)
    along = np.array([math.cos(phi), math.sin(phi), 0.0])
    foot = (center @ along) * along
    normal = (foot - center) / np.linalg.norm(foot - center)
    np.testing.assert_allclose(answer.normal, normal, rtol=0, atol=EXACT)
    np.testing.assert_allclose(answer.point, center + radius * normal, rtol=0, atol=EXACT)
    assert answer.feature.kind == "face"
    assert answer.moving_feature.kind == "edge"


@pytest.mark.parametrize("interpolation", ["slerp", "nlerp"])
def test_a_box_edge_drops_onto_a_plane_by_turning_alone(interpolation):
    """A box of half extents (1/2, 3/4, 1) centred 1.2 above the plane z = 0 turns
    by θ = 1 about +x through its centre (the default pivot), no translation.  Its
    bottom edge at (y, z) = (-3/4, -1) is at height 1.2 - (3/4) sin φ - cos φ =
    1.2 - (5/4) cos(φ - φ*), φ* = atan(3/4), lowest of the box for φ in (0, θ): it
    touches at φ = φ* - acos(0.96), its whole length (x in [-1/2, 1/2]) on the
    plane."""
    theta = 1.0
    box = ConvexPolyhedron.box([0.5, 0.75, 1.0], [0.0, 0, 1.2])
    phi = math.atan(0.75) - math.acos(1.2 / 1.25)
    answer = sweep(box, Plane([0.0, 0, 1], 0.0), [0.0, 0, 0], rotation=[theta, 0, 0], interpolation=interpolation)
    assert answer.hit
    assert answer.t == pytest.approx(turn_time(phi, theta, interpolation), abs=EXACT)
    np.testing.assert_allclose(answer.normal, [0.0, 0, 1], rtol=0, atol=EXACT)
    y = -0.75 * math.cos(phi) + math.sin(phi)
    assert answer.point[2] == pytest.approx(0.0, abs=EXACT)
    assert answer.point[1] == pytest.approx(y, abs=EXACT)
    assert -0.5 - EXACT <= answer.point[0] <= 0.5 + EXACT
    assert answer.moving_feature.kind in ("edge", "vertex")  # the edge, or one of its ends


@pytest.mark.parametrize("interpolation", ["slerp", "nlerp"])
def test_an_arm_swings_a_sphere_into_a_wall_without_translating(interpolation):
    """A sphere of radius 1/2 at (2, 0, 0) on an arm about the origin turns by π/2
    about +z, its centre at 2 (cos φ, sin φ, 0), toward the wall y = 1: it touches
    when 2 sin φ + 1/2 = 1, φ = asin(1/4), at (2 cos φ, 1, 0) with the normal -y."""
    theta = math.pi / 2
    phi = math.asin(0.25)
    answer = sweep(Sphere([2.0, 0, 0], 0.5), Plane([0.0, 1, 0], 1.0), [0.0, 0, 0], rotation=[0.0, 0, theta],
                   pivot=[0.0, 0, 0], interpolation=interpolation)
    assert answer.hit
    assert answer.t == pytest.approx(turn_time(phi, theta, interpolation), abs=EXACT)
    np.testing.assert_allclose(answer.normal, [0.0, -1, 0], rtol=0, atol=EXACT)
    np.testing.assert_allclose(answer.point, [2 * math.cos(phi), 1.0, 0.0], rtol=0, atol=EXACT)


@pytest.mark.parametrize("interpolation", ["slerp", "nlerp"])
def test_a_spin_about_the_direction_changes_nothing_for_a_capsule_along_it(interpolation):
    """A capsule along z (radius 1/2, from z = 2 to 3) falls by 2 onto the plane z = 0
    spinning about its own axis: it touches as the linear sweep does, at t = 3/4."""
    capsule = Capsule([0.0, 0, 2], [0.0, 0, 3], 0.5)
    answer = sweep(capsule, Plane([0.0, 0, 1], 0.0), [0.0, 0, -2], rotation=[0.0, 0, 3.0],
                   interpolation=interpolation)
    linear = sweep(capsule, Plane([0.0, 0, 1], 0.0), [0.0, 0, -2])
    assert answer.hit and linear.t == 0.75
    assert answer.t == pytest.approx(0.75, abs=EXACT)
    np.testing.assert_allclose(answer.point, linear.point, rtol=0, atol=EXACT)
    np.testing.assert_allclose(answer.normal, linear.normal, rtol=0, atol=EXACT)


@pytest.mark.parametrize("rotation", [[0.0, 0, 0.5], [3.0, -1.0, 2.0], [0.0, 40.0, 0.0]])
def test_a_sphere_turning_about_its_centre_is_the_linear_sweep(rotation):
    """A sphere is round: turned about its centre (the default pivot), it sweeps as
    it translates, here onto a box's top face (z = 1) from z = 3, radius 1/2: t = 3/4."""
    answer = sweep(Sphere([0.25, -0.5, 3.0], 0.5), ConvexPolyhedron.box([1.0, 1, 1]), [0.0, 0, -2],
                   rotation=rotation)
    assert answer.hit and answer.t == pytest.approx(0.75, abs=EXACT)
    np.testing.assert_allclose(answer.point, [0.25, -0.5, 1.0], rtol=0, atol=EXACT)
    np.testing.assert_allclose(answer.normal, [0.0, 0, 1], rtol=0, atol=EXACT)


@pytest.mark.parametrize("interpolation", ["slerp", "nlerp"])
def test_a_rod_that_turns_short_of_the_sphere_misses(interpolation):
    """The rod of the first case turned by only α - asin(1/6) - 0.01: it stops
    0.01 rad short of touching."""
    alpha, radius = math.pi / 3, 0.25
    theta = alpha - math.asin(radius / 1.5) - 0.01
    center = [1.5 * math.cos(alpha), 1.5 * math.sin(alpha), 0.0]
    answer = sweep(Segment([0.0, 0, 0], [2.0, 0, 0]), Sphere(center, radius), [0.0, 0, 0],
                   rotation=[0.0, 0, theta], pivot=[0.0, 0, 0], interpolation=interpolation)
    assert not answer.hit and answer.advancement.converged and answer.advancement.safe_until == 1.0

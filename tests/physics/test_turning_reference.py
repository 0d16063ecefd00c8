"""The turning sweeps' slow reference (``tests.physics.turning_reference``) checked on
its own: its rotations against a second derivation, its speed bound against finite
differences, its distance against the exact (rational) brute-force bodies, its search
against known crossings, and the whole against the linear kernels at zero rotation."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from sweeplab.physics import Capsule, ConvexPolyhedron, Plane, Point, Segment, Sphere, Triangle, sweep, tolerance
from tests.physics.bodies import Body, body_of
from tests.physics.bodies import core_distance as core_distance_exactly
from tests.physics.strategies import unit_vector
from tests.physics.test_sweep_turning_properties import Turning, check_answer, turnings
from tests.physics.turning_reference import (RESOLUTION, TurningSweep, Undecided, centroid, core_distance,
                                             largest_angular_speed, rotation_matrices)

SETTINGS = settings(max_examples=30, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
angles = st.floats(0.0, math.pi, exclude_max=True)
axes = unit_vector.map(lambda v: v / np.linalg.norm(v))
TIMES = np.linspace(0.0, 1.0, 33)


@SETTINGS
@given(axes, st.floats(0.0, 40.0), st.sampled_from(["slerp", "nlerp"]))
def test_rotations_are_proper_and_keep_the_axis(axis, angle, interpolation):
    angle = min(angle, math.nextafter(math.pi, 0)) if interpolation == "nlerp" else angle
    matrices = rotation_matrices(axis * angle, TIMES, interpolation)
    np.testing.assert_allclose(matrices @ np.swapaxes(matrices, 1, 2), np.broadcast_to(np.eye(3), matrices.shape),
                               atol=1e-14)
    np.testing.assert_allclose(np.linalg.det(matrices), 1.0, atol=1e-14)
    np.testing.assert_allclose(matrices @ axis, np.broadcast_to(axis, (len(TIMES), 3)), atol=1e-14)
    np.testing.assert_array_equal(matrices[0], np.eye(3))


@SETTINGS
@given(axes, st.floats(0.0, 20.0), st.floats(0.0, 1.0), st.floats(0.0, 1.0))
def test_slerp_turns_at_a_constant_rate(axis, angle, first, second):
    """R(a) R(b) = R(a + b): one rotation at a constant angular velocity."""
    product = rotation_matrices(axis * angle, [first], "slerp")[0] @ rotation_matrices(axis * angle, [second])[0]
    np.testing.assert_allclose(product, rotation_matrices(axis * angle, [first + second])[0], atol=1e-13)


def _turn_about(axis, angles_) -> np.ndarray:
    """Rotations by ``angles_`` about ``axis``, by the matrix exponential (numpy's
    eigen-free route: the series of [k]x summed to convergence)."""
    k = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    result = []
    for angle in angles_:
        term, total = np.eye(3), np.eye(3)
        for n in range(1, 60):
            term = term @ (angle * k) / n
            total = total + term
        result.append(total)
    return np.array(result)


@SETTINGS
@given(axes, angles)
def test_nlerp_is_the_turn_by_twice_the_quaternion_angle(axis, angle):
    """nlerp's normalized quaternion turns about the fixed axis by
    φ(t) = 2 atan2(t sin θ/2, 1 - t + t cos θ/2): a second derivation (and the slerp
    matrices are the exponential of t [r]x)."""
    phi = 2 * np.arctan2(TIMES * math.sin(angle / 2), 1 - TIMES + TIMES * math.cos(angle / 2))
    np.testing.assert_allclose(rotation_matrices(axis * angle, TIMES, "nlerp"), _turn_about(axis, phi), atol=1e-13)
    np.testing.assert_allclose(rotation_matrices(axis * angle, TIMES, "slerp"), _turn_about(axis, TIMES * angle),
                               atol=1e-13)


@pytest.mark.parametrize("angle", [0.1, 1.0, 2.0, 3.0, math.nextafter(math.pi, 0)])
def test_nlerp_angular_speed_peaks_at_four_tan_quarter_angle(angle):
    """The finite-difference angular speed of the nlerp turn peaks at t = 1/2 at
    4 tan(θ/4), never above, and is slower at the ends (slerp's is θ throughout)."""
    times = np.linspace(0.0, 1.0, 20001)
    phi = 2 * np.arctan2(times * math.sin(angle / 2), 1 - times + times * math.cos(angle / 2))
    speed = np.diff(phi) / np.diff(times)
    bound = largest_angular_speed(angle, "nlerp")
    assert bound == 4 * math.tan(angle / 4)
    assert speed.max() <= bound * (1 + 1e-12)
    assert speed.max() >= bound * (1 - 1e-7)
    assert abs(times[np.argmax(speed)] - 0.5) <= 1e-4
    assert largest_angular_speed(angle, "slerp") == angle


def test_nlerp_refuses_half_a_turn_or_more():
    largest_angular_speed(math.nextafter(math.pi, 0), "nlerp")
    for angle in (math.pi, math.nextafter(math.pi, 4)):
        with pytest.raises(ValueError, match="rotation: nlerp cannot turn"):
            largest_angular_speed(angle, "nlerp")


@SETTINGS
@given(turnings())
def test_the_distance_never_changes_faster_than_the_bound(turning):
    """The sampled distance's difference quotients stay within L = |d| + ω ρ."""
    reference = turning.reference()
    times = np.linspace(0.0, 1.0, 257)
    gaps = reference.gaps(times)
    rounding = 64 * np.finfo(float).eps * turning.scale
    assert np.all(np.abs(np.diff(gaps)) <= reference.speed_bound * np.diff(times) + rounding)


def _body_at(reference: TurningSweep, t: float) -> Body:
    posed = reference.posed([t])
    as_tuples = lambda array: tuple(map(tuple, array.tolist()))  # noqa: E731
    return Body(as_tuples(posed.corners[0]), tuple(map(as_tuples, posed.triangles[0])),
                tuple(map(as_tuples, posed.edges[0])), posed.solid, posed.radius)


@SETTINGS
@given(turnings(target_kinds=("point", "sphere", "segment", "capsule", "triangle", "polygon", "polyhedron")),
       st.floats(0.0, 1.0))
@example(Turning(ConvexPolyhedron.box([1.0, 1, 1], [0.0, 0, 2]), Point([0.0, 0, 0]), np.array([0.0, 0, -2]),
                 np.zeros(3), None, "slerp"), 0.0)
def test_the_distance_is_the_brute_force_bodies_distance(turning, t):
    """At any pose, the NumPy feature distance of the cores is
    ``tests.physics.bodies.core_distance`` (exact intersection tests in rationals) to
    round-off.  The example: a point below a box
    face's centre, which lies on the diagonal of the face's fan; the corner-face
    distance took only projections strictly inside a fan triangle and answered
    sqrt(2) (to the nearest edge) for 1."""
    reference = turning.reference()
    expected = core_distance_exactly(_body_at(reference, t), body_of(turning.target))
    assert float(core_distance(reference.posed([t]), reference.targets[0])[0]) == pytest.approx(
        expected, abs=tolerance.EXACT_RTOL * turning.scale)


@pytest.mark.parametrize(("moving", "target", "depth"), [
    # boxes overlapping by 0.25 along x (the least of x 0.25, y 2, z 2)
    (ConvexPolyhedron.box([1.0, 1, 1], [1.75, 0, 0]), ConvexPolyhedron.box([1.0, 1, 1]), 0.25),
    # a sphere's centre 0.125 inside a box face, radius 0.5: 0.625 deep
    (Sphere([0.0, 0, 0.875], 0.5), ConvexPolyhedron.box([1.0, 1, 1]), 0.625),
    # a segment through a triangle, 0.375 from its edge y = 0: its shortest way out
    (Segment([0.0, 0.375, -1], [0.0, 0.375, 1]), Triangle([-1.0, 0, 0], [1.0, 0, 0], [0.0, 1, 0]), 0.375),
    # a capsule across a plane, ends 0.25 below and 1.5 above, radius 0.5: 0.75 deep
    (Capsule([0.0, 0, -0.25], [0.0, 0, 1.5], 0.5), Plane([0.0, 0, 1], 0.0), 0.75),
    # a point in a triangle and crossing segments: no volume, depth 0 (radii only)
    (Sphere([0.25, 0.25, 0], 0.5), Triangle([0.0, 0, 0], [1.0, 0, 0], [0.0, 1, 0]), 0.5),
    (Segment([-1.0, 0, 0], [1.0, 0, 0]), Segment([0.0, -1, 0], [0.0, 1, 0]), 0.0),
    # found by CI's hypothesis (test_thin_shapes_agree_with_the_reference): a point on a
    # sliver triangle, c the midpoint of a and b but for b's last bit; the cross product
    # of its edges, 1.4e-17 long, is round-off, and as a separating axis it read 0.044 deep
    (Point([1.25, 0.75, 0.6875]), Triangle([1.0, 1.5, 1.375], [1.4999999999999998, 0, 0], [1.25, 0.75, 0.6875]), 0.0),
])
def test_intersecting_shapes_are_minus_their_penetration_depth_apart(moving, target, depth):
    reference = TurningSweep(moving, target, (0.0, 0, 0), (0.0, 0, 0))
    assert float(reference.gaps([0.0])[0]) == pytest.approx(-depth, abs=1e-15)


def test_a_crossing_is_bracketed_within_the_resolution():
    """A sphere falling on a plane (d(t) = 1 - 2t: crossing at 1/2)."""
    reference = TurningSweep(Sphere([0.0, 0, 2], 1.0), Plane([0.0, 0, 1], 0.0), (0.0, 0, -2), (0.0, 0, 0))
    bracket = reference.first_below(0.0)
    assert bracket.lower <= 0.5 <= bracket.upper
    assert 0 < bracket.upper - bracket.lower <= RESOLUTION
    assert reference.first_below(-0.5).upper == pytest.approx(0.75, abs=RESOLUTION)
    assert reference.first_below(-1.5) == reference.first_below(-1.5)  # deterministic
    assert reference.first_below(-1.5).upper is None and reference.first_below(-1.5).lower == 1.0


def test_the_budget_is_a_limit_on_evaluations():
    reference = TurningSweep(Sphere([0.0, 0, 2], 1.0), Plane([0.0, 0, 1], 0.0), (0.0, 0, -2), (0.0, 0, 0))
    needed = reference.first_below(0.0).evaluations
    assert reference.first_below(0.0, budget=needed).evaluations == needed
    with pytest.raises(Undecided):
        reference.first_below(0.0, budget=needed - 1)


def test_a_graze_at_the_level_is_undecided_not_answered():
    """A sphere on an arm swinging through its lowest point (t = 1/2) just onto a
    plane, 1e-15 above the level: the bound cannot tell the graze from touching, and
    the search says so rather than guess."""
    reference = TurningSweep(Sphere([0.0, 2, 2.5], 0.5), Plane([0.0, 0, 1], 0.0), (0.0, 0, 0),
                             (-math.pi, 0.0, 0.0), pivot=(0.0, 0.0, 2.5))
    assert float(reference.gaps([0.5])[0]) == pytest.approx(0.0, abs=1e-15)
    with pytest.raises(Undecided):
        reference.first_below(-1e-15, budget=5000)
    assert reference.first_below(-1e-3).upper is None


@pytest.mark.parametrize(("shape", "expected"), [
    (Sphere([1.0, 2, 3], 0.5), [1.0, 2, 3]),
    (Point([1.0, 2, 3]), [1.0, 2, 3]),
    (Capsule([0.0, 0, 0], [2.0, 4, 6], 1.0), [1.0, 2, 3]),
    (Segment([0.0, 0, 0], [2.0, 4, 6]), [1.0, 2, 3]),
    (ConvexPolyhedron.box([1.0, 2, 3], [4.0, 5, 6]), [4.0, 5, 6]),
    # a square pyramid, base [-1, 1]^2 at z = 0, apex at z = 4: the volume centroid is
    # at a quarter of the height (the vertex mean is at 0.8)
    (ConvexPolyhedron([[-1.0, -1, 0], [1, -1, 0], [1, 1, 0], [-1, 1, 0], [0, 0, 4]]), [0.0, 0, 1]),
])
def test_centroid(shape, expected):
    np.testing.assert_allclose(centroid(shape), expected, rtol=0, atol=1e-15)


@SETTINGS
@given(turnings(interpolation="slerp"))
def test_at_zero_rotation_the_reference_agrees_with_the_linear_kernels(turning):
    """The reference judges every linear sweep of the kernels correct (they are
    checked against other references elsewhere): its distance and search are sound."""
    linear = Turning(turning.moving, turning.target, turning.direction, np.zeros(3), turning.pivot, "slerp")
    check_answer(linear, sweep(linear.moving, linear.target, linear.direction))


@pytest.mark.parametrize(("moving", "target", "floor"), [
    (Sphere([0.0, 0, 2], 0.5), Triangle([0.0, 0, 0], [1.0, 0, 0], [0.0, 1, 0]), -0.5),  # 0 + 2 < 3
    (Segment([0.0, 0, 2], [1.0, 0, 2]), Capsule([0.0, 0, 0], [0.0, 1, 0], 0.25), -0.25),  # 1 + 1 < 3
    (Segment([0.0, 0, 2], [1.0, 0, 2]), Triangle([0.0, 0, 0], [1.0, 0, 0], [0.0, 1, 0]), -math.inf),  # 1 + 2
    (Point([0.0, 0, 2]), ConvexPolyhedron.box([1.0, 1, 1]), -math.inf),  # 0 + 3
    (Segment([0.0, 0, 2], [1.0, 0, 2]), Plane([0.0, 0, 1], 0.0), -math.inf),  # a plane counts as 2
    (Point([0.0, 0, 2]), Plane([0.0, 0, 1], 0.0), 0.0),
])
def test_the_floor_is_minus_the_radii_only_without_volume(moving, target, floor):
    """Cores whose dimensions sum below 3 cannot be deeper than their radii; any other
    pair can (a segment through a triangle, a point in a box)."""
    assert TurningSweep(moving, target, (0.0, 0, 0), (0.0, 0, 1)).floor == floor

"""Hand-worked turning sweeps (``physics.sweep.turning``): exact times, the zero turn,
the answer's fields, bad input."""

import math

import numpy as np
import pytest

from sweeplab.physics import Capsule, ConvexPolyhedron, Motion, Plane, Point, Sphere, TriangleMesh, sweep
from sweeplab.physics.sweep.turning import advancement_steps, centroid, posed, speed_bound, time_of_impact

TIGHT = 1e-13


def rod_meets_ball_angle(length, center_distance, angle_of_center, radius):
    """The turn about the rod's end (a radius-0 capsule along x) at which its line first
    comes within ``radius`` of a ball at polar angle ``angle_of_center``: the line's
    distance to the center is center_distance sin(angle_of_center - φ)."""
    assert math.sqrt(center_distance ** 2 - radius ** 2) <= length  # the foot of the perpendicular is on the rod
    return angle_of_center - math.asin(radius / center_distance)


def test_a_rod_turning_about_its_end_meets_a_ball_when_its_line_is_a_radius_away():
    rod = Capsule((0.0, 0.0, 0.0), (2.0, 0.0, 0.0), 0.0)
    ball = Sphere((math.sqrt(2.0), math.sqrt(2.0), 0.0), 0.1)
    result = sweep(rod, ball, (0.0, 0.0, 0.0), rotation=(0.0, 0.0, math.pi / 2), pivot=(0.0, 0.0, 0.0))
    expected = rod_meets_ball_angle(2.0, 2.0, math.pi / 4, 0.1) / (math.pi / 2)
    assert result.hit and result.t == pytest.approx(expected, abs=TIGHT)
    assert result.advancement.converged and 0 < result.advancement.iterations < 20
    # the normal points from the ball towards the rod, across the rod
    phi = math.pi / 2 * result.t
    assert result.normal == pytest.approx([math.sin(phi), -math.cos(phi), 0.0], abs=1e-9)
    assert np.linalg.norm(result.point - ball.center) == pytest.approx(0.1, abs=1e-12)
    assert result.feature.kind == "face" and result.moving_feature.kind == "edge"


def test_nlerp_reaches_the_same_angle_at_its_own_time():
    """nlerp turns φ(t) = 2 atan2(t sin(θ/2), 1 - t + t cos(θ/2)): the rod meets the
    ball at the t where φ(t) is the contact angle."""
    theta = math.pi / 2
    rod = Capsule((0.0, 0.0, 0.0), (2.0, 0.0, 0.0), 0.0)
    ball = Sphere((math.sqrt(2.0), math.sqrt(2.0), 0.0), 0.1)
    result = sweep(rod, ball, (0.0, 0.0, 0.0), rotation=(0.0, 0.0, theta), pivot=(0.0, 0.0, 0.0),
                   interpolation="nlerp")
    contact = rod_meets_ball_angle(2.0, 2.0, math.pi / 4, 0.1)
    # invert φ: tan(φ/2) = t s / (1 - t + t c)  =>  t = T / (s + T (1 - c)), T = tan(φ/2)
    half_tan, s, c = math.tan(contact / 2), math.sin(theta / 2), math.cos(theta / 2)
    assert result.t == pytest.approx(half_tan / (s + half_tan * (1 - c)), abs=TIGHT)


def test_a_turning_box_meets_a_plane_and_a_slab_with_its_top_at_the_same_time():
    box = ConvexPolyhedron.box((0.5, 0.5, 0.5), center=(0.0, 0.0, 1.0))
    on_plane = sweep(box, Plane((0.0, 0.0, 1.0), 0.1), (0.0, 0.0, -0.2), rotation=(0.8, 0.0, 0.0))
    on_slab = sweep(box, ConvexPolyhedron.box((2.0, 2.0, 0.1)), (0.0, 0.0, -0.2), rotation=(0.8, 0.0, 0.0))
    # the lowest edge (along x) is at 1 - 0.2 t - (√2/2) cos(π/4 - 0.8 t): solve for 0.1 by bisection
    low, high = 0.0, 1.0
    for _ in range(200):
        middle = 0.5 * (low + high)
        height = 1.0 - 0.2 * middle - math.sqrt(0.5) * math.cos(math.pi / 4 - 0.8 * middle)
        low, high = (middle, high) if height > 0.1 else (low, middle)
    assert on_plane.t == pytest.approx(low, abs=1e-12)
    assert on_slab.t == pytest.approx(low, abs=1e-12)
    assert on_slab.normal == pytest.approx([0.0, 0.0, 1.0], abs=1e-9)
    assert on_slab.feature.kind == "face" and on_slab.moving_feature.kind == "edge"
    assert on_slab.point[2] == pytest.approx(0.1, abs=1e-12)


def test_zero_rotation_is_the_linear_sweep_bit_for_bit():
    ball, target = Sphere((0.3, -2.0, 0.1), 0.25), Capsule((0.0, 0.0, 0.0), (0.0, 0.0, 1.0), 0.5)
    linear = sweep(ball, target, (0.1, 3.0, 0.2))
    turning = sweep(ball, target, (0.1, 3.0, 0.2), rotation=(0.0, 0.0, 0.0), pivot=(5.0, 5.0, 5.0),
                    interpolation="nlerp")
    assert turning.t == linear.t and np.array_equal(turning.point, linear.point)
    assert turning.advancement is None


def test_a_miss_says_it_was_safe_to_the_end():
    result = sweep(Sphere((0.0, 0.0, 5.0), 0.5), Sphere((0.0, 0.0, 0.0), 0.5), (1.0, 0.0, 0.0),
                   rotation=(0.0, 1.0, 0.0))
    assert not result.hit and result.advancement.converged and result.advancement.safe_until == 1.0


def test_touching_at_the_start_is_the_linear_answer_at_the_start():
    moving, target = Sphere((0.0, 0.0, 0.5), 1.0), Sphere((0.0, 0.0, 0.0), 1.0)
    turning = sweep(moving, target, (1.0, 0.0, 0.0), rotation=(0.0, 1.0, 0.0), pivot=(3.0, 0.0, 0.0))
    at_start = sweep(moving, target, (0.0, 0.0, 0.0))
    assert turning.t == 0.0 and turning.initially_overlapping
    assert turning.penetration_depth == at_start.penetration_depth
    assert np.array_equal(turning.normal, at_start.normal)


def test_a_batch_answers_as_its_lanes():
    rng = np.random.default_rng(7)
    centers, rotations = rng.normal(size=(40, 3)) * 2, rng.normal(size=(40, 3))
    box = ConvexPolyhedron.box((0.4, 0.6, 0.3))
    batch = sweep(Sphere(centers, 0.3), box, -0.6 * centers, rotation=rotations, pivot=(0.0, 0.0, 0.0))
    assert batch.hit.any() and not batch.hit.all()
    for i in range(40):
        one = sweep(Sphere(centers[i], 0.3), box, -0.6 * centers[i], rotation=rotations[i], pivot=(0.0, 0.0, 0.0))
        assert one.hit == batch.hit[i]
        if one.hit:
            assert one.t == batch.t[i] and np.array_equal(one.normal, batch.normal[i])
            assert one.advancement.iterations == batch.advancement.iterations[i]


def test_a_turning_box_meets_a_mesh_floor_as_it_meets_the_plane():
    floor = TriangleMesh([[-3, -3, 0.1], [3, -3, 0.1], [3, 3, 0.1], [-3, 3, 0.1]], [[0, 1, 2], [0, 2, 3]])
    box = ConvexPolyhedron.box((0.5, 0.5, 0.5), center=(0.0, 0.0, 1.0))
    on_mesh = sweep(box, floor, (0.0, 0.0, -0.2), rotation=(0.8, 0.0, 0.0))
    on_plane = sweep(box, Plane((0.0, 0.0, 1.0), 0.1), (0.0, 0.0, -0.2), rotation=(0.8, 0.0, 0.0))
    assert on_mesh.hit and on_mesh.t == pytest.approx(on_plane.t, abs=1e-12)
    assert on_mesh.face_index in (0, 1) and on_mesh.normal == pytest.approx([0.0, 0.0, 1.0], abs=1e-9)


def test_a_turning_mesh_meets_a_ball_as_the_ball_meets_the_mesh_turned_back():
    """The mesh as the moving shape: its triangles turn about the pivot."""
    floor = TriangleMesh([[-3, -3, 0.0], [3, -3, 0.0], [3, 3, 0.0], [-3, 3, 0.0]], [[0, 1, 2], [0, 2, 3]])
    ball = Sphere((0.0, 2.0, 1.0), 0.25)
    result = sweep(floor, ball, (0.0, 0.0, 0.0), rotation=(math.pi / 3, 0.0, 0.0), pivot=(0.0, 0.0, 0.0))
    # the turned plane's normal is (0, -sin φ, cos φ): the ball's center is cos φ - 2 sin φ from it,
    # √5 cos(φ + atan2(2, 1)), which falls to 0.25 at
    angle = math.acos(0.25 / math.sqrt(5.0)) - math.atan2(2.0, 1.0)
    assert result.hit and result.t == pytest.approx(angle / (math.pi / 3), abs=1e-12)
    assert result.normal[2] < 0  # from the ball towards the mesh, which comes from below


def test_time_of_impact_with_both_shapes_turning_is_symmetric():
    a, b = ConvexPolyhedron.box((0.3, 0.3, 0.3), center=(-1.0, 0.0, 0.0)), Capsule((1.0, -0.5, 0), (1.0, 0.5, 0), 0.2)
    motion_a, motion_b = Motion((1.2, 0.0, 0.0), (0.0, 0.0, 2.0)), Motion((-0.6, 0.1, 0.0), (1.0, 0.0, 0.0))
    forward, backward = time_of_impact(a, motion_a, b, motion_b), time_of_impact(b, motion_b, a, motion_a)
    assert forward.hit and backward.hit
    assert forward.t == pytest.approx(backward.t, abs=1e-12)
    assert forward.normal == pytest.approx(-backward.normal, abs=1e-9)


def test_the_steps_are_the_answers_and_shrink():
    box = ConvexPolyhedron.box((0.5, 0.5, 0.5), center=(0.0, 0.0, 1.0))
    steps = advancement_steps(box, Plane((0.0, 0.0, 1.0), 0.1), (0.0, 0.0, -0.2), rotation=(0.8, 0.0, 0.0))
    result = sweep(box, Plane((0.0, 0.0, 1.0), 0.1), (0.0, 0.0, -0.2), rotation=(0.8, 0.0, 0.0))
    assert len(steps) == result.advancement.iterations
    assert steps[-1].t + steps[-1].advance == result.t
    assert all(later.distance < earlier.distance for earlier, later in zip(steps, steps[1:], strict=False))


def test_posed_and_centroid():
    box = ConvexPolyhedron.box((1.0, 2.0, 3.0), center=(1.0, 1.0, 1.0))
    assert centroid(box) == pytest.approx([1.0, 1.0, 1.0], abs=1e-15)
    turned = posed(box, Motion((0.0, 0.0, 1.0), (0.0, 0.0, math.pi)), 1.0)
    expected = box.vertices + (0.0, 0.0, 1.0)
    assert sorted(map(tuple, np.round(turned.vertices, 12))) == sorted(map(tuple, np.round(expected, 12)))
    assert speed_bound(Sphere((3.0, 0.0, 0.0), 1.0), Motion((0.0, 1.0, 0.0), (0.0, 0.0, 2.0), pivot=(0, 0, 0))) == 7.0


@pytest.mark.parametrize("arguments, message", [
    ({"rotation": (0.0, math.nan, 0.0)}, "rotation must be finite"),
    ({"rotation": (1.0, 0.0)}, r"rotation must have shape \(\.\.\., 3\)"),
    ({"rotation": (0.0, 0.0, 1.0), "pivot": (0.0, math.inf, 0.0)}, "pivot must be finite"),
    ({"rotation": (0.0, 0.0, 1.0), "interpolation": "lerp"}, "interpolation must be one of slerp, nlerp"),
    ({"rotation": (0.0, 0.0, math.pi), "interpolation": "nlerp"}, "nlerp cannot turn pi or more"),
    ({"rotation": (0.0, 0.0, 1.0), "ignore_separating": True}, "takes no ignore_separating"),
])
def test_bad_input_is_one_line_naming_the_argument(arguments, message):
    with pytest.raises(ValueError, match=message):
        sweep(Sphere((0.0, 0.0, 0.0), 1.0), Point((3.0, 0.0, 0.0)), (1.0, 0.0, 0.0), **arguments)


def test_nlerp_just_below_pi_is_taken():
    below = math.nextafter(math.pi, 0.0)
    result = sweep(Sphere((0.0, 0.0, 0.0), 1.0), Point((3.0, 0.0, 0.0)), (2.5, 0.0, 0.0), rotation=(0.0, 0.0, below),
                   interpolation="nlerp")
    assert result.hit


def test_a_plane_cannot_turn():
    with pytest.raises(ValueError, match="Plane cannot turn"):
        sweep(Plane((0.0, 0.0, 1.0), 0.0), Sphere((0.0, 0.0, 2.0), 0.5), (0.0, 0.0, 1.0), rotation=(0.1, 0.0, 0.0))


TOUCH_RTOL = 2.0 ** -48
"""``tolerance.TURNING_TOUCH_RTOL`` written out: a changed constant must fail here."""


def test_the_answer_touches_within_the_tolerance_and_the_step_before_did_not():
    """A plate (a box 2 long, 0.02 thick) turning about its end onto a ball at half its
    length: the fixed-axis bound counts the far corners' speed, twice the contact's, so
    each step halves the gap and one of them falls in any window of a factor 10 around
    the tolerance (size 2: the plate's end).  The plate's side face is
    sin(π/4 - φ) - 0.01 from the ball's center."""
    theta, center = math.pi / 2, (math.cos(math.pi / 4), math.sin(math.pi / 4), 0.0)
    plate, ball = ConvexPolyhedron.box((1.0, 0.01, 0.01), center=(1.0, 0.0, 0.0)), Sphere(center, 0.1)
    arguments = dict(rotation=(0.0, 0.0, theta), pivot=(0.0, 0.0, 0.0))
    result = sweep(plate, ball, (0.0, 0.0, 0.0), **arguments)
    steps = advancement_steps(plate, ball, (0.0, 0.0, 0.0), **arguments)
    tolerance = TOUCH_RTOL * 2.0
    assert -1e-16 <= math.sin(math.pi / 4 - theta * result.t) - 0.01 - 0.1 <= tolerance
    assert steps[-1].distance > tolerance
    last = steps[-8:]
    assert all(0.4 < later.distance / earlier.distance < 0.6 for earlier, later in zip(last, last[1:], strict=False))


def test_a_long_rod_hit_near_its_pivot_converges_in_a_few_steps():
    """A capsule core is advanced piece by piece (``advancement.split_advance``): a rod
    10 long hit at 0.2 from its pivot took ~ln(1e-15) / ln(1 - 0.02) = 1,700 steps on
    its end's bound; its pieces take ten."""
    rod, center = Capsule((0.0, 0.0, 0.0), (10.0, 0.0, 0.0), 0.0), (0.2 * math.sqrt(0.5), 0.2 * math.sqrt(0.5), 0.0)
    result = sweep(rod, Sphere(center, 0.05), (0.0, 0.0, 0.0), rotation=(0.0, 0.0, math.pi / 2),
                   pivot=(0.0, 0.0, 0.0))
    expected = (math.pi / 4 - math.asin(0.05 / 0.2)) / (math.pi / 2)
    assert result.t == pytest.approx(expected, abs=1e-13)
    assert result.advancement.iterations <= 20


@pytest.mark.parametrize("size", [2.0 ** -700, 1e-100, 2.0 ** -65, 2.0 ** -63, 1.0, 2.0 ** 63, 2.0 ** 65, 1e100,
                                  2.0 ** 700])
def test_any_size_gets_its_unit_size_twin_s_answer(size):
    """Lengths beyond 2^±64 are answered at unit size (``turning.unit_factor``): the same t
    as at size 1 to rounding, the point scaled back."""
    def query(scale):
        box = ConvexPolyhedron.box((scale, scale, scale), center=(0.0, 0.0, 3.0 * scale))
        return sweep(box, Sphere((0.0, 0.0, 0.0), 0.5 * scale), (0.0, 0.0, -3.0 * scale), rotation=(0.5, 0.3, 0.0))
    unit, scaled = query(1.0), query(size)
    assert scaled.hit and scaled.t == pytest.approx(unit.t, abs=1e-15)
    assert scaled.point / size == pytest.approx(unit.point, abs=1e-14)
    assert scaled.advancement.iterations == unit.advancement.iterations

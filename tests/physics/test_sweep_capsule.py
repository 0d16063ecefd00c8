"""Capsule sweeps: hand-worked cases (capsule against capsule, segment, plane; sphere
against capsule; moving segments), built so that the answer is known."""

from decimal import Decimal, getcontext
from fractions import Fraction

import numpy as np
import pytest

from sweeplab.physics import Capsule, Plane, Point, Segment, Sphere, Triangle, sweep, tolerance
from tests.physics.expect import assert_hit, assert_miss
from tests.physics.rational import segment_distance_squared

getcontext().prec = 60
GRAZE = 2.0 ** -40


def test_sides_crossing_at_right_angles():
    result = sweep(Capsule([-5.0, 0, 0], [-5.0, 0, 2], 0.5), Capsule([0.0, -1, 1], [0.0, 1, 1], 0.5), [10.0, 0, 0])
    assert_hit(result, t=0.4, normal=[-1, 0, 0], point=[-0.5, 0, 1], feature=("edge", 0))


def test_end_cap_to_end_cap_collinear():
    result = sweep(Capsule([-6.0, 0, 0], [-4.0, 0, 0], 0.5), Capsule([0.0, 0, 0], [2.0, 0, 0], 0.5), [10.0, 0, 0])
    assert_hit(result, t=0.3, normal=[-1, 0, 0], point=[-0.5, 0, 0], feature=("vertex", 0))


def test_parallel_sides():
    result = sweep(Capsule([-1.0, -5, 0], [1.0, -5, 0], 0.5), Capsule([-1.0, 0, 0], [1.0, 0, 0], 0.5), [0.0, 10, 0])
    assert_hit(result, t=0.4, normal=[0, -1, 0], point=[-1, -0.5, 0])


def test_interior_graze_over_an_end_cap_and_miss_by_graze_margin():
    # the moving side passes exactly 1 = 0.5 + 0.5 above the target's axis: it first touches over its end
    moving = Capsule([-5.0, -1, 1], [-5.0, 1, 1], 0.5)
    target = Capsule([0.0, 0, 0], [4.0, 0, 0], 0.5)
    assert_hit(sweep(moving, target, [10.0, 0, 0]), t=0.5, normal=[0, 0, 1], point=[0, 0, 0.5], feature=("vertex", 0))
    raised = Capsule([-5.0, -1, 1 + GRAZE], [-5.0, 1, 1 + GRAZE], 0.5)
    assert_miss(sweep(raised, target, [10.0, 0, 0]))


def test_interior_hit_by_graze_margin():
    moving = Capsule([-2.0, -5, 1 - GRAZE], [2.0, -5, 1 - GRAZE], 0.5)
    target = Capsule([0.0, -1, 0], [0.0, 1, 0], 0.5)
    z = Decimal(1) - Decimal(GRAZE)
    half_chord = (1 - z * z).sqrt()
    result = sweep(moving, target, [0.0, 10, 0])
    t = float((Decimal(4) - half_chord) / 10)  # the side reaches y = -1 - sqrt(1 - z^2): the target's end cap
    assert_hit(result, t=t, normal=[0, -float(half_chord), float(z)], feature=("vertex", 0))


def test_capsule_against_segment_interiors():
    result = sweep(Capsule([-5.0, -1, 0], [-5.0, 1, 0], 0.5), Segment([0.0, 0, -1], [0.0, 0, 1]), [10.0, 0, 0])
    assert_hit(result, t=0.45, normal=[-1, 0, 0], point=[0, 0, 0], feature=("edge", 0))


def test_moving_segment_is_a_capsule_of_radius_zero():
    as_segment = sweep(Segment([-5.0, -1, 0], [-5.0, 1, 0]), Capsule([0.0, 0, -1], [0.0, 0, 1], 0.5), [10.0, 0, 0])
    assert_hit(as_segment, t=0.45, normal=[-1, 0, 0], point=[-0.5, 0, 0], feature=("edge", 0))
    crossing = sweep(Segment([-5.0, -1, 0], [-5.0, 1, 0]), Segment([0.0, 0, -1], [0.0, 0, 1]), [10.0, 0, 0])
    assert_hit(crossing, t=0.5, normal=[-1, 0, 0], point=[0, 0, 0])


def test_zero_length_capsule_is_a_sphere():
    point_like = Capsule([-5.0, 0, 0], [-5.0, 0, 0], 1.0)
    expected = sweep(Sphere([-5.0, 0, 0], 1.0), Capsule([0.0, -1, 0], [0.0, 1, 0], 0.5), [10.0, 0, 0])
    result = sweep(point_like, Capsule([0.0, -1, 0], [0.0, 1, 0], 0.5), [10.0, 0, 0])
    assert_hit(result, t=expected.t, normal=expected.normal, point=expected.point, feature=("edge", 0))


def test_crossing_capsules_overlap_along_the_common_normal():
    result = sweep(Capsule([-1.0, 0, 0], [1.0, 0, 0], 0.5), Capsule([0.0, -1, 0], [0.0, 1, 0], 0.5), [0.0, 0, 0])
    assert_hit(result, t=0.0, normal=[0, 0, 1], point=[0, 0, 0.5], depth=1.0, feature=("edge", 0))
    downwards = sweep(Capsule([-1.0, 0, 0], [1.0, 0, 0], 0.5), Capsule([0.0, -1, 0], [0.0, 1, 0], 0.5), [0, 0, -1.0])
    assert_hit(downwards, t=0.0, normal=[0, 0, -1], point=[0, 0, -0.5], depth=1.0)


def test_overlap_between_sides_and_ignore_separating():
    moving = Capsule([-1.0, 0, 0.6], [1.0, 0, 0.6], 0.5)
    target = Capsule([0.0, -1, 0], [0.0, 1, 0], 0.5)
    assert_hit(sweep(moving, target, [1.0, 0, 0]), t=0.0, normal=[0, 0, 1], point=[0, 0, 0.5], depth=0.4)
    assert sweep(moving, target, [0.0, 0, 1], ignore_separating=True).hit is False
    assert sweep(moving, target, [0.0, 0, -1], ignore_separating=True).hit is True


@pytest.mark.parametrize("direction", [[0.0, 0, 1], [1.0, 0, 0]])
@pytest.mark.parametrize("gap", [-GRAZE, 0.0, GRAZE])
def test_capsules_touching_at_the_start_and_moving_apart_are_ignored(gap, direction):
    """The t = 0 touch test ``distance <= total_radius`` (``segment_at_start``) at,
    just inside and just outside its threshold: parallel cores 1 + gap apart, radii
    0.5 each.  Moving apart (+z) or sliding along (+x) with ``ignore_separating``,
    none is a hit: touching or overlapping, the motion does not deepen it
    (``dot(direction, normal) >= 0``).  With ``<`` the exact touch (gap 0) was not
    touching at t = 0 and the sweep answered a hit at t = 0; with ``> 0`` the
    sliding ones were hits at t = 0."""
    moving, target = Capsule([0.0, 0, 1 + gap], [1.0, 0, 1 + gap], 0.5), Capsule([0.0, 0, 0], [1.0, 0, 0], 0.5)
    assert_miss(sweep(moving, target, direction, ignore_separating=True))


@pytest.mark.parametrize("gap, t, depth", [(-GRAZE, 0.0, GRAZE), (0.0, 0.0, None), (GRAZE, GRAZE, None)])
def test_capsules_touching_at_the_start_and_moving_closer(gap, t, depth):
    """The same cores moving together: overlapping by 2^-40 (depth 2^-40), touching
    exactly (t = 0, no depth) and 2^-40 apart (t = 2^-40)."""
    moving, target = Capsule([0.0, 0, 1 + gap], [1.0, 0, 1 + gap], 0.5), Capsule([0.0, 0, 0], [1.0, 0, 0], 0.5)
    found = sweep(moving, target, [0.0, 0, -1], ignore_separating=True)
    assert_hit(found, t=t, normal=[0, 0, 1], depth=depth)
    assert found.point[2] == 0.5 and 0 <= found.point[0] <= 1 and found.point[1] == 0


def test_sphere_against_capsule_side_and_cap():
    capsule = Capsule([0.0, -1, 0], [0.0, 1, 0], 0.5)
    assert_hit(sweep(Sphere([5.0, 0, 0], 1.0), capsule, [-10.0, 0, 0]), t=0.35, normal=[1, 0, 0],
               point=[0.5, 0, 0], feature=("edge", 0))
    assert_hit(sweep(Sphere([0.0, 5, 0], 1.0), capsule, [0, -10.0, 0]), t=0.25, normal=[0, 1, 0],
               point=[0, 1.5, 0], feature=("vertex", 1))


def test_capsule_against_point_and_sphere_by_subject_swap():
    capsule = Capsule([5.0, -1, 0], [5.0, 1, 0], 0.5)
    assert_hit(sweep(capsule, Point([0.0, 0, 0]), [-10.0, 0, 0]), t=0.45, normal=[1, 0, 0], point=[0, 0, 0],
               feature=("vertex", 0))
    assert_hit(sweep(capsule, Sphere([0.0, 0, 0], 1.0), [-10.0, 0, 0]), t=0.35, normal=[1, 0, 0],
               point=[1, 0, 0], feature=("face", 0))


def test_sphere_moving_into_a_still_capsule_reports_the_capsule_feature_when_swapped():
    result = sweep(Capsule([0.0, -1, 0], [0.0, 1, 0], 0.5), Sphere([0.0, 5, 0], 1.0), [0.0, 10, 0])
    assert_hit(result, t=0.25, normal=[0, -1, 0], point=[0, 4, 0], feature=("face", 0))


@pytest.mark.parametrize("end", [[1.0, 0, 5], [1.0, 0, 3]])
def test_capsule_against_plane(end):
    result = sweep(Capsule([0.0, 0, 3], end, 0.5), Plane([0.0, 0, 1], 0.0), [0.0, 0, -10])
    assert_hit(result, t=0.25, normal=[0, 0, 1], feature=("face", 0))
    assert result.point[2] == 0.0


def test_capsule_crossing_a_plane_overlaps_by_the_shorter_way_out():
    result = sweep(Capsule([0.0, 0, -0.2], [0.0, 0, 5], 0.5), Plane([0.0, 0, 1], 0.0), [0.0, 0, -10])
    assert_hit(result, t=0.0, normal=[0, 0, 1], point=[0, 0, 0], depth=0.7, feature=("face", 0))
    below = sweep(Capsule([0.0, 0, 0.2], [0.0, 0, -5], 0.5), Plane([0.0, 0, 1], 0.0), [1.0, 0, 0])
    assert_hit(below, t=0.0, normal=[0, 0, -1], point=[0, 0, 0], depth=0.7)


def test_capsule_resting_on_a_plane_sliding_is_ignored():
    resting = Capsule([0.0, 0, 0.5], [2.0, 0, 0.5], 0.5)
    assert_hit(sweep(resting, Plane([0.0, 0, 1], 0.0), [3.0, 0, 0]), t=0.0, normal=[0, 0, 1])
    assert_miss(sweep(resting, Plane([0.0, 0, 1], 0.0), [3.0, 0, 0], ignore_separating=True))


def test_batched_capsules_match_scalar():
    starts = np.array([[-5.0, 0, 0], [-5.0, 0, 3], [-1.0, 0, 0]])
    moving = Capsule(starts, starts + [0, 0, 2], 0.5)
    target = Capsule([0.0, -1, 1], [0.0, 1, 1], 0.5)
    batch = sweep(moving, target, [10.0, 0, 0])
    for i in range(3):
        scalar = sweep(moving[i], target, [10.0, 0, 0])
        assert batch.hit[i] == scalar.hit
        if scalar.hit:
            assert batch.t[i] == scalar.t and np.array_equal(batch.normal[i], scalar.normal)


# --- capsule against triangle: A=(0,0,0), B=(4,0,0), C=(0,4,0) in z = 0 -----------

TRIANGLE_VERTICES = ([0.0, 0, 0], [4.0, 0, 0], [0.0, 4, 0])


def triangle():
    from sweeplab.physics import Triangle

    return Triangle(*TRIANGLE_VERTICES)


def test_capsule_parallel_to_a_triangle_at_the_radius_plus_and_minus_graze():
    sliding = [6.0, 0, 0]
    above = Capsule([-5.0, 1, 0.5 + GRAZE], [-3.0, 1, 0.5 + GRAZE], 0.5)
    assert_miss(sweep(above, triangle(), sliding))
    touching = Capsule([-5.0, 1, 0.5], [-3.0, 1, 0.5], 0.5)
    # the core runs parallel 0.5 above the face: it first touches over the edge C-A at x = 0
    assert_hit(sweep(touching, triangle(), sliding), t=0.5, normal=[0, 0, 1], point=[0, 1, 0],
               feature=("edge", 2))
    inside = Capsule([1.0, 1, 0.5 - GRAZE], [2.0, 1, 0.5 - GRAZE], 0.5)
    result = sweep(inside, triangle(), sliding)
    assert_hit(result, t=0.0, normal=[0, 0, 1], point=[1, 1, 0], depth=GRAZE, feature=("face", 0))


def test_capsule_landing_flat_on_the_face():
    result = sweep(Capsule([1.0, 1, 3], [2.0, 1, 3], 0.5), triangle(), [0.0, 0, -10])
    assert_hit(result, t=0.25, normal=[0, 0, 1], point=[1, 1, 0], feature=("face", 0))


def test_end_cap_grazing_a_vertex():
    # the end cap's center passes at exactly the radius from vertex B = (4, 0, 0)
    capsule = Capsule([4.0, -5, 1.0], [4.0, -5, 3.0], 1.0)
    assert_hit(sweep(capsule, triangle(), [0.0, 10, 0]), t=0.5, normal=[0, 0, 1], point=[4, 0, 0],
               feature=("vertex", 1))
    lifted = Capsule([4.0, -5, 1.0 + GRAZE], [4.0, -5, 3.0], 1.0)
    assert_miss(sweep(lifted, triangle(), [0.0, 10, 0]))


def test_capsule_lying_in_the_plane_of_the_triangle():
    # the core lies in z = 0 and slides into the edge A-B from y < 0
    result = sweep(Capsule([1.0, -5, 0], [3.0, -5, 0], 0.5), triangle(), [0.0, 10, 0])
    assert_hit(result, t=0.45, normal=[0, -1, 0], feature=("edge", 0))
    assert result.point[1] == 0.0 and 1.0 <= result.point[0] <= 3.0


def test_core_crossing_an_edge_at_right_angles():
    result = sweep(Capsule([-5.0, 1, -1], [-5.0, 1, 1], 0.5), triangle(), [10.0, 0, 0])
    assert_hit(result, t=0.45, normal=[-1, 0, 0], point=[0, 1, 0], feature=("edge", 2))


def test_core_piercing_the_face_separates_by_the_shorter_way():
    result = sweep(Capsule([1.0, 1, -0.2], [1.0, 1, 5], 0.5), triangle(), [1.0, 0, 0])
    assert_hit(result, t=0.0, normal=[0, 0, 1], point=[1, 1, 0], depth=0.7, feature=("face", 0))


@pytest.mark.parametrize("direction, normal", [([1.0, 0, 0], [0, 0, 1]), ([0.0, 0, 0], [0, 0, 1]),
                                               ([0.0, 0, 1], [0, 0, 1]), ([0.0, 0, -1], [0, 0, -1])])
def test_core_piercing_a_face_at_its_middle_leaves_by_the_tie_rule(direction, normal):
    """The escape tie of ``capsule_polygon_at_start``: a core from z = -0.1 to 0.1
    pierces the triangle's face (normal +z) at its middle, so leaving up (0.1) and
    down (0.1) tie exactly.  A motion along the face or none leaves up, the face's
    own side (``dot(axis, direction) >= 0``); a motion into either side leaves on
    it (``up < down`` strict).  With ``> 0`` the sideways motion left down (-z); with
    ``up <= down`` the downward one left up."""
    result = sweep(Capsule([0.5, 0.5, -0.1], [0.5, 0.5, 0.1], 0.05), triangle(), direction)
    assert_hit(result, t=0.0, normal=normal, point=[0.5, 0.5, 0], depth=0.15, feature=("face", 0))


@pytest.mark.parametrize("direction", [[0.0, 0, 1], [1.0, 0, 0]])
@pytest.mark.parametrize("gap", [-GRAZE, 0.0, GRAZE])
def test_capsule_lying_on_a_triangle_and_moving_off_or_along_it_is_ignored(gap, direction):
    """The capsule-polygon t = 0 touch test ``best_distance <= radius``
    (``capsule_polygon_at_start``) at, just inside and just outside its threshold: a
    core lying 0.5 + gap above the face, radius 0.5.  Moving up (+z) or along the face
    (+x) with ``ignore_separating``, none is a hit (``dot(direction, normal) >= 0``).
    (With ``<`` gap 0 was a hit at t = 0 both ways; with ``> 0`` the sliding ones at
    gaps 0 and -2^-40 were.)"""
    capsule = Capsule([1.0, 1, 0.5 + gap], [2.0, 1, 0.5 + gap], 0.5)
    assert_miss(sweep(capsule, triangle(), direction, ignore_separating=True))


@pytest.mark.parametrize("gap, t, depth", [(-GRAZE, 0.0, GRAZE), (0.0, 0.0, None), (GRAZE, GRAZE, None)])
def test_capsule_lying_on_a_triangle_and_pressing_into_it(gap, t, depth):
    """The same core moving down (-z): overlapping by 2^-40, touching exactly (t = 0,
    no depth) and 2^-40 above (t = 2^-40): hits on the face, normal +z."""
    capsule = Capsule([1.0, 1, 0.5 + gap], [2.0, 1, 0.5 + gap], 0.5)
    found = sweep(capsule, triangle(), [0.0, 0, -1], ignore_separating=True)
    assert_hit(found, t=t, normal=[0, 0, 1], depth=depth, feature=("face", 0))
    assert found.point[2] == 0 and 1 <= found.point[0] <= 2 and found.point[1] == 1


def test_capsule_against_polygon_face_index():
    from sweeplab.physics import Polygon

    square = Polygon([[0.0, 0, 0], [2.0, 0, 0], [2.0, 2, 0], [0.0, 2, 0]])
    result = sweep(Capsule([0.5, 1, 3], [1.5, 1, 3], 0.5), square, [0.0, 0, -10])
    assert_hit(result, t=0.25, normal=[0, 0, 1], point=[0.5, 1, 0], feature=("face", 0), face_index=0)


def test_moving_triangle_against_a_capsule_by_subject_swap():
    from sweeplab.physics import Triangle

    moving = Triangle(*TRIANGLE_VERTICES)
    result = sweep(moving, Capsule([1.0, 1, 3], [2.0, 1, 3], 0.5), [0.0, 0, 10])
    # the whole underside lands at once; the answer names the contact under end cap a
    assert_hit(result, t=0.25, normal=[0, 0, -1], point=[1, 1, 2.5], feature=("vertex", 0))


@pytest.mark.parametrize("moving, target", [
    # hypothesis found these: cores meeting at a shared end point; the closest-point
    # parameter came out 1 - 1 ulp, the difference vector was round-off and the
    # "minimum translation" pointed along it, leaving the shapes overlapping.
    (Capsule([0.0, 6.25, 0.0], [3.9129407889742387, 1.0, 0.0], 0.0),
     Capsule([0.0, 0.0, 0.0], [3.9129407889742387, 1.0, 0.0], 1.0)),
    (Capsule([0.0, 3.0, 1.2438365310196708], [0.0, 0.0, 3.5], 0.0), Capsule([0.0, 0.0, 0.0], [0.0, 0.0, 3.5], 1.0)),
])
def test_regression_cores_meeting_at_a_shared_end(moving, target):
    from sweeplab.physics.reference import segment_closest_points

    result = sweep(moving, target, [0.0, 0.0, 0.0])
    assert result.initially_overlapping and abs(result.penetration_depth - 1.0) <= tolerance.EXACT_RTOL
    shifted = [tuple(np.add(p, result.penetration_depth * result.normal)) for p in (moving.a, moving.b)]
    closest = segment_closest_points(*shifted, tuple(target.a), tuple(target.b))
    assert abs(np.linalg.norm(np.subtract(*closest)) - 1.0) <= tolerance.EXACT_RTOL  # just touching after it


def test_regression_segment_through_a_still_sphere_center():
    """Found by hypothesis (seed 1008 of a local run): a zero-radius capsule whose
    core passes exactly through a sphere's center got the round-off residue along
    its own axis as the separating normal, (0, -1, 0); moving it by the depth that
    way left it still through the sphere.  It must leave across its axis."""
    moving = Capsule([-1.0, -1.921875, 0.0], [-1.0, 0.5, 0.0], 0.0)
    result = sweep(moving, Sphere([-1.0, -1.0, 0.0], 1.0), [0.0, 0.0, 0.0])
    assert result.initially_overlapping and abs(result.penetration_depth - 1.0) <= tolerance.EXACT_RTOL
    assert result.normal @ [0, 1, 0] == 0 and abs(np.linalg.norm(result.normal) - 1) <= tolerance.EXACT_RTOL
    assert np.allclose(result.point, [-1.0, -1.0, 0.0] + result.normal, rtol=0, atol=tolerance.EXACT_RTOL)


def test_regression_cores_meeting_end_to_end_within_rounding_keep_their_direction():
    """Closest points at two end points 2.6e-99 apart: their difference is exact in
    direction, so the normal is that direction (the escape rule is only for a
    projection's round-off) and the swapped subject flips it."""
    near, far = [0.0, 2.6261980610790738e-99, 1.0], [0.0, 0.0, 1.0]
    moving, still = Capsule(near, [1.0, 2.6261980610790738e-99, 1.0], 0.0), Capsule(far, [0.0, 0, 2.0], 1.0)
    result = sweep(moving, still, [0.0, 0, 0])
    assert_hit(result, t=0.0, normal=[0, 1, 0], point=[0, 1, 1], depth=1.0)
    assert np.array_equal(sweep(still, moving, [0.0, 0, 0]).normal, [0, -1, 0])


# Issue #17: cores parallel up to rounding.  Their common normal was taken as
# normalize(cross(along, other_along)), a cross product that is itself round-off
# there, and the distance measured along it came out far too small.
NEAR_PARALLEL_APART = (
    Capsule([1.2088107351139339, 1.4693342073696587, -1.4849613150885959],
            [-0.23107214179029834, 1.1508403200109036, -0.2800141928183213], 0.25152266004108936),
    Capsule([0.9196056114425808, 1.7659080455551557, -1.9704349052929937],
            [-0.23673215592127828, 1.5101327206764543, -1.0027687933428429], 0.19377775831270339),
    [-0.7031004634823288, -0.04277496786565527, 0.41137488984721604])
NEAR_PARALLEL_ARRIVING = (
    Capsule([1.995209950529607, -1.4239385694798505, -1.0227422286140682],
            [3.1763282185425914, -2.139762261800867, 0.548271150894307], 0.18653937849291613),
    Capsule([1.6809589521617538, -1.5038524981837689, -0.5246711776259766],
            [2.301351652438263, -1.8798451531344365, 0.30051733996708974], 0.18067039165207965),
    [-0.11251815783694674, -0.7966637680126598, 0.9111478365497101])


def _cores_apart_at_start(moving, target) -> bool:
    summed = Fraction(float(moving.radius)) + Fraction(float(target.radius))
    return segment_distance_squared(moving.a, moving.b, target.a, target.b) > summed * summed


def test_regression_near_parallel_cores_apart_do_not_touch():
    # sweeplab answered t = 0, edge 0: the cores are 0.62306 apart (exact), the
    # summed radius 0.44530; the motion never closes the gap (first_touch in
    # 60-digit arithmetic: closest gap 0.0157)
    moving, target, direction = NEAR_PARALLEL_APART
    assert _cores_apart_at_start(moving, target)
    assert_miss(sweep(moving, target, direction))
    assert_miss(sweep(target, moving, -np.asarray(direction)))


def test_regression_near_parallel_cores_arrive_later():
    # sweeplab answered t = 0 with depth 0.0757: the cores are 0.5505 apart (exact)
    # against a summed radius of 0.3672; they first touch at t = 0.370909340621435930
    # (bisection on the exact distance in 60-digit arithmetic)
    moving, target, direction = NEAR_PARALLEL_ARRIVING
    assert _cores_apart_at_start(moving, target)
    result = sweep(moving, target, direction)
    assert result.hit and not result.initially_overlapping
    assert abs(result.t - 0.37090934062143593) <= tolerance.TIME_ATOL
    swapped = sweep(target, moving, -np.asarray(direction))
    assert swapped.t == result.t and np.allclose(swapped.normal, -result.normal, atol=tolerance.NORMAL_ATOL)


def test_regression_core_piercing_a_triangle_leaves_across_an_edge():
    """A core piercing a triangle 0.1 above its bottom edge leaves most cheaply across
    that edge (0.1 down, plus the radius): moved so, it touches the edge at (0, 0, -1),
    which is the contact point.  It was the pierce point (0, 0, -0.9), on the triangle
    but not where the shapes touch (the overlap property of every pair, issue #17)."""
    triangle = Triangle([0.0, -1, -1], [0, 1, -1], [0, 0, 1])
    result = sweep(Capsule([-1.0, 0, -0.9], [1, 0, -0.9], 0.05), triangle, [0, 0, 0])
    assert_hit(result, t=0, normal=[0, 0, -1], point=[0, 0, -1], depth=0.15, feature=("edge", 0))


def test_parallel_cores_overlapping_side_by_side():
    """Cores parallel (their common normal is zero) and overlapping in length, 0.5
    apart against a summed radius of 1: depth 0.5 straight across (-y).  Ericson's
    parallel branch takes s = 0, then clamps w (to 0: the target's end at x = 0.5) and
    s in turn, so the closest points are at x = 0.5 and the point is (0.5, 0, 0)."""
    result = sweep(Capsule([0.0, 0, 0], [2, 0, 0], 0.5), Capsule([0.5, 0.5, 0], [3, 0.5, 0], 0.5), [0, 0, 0])
    assert_hit(result, t=0, normal=[0, -1, 0], point=[0.5, 0, 0], depth=0.5, feature=("vertex", 0))


def test_parallel_cores_apart_sliding_past_each_other_miss():
    """Exactly parallel cores 2 apart, moving along their length: never within the
    summed radius (0.2); the interior test has no common normal to measure along."""
    assert_miss(sweep(Capsule([0.0, 0, 0], [1, 0, 0], 0.1), Capsule([3.0, 2, 0], [4, 2, 0], 0.1), [6, 0, 0]))
    assert_miss(sweep(Segment([0.0, 0, 0], [1, 0, 0]), Segment([-3.0, 0, 1e-3], [-2, 0, 1e-3]), [-6, 0, 0]))


def test_capsule_centred_across_a_plane_leaves_upwards():
    """A core from z = -1 to 1 across the plane z = 0: clearing it upwards (r - min h
    = 1.5) and downwards (r + max h = 1.5) tie; the documented tie goes up (+z)."""
    result = sweep(Capsule([0.0, 0, -1], [0, 0, 1], 0.5), Plane([0.0, 0, 1], 0.0), [0, 0, 0])
    assert_hit(result, t=0, normal=[0, 0, 1], point=[0, 0, 0], depth=1.5, feature=("face", 0))


# Found by the differential run of #18 (old numpy vs compiled kernels, judged in exact
# rational arithmetic): below one ulp the plane test's rounded heights decided, and the
# compiled sum order (x + y + z) lost these two exact contacts that numpy's (x + z) + y
# order happened to find.  Fixed by computing heights in doubled precision
# (``geometry.plane_height``); tests/physics/test_plane_height.py generalises them.
def test_segment_exactly_touching_a_plane_at_the_start_is_a_hit():
    found = sweep(Segment([-3.264534510436702, -0.05874612462561668, -0.3302986586020439],
                          [-1.1479765093140508, 0.5517248795698515, 0.755685507678923]),
                  Plane([-1.0195928201967879, 0.03070980663995435, -0.7932423639869673], 0.45501960698617383),
                  [-0.028163039513263353, 0.1728561810467622, 0.042891320892271156])
    assert found.hit and found.t == 0


def test_capsule_overlapping_a_plane_by_less_than_an_ulp_answers_at_the_start():
    found = sweep(Capsule([-0.007212959244744743, -3.549675770574336, 1.2486143431770536],
                          [-1.4625550563676568, -1.6401873901449002, 2.911401251814296], 0.547285797832111),
                  Plane([0.24394468914013703, -0.011532282233225614, 0.22675409124335225], 0.4198533136949276),
                  [1.090547762621808, -0.055745660746621795, -1.1760590875163528])
    assert found.hit and found.t == 0

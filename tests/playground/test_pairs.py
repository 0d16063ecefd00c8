"""Sweep and prune over the motions' boxes (``playground.pairs``): the pairs it keeps are
every pair the boxes allow, and the world's sweeps lose no contact to it."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from sweeplab.physics import Plane, Sphere
from sweeplab.playground.ccd import first_contact, still
from sweeplab.playground.pairs import boxes_meeting, near_plane, overlapping_pairs, static_box, swept_boxes
from sweeplab.playground.world import CONTACT_SLOP, World, box_body, sphere_body


def brute_force(lo, hi):
    count = len(lo)
    return [(i, j) for i in range(count) for j in range(i + 1, count)
            if np.all(lo[i] <= hi[j]) and np.all(lo[j] <= hi[i])]


coordinate = st.integers(-6, 6).map(float)  # a coarse grid: equal ends (touching boxes) are common


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(coordinate, coordinate, coordinate, st.integers(0, 3), st.integers(0, 3),
                          st.integers(0, 3)), min_size=0, max_size=25))
def test_overlapping_pairs_are_the_brute_force_pairs_touching_included(boxes):
    lo = np.array([box[:3] for box in boxes], float).reshape(-1, 3)
    hi = lo + np.array([box[3:] for box in boxes], float).reshape(-1, 3)
    first, second = overlapping_pairs(lo, hi)
    assert list(zip(first.tolist(), second.tolist(), strict=True)) == brute_force(lo, hi)


def test_boxes_sharing_only_a_face_edge_or_corner_are_a_pair_and_a_gap_of_one_ulp_is_not():
    lo = np.array([[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 1.0, 1.0], [np.nextafter(1.0, 2.0), 0.0, 0.0]])
    hi = lo + 1.0
    first, second = overlapping_pairs(lo[:3], hi[:3])
    assert list(zip(first.tolist(), second.tolist(), strict=True)) == [(0, 1), (0, 2), (1, 2)]
    first, _ = overlapping_pairs(lo[[0, 3]], hi[[0, 3]])
    assert len(first) == 0


def test_swept_boxes_cover_start_and_end_whichever_way_the_chord_points():
    lo, hi = swept_boxes(np.array([[0.0, 0.0, 0.0]]), np.array([[-2.0, 3.0, 0.0]]), np.array([0.5]))
    assert lo.tolist() == [[-2.5, -0.5, -0.5]] and hi.tolist() == [[0.5, 3.5, 0.5]]


@pytest.mark.parametrize(("low", "meets"), [(0.0, True), (np.nextafter(0.0, 1.0), False), (-1.0, True),
                                            (-3.0, False)])
def test_near_plane_is_reached_by_a_box_touching_or_straddling_it(low, meets):
    floor = Plane([0.0, 0.0, 1.0], 0.0)
    lo, hi = np.array([[5.0, -3.0, low]]), np.array([[6.0, -2.0, low + 2.0]])
    if low == -3.0:
        hi = np.array([[6.0, -2.0, np.nextafter(0.0, -1.0)]])
    assert near_plane(floor, lo, hi).tolist() == [meets]


def test_a_tilted_plane_uses_the_boxs_extent_along_its_normal():
    plane = Plane([1.0, 1.0, 0.0], np.sqrt(2.0))  # x + y = 2
    assert near_plane(plane, np.array([[0.0, 0.0, 0.0]]), np.array([[1.1, 1.0, 1.0]])).tolist() == [True]
    assert near_plane(plane, np.array([[0.0, 0.0, 0.0]]), np.array([[0.9, 1.0, 1.0]])).tolist() == [False]
    assert near_plane(plane, np.array([[1.1, 1.0, 0.0]]), np.array([[3.0, 3.0, 1.0]])).tolist() == [False]
    assert near_plane(plane, np.array([[0.9, 1.0, 0.0]]), np.array([[3.0, 3.0, 1.0]])).tolist() == [True]


def test_static_boxes_of_rounded_shapes_include_the_rounding_and_a_plane_has_none():
    lo, hi = static_box(Sphere([1.0, 2.0, 3.0], 0.5))
    assert lo.tolist() == [0.5, 1.5, 2.5] and hi.tolist() == [1.5, 2.5, 3.5]
    assert boxes_meeting(np.array([[1.5, 0.0, 0.0]]), np.array([[2.0, 5.0, 5.0]]), (lo, hi)).tolist() == [True]
    with pytest.raises(ValueError, match="shape"):
        static_box(Plane([0.0, 0.0, 1.0], 0.0))


def test_the_margin_keeps_a_pair_within_the_contact_slop_and_drops_one_beyond_it():
    """Boxes grow by CONTACT_SLOP of each body's reach: two unit balls 0.9 slop apart (per
    body) are a pair, 1.1 apart are not."""
    for apart, candidate in ((0.9, True), (1.1, False)):
        gap = 2 * apart * CONTACT_SLOP * 0.5
        balls = [sphere_body("a", [0.0, 0.0, 5.0], 0.5), sphere_body("b", [1.0 + gap, 0.0, 5.0], 0.5)]
        world = World(balls, {}, gravity=np.zeros(3))
        movers = [body.mover(np.zeros(3), 1 / 60) for body in world.bodies]
        assert (world._candidates(movers) == [(0, "b")]) is candidate


@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(st.floats(-3, 3), st.floats(-3, 3), st.floats(0.2, 4), st.floats(-60, 60),
                          st.floats(-60, 60), st.floats(-60, 60), st.booleans()), min_size=2, max_size=7))
def test_no_pair_whose_motions_meet_is_left_out(bodies):
    """Every pair ``ccd.first_contact`` finds over the window is a candidate."""
    made = []
    for index, (x, y, z, vx, vy, vz, boxed) in enumerate(bodies):
        body = (box_body(f"b{index}", [0.3, 0.2, 0.4], [x, y, z]) if boxed
                else sphere_body(f"b{index}", [x, y, z], 0.35))
        body.velocity = np.array([vx, vy, vz])
        body.angular_velocity = np.array([vy, vz, vx]) / 7
        made.append(body)
    world = World(made, {"floor": Plane([0.0, 0.0, 1.0], 0.0)})
    dt = 1 / 60
    movers = [body.mover(body.velocity * dt + 0.5 * world.gravity * dt * dt, dt) for body in world.bodies]
    candidates = set(world._candidates(movers))
    for index, mover in enumerate(movers):
        if first_contact(mover, still(world.statics["floor"])) is not None:
            assert (index, "floor") in candidates
        for other in range(index + 1, len(movers)):
            if first_contact(mover, movers[other]) is not None:
                assert (index, world.bodies[other].name) in candidates

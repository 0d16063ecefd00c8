"""The contact patch (#23 playground): two faces on the contact plane clipped, by hand."""

import numpy as np
import pytest

from sweeplab.physics import Capsule, ConvexPolyhedron, Plane, Sphere, Triangle
from sweeplab.playground.patch import contact_patch

UP = np.array([0.0, 0.0, 1.0])
SLOP = 1e-9


def as_set(points):
    return sorted(tuple(float(round(x, 9)) + 0.0 for x in p) for p in points)


def box(half, center, turn=0.0):
    c, s = np.cos(turn), np.sin(turn)
    return ConvexPolyhedron.box(half, center=center, rotation=[[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])


def test_a_box_on_a_plane_touches_at_its_four_bottom_corners():
    found = contact_patch(box([0.5, 0.5, 0.5], [0.0, 0.0, 0.5]), Plane(UP, 0.0), [0.5, 0.5, 0.0], UP, SLOP)
    assert as_set(found) == as_set([[x, y, 0.0] for x in (-0.5, 0.5) for y in (-0.5, 0.5)])


@pytest.mark.parametrize("upper, lower, corners", [
    ([0.5, 0.5], [1.0, 1.0], [[x, y] for x in (-0.5, 0.5) for y in (-0.5, 0.5)]),  # a small box on a big one
    ([1.0, 1.0], [0.5, 0.5], [[x, y] for x in (-0.5, 0.5) for y in (-0.5, 0.5)]),  # a big box on a small one
])
def test_boxes_face_to_face_touch_over_the_smaller_face(upper, lower, corners):
    top, bottom = box([*upper, 0.5], [0.0, 0.0, 1.5]), box([*lower, 0.5], [0.0, 0.0, 0.5])
    found = contact_patch(top, bottom, [0.0, 0.0, 1.0], UP, SLOP)
    assert as_set(found) == as_set([[x, y, 1.0] for x, y in corners])


def test_a_box_over_a_ledge_touches_where_the_edge_crosses_its_face():
    ledge, top = box([1.0, 1.0, 0.5], [-1.0, 0.0, 0.5]), box([0.5, 0.5, 0.5], [-0.3, 0.0, 1.5])
    found = contact_patch(top, ledge, [-0.3, 0.0, 1.0], UP, SLOP)
    assert as_set(found) == as_set([[x, y, 1.0] for x in (-0.8, 0.0) for y in (-0.5, 0.5)])


def test_a_box_turned_45_degrees_on_an_equal_box_touches_at_an_octagon():
    found = contact_patch(box([0.5, 0.5, 0.5], [0.0, 0.0, 1.5], np.pi / 4), box([0.5, 0.5, 0.5], [0.0, 0.0, 0.5]),
                          [0.0, 0.0, 1.0], UP, SLOP)
    corner = np.sqrt(0.5)
    assert len(found) == 8 and all(abs(p[2] - 1.0) <= 1e-12 for p in found)
    assert max(abs(p[0]) for p in found) == pytest.approx(0.5) and max(np.hypot(p[0], p[1]) for p in found) < corner


def test_a_capsule_across_a_box_touches_where_its_line_leaves_the_box():
    board, log = box([0.5, 0.5, 0.1], [0.0, 0.0, 0.7]), Capsule([-1.0, 0.0, 0.3], [1.0, 0.0, 0.3], 0.3)
    found = contact_patch(board, log, [0.0, 0.0, 0.6], UP, SLOP)
    assert as_set(found) == as_set([[-0.5, 0.0, 0.6], [0.5, 0.0, 0.6]])


def test_capsules_touch_at_their_overlap_when_parallel_and_at_a_point_when_crossing():
    lower = Capsule([-1.0, 0.0, 0.5], [1.0, 0.0, 0.5], 0.5)
    parallel, crossing = Capsule([0.5, 0.0, 1.5], [2.5, 0.0, 1.5], 0.5), Capsule([0.0, -1.0, 1.5], [0.0, 1.0, 1.5], 0.5)
    assert as_set(contact_patch(parallel, lower, [0.5, 0.0, 1.0], UP, SLOP)) == as_set([[0.5, 0.0, 1.0],
                                                                                       [1.0, 0.0, 1.0]])
    assert as_set(contact_patch(crossing, lower, [0.0, 0.0, 1.0], UP, SLOP)) == as_set([[0.0, 0.0, 1.0]])


def test_a_sphere_touches_at_one_point_and_a_box_on_a_triangle_over_their_overlap():
    assert as_set(contact_patch(Sphere([0.2, 0.1, 1.5], 0.5), box([0.5, 0.5, 0.5], [0.0, 0.0, 0.5]),
                                [0.2, 0.1, 1.0], UP, SLOP)) == as_set([[0.2, 0.1, 1.0]])
    ramp = Triangle([0.0, -2.0, 0.0], [2.0, -2.0, 0.0], [0.0, 2.0, 0.0])  # the half-plane x + y/2 <= 1 near the box
    found = contact_patch(box([0.5, 0.5, 0.5], [0.0, 0.0, 0.5]), ramp, [0.0, 0.0, 0.0], UP, SLOP)
    assert as_set(found) == as_set([[0.0, -0.5, 0.0], [0.0, 0.5, 0.0], [0.5, 0.5, 0.0], [0.5, -0.5, 0.0]])


def test_regression_a_corner_just_off_the_face_and_inside_it_is_not_a_patch_corner():
    """Review find: the face's points were ordered by angle, not hulled: a tile with a
    2 mm apex over its centre made a non-convex polygon, and the patch on a box came out
    as [0, 0], [-0.2, -0.2], [-0.2, -0.5], [0.5, -0.5] instead of the overlap rectangle."""
    tile = ConvexPolyhedron([[-1.0, -1.0, 1.0], [1.0, -1.0, 1.0], [1.0, 1.0, 1.0], [-1.0, 1.0, 1.0], [0.0, 0.0, 1.002]])
    found = contact_patch(tile, box([0.5, 0.5, 0.5], [0.3, 0.0, 0.5]), [0.3, 0.0, 1.0], UP, 0.005)
    assert as_set(found) == as_set([[x, y, 1.0] for x in (-0.2, 0.8) for y in (-0.5, 0.5)])


def test_parallel_capsules_side_by_side_touch_along_their_line():
    """Two parallel capsules touching side by side (the normal tilted off the axes) touch
    along a line: its two ends."""
    lower = Capsule([-1.0, 0.0, 0.5], [1.0, 0.0, 0.5], 0.5)
    normal = np.array([0.0, 0.6, 0.8])
    beside = Capsule([-1.0, 0.6, 1.3], [1.0, 0.6, 1.3], 0.5)  # axis 1.0 from the lower one's along the normal
    found = contact_patch(beside, lower, [0.0, 0.3, 0.9], normal, 1e-9)
    assert as_set(found) == as_set([[-1.0, 0.3, 0.9], [1.0, 0.3, 0.9]])

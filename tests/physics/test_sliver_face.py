"""Where a polygon core stops having a face, and what bounds it: the same rules for a
sphere and a capsule.

A triangle whose Newell normal is no longer than the rounding of its coordinates
times its extent (``tolerance.COORDINATE_ROUNDING_ULPS`` ulps of its largest
coordinate, ``physics.core.face_normal``) is only its edges.  The triangle here,
(0, 0, 0), (1, 0, 0), (0.5, h, 0), has extent 1 (twice its bounding ball's 0.5) and
largest coordinate 1, so that threshold is 64 * 2^-52 = 2^-46 for its Newell length
h.  A ball of radius 0.5 centred 2^-45 above the strip, 2^-49 off edge 0 in its
plane, touches at t = 0: over a face it leaves along the face normal (0, 0, 1); with
edges only it leaves along its offset from edge 0, (0, 1, 16) / sqrt(257), 3.6
degrees away (2^-45 is above the 2^-46 rounding of the separation: no escape rule).
"""

import math

import numpy as np
import pytest

from sweeplab.physics import Capsule, Polygon, Sphere, Triangle, sweep, tolerance
from tests.physics.expect import assert_hit

THRESHOLD = 2.0**-46
ACROSS, ABOVE = 2.0**-49, 2.0**-45
FACE_NORMAL = (0.0, 0.0, 1.0)
EDGE_NORMAL = (0.0, 1 / math.sqrt(257), 16 / math.sqrt(257))


def _sliver(h):
    return Triangle([0.0, 0, 0], [1.0, 0, 0], [0.5, h, 0])


def _ball_and_capsule(radius=0.5):
    """A ball, and a capsule whose lowest end is that ball (its core rises to z = 1)."""
    center = (0.25, ACROSS, ABOVE)
    return Sphere(center, radius), Capsule(center, (0.25, ACROSS, 1.0), radius)


def test_threshold_is_the_rounding_of_unit_coordinates():
    """Pins 2^-46 to the constant (a changed constant moves the threshold, and the
    tests below then see a face where there is none, or none where there is one)."""
    assert tolerance.COORDINATE_ROUNDING_ULPS * np.finfo(float).eps * 1.0 * 1.0 == THRESHOLD


def test_regression_capsule_sees_edges_of_a_sliver_as_a_sphere_does():
    """Issue #33: the capsule's copies of the Newell normal and of the inside-face test
    lacked the rounding slack, so this sliver (Newell length 2^-47, half the
    threshold) was a face to the capsule (normal (0, 0, 1), feature face 0) and edges
    only to the sphere (edge 0) for the same ball at t = 0."""
    sphere, capsule = _ball_and_capsule()
    sliver = _sliver(2.0**-47)
    for shape in (sphere, capsule):
        result = sweep(shape, sliver, [0.0, 0.0, -1.0])
        assert_hit(result, t=0.0, normal=EDGE_NORMAL, feature=("edge", 0),
                   depth=0.5 - ABOVE * math.sqrt(257) / 16)
    assert sweep(capsule, sliver, [0.0, 0.0, -1.0]).normal.tolist() == \
        sweep(sphere, sliver, [0.0, 0.0, -1.0]).normal.tolist()


@pytest.mark.parametrize("h, has_face", [
    (np.nextafter(THRESHOLD, 0.0), False),  # one float inside: edges only
    (THRESHOLD, False),                     # at it: no longer than the rounding, edges only
    (np.nextafter(THRESHOLD, 1.0), True),   # one float outside: a face
])
@pytest.mark.parametrize("shape_index", [0, 1], ids=["sphere", "capsule"])
def test_face_or_edges_at_the_threshold(h, has_face, shape_index):
    shape = _ball_and_capsule()[shape_index]
    result = sweep(shape, _sliver(float(h)), [0.0, 0.0, -1.0])
    if has_face:
        assert_hit(result, t=0.0, normal=FACE_NORMAL, feature=("face", 0), depth=0.5 - ABOVE)
    else:
        assert_hit(result, t=0.0, normal=EDGE_NORMAL, feature=("edge", 0), depth=0.5 - ABOVE * math.sqrt(257) / 16)


def test_regression_a_rounding_sized_edge_does_not_cut_the_face_for_a_capsule_either():
    """Issue #33: the unit square with a near-duplicate vertex (1 - 2^-40, 2^-41) after
    (1, 0): its edge from (1, 0) is 1.1e-12 long, below the polygon slack (~1.4e-9,
    ``tolerance.POLYGON_RTOL``), so it has no direction and does not bound the face.
    Taken as a direction (up and left) it cut the face along a diagonal: a ball at
    (0.5, 0.875), 0.0625 above the face, radius 0.25, touches the face at depth 0.1875;
    the capsule kernel (no slack) answered edge 3 instead, normal (0, -0.894, 0.447),
    depth 0.110."""
    polygon = Polygon([[0.0, 0, 0], [1.0, 0, 0], [1.0 - 2.0**-40, 2.0**-41, 0], [1.0, 1, 0], [0.0, 1, 0]])
    center = (0.5, 0.875, 0.0625)
    for shape in (Sphere(center, 0.25), Capsule(center, (0.5, 0.875, 1.0), 0.25)):
        assert_hit(sweep(shape, polygon, [0.0, 0.0, -1.0]), t=0.0, normal=FACE_NORMAL, feature=("face", 0),
                   depth=0.1875, point=(0.5, 0.875, 0.0), face_index=0)

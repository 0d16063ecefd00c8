"""Mesh against mesh overlap (dual tree walk), triangle pairs, the swept-sphere
broadphase and the bisection narrowphase."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

from sweeplab.physics import TriangleMesh
from sweeplab.physics.broadphase import NarrowphaseTrace, first_mesh_contact, swept_sphere_interval
from sweeplab.physics.mesh_edges import mesh_edges
from sweeplab.physics.overlap import mesh_overlap, triangle_overlap
from sweeplab.physics.traversal import TraversalTrace
from tests.physics.strategies import meshes
from tests.physics.test_bvh import grid_mesh

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

UNIT = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0]], float)


def box(half: float = 1.0) -> TriangleMesh:
    """An axis-aligned cube [-half, half]^3, 12 outward-wound triangles."""
    corners = np.array([[x, y, z] for x in (-half, half) for y in (-half, half) for z in (-half, half)])
    faces = [[0, 1, 3], [0, 3, 2], [4, 6, 7], [4, 7, 5], [0, 4, 5], [0, 5, 1],
             [2, 3, 7], [2, 7, 6], [0, 2, 6], [0, 6, 4], [1, 5, 7], [1, 7, 3]]
    return TriangleMesh(corners, faces)


def _pair_of(first, second):
    return triangle_overlap(np.asarray(first, float), np.asarray(second, float))


def _pair(second):
    return _pair_of(UNIT, second)


def test_triangle_pairs_by_hand():
    assert _pair(UNIT + [0.2, 0.2, 0]) == (True, True)  # coplanar, sharing area: touching, not crossing
    assert _pair(UNIT + [1.0, 0, 0]) == (True, True)  # coplanar, sharing the point (1, 0, 0)
    assert _pair(UNIT + [1.0 + 2.0**-40, 0, 0]) == (False, False)  # coplanar, just apart
    piercing = [[0.2, 0.2, -1], [0.2, 0.2, 1], [0.3, 0.9, 0]]
    assert _pair(piercing) == (True, False)
    resting = [[0.2, 0.2, 0], [0.8, 0.1, 1], [0.1, 0.8, 1]]  # one vertex on the face
    assert _pair(resting) == (True, True)
    above = [[0.2, 0.2, 2.0**-40], [0.8, 0.1, 1], [0.1, 0.8, 1]]
    assert _pair(above) == (False, False)
    crossing_edges = [[0.5, -1, 0.5], [0.5, 1, -0.5], [0.5, 1, 0.5]]  # an edge through the triangle's interior
    assert _pair(crossing_edges)[0]
    point = [[0.25, 0.25, 0]] * 3  # a zero-area triangle on the face: a point
    assert _pair(point) == (True, True)
    # degenerate against degenerate: the axes a segment or point needs
    assert not _pair_of([[0, 0, 3]] * 3, [[0.5, -3, -3], [-3, 0.5, 1], [0.5, -3, -3]])[0]  # point off a segment
    assert _pair_of([[1, 1, 1]] * 3, [[0, 0, 0], [2, 2, 2], [0, 0, 0]])[0]  # point on a segment
    assert not _pair_of([[0, 0, 0], [1, 0, 0], [1, 0, 0]], [[0, 1, 0], [1, 1, 0], [1, 1, 0]])[0]  # parallel
    assert not _pair_of([[0, 0, 0], [1, 0, 0], [0, 0, 0]], [[2, 0, 0], [3, 0, 0], [3, 0, 0]])[0]  # collinear
    assert not _pair_of([[0, 0, 0]] * 3, [[0, 0, 2.0**-40]] * 3)[0]  # two points
    segment_in_plane = [[-1, 0.5, 0], [-0.1, 0.5, 0], [-0.1, 0.5, 0]]  # coplanar, beside the triangle
    assert not _pair(segment_in_plane)[0]
    assert not _pair_of([[0, 0, 0], [2, 0, 0], [0, 0, 0]], [[3, -1, 1], [3, 1, -1], [3, 1, -1]])[0]


def brute_force_pairs(mesh_a: TriangleMesh, mesh_b: TriangleMesh) -> set:
    corners_a = mesh_a.to_world(mesh_a.vertices)[mesh_a.faces]
    corners_b = mesh_b.to_world(mesh_b.vertices)[mesh_b.faces]
    return {(i, j) for i in range(len(corners_a)) for j in range(len(corners_b))
            if triangle_overlap(corners_a[i], corners_b[j])[0]}


def test_two_boxes_overlapping_at_a_corner():
    a = box()
    b = box().moved(translation=[1.5, 1.5, 1.5])
    trace = TraversalTrace()
    found = mesh_overlap(a, b, trace)
    pairs = set(map(tuple, found.pairs.tolist()))
    assert pairs == brute_force_pairs(a, b) and pairs
    assert trace.counts()["culled"] > 0
    assert mesh_overlap(a, box().moved(translation=[2 + 2.0**-30, 0, 0])).pairs.shape == (0, 2)
    touching = mesh_overlap(a, box().moved(translation=[2, 0, 0]))
    assert len(touching.pairs) and np.all(touching.touching)


@SETTINGS
@given(meshes(max_faces=10), meshes(max_faces=10))
def test_dual_walk_finds_every_overlapping_pair(mesh_a, mesh_b):
    pairs = set(map(tuple, mesh_overlap(mesh_a, mesh_b).pairs.tolist()))
    assert pairs == brute_force_pairs(mesh_a, mesh_b)


def test_swept_sphere_interval_by_hand():
    enter, exit_ = swept_sphere_interval([0, 0, 0], 1, [10, 0, 0], [5, 0, 0], 1, [0, 0, 0])
    assert (enter, exit_) == (0.3, 0.7)
    assert np.isnan(swept_sphere_interval([0, 0, 0], 1, [0, 0, 0], [5, 0, 0], 1, [0, 0, 0])[0])  # still, apart
    assert swept_sphere_interval([0, 0, 0], 3, [0, 0, 0], [5, 0, 0], 3, [0, 0, 0]) == (0.0, 1.0)  # still, overlapping
    assert swept_sphere_interval([0, 0, 0], 1, [1, 0, 0], [5, 0, 0], 1, [-2, 0, 0]) == (1.0, 1.0)  # touch at the end
    assert np.isnan(swept_sphere_interval([0, 0, 0], 1, [1, 0, 0], [5, 0, 0], 1, [-2 + 1e-9, 0, 0])[0])
    grazing = swept_sphere_interval([0, 2, 0], 1, [10, 0, 0], [5, 0, 0], 1, [0, 0, 0])  # tangent in passing
    assert grazing == (0.5, 0.5)
    batch = swept_sphere_interval(np.zeros((2, 3)), [1, 1], [[10, 0, 0], [-10, 0, 0]], [5, 0, 0], 1, [0, 0, 0])
    assert np.allclose(batch[0], [0.3, np.nan], equal_nan=True)
    with pytest.raises(ValueError, match="motion_a"):
        swept_sphere_interval([0, 0, 0], 1, [np.nan, 0, 0], [5, 0, 0], 1, [0, 0, 0])


def test_bisection_narrowphase_finds_two_boxes_meeting():
    """Boxes of half-size 1 closing a gap of 4 at relative speed 6: faces meet at t = 2/3."""
    trace = NarrowphaseTrace()
    contact = first_mesh_contact(box().moved(translation=[-3, 0, 0]), [3, 0, 0],
                                 box().moved(translation=[3, 0.25, 0]), [-3, 0, 0], trace=trace)
    assert contact.hit and abs(contact.t - 2 / 3) <= 1e-12
    low, high = contact.bracket
    assert low < 2 / 3 <= high and high - low <= 1e-15
    assert trace.interval[0] < contact.t and [step.phase for step in trace.steps].count("bisect") > 30
    assert len(contact.overlap.pairs) and trace.steps[-1].t in (low, high)


def test_narrowphase_misses_and_overlaps_at_start():
    apart = first_mesh_contact(box(), [0, 0, 0], box().moved(translation=[5, 0, 0]), [0, 1, 0])
    assert not apart.hit and apart.t is None
    at_start = first_mesh_contact(box(), [1, 0, 0], box().moved(translation=[1, 0, 0]), [0, 0, 0])
    assert at_start.hit and at_start.t == 0.0


def test_edges_neighbours_and_the_internal_rule():
    vertices, faces = grid_mesh(2)
    edges = mesh_edges(vertices, faces)
    # face 0 = (0,0),(1,0),(1,1): edge 0 on the border, edge 1 shared with quad (1,0)'s other half, edge 2 the diagonal
    assert edges.neighbor[0].tolist() == [-1, 6, 4]
    assert edges.internal[0].tolist() == [False, True, True]
    assert edges.internal_vertex[0].tolist() == [False, False, True]  # vertex 2 = (1, 1) is interior
    folded = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0.5, 1, 0]], float)  # two faces on the same side
    fold = mesh_edges(folded, np.array([[0, 1, 2], [0, 1, 3]]))
    assert fold.neighbor[0, 0] == 1 and not fold.internal[0, 0]

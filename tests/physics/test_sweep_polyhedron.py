"""Convex polyhedra: the hull, SAT-over-time sweeps (hand-worked, feature pairs),
rounded shapes against polyhedra, and the GJK cast as a second opinion on every pair."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from sweeplab.physics import (Capsule, ConvexPolyhedron, Plane, Point, Polygon, Segment, Sphere, Triangle, sweep,
                              tolerance)
from sweeplab.physics.gjk import closest_on_simplex, convex_cast
from sweeplab.physics.hull import MAX_HULL_POINTS, convex_hull
from sweeplab.physics.sweep.polyhedron import SatTrace, edge_vectors
from sweeplab.physics.sweep.sat import _overlap_in_time
from tests.conftest import examples
from tests.physics.expect import assert_close, assert_hit, assert_miss
from tests.physics.bodies import body_of, scale
from tests.physics.bodies import gap as gap_of
from tests.physics.strategies import degenerate_hulls, meshes, near_shapes, rotations

SETTINGS = settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
GJK_SETTINGS = settings(max_examples=examples(20), deadline=None, suppress_health_check=[HealthCheck.too_slow])
GJK_TIME_ATOL = 1e-7
"""How closely the GJK cast (which converges to ``tolerance.GJK_RTOL`` of the scale in
distance) and the exact SAT agree on t in these unit-scale tests (distance error over
closing speed: up to ~1e-8 for speeds down to ~0.01)."""


def quarter_turn(axis: str, angle: float = math.pi / 4) -> np.ndarray:
    c, s = math.cos(angle), math.sin(angle)
    return {"x": np.array([[1, 0, 0], [0, c, -s], [0, s, c]]), "y": np.array([[c, 0, s], [0, 1, 0], [-s, 0, c]]),
            "z": np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])}[axis]


# --- hull -------------------------------------------------------------------------

def test_hulls_of_a_box_a_tetrahedron_and_random_points():
    box = ConvexPolyhedron.box([1, 2, 3])
    assert (len(box.vertices), len(box.faces), len(box.edges), box.dimension) == (8, 6, 12, 3)
    assert np.allclose(sorted(box.offsets), [1, 1, 2, 2, 3, 3])
    tetrahedron = convex_hull(np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1], [0.1, 0.1, 0.1]]))
    # the inner point is dropped
    assert (len(tetrahedron.vertices), len(tetrahedron.faces), len(tetrahedron.edges)) == (4, 4, 6)
    points = np.random.default_rng(3).normal(size=(40, 3))
    hull = convex_hull(points)
    assert len(hull.vertices) - len(hull.edges) + len(hull.faces) == 2  # Euler
    assert np.all(points @ hull.normals.T <= hull.offsets + 1e-12)  # every point inside every face


UNIT_CUBE = np.array([[x, y, z] for x in (0.0, 1.0) for y in (0.0, 1.0) for z in (0.0, 1.0)])


@pytest.mark.parametrize("beyond, faces", [(0.5e-7, 6), (2e-7, 9)])
def test_points_within_a_ten_millionth_of_the_extent_are_one_vertex(beyond, faces):
    """``tolerance.HULL_MERGE_RTOL`` (1e-7 of the extent, about sqrt 3 here; written out
    to pin it): the unit cube and a point ``beyond`` past its corner (1, 1, 1) along
    the diagonal, sqrt(3) ``beyond`` from it.  At half the tolerance the two are one
    vertex, the corner: a cube; at twice it the far point is a vertex and the three
    faces at that corner fold (9 faces).  (With the tolerance x10 the second was
    a cube; /10 the first had 9 faces.)"""
    hull = convex_hull(np.vstack([UNIT_CUBE, [1 + beyond] * 3]))
    assert (len(hull.vertices), len(hull.faces)) == (8, faces)
    assert hull.vertices.max() == (1.0 if faces == 6 else 1 + beyond)


@pytest.mark.parametrize("rise, faces", [(1e-10, 6), (3e-10, 7)])
def test_points_within_a_ten_billionth_of_a_plane_are_on_it(rise, faces):
    """``tolerance.HULL_RTOL`` (1e-10 of the extent, about sqrt 3 here; written out to
    pin it): the unit cube with its corner (1, 1, 1) raised by ``rise``.  Within the
    tolerance the top stays one square face (6 faces); beyond it the top folds along
    a diagonal (7).  (With the tolerance x10 the second had 6 faces; /10 the first
    had 7.)"""
    corners = UNIT_CUBE.copy()
    corners[-1, 2] += rise
    assert len(convex_hull(corners).faces) == faces


def test_near_duplicate_points_leave_no_hole():
    """Regression (hypothesis, session 2): two points 1e-8 apart made planes no
    triple could fit, the sliver face was lost and the hull had a hole (Euler
    characteristic 1).  Points closer than ``tolerance.HULL_MERGE_RTOL`` of the
    extent are now one vertex."""
    points = np.array([[-0.21622271258265824, -2.057938860669135, -1.927871302329379],
                       [0.0014108166493734544, -1.5405689761705692, -2.4432478330669536],
                       [-0.3322338794647401, -1.2069387196999748, -1.9676782553270074],
                       [0.8274391715842707, -1.781899671412343, -1.5326036672303114],
                       [0.00141081664969437, -1.5405689761705692, -1.5326046700375684],
                       [0.0014108166493734544, -1.5405689946030754, -1.5326046700375684],
                       [0.9857424195213187, -0.5797890263817861, -1.5326046700375684],
                       [0.0014108166493734544, -1.5405689761705692, -2.3064364706700995]])
    hull = convex_hull(points)
    assert len(hull.vertices) - len(hull.edges) + len(hull.faces) == 2
    assert np.all(points @ hull.normals.T <= hull.offsets + 1e-6)


def test_degenerate_hulls_and_limits():
    square = convex_hull(np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [0.5, 0.5, 0]], float))
    assert square.dimension == 2 and len(square.vertices) == 4 and len(square.faces) == 2
    line = convex_hull(np.array([[0, 0, 0], [1, 1, 1], [3, 3, 3]], float))
    assert line.dimension == 1 and np.allclose(line.vertices, [[0, 0, 0], [3, 3, 3]])
    assert convex_hull(np.array([[1.0, 2, 3]] * 3)).dimension == 0
    turn = quarter_turn("z", 0.3) @ quarter_turn("x", 0.7)
    rotated = ConvexPolyhedron.box([1, 1, 1], [1e3, -1e3, 5e2], rotation=turn)
    assert len(rotated.faces) == 6  # rounding does not split faces
    with pytest.raises(ValueError, match="at most"):
        ConvexPolyhedron(np.random.default_rng(0).normal(size=(MAX_HULL_POINTS + 1, 3)))
    corners = ConvexPolyhedron.box([1, 1, 1]).vertices
    dented = corners.copy()
    dented[np.argmax(dented.sum(axis=1))] = 0.0  # a corner pushed to the center: not convex
    with pytest.raises(ValueError, match="same hull structure"):
        ConvexPolyhedron(np.stack([corners, dented]))


@SETTINGS
@given(rotation=rotations(), translation=st.lists(st.floats(-5, 5), min_size=3, max_size=3),
       start=st.lists(st.floats(-3, 3), min_size=3, max_size=3))
def test_a_posed_hull_is_the_moved_hull_with_its_features_kept(rotation, translation, start):
    """``posed`` moves the hull rigidly without searching for it again: the same
    corners, faces and planes as ``moved`` to rounding, the feature numbers of the
    body-space hull, and the same sweeps."""
    body = ConvexPolyhedron([[x, y, z] for x in (-1.0, 1.0) for y in (-0.5, 0.5) for z in (-0.25, 0.25)])
    posed, moved = body.posed(rotation, translation), body.moved(translation, rotation)
    assert posed.faces is body.faces and np.array_equal(posed.edges, body.edges)
    np.testing.assert_allclose(posed.vertices, body.vertices @ rotation.T + translation, rtol=0, atol=1e-14)
    heights = np.einsum("fk,vk->fv", posed.normals, posed.vertices) - posed.offsets[:, None]
    assert np.all(heights <= 1e-13)  # every corner inside every face plane
    np.testing.assert_allclose(np.linalg.norm(posed.normals, axis=1), 1.0, rtol=0, atol=1e-15)
    ball = Sphere(np.asarray(start) + translation + [0.0, 0.0, 4.0], 0.5)
    found, expected = sweep(ball, posed, [0.0, 0.0, -8.0]), sweep(ball, moved, [0.0, 0.0, -8.0])
    path = Capsule(ball.center, ball.center + [0.0, 0.0, -8.0], ball.radius)
    if abs(gap_of(body_of(path), body_of(moved))) <= 1e-12 * scale(path, moved):
        return  # a graze (the ball's path tangent to the box): the corners' rounding may call it either way
    assert found.hit == expected.hit
    if found.hit:
        assert abs(float(found.t) - float(expected.t)) <= 1e-12


def test_a_batch_is_posed_each_by_its_own_translation():
    """One translation per polyhedron of a batch (the fuzzer slides each drawn box its
    own way): the same corners, planes and sweeps as posing each alone; one shared
    translation still moves them all; any other shape is refused, naming it."""
    corners = np.array([[x, y, z] for x in (-1.0, 1.0) for y in (-0.5, 0.5) for z in (-0.25, 0.25)])
    batch = ConvexPolyhedron(np.stack([corners, 2 * corners, 3 * corners]))
    shifts, turn = np.array([[1.0, 0, 0], [0, -2.0, 0], [0.5, 0.25, 3.0]]), quarter_turn("z", 0.3)
    posed = batch.posed(turn, shifts)
    for lane in range(3):
        alone = batch[lane].posed(turn, shifts[lane])
        assert np.array_equal(posed.vertices[lane], alone.vertices)
        assert np.array_equal(posed.offsets[lane], alone.offsets) and np.array_equal(posed.normals[lane], alone.normals)
    balls = Sphere(shifts + [0.0, 0.0, 4.0], 0.25)
    found = sweep(balls, posed, [[0.0, 0.0, -8.0]] * 3)
    assert np.all(found.hit)
    for lane in range(3):
        assert float(found.t[lane]) == float(sweep(balls[lane], batch[lane].posed(turn, shifts[lane]),
                                                   [0.0, 0.0, -8.0]).t)
    assert np.array_equal(batch.posed(turn, shifts[1]).vertices[0], batch[0].posed(turn, shifts[1]).vertices)
    for bad in (np.zeros((2, 3)), np.zeros((3, 2)), np.zeros((1, 3, 3))):
        with pytest.raises(ValueError, match="translation"):
            batch.posed(turn, bad)


@pytest.mark.parametrize("stretch, accepted", [
    (1.0000004, True),                                       # inside: R R^T - I = 8.0e-7
    (1.0000004999998748, True),                              # the last float inside: 9.999999997e-7
    (float(np.nextafter(1.0000004999998748, 2)), False),     # the first outside: 1.0000000001e-6
])
def test_posed_rotation_orthonormal_to_the_tolerance(stretch, accepted):
    """``posed``'s check |R R^T - I| <= ``POSED_ROTATION_ATOL`` (1e-6) at its threshold:
    diag(s, 1, 1) has R R^T - I = s^2 - 1, and no float s gives exactly 1e-6, so the
    last s inside and the first outside stand for it.  (With the constant x10 the
    last one was accepted too.)"""
    assert tolerance.POSED_ROTATION_ATOL == 1e-6
    box, rotation = ConvexPolyhedron.box([1.0, 1.0, 1.0]), np.diag([stretch, 1.0, 1.0])
    if accepted:
        assert box.posed(rotation).vertices.shape == box.vertices.shape
    else:
        with pytest.raises(ValueError, match=r"rotation must be .* \(to 1e-06\)"):
            box.posed(rotation)


def test_regression_posed_float32_corners_come_out_float64_as_moved_gives():
    """Review find: ``posed`` rounded a float32 hull's moved corners back to float32:
    1.78e-3 off at 2e5 from the origin, where ``moved`` gives float64 and is exact."""
    box = ConvexPolyhedron(np.asarray(ConvexPolyhedron.box([0.5, 0.5, 0.5]).vertices, np.float32))
    turn = quarter_turn("z", 0.3)
    posed, moved = box.posed(turn, [1e5, 2e5, 0.5]), box.moved([1e5, 2e5, 0.5], turn)
    assert posed.vertices.dtype == moved.vertices.dtype == np.float64
    np.testing.assert_allclose(posed.vertices, box.vertices.astype(float) @ turn.T + [1e5, 2e5, 0.5], rtol=0,
                               atol=1e-10)


def test_regression_posed_takes_a_float32_rotation_and_refuses_corners_beyond_float64():
    """Review finds: a float32-rounded rotation (R·Rᵀ off I by ~5e-8) was refused, which
    ``moved`` takes; corners posed past 1.8e308 came back infinite, which ``moved``
    refuses."""
    turn = quarter_turn("z", 0.3)
    box = ConvexPolyhedron.box([0.5, 0.5, 0.5])
    posed = box.posed(turn.astype(np.float32).tolist(), [1.0, 2.0, 3.0])
    np.testing.assert_allclose(posed.vertices, box.vertices @ turn.astype(np.float32).T + [1.0, 2.0, 3.0], rtol=0,
                               atol=1e-6)
    heights = np.einsum("fk,vk->fv", posed.normals, posed.vertices) - posed.offsets[:, None]
    assert np.all(heights <= 1e-13)  # the nearest rotation used: the planes stay exact
    with pytest.raises(ValueError, match="finite"):
        ConvexPolyhedron.box([1e308, 1.0, 1.0]).posed(np.eye(3), [1e308, 0.0, 0.0])


def test_posed_refuses_a_rotation_that_is_not_one():
    box = ConvexPolyhedron.box([1.0, 1.0, 1.0])
    for rotation in (np.diag([1.0, 1.0, -1.0]), np.eye(3) * 1.1, np.eye(2), [[np.nan] * 3] * 3):
        with pytest.raises(ValueError, match="rotation must be a 3x3 orthonormal"):
            box.posed(rotation)
    with pytest.raises(ValueError, match="translation"):
        box.posed(np.eye(3), [1.0, 2.0])


# --- polytope against polytope: hand-worked ------------------------------------------

def test_face_onto_face():
    trace = SatTrace()
    result = sweep(ConvexPolyhedron.box([1, 1, 1], [0, 0.5, 5]), ConvexPolyhedron.box([1, 1, 1]), [0, 0, -6],
                   trace=trace)
    # the contact is the rectangle x in [-1, 1], y in [-0.5, 1]: the point is the mean of its corners
    assert_hit(result, t=0.5, normal=[0, 0, 1], point=[0, 0.25, 1], feature=("face", result.feature.index),
               face_index=result.face_index)
    assert result.feature.kind == "face" and trace.feature_pair == ("face", "face")


def test_resting_faces_touch_and_sliding_ignores_them():
    resting = ConvexPolyhedron.box([1, 1, 1], [0.5, 0, 2])
    floor = ConvexPolyhedron.box([1, 1, 1])
    touching = sweep(resting, floor, [3, 0, 0])
    assert touching.t == 0 and touching.initially_overlapping is False and touching.normal.tolist() == [0, 0, 1]
    assert_miss(sweep(resting, floor, [3, 0, 0], ignore_separating=True))  # slides along the floor


def test_edge_across_edge_at_right_angles():
    """A box turned 45 degrees about y (lowest feature: an edge along y) falls on a
    box turned 45 degrees about x (highest feature: an edge along x)."""
    falling = ConvexPolyhedron.box([1, 1, 1], [0, 0, 5], rotation=quarter_turn("y"))
    below = ConvexPolyhedron.box([1, 1, 1], rotation=quarter_turn("x"))
    trace = SatTrace()
    result = sweep(falling, below, [0, 0, -5], trace=trace)
    assert_close(result.t, (5 - 2 * math.sqrt(2)) / 5, what="t")
    assert_close(result.normal, [0, 0, 1], what="normal")
    assert_close(result.point, [0, 0, math.sqrt(2)], what="point")
    assert result.feature.kind == "edge" and trace.feature_pair == ("edge", "edge")


def test_vertex_into_face():
    tip_down = ConvexPolyhedron.tetrahedron([0, 0, 2], [1, 0, 3], [-1, 1, 3], [-1, -1, 3])
    trace = SatTrace()
    result = sweep(tip_down, ConvexPolyhedron.box([2, 2, 1]), [0.5, 0, -2], trace=trace)
    assert_hit(result, t=0.5, normal=[0, 0, 1], point=[0.25, 0, 1], feature=("face", result.feature.index),
               face_index=result.face_index)
    assert trace.feature_pair == ("vertex", "face")


def test_initial_overlap_takes_the_least_penetration():
    result = sweep(ConvexPolyhedron.box([1, 1, 1], [1.75, 0.2, 0]), ConvexPolyhedron.box([1, 1, 1]), [0, 0, 1])
    assert result.t == 0 and result.initially_overlapping
    assert_close(result.penetration_depth, 0.25, what="depth")
    assert_close(result.normal, [1, 0, 0], what="normal")


def test_against_points_segments_triangles_polygons_and_planes():
    box = ConvexPolyhedron.box([1, 1, 1], [-5, 0, 0])
    assert_hit(sweep(box, Point([0, 0.5, 0.5]), [10, 0, 0]), t=0.4, normal=[-1, 0, 0], point=[0, 0.5, 0.5],
               feature=("vertex", 0))
    along_z = sweep(box, Segment([0, 0, -3], [0, 0, 3]), [10, 0, 0])
    assert_hit(along_z, t=0.4, normal=[-1, 0, 0], point=along_z.point, feature=("edge", 0))
    triangle = sweep(box, Triangle([0, -1, -1], [0, 1, -1], [0, 0, 1]), [10, 0, 0])
    assert_hit(triangle, t=0.4, normal=[-1, 0, 0], point=triangle.point, feature=("face", 0), face_index=None)
    corner_first = sweep(box, Polygon([[0, 2, 2], [1, 2, 2], [1, 0.5, 0.5]]), [10, 0, 0])
    assert_close(corner_first.t, (4 + 2 / 3) / 10, what="t")  # the polygon's edge enters the box's y, z at x = 2/3
    assert_hit(sweep(box, Plane([1, 0, 0], 0), [10, 0, 0]), t=0.4, normal=[-1, 0, 0], point=[0, -1, -1],
               feature=("face", 0))
    assert_miss(sweep(box, Plane([1, 0, 0], 0), [3, 0, 0]))
    assert_miss(sweep(box, Point([0, 1 + 2.0**-40, 0]), [10, 0, 0]))  # passes a point just above its top face


@pytest.mark.parametrize("axis", range(3))
@pytest.mark.parametrize("points", [[[0.0, 0, 0]], [[0.0, 0, 0], [0.1, 0, 0]], [[0.0, 0, 0], [0.1, 0, 0], [0, 0.1, 0]]],
                         ids=["one point", "two points", "flat"])
def test_regression_degenerate_polyhedron_moving_a_short_way_passes_a_point(points, axis):
    """Issue #17: a one- or two-point polyhedron moving 0.5 along x passed a point 1
    away in y and answered a hit (t = 0.4, 0.5): the helper axis of the motion axes was
    chosen by |d.x| < 0.9 on the unnormalised direction, so for a motion shorter than
    0.9 along x both "perpendicular" axes vanished.  Now along every axis, both ways."""
    rotate = np.roll(np.eye(3), axis, axis=1)  # x -> the axis
    body = ConvexPolyhedron(np.array(points) @ rotate)
    beside = np.array([0.3, 1, 0]) @ rotate
    motion = np.array([0.5, 0, 0]) @ rotate
    assert_miss(sweep(body, Point(beside), motion))
    assert_miss(sweep(Point(beside), body, -motion))
    hit = sweep(body, Point(beside - np.array([0, 1, 0]) @ rotate), motion)
    assert_close(hit.t, 0.4 if len(points) > 1 else 0.6, what="t")


def test_flat_square_sliding_into_coplanar_point_and_segment():
    """Two non-solid shapes need the motion's axes: a flat square sliding in its own
    plane meets a coplanar point or segment at t = 0.4, not 0 (without those axes
    nothing separates them; and a two-point polyhedron against a point had no axis
    at all)."""
    square = ConvexPolyhedron([[-1.0, -1, 0], [1, -1, 0], [1, 1, 0], [-1, 1, 0]])
    assert_hit(sweep(square, Point([3.0, 0, 0]), [5.0, 0, 0]), t=0.4, normal=[-1, 0, 0], point=[3, 0, 0],
               feature=("vertex", 0))
    along_y = sweep(square, Segment([3.0, -0.5, 0], [3.0, 0.5, 0]), [5.0, 0, 0])
    assert_hit(along_y, t=0.4, normal=[-1, 0, 0], point=along_y.point, feature=("edge", 0))
    assert_hit(sweep(ConvexPolyhedron([[0.0, 0, 0], [1, 0, 0]]), Point([3.0, 0, 0]), [5.0, 0, 0]), t=0.4,
               normal=[-1, 0, 0], point=[3, 0, 0], feature=("vertex", 0))


def test_rounded_shapes_against_a_box():
    box = ConvexPolyhedron.box([1, 1, 1])
    assert_hit(sweep(Sphere([-5, 0.2, 0.3], 0.5), box, [10, 0, 0]), t=0.35, normal=[-1, 0, 0], point=[-1, 0.2, 0.3],
               feature=("face", 0), face_index=0)
    corner = sweep(Sphere([3, 3, 3], 0.5), box, [-3, -3, -3])
    assert_close(corner.t, (2 - 0.5 / math.sqrt(3)) / 3, what="t")
    assert corner.feature.kind == "vertex" and np.allclose(corner.point, [1, 1, 1])
    inside = sweep(Sphere([0.2, 0, 0], 0.5), box, [0, 0, 1])
    assert inside.initially_overlapping and abs(inside.penetration_depth - 1.3) <= 1e-15
    assert_close(inside.normal, [1, 0, 0], what="normal")
    lying = sweep(Capsule([-3, 0, 3], [3, 0, 3], 0.5), box, [0, 0, -3])
    assert_close(lying.t, 0.5, what="t")
    assert lying.normal.tolist() == [0, 0, 1]
    through = sweep(Capsule([0, 0, -3], [0, 0, 3], 0.25), box, [1, 0, 0])  # a capsule through the box
    assert through.initially_overlapping and abs(through.penetration_depth - 1.25) <= 1e-15
    assert_miss(sweep(Sphere([-5, 2, 2.2], 0.5), box, [10, 0, 0]))


def _edge_index(polyhedron, first, second) -> int:
    ends = {tuple(polyhedron.vertices[i]): i for i in range(len(polyhedron.vertices))}
    wanted = sorted((ends[tuple(map(float, first))], ends[tuple(map(float, second))]))
    return [sorted(map(int, edge)) for edge in polyhedron.edges].index(wanted)


def test_regression_capsule_through_a_box_touches_it_on_the_face():
    """Issue #17: a capsule through a box answered the point (1, 0, -10), its deepest
    end projected onto the box's supporting plane, far outside the face.  Moved by
    depth x normal (0.6 along +x) the capsule touches the face x = 1 along y = 0,
    z in [-1, 1]: the point must be there (the middle, by symmetry)."""
    box = ConvexPolyhedron.box([1, 1, 1])
    result = sweep(Capsule([0.5, 0, -10], [0.5, 0, 10], 0.1), box, [0, 0, 0])
    face = int(np.argmax(box.normals @ [1, 0, 0]))
    assert_hit(result, t=0, normal=[1, 0, 0], point=[1, 0, 0], depth=0.6, feature=("face", face), face_index=face)


def test_regression_segment_in_a_box_leaves_across_an_edge():
    """The segment (0, 0, 0)-(0, 1, 1) inside the box [-1, 1]^2 x [0, 2] leaves it
    most cheaply along (0, 1, -1) / sqrt 2, by sqrt(2) / 2: it then touches the box's
    edge y = 1, z = 0 at (0, 1, 0).  The point was (0, 0.5, -0.5), off the box, and the
    feature a face (hypothesis, the overlap property of every pair)."""
    box = ConvexPolyhedron.box([1, 1, 1], [0, 0, 1])
    result = sweep(Segment([0.0, 0, 0], [0, 1, 1]), box, [0, 0, 0])
    edge = _edge_index(box, [-1, 1, 0], [1, 1, 0])
    assert_hit(result, t=0, normal=[0, math.sqrt(0.5), -math.sqrt(0.5)], point=[0, 1, 0], depth=math.sqrt(0.5),
               feature=("edge", edge), face_index=result.face_index)


def test_batched_boxes_match_one_by_one():
    rng = np.random.default_rng(11)
    centers, directions = rng.uniform(-4, 4, (40, 3)), rng.uniform(-6, 6, (40, 3))
    moving = ConvexPolyhedron.box(np.full((40, 3), 0.5), centers)
    target = ConvexPolyhedron.box([1, 1, 1], [0, 0, 0], rotation=quarter_turn("z", 0.4))
    batch = sweep(moving, target, directions)
    for i in range(40):
        one = sweep(moving[i], target, directions[i])
        assert one.hit == batch.hit[i] and (not one.hit or (one.t == batch.t[i] and np.array_equal(one.normal,
                                                                                                    batch.normal[i])))


def _assert_lane_is(batch, i, one) -> None:
    """Lane ``i`` of a batched answer is the scalar answer ``one``, floats bit for bit."""
    assert batch.hit[i] == one.hit
    if not one.hit:
        assert np.isnan(batch.t[i]) and batch.face_index[i] == -1 and batch.feature.index[i] == -1
        return
    assert (batch.t[i], batch.feature.kind[i], batch.feature.index[i], batch.initially_overlapping[i]) == \
        (one.t, one.feature.kind, one.feature.index, one.initially_overlapping)
    assert batch.face_index[i] == (-1 if one.face_index is None else one.face_index)
    assert batch.penetration_depth[i].tobytes() == np.float64(np.nan if one.penetration_depth is None
                                                              else one.penetration_depth).tobytes()
    assert batch.point[i].tobytes() == one.point.tobytes() and batch.normal[i].tobytes() == one.normal.tobytes()


lattice = st.integers(-3, 3)


@settings(max_examples=examples(30), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.tuples(lattice, lattice, lattice), st.tuples(lattice, lattice, lattice)), min_size=2,
                max_size=6), st.sampled_from(["moving", "target"]), st.none() | rotations())
def test_one_polytope_shared_by_every_lane_answers_as_each_lane_alone(lanes, shared, rotation):
    """A batch against one polytope (or one polytope against a batch) reads that
    polytope's single row in every lane (``polyhedron.lane_row``): each lane answers
    bit for bit as the pair alone, and as the polytope repeated in every lane does.
    Unit boxes on the half-integer lattice moving by whole steps (turned or not) touch
    face to face, along edges and at corners, graze, overlap and miss.  (Seen failing
    with ``lane_row`` reading row 0 of every batch.)"""
    count = len(lanes)
    one = ConvexPolyhedron.box([[0.5, 0.5, 0.5]], [[0.5, 0.0, 0.5]], rotation)  # a batch of one
    many = ConvexPolyhedron.box(np.full((count, 3), 0.5), np.array([center for center, _ in lanes], float))
    directions = np.array([step for _, step in lanes], float)
    moving, target = (one, many) if shared == "moving" else (many, one)
    batch = sweep(moving, target, directions)
    for i in range(count):
        alone = (one[0], many[i]) if shared == "moving" else (many[i], one[0])
        _assert_lane_is(batch, i, sweep(*alone, directions[i]))
    repeated = one[np.zeros(count, int)]
    as_batch = sweep(repeated, many, directions) if shared == "moving" else sweep(many, repeated, directions)
    for name in ("t", "point", "normal", "penetration_depth", "face_index"):
        assert getattr(as_batch, name).tobytes() == getattr(batch, name).tobytes(), name


def test_edge_vectors_are_the_differences_of_their_ends():
    """``edge_vectors`` (the compiled loop) subtracts as numpy does, row by row, and
    takes zero rows and zero edges."""
    vertices = np.random.default_rng(4).normal(size=(5, 8, 3)) * 10.0 ** np.arange(-4, 4).reshape(1, 8, 1)
    ends = np.array([[0, 1], [2, 7], [6, 3]])
    assert edge_vectors(vertices, ends).tobytes() == (vertices[:, ends[:, 1]] - vertices[:, ends[:, 0]]).tobytes()
    assert edge_vectors(vertices[:0], ends).shape == (0, 3, 3)
    assert edge_vectors(vertices, np.zeros((0, 2), int)).shape == (5, 0, 3)


def test_a_lane_answers_as_its_element_alone_and_a_hull_built_alone_to_rounding():
    """Batches of turned boxes on both sides: ``sweep(a[i], b[i], d[i])`` is lane i bit
    for bit (the element keeps the batch's hull structure).  A polyhedron built alone
    from the same corners gets its own hull (its own vertex order, face numbering and
    face planes, which round differently): the same contact to rounding."""
    rng = np.random.default_rng(12)
    turns = [quarter_turn(axis, angle) for axis, angle in zip("xyz", rng.uniform(0, 1, 3), strict=True)]
    turn = turns[0] @ turns[1] @ turns[2]
    a = ConvexPolyhedron.box(rng.uniform(0.2, 2, (60, 3)), rng.uniform(-3, 3, (60, 3)), rotation=turn)
    b = ConvexPolyhedron.box(rng.uniform(0.2, 2, (60, 3)), rng.uniform(-3, 3, (60, 3)))
    directions = rng.uniform(-6, 6, (60, 3))
    batch = sweep(a, b, directions)
    assert 10 < np.count_nonzero(batch.hit) < 60
    for i in range(60):
        one = sweep(a[i], b[i], directions[i])
        assert one.hit == batch.hit[i]
        if one.hit:
            assert (one.t, one.feature.kind, one.feature.index) == (batch.t[i], batch.feature.kind[i],
                                                                    batch.feature.index[i])
            assert one.normal.tobytes() == batch.normal[i].tobytes()
            assert one.point.tobytes() == batch.point[i].tobytes()
        alone = sweep(ConvexPolyhedron(a.vertices[i]), ConvexPolyhedron(b.vertices[i]), directions[i])
        assert alone.hit == batch.hit[i]
        if alone.hit:
            assert_close(alone.t, batch.t[i], rtol=1e-12)
            assert_close(alone.normal, batch.normal[i], rtol=1e-12)


# --- the second opinion -----------------------------------------------------------

def test_closest_point_of_simplices():
    point, kept, weights = closest_on_simplex(np.array([[1.0, -1, 1], [1.0, 1, 1], [1.0, 0, -2]]))
    assert np.allclose(point, [1, 0, 0]) and len(kept) == 3 and np.isclose(weights.sum(), 1)
    point, kept, _ = closest_on_simplex(np.array([[2.0, 0, 0], [3.0, 1, 0]]))
    assert np.allclose(point, [2, 0, 0]) and kept.tolist() == [0]


def generic_vectors(low, high, phase):
    """Vectors whose coordinates get a small offset depending on the value and on
    ``phase`` (one per object): hypothesis favours 0 and round numbers, which line
    vertices up exactly on faces — grazes, which the hand-worked tests cover; the GJK
    comparison is about generic configurations."""
    return st.tuples(*[st.floats(low, high)] * 3).map(
        lambda v: np.array(v) + 1e-3 * np.sin(1e3 * np.array(v) + phase + np.array([1.0, 2.0, 3.0])))


@st.composite
def hulls(draw, size=1.0):
    count = draw(st.integers(4, 9))
    points = np.array(draw(st.lists(generic_vectors(-size, size, draw(st.floats(0, 6))), min_size=count,
                                    max_size=count)))
    assume(np.linalg.matrix_rank(points - points.mean(axis=0), tol=1e-3) == 3)
    return ConvexPolyhedron(points @ draw(rotations()).T + draw(generic_vectors(-3, 3, 0.7)))


motions = generic_vectors(-8, 8, 1.9).filter(lambda d: np.linalg.norm(d) > 0.5)


def _gjk_agrees(result, cast):
    if cast.status in ("stalled", "max iterations"):  # the second opinion has no answer: nothing to compare
        return True
    if cast.status == "overlap at start" or (result.hit and result.t == 0):
        return result.hit and result.t == 0 and cast.hit
    if result.hit != cast.hit:  # only a graze may differ
        return False
    return not result.hit or abs(result.t - cast.t) <= GJK_TIME_ATOL


@GJK_SETTINGS
@given(hulls(), hulls(), motions)
def test_sat_and_gjk_agree_on_random_polyhedra(moving, target, motion):
    result = sweep(moving, target, motion)
    cast = convex_cast(moving, target, motion)
    if not _gjk_agrees(result, cast):
        _assert_graze(moving, target, motion, result, cast)


@GJK_SETTINGS
@given(st.sampled_from(["sphere", "capsule", "point", "segment", "triangle"]), hulls(), motions,
       generic_vectors(-4, 4, 3.1), st.floats(0, 1))
def test_every_pair_with_a_polyhedron_agrees_with_gjk(kind, polyhedron, motion, where, radius):
    other = {"sphere": Sphere(where, radius), "capsule": Capsule(where, where + [1, 0.5, 0], radius),
             "point": Point(where), "segment": Segment(where, where + [0, 1, 1]),
             "triangle": Triangle(where, where + [1, 0, 0], where + [0, 1, 0.5])}[kind]
    for moving, target, d in ((other, polyhedron, motion), (polyhedron, other, motion)):
        result = sweep(moving, target, d)
        cast = convex_cast(moving, target, d)
        if not _gjk_agrees(result, cast):
            _assert_graze(moving, target, d, result, cast)


def _assert_graze(moving, target, motion, result, cast):
    """Answers that differ must come from a graze: turning the motion by 1e-4 either
    way makes the two agree."""
    for turn in (1e-4, -1e-4):
        turned = np.asarray(motion) + turn * np.linalg.norm(motion) * np.array([0.6, 0.8, 0.0])
        if _gjk_agrees(sweep(moving, target, turned), convex_cast(moving, target, turned)):
            return
    raise AssertionError(f"analytic {result} and GJK {cast} disagree, and not at a graze")


@SETTINGS
@given(hulls(), hulls(), motions)
def test_swapping_the_subject_keeps_the_time(moving, target, motion):
    forward = sweep(moving, target, motion)
    backward = sweep(target, moving, -motion)
    assert forward.hit == backward.hit
    if forward.hit:
        assert abs(forward.t - backward.t) <= tolerance.TIME_ATOL
        assert np.allclose(forward.normal, -backward.normal, atol=tolerance.NORMAL_ATOL) or forward.t == 0


@SETTINGS
@given(hulls(), meshes(), motions)
def test_polyhedron_against_a_mesh_matches_every_triangle(polyhedron, mesh, motion):
    identity = mesh.moved(translation=[0, 0, 0], rotation=np.eye(3))
    result = sweep(polyhedron, identity, motion, raw_edge_normals=True)
    corners = identity.vertices[identity.faces]
    every = sweep(polyhedron, Triangle(corners[:, 0], corners[:, 1], corners[:, 2]), motion)
    expected = float(np.nanmin(every.t)) if np.any(every.hit) else None
    assert (result.t if result.hit else None) == expected


def test_box_lands_on_a_mesh_vertex():
    from sweeplab.physics import TriangleMesh

    pyramid = TriangleMesh([[0, 0, 1], [1, 0, 0], [0, 1, 0], [-1, 0, 0], [0, -1, 0]],
                           [[0, 1, 2], [0, 2, 3], [0, 3, 4], [0, 4, 1]])
    result = sweep(ConvexPolyhedron.box([0.2, 0.2, 0.2], [0, 0, 3]), pyramid, [0.1, 0.05, -3])
    assert_close(result.t, 0.6, what="t")
    assert result.feature.kind == "vertex" and np.allclose(result.point, [0, 0, 1])


@settings(max_examples=examples(15), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hulls(), hulls(), motions)
def test_sat_matches_bisection_on_an_exact_distance(moving, target, motion):
    """The brute-force reference: bisection on a distance written from closest
    points and segment-triangle crossings (Python floats, nothing shared with SAT)."""
    from sweeplab.physics.reference import first_touch, minimum_time
    from tests.physics.brute_force import polytope_gap, polytope_parts

    first, second = polytope_parts(moving), polytope_parts(target)

    def gap(t):
        return polytope_gap(first, second, tuple(t * float(m) for m in motion))

    closest = gap(minimum_time(gap))
    assume(abs(closest) > tolerance.LENGTH_RTOL * 10 or closest == -1.0)  # not a graze
    expected = first_touch(gap)
    result = sweep(moving, target, motion)
    assert result.hit == (expected is not None)
    if result.hit:
        assert abs(result.t - expected) <= tolerance.TIME_ATOL * 10


@SETTINGS
@given(hulls(), hulls(), motions, st.sampled_from([1e-3, 1e3]), generic_vectors(-1, 1, 5.5))
def test_translation_and_scale_keep_the_time(moving, target, motion, scale, shift):
    here = sweep(moving, target, motion)
    shift = 1e3 * shift
    moved = sweep(moving.moved(translation=shift), target.moved(translation=shift), motion)
    scaled = sweep(ConvexPolyhedron(moving.vertices * scale), ConvexPolyhedron(target.vertices * scale),
                   motion * scale)
    for other, size in ((moved, 1e3), (scaled, 1.0)):
        if here.hit != other.hit:  # a graze flipped by the rounding of moved coordinates: judged elsewhere
            _assert_graze(moving, target, motion, here, convex_cast(moving, target, motion))
            continue
        if here.hit:
            bound = tolerance.TIME_ATOL + tolerance.TIME_RTOL_PER_SCALE * (size + 4) / np.linalg.norm(motion)
            assert abs(here.t - other.t) <= bound


def test_feature_pair_trace_gives_the_moving_shapes_touching_face():
    trace = SatTrace()
    sweep(ConvexPolyhedron.box([1, 1, 1], [0, 0, 5]), ConvexPolyhedron.box([2, 2, 1]), [0, 0, -6], trace=trace)
    assert trace.feature_pair == ("face", "face") and len(trace.moving_feature) == 4
    assert np.allclose(trace.moving_feature[:, 2], 1.0)  # the falling box's bottom face, at z = 1 when it lands


def test_regression_sliver_triangle_in_a_box_touches_the_edge_it_leaves_across():
    """A zero-area triangle (its corners on one line) inside a box, as a segment would:
    it leaves across the box's edge y = z = 1 and touches it at (0, 1, 1).  Its three
    collinear corners were taken for a face whose inside test let a corner of the box's
    edge through: the point came out as (0.2, 1, 1) (the overlap property of every pair)."""
    sliver = Triangle([0.0, 0, 1], [0, 1, 0], [0, 0.5, 0.5])
    box = ConvexPolyhedron.box([1, 1, 1])
    result = sweep(sliver, box, [0, 0, 0])
    edge = _edge_index(box, [-1, 1, 1], [1, 1, 1])
    assert_hit(result, t=0, normal=[0, math.sqrt(0.5), math.sqrt(0.5)], point=[0, 1, 1], depth=math.sqrt(0.5),
               feature=("edge", edge), face_index=result.face_index)
    swapped = sweep(box, sliver, [0, 0, 0])
    assert_hit(swapped, t=0, normal=[0, -math.sqrt(0.5), -math.sqrt(0.5)], point=[0, 0.5, 0.5], depth=math.sqrt(0.5),
               feature=("edge", 0))  # the triangle's longest edge, a to b


def test_regression_flat_hulls_that_meet_only_when_coplanar_touch():
    """Found by ``sweeplab fuzz --engine fcl --pair box-box`` (a shrunk degenerate draw):
    two flat triangles in the planes x = 1 (moving by (-1.97, -5, 0)) and x = 0 are
    coplanar at t = 1/1.97 only, and overlap then (a small region around
    y = 0.07, z = -2): a touch.  fcl and the GJK cast said hit at 0.5076142131979695;
    the separating axis test said miss, its latest entry (0.5076142131979696, on an
    in-plane axis) one ulp after its earliest exit (0.5076142131979695, on x)."""
    moving = ConvexPolyhedron([[1.0, 3.0, -2.0], [1.0, 2.6, -2.0], [1.0, 3.0, -2.188]])
    target = ConvexPolyhedron([[0.0, 0.12, -1.9], [0.0, 0.0, -1.6], [0.0, 0.0, -2.2]])
    result = sweep(moving, target, [-1.97, -5.0, 0.0])
    assert result.hit and abs(result.t - 1 / 1.97) <= 4e-16
    assert abs(abs(result.normal[0]) - 1) <= 1e-12 and abs(result.point[0]) <= 1e-15
    moved = moving.vertices + result.t * np.array([-1.97, -5.0, 0.0])
    for corners in (target.vertices, moved):  # the contact point lies in both triangles (their overlap)
        weights = np.linalg.lstsq(np.c_[corners[:, 1:], np.ones(3)].T, np.r_[result.point[1:], 1.0], rcond=None)[0]
        assert np.all(weights >= -1e-9), weights


@pytest.mark.parametrize("ulps, touching", [(3, True), (4, True), (5, False)])
def test_a_one_instant_touch_allows_an_entry_a_few_ulps_after_the_exit(ulps, touching):
    """``sat._overlap_in_time`` at its threshold: when the earliest exit is an axis that
    overlaps for one instant only, a latest entry up to ``tolerance.SAT_TOUCH_ULPS``
    (4) ulps of the exit after it is that touch, rounded apart.  Exit 0.5 (ulp 2^-53),
    entry 3, 4 or 5 ulps later: touching, touching, apart; without the one-instant
    axis, an entry one ulp after the exit is apart.  (With ``<``, the constant x10 or
    /10 one of these changed.)"""
    leave = 0.5
    entry = leave + ulps * 2.0**-53
    assert bool(_overlap_in_time(entry, leave, True)) is touching
    assert bool(_overlap_in_time(entry, leave, False)) is False
    assert bool(_overlap_in_time(math.nextafter(leave, 1), leave, False)) is False


@pytest.mark.parametrize("instant", [False, True])
def test_overlap_in_time_counts_the_ends_of_the_sweep(instant):
    """The interval [entry, leave] meets [0, 1] touching either end: an entry at 1
    exactly (also one ulp after a one-instant exit), a leave at 0 exactly, and an
    entry equal to the leave."""
    assert bool(_overlap_in_time(1.0, 1.0, instant)) is True
    assert bool(_overlap_in_time(0.0, 0.0, instant)) is True
    assert bool(_overlap_in_time(math.nextafter(1.0, 2), 2.0, instant)) is False
    assert bool(_overlap_in_time(-1.0, math.nextafter(0.0, -1), instant)) is False
    assert bool(_overlap_in_time(0.25, 0.25, instant)) is True
    assert bool(_overlap_in_time(1.0, 1 - 2.0**-53, True)) is True  # a one-instant touch at t = 1, an ulp apart


def test_regression_point_like_and_straight_hulls_answer_as_points_and_segments():
    """A polyhedron whose hull is one point touching a point answered normal (0, 0, 0)
    and depth inf (no axis separates two points); as a target of a moving plane it
    raised "argmin of an empty sequence".  Such hulls are the point or segment they
    are, on either side (the overlap property of every pair)."""
    dot = ConvexPolyhedron([[0.0, 0, 0]])
    assert_hit(sweep(dot, Point([0.0, 0, 0]), [0, 0, 0]), t=0, normal=[0, 0, 1], point=[0, 0, 0],
               feature=("vertex", 0))
    assert_hit(sweep(Plane([0.0, 0, 1], 0), dot, [0, 0, 0]), t=0, normal=[0, 0, -1], point=[0, 0, 0],
               feature=("vertex", 0))
    stick = ConvexPolyhedron([[0.0, 0, -1], [0, 0, 1]])
    assert_hit(sweep(Sphere([3.0, 0, 0.5], 1), stick, [-4, 0, 0]), t=0.5, normal=[1, 0, 0], point=[0, 0, 0.5],
               feature=("edge", 0))
    assert_hit(sweep(Triangle([2.0, -1, 0], [2, 1, 0], [3, 0, 0]), stick, [-4, 0, 0]), t=0.5, normal=[1, 0, 0],
               point=[0, 0, 0], feature=("edge", 0))


def test_regression_sphere_centred_on_a_corner_leaves_outward():
    """A sphere centred exactly on a corner of a tetrahedron, moving along an edge into
    it: every face through the corner saw the center on its plane (two-sided), and the
    one picked left along the motion, +z, into the solid: moved so, the sphere still
    overlapped (hypothesis, the overlap property of every pair).  A core on the
    surface now leaves outward, by the separating-axis rule of a core inside."""
    corner = ConvexPolyhedron([[0.0, -1, 0], [0, 0, 0], [0, 0, 1], [1, 0, 0]])
    result = sweep(Sphere([0.0, 0, 0], 1.0), corner, [0, 0, 2])
    assert result.initially_overlapping and result.penetration_depth == 1.0 and result.point.tolist() == [0, 0, 0]
    assert result.normal.tolist() in ([0, 0, -1], [-1, 0, 0], [0, 1, 0])  # outward normals of the faces at the corner


def test_ray_through_the_centre_of_a_box_face():
    """The centre of a box's face lies on the diagonal its fan triangles share: the
    boundary of both, which counts as the face."""
    box = ConvexPolyhedron.box([1, 1, 1])
    top = int(np.argmax(box.normals @ [0, 0, 1]))
    assert_hit(sweep(Point([0.0, 0, 5]), box, [0, 0, -10]), t=0.4, normal=[0, 0, 1], point=[0, 0, 1],
               feature=("face", top), face_index=top)


short_axis_motions = st.tuples(st.integers(0, 2), st.sampled_from([-1.0, 1.0]), st.floats(0.05, 1.0)).map(
    lambda axis_sign_length: axis_sign_length[1] * axis_sign_length[2] * np.eye(3)[axis_sign_length[0]])


@settings(max_examples=examples(30), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(st.builds(ConvexPolyhedron, degenerate_hulls()),
       st.one_of(st.builds(ConvexPolyhedron, degenerate_hulls()), near_shapes("polyhedron"), near_shapes("point"),
                 near_shapes("segment"), near_shapes("triangle")),
       short_axis_motions)
def test_degenerate_hulls_moving_a_short_way_along_an_axis(moving, target, motion):
    """Point, straight and flat hulls moving less than 1 along a coordinate axis (the
    motion axes' helper once vanished there, issue #17), both ways round, against
    bisection on the brute-force bodies' exact distance."""
    from sweeplab.physics.reference import first_touch, minimum_time

    first, second = body_of(moving), body_of(target)

    def gap(t):
        return gap_of(first.moved(tuple(t * float(m) for m in motion)), second)

    margin = tolerance.LENGTH_RTOL * scale(moving, target, direction=motion)
    assume(abs(gap(minimum_time(gap))) > margin)  # not a graze
    expected = first_touch(gap)
    for result in (sweep(moving, target, motion), sweep(target, moving, -motion)):
        assert result.hit == (expected is not None), (result, expected)
        if result.hit:
            assert abs(result.t - expected) <= tolerance.TIME_ATOL * 10
            assert abs(np.linalg.norm(result.normal) - 1) <= tolerance.EXACT_RTOL


def test_regression_lattice_box_faces_are_exact_so_a_touch_at_t_1_is_a_hit():
    """A square sliding flat onto a box whose corners are on a half-unit lattice touches
    the box's face x = 0.5 over a patch exactly at t = 1 (golden record 4019).  The
    face planes were refined by an SVD, whose unit normal came out an ulp off (1, 0, 0):
    the touch was missed.  Newell's normal of the face's loop is exact here."""
    square = Polygon([[1.5, -2.0, -0.5], [1.5, 0.0, -0.5], [1.5, 0.0, 1.5], [1.5, -2.0, 1.5]])
    box = ConvexPolyhedron([[x, y, z] for x in (-1.5, 0.5) for y in (-0.5, 0.5) for z in (-1.0, 0.0)])
    assert [list(normal) for normal in box.normals if normal[0] > 0] == [[1.0, 0.0, 0.0]]
    found = sweep(square, box, [-1.0, -0.0, -0.0], ignore_separating=True)
    assert found.hit and found.t == 1.0 and found.normal.tolist() == [1.0, 0.0, 0.0]


def test_polyhedron_answers_do_not_depend_on_the_cpu_s_blas_kernels():
    """Hulls, poses and feature lookups are computed elementwise (``core.dot_rows``), not
    by BLAS or LAPACK, whose kernels (picked per CPU) round differently: the golden
    corpus recorded on one machine answered 123 of its polyhedron records differently
    on another.  The same queries under OpenBLAS's oldest and a newer kernel set must
    agree bit for bit (kernels run as Python, ``NUMBA_DISABLE_JIT``: nothing to compile)."""
    import os
    import subprocess
    import sys

    script = (
        "import numpy as np, math\n"
        "from sweeplab.physics import ConvexPolyhedron, Sphere, sweep\n"
        "rng = np.random.default_rng(5)\n"
        "out = []\n"
        "for _ in range(12):\n"
        "    hull = ConvexPolyhedron(rng.normal(size=(12, 3)))\n"
        "    a = rng.normal(size=3); angle = rng.uniform(0, 6)\n"
        "    c, s = math.cos(angle), math.sin(angle)\n"
        "    turned = hull.posed(np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]]), a)\n"
        "    box = ConvexPolyhedron.box([1, 2, 3], rotation=np.array([[c, 0, s], [0, 1, 0], [-s, 0, c]]))\n"
        "    for target in (hull, turned, box):\n"
        "        r = sweep(Sphere(4 * rng.normal(size=3), 0.5), target, 8 * rng.normal(size=3))\n"
        "        out.append(repr((r.hit, r.t, r.point, r.normal, r.face_index, r.feature)))\n"
        "    out.append(repr((hull.normals.tolist(), hull.offsets.tolist(), turned.normals.tolist())))\n"
        "print(chr(10).join(out))\n")
    answers = []
    for core in ("Prescott", "Haswell"):
        environment = dict(os.environ, OPENBLAS_CORETYPE=core, NUMBA_DISABLE_JIT="1")
        done = subprocess.run([sys.executable, "-c", script], env=environment, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr[-2000:]
        answers.append(done.stdout)
    assert answers[0].count("True") > 3
    assert answers[0] == answers[1]


def test_regression_sliver_polygon_onto_a_flat_hull_answers_a_unit_normal():
    """Issue #31 (found by ``test_every_pair`` on a second run): a polygon with two
    vertices 8.5e-172 apart swept onto a flat hull.  The chosen axis crosses that
    edge, so its squared length underflows to 0; it was answered as the normal
    itself, [0, 0, -1.27e-171].  The hull's face is at z = 0.125, the polygon's top
    at z = 0.1: t = 0.025 / 2."""
    moving = Polygon([[2.2204460492503132e-17, 0.0, 0.09999999999999998],
                      [2.2204460492503132e-17, -8.452602368281602e-172, 0.09999999999999998],
                      [1.1997121204657452e-17, -0.08414709848078962, 0.05403023058681397]])
    target = ConvexPolyhedron([[1.0, 0.0, 0.125], [-0.5000000000000004, -0.8660254037844384, 0.125],
                               [-0.4999999999999998, 0.8660254037844387, 0.125]])
    result = sweep(moving, target, [0.0, 0.0, 2.0])
    assert_hit(result, t=0.0125, normal=[0.0, 0.0, -1.0], face_index=0)
    assert abs(result.point[2] - 0.125) <= 1e-15


FLOAT32 = float.fromhex


@pytest.mark.parametrize("swapped", [False, True], ids=["triangle-moving", "polyhedron-moving"])
def test_regression_float32_polyhedron_contact_point_is_on_both_shapes(swapped):
    """Issue #31: float32 corners, float64 kernels, but the hull's edge directions
    were subtracted in float32 (and its normals taken in float32): an edge tilted by
    1e-7 no longer lay in the face plane within the contact's slack, so the touching
    edge was read as a vertex and the point put 0.53 outside the hull."""
    hull = np.array([[FLOAT32(x) for x in row] for row in [
        ['0x1.c2a8b4p-3', '0x1.55c7c2p-1', '-0x1.2a68a8p-2'], ['-0x1.f402cap-1', '-0x1.d01118p-1', '-0x1.ed3fc0p-1'],
        ['-0x1.20e45ep-1', '-0x1.d59ac6p-2', '-0x1.6d962cp-2'], ['0x1.3c1e28p-2', '0x1.fdbff2p-2', '0x1.1337f0p-1'],
        ['0x1.0204c0p-1', '0x1.6b7748p-1', '0x1.c4ee46p-2'], ['-0x1.4f8ad2p-4', '-0x1.637dd4p-3', '-0x1.ac8e46p-1'],
        ['-0x1.f2558ep-1', '0x1.6da176p-1', '-0x1.67c030p-1'], ['0x1.750c60p-1', '-0x1.9be05ap-3', '-0x1.c2a426p-1'],
        ['0x1.50e5f8p-1', '0x1.b72d10p-2', '0x1.fd9a84p-1'], ['0x1.56b292p-4', '0x1.b867c2p-1', '0x1.9d5ab6p-7']]],
        np.float32)
    corners = np.array([[FLOAT32(x) for x in row] for row in [
        ['0x1.0fa764p+1', '-0x1.001e42p+0', '-0x1.28b8aap+1'], ['0x1.b07e96p+1', '-0x1.5ceb52p-3', '-0x1.c6db38p+0'],
        ['0x1.562f74p+1', '-0x1.c30618p-1', '-0x1.4b2996p+1']]], np.float32)
    d = np.array([FLOAT32('-0x1.3157fap+2'), FLOAT32('0x1.6b74bcp+0'), FLOAT32('0x1.0f4f34p+2')], np.float32)
    polyhedron, triangle = ConvexPolyhedron(hull), Triangle(*corners)
    double = sweep(Triangle(*corners.astype(float)), ConvexPolyhedron(hull.astype(float)), d.astype(float))
    if swapped:
        result = sweep(polyhedron, triangle, -d)
        on_hull = result.point.astype(float) - result.t * -d.astype(float)
    else:
        result = sweep(triangle, polyhedron, d)
        on_hull = result.point.astype(float)
    assert result.point.dtype == np.float32 and result.hit
    assert abs(result.t - double.t) <= 1e-7
    assert (polyhedron.normals @ on_hull - polyhedron.offsets).max() <= 1e-6  # was 0.53
    np.testing.assert_allclose(on_hull, double.point, atol=1e-6)
    if not swapped:
        assert result.feature == double.feature  # edge 17: the float32 point lies on it within its rounding

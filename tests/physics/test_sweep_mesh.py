"""Sphere and capsule sweeps against triangle meshes: hand-worked cases, the internal
edge rule, and properties against brute force over every triangle."""

from __future__ import annotations

import math
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sweeplab.physics import Capsule, Segment, Sphere, SweepResult, Triangle, TriangleMesh, sweep, tolerance
from sweeplab.physics.sweep import mesh as mesh_module
from sweeplab.physics.sweep.mesh import BALL, SEGMENT, culling_reach, one_walk, spread_bits, walk_order
from sweeplab.physics.sweep.mesh import edges_of as mesh_edges_of
from sweeplab.physics.sweep.mesh import (sweep_capsule_mesh, sweep_capsule_mesh_all, sweep_sphere_mesh,
                                         sweep_sphere_mesh_all)
from sweeplab.physics.sweep.rounded import segment_ball_entry_time
from sweeplab.physics.traversal import STATUS_NAMES, TraversalTrace
from tests.conftest import examples
from tests.physics.brute_force import closest_on_triangle
from tests.physics.expect import assert_close, assert_hit, assert_identical, assert_miss
from tests.physics.strategies import direction, meshes, radius, vector
from tests.physics.test_bvh import grid_mesh

SETTINGS = settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])


def floor(count: int = 2) -> TriangleMesh:
    """The square [0, count]^2 at z = 0 as a grid of unit squares split along x = y:
    face q is (x >= y) of quad q, face count^2 + q the other half."""
    return TriangleMesh(*grid_mesh(count))


def triangles_of(mesh: TriangleMesh) -> Triangle:
    corners = mesh.to_world(mesh.vertices)[mesh.faces]
    return Triangle(corners[:, 0], corners[:, 1], corners[:, 2])


# --- hand-worked ---------------------------------------------------------------

def test_sphere_falls_onto_the_floor():
    result = sweep(Sphere([0.3, 0.6, 2.5], 0.5), floor(), [0, 0, -4])
    assert_hit(result, t=0.5, normal=[0, 0, 1], point=[0.3, 0.6, 0], feature=("face", 0), face_index=4)


@pytest.mark.parametrize("lift, hits", [(2.0**-40, False), (0.0, True), (-(2.0**-40), True)])
def test_sphere_grazes_the_outer_edge(lift, hits):
    """Sliding along +y at height 1 + lift over the floor's edge y = 0."""
    result = sweep(Sphere([0.5, -4, 1 + lift], 1.0), floor(), [0, 8, 0])
    if not hits:
        assert_miss(result)
        return
    height = 1 + lift
    reach = math.sqrt(1 - height * height)  # how far ahead of the edge the ball touches it
    assert_close(result.t, (4 - reach) / 8, what="t")
    # the edge y = 0 of face 0 (a boundary edge: no neighbour, its raw normal stays);
    # the face itself is never *entered*: the ball already lies in its slab
    assert (result.face_index, result.feature.kind, result.feature.index) == (0, "edge", 0)
    assert_close(result.normal, [0, -reach, height], what="normal")


def test_capsule_lying_parallel_to_the_floor():
    for lift, hits in ((2.0**-40, False), (0.0, True)):
        capsule = Capsule([0.2, 0.5, 1.5 + lift], [1.8, 0.5, 1.5 + lift], 0.5)
        result = sweep(capsule, floor(), [0, 0, -1])
        if not hits:
            assert_miss(result)
            continue
        assert result.t == 1.0 and result.normal.tolist() == [0.0, 0.0, 1.0]
        assert result.feature.kind == "face" and result.point[2] == 0.0
        corners = floor().vertices[floor().faces[result.face_index]]
        assert np.allclose(closest_on_triangle(tuple(result.point), *map(tuple, corners)), result.point)


def test_initial_overlap_reports_the_deepest_triangle():
    result = sweep(Sphere([0.52, 0.5, 0.4], 0.5), floor(), [1, 0, 0])
    assert_hit(result, t=0, normal=[0, 0, 1], point=[0.52, 0.5, 0], depth=0.1, feature=("face", 0), face_index=0)


def test_zero_area_faces_answer_as_edges():
    vertices = np.array([[0, 0, 0], [2, 0, 0], [1, 0, 0]], float)
    mesh = TriangleMesh(vertices, [[0, 1, 2], [0, 0, 1]])
    result = sweep(Sphere([1.5, 0, 3], 1.0), mesh, [0, 0, -4])
    # edges 0 (x in [0, 2]) and 1 (x in [1, 2]) of face 0 touch at once: the longest wins
    assert_hit(result, t=0.5, normal=[0, 0, 1], point=[1.5, 0, 0], feature=("edge", 0), face_index=0)


def test_moving_mesh_against_a_sphere_swaps_the_subject():
    result = sweep(floor(), Sphere([0.3, 0.6, -2.5], 0.5), [0, 0, -4])  # the floor comes down onto the ball
    assert_hit(result, t=0.5, normal=[0, 0, 1], point=[0.3, 0.6, -2.0], feature=("face", 0))


def test_all_hits_through_a_folded_sheet():
    """A sphere passes through two parallel sheets: two hits per sheet crossing."""
    vertices, faces = grid_mesh(1)
    lower = vertices
    upper = vertices + [0, 0, 1]
    mesh = TriangleMesh(np.concatenate([lower, upper]), np.concatenate([faces, faces + 4]))
    hits = sweep_sphere_mesh_all(Sphere([0.25, 0.75, 3], 0.25), mesh, [0, 0, -4])
    assert np.allclose(hits.t, [0.4375, 0.6875])  # touches the upper sheet, then the lower one
    assert hits.face_index.tolist() == [3, 1] and np.all(hits.t[:-1] <= hits.t[1:])
    first = sweep_sphere_mesh(Sphere([0.25, 0.75, 3], 0.25), mesh, [0, 0, -4])
    assert first.t == hits.t[0] and first.face_index == hits.face_index[0]


def test_rotated_mesh_reports_world_space():
    quarter_turn = np.array([[1.0, 0, 0], [0, 0, -1], [0, 1, 0]])  # floor becomes the wall y = 0, facing -y... or +y
    wall = floor().moved(translation=[0, 0, 0], rotation=quarter_turn)
    result = sweep(Sphere([0.3, -3, 0.6], 0.5), wall, [0, 4, 0])
    assert_close(result.t, 0.625, what="t")
    assert_close(result.normal, [0, -1, 0], what="normal")
    assert_close(result.point, [0.3, 0, 0.6], what="point")


def test_trace_accounts_for_every_leaf():
    trace = TraversalTrace()
    mesh = floor(8)
    result = sweep_sphere_mesh(Sphere([3.3, 4.6, 2.5], 0.5), mesh, [0, 0, -4], trace=trace)
    counts = trace.counts()
    assert result.hit and counts["leaf hit"] >= 1
    assert counts["visited"] + counts["culled"] + counts["leaf hit"] + counts["leaf missed"] == len(trace.node)
    assert counts["leaf hit"] + counts["leaf missed"] < 128  # pruned: not every triangle was tested
    assert np.array_equal(trace.step, np.arange(len(trace.step)))  # one query: every node test in walk order
    assert trace.node[0] == 0 and set(trace.query) == {0}


def test_batched_queries_match_one_by_one():
    rng = np.random.default_rng(5)
    mesh = floor(4)
    centers, directions = rng.uniform(-1, 5, (50, 3)), rng.uniform(-4, 4, (50, 3))
    radii = rng.uniform(0, 1, 50)
    batch = sweep(Sphere(centers, radii), mesh, directions)
    for i in range(50):
        one = sweep(Sphere(centers[i], radii[i]), mesh, directions[i])
        assert one.hit == batch.hit[i]
        if one.hit:
            assert (one.t, one.face_index) == (batch.t[i], batch.face_index[i])
            assert np.array_equal(one.normal, batch.normal[i])


def test_bad_input_names_the_argument():
    with pytest.raises(ValueError, match="direction"):
        sweep(Sphere([0, 0, 1], 1), floor(), [0, np.inf, 0])
    with pytest.raises(ValueError, match="faces index out of range"):
        TriangleMesh([[0, 0, 0]], [[0, 0, 1]])
    with pytest.raises(ValueError, match="batch"):
        sweep_sphere_mesh_all(Sphere([[0, 0, 1], [0, 0, 2]], 1), floor(), [0, 0, -1])


# --- the internal-edge rule ----------------------------------------------------

def test_sliding_across_coplanar_seams_feels_no_edge():
    """A sphere sinking 1e-9 into a floor slides along +x across the seam x = 1 and
    the diagonals: with the rule it slides through; raw, the seam stops it with a
    normal tilted back against the motion (the classic ghost collision)."""
    sphere, motion = Sphere([0.4, 0.3, 0.5 - 1e-9], 0.5), [1.2, 0, 0]
    assert_miss(sweep(sphere, floor(), motion, ignore_separating=True))
    raw = sweep_sphere_mesh(sphere, floor(), motion, ignore_separating=True, raw_edge_normals=True)
    assert raw.hit and raw.feature.kind in ("edge", "vertex") and raw.normal[0] < 0


def test_contact_on_an_internal_edge_gets_the_face_normal():
    """A still sphere overlapping the floor near the diagonal of quad 0: the face
    under it and the neighbour's diagonal edge both touch; the edge contact takes
    the face normal and the depth along it."""
    from sweeplab.physics.contacts import contacts

    sphere = Sphere([0.52, 0.5, 0.4], 0.5)
    flat = contacts(sphere, floor())
    assert flat.face.tolist() == [0, 4]
    assert np.allclose(flat.normal, [[0, 0, 1], [0, 0, 1]]) and np.allclose(flat.depth, [0.1, 0.1])
    raw = contacts(sphere, floor(), raw_edge_normals=True)
    tilted = raw.normal[raw.face.tolist().index(4)]
    assert_close(tilted, np.array([0.01, -0.01, 0.4]) / math.sqrt(0.0002 + 0.16), what="raw normal")


def test_a_real_crease_keeps_its_edge_normal():
    """Two faces meeting at a 90-degree ridge: the ridge is not internal."""
    vertices = np.array([[0, 0, 0], [0, 1, 0], [-1, 0, -1], [1, 0, -1], [-1, 1, -1], [1, 1, -1]], float)
    mesh = TriangleMesh(vertices, [[0, 1, 2], [1, 4, 2], [0, 3, 1], [1, 3, 5]])
    result = sweep(Sphere([0, 0.5, 3], 0.5), mesh, [0, 0, -4])
    assert result.feature.kind == "edge" and np.allclose(result.normal, [0, 0, 1])
    assert_close(result.t, 0.625, what="t")


# --- properties against brute force ---------------------------------------------

def brute_force_first(moving, mesh: TriangleMesh, motion):
    """The earliest hit over every triangle of the mesh, tested one by one."""
    results = sweep(moving, triangles_of(mesh), motion)
    if not np.any(results.hit):
        return None
    return float(np.nanmin(results.t))


def _scale(mesh: TriangleMesh, *arrays) -> float:
    return 1.0 + max(float(np.abs(mesh.to_world(mesh.vertices)).max()), *[float(np.abs(a).max()) for a in arrays])


@SETTINGS
@given(meshes(), vector, radius, direction)
def test_sphere_mesh_matches_every_triangle(mesh, center, sphere_radius, motion):
    sphere = Sphere(center, sphere_radius)
    result = sweep_sphere_mesh(sphere, mesh, motion, raw_edge_normals=True)
    expected = brute_force_first(sphere, mesh, motion)
    if mesh.has_identity_pose:  # the same kernels on the same floats: bit-identical
        assert (result.t if result.hit else None) == expected
        return
    if expected is None or result.t is None:  # a pose rounds: only grazes may flip
        other = expected if result.t is None else result.t
        if other is not None:
            _assert_graze(sphere, mesh, motion, other)
        return
    scale = _scale(mesh, center, motion) / max(np.linalg.norm(motion), 1e-300)
    assert abs(result.t - expected) <= tolerance.TIME_ATOL + tolerance.TIME_RTOL_PER_SCALE * scale


def _assert_graze(sphere, mesh, motion, t):
    """A hit only one side reports must be a graze: the closest approach is ~r."""
    corners = mesh.to_world(mesh.vertices)[mesh.faces]
    p = tuple(float(c) + t * float(d) for c, d in zip(sphere.center, motion, strict=True))
    distance = min(math.dist(p, closest_on_triangle(p, *map(tuple, tri))) for tri in corners)
    assert abs(distance - float(sphere.radius)) <= tolerance.LENGTH_RTOL * _scale(mesh, sphere.center, motion)


@SETTINGS
@given(meshes(), vector, vector, radius, direction)
def test_capsule_mesh_matches_every_triangle(mesh, a, b, capsule_radius, motion):
    capsule = Capsule(a, b, capsule_radius)
    result = sweep_capsule_mesh(capsule, mesh.moved(translation=[0, 0, 0], rotation=np.eye(3)), motion,
                                raw_edge_normals=True)
    expected = brute_force_first(capsule, mesh.moved(translation=[0, 0, 0], rotation=np.eye(3)), motion)
    assert (result.t if result.hit else None) == expected


@SETTINGS
@given(meshes(), vector, radius, direction, vector)
def test_translating_everything_keeps_the_answer(mesh, center, sphere_radius, motion, shift):
    shift = 1e3 * shift
    sphere = Sphere(center, sphere_radius)
    here = sweep(sphere, mesh, motion)
    there = sweep(Sphere(center + shift, sphere_radius), mesh.moved(translation=mesh.translation + shift), motion)
    if here.hit and there.hit:
        scale = (_scale(mesh, center, motion) + 1e4) / max(np.linalg.norm(motion), 1e-300)
        assert abs(here.t - there.t) <= tolerance.TIME_ATOL + tolerance.TIME_RTOL_PER_SCALE * scale


@SETTINGS
@given(meshes(), vector, st.floats(0.01, 2), vector.filter(lambda v: np.linalg.norm(v) > 0.1))
def test_no_overlap_before_the_hit_and_touching_at_it(mesh, center, sphere_radius, motion):
    result = sweep(Sphere(center, sphere_radius), mesh, 2 * motion)
    corners = mesh.to_world(mesh.vertices)[mesh.faces]

    def gap(t):
        p = tuple(float(c) + t * float(d) for c, d in zip(center, 2 * motion, strict=True))
        return min(math.dist(p, closest_on_triangle(p, *map(tuple, tri))) for tri in corners) - sphere_radius

    bound = tolerance.LENGTH_RTOL * _scale(mesh, center, motion)
    if not result.hit:
        assert min(gap(t) for t in np.linspace(0, 1, 65)) >= -bound
        return
    assert abs(gap(result.t)) <= bound or (result.t == 0 and gap(0) <= bound)
    if result.t > 0:
        assert min(gap(t) for t in np.linspace(0, result.t, 33)[:-1]) >= -bound


def test_moving_segment_is_a_capsule_of_radius_zero():
    segment = Segment([0.2, 0.5, 1], [0.7, 0.5, 2])
    result = sweep(segment, floor(), [0, 0, -2])
    assert_hit(result, t=0.5, normal=[0, 0, 1], point=[0.2, 0.5, 0], feature=("face", 0), face_index=4)
    all_hits = sweep_capsule_mesh_all(Capsule(segment.a, segment.b, 0.0), floor(), [0, 0, -2])
    assert all_hits.t[0] == 0.5


def test_sphere_grazing_a_vertex_on_its_tree_sphere():
    """The tree sphere of the obtuse triangle (0, 0, 0), (4, 0, 0), (2, 1, 0) is its
    longest edge's circle: centre (2, 0, 0), radius 2, through the vertex (4, 0, 0).
    A sphere of radius 0.5 passing x = 4.5 touches that vertex exactly (at t = 0.5)
    and the tree sphere at the same point, from outside: the node test must not
    cull a graze the triangle test hits (``tolerance.BVH_CULL_RTOL``)."""
    mesh = TriangleMesh([[0.0, 0, 0], [4, 0, 0], [2, 1, 0]], [[0, 1, 2]])
    assert mesh.tree.centers.tolist() == [[2, 0, 0]] and mesh.tree.radii.tolist() == [2]
    assert_hit(sweep(Sphere([4.5, 0, -3], 0.5), mesh, [0, 0, 6]), t=0.5, normal=[1, 0, 0], point=[4, 0, 0],
               feature=("vertex", 1), face_index=0)


@pytest.mark.parametrize("margins, status", [(0.8, "leaf missed"), (1.25, "culled")])
def test_tree_spheres_are_widened_by_the_culling_margin(margins, status):
    """The node test's margin (``tolerance.BVH_CULL_RTOL`` of the query's scale: the
    largest of its coordinates and motion, 6, plus the tree's extent, 4) just inside and
    just outside it: the sphere of the test above passing the tree sphere that many
    margins clear of it (and so the vertex (4, 0, 0)) misses either way, but the leaf is
    tested (0.8 margins) or culled (1.25).  The margin is written out, 1e-12, so that
    its value is pinned too.  (Without the extent, 1e-12 x 6, the first was culled;
    with it twice, 1e-12 x 14, the second was tested.)"""
    mesh = TriangleMesh([[0.0, 0, 0], [4, 0, 0], [2, 1, 0]], [[0, 1, 2]])
    assert mesh.tree.extent == 4
    trace = TraversalTrace()
    clear = margins * 1e-12 * (6 + 4)
    assert_miss(sweep(Sphere([4.5 + clear, 0, -3], 0.5), mesh, [0, 0, 6.0], trace=trace))
    assert [STATUS_NAMES[code] for code in trace.status] == [status]


def height_grid(count: int = 12) -> TriangleMesh:
    """A bumpy count x count grid: vertex (x / 2, y / 2, 0.3 ((7 x + 3 y) mod 5) / 5)
    for x, y in 0..count, two triangles per cell (x-major, the cell's (a, b, c) then
    (a, c, d))."""
    heights = [[x / 2, y / 2, 0.3 * ((7 * x + 3 * y) % 5) / 5] for x in range(count + 1) for y in range(count + 1)]
    faces = []
    for x in range(count):
        for y in range(count):
            a = x * (count + 1) + y
            faces += [[a, a + count + 1, a + count + 2], [a, a + count + 2, a + 1]]
    return TriangleMesh(heights, faces)


def test_segment_node_bound_follows_the_closest_point_along_the_motion():
    """The capsule's node test (``rounded.segment_ball_entry_time``): where along the
    core its side first touches a node sphere is ``closest + t_side * rate``.  The core
    (-1.75, 0, 3) + s (2, 0, 0) moving by (2, 0, -4) reaches the unit ball about the
    origin with its side at t = 0.5, at s = 0.875 - 0.5 = 0.375, inside the core.
    With the sign flipped (s = 1.375) the side was dropped and the end ball at s = 0
    answered t = 0.557: a node entered later than it is, so culled wrongly."""
    assert segment_ball_entry_time((-1.75, 0.0, 3.0), (2.0, 0.0, 0.0), (2.0, 0.0, -4.0), 1.0) == 0.5


def test_capsule_over_a_bumpy_grid_matches_every_triangle():
    """The same node bound over a tree: a capsule coming down across a 12 x 12 height
    grid first touches face 13 (at an edge) at t = 0.29963251052316764, the minimum
    over its 288 triangles swept one by one.  With the node bound's sign flipped it
    answered t = 0.5087 at face 61: the tree sphere holding face 13 was culled and the
    capsule passed through its first contact."""
    mesh = height_grid()
    capsule, motion = Capsule([0.6, 5.7, 1.8], [-1.0, 3.6, 0.7], 0.1), [1.0, -4.5, -3.0]
    result = sweep(capsule, mesh, motion)
    every = sweep(capsule, triangles_of(mesh), motion)
    first = np.nanmin(every.t)
    assert np.flatnonzero(every.t == first).tolist() == [13]
    assert (result.t, result.face_index) == (first, 13) and first == 0.29963251052316764


def test_tie_between_equally_deep_faces_entered_at_the_same_time():
    """A big sphere over a 288-triangle grid overlaps 153 triangles at t = 0.  Faces 29
    and 172 (the two halves of the square under the center, which sits on their shared
    diagonal) are equally deep (4.75); the tie goes to the lower face index, whichever
    the walk meets first: a leaf entered exactly at the best time so far (t = 0) must
    still be tested."""
    mesh = floor(12)
    sphere, motion = Sphere([2.5, 5.0, 0.25], 5.0), [3.0, 1.0, 0.0]
    trace = TraversalTrace()
    result = sweep(sphere, mesh, motion, trace=trace)
    tested = trace.node[trace.status >= STATUS_NAMES.index("leaf missed")]
    assert len(tested) >= 153
    every = sweep(sphere, triangles_of(mesh), motion)
    deepest = np.flatnonzero(every.penetration_depth == np.nanmax(every.penetration_depth))
    assert deepest.tolist() == [29, 172] and np.all(every.feature.kind[deepest] == "face")
    assert_hit(result, t=0, normal=[0, 0, 1], point=[2.5, 5, 0], depth=4.75, feature=("face", 0), face_index=29)


def test_regression_internal_edge_rule_only_where_the_core_is_over_the_flat_surface():
    """Two coplanar triangles in x = 0 share an (internal) edge; a unit ball centred in
    their plane, outside both, overlaps face 1 across its outer edge 0 by
    1 - sqrt(0.2) (its closest point (0, 0.4, -0.2)) and face 0 across the shared
    edge.  The internal-edge rule turned the latter into a face contact of depth 1
    along -x, which won as the deepest: moved so, the ball was apart from the mesh
    (hypothesis, the overlap property of every pair).  The rule flattens a contact
    only where the core is over the flat surface the edge lies in."""
    mesh = TriangleMesh([[0.0, 0.0, -2.0], [0.0, 0.5, 0.0], [0.0, 0.0, -1.0], [0.0, 1.0, 0.0]], [[0, 2, 3], [1, 2, 3]])
    assert mesh_edges_of(mesh).internal[0].tolist() == [False, True, False]
    result = sweep(Sphere([0.0, 0, 0], 1.0), mesh, [0, 0, 0])
    assert_hit(result, t=0, normal=np.array([0, -2, 1]) / math.sqrt(5), point=[0, 0.4, -0.2],
               depth=1 - math.sqrt(0.2), feature=("edge", 0), face_index=1)
    over_the_seam = sweep(Sphere([0.1, 0.5, -0.5], 1.0), mesh, [0, 0, 0])  # above the shared edge: flat
    assert_hit(over_the_seam, t=0, normal=[1, 0, 0], point=[0, 0.5, -0.5], depth=0.9, feature=("face", 0),
               face_index=0)


def _over_the_flat_surface(dtype, below):
    """``mesh.over_the_flat_surface`` for a ball centred at (0.5, -below, 0) touching the
    shared (internal) edge 1 of face 0, (0, 0, 0)-(1, 0, 0)-(0, 1, 0), whose neighbour
    face 1 is (1, 0, 0)-(1, 1, 0)-(0, 1, 0): in ``dtype``, every array as a walk has it."""
    mesh = TriangleMesh(np.array([[0.0, 0, 0], [1.0, 0, 0], [0.0, 1, 0], [1.0, 1, 0]], dtype), [[0, 1, 2], [1, 3, 2]])
    assert mesh_edges_of(mesh).internal[0].tolist() == [False, True, False]
    arrays = mesh_module.walk_arrays(mesh, np.dtype(dtype))[1]
    zero, no_rows = dtype(0.0), np.empty((0, 3), dtype)
    center = np.array([[0.5, -below, 0.0]], dtype)
    query = mesh_module.CoreQuery(BALL, center, dtype(0.5), (zero, zero, zero), (zero, zero, zero), dtype(0.5),
                                  no_rows, no_rows, np.empty((0, 2), np.int64), False, 0.0, False, False, *arrays,
                                  np.empty((1, 3), dtype), np.empty((3, 3), dtype))
    return mesh_module.over_the_flat_surface(query, 0, mesh_module.EDGE, 1, (dtype(0.5), zero, zero), zero)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_over_the_flat_surface_up_to_the_rounding_of_the_lanes_dtype(dtype):
    """The ball's center lies ``below`` outside face 0's edge 0 (and outside face 1):
    it counts as over the flat surface up to the rounding of the coordinates,
    ``COORDINATE_ROUNDING_ULPS`` ulps of the lane's dtype of the largest |vertex| (1)
    plus the center's (0.5): 1.5 * 64 * 2^-52 in float64, 1.5 * 64 * 2^-23 in float32.
    At it and one float inside: over; one float outside: not.  (The margin used
    float64's epsilon for float32 lanes too: there, a center 1e-6 off, well within
    float32's rounding of 1.1e-5, counted as beside the surface.)"""
    margin = dtype(1.5 * tolerance.COORDINATE_ROUNDING_ULPS * np.finfo(dtype).eps)
    assert _over_the_flat_surface(dtype, margin)
    assert _over_the_flat_surface(dtype, np.nextafter(margin, dtype(0)))
    assert not _over_the_flat_surface(dtype, np.nextafter(margin, dtype(1)))
    assert _over_the_flat_surface(dtype, dtype(0.0))


# --- a single sweep walks on arrays kept with the mesh ---------------------------------

def lane(batch: SweepResult, i: int) -> SweepResult:
    """Row ``i`` of a batched answer as a single sweep's answer."""
    return SweepResult.from_arrays(t=batch.t[i], point=batch.point[i], normal=batch.normal[i],
                                   face_index=batch.face_index[i], penetration_depth=batch.penetration_depth[i],
                                   feature_code=batch.feature._codes[0][i], feature_index=batch.feature.index[i],
                                   scalar=True)


def assert_single_as_in_a_batch(moving, other, mesh, motion, **options):
    """A single sweep (on its mesh's kept arrays, ``one_walk``) answers bit for bit as
    the same query in a batch of two (arrays made for the batch)."""
    single = sweep_each(moving, mesh, motion, **options)
    pair = sweep_each(stacked(moving, other), mesh, np.stack([motion, motion]), **options)
    assert_identical(single, lane(pair, 0))


def sweep_each(moving, mesh, motion, **options):
    test = sweep_sphere_mesh if isinstance(moving, Sphere) else sweep_capsule_mesh
    return test(moving, mesh, motion, **options)


def stacked(moving, other):
    """``moving`` and ``other`` (same kind) as a batch of two."""
    if isinstance(moving, Sphere):
        return Sphere(np.stack([moving.center, other.center]), np.stack([moving.radius, other.radius]))
    return Capsule(np.stack([moving.a, other.a]), np.stack([moving.b, other.b]),
                   np.stack([moving.radius, other.radius]))


moving_shapes = st.one_of(st.builds(Sphere, vector, radius), st.builds(Capsule, vector, vector, radius))


@SETTINGS
@given(meshes(), moving_shapes, direction, st.booleans(), st.booleans(), st.sampled_from([np.float64, np.float32]))
def test_single_sweep_answers_as_in_a_batch(mesh, moving, motion, ignore_separating, raw_edge_normals, dtype):
    """Random queries: misses, hits, initial overlaps (a sphere inside the soup's box
    often starts overlapping), zero radii and motions; float32 shapes too."""
    if dtype is np.float32:
        moving = Sphere(moving.center.astype(dtype), moving.radius.astype(dtype)) if isinstance(moving, Sphere) \
            else Capsule(moving.a.astype(dtype), moving.b.astype(dtype), moving.radius.astype(dtype))
        motion = motion.astype(dtype)
    other = Sphere([9.0, 9, 9], 0.5) if isinstance(moving, Sphere) else Capsule([9.0, 9, 9], [9.0, 9, 8], 0.5)
    assert_single_as_in_a_batch(moving, other, mesh, motion, ignore_separating=ignore_separating,
                                raw_edge_normals=raw_edge_normals)


@pytest.mark.parametrize("lift", [2.0**-40, 0.0, -(2.0**-40)])
def test_single_grazing_sweep_answers_as_in_a_batch(lift):
    """The graze over the floor's outer edge (``test_sphere_grazes_the_outer_edge``): a
    miss, an exact touch, a hit; a capsule lying across the motion likewise."""
    motion = np.array([0.0, 8, 0])
    assert_single_as_in_a_batch(Sphere([0.5, -4, 1 + lift], 1.0), Sphere([0.5, -4, 3.0], 1.0), floor(), motion)
    capsule = Capsule([0.2, -4, 1 + lift], [1.8, -4, 1 + lift], 1.0)
    assert_single_as_in_a_batch(capsule, Capsule([0.2, -4, 3.0], [1.8, -4, 3.0], 1.0), floor(), motion)


def test_single_sweeps_on_other_threads_walk_on_their_own_arrays():
    """Each thread has its own ``one_walk`` arrays for a mesh (a sweep on another
    thread never writes into them), kept from one sweep to the next."""
    mesh = floor(4)
    sweep(Sphere([0.3, 0.6, 2.5], 0.5), mesh, [0, 0, -4])
    mine = one_walk(mesh, BALL, np.dtype(np.float64))
    assert one_walk(mesh, BALL, np.dtype(np.float64)) is mine
    assert one_walk(mesh, SEGMENT, np.dtype(np.float64)) is not mine
    with ThreadPoolExecutor(1) as pool:
        assert pool.submit(one_walk, mesh, BALL, np.dtype(np.float64)).result() is not mine


def test_single_sweeps_on_many_threads_answer_as_on_one():
    rng = np.random.default_rng(7)
    mesh = height_grid()
    centers, motions = rng.uniform(-1, 7, (64, 3)), rng.uniform(-4, 4, (64, 3))
    expected = [sweep(Sphere(center, 0.3), mesh, motion) for center, motion in zip(centers, motions, strict=True)]
    with ThreadPoolExecutor(4) as pool:
        answers = list(pool.map(lambda i: sweep(Sphere(centers[i], 0.3), mesh, motions[i]), range(64)))
    for answer, wanted in zip(answers, expected, strict=True):
        assert_identical(answer, wanted)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("motion, largest", [((5.0, 0.0, -1.0), 7.0), ((0.0, -9.0, 1.0), 9.0)])
def test_culling_reach_is_the_radius_plus_the_margin_of_the_coordinates(dtype, motion, largest):
    """``culling_reach`` in the lane's dtype: radius + BVH_CULL_RTOL (the largest
    |coordinate| of the points and the motion -- the second point's -7, or the motion's
    -9 -- plus the tree's extent), each operation rounded to ``dtype`` (in float32 the
    margin, 1e-12 (7 + 4), is below half an ulp of the radius: the reach is the radius)."""
    points = np.array([[1.0, -2, 3], [0.5, -7, 0.25]], dtype)
    radius, extent = dtype(0.5), dtype(4.0)
    reach = culling_reach(points, tuple(dtype(x) for x in motion), radius, extent)
    assert reach == radius + dtype(tolerance.BVH_CULL_RTOL) * (dtype(largest) + extent)
    assert (reach == radius) == (dtype is np.float32)


# --- a batch's walks run in Morton order; answers come back in the caller's -----------

def test_spread_bits_puts_bit_k_at_bit_3k():
    assert spread_bits(np.array([0b1011], np.uint64)).tolist() == [0b1000001001]
    assert spread_bits(np.array([2**21 - 1, 2**21], np.uint64)).tolist() == [0x1249249249249249, 0]


def test_walk_order_follows_the_z_order_curve():
    """The corners of a box, scrambled: Morton order has x in the lowest bit, then y,
    then z.  A batch of one point (no extent) and one spanning more than float64's range
    get an order too (a permutation)."""
    corners = np.array([[x, y, z] for z in (0, 1) for y in (0, 1) for x in (0, 1)], float) * [2, 3, 5]
    scrambled = np.random.default_rng(3).permutation(8)
    assert (walk_order(corners[scrambled]) == np.argsort(scrambled)).all()
    assert sorted(walk_order(np.zeros((4, 3)))) == [0, 1, 2, 3]
    assert sorted(walk_order(np.array([[-1e308, 0, 0], [1e308, 0, 0], [0.0, 0, 0]]))) == [0, 1, 2]


def test_batch_answers_come_back_in_the_callers_order(monkeypatch):
    """A batch's answers, bit for bit, are each query's single sweep's, in the batch's
    order: shuffled, and with its walks run in Morton order or reversed."""
    rng = np.random.default_rng(11)
    mesh = height_grid()
    centers, motions, radii = rng.uniform(-1, 7, (40, 3)), rng.uniform(-4, 4, (40, 3)), rng.uniform(0, 1, 40)
    singles = [sweep(Sphere(centers[i], radii[i]), mesh, motions[i]) for i in range(40)]
    shuffle = rng.permutation(40)
    for order in (walk_order, lambda points: np.arange(len(points))[::-1].copy()):
        monkeypatch.setattr(mesh_module, "walk_order", order)
        batch = sweep(Sphere(centers[shuffle], radii[shuffle]), mesh, motions[shuffle])
        for row, query in enumerate(shuffle):
            assert_identical(lane(batch, row), singles[query])

"""Issue #19's reproducers for input the API once accepted wrongly, refused with
numpy's words, or took quadratic time over: each is refused by name in one line, or
answered as the valid input it is."""

from __future__ import annotations

import numpy as np
import pytest

from sweeplab.physics import ConvexPolyhedron, Plane, Polygon, Segment, Sphere, TriangleMesh, sweep
from sweeplab.physics.hull import MAX_HULL_POINTS
from sweeplab.physics.sweep.dispatch import sweep_each
from sweeplab.physics.sweep.mesh import sweep_sphere_mesh
from sweeplab.physics.sweep.polyhedron import sweep_polyhedron_polytope


def test_a_bow_tie_is_refused():
    """Its two lobes' areas cancel: no Newell normal, yet not a sliver."""
    with pytest.raises(ValueError, match="crosses itself"):
        Polygon([[0, 0, 0], [1, 1, 0], [1, 0, 0], [0, 1, 0]])


def test_collinear_vertices_are_still_a_valid_sliver():
    sliver = Polygon([[0.0, 0, 0], [1, 0, 0], [2, 0, 0], [1, 0, 0]])
    assert sweep(Sphere([1.0, 0, 3], 0.5), sliver, [0, 0, -5]).hit


def test_complex_coordinates_are_refused_not_truncated():
    with pytest.raises(ValueError, match="center must be real"):
        Sphere(np.array([1 + 2j, 0, 0]), 1.0)
    with pytest.raises(ValueError, match="direction must be real"):
        sweep(Sphere([0.0, 0, 0], 1.0), Sphere([3.0, 0, 0], 1.0), np.array([1j, 0, 0]))


def test_an_empty_batch_of_polyhedra_is_valid_and_answers_nothing():
    empty = ConvexPolyhedron(np.zeros((0, 8, 3)))
    assert empty.batch_shape == (0,)
    assert sweep(Sphere([0.0, 0, 5], 1.0), empty, [0.0, 0, -10]).hit.shape == (0,)
    assert sweep(empty, ConvexPolyhedron.box([1.0, 1, 1]), [0.0, 0, -10]).hit.shape == (0,)
    assert sweep(Sphere(np.zeros((0, 3)), np.zeros(0)), ConvexPolyhedron.box([1.0, 1, 1]), [0, 0, -5]).t.shape == (0,)


def test_a_float16_or_long_double_mesh_rotation_is_taken():
    for dtype in (np.float16, np.longdouble):
        mesh = TriangleMesh([[0.0, 0, 0], [1, 0, 0], [0, 1, 0]], [[0, 1, 2]], rotation=np.eye(3, dtype=dtype))
        assert sweep(Sphere([0.2, 0.2, 2], 0.5), mesh, [0.0, 0, -4]).hit


def test_batches_that_do_not_broadcast_are_named_with_their_shapes():
    with pytest.raises(ValueError, match=r"moving, target, direction do not broadcast: \(\(3,\), \(2,\), \(\)\)"):
        sweep(Sphere(np.zeros((3, 3)), 1.0), Sphere(np.zeros((2, 3)), 1.0), [0, 0, 1.0])


def test_ragged_mesh_faces_are_named():
    with pytest.raises(ValueError, match="faces must be integers of shape"):
        TriangleMesh([[0, 0, 0.0], [1, 0, 0], [0, 1, 0]], [[0, 1, 2], [0, 1]])


def test_segment_and_plane_batches_broadcast_every_field_alike():
    found = sweep(Segment([0.0, 0, 2], [1, 0, 2]), Plane([[0.0, 0, 1], [0, 0, 1]], [0, -1]), [[[0.0, 0, -4]]])
    assert found.hit.shape == found.t.shape == (1, 2) and found.point.shape == found.normal.shape == (1, 2, 3)
    assert sweep(Segment([0.0, 0, 1], [[0.0, 0, 2]]), Plane([0.0, 0, 1], 0), [0, 0, -5]).t.tolist() == [0.2]


def test_too_many_hull_points_are_refused_before_any_quadratic_work():
    """10,000 points took 23.6 s and 6.3 GB before the limit was checked (a 10^4 x 10^4
    distance matrix); the merge now stops at the limit (0.01 s here)."""
    with pytest.raises(ValueError, match=f"at most {MAX_HULL_POINTS} distinct points"):
        ConvexPolyhedron(np.random.default_rng(0).normal(size=(10_000, 3)))


def test_a_large_polygon_validates_in_linear_memory():
    """A 10,000-vertex polygon took 21.8 s and 7.7 GB (a V x V x 3 array); the side test
    now runs a block of edges at a time."""
    angles = np.linspace(0, 2 * np.pi, 10_000, endpoint=False)
    circle = np.c_[np.cos(angles), np.sin(angles), np.zeros_like(angles)]
    assert Polygon(circle).vertices.shape == (10_000, 3)
    with pytest.raises(ValueError, match="convex"):
        Polygon(np.r_[circle[:5000], [[0.0, 0, 0]], circle[5000:]])  # a notch at the centre


@pytest.mark.parametrize("scale", [1e200, 1e-200, 3e-170])
def test_a_plane_normal_of_any_finite_size_is_normalised(scale):
    """Its squares overflowed to inf (normal (0, 0, 0)) or underflowed to 0 (refused as
    zero); a power-of-two rescale first keeps the direction exactly."""
    plane = Plane([0.0, 0, scale], 0.0)
    np.testing.assert_array_equal(plane.normal, [0, 0, 1])
    exponent = int(np.round(np.log2(scale)))  # (3, 4, 0) times a power of two near ``scale``: exactly (0.6, 0.8, 0)
    assert Plane(np.ldexp([3.0, 4, 0], exponent), 1.0).normal.tolist() == Plane([3.0, 4, 0], 1.0).normal.tolist()
    found = sweep(Sphere([0.0, 0, 5], 1.0), plane, [0.0, 0, -10])
    assert found.hit and found.t == 0.4 and found.normal.tolist() == [0, 0, 1]


def test_a_float32_plane_normal_below_float32_squares_is_normalised():
    plane = Plane(np.array([0, 0, 1e-30], np.float32), np.float32(0))
    assert plane.normal.dtype == np.float32 and plane.normal.tolist() == [0, 0, 1]


DART = np.array([[0, 0, 0], [2, 1, 0], [0, 0.3, 0], [-2, 1, 0.0]])  # re-entrant at (0, 0.3)
WARPED = np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0.2], [0, 1, 0.0]])
SQUARE = np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0.0]])


@pytest.mark.parametrize("exponent", [-1000, -272, -60, 0, 60, 256, 500, 1000])
def test_polygons_are_judged_alike_at_every_scale(exponent):
    """A dart x 1e77 and a warped quad x 1e-82 were accepted (areas overflowed or
    underflowed); scaled by 2^k the verdict is the unit one."""
    with pytest.raises(ValueError, match="convex"):
        Polygon(np.ldexp(DART, exponent))
    with pytest.raises(ValueError, match="planar"):
        Polygon(np.ldexp(WARPED, exponent))
    assert Polygon(np.ldexp(SQUARE, exponent)).vertices.shape == (4, 3)


@pytest.mark.parametrize("exponent", [-1070, -1000, -501, -241, -240, 0, 240, 241, 501, 1000, 1020])
def test_polyhedra_are_built_alike_at_every_scale(exponent):
    """A tetrahedron x 1e308 was hulled as a single point (its extent overflowed, and
    every point merged into one): scaled by 2^k it has the unit one's hull, with its
    own corners and offsets scaled back exactly."""
    corners = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1.0]])
    unit, scaled = ConvexPolyhedron(corners), ConvexPolyhedron(np.ldexp(corners, exponent))
    assert (scaled.dimension, scaled.faces, scaled.edges.tolist()) == (unit.dimension, unit.faces, unit.edges.tolist())
    np.testing.assert_array_equal(scaled.normals, unit.normals)
    np.testing.assert_array_equal(scaled.vertices, np.ldexp(unit.vertices, exponent))
    np.testing.assert_array_equal(scaled.offsets, np.ldexp(unit.offsets, exponent))


def test_an_integer_beyond_float64_is_refused_by_name():
    """Issue #31: ``Sphere([10**400, 0, 0], 1)`` raised numpy's OverflowError."""
    with pytest.raises(ValueError, match="center must be finite"):
        Sphere([10**400, 0, 0], 1.0)
    with pytest.raises(ValueError, match="radius must be finite"):
        Sphere([0.0, 0, 0], 10**400)


def test_long_double_and_half_shapes_are_computed_in_float64():
    """Issue #31: any ``np.longdouble`` shape made every sweep raise ``OverflowError:
    math range error`` (in ``unit_size_plan``).  Other float types than float32 and
    float64 are taken as float64, and answer in it."""
    for dtype in (np.longdouble, np.float16):
        moving = Sphere(np.array([0, 0, 0], dtype), dtype(1))
        assert moving.center.dtype == np.float64
        found = sweep(moving, Sphere(np.array([3, 0, 0], dtype), dtype(1)), np.array([5, 0, 0], dtype))
        assert found.hit and found.t == 0.2 and found.point.dtype == np.float64


def test_long_double_coordinates_beyond_float64_are_refused_by_name():
    """Issue #31: they reached an ``IndexError`` inside ``ConvexPolyhedron``."""
    huge = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]], np.longdouble)
    huge[3, 2] = np.longdouble(2) ** 2000
    if not np.isfinite(huge[3, 2]):
        pytest.skip("this platform's long double is float64")
    with pytest.raises(ValueError, match="vertices must be finite in float64"):
        ConvexPolyhedron(huge)


@pytest.mark.parametrize("call, message", [
    (lambda: sweep(Sphere([0.0, 0, 0], 1.0), None, [1.0, 0, 0]), "target must be a shape .*, got NoneType"),
    (lambda: sweep("sphere", Sphere([0.0, 0, 0], 1.0), [1.0, 0, 0]), "moving must be a shape .*, got str"),
    (lambda: sweep_each(Sphere([0.0, 0, 0], 1.0), [3], [1.0, 0, 0]), "target must be a shape .*, got int"),
    (lambda: sweep(Sphere([0.2, 0.2, 1], 0.1), TriangleMesh([[0.0, 0, 0], [1, 0, 0], [0, 1, 0]], [[0, 1, 2]]),
                   [0.0, 0, -2], trace=5), "trace must be a TraversalTrace, got int"),
    (lambda: sweep(ConvexPolyhedron.box([1.0, 1, 1]), ConvexPolyhedron.box([1.0, 1, 1], center=[3.0, 0, 0]),
                   [5.0, 0, 0], trace=5), "trace must be a SatTrace, got int"),
])
def test_what_is_not_a_shape_or_a_trace_is_a_type_error_naming_the_argument(call, message):
    """Issue #31: these reached ``AttributeError`` deep inside."""
    with pytest.raises(TypeError, match=message):
        call()


@pytest.mark.parametrize("call, message", [
    (lambda: sweep_sphere_mesh(Sphere([0.2, 0.2, 1], 0.1),
                               TriangleMesh([[0.0, 0, 0], [1, 0, 0], [0, 1, 0]], [[0, 1, 2]]), [0.0, 0, -2], trace=5),
     "trace must be a TraversalTrace, got int"),
    (lambda: sweep_polyhedron_polytope(ConvexPolyhedron.box([1.0, 1, 1]),
                                       ConvexPolyhedron.box([1.0, 1, 1], center=[3.0, 0, 0]), [5.0, 0, 0], trace=5),
     "trace must be a SatTrace, got int"),
])
def test_a_pair_test_called_directly_checks_its_trace_as_sweep_does(call, message):
    """Issue #33: only ``sweep`` checked the trace; a pair test called directly with
    ``trace=5`` reached ``AttributeError: 'int' object has no attribute 'record_walks'``
    (``'axes'`` for the polytope pair) after its walk."""
    with pytest.raises(TypeError, match=message):
        call()

"""The GJK convex cast against the analytic sweeps on every bounded convex pair."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sweeplab.physics import Capsule, ConvexPolyhedron, Plane, Sphere, Triangle, sweep
from sweeplab.physics.gjk import closest_on_simplex, convex_cast
from tests.physics.test_sweep_polyhedron import _assert_graze, _gjk_agrees, generic_vectors

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
KINDS = ("point", "sphere", "segment", "capsule", "triangle", "polygon")


@st.composite
def bounded(draw, phase: float):
    """A bounded convex shape of every kind but the polyhedron, at generic coordinates."""
    from sweeplab.physics import Point, Polygon, Segment

    kind = draw(st.sampled_from(KINDS))
    a, b = draw(generic_vectors(-3, 3, phase)), draw(generic_vectors(-3, 3, phase + 1))
    radius = draw(st.floats(0.05, 1.5))
    if kind == "point":
        return Point(a)
    if kind == "sphere":
        return Sphere(a, radius)
    if kind == "segment":
        return Segment(a, b)
    if kind == "capsule":
        return Capsule(a, b, radius)
    c = draw(generic_vectors(-3, 3, phase + 2))
    if kind == "triangle":
        return Triangle(a, b, c)
    return Polygon([a, b, c])


@SETTINGS
@given(bounded(0.3), bounded(2.2), generic_vectors(-8, 8, 4.4).filter(lambda d: np.linalg.norm(d) > 0.5))
def test_every_pair_agrees_with_the_gjk_cast(moving, target, motion):
    try:
        result = sweep(moving, target, motion)
    except TypeError:  # a pair without an analytic test (triangle against triangle)
        return
    cast = convex_cast(moving, target, motion)
    if not _gjk_agrees(result, cast):
        _assert_graze(moving, target, motion, result, cast)


def test_unbounded_and_batched_shapes_are_refused():
    with pytest.raises(TypeError, match="Plane"):
        convex_cast(Sphere([0, 0, 0], 1), Plane([0, 0, 1], 0), [1, 0, 0])
    with pytest.raises(ValueError, match="no batches"):
        convex_cast(Sphere([[0, 0, 0], [1, 1, 1]], 1), Sphere([0, 0, 5], 1), [0, 0, 1])


def test_hand_worked_casts():
    cast = convex_cast(Sphere([0, 3, 0], 0.5), Sphere([0, 0, 0], 1.0), [0, -4, 0])
    assert cast.status == "hit" and abs(cast.t - 0.375) <= 1e-12 and np.allclose(cast.normal, [0, 1, 0])
    assert convex_cast(Sphere([0, 2.5, 0], 1), Sphere([0, 0, 0], 1.0), [5, 0, 0]).status == "miss"
    assert convex_cast(Sphere([0, 0.5, 0], 1), Sphere([0, 0, 0], 1.0), [5, 0, 0]).status == "overlap at start"


def test_hand_worked_polytope_and_capsule_casts():
    cast = convex_cast(Sphere([3.0, 0, 0], 0.5), ConvexPolyhedron.box([1.0, 1, 1]), [-4.0, 0, 0])
    assert cast.status == "hit" and abs(cast.t - 0.375) <= 1e-12
    np.testing.assert_allclose(cast.normal, [1, 0, 0], atol=1e-12)
    np.testing.assert_allclose(cast.point, [1, 0, 0], atol=1e-9)
    cast = convex_cast(Capsule([-5.0, 0, 0], [-5.0, 0, 2], 0.5), Capsule([0.0, -1, 1], [0.0, 1, 1], 0.5),
                       [10.0, 0, 0])
    assert cast.status == "hit" and abs(cast.t - 0.4) <= 1e-12
    np.testing.assert_allclose(cast.normal, [-1, 0, 0], atol=1e-12)
    np.testing.assert_allclose(cast.point, [-0.5, 0, 1], atol=1e-9)


def test_closest_point_of_a_tetrahedron_and_of_degenerate_simplices():
    point, kept, weights = closest_on_simplex(np.array([[1.0, 1, 1], [-1.0, -1, 1], [-1.0, 1, -1], [1.0, -1, -1]]))
    assert np.allclose(point, 0, atol=1e-15) and kept.tolist() == [0, 1, 2, 3]
    np.testing.assert_allclose(weights, [0.25] * 4)
    # the origin beyond a face of the tetrahedron: that face, its affine closest point
    point, kept, weights = closest_on_simplex(np.array([[1.0, 0, 1], [-1.0, 1, 1], [-1.0, -1, 1], [0.0, 0, 3]]))
    assert np.allclose(point, [0, 0, 1]) and kept.tolist() == [0, 1, 2] and np.isclose(weights.sum(), 1)
    # collinear points (no triangle) and a repeated point (no edge): smaller faces answer
    point, kept, weights = closest_on_simplex(np.array([[-1.0, 1, 0], [1.0, 1, 0], [3.0, 1, 0]]))
    assert np.allclose(point, [0, 1, 0]) and kept.tolist() == [0, 1] and np.allclose(weights, [0.5, 0.5])
    point, kept, weights = closest_on_simplex(np.array([[2.0, 1, 0], [2.0, 1, 0]]))
    assert np.array_equal(point, [2, 1, 0]) and kept.tolist() == [0] and weights.tolist() == [1.0]


@pytest.mark.parametrize("grow", [-2.0, -2.0 + 1e-12, 0.005])
def test_grow_rounds_the_shapes_by_that_much_more(grow):
    """Unit spheres 3 apart along a sweep of 10: contact where the gap is -grow, at
    t = (3 - grow) / 10; at -2 the summed radius is 0 (the centres meet), just above fine."""
    cast = convex_cast(Sphere([0, 0, 5], 1.0), Sphere([0, 0, 0], 1.0), [0, 0, -10], grow=grow)
    assert cast.status == "hit" and cast.t == pytest.approx((3 - grow) / 10, abs=1e-12)
    if grow >= 0:  # boxes have no radius: only a positive grow keeps the sum >= 0
        boxes = convex_cast(ConvexPolyhedron.box([1.0, 1, 1], center=[0, 0, 5]), ConvexPolyhedron.box([1.0, 1, 1]),
                            [0, 0, -10], grow=grow)
        assert boxes.status == "hit" and boxes.t == pytest.approx((3 - grow) / 10, abs=1e-12)


@pytest.mark.parametrize("grow", [-2.0 - 1e-12, float("nan")])
def test_grow_below_the_summed_radius_is_refused(grow):
    with pytest.raises(ValueError, match="grow must keep the summed radius 2.0 >= 0"):
        convex_cast(Sphere([0, 0, 5], 1.0), Sphere([0, 0, 0], 1.0), [0, 0, -10], grow=grow)

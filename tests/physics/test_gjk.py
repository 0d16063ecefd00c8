"""The GJK convex cast against the analytic sweeps on every bounded convex pair."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from physics import Capsule, Plane, Sphere, Triangle, sweep
from physics.gjk import convex_cast
from tests.physics.test_sweep_polyhedron import _assert_graze, _gjk_agrees, generic_vectors

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
KINDS = ("point", "sphere", "segment", "capsule", "triangle", "polygon")


@st.composite
def bounded(draw, phase: float):
    """A bounded convex shape of every kind but the polyhedron, at generic coordinates."""
    from physics import Point, Polygon, Segment

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

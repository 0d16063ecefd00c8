"""Answers keep the dtype they are given: float32 answers agree with float64
within ``tolerance.FLOAT32_RTOL`` on the hand-worked (non-grazing) cases, and
every pair, either way round, answers float32 questions in float32."""

import numpy as np
import pytest

from physics import (Capsule, ConvexPolyhedron, Plane, Point, Polygon, Segment, Sphere, Triangle, TriangleMesh, sweep,
                     tolerance)
from physics.sweep.dispatch import PAIR_TESTS

CASES = [
    (Sphere([-5.0, 0, 0], 1.0), Point([0.0, 0, 0]), [10.0, 0, 0]),
    (Sphere([-5.0, 0.6, 0], 1.0), Point([0.0, 0, 0]), [10.0, 0, 0]),
    (Sphere([-5.0, 0, 0], 1.0), Sphere([0.0, 0, 0], 2.0), [10.0, 0, 0]),
    (Sphere([5.0, 0, 0], 1.0), Segment([0.0, -1, 0], [0.0, 1, 0]), [-10.0, 0, 0]),
    (Sphere([5.0, 1.6, 0], 1.0), Segment([0.0, -1, 0], [0.0, 1, 0]), [-10.0, 0, 0]),
    (Sphere([0.0, 0, 10], 1.0), Plane([0.0, 0, 1], 2.0), [10.0, 0, -10]),
    (Sphere([1.0, 1, 5], 1.0), Triangle([0.0, 0, 0], [4.0, 0, 0], [0.0, 4, 0]), [0.0, 0, -10]),
    (Sphere([-5.0, -5, 0], 1.0), Triangle([0.0, 0, 0], [4.0, 0, 0], [0.0, 4, 0]), [10.0, 10, 0]),
    (Sphere([1.0, 1, 0.5], 1.0), Triangle([0.0, 0, 0], [4.0, 0, 0], [0.0, 4, 0]), [1.0, 0, 0]),
    (Sphere([7.0, 7, 0], 1.0), Polygon([[0.0, 0, 0], [2.0, 0, 0], [2.0, 2, 0], [0.0, 2, 0]]), [-10.0, -10, 0]),
]


def as_float32(shape):
    fields = {name: np.asarray(getattr(shape, name), np.float32) for name in shape._fields}
    return type(shape)(**fields)


@pytest.mark.parametrize("moving, target, direction", CASES)
def test_float32_agrees_with_float64(moving, target, direction):
    double = sweep(moving, target, direction)
    single = sweep(as_float32(moving), as_float32(target), np.asarray(direction, np.float32))
    assert single.hit == double.hit and single.initially_overlapping == double.initially_overlapping
    scale = 10.0
    assert abs(single.t - double.t) <= tolerance.FLOAT32_RTOL * scale
    np.testing.assert_allclose(single.point, double.point, atol=tolerance.FLOAT32_RTOL * scale)
    np.testing.assert_allclose(single.normal, double.normal, atol=tolerance.FLOAT32_RTOL * scale)


def test_float32_in_float32_out():
    moving, target, direction = CASES[6]
    batch = sweep(Sphere(np.asarray([moving.center], np.float32), np.float32(1)), as_float32(target),
                  np.asarray(direction, np.float32))
    assert batch.t.dtype == batch.point.dtype == batch.normal.dtype == np.float32


def example(kind, center):
    """A float64 shape of ``kind`` around ``center`` (about one unit across)."""
    c = np.asarray(center, float)
    square = c + np.array([[-1.0, -1, 0], [1, -1, 0], [1, 1, 0], [-1, 1, 0]])
    return {
        Point: lambda: Point(c),
        Sphere: lambda: Sphere(c, 0.5),
        Segment: lambda: Segment(c - [0.5, 0.2, 0], c + [0.5, 0.2, 0]),
        Capsule: lambda: Capsule(c - [0.5, 0.2, 0], c + [0.5, 0.2, 0], 0.3),
        Plane: lambda: Plane([0.0, 0, 1], c[2]),
        Triangle: lambda: Triangle(*square[:3]),
        Polygon: lambda: Polygon(square),
        ConvexPolyhedron: lambda: ConvexPolyhedron(c + 0.6 * np.array([[x, y, z] for x in (-1, 1) for y in (-1, 1)
                                                                        for z in (-1, 1)])),
        TriangleMesh: lambda: TriangleMesh(square, [[0, 1, 2], [0, 2, 3]]),
    }[kind]()


def in_float32(shape):
    if isinstance(shape, TriangleMesh):
        return TriangleMesh(shape.vertices.astype(np.float32), shape.faces)
    return type(shape)(*[np.asarray(getattr(shape, name), np.float32) for name in shape._fields])


SWEEPABLE_PAIRS = sorted({pair for moving, target in PAIR_TESTS for pair in ((moving, target), (target, moving))}
                         | {(Point, target) for moving, target in PAIR_TESTS if moving is Sphere}
                         | {(Segment, target) for moving, target in PAIR_TESTS if moving is Capsule},
                         key=lambda pair: (pair[0].__name__, pair[1].__name__))


@pytest.mark.parametrize("moving_kind, target_kind", SWEEPABLE_PAIRS,
                         ids=[f"{m.__name__}-{t.__name__}" for m, t in SWEEPABLE_PAIRS])
def test_every_pair_keeps_float32(moving_kind, target_kind):
    """Float32 shapes and direction give float32 answers, for every pair either way
    round: a batch of directions (a hit, a miss) from apart and from overlapping."""
    for target_center in ([0.0, 0.0, 3.0], [0.1, 0.05, 0.2]):
        moving, target = example(moving_kind, [0.0, 0, 0]), example(target_kind, target_center)
        directions = np.array([[0.0, 0, 6], [6.0, 0, -0.5]], np.float32)
        single = sweep(in_float32(moving), in_float32(target), directions)
        double = sweep(moving, target, directions.astype(float))
        for name in ("t", "point", "normal", "penetration_depth"):
            assert getattr(single, name).dtype == np.float32, name
        assert single.hit.tolist() == double.hit.tolist()
        assert single.initially_overlapping.tolist() == double.initially_overlapping.tolist()
        np.testing.assert_allclose(single.t, double.t, atol=tolerance.FLOAT32_RTOL * 10)
        np.testing.assert_allclose(single.normal, double.normal, atol=tolerance.FLOAT32_RTOL * 10)


def test_crossing_cores_stay_float32():
    """Capsule cores that cross at t = 0 (zero separation: the escape rule picks the
    normal) answer in float32 too, batched with a lane that does not cross."""
    f32 = np.float32
    moving = Capsule(np.array([[0, 0, 0], [0, 0, 0]], f32), np.array([[1, 0, 0], [1, 0, 0]], f32), f32(0.3))
    target = Capsule(np.array([[0.5, -1, 0], [0.5, -1, 0.4]], f32), np.array([[0.5, 1, 0], [0.5, 1, 0.4]], f32),
                     f32(0.2))
    found = sweep(moving, target, np.array([[0, 0, 1], [0, 1, 0]], f32))
    assert found.initially_overlapping.tolist() == [True, True]
    assert found.t.dtype == found.point.dtype == found.normal.dtype == found.penetration_depth.dtype == np.float32
    np.testing.assert_allclose(found.penetration_depth, [0.5, 0.1], rtol=1e-6)

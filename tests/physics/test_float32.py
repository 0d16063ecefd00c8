"""Answers keep the dtype they are given: float32 answers agree with float64
within ``tolerance.FLOAT32_RTOL`` on the hand-worked (non-grazing) cases, and
every pair, either way round, answers float32 questions in float32."""

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from sweeplab.physics import (Capsule, ConvexPolyhedron, Plane, Point, Polygon, Segment, Sphere, Triangle, TriangleMesh,
                              sweep, tolerance)
from sweeplab.physics.sweep.dispatch import PAIR_TESTS

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


# Rays (points) grazing a triangle's edge in float32, found by running 10^6 lanes of the
# compiled kernels against the numpy ones: the compiled face test divided a float32 sum by
# an integer count, which numba does in float64, so part of the float32 lane computed in
# float64 (6,310 of 85,000 near-contact float32 lanes answered differently).
FLOAT32_RAY_GRAZES = [
    ([-0.4349265992641449, 1.3613871335983276, -2.2496795654296875], [-0.6128017902374268, -0.4529724419116974,
     -0.3269326686859131], [[-1.8495908975601196, 2.1934139728546143, -1.0013538599014282],
     [-0.8763426542282104, 1.0351001024246216, -2.4851770401000977], [-2.09131121635437, -2.5141866207122803,
     1.3033431768417358]]),
    ([0.02254532277584076, -1.0432966947555542, -0.800299882888794], [-0.2641051113605499, 0.28320956230163574,
     0.08169346302747726], [[1.4376556873321533, 1.0686869621276855, -0.17419946193695068],
     [-2.1202824115753174, -1.5129081010818481, -2.5061089992523193], [-0.14454278349876404, -0.8641220331192017,
     -0.7486158609390259]]),
    ([-2.8162245750427246, 0.4627554416656494, -2.140526294708252], [-0.02311387099325657, -0.12381840497255325,
     0.11229584366083145], [[-2.831958532333374, 0.3784702718257904, -2.064084768295288],
     [-0.9178687930107117, 0.4591187834739685, -0.6496560573577881], [0.4829430878162384, 1.2058799266815186,
     2.49578857421875]]),
]


def _float32_answers():
    answers = []
    for start, motion, corners in FLOAT32_RAY_GRAZES:
        result = sweep(Point(np.array(start, np.float32)), Triangle(*np.array(corners, np.float32)),
                       np.array(motion, np.float32))
        answers.append(None if not result.hit else (result.t, result.point.tolist(), result.feature.kind))
    return answers


def test_regression_float32_lanes_compute_in_float32_compiled_or_not():
    """The compiled kernels answer float32 lanes as the same source does run as plain
    Python on numpy float32 scalars (``NUMBA_DISABLE_JIT=1``): in float32 throughout."""
    script = "from tests.physics.test_float32 import _float32_answers; print(repr(_float32_answers()))"
    uncompiled = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True,
                                env={**os.environ, "NUMBA_DISABLE_JIT": "1"}, cwd=Path(__file__).parents[2])
    assert repr(_float32_answers()) == uncompiled.stdout.strip()
